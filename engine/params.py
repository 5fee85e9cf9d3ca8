"""Parameter schemas: one definition per field, serving validation, ``describe`` and the forms.

Every action declares its parameters with these classes. The same objects
- validate incoming JSON (German messages naming the field),
- serialise to the schema that ``describe`` returns (the site builds its forms from it).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import EngineError

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

    kind = "param"

    def schema(self) -> dict[str, JSONValue]:
        out: dict[str, JSONValue] = {"name": self.name, "type": self.kind, "label": self.label}
        if self.help:
            out["help"] = self.help
        if self.group:
            out["group"] = self.group
        if self.advanced:
            out["advanced"] = True
        return out

    def default_value(self) -> JSONValue:
        raise NotImplementedError

    def validate(self, value: JSONValue, path: str, label: str) -> JSONValue:
        raise NotImplementedError


@dataclass(frozen=True)
class IntParam(Param):
    default: int = 0
    minimum: int = -999
    maximum: int = 999

    kind = "int"

    def schema(self) -> dict[str, JSONValue]:
        out = super().schema()
        out.update(default=self.default, min=self.minimum, max=self.maximum)
        return out

    def default_value(self) -> int:
        return self.default

    def validate(self, value: JSONValue, path: str, label: str) -> int:
        if isinstance(value, bool):
            raise EngineError(f"{label}: muss eine ganze Zahl sein, nicht ja/nein.", path)
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, str):
            text = value.strip().replace("−", "-")
            if not text:
                raise EngineError(f"{label}: bitte eine ganze Zahl eintragen.", path)
            if not re.fullmatch(r"[+-]?[0-9]{1,12}", text):
                raise EngineError(f"{label}: „{value}“ ist keine ganze Zahl.", path)
            value = int(text)
        if not isinstance(value, int):
            raise EngineError(f"{label}: muss eine ganze Zahl sein.", path)
        if value < self.minimum or value > self.maximum:
            raise EngineError(
                f"{label}: {value} liegt außerhalb des erlaubten Bereichs "
                f"({self.minimum} bis {self.maximum}).",
                path,
            )
        return value


@dataclass(frozen=True)
class BoolParam(Param):
    default: bool = False

    kind = "bool"

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
    default: str = ""
    max_length: int = 40
    required: bool = True

    kind = "text"

    def schema(self) -> dict[str, JSONValue]:
        out = super().schema()
        out.update(default=self.default, max_length=self.max_length, required=self.required)
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


@dataclass(frozen=True)
class ChoiceParam(Param):
    """One of several values; ``choices`` maps the JSON value to its German label."""

    choices: tuple[tuple[str, str], ...] = ()
    default: str = ""

    kind = "choice"

    def schema(self) -> dict[str, JSONValue]:
        out = super().schema()
        out["default"] = self.default or self.choices[0][0]
        out["choices"] = [{"value": v, "label": lab} for v, lab in self.choices]
        return out

    def default_value(self) -> str:
        return self.default or self.choices[0][0]

    def validate(self, value: JSONValue, path: str, label: str) -> str:
        allowed = [v for v, _ in self.choices]
        if not isinstance(value, str) or value not in allowed:
            names = ", ".join(lab for _, lab in self.choices)
            raise EngineError(f"{label}: „{value}“ ist keine der Möglichkeiten ({names}).", path)
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


def validate_record(
    params: Sequence[Param], raw: JSONValue, prefix: str = "", label_prefix: str = ""
) -> dict[str, JSONValue]:
    """Validate a JSON object against ``params``; missing fields take their defaults."""
    if not isinstance(raw, Mapping):
        where = label_prefix or "Eingabe"
        raise EngineError(f"{where}: muss ein Objekt mit Feldern sein.", prefix)
    known = {p.name for p in params}
    for key in raw:
        if key not in known:
            where = f"{label_prefix}: " if label_prefix else ""
            raise EngineError(f"{where}Unbekanntes Feld „{key}“.", _path(prefix, str(key)))
    out: dict[str, JSONValue] = {}
    for param in params:
        path = _path(prefix, param.name)
        label = f"{label_prefix} – {param.label}" if label_prefix else param.label
        if param.name in raw and raw[param.name] is not None:
            out[param.name] = param.validate(raw[param.name], path, label)
        else:
            out[param.name] = param.validate(param.default_value(), path, label)
    return out


@dataclass(frozen=True)
class DiceParam(Param):
    """A dice expression such as ``1W8+2``; stored in its canonical German notation."""

    default: str = "1W6"

    kind = "dice"

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
