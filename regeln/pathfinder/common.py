"""Shared pieces of Pathfinder 1: the system object, its rule data and the size table.

Owns ``SYSTEM`` (every action module registers on it), ``DATA`` (``regeln/pathfinder.yaml``),
the source name, the assumption texts per data prefix, the Tabelle: Größenmodifikatoren
(L50–L64) with ``SIZE_PARAM`` (used by ``attack`` and ``armor_class``), and the natural 1 and 20
of the attack roll. Dice and choices of the data are read with ``DATA.dice`` and
``DATA.choice`` (``engine.data_files``). Names with a leading underscore are private to this
package.

Assumptions (``annahme`` in the data) are read where they decide the rolled outcome, so a
result names only those (``engine.data_files``); the odds before the roll are computed under
every assumption of the helper (its „Annahmen“ box lists them), inside ``forecast``
(``engine.data_files``), whose reads are not named.
"""

from __future__ import annotations

from typing import Any

from engine import fight_contract
from engine.data_files import load
from engine.errors import EngineError, echo
from engine.params import ChoiceParam
from engine.registry import new_system

SOURCE = "004_019b513a861ec26f.txt"
SYSTEM = new_system("pathfinder", "Pathfinder 1", SOURCE)
DATA = load("pathfinder")
CONTRACT = fight_contract.declare("pathfinder", DATA)  # the fight: life values, states, conditions

SIZE_TABLE = "tabellen.groessenmodifikatoren"


assumptions_for = DATA.assumptions_for


def _size_rows() -> list[dict[str, Any]]:
    rows = DATA.table(f"{SIZE_TABLE}.zeilen", ("schluessel", "groesse", "modifikator", "wert"))
    for index in range(len(rows)):
        DATA.integer(f"{SIZE_TABLE}.zeilen.{index}.wert", -20, 20)
    return rows


SIZE_CHOICES = tuple(
    (str(row["schluessel"]), f"{row['groesse']} ({row['modifikator']})") for row in _size_rows()
)


def size_modifier(key: str) -> int:
    """Größenmodifikator from Tabelle: Größenmodifikatoren (L50–L64)."""
    for row in _size_rows():
        if row["schluessel"] == key:
            return int(row["wert"])
    raise EngineError(
        f"Größe: „{echo(key)}“ steht nicht in der Tabelle Größenmodifikatoren.", "size"
    )


def _size_name(key: str) -> str:
    for row in _size_rows():
        if row["schluessel"] == key:
            return str(row["groesse"])
    return key


def auto_miss() -> int:
    return DATA.integer("angriff.automatischer_fehlschlag", 1, 20)


def auto_hit() -> int:
    return DATA.integer("angriff.automatischer_treffer", 1, 20)


SIZE_PARAM = ChoiceParam(
    "size",
    "Größe",
    help="Größenmodifikator nach der Tabelle: Größenmodifikatoren.",
    choices=SIZE_CHOICES,
    default="mittelgross",
    group="Größe",
    advanced=True,
)
