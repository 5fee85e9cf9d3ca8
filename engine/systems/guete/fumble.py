"""Güte-System: the ``fumble`` action, which says that the text has no Patzer rule.

The text refers to „Besondere Würfelergebnisse im Kampf“ (L289), but that chapter is missing;
the action says so, lists what the text does say about critical results (L229, L269, L289,
L79–L83) and invents no table.
"""

from __future__ import annotations

import random
from typing import Any

from engine.display import Display
from engine.systems.guete.common import SOURCE, SYSTEM


@SYSTEM.action(
    "fumble",
    title="Patzer / besondere Würfelergebnisse",
    summary="Der Text hat keine Patzerregel: die „besonderen Würfelergebnisse“ fehlen.",
    source=f"{SOURCE} L229, L269, L289",
    params=(),
    result_formerly=(("rule", ("regel",)), ("meaning", ("erklaerung",))),
    rolls_dice=False,  # nothing is rolled: the form has no Wurfnummer
)
def fumble(p: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    explanation = (
        "Der Text enthält keine Regel für Patzer: Er verweist auf „Besondere Würfelergebnisse im "
        "Kampf“, doch dieses Kapitel fehlt. Dieser Helfer erfindet keine Tabelle."
    )
    display = Display(headline="Keine Patzerregel im Text", outcome=explanation)
    display.notes(
        "Was der Text dazu sagt",
        [
            "Rundumschlag: ein kritischer Misserfolg führt automatisch zum Sturz des Angreifers.",
            "Gezielte Hiebe (zweiter Wurf) und Parade: besondere Würfelergebnisse werden "
            "ignoriert.",
            "Sturz nach einem kritischen Fehler: FP(Gaukeleien).",
        ],
    )
    return {"rule": None, "meaning": explanation, "display": display.to_dict()}
