"""Command line: ``python -m engine SYSTEM AKTION …``, ``python -m engine roll 2W6+3``.

``python -m engine kampf SYSTEM`` prints a system's fight contract (life values, states and
their rules, conditions; ``--json`` as the page reads it), ``python -m engine zustand SYSTEM
--lep 3 --ko 12`` the state of a fighter with these values (the one state function).

Every action's options are generated from its parameter schema (the same one the forms use).
A list parameter (e.g. the fighters) is given once per entry: ``--fighters "name=Alrik,ini=12"``.
Required fields are required options (given as an option or inside ``--params``); a missing
one is reported in German before anything is rolled. Output into a closed pipe (``… | head``)
ends quietly.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections.abc import Sequence
from typing import Any

from engine import api, dice
from engine.budget import request_budget
from engine.errors import EngineError, echo
from engine.fight_contract import contract_of
from engine.formatting import fraction_text, number, percent
from engine.params import BoolParam, ChoiceParam, IntParam, ListParam, Param
from engine.registry import SYSTEMS, Action

# the commands of the command line itself: no system may take one of these names
OWN_COMMANDS = ("roll", "list", "describe", "kampf", "zustand")

# argparse's own error texts (Python 3.11–3.14), in German
ARGPARSE_GERMAN = (
    ("the following arguments are required", "diese Angaben fehlen"),
    ("unrecognized arguments", "unbekannte Angaben"),
    ("invalid choice", "ungültige Wahl"),
    ("choose from", "möglich sind"),
    ("invalid int value", "keine ganze Zahl"),
    ("expected one argument", "erwartet einen Wert"),
    ("argument ", "Angabe "),
)


class GermanHelpFormatter(argparse.HelpFormatter):
    def add_usage(
        self,
        usage: str | None,
        actions: Any,
        groups: Any,
        prefix: str | None = None,
    ) -> None:
        super().add_usage(usage, actions, groups, "Aufruf: " if prefix is None else prefix)


class GermanParser(argparse.ArgumentParser):
    """argparse with German usage line, section titles and help option."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", GermanHelpFormatter)
        kwargs["add_help"] = False
        super().__init__(*args, **kwargs)
        self._positionals.title = "Argumente"
        self._optionals.title = "Optionen"
        self.add_argument("-h", "--help", action="help", help="diese Hilfe anzeigen und beenden")

    def error(self, message: str) -> Any:
        for english, german in ARGPARSE_GERMAN:
            message = message.replace(english, german)
        self.print_usage(sys.stderr)
        self.exit(2, f"Fehler: {message}\n")


def _item_help(param: ListParam) -> str:
    fields = ", ".join(f"{p.name} ({p.label})" for p in param.item)
    return f"{param.label}: einmal je {param.item_label}, als „schlüssel=wert,…“. Felder: {fields}."


def _parse_record(text: str, option: str) -> dict[str, Any]:
    record: dict[str, Any] = {}
    for part in text.split(","):
        if not part.strip():
            continue
        if "=" not in part:
            raise EngineError(
                f"--{option}: „{echo(part)}“ hat nicht die Form schlüssel=wert.", option
            )
        key, value = part.split("=", 1)
        record[key.strip()] = value.strip()
    return record


