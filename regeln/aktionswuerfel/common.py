"""Aktionswürfel-System: the pieces every action shares.

Owns the system object ``SYSTEM`` (source 003_3ac4060591b07c19.txt, „Kampf“), the rule data
``DATA`` from ``regeln/aktionswuerfel.yaml``, ``assumptions_for``, which picks the
Annahmen of the data file that an action lists, ``entered_roll``, which marks a result that
rests on a roll entered at the table (the text never says which dice a Wurf uses: the Annahme
``wurf`` belongs to every action that takes such a roll), ``sacrifice`` (the Aktionswürfel an
action costs, ``zug.opfern``) and ``reaches`` (a Wurf „gegen“ a value, ties by an Annahme).
"""

from __future__ import annotations

from engine import fight_contract
from engine.data_files import load
from engine.registry import new_system

SOURCE = "003_3ac4060591b07c19.txt"
SYSTEM = new_system("aktionswuerfel", "Aktionswürfel-System", SOURCE)
DATA = load("aktionswuerfel")
CONTRACT = fight_contract.declare(
    "aktionswuerfel", DATA
)  # the fight: life values, states, conditions


def assumptions_for(*prefixes: str) -> tuple[str, ...]:
    return DATA.assumptions_for(*prefixes, always=("wurf",))


def entered_roll() -> None:
    """The result uses a roll entered at the table: name the Annahme ``wurf`` (L22–L23)."""
    DATA.assume("wurf")


def sacrifice(key: str) -> int:
    """Aktionswürfel to sacrifice for ``key`` of ``zug.opfern`` (L46, L48, L71, L109)."""
    for index, row in enumerate(DATA.table("zug.opfern", ("schluessel", "wuerfel"))):
        if row["schluessel"] == key:
            return DATA.integer(f"zug.opfern.{index}.wuerfel", 0, 20)
    return DATA.integer(f"zug.opfern.{key}", 0, 20)  # raises: the key is missing


def reaches(roll: int, value: int, tie_key: str) -> bool:
    """A Wurf „gegen“ ``value``: higher succeeds, lower fails; only a tie reads the Annahme at
    ``tie_key`` (so a result names it only when it decided)."""
    if roll != value:
        return roll > value
    return DATA.flag(tie_key)
