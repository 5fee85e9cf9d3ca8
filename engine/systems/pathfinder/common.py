"""Shared pieces of Pathfinder 1: the system object, its rule data and the size table.

Owns ``SYSTEM`` (every action module registers on it), ``DATA`` (``engine/data/pathfinder.yaml``),
the source name, the assumption texts per data prefix, the Tabelle: Größenmodifikatoren
(L50–L64) with ``SIZE_PARAM`` (used by ``attack`` and ``armor_class``), and the small data
readers the rolls share: the W20 of a roll, the natural 1 and 20 of the attack roll, and the
check that a data choice is one the code knows. Names with a leading underscore are private to
this package.

Assumptions (``annahme`` in the data) are read where they decide the rolled outcome, so a
result names only those (``engine.data_files``); the odds before the roll are computed under
every assumption of the helper (its „Annahmen“ box lists them), inside ``forecast``, whose reads
are not named.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from engine import dice
from engine.data_files import DataError, assumptions_used, load
from engine.errors import EngineError, echo
from engine.params import ChoiceParam
from engine.registry import new_system

SOURCE = "004_019b513a861ec26f.txt"
SYSTEM = new_system("pathfinder", "Pathfinder 1", SOURCE)
DATA = load("pathfinder")

SIZE_TABLE = "tabellen.groessenmodifikatoren"


@contextmanager
def forecast() -> Iterator[None]:
    """Compute odds before the roll: the assumptions read inside are not named in the result."""
    with assumptions_used():
        yield


def assumptions_for(*prefixes: str) -> tuple[str, ...]:
    return tuple(a["text"] for a in DATA.assumptions() if a["key"].startswith(prefixes))


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


def data_dice(key: str, label: str) -> dice.Expression:
    return dice.parse(DATA.text(key), key, label)


def auto_miss() -> int:
    return DATA.integer("angriff.automatischer_fehlschlag", 1, 20)


def auto_hit() -> int:
    return DATA.integer("angriff.automatischer_treffer", 1, 20)


def data_choice(key: str, allowed: tuple[str, ...]) -> str:
    value = DATA.text(key)
    if value not in allowed:
        raise DataError(DATA.file, key, f"muss eine von {', '.join(allowed)} sein, ist {value!r}")
    return value


SIZE_PARAM = ChoiceParam(
    "size",
    "Größe",
    help="Größenmodifikator nach der Tabelle: Größenmodifikatoren.",
    choices=SIZE_CHOICES,
    default="mittelgross",
    group="Größe",
    advanced=True,
)
