"""Parameter schemas: one definition per field, serving validation, ``describe`` and the forms.

Every action declares its parameters with these classes. The same objects
- validate incoming JSON (German messages naming the field),
- serialise to the schema that ``describe`` returns (the site builds its forms from it).

Required or optional: a field that describes the actual character or situation and has no
neutral value (an attack value, attributes, a damage expression, the fighters of an initiative)
is ``required``: missing or ``null`` is an error naming the field ("INI: fehlt – bitte eine
ganze Zahl eintragen."). Modifiers with a neutral value (0), flags (false) and choices whose
default is the usual case are optional: missing or ``null`` means the default. A field needed
only in some situations names them in ``required_when`` (e.g. the defender's values only with
an active defense). ``default`` stays the form's pre-filled sample value either way; for a
required field it is never used in place of a missing value.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import EngineError, echo
from engine.formatting import number

JSONValue = Any


def _path(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name


@dataclass(frozen=True)
class Param:
    """Base class of a parameter. ``name`` is the JSON key, ``label`` the German field name."""

    name: str
    label: str
    help: str = ""
    # Presentation hints for the forms: fields with the same ``group`` are shown together
    # under that German heading; ``advanced`` fields sit in a collapsed "Weitere Angaben" box.
    group: str = ""
    advanced: bool = False
    # Missing or null: an error (required) or the default (optional, see the module docstring).
    required: bool = False
    # Required only when the sibling field ``required_when[0]`` (validated) has one of the
    # values in ``required_when[1]``; otherwise optional.
    required_when: tuple[str, tuple[JSONValue, ...]] | None = None
    # Hints for connected helpers (a fight keeps each fighter's values): whose value this is –
    # "actor" (the acting fighter's own: attributes, weapon, attack value …), "target" (the
    # fighter acted on: defense, armour, life points …) or "" (the situation of this roll).
    subject: str = ""
    # Applies only when each named sibling field has one of the given values; the form hides
    # the field otherwise and does not send it (the engine then takes the default).
    when: tuple[tuple[str, tuple[JSONValue, ...]], ...] = ()
    # A target value that a result changes (life points, wounds …; see ``target_update``), and
    # its short name where a page says what the result changed („LeP 22, Wunden 2“ – the label
    # names the field's input, e.g. „LeP vor dem Treffer“).
    resource: bool = False
    resource_name: str = ""
    # A value rolled or decided at the table for this one roll – a die result typed in, the
    # outcome of another roll („Abwehr gelungen“, its Güte), what the attack being parried
    # brought along (its TP, „glücklich“), a bonus the rules spend on this roll only (Zielen,
    # „seine nächste Probe“). It belongs to no fighter (never with ``subject``): the page puts
    # it back to its default after every roll and does not bring it back on a reload.
    per_roll: bool = False
    # A field of the situation (no ``subject``) that stands for a condition of the acting
    # fighter ("actor") or of the target ("target"): ``("actor", "betäubt")`` on a yes/no field
    # – an effect of that name on that fighter of the fight ticks it (the page, fight.js); on a
    # choice the name is "" and ``ChoiceParam.condition_values`` maps choice values to
    # conditions. The names are conditions of the system's fight contract (``kampf.
    # bedingungen``, engine/fight_contract.py).
    condition: tuple[str, str] | tuple[()] = ()
    # The names this field had before (the public vocabulary, CONTRIBUTING.md „Namen“): a
    # request, a saved value, a share link, a Tickleiste file or a stored fight that uses one
    # is read as this field; giving both names at once is an error naming the field.
    formerly: tuple[str, ...] = ()

    kind = "param"
    missing_hint = "bitte einen Wert eintragen"

    def schema(self) -> dict[str, JSONValue]:
        out: dict[str, JSONValue] = {"name": self.name, "type": self.kind, "label": self.label}
        if self.help:
            out["help"] = self.help
        if self.group:
            out["group"] = self.group
        if self.advanced:
            out["advanced"] = True
        out["required"] = self.required
        if self.required_when is not None:
            other, values = self.required_when
            out["required_when"] = {"field": other, "values": list(values)}
        if self.subject:
            out["subject"] = self.subject
        if self.when:
            out["when"] = {other: list(values) for other, values in self.when}
        if self.resource:
            out["resource"] = True
        if self.resource_name:
            out["resource_name"] = self.resource_name
        if self.per_roll:
            out["per_roll"] = True
        if self.formerly:
            out["formerly"] = list(self.formerly)
        if self.condition:
            out["condition"] = {"of": self.condition[0], "name": self.condition[1]}
        return out

    def default_value(self) -> JSONValue:
        raise NotImplementedError

    def validate(self, value: JSONValue, path: str, label: str) -> JSONValue:
        raise NotImplementedError

    def missing(self, path: str, label: str, reason: str = "") -> EngineError:
        """The German error for a missing (or null) required value."""
        return EngineError(f"{label}: fehlt – {self.missing_hint}{reason}.", path)


@dataclass(frozen=True)
class IntParam(Param):
    """An integer within ``minimum`` … ``maximum``. A ``blank`` one may stay empty: ``""`` or
    ``null`` is ``None`` – a value nobody knows (a fighter's LE the fight has not been told),
    never 0 –, its default is ``None`` and its form field starts empty."""

    default: int | None = 0
    minimum: int = -999
    maximum: int = 999
    blank: bool = False

    kind = "int"
    missing_hint = "bitte eine ganze Zahl eintragen"

    def __post_init__(self) -> None:
        if self.blank and self.required:
            raise ValueError(f"{self.name}: a blank field is never required")
        if self.default is None and not self.blank:
            raise ValueError(f"{self.name}: only a blank field has no default")

    def schema(self) -> dict[str, JSONValue]:
        out = super().schema()
        out.update(default=self.default, min=self.minimum, max=self.maximum)
        if self.blank:
            out["blank"] = True
        return out

    def default_value(self) -> int | None:
        return self.default

    def _out_of_range(self, shown: str, path: str, label: str) -> EngineError:
        return EngineError(
            f"{label}: {shown} liegt außerhalb des erlaubten Bereichs "
            f"({number(self.minimum)} bis {number(self.maximum)}).",
            path,
        )

    def validate(self, value: JSONValue, path: str, label: str) -> int | None:
        if self.blank and (value is None or (isinstance(value, str) and not value.strip())):
            return None
        if isinstance(value, bool):
            raise EngineError(f"{label}: muss eine ganze Zahl sein, nicht ja/nein.", path)
        if isinstance(value, float):
            if not value.is_integer():
                raise EngineError(f"{label}: muss eine ganze Zahl sein, nicht {echo(value)}.", path)
            value = int(value)
        if isinstance(value, str):
            text = value.strip().replace("−", "-")
            if not text:
                raise EngineError(f"{label}: bitte eine ganze Zahl eintragen.", path)
            if not re.fullmatch(r"[+-]?[0-9]+", text):
                raise EngineError(f"{label}: „{echo(value)}“ ist keine ganze Zahl.", path)
            if len(text.lstrip("+-").lstrip("0")) > _MAX_DIGITS:
                raise self._out_of_range(echo(text.replace("-", "−")), path, label)
            value = int(text)
        if not isinstance(value, int):
            raise EngineError(f"{label}: muss eine ganze Zahl sein.", path)
        if value < self.minimum or value > self.maximum:
            raise self._out_of_range(echo(value), path, label)
        return value


_MAX_DIGITS = 30
"""Digits of an integer given as text beyond which it is out of range without converting it."""


@dataclass(frozen=True)
class BoolParam(Param):
    default: bool = False

    kind = "bool"
    missing_hint = "bitte ja oder nein angeben"

    def schema(self) -> dict[str, JSONValue]:
        out = super().schema()
        out["default"] = self.default
        return out

    def default_value(self) -> bool:
        return self.default

    def validate(self, value: JSONValue, path: str, label: str) -> bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in {"ja", "nein", "true", "false"}:
            return value.strip().lower() in {"ja", "true"}
        raise EngineError(f"{label}: muss ja oder nein sein.", path)


@dataclass(frozen=True)
class TextParam(Param):
    """A text; a required one must be given and not be empty, an optional one may be empty."""

    default: str = ""
    max_length: int = 40
    required: bool = True

    kind = "text"
    missing_hint = "bitte einen Text eintragen"

    def schema(self) -> dict[str, JSONValue]:
        out = super().schema()
        out.update(default=self.default, max_length=self.max_length)
        return out

    def default_value(self) -> str:
        return self.default

    def validate(self, value: JSONValue, path: str, label: str) -> str:
        if not isinstance(value, str):
            raise EngineError(f"{label}: muss ein Text sein.", path)
        text = " ".join(value.split())
        if self.required and not text:
            raise EngineError(f"{label}: darf nicht leer sein.", path)
        if len(text) > self.max_length:
            raise EngineError(f"{label}: höchstens {self.max_length} Zeichen.", path)
        return text


_CHOICE_TEXT = 160
"""Most characters of the list of choices a message names (then „…“ and how many there are)."""


def _choice_names(choices: tuple[tuple[str, str], ...]) -> str:
    names: list[str] = []
    length = 0
    for _, label in choices:
        length += len(label) + 2
        if length > _CHOICE_TEXT:
            return ", ".join(names) + f", … – {len(choices)} Möglichkeiten"
        names.append(label)
    return ", ".join(names)


@dataclass(frozen=True)
class ChoiceParam(Param):
    """One of several values; ``choices`` maps the JSON value to its German label."""

    choices: tuple[tuple[str, str], ...] = ()
    default: str = ""
    # with ``condition`` ("actor"/"target", ""): the choice values that are conditions of that
    # fighter, each with its condition's name (Ryssea: the Kampfposition „liegend“)
    condition_values: tuple[tuple[str, str], ...] = ()
    # values that were choices once, each with the German reason it is none any more: a saved
    # value, a link or a script that sends one hears why, not just „keine der Möglichkeiten“
    withdrawn: tuple[tuple[str, str], ...] = ()

    kind = "choice"

    @property
    def missing_hint(self) -> str:  # type: ignore[override]
        return f"bitte eine der Möglichkeiten wählen ({_choice_names(self.choices)})"

    def schema(self) -> dict[str, JSONValue]:
        out = super().schema()
        out["default"] = self.default or self.choices[0][0]
        out["choices"] = [{"value": v, "label": lab} for v, lab in self.choices]
        if self.condition:
            out["condition"] = {"of": self.condition[0], "choices": dict(self.condition_values)}
        return out

    def default_value(self) -> str:
        return self.default or self.choices[0][0]

    def validate(self, value: JSONValue, path: str, label: str) -> str:
        allowed = [v for v, _ in self.choices]
        names = _choice_names(self.choices)
        if not isinstance(value, str):
            raise EngineError(
                f"{label}: muss eine der Möglichkeiten sein ({names}), nicht {echo(value)}.", path
            )
        if value in dict(self.withdrawn):
            raise EngineError(f"{label}: {dict(self.withdrawn)[value]}", path)
        if value not in allowed:
            raise EngineError(
                f"{label}: „{echo(value)}“ ist keine der Möglichkeiten ({names}).", path
            )
        return value


@dataclass(frozen=True)
class ListParam(Param):
    """A list of records (e.g. fighters), each with the fields in ``item``."""

    item: tuple[Param, ...] = ()
    item_label: str = "Eintrag"
    min_items: int = 1
    max_items: int = 20
    default_items: tuple[Mapping[str, JSONValue], ...] = ()

    kind = "list"

    @property
    def missing_hint(self) -> str:  # type: ignore[override]
        return f"bitte mindestens {self.min_items} {self.item_label} eintragen"

    def schema(self) -> dict[str, JSONValue]:
        out = super().schema()
        out.update(
            item_label=self.item_label,
            min_items=self.min_items,
            max_items=self.max_items,
            item=[p.schema() for p in self.item],
            default=self.default_value(),
        )
        return out

    def default_value(self) -> list[dict[str, JSONValue]]:
        rows = []
        for given in self.default_items:
            row = {p.name: p.default_value() for p in self.item}
            row.update(given)
            rows.append(row)
        return rows

    def validate(self, value: JSONValue, path: str, label: str) -> list[dict[str, JSONValue]]:
        if not isinstance(value, list):
            raise EngineError(f"{label}: muss eine Liste sein.", path)
        if len(value) < self.min_items:
            raise EngineError(
                f"{label}: mindestens {self.min_items} {self.item_label} nötig.", path
            )
        if len(value) > self.max_items:
            raise EngineError(f"{label}: höchstens {self.max_items} Einträge.", path)
        return [
            validate_record(
                self.item,
                row,
                f"{path}.{index}",
                f"{self.item_label} {index + 1}",
            )
            for index, row in enumerate(value)
        ]


def _given(raw: Mapping[str, JSONValue], name: str) -> bool:
    return name in raw and raw[name] is not None


def _condition_text(params: Sequence[Param], other: str, value: JSONValue) -> str:
    """German: why a conditional field is needed (" (nötig bei Angriffsart: Fernkampf)")."""
    param = next((p for p in params if p.name == other), None)
    if param is None:
        return ""
    shown = echo(value)
    if isinstance(param, ChoiceParam):
        shown = dict(param.choices).get(str(value), shown)
    return f" (nötig bei {param.label}: {shown})"


def renamed(
    params: Sequence[Param], raw: Mapping[str, JSONValue], prefix: str = "", label_prefix: str = ""
) -> Mapping[str, JSONValue]:
    """``raw`` with every former name of a field (``Param.formerly``) read as its name.

    Both names at once is an error naming the field: which value was meant is not clear."""
    if not any(old in raw for param in params for old in param.formerly):
        return raw
    out = dict(raw)
    for param in params:
        for old in param.formerly:
            if old not in out:
                continue
            if param.name in out:
                label = f"{label_prefix} – {param.label}" if label_prefix else param.label
                raise EngineError(
                    f"{label}: zweimal angegeben, als „{param.name}“ und unter dem früheren "
                    f"Namen „{old}“ – bitte nur „{param.name}“ angeben.",
                    _path(prefix, param.name),
                )
            out[param.name] = out.pop(old)
    return out


def validate_record(
    params: Sequence[Param], raw: JSONValue, prefix: str = "", label_prefix: str = ""
) -> dict[str, JSONValue]:
    """Validate a JSON object against ``params``.

    A missing or ``null`` field is an error when it is required (or required in the situation
    the other fields describe, ``required_when``); otherwise it takes its default."""
    if not isinstance(raw, Mapping):
        where = label_prefix or "Eingabe"
        raise EngineError(f"{where}: muss ein Objekt mit Feldern sein.", prefix)
    raw = renamed(params, raw, prefix, label_prefix)
    known = {p.name for p in params}
    for key in raw:
        if key not in known:
            where = f"{label_prefix}: " if label_prefix else ""
            shown = echo(key)
            raise EngineError(f"{where}Unbekanntes Feld „{shown}“.", _path(prefix, shown))
    out: dict[str, JSONValue] = {}
    conditional: list[tuple[Param, str, str]] = []
    for param in params:
        path = _path(prefix, param.name)
        label = f"{label_prefix} – {param.label}" if label_prefix else param.label
        if _given(raw, param.name):
            out[param.name] = param.validate(raw[param.name], path, label)
            continue
        if param.required:
            raise param.missing(path, label)
        if param.required_when is not None:
            conditional.append((param, path, label))
        out[param.name] = param.validate(param.default_value(), path, label)
    for param, path, label in conditional:
        assert param.required_when is not None
        other, values = param.required_when
        if out.get(other) in values:
            raise param.missing(path, label, _condition_text(params, other, out[other]))
    return out


@dataclass(frozen=True)
class DiceParam(Param):
    """A dice expression such as ``1W8+2``; stored in its canonical German notation."""

    default: str = "1W6"

    kind = "dice"
    missing_hint = "bitte einen Würfelausdruck eintragen (z. B. 1W6+2)"

    def schema(self) -> dict[str, JSONValue]:
        out = super().schema()
        out["default"] = self.default
        return out

    def default_value(self) -> str:
        return self.default

    def validate(self, value: JSONValue, path: str, label: str) -> str:
        from engine import dice  # local import: dice imports errors only, params stays light

        if not isinstance(value, str):
            raise EngineError(f"{label}: muss ein Würfelausdruck sein (z. B. 1W8+2).", path)
        return dice.parse(value, path, label).notation()


@dataclass(frozen=True)
class StateParam(Param):
    """A JSON object the browser keeps between calls (e.g. the Tickleiste); not a form field.

    Only its outer shape is checked here; the action validates the content and names the
    offending key in its German message.
    """

    kind = "state"

    def schema(self) -> dict[str, JSONValue]:
        out = super().schema()
        out["default"] = {}
        return out

    def default_value(self) -> dict[str, JSONValue]:
        return {}

    def validate(self, value: JSONValue, path: str, label: str) -> dict[str, JSONValue]:
        if not isinstance(value, Mapping):
            raise EngineError(f"{label}: muss ein JSON-Objekt sein.", path)
        return dict(value)
