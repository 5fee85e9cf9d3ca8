"""The fight contract of a system: the life values its text tracks, the states they lead to and
the conditions it names – declared once in the data, read the same way by every result and
every page.

A system declares it in ``kampf:`` of ``regeln/<system>.yaml`` (German keys, like the rest
of the data; CONTRIBUTING.md „Der Kampf“)::

    kampf:
      werte:        # life values the overview tracks, in column order
        - {name: lep, titel: LeP, label: Lebensenergie, min: -60, max: 200, quelle: "…"}
      kennwerte:    # other values of a fighter the state rules read (no column): KO
        - {name: ko, titel: KO, min: 1, max: 30}
      zustaende:    # most severe first; the first rule that holds gives the state
        - {id: tot, wert: lep, bis: "-ko", zustand: tot, text: tot, quelle: "…",
           annahme: wunden.schwellen}
      kampffaehig: {id: kampffaehig, text: kampffähig}   # optional: the state when none holds
      bedingungen:  # conditions the text names (what a game master puts on a fighter)
        - {name: betäubt, quelle: "…"}
      von_hand: "…" # optional note: what the game master keeps by hand

A rule holds when its value is at most (``bis``, ≤) or at least (``ab``, ≥) its bound, a number
or a Kennwert (``"-ko"``: minus the KO). ``annahme: <key>`` names the Annahme of the data the
rule rests on when the value sits exactly on the bound (DSA: „ab 5 LeP“ read as ≤ 5);
``annahme_jenseits: <key>`` a true/false Annahme read when the value lies beyond the bound
(Pathfinder: dead also below −KO; false: the rule holds on the bound only); ``annahme:
{annahme: true, text, quelle}`` makes the rule itself an Annahme, named whenever it is read.
A value of ``werte`` may be ``von_hand: true`` (the text names it without numbers: the game
master keeps it, the overview shows it as a column).

A system of ``aktionen:`` without ``kampf:`` has the short form: the ``ressource`` of each
``art: schaden`` action is a value, its ``zustand`` entries are the rules (``kampf:`` is the
full form and wins; both at once is an error naming the key).

:func:`state_of` is the one state function: every result that changes a target's life values
gives ``target_state`` = ``state_of`` of the values after it, and the page asks the engine the
same (``run_json`` ``{"type": "state"}``) for a value typed in the overview. Unknown values
(missing, ``None``, ``""``) never count as 0: a rule they might decide is passed over and their
titles are listed in ``missing``; with nothing to decide on the answer is ``None``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from engine.data_files import DataError, RuleData, data_file, load, note_assumption
from engine.errors import EngineError, echo
from engine.fight_state import DEAD, DOWN, FIT, target_state
from engine.formatting import MINUS, number
from engine.params import IntParam

NAME = re.compile(r"[a-z][a-z0-9_]*\Z")
KAMPF_KEYS = {"werte", "kennwerte", "zustaende", "kampffaehig", "bedingungen", "von_hand", "quelle"}
VALUE_KEYS = {"name", "titel", "label", "min", "max", "quelle", "von_hand"}
READ_KEYS = {"name", "titel", "min", "max", "quelle"}
RULE_KEYS = {
    "id",
    "wert",
    "bis",
    "ab",
    "zustand",
    "text",
    "quelle",
    "annahme",
    "annahme_jenseits",
}
RULE_ANNAHME_KEYS = {"annahme", "text", "quelle", "wert"}
CONDITION_KEYS = {"name", "quelle"}
FIT_KEYS = {"id", "text"}
DOWN_STATES = (DOWN, DEAD)
UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"})


STATE_VALUE_LIMIT = 1_000_000
"""Largest value (either sign) a state request takes for a life value or Kennwert."""


@dataclass(frozen=True)
class Value:
    """A life value the overview tracks (a column): LeP, Wunden, Trefferpunkte …"""

    name: str
    title: str
    label: str
    minimum: int
    maximum: int
    by_hand: bool = False
    source: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "label": self.label,
            "min": self.minimum,
            "max": self.maximum,
            "by_hand": self.by_hand,
            "source": self.source,
        }


@dataclass(frozen=True)
class Read:
    """Another value of a fighter a state rule reads (KO): no column of the overview."""

    name: str
    title: str
    minimum: int
    maximum: int

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "min": self.minimum, "max": self.maximum}


@dataclass(frozen=True)
class Rule:
    """One state rule: ``value`` at most (``at_most``) or at least its bound gives ``zustand``
    with the system's word ``text``. The bound is ``number`` or ``sign`` × the Kennwert
    ``read``."""

    id: str
    value: str
    at_most: bool
    number: int
    read: str
    sign: int
    zustand: str
    text: str
    source: str
    on_bound: str = ""  # key of an Annahme, named when the value sits on the bound
    beyond: str = ""  # key of a true/false Annahme, read when the value lies beyond it
    assumed: str = ""  # the rule's own Annahme (its text), named whenever it is read
    rule: str = ""  # German: „LeP ≤ 5: kampfunfähig“


@dataclass(frozen=True)
class Condition:
    name: str
    source: str

    def to_dict(self) -> dict[str, str]:
        return {"name": self.name, "source": self.source}


@dataclass
class Contract:
    """One system's fight contract (see the module's docstring)."""

    system: str
    values: tuple[Value, ...] = ()
    reads: tuple[Read, ...] = ()
    rules: tuple[Rule, ...] = ()
    fit_id: str = "kampffaehig"
    fit_text: str = "kampffähig"
    conditions: tuple[Condition, ...] = ()
    note: str = ""
    data: RuleData | None = field(default=None, repr=False)

    # --- what the contract holds -------------------------------------------------------------

    def value(self, name: str) -> Value:
        for value in self.values:
            if value.name == name:
                return value
        raise KeyError(f"{self.system}: kein Lebenswert {name!r} im Kampfvertrag")

    def read(self, name: str) -> Read:
        for read in self.reads:
            if read.name == name:
                return read
        raise KeyError(f"{self.system}: kein Kennwert {name!r} im Kampfvertrag")

    def names(self) -> list[str]:
        """Every name a state request may carry: the values, then the Kennwerte."""
        return [v.name for v in self.values] + [r.name for r in self.reads]

    def condition_names(self) -> set[str]:
        return {c.name for c in self.conditions}

    def fit_rule(self) -> str:
        """German: when the fighter is fit, „LeP > 5: kampffähig“ (each value past the least
        severe of its numeric bounds)."""
        parts = []
        for value in self.values:
            mine = [r for r in self.rules if r.value == value.name]
            low = [r.number for r in mine if r.at_most and not r.read]
            high = [r.number for r in mine if not r.at_most and not r.read]
            if low:
                parts.append(f"{value.title} > {number(max(low))}")
            elif any(r.at_most for r in mine):
                rule = next(r for r in mine if r.at_most)
                parts.append(f"{value.title} > {self.bound_text(rule)}")
            if high:
                parts.append(f"{value.title} < {number(min(high))}")
            elif any(not r.at_most for r in mine):
                rule = next(r for r in mine if not r.at_most)
                parts.append(f"{value.title} < {self.bound_text(rule)}")
        return f"{' und '.join(parts)}: {self.fit_text}" if parts else self.fit_text

    def bound_text(self, rule: Rule) -> str:
        if not rule.read:
            return number(rule.number)
        title = self.read(rule.read).title
        return f"{MINUS}{title}" if rule.sign < 0 else title

    def to_dict(self) -> dict[str, Any]:
        """The contract at the JSON boundary (``engine.api.fight_contract``)."""
        return {
            "system": self.system,
            "values": [v.to_dict() for v in self.values],
            "reads": [r.to_dict() for r in self.reads],
            "states": [
                {
                    "id": r.id,
                    "zustand": r.zustand,
                    "text": r.text,
                    "rule": r.rule,
                    "source": r.source,
                }
                for r in self.rules
            ],
            "fit": {"id": self.fit_id, "text": self.fit_text},
            "conditions": [c.to_dict() for c in self.conditions],
            "note": self.note,
        }

    # --- fields -----------------------------------------------------------------------------

    def field(self, name: str, label: str, **hints: Any) -> IntParam:
        """A helper's field for the value or Kennwert ``name``, with the contract's limits: a
        value is the target's ``resource`` under its title (``hints`` add the rest: default,
        group, required …). One range for the field and the overview."""
        if any(v.name == name for v in self.values):
            value = self.value(name)
            hints = {"resource": True, "resource_name": value.title, **hints}
            low, high = value.minimum, value.maximum
        else:
            read = self.read(name)
            low, high = read.minimum, read.maximum
        hints.setdefault("subject", "target")
        return IntParam(name, label, minimum=low, maximum=high, **hints)

    def params(self) -> tuple[IntParam, ...]:
        """Every value and Kennwert as a blank-able field: a state request is validated with
        them (German messages naming ``values.<name>``). A life value's range is wider than the
        forms': a result may take it past the form's limit (a hit to LeP −69 where the field
        stops at −60), and the state of that value is still the rule's to say."""
        limit = STATE_VALUE_LIMIT
        out = [
            IntParam(v.name, v.title, default=None, minimum=-limit, maximum=limit, blank=True)
            for v in self.values
        ]
        out += [  # a Kennwert comes from a form, within its limits (KO 0 is no KO)
            IntParam(
                r.name, r.title, default=None, minimum=r.minimum, maximum=r.maximum, blank=True
            )
            for r in self.reads
        ]
        return tuple(out)

    # --- the state ---------------------------------------------------------------------------

    def state(self, values: Mapping[str, Any]) -> dict[str, Any] | None:
        """The state for these values (see :func:`state_of`)."""
        if not self.rules:
            return None
        known = {name: _known(values.get(name), name) for name in self.names()}
        missing: list[str] = []
        decided = False
        for rule in self.rules:
            verdict, unknown = self._verdict(rule, known)
            if verdict is None:
                missing += [title for title in unknown if title not in missing]
                continue
            decided = True
            if verdict:
                return {
                    **target_state(rule.zustand, rule.text),
                    "id": rule.id,
                    "rule": rule.rule,
                    "missing": missing,
                }
        if not decided:
            return None
        return {
            **target_state(FIT, self.fit_text),
            "id": self.fit_id,
            "rule": self.fit_rule(),
            "missing": missing,
        }

    def holds(self, rule_id: str, values: Mapping[str, Any]) -> bool | None:
        """Whether the rule ``rule_id`` alone holds for these values (None: an unknown value
        might decide it) – for a result that names each consequence (Aktionswürfel: „zwei
        kritische Wunden: kampfunfähig“ beside „Gesundheit 0“)."""
        rule = next((r for r in self.rules if r.id == rule_id), None)
        if rule is None:
            raise KeyError(f"{self.system}: keine Zustandsregel {rule_id!r} im Kampfvertrag")
        known = {name: _known(values.get(name), name) for name in self.names()}
        return self._verdict(rule, known)[0]

    def _verdict(self, rule: Rule, known: dict[str, int | None]) -> tuple[bool | None, list[str]]:
        """Whether ``rule`` holds: True, False, or None when an unknown value might decide it
        (with the titles of the unknown ones). An unknown value spans its contract's range:
        a rule it cannot change is decided all the same."""
        value = self.value(rule.value)
        v = known[rule.value]
        unknown = [] if v is not None else [value.title]
        v_low, v_high = (v, v) if v is not None else (value.minimum, value.maximum)
        if rule.read:
            read = self.read(rule.read)
            r = known[rule.read]
            if r is None:
                unknown.append(read.title)
                ends = (rule.sign * read.minimum, rule.sign * read.maximum)
                b_low, b_high = min(ends), max(ends)
            else:
                b_low = b_high = rule.sign * r
        else:
            b_low = b_high = rule.number
        if rule.at_most:
            surely, never = v_high <= b_low, v_low > b_high
        else:
            surely, never = v_low >= b_high, v_high < b_low
        if never:
            return False, []
        if not surely:
            return None, unknown
        if v is not None and b_low == b_high:  # both known
            self._name_assumptions(rule, v == b_low)
            if rule.beyond and v != b_low and not self._flag(rule.beyond):
                return False, []
            return True, []
        # sure for every value of the unknown side: it may sit on the bound (the far end of
        # both ranges) or beyond it – the Annahmen of either are read as for a known value
        on_edge = v_high == b_low if rule.at_most else v_low == b_high
        self._name_assumptions(rule, on_edge)
        if rule.beyond and not self._flag(rule.beyond):
            return None, unknown  # only on the bound itself, and that is not known
        return True, []

    def _name_assumptions(self, rule: Rule, on_bound: bool) -> None:
        if rule.assumed:
            note_assumption(rule.assumed)
        if rule.on_bound and on_bound and self.data is not None:
            self.data.assume(rule.on_bound)

    def _flag(self, key: str) -> bool:
        assert self.data is not None  # a key is only read from a contract with data
        return self.data.flag(key)


