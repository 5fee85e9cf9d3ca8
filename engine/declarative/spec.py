"""Reading one declared action: typed values by key, fields as :class:`~engine.params.Param`.

A declaration is a mapping under ``aktionen.<name>`` of a system's data file. :class:`Spec`
reads it with the same checks as :class:`~engine.data_files.RuleData` (a bad value raises
:class:`~engine.data_files.DataError` naming the file and the dotted key, at import – never in
a reader's form) and turns the field entries (``{name, label, hilfe, vorgabe, min, max, pflicht,
wer, pro_wurf, ressource, gruppe, erweitert, frueher}``: ``frueher`` lists former names, which a
request still reads) into the very ``Param`` objects a Python action declares, so ``describe``,
the forms and the command line cannot tell the two apart.

A value the text leaves open is written as an Annahme (``{wert: …, annahme: true, text: …,
quelle: …}``, or a mapping with ``annahme: true, text, quelle`` beside its own keys);
:meth:`Spec.use` names it in the result that relied on it – and every Annahme on the way to
the key used (``use("kritisch.verdoppeln")`` names one written at ``kritisch`` too).
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from typing import Any

from engine import dice
from engine.data_files import DataError, RuleData, note_assumption
from engine.errors import EngineError
from engine.params import BoolParam, DiceParam, IntParam, Param
from engine.registry import System

SUBJECTS = {"": "", "handelnder": "actor", "ziel": "target"}
FIELD_KEYS = {
    "name",
    "label",
    "hilfe",
    "art",
    "vorgabe",
    "min",
    "max",
    "pflicht",
    "wer",
    "pro_wurf",
    "ressource",
    "gruppe",
    "erweitert",
    "frueher",
}
FIELD_KINDS = ("zahl", "wuerfel", "ja_nein")
NAME_CHARS = set("abcdefghijklmnopqrstuvwxyz0123456789_")


def _unwrap(node: Any, texts: list[str]) -> Any:
    """An Annahme's value, its text added to ``texts``: ``{wert, annahme: true, text}`` stands
    for its ``wert``; a mapping that is itself the Annahme (``{verdoppeln: true, annahme: true,
    text}``, as ``Spec.mapping`` allows) stands for itself."""
    if isinstance(node, dict) and node.get("annahme") is True and isinstance(node.get("text"), str):
        texts.append(node["text"])
    if isinstance(node, dict) and "annahme" in node and "wert" in node:
        return node["wert"]
    return node


def _within(node: Any, texts: list[str]) -> None:
    """The texts of the Annahmen inside ``node`` (itself already counted), in file order."""
    children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
    for child in children:
        if (
            isinstance(child, dict)
            and child.get("annahme") is True
            and isinstance(child.get("text"), str)
        ):
            texts.append(child["text"])
        _within(child, texts)


# The keys every declared action has (its kind, title, summary, source lines, dice, Annahmen);
# each kind adds its own (``ALLOWED`` in table.py, initiative.py, check.py, damage.py).
# ``was_waere_wenn`` / ``vergleichen`` name the fields „Was wäre wenn“ and „Vergleichen“ go
# across (engine/odds.py; checked in ``declarative.register``); ``nach: <Aktion>`` places the
# helper right after that action of its system (a Python system's order stays as it was).
COMMON_KEYS = frozenset(
    {"art", "titel", "zusammenfassung", "quelle", "wurf", "annahmen"}
    | {"was_waere_wenn", "vergleichen", "nach"}
)
# The keys that never decide how a roll comes out: what the helper is and says (kind, title,
# summary, source lines, its words: headline, roll label, explanation, notes, the chart's axis
# and mean, an order's roll column and whether it shows the roll-off rolls), its sample
# fighters and whether they have a side, the helpers it continues with, where it stands in
# the list, the fields and chances the odds show – and the free ``annahmen``, named in every
# result anyway. Every other key of a kind is a rule value: written as an Annahme, a result
# names it where it decided
# (tests/engine/test_assumptions_named.py checks that each one does in some result).
NOT_DECIDING = frozenset(
    {"art", "titel", "zusammenfassung", "quelle", "annahmen", "worte", "beispiel", "folgen"}
    | {"was_waere_wenn", "vergleichen", "nach"}
    | {"ueberschrift", "wurfname", "erklaerung", "hinweise", "chancen", "achse", "mittelwert"}
    | {"wurfspalte", "stechen_zeigen", "seiten"}
)


class Spec:
    """One declared action: ``aktionen.<name>`` of ``data``, read by relative keys."""

    def __init__(self, data: RuleData, name: str, system: System) -> None:
        self.data = data
        self.name = name
        self.system = system
        self.prefix = f"aktionen.{name}"
        # keys of the data outside the action whose Annahmen its helper lists too (a table's)
        self.listed: list[str] = []
        # set by a kind: its result keys' former names, and False when it never rolls a die
        self.result_formerly: tuple[tuple[str, tuple[str, ...]], ...] = ()
        self.rolls_dice = True

    def key(self, key: str) -> str:
        return f"{self.prefix}.{key}" if key else self.prefix

    def error(self, key: str, problem: str) -> DataError:
        return DataError(self.data.file, self.key(key), problem + self.data.hint)

    def _walk(self, key: str) -> tuple[bool, Any, list[str]]:
        """Whether ``key`` is there, its value and the Annahmen on the way (an Annahme's
        ``wert`` is walked into like any value)."""
        node: Any = self.data.content
        texts: list[str] = []
        for part in self.key(key).split("."):
            node = _unwrap(node, texts)
            if isinstance(node, dict) and part in node:
                node = node[part]
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                return False, None, texts
        return True, _unwrap(node, texts), texts

    def has(self, key: str) -> bool:
        return self._walk(key)[0]

    def raw(self, key: str, default: Any = None) -> Any:
        """The value at ``key`` (an Annahme's ``wert``), read quietly: only :meth:`use` names
        an Annahme in a result."""
        found, value, _ = self._walk(key)
        if not found:
            if default is None:
                raise self.error(key, "fehlt")
            return default
        return value

    def use(self, key: str) -> None:
        """The rule code relied on the value at ``key``: every Annahme on the way to it, at it
        and within it (``use("kritisch")`` names one at ``kritisch.bestaetigen``) is named in
        this result."""
        found, value, texts = self._walk(key)
        if found:
            _within(value, texts)
        for text in texts:
            note_assumption(text)

    def text(self, key: str, default: str | None = None) -> str:
        value = self.raw(key, default)
        if not isinstance(value, str) or not value.strip():
            raise self.error(key, f"muss ein nicht leerer Text sein, ist {value!r}")
        return " ".join(value.split())

    def integer(self, key: str, default: int | None = None) -> int:
        value = self.raw(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(key, f"muss eine ganze Zahl sein, ist {value!r}")
        return value

    def flag(self, key: str, default: bool = False) -> bool:
        if not self.has(key):
            return default
        value = self.raw(key)
        if not isinstance(value, bool):
            raise self.error(key, f"muss true oder false sein, ist {value!r}")
        return value

    def mapping(self, key: str, allowed: Set[str]) -> dict[str, Any]:
        value = self.raw(key)
        if not isinstance(value, Mapping):
            raise self.error(key, "muss ein Objekt sein")
        unknown = sorted(set(value) - allowed - {"annahme", "text", "quelle"})
        if unknown:
            raise self.error(
                key, f"unbekannte Angabe {unknown[0]!r} (möglich: {', '.join(sorted(allowed))})"
            )
        return dict(value)

    def items(self, key: str) -> list[Any]:
        if not self.has(key):
            return []
        value = self.raw(key)
        if not isinstance(value, list):
            raise self.error(key, "muss eine Liste sein")
        return value

    def dice(self, key: str, label: str, default: str | None = None) -> dice.Expression:
        notation = self.text(key, default)
        try:
            return dice.parse(notation, self.key(key), label)
        except EngineError as error:
            raise self.error(key, error.message) from None

    def field(self, key: str, also: Set[str] = frozenset(), **fixed: Any) -> Param:
        """The field declared at ``key`` as a Param; ``fixed`` are hints the kind decides
        (``subject``, ``per_roll``, ``resource`` …), given by the kind, not the YAML; ``also``
        are keys of the entry the kind reads itself (an initiative part's ``kurz``).

        ``frueher: [dexterity]`` are the field's former names (``Param.formerly``, CONTRIBUTING
        „Namen“): a request, a saved value or a share link using one still reads."""
        entry = self.mapping(key, FIELD_KEYS | also)
        name = entry.get("name")
        if not isinstance(name, str) or not name or set(name) - NAME_CHARS or name[0].isdigit():
            raise self.error(f"{key}.name", "muss ein Name aus a–z, 0–9 und _ sein")
        label = entry.get("label")
        if not isinstance(label, str) or not label.strip():
            raise self.error(f"{key}.label", "fehlt (der Name des Feldes im Formular)")
        kind = entry.get("art", "zahl")
        if kind not in FIELD_KINDS:
            raise self.error(f"{key}.art", f"muss eine von {', '.join(FIELD_KINDS)} sein")
        wer = entry.get("wer", "")
        if wer not in SUBJECTS:
            raise self.error(f"{key}.wer", "muss handelnder oder ziel sein")
        common: dict[str, Any] = {
            "help": " ".join(str(entry.get("hilfe", "")).split()),
            "group": str(entry.get("gruppe", "")),
            "advanced": bool(entry.get("erweitert", False)),
            "required": bool(entry.get("pflicht", False)),
            "subject": SUBJECTS[wer],
            "per_roll": bool(entry.get("pro_wurf", False)),
        }
        formerly = entry.get("frueher", [])
        if not isinstance(formerly, list) or any(
            not isinstance(old, str) or not old or set(old) - NAME_CHARS or old == name
            for old in formerly
        ):
            raise self.error(
                f"{key}.frueher", "muss eine Liste früherer Namen aus a–z, 0–9 und _ sein"
            )
        if formerly:
            common["formerly"] = tuple(formerly)
        if "ressource" in entry:
            common.update(resource=True, resource_name=str(entry["ressource"]), subject="target")
        common.update(fixed)
        if common["per_roll"] and common["subject"]:
            raise self.error(f"{key}.pro_wurf", "ein Wert dieses einen Wurfs gehört niemandem")
        if kind == "wuerfel":
            default = entry.get("vorgabe", "1W6")
            self._check_dice(f"{key}.vorgabe", default, label)
            return DiceParam(name, label, default=str(default), **common)
        if kind == "ja_nein":
            return BoolParam(name, label, default=bool(entry.get("vorgabe", False)), **common)
        values = {k: entry.get(k, d) for k, d in (("vorgabe", 0), ("min", -99), ("max", 999))}
        for k, v in values.items():
            if isinstance(v, bool) or not isinstance(v, int):
                raise self.error(f"{key}.{k}", f"muss eine ganze Zahl sein, ist {v!r}")
        if not values["min"] <= values["vorgabe"] <= values["max"]:
            raise self.error(f"{key}.vorgabe", "liegt nicht zwischen min und max")
        return IntParam(
            name,
            label,
            default=values["vorgabe"],
            minimum=values["min"],
            maximum=values["max"],
            **common,
        )

    def fields(self, key: str, **fixed: Any) -> list[Param]:
        return [self.field(f"{key}.{index}", **fixed) for index in range(len(self.items(key)))]

    def _check_dice(self, key: str, value: Any, label: str) -> None:
        if not isinstance(value, str):
            raise self.error(key, "muss ein Würfelausdruck sein (z. B. 1W8+2)")
        try:
            dice.parse(value, key, label)
        except EngineError as error:
            raise self.error(key, error.message) from None
