"""Declared single roll (``art: wurf``): dice ± values of fields, the total said in words.

```yaml
aufwachen:
  art: wurf
  titel: "Aufwachen: Runden bis man handeln kann"
  zusammenfassung: 2W6 − GW(Widerstand); 0 oder weniger sofort hellwach.
  quelle: L47
  wurf: 2W6
  ueberschrift: Aufwachen                 # the result's headline (default: titel)
  wurfname: Aufwachen 2W6                 # the roll's label (default: titel)
  felder:                                 # the form's fields
    - {name: gw_widerstand, label: GW Widerstand, vorgabe: 4, min: 0, max: 30, pflicht: true,
       wer: handelnder}
  modifikatoren:                          # each added to the total, in this order
    - {feld: gw_widerstand, label: GW Widerstand, faktor: -1}
    # a share of a field: {feld: gewicht, label: "Körpergewicht {wert} kg / 50", je: 50,
    #   rundung: abrunden}; from a threshold on, capped: {ab: 5, je: 2, hoechstens: 5}
  ergebnis:                               # the first row that fits says the outcome
    - {bis: 0, meldung: Sofort hellwach.}
    - {bis: 1, meldung: "1 Runde bis zum Handeln."}
    - {meldung: "{summe} Runden bis zum Handeln."}
  chancen: [{name: sofort hellwach, bis: 0}]   # exact chances shown before the roll
  hinweise: [Ergebnis 0 oder negativ – sofort hellwach.]
  achse: Ergebnis                          # what the total counts (the chart's axis)
  mittelwert: Erwartungswert               # the chart's mean
  zusatzwurf:                              # optional: a second roll when a ja/nein field is set
    {name: sturz, wenn: greifen, wurf: 1W6+2, wurfname: Sturz 1W6+2,
     meldung: "Dazu {summe} KE.", hinweise: {titel: Greifen, punkte: ["… {erwartung}."]}}
```

A modifier is ``faktor`` × the field's value; with ``ab`` only what lies above it counts, with
``je`` one point per full ``je`` (rounded down; ``rundung: abrunden`` or ``aufrunden`` names
the rounding where the text leaves it open – the label then says „(abgerundet)“ when the
value leaves a remainder), ``hoechstens`` caps it. ``{wert}`` in a label is the field's value,
``{summe}`` in a ``meldung`` the total, ``{erwartung}`` in the extra roll's notes its mean
(numbers as entered). A row's ``wenn`` names a ja/nein field that must be set; the last row has
no condition. Exact odds: the distribution of the total, its mean, each ``chancen`` entry.

Annahmen: ``wurf`` and the ``felder`` decide every result, each modifier's rule (``faktor``,
``ab``, ``je``, ``hoechstens``) every one, ``rundung`` one whose value left a remainder, the
``ergebnis`` row that said the outcome, ``zusatzwurf`` one that rolled it. Words and odds never
decide (``ueberschrift``, ``wurfname``, ``chancen``, ``hinweise``, ``achse``, ``mittelwert``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine import dice
from engine.declarative.spec import COMMON_KEYS, Spec
from engine.display import Display
from engine.formatting import decimal
from engine.params import BoolParam, IntParam, Param
from engine.registry import ActionFunc

ALLOWED = COMMON_KEYS | {
    "ueberschrift",
    "wurfname",
    "felder",
    "modifikatoren",
    "ergebnis",
    "chancen",
    "hinweise",
    "achse",
    "mittelwert",
    "zusatzwurf",
}
MODIFIER_KEYS = {"feld", "label", "faktor", "ab", "je", "hoechstens", "rundung"}
ROW_KEYS = {"von", "bis", "wenn", "meldung"}
EXTRA_KEYS = {"name", "wenn", "wurf", "wurfname", "meldung", "hinweise"}
ROUNDING = {"abrunden": "abgerundet", "aufrunden": "aufgerundet"}
# the result keys' former names (CONTRIBUTING.md „Namen“): the kind's vocabulary as the Güte
# system's Python rolls had it
RESULT_FORMERLY: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("roll", ("wurf",)),
    ("total", ("ergebnis",)),
    ("exact", ("verteilung",)),
    ("expected", ("erwartung",)),
    ("modifiers", ("modifikatoren",)),
    ("value", ("wert",)),
)


@dataclass(frozen=True)
class Modifier:
    key: str
    field: str
    label: str
    factor: int
    above: int | None
    per: int | None
    cap: int | None
    rounding: str

    def value(self, entered: int) -> tuple[int, bool]:
        """The points and whether a share left a remainder (rounded)."""
        base = entered if self.above is None else max(0, entered - self.above)
        remainder = False
        if self.per is not None:
            remainder = base % self.per != 0
            base = -(-base // self.per) if self.rounding == "aufrunden" else base // self.per
        if self.cap is not None:
            base = min(self.cap, base)
        return self.factor * base, remainder


@dataclass(frozen=True)
class Row:
    low: int | None
    high: int | None
    when: str
    text: str

    def fits(self, total: int, values: dict[str, Any]) -> bool:
        return (
            (self.low is None or total >= self.low)
            and (self.high is None or total <= self.high)
            and (not self.when or bool(values[self.when]))
        )


def _optional_int(spec: Spec, key: str, minimum: int | None = None) -> int | None:
    if not spec.has(key):
        return None
    value = spec.integer(key)
    if minimum is not None and value < minimum:
        raise spec.error(key, f"muss mindestens {minimum} sein, ist {value}")
    return value


def _modifiers(spec: Spec, fields: dict[str, Param]) -> list[Modifier]:
    out = []
    for index in range(len(spec.items("modifikatoren"))):
        key = f"modifikatoren.{index}"
        entry = spec.mapping(key, MODIFIER_KEYS)
        name = entry.get("feld")
        if not isinstance(fields.get(str(name)), IntParam):
            raise spec.error(f"{key}.feld", f"„{name}“ ist kein Zahlenfeld unter felder")
        rounding = ""
        if spec.has(f"{key}.rundung"):
            rounding = spec.text(f"{key}.rundung")
            if rounding not in ROUNDING:
                raise spec.error(f"{key}.rundung", "muss abrunden oder aufrunden sein")
            if "je" not in entry:
                raise spec.error(f"{key}.rundung", "gilt nur mit je")
        out.append(
            Modifier(
                key,
                str(name),
                spec.text(f"{key}.label"),
                spec.integer(f"{key}.faktor", 1),
                _optional_int(spec, f"{key}.ab"),
                _optional_int(spec, f"{key}.je", 1),
                _optional_int(spec, f"{key}.hoechstens"),
                rounding,
            )
        )
    return out


def _rows(spec: Spec, key: str, flags: set[str]) -> list[Row]:
    entries = spec.items(key)
    if not entries:
        raise spec.error(key, "fehlt (eine Liste von {von, bis, wenn, meldung})")
    rows = []
    for index in range(len(entries)):
        where = f"{key}.{index}"
        entry = spec.mapping(where, ROW_KEYS)
        when = str(entry.get("wenn", ""))
        if when and when not in flags:
            raise spec.error(f"{where}.wenn", f"„{when}“ ist kein Ja/Nein-Feld unter felder")
        rows.append(
            Row(
                _optional_int(spec, f"{where}.von"),
                _optional_int(spec, f"{where}.bis"),
                when,
                spec.text(f"{where}.meldung"),
            )
        )
    last = rows[-1]
    if last.low is not None or last.high is not None or last.when:
        raise spec.error(
            f"{key}.{len(rows) - 1}", "die letzte Zeile gilt immer (ohne von, bis, wenn)"
        )
    return rows


def notes_of(spec: Spec, key: str, caption: str = "Hinweise") -> tuple[str, list[str]]:
    """``hinweise``: a list of notes (under ``caption``) or ``{titel, punkte: […]}``."""
    if not spec.has(key):
        return caption, []
    value = spec.raw(key)
    if isinstance(value, dict):
        spec.mapping(key, {"titel", "punkte"})
        caption = spec.text(f"{key}.titel")
        key = f"{key}.punkte"
    items = spec.items(key)
    return caption, [spec.text(f"{key}.{i}") for i in range(len(items))]


def _fill(text: str, **values: str) -> str:
    for name, value in values.items():
        text = text.replace("{" + name + "}", value)
    return text


def build(spec: Spec) -> tuple[tuple[Param, ...], ActionFunc]:
    expression = spec.dice("wurf", "Wurf")
    params = spec.fields("felder")
    fields = {p.name: p for p in params}
    flags = {p.name for p in params if isinstance(p, BoolParam)}
    modifiers = _modifiers(spec, fields)
    rows = _rows(spec, "ergebnis", flags)
    title = spec.text("titel")
    headline = spec.text("ueberschrift", title)
    label = spec.text("wurfname", title)
    events = []
    for index in range(len(spec.items("chancen"))):
        where = f"chancen.{index}"
        spec.mapping(where, {"name", "von", "bis"})
        low, high = _optional_int(spec, f"{where}.von"), _optional_int(spec, f"{where}.bis")
        if low is None and high is None:
            raise spec.error(where, "braucht von oder bis")
        events.append((spec.text(f"{where}.name"), low, high))
    caption, notes = notes_of(spec, "hinweise")
    axis = spec.text("achse", "Ergebnis")
    mean_label = spec.text("mittelwert", "Erwartungswert")
    extra = None
    formerly: tuple[tuple[str, tuple[str, ...]], ...] = RESULT_FORMERLY
    if spec.has("zusatzwurf"):
        entry = spec.mapping("zusatzwurf", EXTRA_KEYS)
        name = spec.text("zusatzwurf.name")
        when = spec.text("zusatzwurf.wenn")
        if when not in flags:
            raise spec.error("zusatzwurf.wenn", f"„{when}“ ist kein Ja/Nein-Feld unter felder")
        extra = (
            name,
            when,
            spec.dice("zusatzwurf.wurf", "Zusatzwurf"),
            spec.text("zusatzwurf.wurfname", name),
            spec.text("zusatzwurf.meldung") if "meldung" in entry else "",
            notes_of(spec, "zusatzwurf.hinweise", name),
        )
        formerly = (*RESULT_FORMERLY, (f"expected_{name}", (f"{name}_erwartung",)))
    spec.result_formerly = formerly

    def run(values: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        spec.use("wurf")
        for index in range(len(params)):
            spec.use(f"felder.{index}")
        parts = []
        for modifier in modifiers:
            for part in ("feld", "faktor", "ab", "je", "hoechstens"):
                spec.use(f"{modifier.key}.{part}")
            entered = values[modifier.field]
            points, remainder = modifier.value(entered)
            text = _fill(modifier.label, wert=str(entered))
            if remainder and modifier.rounding:
                spec.use(f"{modifier.key}.rundung")
                text += f" ({ROUNDING[modifier.rounding]})"
            parts.append((text, points))
        shift = sum(v for _, v in parts)
        rolled = dice.roll(expression, rng)
        total = rolled.total + shift
        full = dice.Expression(expression.terms, expression.constant + shift)
        dist = dice.distribution(full)
        expected = dice.expected_value(full)
        index, row = next((i, r) for i, r in enumerate(rows) if r.fits(total, values))
        spec.use(f"ergebnis.{index}")
        chances = [(name, _chance(full, low, high)) for name, low, high in events]
        display = Display(headline=headline, outcome=_fill(row.text, summe=str(total)))
        display.roll(label, rolled, parts, total=total)
        if chances:
            display.chances("Wahrscheinlichkeiten", chances, before=True)
        display.distribution("Verteilung", axis, dist, before=True, mean_label=mean_label)
        display.notes(caption, [*notes, f"Erwartungswert: {decimal(expected)}."])
        out: dict[str, Any] = {
            "roll": rolled.to_dict(),
            "modifiers": [{"name": n, "value": v} for n, v in parts],
            "total": total,
            "chances": {
                **{name: str(p) for name, p in chances},
                "exact": {str(t): str(p) for t, p in dist.items()},
                "expected": str(expected),
            },
        }
        if extra is not None and values[extra[1]]:
            name, _, die, extra_label, words, (extra_caption, extra_notes) = extra
            spec.use("zusatzwurf")
            second = dice.roll(die, rng)
            mean = dice.expected_value(die)
            out[name] = second.to_dict()
            out["chances"][f"expected_{name}"] = str(mean)
            if words:  # a sentence after the outcome's
                display.outcome += " " + _fill(words, summe=str(second.total))
            more = Display("")
            more.roll(extra_label, second)
            more.notes(extra_caption, [_fill(n, erwartung=decimal(mean)) for n in extra_notes])
            display.sections.extend(more.sections)
        out["display"] = display.to_dict()
        return out

    return tuple(params), run


def _chance(expression: dice.Expression, low: int | None, high: int | None) -> Fraction:
    """The exact chance that the total lies within ``low``…``high`` (either may be open)."""

    def within(total: int) -> bool:
        return (low is None or total >= low) and (high is None or total <= high)

    return dice.probability(expression, within)