def _known(value: Any, name: str) -> int | None:
    """A value of a state request: an integer, or unknown (missing, None, "")."""
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise EngineError(f"{name}: muss eine ganze Zahl sein, nicht {echo(value)}.", name)
    return value


# ---------------------------------------------------------------------------------------------
# Reading the contract from a data file
# ---------------------------------------------------------------------------------------------


class _Reader:
    """Checked reads of ``kampf:`` (a mistake names the file and the key)."""

    def __init__(self, data: RuleData) -> None:
        self.data = data

    def error(self, key: str, problem: str) -> DataError:
        return DataError(self.data.file, key, problem + self.data.hint)

    def entry(self, node: Any, key: str, allowed: set[str]) -> dict[str, Any]:
        if not isinstance(node, dict):
            raise self.error(key, "muss ein Objekt sein")
        unknown = sorted(set(node) - allowed)
        if unknown:
            raise self.error(
                key, f"unbekannte Angabe {unknown[0]!r} (möglich: {', '.join(sorted(allowed))})"
            )
        return node

    def items(self, node: Any, key: str) -> list[Any]:
        if node is None:
            return []
        if not isinstance(node, list):
            raise self.error(key, "muss eine Liste sein")
        return node

    def name(self, node: dict[str, Any], key: str) -> str:
        value = node.get("name")
        if not isinstance(value, str) or not NAME.match(value):
            raise self.error(f"{key}.name", "muss ein Name aus a–z, 0–9 und _ sein")
        return value

    def text(self, node: dict[str, Any], key: str, part: str, default: str | None = None) -> str:
        value = node.get(part, default)
        if not isinstance(value, str) or not value.strip():
            raise self.error(f"{key}.{part}", f"muss ein nicht leerer Text sein, ist {value!r}")
        return " ".join(value.split())

    def integer(self, node: dict[str, Any], key: str, part: str) -> int:
        value = node.get(part)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(f"{key}.{part}", f"muss eine ganze Zahl sein, ist {value!r}")
        return value

    def limits(self, node: dict[str, Any], key: str) -> tuple[int, int]:
        low, high = self.integer(node, key, "min"), self.integer(node, key, "max")
        if low > high:
            raise self.error(f"{key}.max", "liegt unter min")
        return low, high


