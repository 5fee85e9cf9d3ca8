"""Ryssea initiative: INI + W6 + Mods at combat start and the start fields (L17–L45).

Owns the fighter fields (shared with the Tickleiste), the roll (``roll_initiative``: a surprised
fighter loses 10 ticks, L43), the order on the Tickleiste (lower tick first; same tick: higher
Intuition, then a W10 roll-off, L25), the exact chance of each fighter to act first
(``first_chances``) and the ``initiative`` action, whose ``turns`` give the acting order at
combat start for the fight bar (label: the start tick, and the place on it when shared).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine import dice
from engine.display import Display
from engine.errors import EngineError
from engine.formatting import number, signed
from engine.ordering import (
    RolledFighter,
    check_unique_names,
    first_place_chances,
    order_groups,
    place_chances,
    roll_off,
    show_places,
)
from engine.params import BoolParam, IntParam, ListParam, TextParam
from regeln.ryssea.common import DATA, SOURCE, SYSTEM, assumptions_for

FIGHTER_FIELDS = (
    TextParam("name", "Name", help="Wie der Kämpfer auf der Tickleiste heißt.", max_length=30),
    IntParam(
        "ini", "INI", default=10, minimum=0, maximum=99, help="Initiative-Wert", required=True
    ),
    IntParam(
        "intuition",
        "Intuition",
        default=3,
        minimum=0,
        maximum=99,
        help="Entscheidet bei gleichem Tickfeld zu Kampfbeginn (höhere zuerst).",
        required=True,
    ),
    IntParam(
        "modifier",
        "Modifikatoren",
        default=0,
        minimum=-99,
        maximum=99,
        help="Etwa aus Vorteilen, Magie, Meisterschaften oder Verletzungen.",
    ),
    BoolParam(
        "surprised",
        "Überrascht",
        help="Ein Überraschter verliert 10 Ticks (von der Initiative abgezogen).",
    ),
)


@dataclass
class Fighter(RolledFighter):
    ini: int
    intuition: int
    modifier: int
    surprised: bool

    @property
    def tick(self) -> int:
        return -self.initiative


def _surprise_ticks() -> int:
    return DATA.integer("initiative.ueberraschung_ticks", 0, 100)


def _initiative_die() -> dice.Expression:
    return DATA.dice("initiative.wurf", "Initiativwurf")


def _rolloff_die() -> dice.Expression:
    return DATA.dice("initiative.stechen_wurf", "Stechen")


def _resolve_tie(group: list[Fighter], rng: random.Random) -> list[Fighter]:
    """Same tick at combat start: higher Intuition first; still tied: W10 roll-off (L25)."""

    def note(intuition: int, fighter: Fighter) -> None:
        fighter.tie_note = f"Intuition {intuition}"

    ordered, _ = order_groups(
        group,
        lambda f: f.intuition,
        lambda same: _roll_off(same, rng),
        descending=True,
        single=note,
    )
    return ordered


def _roll_off(group: list[Fighter], rng: random.Random) -> list[Fighter]:
    """Each rolls the Stechen die, higher first; those still equal roll again (Annahme)."""
    repeat = DATA.flag("initiative.wiederholung_bei_gleichstand")
    limit = DATA.integer("initiative.stechen_hoechstens", 1, 10_000)
    ordered, unresolved = roll_off(group, _rolloff_die(), rng, limit if repeat else 1)
    if unresolved and repeat:
        raise EngineError(f"Stechen: nach {limit} Würfen noch unentschieden.", "fighters")
    return ordered


def first_chances(fighters: list[dict[str, Any]]) -> list[Fraction]:
    """Exact chance of each fighter to act first, before anything is rolled.

    Each initiative is uniform over the die's faces; a tie on the tick goes to the higher
    Intuition, and a tie on both is a fair roll-off, so each of k tied fighters wins with 1/k.
    Counted in integers (the die's counts; ``shares`` keeps w / (k + 1) whole) and divided
    once at the end, so 20 fighters stay fast.
    """
    die = dice.counts(_initiative_die(), field="initiative.wurf", label="Initiativwurf")
    penalty = _surprise_ticks()
    bases = [f["ini"] + f["modifier"] - (penalty if f["surprised"] else 0) for f in fighters]
    return first_place_chances(
        [{base + face: ways for face, ways in die.items()} for base in bases],
        [f["intuition"] for f in fighters],
    )


def place_odds(fighters: list[dict[str, Any]]) -> list[list[Fraction]] | None:
    """Exact chance of each fighter to act at each place at combat start, by the rule of
    :func:`first_chances` (a fair roll-off: each tied place equally likely); None for a single
    fighter or when it does not fit into the request's work budget."""
    if len(fighters) < 2:
        return None
    die = dice.counts(_initiative_die(), field="initiative.wurf", label="Initiativwurf")
    penalty = _surprise_ticks()
    bases = [f["ini"] + f["modifier"] - (penalty if f["surprised"] else 0) for f in fighters]
    return place_chances(
        [{base + face: ways for face, ways in die.items()} for base in bases],
        [f["intuition"] for f in fighters],
    )


def _tick_text(tick: int) -> str:
    return number(tick)


def turns(order: list[Fighter]) -> list[dict[str, str]]:
    """The acting order at combat start: who, and on which start tick (L17; on a shared tick
    the place there, L25)."""
    out = []
    for fighter in order:
        same = [f for f in order if f.tick == fighter.tick]
        label = f"Starttick {_tick_text(fighter.tick)}"
        if len(same) > 1:
            label += f", {same.index(fighter) + 1}. auf dem Feld"
        out.append({"name": fighter.name, "label": label})
    return out


def roll_initiative(
    rows: list[dict[str, Any]], rng: random.Random
) -> tuple[list[Fighter], list[Fighter], list[dict[str, Any]]]:
    """Roll INI + 1W6 + Mods for everyone at combat start (L17–L25, L43).

    Returns the fighters in input order, in acting order, and the ties with how they were
    resolved.
    """
    die = _initiative_die()
    penalty = _surprise_ticks()
    fighters: list[Fighter] = []
    for index, row in enumerate(rows):
        rolled = dice.roll(die, rng)
        initiative_value = (
            row["ini"] + rolled.total + row["modifier"] - (penalty if row["surprised"] else 0)
        )
        fighters.append(
            Fighter(
                index=index,
                name=row["name"],
                ini=row["ini"],
                intuition=row["intuition"],
                modifier=row["modifier"],
                surprised=row["surprised"],
                roll=rolled,
                initiative=initiative_value,
            )
        )

    # Lower tick acts first (start field −Initiative, L17); ties by L25.
    order, tied = order_groups(
        fighters, lambda f: f.tick, lambda group: _resolve_tie(group, rng), descending=False
    )
    ties = [
        {
            "tick": tick,
            "names": [f.name for f in resolved],
            "rolloff": {f.name: list(f.rolloff) for f in resolved if f.rolloff},
        }
        for tick, resolved in tied
    ]
    return fighters, order, ties


@SYSTEM.action(
    "initiative",
    title="Initiative und Startfelder",
    summary=(
        "Jeder Kämpfer würfelt INI + 1W6 + Modifikatoren; Überraschte verlieren 10 Ticks. "
        "Das Ergebnis ist das Startfeld vor der Position 0 auf der Tickleiste."
    ),
    source=f"{SOURCE} L17–L45",
    params=(
        ListParam(
            "fighters",
            "Kämpfer",
            item=FIGHTER_FIELDS,
            item_label="Kämpfer",
            min_items=1,
            max_items=20,
            default_items=(
                {"name": "Alrik", "ini": 12, "intuition": 4},
                {"name": "Bruna", "ini": 10, "intuition": 3},
            ),
            required=True,
        ),
    ),
    assumptions=assumptions_for("initiative"),
)
def initiative(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    rows: list[dict[str, Any]] = params["fighters"]
    check_unique_names(rows)
    fighters, order, ties = roll_initiative(rows, rng)
    penalty = _surprise_ticks()

    chances = first_chances(rows)
    display = Display(
        headline="Initiative – Reihenfolge auf der Tickleiste",
        outcome=f"Zuerst handelt {order[0].name} auf Tick {_tick_text(order[0].tick)}.",
    )
    table_rows = []
    for place, fighter in enumerate(order, start=1):
        calc = f"{fighter.ini} + {fighter.roll.total}"
        if fighter.modifier:
            calc += f" {signed(fighter.modifier).replace('+', '+ ').replace('−', '− ')}"
        if fighter.surprised:
            calc += f" − {penalty} (überrascht)"
        table_rows.append(
            [
                str(place),
                fighter.name,
                calc,
                number(fighter.initiative),
                _tick_text(fighter.tick),
                fighter.tie_note,
            ]
        )
    display.table(
        "Reihenfolge (kleinster Tick zuerst)",
        ["Platz", "Kämpfer", "INI + W6 + Mods", "Initiative", "Starttick", "Gleichstand"],
        table_rows,
    )
    for fighter in fighters:
        modifiers = [("INI", fighter.ini)]
        if fighter.modifier:
            modifiers.append(("Modifikatoren", fighter.modifier))
        if fighter.surprised:
            modifiers.append(("Überrascht", -penalty))
        fighter.show_roll(display, modifiers)
    notes = []
    for tie in ties:
        names = ", ".join(tie["names"])
        how = "Stechen mit W10" if tie["rolloff"] else "höhere Intuition"
        notes.append(f"Gleichstand auf Tick {_tick_text(tie['tick'])}: {names} ({how}).")
    display.notes("Gleichstände", notes)
    display.chances(
        "Chance, als Erste(r) zu handeln (vor dem Wurf)",
        [(f["name"], p) for f, p in zip(rows, chances, strict=True)],
        before=True,
    )
    show_places(display, [row["name"] for row in rows], place_odds(rows))
    return {
        "order": [
            {
                "place": place,
                "name": f.name,
                "ini": f.ini,
                "intuition": f.intuition,
                "modifier": f.modifier,
                "surprised": f.surprised,
                "roll": f.roll.to_dict(),
                "initiative": f.initiative,
                "tick": f.tick,
                "rolloff": f.rolloff,
            }
            for place, f in enumerate(order, start=1)
        ],
        "ties": ties,
        "turns": turns(order),
        "first_chances": {f["name"]: str(p) for f, p in zip(rows, chances, strict=True)},
        "display": display.to_dict(),
    }
