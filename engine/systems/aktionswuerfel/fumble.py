"""Aktionswürfel-System: the ``fumble`` action, which says that the text has no Patzer rule.

The chapter (L1–L110) names no fumble or critical failure; the action explains that and
invents no table.
"""

from __future__ import annotations

import random
from typing import Any

from engine.display import Display
from engine.systems.aktionswuerfel.common import SOURCE, SYSTEM


@SYSTEM.action(
    "fumble",
    title="Patzer",
    summary="Der Text enthält keine Patzerregel.",
    source=f"{SOURCE} L1–L110",
    params=(),
    result_formerly=(("rule", ("regel",)), ("meaning", ("erklaerung",))),
    rolls_dice=False,  # nothing is rolled: the form has no Wurfnummer
)
def fumble(p: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    explanation = (
        "Das Kampfkapitel enthält keine Regel für Patzer oder kritische Fehlschläge; dieser "
        "Helfer erfindet keine. Ein misslungener Angriffswurf richtet keinen Schaden an."
    )
    display = Display(headline="Keine Patzerregel im Text", outcome=explanation)
    return {"rule": None, "meaning": explanation, "display": display.to_dict()}
