"""Declared initiative (``art: initiative``): every fighter rolls dice + a value; highest first.

```yaml
initiative:
  art: initiative
  titel: Initiative
  zusammenfassung: Jeder würfelt 1W6 + Gewandtheit; wer höher liegt, handelt zuerst.
  quelle: L5–L9
  wurf: 1W6
  wert: {name: gw, label: Gewandtheit, vorgabe: 2, min: 0, max: 20}
  # … or the sum of several fields, each shown in the roll line by its short label (kurz;
  # the first always, each further one only when it is not 0):
  # wert:
  #   label: Modifikator
  #   felder:
  #     - {name: ge, label: Geschicklichkeitsmodifikator, kurz: GE, frueher: [dexterity]}
  #     - {name: other, label: Andere Modifikatoren, kurz: andere}
  gleichstand:                  # in this order, until one rule decides
    - hoeherer_wert             # the higher value (gw) first
    - feld: {name: mu, label: Mut, vorgabe: 2}   # a field of its own, higher first
    - stechen                   # roll again (stechen_wurf, default: wurf), higher first
  # … or end with gleichzeitig: those still equal act at the same time
  stechen_wurf: 1W6
  stechen_hoechstens: 100       # roll-off rounds before the lot decides (at least 1)
  stechen_zeigen: true          # each roll-off roll as a roll of its own (false: only in the
                                # order's Gleichstand column)
  seiten: true                  # optional: each row has „Seite“ (empty unless typed); the
                                # Kampfhelfer page knows who fights whom, the player view shows
                                # the side „Helden“ with its values
  ueberschrift: Initiative      # the result's headline (default: titel)
  wurfspalte: W6 + GW           # the order's roll column (default: "<wurf> + <label of wert>")
  hinweise: [Gleichzeitig Handelnde würfeln ihre Aktionen gleichzeitig aus.]  # or {titel, punkte}
```

The list of fighters (``fighters``: name, the value's fields, the fields the tie rules name)
is the fight: its rows have no ``subject``. The result gives the order (``value``: the value,
formerly ``modifier`` as Pathfinder's Python initiative called it), ``turns`` for the fight bar
and the exact chance of each fighter to act first: over the faces of one fighter's roll, the
others are beaten, lose or stay tied by the rules above; a roll-off gives each of k tied
fighters 1/k (it is symmetric: a roll-off still open after ``stechen_hoechstens`` rounds, 100
unless declared, is settled by lot), „gleichzeitig“ counts a shared first place as first.
The order's „Gleichstand“ column says, for a fighter whose total another one shares, what
decided: the roll-off („Stechen 4 · 2“) when there was one, else the tie rules' values (the
value with its sign, as it was added to the roll), „gleichzeitig“ for a shared place.

Annahmen: ``wurf`` and ``wert`` decide every result, ``gleichstand`` one with equal totals,
``stechen_wurf`` one with a roll-off, ``stechen_hoechstens`` one whose roll-off was settled by
lot. Words never decide (``ueberschrift``, ``wurfspalte``, ``hinweise``, ``stechen_zeigen``),
nor does ``seiten``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from engine import dice
from engine.declarative.roll import notes_of
from engine.declarative.spec import COMMON_KEYS, Spec
from engine.display import Display
from engine.errors import EngineError
from engine.formatting import number, signed
from engine.ordering import (
    RolledFighter,
    check_unique_names,
    counts_of,
    first_place_chances,
    order_groups,
    place_chances,
    show_places,
)
from engine.params import IntParam, ListParam, Param, TextParam, validate_record
from engine.registry import ActionFunc

ALLOWED = COMMON_KEYS | {
    "wert",
    "gleichstand",
    "stechen_wurf",
    "stechen_hoechstens",
    "stechen_zeigen",
    "seiten",
    "beispiel",
    "ueberschrift",
    "wurfspalte",
    "hinweise",
}
HIGHER_VALUE = "hoeherer_wert"
ROLL_OFF = "stechen"
TOGETHER = "gleichzeitig"
# the result keys' former names (CONTRIBUTING.md „Namen“): the order's value as Pathfinder's
# Python initiative called it
RESULT_FORMERLY: tuple[tuple[str, tuple[str, ...]], ...] = (("value", ("modifier",)),)


@dataclass(frozen=True)
class Value:
    """What each fighter adds to his roll: one field, or the sum of several (``felder``)."""

    label: str
    parts: tuple[tuple[Param, str], ...]  # each field with its short label in the roll line

    def of(self, row: dict[str, Any]) -> int:
        return sum(int(row[field.name]) for field, _ in self.parts)

    def shown(self, row: dict[str, Any]) -> list[tuple[str, int]]:
        """The roll line's modifiers: the first part always, each further one when not 0."""
        out = []
        for index, (field_, short) in enumerate(self.parts):
            if index == 0 or row[field_.name]:
                out.append((short, int(row[field_.name])))
        return out