def _full(system: str, data: RuleData) -> Contract:
    """``kampf:`` of the data (the full form)."""
    reader = _Reader(data)
    kampf = reader.entry(data.content["kampf"], "kampf", KAMPF_KEYS)
    values = []
    for index, node in enumerate(reader.items(kampf.get("werte"), "kampf.werte")):
        key = f"kampf.werte.{index}"
        entry = reader.entry(node, key, VALUE_KEYS)
        title = reader.text(entry, key, "titel")
        by_hand = entry.get("von_hand", False)
        if not isinstance(by_hand, bool):
            raise reader.error(f"{key}.von_hand", "muss true oder false sein")
        values.append(
            Value(
                reader.name(entry, key),
                title,
                reader.text(entry, key, "label", title),
                *reader.limits(entry, key),
                by_hand=by_hand,
                source=reader.text(entry, key, "quelle"),
            )
        )
    reads = []
    for index, node in enumerate(reader.items(kampf.get("kennwerte"), "kampf.kennwerte")):
        key = f"kampf.kennwerte.{index}"
        entry = reader.entry(node, key, READ_KEYS)
        reads.append(
            Read(
                reader.name(entry, key),
                reader.text(entry, key, "titel"),
                *reader.limits(entry, key),
            )
        )
    _unique(reader, [v.name for v in values] + [r.name for r in reads], "kampf.werte", "Name")
    contract = Contract(system, tuple(values), tuple(reads), data=data)
    rules = [
        _rule(reader, contract, node, f"kampf.zustaende.{index}")
        for index, node in enumerate(reader.items(kampf.get("zustaende"), "kampf.zustaende"))
    ]
    _unique(reader, [r.id for r in rules], "kampf.zustaende", "id")
    contract.rules = tuple(rules)
    if "kampffaehig" in kampf:
        fit = reader.entry(kampf["kampffaehig"], "kampf.kampffaehig", FIT_KEYS)
        contract.fit_id = reader.text(fit, "kampf.kampffaehig", "id")
        if not NAME.match(contract.fit_id) or contract.fit_id in {r.id for r in rules}:
            raise reader.error("kampf.kampffaehig.id", "muss ein eigener Name aus a–z, 0–9, _ sein")
        contract.fit_text = reader.text(fit, "kampf.kampffaehig", "text")
    conditions = []
    for index, node in enumerate(reader.items(kampf.get("bedingungen"), "kampf.bedingungen")):
        key = f"kampf.bedingungen.{index}"
        entry = reader.entry(node, key, CONDITION_KEYS)
        conditions.append(
            Condition(reader.text(entry, key, "name"), reader.text(entry, key, "quelle"))
        )
    _unique(reader, [c.name for c in conditions], "kampf.bedingungen", "name")
    contract.conditions = tuple(conditions)
    if "von_hand" in kampf:
        contract.note = reader.text(kampf, "kampf", "von_hand")
    return contract


