"""DSA 4.1 Hausregeln: one fighter of the initiative order – what the ``initiative`` action
rolls and computes for him, and what Taktik (``taktik.py``) changes. Its own module so that
both read it without importing each other. Name, row, roll-off and tie note are every
order's (``engine.ordering.Fighter``); the roll may be missing (Orientieren: the die's maximum).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import dice, ordering


@dataclass
class Fighter(ordering.Fighter):
    side: str
    ini_basis: int
    modifier: int
    oriented: bool
    evasions: int
    roll: dice.RollResult | None
    die_value: int
    taktik: int
    initiative: int
    modifiers: list[tuple[str, int]] = field(default_factory=list)
