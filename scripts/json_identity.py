"""Byte-identical engine answers before and after a refactoring.

    .venv/bin/python scripts/json_identity.py --save before.jsonl    # on the old code
    .venv/bin/python scripts/json_identity.py --compare before.jsonl # on the new code
    .venv/bin/python scripts/json_identity.py --compare before.jsonl --rename
    .venv/bin/python scripts/json_identity.py --save before.jsonl --wide  # 300 per action

Generates a fixed set of seeded requests for every action (defaults, values varied within
their limits, every choice, several dice expressions, Tickleiste command chains, and some
invalid requests), runs each through ``engine.run_json`` and writes one line per request:
the request and the exact answer. ``--compare`` runs the saved requests again (the
Tickleiste chains follow the answers, so newly generated chains may differ) and reports every
answer that differs, sorted into kinds:

- a result that changed (never expected; for the Tickleiste, ``seq``/``order`` renumbered
  compactly with the same relative order is its own kind),
- a result that became an error: a required field missing (the request relied on a default;
  it is then run again with the form's sample values given explicitly, and that answer must
  be byte-identical to the saved one), a budget refusal, or another error,
- an error whose message changed, an error that became a result.

Prints how many requests, actions and differences there are, the count of every kind and a
few examples of each.

``--rename`` also accepts an answer that differs only by the documented renames of the public
vocabulary (CONTRIBUTING.md „Namen“): the saved request still uses the old names (the engine
reads them), and the saved answer is compared after its old names are replaced by the new ones –
the field names it echoes (``params``, ``error.field``, a follow-up's ``params``) by the fields'
``formerly``, its result keys by the action's ``result_formerly``, both read from ``describe``
(no list of its own here).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import api  # noqa: E402
from engine.errors import EngineError  # noqa: E402

DICE = ["1W6", "2W6+3", "1W8+2", "1W10", "3W6-2", "1W12+1W4-1", "2W10kh1", "W20", "1W4"]
NAMES = ["Alrik", "Bruna", "Ork", "Zara", "Gero", "Ilka"]
PER_ACTION = 32


def _int(field: dict[str, Any], rng: random.Random) -> int | None:
    low, high, default = field["min"], field["max"], field["default"]
    if default is None:  # a blank-able field: unknown, or a value near 0
        if rng.random() < 0.3:
            return None
        default = max(low, min(high, 0)) + 20
    if rng.random() < 0.2:
        return rng.randint(low, high)
    return max(low, min(high, default + rng.randint(-6, 6)))


def _value(field: dict[str, Any], rng: random.Random, row: int = 0) -> Any:
    kind = field["type"]
    if kind == "int":
        return _int(field, rng)
    if kind == "bool":
        return rng.random() < 0.4
    if kind == "choice":
        return rng.choice(field["choices"])["value"]
    if kind == "dice":
        return rng.choice(DICE)
    if kind == "text":
        return NAMES[row % len(NAMES)] if field["name"] == "name" else rng.choice(NAMES)
    if kind == "list":
        count = rng.randint(field["min_items"], min(field["max_items"], 5))
        return [
            {item["name"]: _value(item, rng, index) for item in field["item"]}
            for index in range(count)
        ]
    return field["default"]


def _varied(spec: dict[str, Any], rng: random.Random, share: float) -> dict[str, Any]:
    """Some fields changed (``share`` of them), the others left to their defaults."""
    params: dict[str, Any] = {}
    for field in spec["params"]:
        if field["type"] == "state":
            continue
        if rng.random() < share:
            params[field["name"]] = _value(field, rng)
    return params


def _tickleiste_chain(rng: random.Random) -> list[dict[str, Any]]:
    """A fight on the Tickleiste: commands applied to the state the previous one returned."""
    out: list[dict[str, Any]] = []
    state: dict[str, Any] = {}
    names = NAMES[: rng.randint(2, 5)]
    commands: list[dict[str, Any]] = [
        {
            "command": "hinzufuegen",
            "name": name,
            "ini": rng.randint(5, 15),
            "intuition": rng.randint(1, 6),
            "surprised": rng.random() < 0.2,
        }
        for name in names
    ]
    commands.append({"command": "start"})
    spec = api.describe("ryssea", "tickleiste")
    field = next(f for f in spec["params"] if f["name"] == "action")
    actions = [c["value"] for c in field["choices"]]
    for _ in range(rng.randint(3, 8)):
        pick = rng.random()
        who = rng.choice(names)
        if pick < 0.6:
            commands.append(
                {
                    "command": "handeln",
                    "fighter": who,
                    "action": rng.choice(actions),
                    "ticks": rng.randint(0, 12),
                }
            )
        elif pick < 0.75:
            commands.append({"command": "abwarten", "fighter": who})
        elif pick < 0.85:
            commands.append({"command": "bereithalten", "fighter": who})
        elif pick < 0.95:
            commands.append({"command": "eingreifen", "fighter": who})
        else:
            commands.append({"command": "hinzufuegen", "name": "Spät", "ini": 8})
    for command in commands:
        request = {
            "system": "ryssea",
            "action": "tickleiste",
            "params": {**command, "state": state},
            "seed": rng.randrange(2**32),
        }
        out.append(request)
        answer = api.run(**request)
        if answer["ok"]:
            state = answer["result"]["state"]
    return out


class Renames:
    """The documented renames of one action, read from ``describe``."""

    def __init__(self, system: str, action: str) -> None:
        spec = api.describe(system, action)
        self.fields = {old: f["name"] for f in spec["params"] for old in f.get("formerly", [])}
        self.items = {
            f["name"]: {old: i["name"] for i in f["item"] for old in i.get("formerly", [])}
            for f in spec["params"]
            if f["type"] == "list"
        }
        self.results = {
            old: new for new, olds in spec.get("result_formerly", {}).items() for old in olds
        }

    def params(self, params: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in params.items():
            name = self.fields.get(key, key)
            if isinstance(value, list) and name in self.items:
                value = [
                    {self.items[name].get(k, k): v for k, v in row.items()}
                    if isinstance(row, dict)
                    else row
                    for row in value
                ]
            out[name] = value
        return out

    def path(self, path: str) -> str:
        parts = path.split(".")
        parts[0] = self.fields.get(parts[0], parts[0])
        if len(parts) == 3:
            parts[2] = self.items.get(parts[0], {}).get(parts[2], parts[2])
        return ".".join(parts)


_RENAMES: dict[tuple[str, str], Renames] = {}


def renames(system: str, action: str) -> Renames:
    if (system, action) not in _RENAMES:
        _RENAMES[system, action] = Renames(system, action)
    return _RENAMES[system, action]


def _renamed_result(value: Any, system: str, own: Renames) -> Any:
    if isinstance(value, list):
        return [_renamed_result(v, system, own) for v in value]
    if not isinstance(value, dict):
        return value
    out = {own.results.get(k, k): _renamed_result(v, system, own) for k, v in value.items()}
    # a follow-up opens another helper of the system with values under that helper's names
    if isinstance(out.get("action"), str) and isinstance(out.get("params"), dict):
        try:
            other = renames(system, out["action"])
        except EngineError:
            return out
        out["params"] = other.params(out["params"])
    return out


def after_rename(request: dict[str, Any], answer_text: str) -> str:
    """A saved answer with the documented renames applied, serialised as ``run_json`` does."""
    answer = json.loads(answer_text)
    try:
        own = renames(request["system"], request["action"])
    except EngineError:
        return answer_text
    if isinstance(answer.get("params"), dict):
        answer["params"] = own.params(answer["params"])
    if isinstance(answer.get("error"), dict) and answer["error"].get("field"):
        answer["error"]["field"] = own.path(answer["error"]["field"])
    if "result" in answer:
        answer["result"] = _renamed_result(answer["result"], request["system"], own)
    return json.dumps(answer, ensure_ascii=False, sort_keys=True)


def requests() -> list[dict[str, Any]]:
    rng = random.Random(20261201)
    out: list[dict[str, Any]] = []
    for system in api.catalog()["systems"]:
        for action in system["actions"]:
            spec = api.describe(system["name"], action["name"])
            # actions with many interlocking fields get more requests, so enough succeed
            count = PER_ACTION if len(spec["params"]) < 15 else 4 * PER_ACTION
            for index in range(count):
                share = (0.15, 0.3, 0.7)[index % 3]
                params = {} if index == 0 else _varied(spec, rng, share)
                out.append(
                    {
                        "system": system["name"],
                        "action": action["name"],
                        "params": params,
                        "seed": rng.randrange(2**32),
                    }
                )
            out.append(
                {"system": system["name"], "action": action["name"], "params": {"x": 1}, "seed": 1}
            )
    for _ in range(12):
        out.extend(_tickleiste_chain(rng))
    out.append({"system": "nicht-da", "action": "x", "params": {}, "seed": 1})
    return out


WIDE_PER_ACTION = 300


def wide_requests() -> list[dict[str, Any]]:
    """``--wide``: 300 requests per action (no Tickleiste chains), more fields varied and every
    required field given (the form's sample value), so most of them give a result – the
    default set's 473 results leave rarer branches out (an Aktive Abwehr rolled, …)."""
    rng = random.Random(27)
    out: list[dict[str, Any]] = []
    for system in api.catalog()["systems"]:
        for action in system["actions"]:
            if action["name"] == "tickleiste":
                continue
            spec = api.describe(system["name"], action["name"])
            for index in range(WIDE_PER_ACTION):
                params = _varied(spec, rng, (0.3, 0.6, 0.9)[index % 3])
                request = {
                    "system": system["name"],
                    "action": action["name"],
                    "params": params,
                    "seed": rng.randrange(2**32),
                }
                out.append(with_samples(request))
    return out


def answers(batch: list[dict[str, Any]]) -> list[str]:
    return [api.run_json(json.dumps(request, ensure_ascii=False)) for request in batch]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--save", type=Path, help="write requests and answers to this file")
    group.add_argument("--compare", type=Path, help="compare with a file written by --save")
    parser.add_argument(
        "--wide", action="store_true", help="the wider set: 300 requests per action"
    )
    parser.add_argument(
        "--rename",
        action="store_true",
        help="with --compare: an answer equal after the documented renames counts as equal",
    )
    args = parser.parse_args()
    batch = wide_requests() if args.wide else requests()
    got = answers(batch)
    actions = {(r["system"], r["action"]) for r in batch} - {("nicht-da", "x")}
    ok = sum(1 for a in got if json.loads(a)["ok"])
    print(f"{len(batch)} Anfragen über {len(actions)} Aktionen ({ok} mit Ergebnis)")
    if args.save:
        lines = [
            json.dumps({"request": r, "answer": a}, ensure_ascii=False)
            for r, a in zip(batch, got, strict=True)
        ]
        args.save.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"gespeichert: {args.save}")
        return 0
    saved = [json.loads(line) for line in args.compare.read_text(encoding="utf-8").splitlines()]
    if [s["request"] for s in saved] != batch:
        print("Hinweis: neu erzeugte Anfragen weichen ab; verglichen werden die gespeicherten.")
    replayed = answers([s["request"] for s in saved])
    differ = [
        (s["request"], s["answer"], a)
        for s, a in zip(saved, replayed, strict=True)
        if s["answer"] != a
    ]
    before = sum(1 for s in saved if json.loads(s["answer"])["ok"])
    after = sum(1 for a in replayed if json.loads(a)["ok"])
    print(f"gespeicherte Anfragen mit Ergebnis: vorher {before}, jetzt {after}")
    identical = len(saved) - len(differ)
    if args.rename:
        differ = [(r, old, new) for r, old, new in differ if after_rename(r, old) != new]
        renamed = len(saved) - identical - len(differ)
        print(f"byte-gleich: {identical} von {len(saved)}")
        print(
            f"nach der dokumentierten Umbenennung gleich: {identical + renamed} von {len(saved)} "
            f"({renamed} nur umbenannt); verschieden: {len(differ)}"
        )
    else:
        print(f"byte-gleich: {identical} von {len(saved)}; verschieden: {len(differ)}")
    kinds: dict[str, list[tuple[dict[str, Any], str, str]]] = {}
    for request, old, new in differ:
        kinds.setdefault(kind_of(request, old, new), []).append((request, old, new))
    for kind, items in sorted(kinds.items()):
        print(f"  {len(items):5}  {kind}")
    for kind, items in sorted(kinds.items()):
        print(f"\n{kind}:")
        for request, old, new in items[:2]:
            print("  ", json.dumps(request, ensure_ascii=False)[:200])
            print("    vorher :", old[:200])
            print("    nachher:", new[:200])
    changed = [k for k in kinds if k.startswith(("Ergebnis geändert", "Pflichtfeld fehlt, mit"))]
    return 1 if changed else 0


