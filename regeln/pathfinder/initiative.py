"""Pathfinder Initiative (not in the source text: an Annahme after the published rules).

Owns the fighter fields, the initiative roll (1W20 + GE + andere Modifikatoren), the order
(highest first; equal totals go to the higher modifier, then a 1W20 roll-off), the exact chance
of each fighter to act first, and the ``initiative`` action.

The result carries ``turns``, the acting order of a round for the fight bar („Platz 1“ …); the
fighters' rows have no ``subject`` (the list is the fight). The tie rule (Annahme) is named only
when two fighters rolled the same total (the chance to act first always counts ties by it).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine import dice
from engine.data_files import forecast
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
    place_turns,
    roll_off,
    show_places,
)
from engine.params import IntParam, ListParam, TextParam
from regeln.pathfinder.common import (
    DATA,
    SOURCE,
    SYSTEM,
    assumptions_for,
)

# ---------------------------------------------------------------------------------------------
# Action: initiative (NOT in the text: Annahme from the published rules)
# ---------------------------------------------------------------------------------------------

FIGHTER_FIELDS = (
    TextParam("name", "Name", max_length=30),
    IntParam(
        "geschicklichkeitsmodifikator",
        "Geschicklichkeitsmodifikator",
        formerly=("dexterity",),
        default=1,
        minimum=-5,
        maximum=20,
        required=True,
    ),
    IntParam(
        "other",
        "Andere Modifikatoren",
        default=0,
        minimum=-20,
        maximum=40,
        help="Z. B. Talent Verbesserte Initiative +4.",
    ),
)


@dataclass
class Fighter(RolledFighter):
    modifier: int


def _initiative_die() -> dice.Expression:
    return DATA.dice("initiative.wurf", "Initiativwurf")


def initiative_first_chances(modifiers: list[int]) -> list[Fraction]:
    """Exact chance of each fighter to act first: highest total; equal totals go to the higher
    modifier, equal totals and modifiers to a fair roll-off (1/k each of k tied)."""
    DATA.choice("initiative.gleichstand", ("hoeherer_modifikator_dann_stechen",))
    faces = counts_of(dice.distribution(_initiative_die()))
    return first_place_chances(
        [{modifier + face: ways for face, ways in faces.items()} for modifier in modifiers],
        modifiers,
    )


def initiative_place_chances(modifiers: list[int]) -> list[list[Fraction]] | None:
    """Exact chance of each fighter to act at each place (``[i][k]``: fighter i at place k + 1),
    by the rule of :func:`initiative_first_chances`: higher total first, an equal total goes to
    the higher modifier, equal in both a fair roll-off (:func:`engine.ordering.place_chances`).
    None when it does not fit the work budget."""
    DATA.choice("initiative.gleichstand", ("hoeherer_modifikator_dann_stechen",))
    faces = counts_of(dice.distribution(_initiative_die()))
    totals = [{modifier + face: ways for face, ways in faces.items()} for modifier in modifiers]
    return place_chances(totals, modifiers)


def _roll_off(group: list[Fighter], rng: random.Random) -> list[Fighter]:
    limit = DATA.integer("initiative.stechen_hoechstens", 1, 10_000)
    ordered, unresolved = roll_off(
        group, DATA.dice("initiative.stechen_wurf", "Stechen"), rng, limit
    )
    if unresolved:
        raise EngineError(f"Kämpfer: Stechen nach {limit} Würfen noch unentschieden.", "fighters")
    return ordered


@SYSTEM.action(
    "initiative",
    title="Initiative",
    summary=(
        "Nicht im Text geregelt (Annahme nach den veröffentlichten Grundregeln): jeder würfelt "
        "1W20 + Geschicklichkeitsmodifikator + andere Modifikatoren, das höchste Ergebnis "
        "handelt zuerst."
    ),
    source=f"{SOURCE} (nicht im Text; L8 setzt eine Reihenfolge voraus)",
    params=(
        ListParam(
            "fighters",
            "Kämpfer",
            item=FIGHTER_FIELDS,
            item_label="Kämpfer",
            min_items=1,
            max_items=12,
            default_items=(
                {"name": "Valeros", "geschicklichkeitsmodifikator": 2, "other": 0},
                {"name": "Goblin", "geschicklichkeitsmodifikator": 3, "other": 0},
            ),
            required=True,
        ),
    ),
    assumptions=assumptions_for("initiative"),
)
def initiative(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    rows: list[dict[str, Any]] = params["fighters"]
    check_unique_names(rows, "fighters", "Kämpfer")
    modifiers = [row["geschicklichkeitsmodifikator"] + row["other"] for row in rows]
    with forecast():
        chances = initiative_first_chances(modifiers)
        places = initiative_place_chances(modifiers) if len(rows) > 1 else None
    die = _initiative_die()
    fighters = []
    for index, (row, modifier) in enumerate(zip(rows, modifiers, strict=True)):
        rolled = dice.roll(die, rng)
        fighters.append(
            Fighter(
                index=index,
                name=row["name"],
                roll=rolled,
                initiative=rolled.total + modifier,
                modifier=modifier,
            )
        )
    totals = Counter(f.initiative for f in fighters)
    if any(n > 1 for n in totals.values()):
        DATA.choice("initiative.gleichstand", ("hoeherer_modifikator_dann_stechen",))
    order, _ = order_groups(
        fighters,
        lambda f: (f.initiative, f.modifier),
        lambda group: _roll_off(group, rng),
        descending=True,
    )
    display = Display(
        headline="Initiative – Pathfinder (Annahme)",
        outcome=f"Zuerst handelt {order[0].name} mit {number(order[0].initiative)}.",
    )
    rows_out = []
    for place, fighter in enumerate(order, start=1):
        tie = fighter.tie_note
        if not tie and totals[fighter.initiative] > 1:
            tie = f"Modifikator {signed(fighter.modifier)}"
        rows_out.append(
            [
                str(place),
                fighter.name,
                f"{fighter.roll.total} {signed(fighter.modifier)}",
                number(fighter.initiative),
                tie,
            ]
        )
    display.table(
        "Reihenfolge (höchstes Ergebnis zuerst)",
        ["Platz", "Kämpfer", "W20 + Mod.", "Initiative", "Gleichstand"],
        rows_out,
    )
    for fighter, row in zip(fighters, rows, strict=True):
        mods = [("GE", row["geschicklichkeitsmodifikator"])]
        if row["other"]:
            mods.append(("andere", row["other"]))
        fighter.show_roll(display, mods)
    display.notes(
        "Hinweise",
        ["Die Initiative regelt der Text nicht; hier gelten die veröffentlichten Grundregeln."],
    )
    display.chances(
        "Chance, als Erste(r) zu handeln (vor dem Wurf)",
        [(row["name"], p) for row, p in zip(rows, chances, strict=True)],
        before=True,
    )
    show_places(display, [row["name"] for row in rows], places)
    return {
        "order": [
            {
                "place": place,
                "name": f.name,
                "modifier": f.modifier,
                "roll": f.roll.to_dict(),
                "initiative": f.initiative,
                "rolloff": f.rolloff,
            }
            for place, f in enumerate(order, start=1)
        ],
        "first_chances": {row["name"]: str(p) for row, p in zip(rows, chances, strict=True)},
        "turns": place_turns(order),
        "display": display.to_dict(),
    }
