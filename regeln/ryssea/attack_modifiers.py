"""Ryssea attack modifiers: everything that adds to or subtracts from the attack probe.

Owns the „Modifikatoren“ fields and ``attack_modifiers``: Taktischer Vorteil (+3 each, L360),
Überzahl (+1 each, at most +3, L370), the Kampfpositionen table (L335–L340), Lichtverhältnisse
(L325), Wasser (L346), Lücke suchen / Zielen (+1 per 2 ticks, at most +3, L198), the bonus from
Zusammenarbeit and Kampfgetümmel (L222), each by its German name.
"""

from __future__ import annotations

from typing import Any

from engine.params import ChoiceParam, IntParam, Param
from regeln.ryssea.common import DATA

POSITION_ROWS = DATA.table(
    "tabellen.kampfpositionen.zeilen",
    (
        "schluessel",
        "position",
        "wert_eigen_nah",
        "wert_eigen_fern",
        "wert_gegner_nah",
        "wert_gegner_fern",
    ),
)
POSITIONS = {str(row["schluessel"]): row for row in POSITION_ROWS}
POSITION_CHOICES = tuple((str(r["schluessel"]), str(r["position"])) for r in POSITION_ROWS)
# the positions that are conditions of a fighter (``bedingung``: kniend, liegend …; stehend is
# none): an effect of that name on the attacker or the target sets his Kampfposition
POSITION_CONDITIONS = tuple(
    (str(r["schluessel"]), str(r["bedingung"])) for r in POSITION_ROWS if r.get("bedingung")
)

MODIFIER_PARAMS: tuple[Param, ...] = (
    IntParam(
        "taktischer_vorteil",
        "Taktische Vorteile",
        default=0,
        minimum=0,
        maximum=5,
        help="Je Taktischem Vorteil +3; mehrere zählen zusammen.",
        group="Modifikatoren",
    ),
    IntParam(
        "ueberzahl",
        "Überzählige Kämpfer",
        default=0,
        minimum=0,
        maximum=20,
        help=(
            "Nur Nahkampf: +1 je überzähligem Kämpfer, höchstens +3; ein Koloss zählt seine Stufe."
        ),
        group="Modifikatoren",
        when=(("angriffsart", ("nahkampf", "schildstoss")),),
    ),
    ChoiceParam(
        "position_eigen",
        "Eigene Kampfposition",
        choices=POSITION_CHOICES,
        help="Tabelle Kampfpositionen: eigene Nah- bzw. Fernkampf-Angriffe.",
        group="Modifikatoren",
        advanced=True,
        condition=("actor", ""),
        condition_values=POSITION_CONDITIONS,
    ),
    ChoiceParam(
        "position_ziel",
        "Kampfposition des Ziels",
        choices=POSITION_CHOICES,
        help="Tabelle Kampfpositionen: gegnerische Angriffe auf das Ziel.",
        group="Modifikatoren",
        advanced=True,
        condition=("target", ""),
        condition_values=POSITION_CONDITIONS,
    ),
    IntParam(
        "licht",
        "Lichtverhältnisse",
        default=0,
        minimum=-20,
        maximum=0,
        help="Malus durch schlechte Sicht auf das Ziel, z. B. −3 für leichten Nebel im Tageslicht.",
        group="Modifikatoren",
        advanced=True,
    ),
    ChoiceParam(
        "wasser",
        "Wasser",
        choices=(
            ("keins", "kein Wasser"),
            ("hueft", "hüfthohes Wasser (−3)"),
            ("unter", "unter Wasser (−6)"),
        ),
        help="Für Handlungen, in die KK, KO oder BW eingehen.",
        group="Modifikatoren",
        advanced=True,
    ),
    IntParam(
        "vorbereitung_ticks",
        "Lücke suchen / Zielen (Ticks)",
        default=0,
        minimum=0,
        maximum=60,
        help="Je 2 Ticks +1, höchstens +3 (Lücke suchen im Nahkampf, Zielen im Fernkampf).",
        group="Modifikatoren",
        per_roll=True,
    ),
    IntParam(
        "zusammenarbeit",
        "Zusammenarbeit",
        default=0,
        minimum=-20,
        # up to 6 helpers with +1 and +1 per Erfolg each (the teamwork helper sends its sum)
        maximum=200,
        help="Gesammelter Bonus oder Malus der Helfer (Aktion Zusammenarbeit).",
        group="Modifikatoren",
        advanced=True,
        per_roll=True,
    ),
    IntParam(
        "modifier",
        "Sonstige Modifikatoren",
        formerly=("modifikator",),
        default=0,
        minimum=-30,
        maximum=30,
        help="Weitere Boni (+) oder Mali (−), etwa aus Meisterschaften.",
        group="Modifikatoren",
    ),
)


def attack_modifiers(params: dict[str, Any]) -> tuple[tuple[str, int], ...]:
    """Every modifier of the attack probe by its German name (+ = bonus, Ryssea convention)."""
    ranged = params["angriffsart"] == "fernkampf"
    mods: list[tuple[str, int]] = []
    advantages = params["taktischer_vorteil"]
    if advantages:
        bonus = DATA.integer("angriff.taktischer_vorteil_bonus", 0, 20)
        mods.append((f"Taktischer Vorteil × {advantages}", advantages * bonus))
    if params["ueberzahl"]:
        per = DATA.integer("angriff.ueberzahl_je_kaempfer", 0, 10)
        cap = DATA.integer("angriff.ueberzahl_hoechstens", 0, 20)
        mods.append(
            (f"Überzahl ({params['ueberzahl']} überzählig)", min(params["ueberzahl"] * per, cap))
        )
    own = POSITIONS[params["position_eigen"]]
    mods.append(
        (
            f"Eigene Kampfposition {own['position']}",
            int(own["wert_eigen_fern" if ranged else "wert_eigen_nah"]),
        )
    )
    target = POSITIONS[params["position_ziel"]]
    mods.append(
        (
            f"Kampfposition des Ziels {target['position']}",
            int(target["wert_gegner_fern" if ranged else "wert_gegner_nah"]),
        )
    )
    mods.append(("Lichtverhältnisse", params["licht"]))
    if params["wasser"] == "hueft":
        mods.append(("Hüfthohes Wasser", DATA.integer("angriff.wasser_hueft", -30, 0)))
    elif params["wasser"] == "unter":
        mods.append(("Unter Wasser", DATA.integer("angriff.wasser_unter", -30, 0)))
    ticks = params["vorbereitung_ticks"]
    if ticks:
        per = DATA.integer("angriff.vorbereitung_ticks_je_punkt", 1, 20)
        cap = DATA.integer("angriff.vorbereitung_hoechstens", 0, 20)
        name = "Zielen" if ranged else "Lücke suchen"
        mods.append((f"{name} ({ticks} Ticks)", min(ticks // per, cap)))
    mods.append(("Zusammenarbeit", params["zusammenarbeit"]))
    if params["kampfgetuemmel"]:
        mods.append(("Kampfgetümmel", DATA.integer("angriff.kampfgetuemmel", -30, 0)))
    mods.append(("Sonstige Modifikatoren", params["modifier"]))
    return tuple((name, value) for name, value in mods if value)
