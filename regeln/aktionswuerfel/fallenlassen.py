"""Aktionswürfel-System: the ``fallenlassen`` action, a freie Aktion (L82–L92).

Owns dropping an item held in the hand: to the ground without a roll (L90), or into a
neighbouring field with a Geschicklichkeit-Wurf gegen 10 (L92). The die of the Wurf is not in
the text, so the rolled result is an input (Annahme ``wurf``); whether a 10 suffices and what a
failed Wurf does are Annahmen of the data (``freie_aktionen.fallenlassen``). The limit of one
freie Aktion per Zug (more with the Spielleiter's permission, L84–L86) is a note.
"""

from __future__ import annotations

import random
from typing import Any

from engine.display import Display
from engine.formatting import number
from engine.params import ChoiceParam, IntParam
from regeln.aktionswuerfel.common import (
    DATA,
    SOURCE,
    SYSTEM,
    assumptions_for,
    entered_roll,
    reaches,
)

WHERE = (
    ("boden", "Zu Boden fallen lassen"),
    ("nachbarfeld", "In ein benachbartes Feld (Geschicklichkeit-Wurf gegen 10)"),
)


@SYSTEM.action(
    "fallenlassen",
    title="Fallenlassen (freie Aktion)",
    summary=(
        "Einen Gegenstand in der Hand zu Boden fallen lassen – oder mit einem "
        "Geschicklichkeit-Wurf gegen 10 in ein benachbartes Feld."
    ),
    source=f"{SOURCE} L82–L92",
    params=(
        ChoiceParam("wohin", "Wohin", choices=WHERE),
        IntParam(
            "geschicklichkeitswurf",
            "Geschicklichkeit-Wurf",
            default=10,
            minimum=0,
            maximum=999,
            help="gewürfelt",
            required_when=("wohin", ("nachbarfeld",)),
            when=(("wohin", ("nachbarfeld",)),),
            per_roll=True,
        ),
    ),
    assumptions=assumptions_for("freie_aktionen"),
    rolls_dice=False,  # nothing is rolled: the form has no Wurfnummer
)
def fallenlassen(p: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    per_turn = DATA.integer("freie_aktionen.je_zug", 1, 20)
    notes = [
        f"Fallenlassen ist eine freie Aktion: {number(per_turn)} je Zug, weitere nur mit "
        "Erlaubnis des Spielleiters."
    ]
    success: bool | None = None
    if p["wohin"] == "boden":
        headline = "Fallen gelassen"
        outcome = "Der Gegenstand fällt zu Boden."
        field = "eigenes"
    else:
        entered_roll()
        against = DATA.integer("freie_aktionen.fallenlassen.gegen", 0, 999)
        roll = p["geschicklichkeitswurf"]
        success = reaches(roll, against, "freie_aktionen.fallenlassen.erfolg_ab_gleichstand")
        check = f"Geschicklichkeit-Wurf {number(roll)} gegen {number(against)}"
        if success:
            headline = "Ins Nachbarfeld fallen gelassen"
            outcome = f"{check}: gelungen – der Gegenstand landet in einem benachbarten Feld."
            field = "benachbart"
        else:
            DATA.text("freie_aktionen.fallenlassen.misslungen")
            headline = "Nicht ins Nachbarfeld"
            outcome = f"{check}: misslungen – der Gegenstand fällt auf das eigene Feld."
            field = "eigenes"
    display = Display(headline=headline, outcome=outcome)
    display.notes("Hinweise", notes)
    return {"wohin": p["wohin"], "gelungen": success, "feld": field, "display": display.to_dict()}
