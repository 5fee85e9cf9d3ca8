"""Seeing the odds: „Was wäre wenn“ across the opponent's value, „Vergleichen“ across choices.

Both read what an action already computes exactly – the sections of its result marked
``before`` (:meth:`engine.display.Display.chances`, :meth:`~engine.display.Display.distribution`):
odds before the roll, which depend on the inputs only, never on the dice rolled. So every
action that marks its forecast gets both without code of its own, the YAML kinds included:

- :func:`what_if` runs the action once per value of one number field – the opponent's value
  the action names (``Action.what_if``: Verteidigung, RK, SG …) – from the current value out to
  both sides until the chances stop changing (at least ±:data:`MIN_REACH`, at most
  :data:`MAX_VALUES` values, within the field's limits and the request's work budget);
- :func:`compare` runs it once per choice of a choice field (``Action.compare``: manoeuvres,
  options, grips), the rest of the inputs as given; a choice the rules refuse in this
  situation is said (with the engine's German reason), not shown as a row.

One request, one work budget (:mod:`engine.budget`): the runs share its cache (a damage
distribution needed for every value is computed once). The answer is JSON like every result:
the columns (each chance, each expected value), a row per value or choice with exact fractions
and German text, what stays the same in every row, and a ``display`` (a table and notes) for
the CLI and any page that draws it as it is.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine.budget import Budget, request_budget
from engine.data_files import assumptions_used
from engine.display import MEANS_ONLY, Display
from engine.errors import EngineError, echo
from engine.formatting import decimal, fraction_text, number, parse_fraction, percent
from engine.params import BoolParam, ChoiceParam, IntParam, Param, validate_record
from engine.registry import SYSTEMS, Action

MAX_VALUES = 41
"""Most values „Was wäre wenn“ computes: the current one and 20 to each side."""
MIN_REACH = 5
"""Values to each side computed even where the chances do not change yet (a plateau near the
current value is shown, not taken for the end of the range)."""
SEED = 0
"""The dice of the runs are never read (only the odds before the roll); a fixed seed keeps the
answer the same for the same request."""


@dataclass(frozen=True)
class Column:
    key: str
    label: str
    caption: str
    kind: str  # "chance" or "mean"

    def cell(self, value: Fraction) -> dict[str, str]:
        text = percent(value) if self.kind == "chance" else decimal(value)
        return {"fraction": fraction_text(value), "text": text}


Figures = dict[str, Fraction]


def _action(system: Any, action: Any) -> Action:
    if not isinstance(system, str) or system not in SYSTEMS:
        raise EngineError("System: unbekannt.", "system")
    actions = SYSTEMS[system].actions
    if not isinstance(action, str) or action not in actions:
        raise EngineError(f"Aktion: gibt es für {SYSTEMS[system].title} nicht.", "action")
    return actions[action]


def _figures(result: dict[str, Any], columns: dict[str, Column]) -> Figures:
    """The odds before the roll in one result: each chance and each distribution's mean."""
    out: Figures = {}
    display = result.get("display") or {}
    for section in display.get("sections", []):
        if not section.get("before"):
            continue
        caption = str(section.get("caption", ""))
        if section["kind"] == "chances":
            for item in section["items"]:
                key = f"chance\n{caption}\n{item['label']}"
                columns.setdefault(key, Column(key, item["label"], caption, "chance"))
                out[key] = parse_fraction(item["fraction"])
        elif section["kind"] == "distribution" and section.get("numeric"):
            mean = section["mean"]
            key = f"mean\n{caption}"
            label = mean.get("label") or f"Mittelwert {section['axis']}"
            columns.setdefault(key, Column(key, label, caption, "mean"))
            out[key] = parse_fraction(mean["fraction"])
    return out


class _Runner:
    """Runs one action again and again with one field changed, in one budget."""

    def __init__(self, spec: Action, values: dict[str, Any], budget: Budget) -> None:
        self.spec = spec
        self.values = values
        self.budget = budget
        self.columns: dict[str, Column] = {}
        self.most = 0  # the most work one run has spent so far

    def figures(self, name: str, value: Any) -> Figures:
        """The figures with ``name`` set to ``value`` (checked like any input: a field this
        value needs and the inputs lack is a German error naming it)."""
        changed = {**self.values, name: value}
        # as the form does: a field the new value hides (its ``when`` no longer applies) is not
        # sent – a Wuchtschlag's X does not follow into „kein Manöver“
        hidden = {p.name for p in self.spec.params if p.name != name and not _applies(p, changed)}
        inputs = validate_record(
            self.spec.params, {k: v for k, v in changed.items() if k not in hidden}
        )
        before = self.budget.spent
        token = MEANS_ONLY.set(True)  # a distribution's mean is read, its bars are not
        try:
            with assumptions_used():  # named by the helper's „Annahmen“ box, as for any forecast
                result = self.spec.func(inputs, random.Random(SEED))
        finally:
            MEANS_ONLY.reset(token)
        self.most = max(self.most, self.budget.spent - before)
        return _figures(result, self.columns)

    def room_for_another(self) -> bool:
        return self.budget.left > 2 * self.most