def with_samples(request: dict[str, Any]) -> dict[str, Any]:
    """The request with every required field it leaves out given explicitly (the form's sample
    value from the schema, which the engine used to fill in silently)."""
    spec = api.describe(request["system"], request["action"])
    params = dict(request["params"])
    for field in spec["params"]:
        needed = field.get("required") or field.get("required_when")
        if needed and params.get(field["name"]) is None:
            params[field["name"]] = field["default"]
        if field["type"] == "list" and isinstance(params.get(field["name"]), list):
            rows = []
            for row in params[field["name"]]:
                row = dict(row)
                for item in field["item"]:
                    if (item.get("required") or item.get("required_when")) and row.get(
                        item["name"]
                    ) is None:
                        row[item["name"]] = item["default"]
                rows.append(row)
            params[field["name"]] = rows
    return {**request, "params": params}


def without_order(answer: dict[str, Any]) -> dict[str, Any]:
    """A Tickleiste answer with its markers' ``order`` replaced by their rank, ``seq`` dropped."""
    state = answer["result"]["state"]
    ranked = sorted(range(len(state["fighters"])), key=lambda i: state["fighters"][i]["order"])
    fighters = [dict(f) for f in state["fighters"]]
    for rank, index in enumerate(ranked, start=1):
        fighters[index]["order"] = rank
    result = {**answer["result"], "state": {**state, "fighters": fighters, "seq": None}}
    params = dict(answer.get("params", {}))
    params.pop("state", None)
    return {**answer, "result": result, "params": params}