def _value(spec: Spec) -> Value:
    """``wert``: one field, or ``{label, felder: [{…, kurz}, …]}`` – the sum of several."""
    if not spec.has("wert.felder"):
        field_ = spec.field("wert", subject="", per_roll=False)
        return Value(field_.label, ((field_, field_.label),))
    spec.mapping("wert", {"label", "felder"})
    if not spec.has("wert.label"):
        raise spec.error("wert.label", "fehlt (der Name der Summe, z. B. Modifikator)")
    label = spec.text("wert.label")
    entries = spec.items("wert.felder")
    if not entries:
        raise spec.error("wert.felder", "muss mindestens ein Feld nennen")
    parts = []
    for index in range(len(entries)):
        key = f"wert.felder.{index}"
        field_ = spec.field(key, also={"kurz"}, subject="", per_roll=False)
        if not isinstance(field_, IntParam):
            raise spec.error(f"{key}.art", "muss zahl sein (der Wert wird zum Wurf gezählt)")
        parts.append((field_, spec.text(f"{key}.kurz", field_.label)))
    return Value(label, tuple(parts))


@dataclass
class Fighter(RolledFighter):
    value: int
    keys: tuple[int, ...]
    rolloff_rolls: list[dice.RollResult] = field(default_factory=list)  # shown roll by roll


def _tie_rules(spec: Spec) -> tuple[list[str | Param], str]:
    """The deterministic rules (``hoeherer_wert`` or a field) and how it ends."""
    rules: list[str | Param] = []
    entries = spec.items("gleichstand")
    if not entries:
        raise spec.error(
            "gleichstand", "fehlt (eine Liste, die mit stechen oder gleichzeitig endet)"
        )
    for index, entry in enumerate(entries):
        where = f"gleichstand.{index}"
        last = index == len(entries) - 1
        if entry in (ROLL_OFF, TOGETHER):
            if not last:
                raise spec.error(where, f"{entry} entscheidet alles Übrige: nur als letzte Regel")
            return rules, str(entry)
        if entry == HIGHER_VALUE:
            rules.append(HIGHER_VALUE)
        elif isinstance(entry, dict) and set(entry) == {"feld"}:
            rules.append(spec.field(f"{where}.feld", subject="", per_roll=False))
        else:
            raise spec.error(where, "muss hoeherer_wert, {feld: …}, stechen oder gleichzeitig sein")
    raise spec.error("gleichstand", "muss mit stechen oder gleichzeitig enden")


SIDE = "seite"


def _side_field(spec: Spec) -> tuple[Param, ...]:
    """``seiten: true``: the field „Seite“ of every fighter (none without it). Empty unless
    typed – a fighter of no side shows the player view only „grob“, never his values."""
    if not spec.flag("seiten"):
        return ()
    return (
        TextParam(
            SIDE,
            "Seite",
            default="",
            max_length=30,
            required=False,
            help="Z. B. Helden oder Gegner: wer auf derselben Seite steht, kämpft zusammen; "
            "die Spielersicht zeigt die Seite „Helden“ mit ihren Werten.",
        ),
    )


