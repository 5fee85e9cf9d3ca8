"""Pathfinder Patzer (L10, L162): the ``fumble`` action.

The source text has no Patzer table: a natural 1 always misses an attack (L10) and is always a
Patzer on a saving throw (L162). This module owns what such a natural 1 means and the action that
rolls 1W20 and says whether it is one.
"""

from __future__ import annotations

import random
from typing import Any

from engine import dice
from engine.display import Display
from engine.params import ChoiceParam
from engine.systems.pathfinder.common import DATA, SOURCE, SYSTEM

# ---------------------------------------------------------------------------------------------
# Action: fumble (L10, L162): no Patzer rule beyond the natural 1
# ---------------------------------------------------------------------------------------------

FUMBLE_CHOICES = (("angriff", "Angriffswurf"), ("rettungswurf", "Rettungswurf"))
FUMBLE_MEANING = {
    "angriff": (
        "Bei einem Angriffswurf wird eine natürliche 1 immer als Fehlschlag gewertet, auch wenn "
        "1 + Angriffsbonus die RK erreichen würde. Weitere Folgen nennt der Text nicht."
    ),
    "rettungswurf": (
        "Eine natürliche 1 bei einem Rettungswurf ist immer ein Patzer: Der Rettungswurf "
        "misslingt und kann Gegenstände beschädigen, die der Wirkung ausgesetzt sind (die "
        "Einzelheiten stehen im fehlenden Abschnitt „Schaden an Gegenständen nach einem "
        "Rettungswurf“)."
    ),
}


@SYSTEM.action(
    "fumble",
    title="Patzer (natürliche 1)",
    summary=(
        "Pathfinder kennt in diesem Text keine Patzertabelle: Eine natürliche 1 ist beim "
        "Angriffswurf immer ein Fehlschlag und beim Rettungswurf immer ein Patzer. Diese Aktion "
        "würfelt 1W20 und sagt, ob es eine natürliche 1 ist und was sie bedeutet."
    ),
    source=f"{SOURCE} L10, L162",
    params=(ChoiceParam("kind", "Wurf", choices=FUMBLE_CHOICES, default="angriff"),),
)
def fumble(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    die = DATA.dice("patzer.wurf", "Wurf")
    natural_1 = DATA.integer("patzer.natuerliche_1", 1, 20)
    rolled = dice.roll(die, rng)
    is_one = rolled.total == natural_1
    p_one = dice.probability(die, lambda t: t == natural_1)
    kind = params["kind"]
    what = dict(FUMBLE_CHOICES)[kind]
    if is_one:
        outcome = "Natürliche 1: Fehlschlag." if kind == "angriff" else "Natürliche 1: Patzer."
    else:
        outcome = f"Keine natürliche 1 ({rolled.total}): kein Patzer."
    display = Display(headline=f"Patzer beim {what} – Pathfinder", outcome=outcome)
    display.roll(what, rolled)
    display.notes(
        "Was eine natürliche 1 bedeutet",
        [
            FUMBLE_MEANING[kind],
            "Eine eigene Patzerregel oder -tabelle enthält der Text darüber hinaus nicht.",
        ],
    )
    display.chances("Chance", [("Natürliche 1", p_one)])
    return {
        "kind": kind,
        "roll": rolled.to_dict(),
        "natural": rolled.total,
        "natural_1": is_one,
        "meaning": FUMBLE_MEANING[kind],
        "rule": "keine Patzerregel außer der natürlichen 1",
        "chances": {"natural_1": str(p_one)},
        "display": display.to_dict(),
    }
