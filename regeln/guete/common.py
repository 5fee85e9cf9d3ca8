"""Güte-System: the pieces several modules share.

Owns the system object ``SYSTEM`` (source 002_51e59e824768e9e9.txt, „Kampfregeln - Nahkampf“),
the rule data ``DATA`` from ``regeln/guete.yaml`` and the small helpers on it: the Annahmen
an action lists (``assumptions_for``; the unwritten FP roll ``fp_wurf`` belongs to all), the
rows of the rule tables (``table_rows``, ``table_row``: situations, options, defense), a dice
expression plus a constant (``plus_constant``), the Sturzflug bonus (L325) used by the
attack and by the ``sturzflug`` roll, the resources that lose points (LE, KE, AUS) and the way a
distribution is reported.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from engine import dice, fight_contract
from engine.data_files import load
from engine.errors import EngineError
from engine.registry import new_system

SOURCE = "002_51e59e824768e9e9.txt"
SYSTEM = new_system("guete", "Güte-System", SOURCE)
DATA = load("guete")
CONTRACT = fight_contract.declare("guete", DATA)  # the fight: life values, states, conditions


RESOURCES = ("LE", "KE", "AUS")
RESOURCE_NAMES = {"LE": "Lebensenergie", "KE": "körperliche Energie", "AUS": "Ausdauer"}
# each resource's life value in the fight contract (kampf.werte): its name and title
LIFE_VALUES = tuple(
    (CONTRACT.value(r.lower()).name, CONTRACT.value(r.lower()).title) for r in RESOURCES
)
SUITED_FOR_STUN = {"hammer", "faustkampf", "stab"}  # L125


def assumptions_for(*prefixes: str) -> tuple[str, ...]:
    return DATA.assumptions_for(*prefixes, always=("fp_wurf",))


def table_rows(name: str) -> list[dict[str, Any]]:
    return DATA.table(f"tabellen.{name}.zeilen", ("schluessel",))


def table_row(name: str, key: str) -> dict[str, Any]:
    for row in table_rows(name):
        if row["schluessel"] == key:
            return row
    raise EngineError(f"Regeldaten: „{key}“ fehlt in tabellen.{name}.", "")


def plus_constant(expression: dice.Expression, constant: int) -> dice.Expression:
    return dice.Expression(expression.terms, expression.constant + constant)


def chances_dict(dist: dict[int, Fraction]) -> dict[str, str]:
    return {str(total): str(p) for total, p in dist.items()}


# The dice and numbers of the rolls declared in the YAML (``aktionen:``) that the attack rolls too
STURZFLUG_BONUS = "aktionen.sturzflug.modifikatoren.0"
DICE = {
    "sturzflug": "aktionen.sturzflug.wurf",
    "beute": "aktionen.sturzflug.zusatzwurf.wurf",
    "feuer": "aktionen.feuerschaden.wurf",
    "entwaffnen": "aktionen.entwaffnen.wurf",
}


def sturzflug_bonus(height: int) -> int:
    """L325: +1 je 2 volle Meter über 5 m, höchstens +5."""
    # the numbers of the declared ``sturzflug`` helper's modifier (aktionen.sturzflug)
    base = DATA.integer(f"{STURZFLUG_BONUS}.ab", 0, 1000)
    per = DATA.integer(f"{STURZFLUG_BONUS}.je", 1, 1000)
    cap = DATA.integer(f"{STURZFLUG_BONUS}.hoechstens", 0, 1000)
    return min(cap, max(0, height - base) // per)