def build(spec: Spec) -> tuple[tuple[Param, ...], ActionFunc]:
    expression = spec.dice("wurf", "Initiativwurf")
    value = _value(spec)
    rules, ending = _tie_rules(spec)
    rolloff_die = spec.dice("stechen_wurf", "Stechen", expression.notation())
    limit = spec.integer("stechen_hoechstens", 100)
    if limit < 1:
        raise spec.error("stechen_hoechstens", f"muss mindestens 1 sein, ist {limit}")
    show_rolloffs = spec.flag("stechen_zeigen", True)
    tie_fields = [r for r in rules if isinstance(r, Param)]
    sides = _side_field(spec)
    item = (
        TextParam("name", "Name", max_length=30),
        *sides,
        *(f for f, _ in value.parts),
        *tie_fields,
    )
    _check_names(spec, value, rules)
    examples = spec.items("beispiel") or [{"name": "Alrik"}, {"name": "Bruna"}]
    for index, example in enumerate(examples):
        try:
            validate_record(item, example)
        except EngineError as error:
            raise spec.error(f"beispiel.{index}", error.message) from None
    fighters_param = ListParam(
        "fighters",
        "Kämpfer",
        item=item,
        item_label="Kämpfer",
        min_items=1,
        max_items=12,
        default_items=tuple(dict(e) for e in examples),
        required=True,
    )
    headline = spec.text("ueberschrift", spec.text("titel"))
    column = spec.text("wurfspalte", f"{expression.notation()} + {value.label}")
    notes_caption, notes = notes_of(spec, "hinweise")
    spec.result_formerly = RESULT_FORMERLY

    def keys(row: dict[str, Any]) -> tuple[int, ...]:
        return tuple(value.of(row) if r == HIGHER_VALUE else row[r.name] for r in rules)  # type: ignore[union-attr]

    def totals_of(rows: list[dict[str, Any]]) -> list[dict[int, int]]:
        faces = counts_of(dice.distribution(expression))
        return [{face + value.of(row): ways for face, ways in faces.items()} for row in rows]

    def first_chances(rows: list[dict[str, Any]]) -> list[Fraction]:
        return first_place_chances(
            totals_of(rows), [keys(row) for row in rows], shared=ending != TOGETHER
        )

    def roll_off(group: list[Fighter], rng: random.Random) -> list[Fighter]:
        if ending == TOGETHER:
            return group
        pending, ordered, rounds = [group], [], 0
        while pending:
            current = pending.pop(0)
            if len(current) == 1:
                ordered.extend(current)
                continue
            rounds += 1
            if rounds > limit:  # settled by lot: the roll-off stays fair
                spec.use("stechen_hoechstens")
                rng.shuffle(current)
                ordered.extend(current)
                continue
            spec.use("stechen_wurf")
            by_total: dict[int, list[Fighter]] = {}
            for fighter in current:
                rolled = dice.roll(rolloff_die, rng)
                fighter.record_rolloff(rolled.total)
                fighter.rolloff_rolls.append(rolled)
                by_total.setdefault(rolled.total, []).append(fighter)
            pending = [by_total[t] for t in sorted(by_total, reverse=True)] + pending
        return ordered

    def run(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        rows: list[dict[str, Any]] = params["fighters"]
        check_unique_names(rows, "fighters", "Kämpfer")
        chances = first_chances(rows)
        spec.use("wurf")
        spec.use("wert")
        fighters = []
        for index, row in enumerate(rows):
            rolled = dice.roll(expression, rng)
            fighters.append(
                Fighter(
                    index=index,
                    name=row["name"],
                    roll=rolled,
                    initiative=rolled.total + value.of(row),
                    value=value.of(row),
                    keys=keys(row),
                )
            )
        totals = [f.initiative for f in fighters]
        tied_totals = {t for t in totals if totals.count(t) > 1}
        if tied_totals:  # the order rests on the tie rule (named before its roll-off die)
            spec.use("gleichstand")
        order, _ = order_groups(
            fighters,
            lambda f: (f.initiative, *f.keys),
            lambda group: roll_off(group, rng),
            descending=True,
        )
        places, shared = _places(order, ending)
        first = [f for f in order if places[f.index] == 1]
        display = Display(headline=headline, outcome=_first_words(first))
        table_rows = []
        for fighter in order:
            table_rows.append(
                [
                    str(places[fighter.index]),
                    fighter.name,
                    f"{fighter.roll.total} {signed(fighter.value)}",
                    number(fighter.initiative),
                    _tie_words(fighter, tied_totals, shared, rules, value),
                ]
            )
        display.table(
            "Reihenfolge (höchstes Ergebnis zuerst)",
            ["Platz", "Kämpfer", column, "Initiative", "Gleichstand"],
            table_rows,
        )
        for fighter, row in zip(fighters, rows, strict=True):
            fighter.show_roll(display, value.shown(row))
            if show_rolloffs:
                for number_, rolled in enumerate(fighter.rolloff_rolls, start=1):
                    display.roll(f"{fighter.name}: Stechen {number_}", rolled)
        display.notes(notes_caption, notes)
        caption = "Chance, als Erste(r) zu handeln (vor dem Wurf)"
        if ending == TOGETHER:
            caption = "Chance, als Erste(r) zu handeln – allein oder gleichzeitig (vor dem Wurf)"
        display.chances(
            caption, [(r["name"], p) for r, p in zip(rows, chances, strict=True)], before=True
        )
        # every fighter's place, exact where it fits the work budget (the roll-off is fair:
        # each tied place equally likely; „gleichzeitig“ shares the first of them)
        place_odds = (
            place_chances(totals_of(rows), [keys(r) for r in rows], shared=ending != TOGETHER)
            if len(rows) > 1
            else None
        )
        show_places(display, [row["name"] for row in rows], place_odds)
        return {
            "order": [
                {
                    "place": places[f.index],
                    "name": f.name,
                    "value": f.value,
                    "roll": f.roll.to_dict(),
                    "initiative": f.initiative,
                    "rolloff": f.rolloff,
                    **({"side": rows[f.index][SIDE]} if sides else {}),
                }
                for f in order
            ],
            "first_chances": {r["name"]: str(p) for r, p in zip(rows, chances, strict=True)},
            "turns": [
                {
                    "name": f.name,
                    "label": f"Platz {places[f.index]}"
                    + (" (gleichzeitig)" if f.index in shared else ""),
                }
                for f in order
            ],
            "display": display.to_dict(),
        }

    return (fighters_param,), run


def _places(order: list[Fighter], ending: str) -> tuple[dict[int, int], set[int]]:
    """Place of each fighter; fighters acting at the same time share one (``gleichzeitig``)."""
    places: dict[int, int] = {}
    shared: set[int] = set()
    for position, fighter in enumerate(order):
        before = order[position - 1] if position else None
        same = (
            ending == TOGETHER
            and before is not None
            and (before.initiative, *before.keys) == (fighter.initiative, *fighter.keys)
        )
        places[fighter.index] = places[before.index] if same and before else position + 1
        if same and before:
            shared.update({before.index, fighter.index})
    return places, shared


def _first_words(first: list[Fighter]) -> str:
    if len(first) == 1:
        return f"Zuerst handelt {first[0].name} mit {number(first[0].initiative)}."
    names = ", ".join(f.name for f in first[:-1]) + f" und {first[-1].name}"
    return f"Zuerst handeln gleichzeitig {names} mit {number(first[0].initiative)}."


def _check_names(spec: Spec, value: Value, rules: list[str | Param]) -> None:
    """Every field of a fighter's row has a name of its own (the value's, the tie rules')."""
    keys = (
        [f"wert.felder.{i}.name" for i in range(len(value.parts))]
        if spec.has("wert.felder")
        else ["wert.name"]
    )
    fields = [field_ for field_, _ in value.parts]
    for index, entry in enumerate(spec.items("gleichstand")):
        if isinstance(entry, dict):
            keys.append(f"gleichstand.{index}.feld.name")
    fields += [r for r in rules if isinstance(r, Param)]
    seen = {"name", SIDE} if spec.flag("seiten") else {"name"}
    for field_, key in zip(fields, keys, strict=True):
        if field_.name in seen:
            raise spec.error(key, f"„{field_.name}“ ist schon ein Feld jedes Kämpfers")
        seen.add(field_.name)


def _tie_words(
    fighter: Fighter,
    tied_totals: set[int],
    shared: set[int],
    rules: list[str | Param],
    value: Value,
) -> str:
    """What decided for a fighter whose total another one shares: his roll-off (he was equal
    in every rule before it), else each tie rule's value – the value signed, as it was added."""
    if fighter.initiative not in tied_totals:
        return ""
    if fighter.rolloff:
        return fighter.tie_note
    parts = []
    for rule, key in zip(rules, fighter.keys, strict=True):
        if rule == HIGHER_VALUE:
            parts.append(f"{value.label} {signed(key)}")
        else:
            parts.append(f"{rule.label} {number(key)}")  # type: ignore[union-attr]
    if fighter.index in shared:
        parts.append("gleichzeitig")
    return ", ".join(parts)