def _add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--seed", type=int, help="Startwert des Zufalls (gleicher Seed, gleicher Wurf)"
    )
    parser.add_argument("--json", action="store_true", help="Ergebnis als JSON ausgeben")
    parser.add_argument(
        "--chances", action="store_true", help="nur die exakten Wahrscheinlichkeiten ausgeben"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = GermanParser(
        prog="python -m engine",
        description="Regelwerk-Engine: Würfe, Kampfregeln und exakte Wahrscheinlichkeiten.",
    )
    sub = parser.add_subparsers(
        dest="cli_command",
        required=True,
        metavar="BEFEHL",
        title="Befehle",
        parser_class=GermanParser,
    )
    roll = sub.add_parser("roll", help="einen Würfelausdruck würfeln (z. B. 2W6+3)")
    roll.add_argument("notation", help="Würfelausdruck, z. B. 1W20, 2W6+3, 2W20kh1")
    _add_common(roll)
    sub.add_parser("list", help="alle Systeme und Aktionen auflisten")
    describe = sub.add_parser("describe", help="Parameter einer Aktion als JSON")
    describe.add_argument("system")
    describe.add_argument("action")
    fight = sub.add_parser(
        "kampf", help="der Kampf eines Systems: Lebenswerte, Zustände, Bedingungen"
    )
    fight.add_argument("system", choices=list(SYSTEMS), metavar="SYSTEM")
    fight.add_argument("--json", action="store_true", help="als JSON ausgeben")
    state = sub.add_parser(
        "zustand", help="der Zustand eines Kämpfers mit diesen Werten (z. B. --lep 3 --ko 12)"
    )
    systems = state.add_subparsers(
        dest="cli_system",
        required=True,
        metavar="SYSTEM",
        title="Systeme",
        parser_class=GermanParser,
    )
    for system in SYSTEMS.values():
        one = systems.add_parser(system.name, help=system.title)
        for value in contract_of(system.name).params():
            one.add_argument(f"--{value.name}", dest=_dest(value), metavar="WERT", help=value.label)
        one.add_argument("--json", action="store_true", help="als JSON ausgeben")
    for system in SYSTEMS.values():
        sys_parser = sub.add_parser(system.name, help=f"Aktionen für {system.title}")
        actions = sys_parser.add_subparsers(
            dest="cli_action",
            required=True,
            metavar="AKTION",
            title="Aktionen",
            parser_class=GermanParser,
        )
        for action in system.actions.values():
            act = actions.add_parser(action.name, help=action.title, description=action.summary)
            for param in action.params:
                _add_param_option(act, param, action.params)
            act.add_argument("--params", help="alle Parameter als JSON-Objekt")
            _add_common(act)
            _add_odds_options(act, action)
    return parser


def _add_odds_options(parser: argparse.ArgumentParser, action: Action) -> None:
    """„Was wäre wenn“ and „Vergleichen“ (engine/odds.py) for every action; the field is
    optional where the action names its own."""
    numbers = [p.name for p in action.params if isinstance(p, IntParam)]
    choices = [p.name for p in action.params if isinstance(p, ChoiceParam | BoolParam)]
    if not numbers and not choices:
        return
    odds = parser.add_mutually_exclusive_group()
    for option, dest, fields, own, what in (
        (
            "--was-waere-wenn",
            "what_if",
            numbers,
            action.what_if,
            "die Chancen über die Werte eines Zahlenfelds (z. B. des Gegners)",
        ),
        (
            "--vergleichen",
            "compare",
            choices,
            action.compare[0] if action.compare else "",
            "die Chancen jeder Wahl eines Auswahlfelds nebeneinander",
        ),
    ):
        if fields:
            default = f"; ohne FELD: {own}" if own else ""
            odds.add_argument(
                option,
                dest=dest,
                nargs="?",
                const="",
                metavar="FELD",
                help=f"{what}{default} (Felder: {', '.join(fields)})",
            )


def _requirement(param: Param, params: Sequence[Param]) -> str:
    """German note for the help: required, or required in a situation."""
    if param.required:
        return " (Pflichtangabe)"
    if param.required_when is None:
        return ""
    other, values = param.required_when
    label = next((p.label for p in params if p.name == other), other)
    shown = ", ".join(echo(v) for v in values)
    return f" (Pflichtangabe bei {label} = {shown})"


def _dest(param: Param) -> str:
    """Where argparse keeps a field's option (apart from the CLI's own names, e.g. the
    Tickleiste's fields ``command`` and ``action``)."""
    return f"field_{param.name}"


def _add_param_option(
    parser: argparse.ArgumentParser, param: Param, params: Sequence[Param]
) -> None:
    need = _requirement(param, params)
    if isinstance(param, ListParam):
        parser.add_argument(
            f"--{param.name}",
            dest=_dest(param),
            action="append",
            metavar="FELDER",
            help=_item_help(param) + need + _formerly_help(param),
        )
    else:
        parser.add_argument(
            f"--{param.name}",
            dest=_dest(param),
            metavar="ja|nein" if isinstance(param, BoolParam) else "WERT",
            help=_field_help(param) + need + _formerly_help(param),
        )
    # a former name (Param.formerly) stays an option of its own: the engine reads it as the
    # field and refuses both names at once, naming the field
    for old in param.formerly:
        parser.add_argument(
            f"--{old}",
            dest=_former_dest(old),
            action="append" if isinstance(param, ListParam) else "store",
            help=argparse.SUPPRESS,
        )


def _field_help(param: Param) -> str:
    """The field's label, then its help text (the help alone would hide what the field is)."""
    return f"{param.label}: {param.help}" if param.help else param.label


def _former_dest(old: str) -> str:
    return f"formerly_{old}"


def _formerly_help(param: Param) -> str:
    if not param.formerly:
        return ""
    return f" (früher: {', '.join('--' + old for old in param.formerly)})"


def _former_dests(param: Param) -> list[tuple[str, str]]:
    return [(old, _former_dest(old)) for old in param.formerly]


def _missing_options(params: Sequence[Param], given: dict[str, Any]) -> list[str]:
    """The required options given neither as an option nor inside ``--params`` (a field
    required only in some situations is reported by the engine, naming the situation)."""
    return [
        f"--{param.name} ({param.label})"
        for param in params
        if param.required and all(given.get(name) is None for name in (param.name, *param.formerly))
    ]


def _table_lines(columns: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(str(row[i])) for row in [columns, *rows]) for i in range(len(columns))]
    return [
        "  " + "  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
        for row in [columns, *rows]
    ]


