"""DSA 4.1 Hausregeln: the ``fumble`` action – confirming a 20.

Owns the Patzer of Abschnitt "Crits und Patzer": after a rolled 20 a confirmation W20 against
the same value; if it fails, the 20 is a Patzer with „ein Missgeschick nach Meisterentscheid“
(the house rules have no Patzer table, so nothing more is rolled), otherwise it stays an
unglücklicher Angriff or an unglückliche Abwehr.

This helper is the confirmation itself, so every result names the confirmation Annahme. Its
fields are the situation of one roll (no ``subject``): the value is the one after all
Erschwernisse of that probe. The attack and defense helpers roll this confirmation themselves
and so do not continue here.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from engine import dice
from engine.display import Display
from engine.formatting import number
from engine.params import ChoiceParam, IntParam
from regeln.dsa.common import (
    CITE_CRITS,
    DATA,
    PATZER,
    PROBE_DIE_SIDES,
    SYSTEM,
    UNGLUECKLICH,
    assumptions_for,
    confirmation_decision,
    confirmation_succeeds,
    probe_die,
)


@SYSTEM.action(
    "fumble",
    title="Patzer bestätigen",
    summary=(
        "Nach einer gewürfelten 20: ein Bestätigungswurf (W20 gegen denselben Wert). Misslingt "
        "er, ist es ein Patzer mit Missgeschick nach Meisterentscheid – die Hausregeln haben "
        "keine Patzertabelle; gelingt er, bleibt es ein unglücklicher Angriff bzw. eine "
        "unglückliche Abwehr."
    ),
    source=CITE_CRITS,
    result_formerly=(("kind", ("art",)),),
    params=(
        ChoiceParam(
            "kind",
            "Probe",
            formerly=("art",),
            choices=(
                ("angriff", "Angriff (Attacke/Schuss)"),
                ("abwehr", "Abwehr (Parade/Ausweichen)"),
            ),
        ),
        IntParam(
            "wert",
            "Wert der Probe",
            default=12,
            minimum=-40,
            maximum=40,
            help="AT/FK/PA/AW nach allen Erschwernissen – derselbe Wert wie beim ersten Wurf.",
            required=True,
        ),
    ),
    assumptions=assumptions_for("probe.bestaetigung", "patzer"),
)
def fumble(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    target = params["wert"]
    DATA.assume("probe.bestaetigung")  # how a 20 is confirmed is the Annahme this helper rolls
    die = probe_die()
    confirm = dice.roll(die, rng)
    confirmed = not confirmation_succeeds(confirm.total, target)
    attack_roll = params["kind"] == "angriff"
    p_confirmed = Fraction(
        sum(1 for c in range(1, PROBE_DIE_SIDES + 1) if not confirmation_succeeds(c, target)),
        PROBE_DIE_SIDES,
    )
    missgeschick = " ".join(DATA.text("patzer.missgeschick").split())
    if confirmed:
        outcome = PATZER
        text = (
            "Patzer bestätigt: "
            + ("der Angriff trifft nicht" if attack_roll else "die Abwehr ist misslungen")
            + f". {missgeschick}"
        )
    else:
        outcome = UNGLUECKLICH
        text = "Nicht bestätigt: " + (
            "unglücklicher Angriff – trifft nicht, aber kein Missgeschick."
            if attack_roll
            else "unglückliche Abwehr – misslungen, aber kein Missgeschick."
        )
    display = Display(headline=f"Patzer? Bestätigungswurf gegen {number(target)}", outcome=text)
    display.roll(
        f"Bestätigungswurf (W20 gegen {number(target)})",
        confirm,
        decision=confirmation_decision(PROBE_DIE_SIDES, confirm.total, target, params["kind"]),
    )
    display.notes(
        "Missgeschick",
        [
            "Die Hausregeln nennen für einen Patzer nur „ein Missgeschick nach Meisterentscheid“ "
            "und enthalten keine Patzertabelle – deshalb wird hier kein Missgeschick ausgewürfelt."
        ],
    )
    display.chances(
        "Wahrscheinlichkeiten (nach der 20)",
        [("Patzer bestätigt", p_confirmed), ("nur unglücklich", 1 - p_confirmed)],
        before=True,
    )
    return {
        "kind": params["kind"],
        "target": target,
        "confirmation": confirm.to_dict(),
        "confirmed": confirmed,
        "outcome": outcome,
        "missgeschick": missgeschick if confirmed else None,
        "chances": {PATZER: str(p_confirmed), UNGLUECKLICH: str(1 - p_confirmed)},
        "display": display.to_dict(),
    }
