"""Ryssea ranged attacks: Reichweite, Deckung, Kampfgetümmel, Unbewegliche Ziele.

Owns the „Fernkampf“ fields, the Unbewegliche Ziele table (L224–L231), the Erfolge the distance
costs (1 per started base range beyond the first, at most 6×, L210) and those a Deckung costs
(leicht 1, schwer 2, L220).
"""

from __future__ import annotations

from engine.params import BoolParam, ChoiceParam, IntParam, Param
from regeln.ryssea.common import DATA

IMMOBILE_ROWS = DATA.table(
    "tabellen.unbewegliche_ziele.zeilen", ("schluessel", "zielgroesse", "beispiel", "zielwert")
)
IMMOBILE = {str(row["schluessel"]): row for row in IMMOBILE_ROWS}
IMMOBILE_CHOICES = (
    ("nein", "nein – bewegliches Ziel (Verteidigung)"),
    *(
        (str(r["schluessel"]), f"{r['zielgroesse']} ({r['beispiel']}): {r['zielwert']}")
        for r in IMMOBILE_ROWS
    ),
)

RANGED = (("angriffsart", ("fernkampf",)),)

RANGED_PARAMS: tuple[Param, ...] = (
    BoolParam(
        "kampfgetuemmel",
        "Ziel im Kampfgetümmel",
        help="Nur Fernkampf: −6; misslingt die Probe, geht der Schuss ins Leere.",
        group="Fernkampf",
        advanced=True,
        when=RANGED,
    ),
    IntParam(
        "grundreichweite",
        "Grundreichweite (m)",
        default=20,
        minimum=1,
        maximum=1000,
        help="Nur Fernkampf: Reichweite laut Waffenbeschreibung.",
        group="Fernkampf",
        required_when=("angriffsart", ("fernkampf",)),
        subject="actor",
        when=RANGED,
    ),
    IntParam(
        "distance",
        "Entfernung (m)",
        formerly=("entfernung",),
        default=10,
        minimum=0,
        maximum=6000,
        help="Nur Fernkampf: je angefangene Grundreichweite darüber 1 Erfolg, höchstens 6-fach.",
        group="Fernkampf",
        required_when=("angriffsart", ("fernkampf",)),
        when=RANGED,
    ),
    ChoiceParam(
        "deckung",
        "Deckung des Ziels",
        choices=(
            ("keine", "keine"),
            ("leicht", "Leichte Deckung (1 Erfolg)"),
            ("schwer", "Schwere Deckung (2 Erfolge)"),
        ),
        help="Nur Fernkampf: fehlen die Erfolge, trifft der Angriff die Deckung.",
        group="Fernkampf",
        advanced=True,
        when=RANGED,
    ),
)


def range_erfolge(distance: int, base_range: int) -> int:
    """1 Erfolg per started base range beyond the first (L210)."""
    if distance <= base_range:
        return 0
    return -(-distance // base_range) - 1


def cover_erfolge(deckung: str) -> int:
    """Erfolge a Deckung of the target costs: leicht 1, schwer 2 (L220)."""
    if deckung == "keine":
        return 0
    return DATA.integer(f"angriff.deckung_{deckung}_erfolge", 0, 10)