def _field(spec: Action, name: Any, kinds: tuple[type[Param], ...], what: str) -> Param:
    params = {p.name: p for p in spec.params}
    param = params.get(name) if isinstance(name, str) else None
    if param is None or not isinstance(param, kinds):
        fitting = ", ".join(p.name for p in spec.params if isinstance(p, kinds)) or "keins"
        raise EngineError(
            f"{what}: „{echo(name)}“ ist kein passendes Feld dieser Aktion (passend: {fitting}).",
            "field",
        )
    return param


def _applies(param: Param, values: dict[str, Any]) -> bool:
    return all(values.get(other) in allowed for other, allowed in param.when)


def _shown(param: Param, value: Any) -> str:
    if isinstance(param, ChoiceParam):
        return dict(param.choices).get(value, str(value))
    if isinstance(param, BoolParam):
        return "ja" if value else "nein"
    return str(value)


def _made_to_apply(
    spec: Action, param: Param, values: dict[str, Any], notes: list[str]
) -> dict[str, Any]:
    """The inputs with ``param`` in force: a one-roll field it depends on (its ``when``; a value
    of the roll, ``per_roll``, which the page clears after each roll) that does not allow it is
    set to the first value that does, and the note says so – „Was wäre wenn“ over the Güte of
    a parade asks what happens *if* the parade succeeds. A situation that rules the field out
    (a target that does not defend) holds: then it is an error naming the field."""
    if _applies(param, values):
        return values
    fields = {p.name: p for p in spec.params}
    unmet = [(other, allowed) for other, allowed in param.when if values.get(other) not in allowed]
    if any(not fields[other].per_roll for other, _ in unmet):  # the situation, chosen: it holds
        raise EngineError(f"{param.label}: gilt bei diesen Angaben nicht.", param.name)
    changed = dict(values)
    for other, allowed in unmet:
        if changed.get(other) not in allowed:
            changed[other] = allowed[0]
            notes.append(
                f"Angenommen für diese Rechnung: {fields[other].label}: "
                f"{_shown(fields[other], allowed[0])}."
            )
    return validate_record(spec.params, changed)


def _table(
    kind: str,
    spec: Action,
    param: Param,
    rows: list[dict[str, Any]],
    columns: list[Column],
    same: list[dict[str, str]],
    notes: list[str],
) -> dict[str, Any]:
    headline = "Was wäre wenn" if kind == "what_if" else "Vergleichen"
    display = Display(
        f"{headline}: {spec.title} – {param.label}",
        f"{len(rows)} {'Werte' if kind == 'what_if' else 'Möglichkeiten'} nebeneinander.",
    )
    display.table(
        f"Chancen und Erwartungswerte je {param.label}",
        [param.label, *(c.label for c in columns)],
        [
            [row["label"] + (" (jetzt)" if row["current"] else "")]
            + [cell["text"] if cell else "–" for cell in row["cells"]]
            for row in rows
        ],
    )
    display.notes("In jeder Zeile gleich", [f"{s['label']}: {s['text']}" for s in same])
    display.notes("Hinweise", notes)
    return display.to_dict()


def _answer(
    kind: str,
    spec: Action,
    param: Param,
    current: Any,
    computed: list[tuple[Any, str, Figures]],
    runner: _Runner,
    notes: list[str],
    refused: list[dict[str, str]] | None = None,
) -> dict[str, Any]:
    keys = list(runner.columns)
    varying = [k for k in keys if len({figures.get(k) for _, _, figures in computed}) > 1] or keys
    columns = [runner.columns[k] for k in varying]
    same = [
        {"label": runner.columns[k].label, **runner.columns[k].cell(computed[0][2][k])}
        for k in keys
        if k not in varying and k in computed[0][2]
    ]
    rows = [
        {
            "value": value,
            "label": label,
            "current": value == current,
            "cells": [c.cell(figures[c.key]) if c.key in figures else None for c in columns],
        }
        for value, label, figures in computed
    ]
    out: dict[str, Any] = {
        "kind": kind,
        "system": spec.system,
        "action": spec.name,
        "field": param.name,
        "label": param.label,
        "current": current,
        "columns": [
            {"key": c.key, "label": c.label, "caption": c.caption, "kind": c.kind} for c in columns
        ],
        "rows": rows,
        "same": same,
        "notes": notes,
    }
    if not keys:
        notes.append("Diese Aktion nennt keine Chancen vor dem Wurf.")
    said = list(notes)
    if refused is not None:
        out["refused"] = refused
        said += [f"{r['label']}: nicht möglich – {r['message']}" for r in refused]
    out["display"] = _table(kind, spec, param, rows, columns, same, said)
    return out


