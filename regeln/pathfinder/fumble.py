"""Pathfinder Patzer (L10, L162): the ``fumble`` action.

The source text has no Patzer table, and it calls only a saving throw's natural 1 a Patzer
(L162: „ist immer ein Patzer (und kann Gegenstände beschädigen …)“); an attack's natural 1 is
just a miss (L10: „immer als Fehlschlag gewertet“) – no Patzer to follow it. This module owns
what the saving throw's natural 1 means and the action that says whether a W20 is one: the
natural rolled at the saving throw (``natural``, its follow-up brings it: no new die) or, left
empty, a W20 of its own. A request with ``kind`` „angriff“ (from before) is refused with the
rule.
"""

from __future__ import annotations

import random
from typing import Any

from engine import dice
from engine.display import Display
from engine.params import ChoiceParam, IntParam
from regeln.pathfinder.common import DATA, SOURCE, SYSTEM

# ---------------------------------------------------------------------------------------------
# Action: fumble (L162): no Patzer rule beyond the saving throw's natural 1
# ---------------------------------------------------------------------------------------------

FUMBLE_CHOICES = (("rettungswurf", "Rettungswurf"),)
ATTACK_IS_NO_PATZER = (
    "Eine natürliche 1 beim Angriffswurf ist immer ein Fehlschlag, aber kein Patzer – einen "
    "Patzer kennt der Text nur beim Rettungswurf."
)
MEANING = (
    "Eine natürliche 1 bei einem Rettungswurf ist immer ein Patzer: Der Rettungswurf "
    "misslingt und kann Gegenstände beschädigen, die der Wirkung ausgesetzt sind (die "
    "Einzelheiten stehen im fehlenden Abschnitt „Schaden an Gegenständen nach einem "
    "Rettungswurf“)."
)


@SYSTEM.action(
    "fumble",
    title="Patzer (natürliche 1 beim Rettungswurf)",
    summary=(
        "Pathfinder kennt in diesem Text keine Patzertabelle: Eine natürliche 1 beim "
        "Rettungswurf ist immer ein Patzer (beim Angriffswurf nur ein Fehlschlag). Der Helfer "
        "sagt, ob der W20 des Rettungswurfs eine natürliche 1 ist und was sie bedeutet – "
        "ohne eingetragenen Wurf würfelt er selbst."
    ),
    source=f"{SOURCE} L10, L162",
    params=(
        ChoiceParam(
            "kind",
            "Wurf",
            choices=FUMBLE_CHOICES,
            default="rettungswurf",
            withdrawn=(("angriff", ATTACK_IS_NO_PATZER),),
            advanced=True,
        ),
        IntParam(
            "natural",
            "Natürlicher W20 des Rettungswurfs",
            default=None,
            minimum=1,
            maximum=20,
            help="Der gewürfelte W20; leer lassen, dann würfelt der Helfer.",
            blank=True,
            per_roll=True,
        ),
    ),
)
def fumble(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    die = DATA.dice("patzer.wurf", "Wurf")
    natural_1 = DATA.integer("patzer.natuerliche_1", 1, 20)
    rolled = dice.roll(die, rng) if params["natural"] is None else None
    natural = rolled.total if rolled is not None else params["natural"]
    is_one = natural == natural_1
    p_one = dice.probability(die, lambda t: t == natural_1)
    what = dict(FUMBLE_CHOICES)[params["kind"]]
    outcome = "Natürliche 1: Patzer." if is_one else f"Keine natürliche 1 ({natural}): kein Patzer."
    display = Display(headline=f"Patzer beim {what} – Pathfinder", outcome=outcome)
    if rolled is not None:
        display.roll(what, rolled)
    display.notes(
        "Was eine natürliche 1 bedeutet",
        [
            MEANING,
            "Eine eigene Patzerregel oder -tabelle enthält der Text darüber hinaus nicht; beim "
            "Angriffswurf ist eine natürliche 1 nur ein Fehlschlag.",
        ],
    )
    display.chances("Chance", [("Natürliche 1", p_one)], before=True)
    return {
        "kind": params["kind"],
        "roll": rolled.to_dict() if rolled is not None else None,
        "natural": natural,
        "natural_1": is_one,
        "meaning": MEANING,
        "rule": "keine Patzerregel außer der natürlichen 1",
        "chances": {"natural_1": str(p_one)},
        "display": display.to_dict(),
    }