def _section_lines(section: dict[str, Any]) -> list[str]:
    lines: list[str] = []
    if section.get("caption"):
        lines.append(section["caption"] + ":")
    if section["kind"] == "table":
        lines += _table_lines(section["columns"], section["rows"])
    elif section["kind"] == "rolls":
        for item in section["items"]:
            faces = " ".join(
                f"[{d['value']}]" if d["kept"] else f"({d['value']})" for d in item["dice"]
            )
            mods = " ".join(f"{m['label']} {m['value']}" for m in item["modifiers"])
            decided = f" {item['decision']}" if item.get("decision") else ""
            total = f"= {item['total']}{decided}"
            lines.append(f"  {item['label']}: {item['notation']} {faces} {mods} {total}")
    elif section["kind"] == "chances":
        for item in section["items"]:
            lines.append(f"  {item['label']}: {item['percent']} ({item['fraction']})")
    elif section["kind"] == "distribution":
        numeric = section.get("numeric")
        columns = [section["axis"], *(("genau", "mindestens") if numeric else ("Chance",))]
        rows = [
            [bar["label"], bar["percent"], bar["at_least_percent"]]
            if numeric
            else [bar["label"], bar["percent"]]
            for bar in section["bars"]
        ]
        lines += _table_lines(columns, rows)
        if numeric:
            mean = section["mean"]
            label = mean.get("label", "Mittelwert")
            lines.append(f"  {label}: {mean['text']} ({mean['fraction']})")
    elif section["kind"] == "notes":
        lines += [f"  {note}" for note in section["items"]]
    return lines


def _render_sections(display: dict[str, Any], only_chances: bool = False) -> str:
    lines: list[str] = []
    if not only_chances:
        lines += [display["headline"], display["outcome"], ""]
    for section in display["sections"]:
        if only_chances and section["kind"] not in ("chances", "distribution"):
            continue
        lines += _section_lines(section)
        lines.append("")
    return "\n".join(lines).rstrip("\n")


def _render_text(result: dict[str, Any], only_chances: bool) -> str:
    text = _render_sections(result["result"]["display"], only_chances)
    if only_chances:  # the chances do not depend on the roll: no seed to repeat
        return text
    return f"{text}\n\nSeed: {result['seed']}"


def _roll_command(args: argparse.Namespace) -> int:
    try:
        expression = dice.parse(args.notation, "notation", "Würfelausdruck")
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
        rolled = dice.roll(expression, random.Random(seed))
        with request_budget():  # one budget for the distribution and the mean
            dist = dice.distribution(expression)
            expected = dice.expected_value(expression)
    except EngineError as error:
        print(f"Fehler: {error.message}", file=sys.stderr)
        return 2
    if args.json:
        body = {
            "ok": True,
            "seed": seed,
            "roll": rolled.to_dict(),
            "distribution": {str(k): str(v) for k, v in dist.items()},
            "expected": str(expected),
        }
        print(json.dumps(body, ensure_ascii=False, indent=2, sort_keys=True))
        return 0
    if not args.chances:
        faces = " ".join(
            f"[{d.value}]" if d.kept else f"({d.value})" for t in rolled.terms for d in t.dice
        )
        print(f"{expression.notation()}: {faces} = {number(rolled.total)}")
        print(f"Seed: {seed}")
    print(f"Erwartungswert: {float(expected):.4g}".replace(".", ","))
    for total, p in dist.items():
        print(f"  {number(total):>6}: {percent(p):>8} ({fraction_text(p)})")
    return 0


def _action_command(args: argparse.Namespace) -> int:
    action = SYSTEMS[args.cli_command].actions[args.cli_action]
    params: dict[str, Any] = {}
    try:
        if args.params:
            try:
                loaded = json.loads(args.params)
            except (json.JSONDecodeError, RecursionError):
                raise EngineError("--params: kein gültiges JSON.", "params") from None
            if not isinstance(loaded, dict):
                raise EngineError("--params: muss ein JSON-Objekt sein.", "params")
            params.update(loaded)
        for param in action.params:
            for name, dest in ((param.name, _dest(param)), *_former_dests(param)):
                value = getattr(args, dest, None)
                if value is None:
                    continue
                if isinstance(param, ListParam):
                    params[name] = [_parse_record(v, name) for v in value]
                else:
                    params[name] = value
        missing = _missing_options(action.params, params)
        if missing:
            raise EngineError(f"diese Pflichtangaben fehlen: {', '.join(missing)}.")
    except EngineError as error:
        print(f"Fehler: {error.message}", file=sys.stderr)
        return 2
    for kind, ask in (("what_if", api.what_if), ("compare", api.compare)):
        field = getattr(args, kind, None)
        if field is not None:
            answer = ask(args.cli_command, args.cli_action, params, field or None)
            return _print_answer(answer, kind, args.json)
    result = api.run(args.cli_command, args.cli_action, params, args.seed)
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=2, sort_keys=True))
        return 0 if result["ok"] else 2
    if not result["ok"]:
        print(f"Fehler: {result['error']['message']}", file=sys.stderr)
        return 2
    print(_render_text(result, args.chances))
    return 0


