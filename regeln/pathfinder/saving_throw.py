"""Pathfinder Rettungswurf (L144–L162): the ``saving_throw`` action.

Owns the three kinds of save and their attributes (Reflex GE, Willen WE, Zähigkeit KO,
L154–L158), the success rule (natural 1 always a Patzer, natural 20 always a success, otherwise
reach the SG – L162 and an Annahme) and the action with its exact chances.

The text calls a natural 1 on a save „immer ein Patzer“; for the save that means it fails
whatever the bonus (and may damage exposed items) – there is no fumble to roll. The chances
therefore say „natürliche 1: misslingt immer“, after success and failure; the result's
``follow_ups`` offers the Patzer helper for that very 1 (``natural``: it states, not rolls).

Connected helpers: the saving fighter's values are ``subject="actor"``: the kind of save with
its Grundbonus and attribute modifier (kept together, so a fighter's last save comes back as a
consistent set); the SG and other modifiers are the situation. The comparison „SG erreicht“
(Annahme) is named only when the total equals the SG.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from engine import dice
from engine.data_files import forecast
from engine.display import Display
from engine.formatting import number
from engine.params import ChoiceParam, IntParam
from regeln.pathfinder.common import (
    DATA,
    SOURCE,
    SYSTEM,
    assumptions_for,
)

# ---------------------------------------------------------------------------------------------
# Action: saving_throw (L144–L162)
# ---------------------------------------------------------------------------------------------

SAVE_CHOICES = (
    ("reflex", "Reflex (Geschicklichkeit)"),
    ("willen", "Willen (Weisheit)"),
    ("zaehigkeit", "Zähigkeit (Konstitution)"),
)
SAVE_ATTRIBUTE = {
    "reflex": "Geschicklichkeitsmodifikator",
    "willen": "Weisheitsmodifikator",
    "zaehigkeit": "Konstitutionsmodifikator",
}


def save_succeeds(natural: int, bonus: int, dc: int) -> bool:
    """L162: natural 1 always fails (Patzer), natural 20 always succeeds; otherwise ≥ SG (the
    comparison is an Annahme, read only when the total equals the SG)."""
    if natural == DATA.integer("rettungswurf.automatischer_fehlschlag", 1, 20):
        return False
    if natural == DATA.integer("rettungswurf.automatischer_erfolg", 1, 20):
        return True
    if natural + bonus != dc:
        return natural + bonus > dc
    DATA.choice("rettungswurf.vergleich", ("erreicht_oder_uebertrifft",))
    return True


@SYSTEM.action(
    "saving_throw",
    title="Rettungswurf",
    summary=(
        "1W20 + Grundbonus auf RW + Attributsmodifikator (+ andere) gegen den SG; eine "
        "natürliche 1 misslingt immer, eine natürliche 20 gelingt immer."
    ),
    source=f"{SOURCE} L144–L162",
    result_formerly=(("sg", ("dc",)),),
    what_if="sg",
    params=(
        ChoiceParam(
            "kind",
            "Art",
            choices=SAVE_CHOICES,
            default="reflex",
            required=True,
            subject="actor",
        ),
        IntParam(
            "base",
            "Grundbonus auf RW",
            default=2,
            minimum=0,
            maximum=30,
            required=True,
            subject="actor",
        ),
        IntParam(
            "attribute",
            "Attributsmodifikator",
            default=1,
            minimum=-5,
            maximum=20,
            help="Reflex: GE, Willen: WE, Zähigkeit: KO.",
            required=True,
            subject="actor",
        ),
        IntParam(
            "other",
            "Andere Modifikatoren",
            default=0,
            minimum=-20,
            maximum=20,
            help="Weitere Boni (+) und Mali (−).",
        ),
        IntParam(
            "sg",
            "Schwierigkeitsgrad (SG)",
            formerly=("dc",),
            default=15,
            minimum=1,
            maximum=80,
            required=True,
        ),
    ),
    assumptions=assumptions_for("rettungswurf"),
)
def saving_throw(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    die = DATA.dice("rettungswurf.wurf", "Rettungswurf")
    kind = params["kind"]
    parts = [("Grundbonus", params["base"]), (SAVE_ATTRIBUTE[kind], params["attribute"])]
    if params["other"]:
        parts.append(("andere", params["other"]))
    bonus = sum(v for _, v in parts)
    dc = params["sg"]
    rolled = dice.roll(die, rng)
    natural = rolled.total
    total = natural + bonus
    success = save_succeeds(natural, bonus, dc)
    auto_fail = DATA.integer("rettungswurf.automatischer_fehlschlag", 1, 20)
    auto_success = DATA.integer("rettungswurf.automatischer_erfolg", 1, 20)
    with forecast():
        dist = dice.distribution(die)
        p_success = sum((p for f, p in dist.items() if save_succeeds(f, bonus, dc)), Fraction(0))
    p_patzer = dist.get(auto_fail, Fraction(0))
    if natural == auto_fail:
        outcome_key, outcome = "patzer", "Misserfolg: natürliche 1 – misslingt immer."
    elif success:
        outcome_key = "erfolg"
        outcome = (
            "Erfolg: natürliche 20 – gelingt immer."
            if natural == auto_success
            else f"Erfolg: {number(total)} gegen SG {number(dc)}."
        )
    else:
        outcome_key, outcome = "misserfolg", f"Misserfolg: {number(total)} gegen SG {number(dc)}."
    title = dict(SAVE_CHOICES)[kind].split(" ")[0]
    display = Display(headline=f"Rettungswurf ({title}) – Pathfinder", outcome=outcome)
    display.roll(f"{title}wurf", rolled, parts, total=total)
    notes = []
    if natural == auto_fail:
        notes.append(
            "Eine natürliche 1 bei einem Rettungswurf ist nach dem Text „immer ein Patzer (und "
            "kann Gegenstände beschädigen, die der Wirkung ausgesetzt sind …)“. Wie, steht im "
            "Abschnitt „Schaden an Gegenständen nach einem Rettungswurf“, der nicht in diesem "
            "Text ist."
        )
    display.notes("Hinweise", notes)
    display.chances(
        "Chancen (vor dem Wurf)",
        [
            ("Erfolg", p_success),
            ("Misserfolg", 1 - p_success),
            ("natürliche 1: misslingt immer", p_patzer),
        ],
        before=True,
    )
    # L162: the natural 1 is a Patzer – its helper states it for this very 1 (no new W20)
    follow_ups = []
    if natural == auto_fail:
        follow_ups.append(
            {
                "action": "fumble",
                "title": "Patzer des Rettungswurfs (natürliche 1)",
                "params": {"kind": "rettungswurf", "natural": natural},
            }
        )
    return {
        "kind": kind,
        "bonus": bonus,
        "parts": [{"label": n, "value": v} for n, v in parts],
        "roll": rolled.to_dict(),
        "natural": natural,
        "total": total,
        "sg": dc,
        "success": success,
        "outcome": outcome_key,
        "chances": {
            "success": str(p_success),
            "failure": str(1 - p_success),
            "patzer": str(p_patzer),
        },
        "follow_ups": follow_ups,
        "display": display.to_dict(),
    }