def _outward(current: int, low: int, high: int) -> Iterator[tuple[int, int]]:
    """(direction, value) pairs from the current value outwards, alternating sides."""
    for step in range(1, max(current - low, high - current) + 1):
        for direction in (-1, 1):
            value = current + direction * step
            if low <= value <= high:
                yield direction, value


def what_if(
    system: Any, action: Any, params: dict[str, Any] | None = None, field: Any = None
) -> dict[str, Any]:
    """The action's chances and expected values for each value of ``field`` (default: the
    opponent's value the action names) around the value given. Raises EngineError (German,
    naming the field) for bad input or an action without such a field."""
    spec = _action(system, action)
    name = field if field not in (None, "") else spec.what_if
    if not name:
        raise EngineError(
            f"Was wäre wenn: {spec.title} geht gegen keinen Wert des Gegners.", "field"
        )
    param = _field(spec, name, (IntParam,), "Was wäre wenn")
    assert isinstance(param, IntParam)
    values = validate_record(spec.params, {} if params is None else params)
    current = values[param.name]
    if current is None:
        raise EngineError(f"{param.label}: fehlt – bitte eine ganze Zahl eintragen.", param.name)
    notes: list[str] = []
    values = _made_to_apply(spec, param, values, notes)
    with request_budget() as budget:
        runner = _Runner(spec, values, budget)
        found: dict[int, Figures] = {current: runner.figures(param.name, current)}
        ended: dict[int, int] = {}  # direction → the value where that side stopped
        cut = False
        for direction, value in _outward(current, param.minimum, param.maximum):
            if direction in ended:
                continue
            if len(found) >= MAX_VALUES or not runner.room_for_another():
                cut = not runner.room_for_another()
                break
            try:
                figures = runner.figures(param.name, value)
            except EngineError as error:  # this value is refused by the rules: the side ends
                ended[direction] = value - direction
                notes.append(f"{param.label} {number(value)}: {error.message}")
                continue
            found[value] = figures
            near = abs(value - current) <= MIN_REACH
            previous = [found.get(value - direction * k) for k in (1, 2)]
            if not near and previous == [figures, figures]:
                ended[direction] = value  # three values alike: the chances have settled
    if cut:
        notes.append("Der Bereich ist gekürzt: mehr Werte passen nicht in eine Berechnung.")
    low, high = min(found), max(found)
    notes.append(f"Berechnet für {param.label} {number(low)} bis {number(high)}.")
    computed = [(v, number(v), found[v]) for v in sorted(found)]
    return _answer("what_if", spec, param, current, computed, runner, notes)


def _choices(param: Param) -> list[tuple[Any, str]]:
    if isinstance(param, ChoiceParam):
        return list(param.choices)
    return [(False, f"{param.label}: nein"), (True, f"{param.label}: ja")]


def compare(
    system: Any, action: Any, params: dict[str, Any] | None = None, field: Any = None
) -> dict[str, Any]:
    """The action's chances and expected values for each choice of ``field`` (default: the
    first choice field the action names for comparing), everything else as given. A choice
    the rules refuse here is listed with the reason under ``refused``."""
    spec = _action(system, action)
    name = field if field not in (None, "") else (spec.compare[0] if spec.compare else "")
    if not name:
        raise EngineError(f"Vergleichen: {spec.title} hat keine Wahl zum Vergleichen.", "field")
    param = _field(spec, name, (ChoiceParam, BoolParam), "Vergleichen")
    values = validate_record(spec.params, {} if params is None else params)
    if not _applies(param, values):  # a choice this situation does not offer: said as such
        raise EngineError(f"{param.label}: gilt bei diesen Angaben nicht.", param.name)
    notes: list[str] = []
    computed: list[tuple[Any, str, Figures]] = []
    refused: list[dict[str, str]] = []
    errors: list[EngineError] = []
    with request_budget() as budget:
        runner = _Runner(spec, values, budget)
        for value, label in _choices(param):
            if computed and not runner.room_for_another():
                notes.append("Nicht alle Möglichkeiten passen in eine Berechnung.")
                break
            try:
                computed.append((value, label, runner.figures(param.name, value)))
            except EngineError as error:
                refused.append({"value": str(value), "label": label, "message": error.message})
                errors.append(error)
    if not computed:
        if len({(e.message, e.field) for e in errors}) == 1:
            raise errors[0]  # every choice fails alike: the inputs are wrong, said at their field
        raise EngineError(
            f"Vergleichen: bei diesen Angaben ist keine Wahl von „{param.label}“ möglich.",
            param.name,
        )
    return _answer("compare", spec, param, values[param.name], computed, runner, notes, refused)