def _unique(reader: _Reader, names: list[str], key: str, what: str) -> None:
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise reader.error(key, f"{what} „{name}“ steht zweimal da")
        seen.add(name)


def _rule(reader: _Reader, contract: Contract, node: Any, key: str) -> Rule:
    entry = reader.entry(node, key, RULE_KEYS)
    rule_id = reader.text(entry, key, "id")
    if not NAME.match(rule_id):
        raise reader.error(f"{key}.id", "muss ein Name aus a–z, 0–9 und _ sein")
    value = entry.get("wert")
    if value not in {v.name for v in contract.values}:
        names = ", ".join(v.name for v in contract.values) or "keine"
        raise reader.error(f"{key}.wert", f"muss einer der Werte sein ({names}), ist {value!r}")
    if ("bis" in entry) == ("ab" in entry):
        raise reader.error(key, "braucht genau eine Grenze: bis (≤) oder ab (≥)")
    side = "bis" if "bis" in entry else "ab"
    bound = entry[side]
    read, sign, amount = "", 1, 0
    if isinstance(bound, str):
        match = re.fullmatch(r"(-?)([a-z][a-z0-9_]*)", bound.strip())
        if not match or match.group(2) not in {r.name for r in contract.reads}:
            raise reader.error(
                f"{key}.{side}", f"muss eine Zahl oder ein Kennwert („-ko“) sein, ist {bound!r}"
            )
        read, sign = match.group(2), -1 if match.group(1) else 1
    elif isinstance(bound, bool) or not isinstance(bound, int):
        raise reader.error(f"{key}.{side}", f"muss eine Zahl oder ein Kennwert sein, ist {bound!r}")
    else:
        amount = bound
    zustand = entry.get("zustand")
    if zustand not in DOWN_STATES:
        raise reader.error(f"{key}.zustand", "muss kampfunfähig oder tot sein")
    text = reader.text(entry, key, "text")
    on_bound = assumed = ""
    annahme = entry.get("annahme")
    if isinstance(annahme, str):
        _check_annahme(reader, annahme, f"{key}.annahme")
        on_bound = annahme
    elif isinstance(annahme, dict):
        inner = reader.entry(annahme, f"{key}.annahme", RULE_ANNAHME_KEYS)
        if inner.get("annahme") is not True:
            raise reader.error(f"{key}.annahme", "muss {annahme: true, text, quelle} sein")
        assumed = reader.text(inner, f"{key}.annahme", "text")
        reader.text(inner, f"{key}.annahme", "quelle")
    elif annahme is not None:
        raise reader.error(f"{key}.annahme", "muss ein Schlüssel der Daten oder eine Annahme sein")
    beyond = entry.get("annahme_jenseits", "")
    if beyond:
        if not isinstance(beyond, str):
            raise reader.error(f"{key}.annahme_jenseits", "muss ein Schlüssel der Daten sein")
        _check_annahme(reader, beyond, f"{key}.annahme_jenseits")
        if not isinstance(_annahme_node(reader.data, beyond).get("wert"), bool):
            raise reader.error(
                f"{key}.annahme_jenseits", "muss eine Annahme mit wert true/false sein"
            )
    bare = Rule(
        rule_id,
        value,
        side == "bis",
        amount,
        read,
        sign,
        zustand,
        text,
        reader.text(entry, key, "quelle"),
        on_bound=on_bound,
        beyond=beyond,
        assumed=assumed,
    )
    title = contract.value(value).title
    sign_text = "≤" if bare.at_most else "≥"
    return replace(bare, rule=f"{title} {sign_text} {contract.bound_text(bare)}: {text}")


