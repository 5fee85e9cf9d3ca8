"""Aktionswürfel-System: the pieces every action shares.

Owns the system object ``SYSTEM`` (source 003_3ac4060591b07c19.txt, „Kampf“), the rule data
``DATA`` from ``engine/data/aktionswuerfel.yaml`` and ``assumptions_for``, which picks the
Annahmen of the data file that an action lists. The text never says which dice a Wurf uses, so
the Annahme ``wurf`` belongs to every action that uses assumptions.
"""

from __future__ import annotations

from engine.data_files import load
from engine.registry import new_system

SOURCE = "003_3ac4060591b07c19.txt"
SYSTEM = new_system("aktionswuerfel", "Aktionswürfel-System", SOURCE)
DATA = load("aktionswuerfel")


def assumptions_for(*prefixes: str) -> tuple[str, ...]:
    return tuple(
        a["text"] for a in DATA.assumptions() if a["key"] == "wurf" or a["key"].startswith(prefixes)
    )