def kind_of(request: dict[str, Any], old_text: str, new_text: str) -> str:
    old, new = json.loads(old_text), json.loads(new_text)
    if old["ok"] and new["ok"]:
        if request["action"] == "tickleiste" and without_order(old) == without_order(new):
            return "Tickleiste: seq/order kompakt neu nummeriert (gleiche Reihenfolge)"
        return "Ergebnis geändert"
    if old["ok"]:
        message = new["error"]["message"]
        if "fehlt" in message:
            filled = api.run_json(json.dumps(with_samples(request), ensure_ascii=False))
            if filled == old_text:
                return "Pflichtfeld fehlt (mit den Beispielwerten ausdrücklich: byte-gleich)"
            refilled = json.loads(filled)
            if (
                request["action"] == "tickleiste"
                and refilled["ok"]
                and without_order(refilled) == without_order(old)
            ):
                return (
                    "Pflichtfeld fehlt (mit den Beispielwerten ausdrücklich: gleich bis auf "
                    "die kompakte Nummerierung der Tickleiste)"
                )
            return "Pflichtfeld fehlt, mit den Beispielwerten verschieden"
        if "zu groß für eine exakte Berechnung" in message:
            return "Budget: abgelehnt"
        return f"Ergebnis wurde Fehler: {message[:60]}"
    if new["ok"]:
        return "Fehler wurde Ergebnis"
    if old["error"]["field"] != new["error"]["field"]:
        return "Fehler: anderes Feld (Pflichtfeld zuerst gemeldet)"
    return "Fehler: Meldung geändert"


if __name__ == "__main__":
    raise SystemExit(main())