def _annahme_node(data: RuleData, key: str) -> dict[str, Any]:
    node: Any = data.content
    for part in key.split("."):
        node = node.get(part) if isinstance(node, dict) else None
    return node if isinstance(node, dict) else {}


def _check_annahme(reader: _Reader, key: str, where: str) -> None:
    node = _annahme_node(reader.data, key)
    if (
        node.get("annahme") is not True
        or "wert" not in node
        or not isinstance(node.get("text"), str)
    ):
        raise reader.error(
            where, f"„{key}“ ist keine Annahme der Daten (wert, annahme: true, text)"
        )


def _slug(text: str) -> str:
    out = re.sub(r"[^a-z0-9]+", "_", text.lower().translate(UMLAUTS)).strip("_")
    return out if out and out[0].isalpha() else f"zustand_{out}"


def _short(system: str, data: RuleData) -> Contract:
    """The short form: the ``ressource`` and ``zustand`` of every ``art: schaden`` action."""
    reader = _Reader(data)
    actions = data.content.get("aktionen")
    values: dict[str, Value] = {}
    rules: list[Rule] = []
    contract = Contract(system, data=data)
    head = data.content.get("system")
    text_file = head.get("quelle", "") if isinstance(head, dict) else ""
    for name, spec in (actions or {}).items() if isinstance(actions, dict) else ():
        if not isinstance(spec, dict) or spec.get("art") != "schaden" or "ressource" not in spec:
            continue
        field_spec = _plain(spec["ressource"])
        if not isinstance(field_spec, dict):
            continue  # the action's own check names it
        value_name = field_spec.get("name")
        title = field_spec.get("ressource")
        if not isinstance(value_name, str) or not isinstance(title, str) or not title:
            continue
        if value_name not in values:
            key = f"aktionen.{name}.ressource"
            limits = {"min": field_spec.get("min", -99), "max": field_spec.get("max", 999)}
            low, high = reader.limits(limits, key)
            lines = spec.get("quelle", "")
            values[value_name] = Value(
                value_name, title, title, low, high, source=f"{text_file} {lines}".strip()
            )
        contract.values = tuple(values.values())
        for index, entry in enumerate(
            reader.items(_plain(spec.get("zustand")), f"aktionen.{name}.zustand")
        ):
            where = f"aktionen.{name}.zustand.{index}"
            if not isinstance(entry, dict) or set(entry) - {"bis", "zustand", "text"}:
                raise reader.error(where, "muss {bis, zustand, text} sein")
            if isinstance(entry.get("bis"), str):
                raise reader.error(f"{where}.bis", "muss eine ganze Zahl sein")
            text = entry.get("text")
            rule_id = _slug(str(text))
            while rule_id in {r.id for r in rules}:
                rule_id += "_2"
            node = {
                "id": rule_id,
                "wert": value_name,
                "bis": entry.get("bis"),
                "zustand": entry.get("zustand"),
                "text": text,
                "quelle": f"{text_file} {spec.get('quelle', '')}".strip(),
            }
            rules.append(_rule(reader, contract, node, where))
    # the lowest bound first: the most severe state wins
    contract.rules = tuple(sorted(rules, key=lambda r: r.number))
    return contract