def _print_answer(answer: dict[str, Any], kind: str, as_json: bool) -> int:
    """A „Was wäre wenn“ or „Vergleichen“ answer, as JSON or as its table and notes."""
    if as_json:
        print(json.dumps(answer, ensure_ascii=False, indent=2, sort_keys=True))
        return 0 if answer["ok"] else 2
    if not answer["ok"]:
        print(f"Fehler: {answer['error']['message']}", file=sys.stderr)
        return 2
    print(_render_sections(answer[kind]["display"]))
    return 0


def _fight_text(fight: dict[str, Any]) -> str:
    """The fight contract in German, for a reader."""
    title = SYSTEMS[fight["system"]].title

    def limits(item: dict[str, Any]) -> str:
        return f"{number(item['min'])} bis {number(item['max'])}"

    lines = [f"Kampf – {title}"]
    values = [
        f"  {v['title']} ({v['label']}, {limits(v)}{', von Hand' if v['by_hand'] else ''})"
        for v in fight["values"]
    ]
    lines += ["Lebenswerte:", *(values or ["  keine"])]
    if fight["reads"]:
        lines += ["Kennwerte:", *(f"  {r['title']} ({limits(r)})" for r in fight["reads"])]
    if fight["states"]:
        lines.append("Zustände (die erste Regel, die zutrifft, gilt):")
        lines += [f"  {s['rule']}{_down(s)}" for s in fight["states"]]
        lines.append(f"  sonst: {fight['fit']['text']}")
    else:
        lines.append("Zustände: keine Regel – der Spielleiter setzt sie von Hand.")
    names = ", ".join(c["name"] for c in fight["conditions"]) or "keine"
    lines.append(f"Bedingungen: {names}")
    if fight["note"]:
        lines.append(f"Von Hand: {fight['note']}")
    return "\n".join(lines)


def _down(state: dict[str, Any]) -> str:
    """„ (kampfunfähig)“ after a system's word that does not say it (sterbend)."""
    return "" if state["zustand"] in state["text"] else f" ({state['zustand']})"


def _fight_command(args: argparse.Namespace) -> int:
    fight = api.fight_contract(args.system)
    if args.json:
        print(json.dumps(fight, ensure_ascii=False, indent=2, sort_keys=True))
    else:
        print(_fight_text(fight))
    return 0


def _state_command(args: argparse.Namespace) -> int:
    system = args.cli_system
    values = {
        p.name: getattr(args, _dest(p))
        for p in contract_of(system).params()
        if getattr(args, _dest(p)) is not None
    }
    try:
        state = api.fight_state(system, values)
    except EngineError as error:
        print(f"Fehler: {error.message}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"ok": True, "state": state}, ensure_ascii=False, indent=2))
        return 0
    if state is None:
        print("Kein Zustand: keine Regel entscheidet mit diesen Werten.")
        return 0
    print(f"{state['text']}{_down(state)} – {state['rule']}")
    if state["missing"]:
        print(f"Unbekannt und womöglich entscheidend: {', '.join(state['missing'])}")
    return 0


def _command(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.cli_command == "roll":
        return _roll_command(args)
    if args.cli_command == "list":
        for system in api.catalog()["systems"]:
            print(f"{system['name']}: {system['title']} ({system['source']})")
            for action in system["actions"]:
                print(f"  {action['name']}: {action['title']}")
        return 0
    if args.cli_command == "kampf":
        return _fight_command(args)
    if args.cli_command == "zustand":
        return _state_command(args)
    if args.cli_command == "describe":
        try:
            print(json.dumps(api.describe(args.system, args.action), ensure_ascii=False, indent=2))
        except EngineError as error:
            print(f"Fehler: {error.message}", file=sys.stderr)
            return 2
        return 0
    return _action_command(args)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; a reader that closes the pipe early (``… | head``) ends it quietly."""
    try:
        code = _command(argv)
        sys.stdout.flush()  # inside the try: a closed pipe shows here, not at exit
    except BrokenPipeError:
        # Python's documented idiom: point stdout at devnull so that the flush at exit does
        # not fail again, and leave without a traceback
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return code