# ---------------------------------------------------------------------------------------------
# The contracts of the systems
# ---------------------------------------------------------------------------------------------

_CONTRACTS: dict[str, Contract] = {}


def from_data(system: str, data: RuleData) -> Contract:
    """The contract the data declares: ``kampf:``, else the short form of its actions."""
    if "kampf" in data.content:
        contract = _full(system, data)
        actions = data.content.get("aktionen")
        for name, spec in actions.items() if isinstance(actions, dict) else ():
            if isinstance(spec, dict) and spec.get("art") == "schaden":
                _check_declared_damage(contract, data, str(name), spec)
        return contract
    return _short(system, data)


def _plain(node: Any) -> Any:
    """A rule value as declared: an Annahme wraps it (``{wert: …, annahme: true, text}``, the
    value the text leaves open), the contract reads the value itself."""
    if isinstance(node, dict) and node.get("annahme") is True and "wert" in node:
        return node["wert"]
    return node


def _check_declared_damage(
    contract: Contract, data: RuleData, name: str, spec: dict[str, Any]
) -> None:
    """With ``kampf:`` the rules live there: a damage action names a value of the contract and
    declares no rules of its own."""
    if "zustand" in spec:
        raise DataError(
            data.file,
            f"aktionen.{name}.zustand",
            "die Zustände stehen unter kampf.zustaende (kampf: ist die volle Form)",
        )
    resource = _plain(spec.get("ressource"))
    if isinstance(resource, dict) and resource.get("name") not in {v.name for v in contract.values}:
        raise DataError(
            data.file,
            f"aktionen.{name}.ressource.name",
            f"„{resource.get('name')}“ ist kein Wert unter kampf.werte",
        )


def declare(system: str, data: RuleData) -> Contract:
    """Read and check the contract of ``system`` from its data (at import: a mistake names the
    file and the key) and keep it as the system's."""
    contract = from_data(system, data)
    _CONTRACTS[system] = contract
    return contract


def contract_of(system: str) -> Contract:
    """The contract of ``system``: the one declared, else read from its data file, else empty
    (a system without a fight, such as the plain dice rolls)."""
    if system not in _CONTRACTS:
        if data_file(system) is not None:
            declare(system, load(system))
        else:
            _CONTRACTS[system] = Contract(system)
    return _CONTRACTS[system]


def state_of(system: str, values: Mapping[str, Any]) -> dict[str, Any] | None:
    """The one state function: ``{"zustand", "text", "id", "rule", "missing"}`` for a fighter
    with these values (contract names: life values and Kennwerte), or ``None`` when the system
    has no state rules or nothing to decide on.

    ``zustand`` is kampffähig, kampfunfähig or tot (:mod:`engine.fight_state`), ``text`` the
    system's word, ``id`` the rule's (or the fit state's), ``rule`` the rule in German
    („LeP ≤ 5: kampfunfähig“) and ``missing`` the titles of unknown values that might have
    decided a more severe rule. Unknown (missing, ``None``, ``""``) never counts as 0. The
    Annahmen a rule rests on are named in the result being computed (``annahme``)."""
    return contract_of(system).state(values)
