"""Pathfinder Patzer (L10, L162, ``fumble.py``)."""

from __future__ import annotations

from fractions import Fraction

from tests.engine.pathfinder.helpers import run
from tests.engine.support import assumed, seed_for

# ---------------------------------------------------------------------------------------------
# Fumble (L10, L162)
# ---------------------------------------------------------------------------------------------


def test_fumble_says_there_is_no_rule_beyond_the_natural_1() -> None:
    """L10: natürliche 1 beim Angriff immer Fehlschlag; L162: beim Rettungswurf immer ein Patzer
    (kann Gegenstände beschädigen). Keine Patzertabelle im Text."""
    one = run("fumble", {"kind": "angriff"}, seed_for([1]))
    assert one["natural_1"] is True
    assert "Fehlschlag" in one["meaning"]
    assert Fraction(one["chances"]["natural_1"]) == Fraction(1, 20)
    save = run("fumble", {"kind": "rettungswurf"}, seed_for([1]))
    assert "Patzer" in save["meaning"]
    assert "Gegenstände beschädigen" in save["meaning"]
    other = run("fumble", {}, seed_for([2]))
    assert other["natural_1"] is False
    notes = next(s for s in other["display"]["sections"] if s["kind"] == "notes")["items"]
    assert any("Patzertabelle" in n or "Patzerregel" in n for n in notes)


def test_fumble_speaks_without_line_numbers_and_assumes_nothing() -> None:
    """L10, L162 are cited in the action's source, not in what the player reads."""
    for kind in ("angriff", "rettungswurf"):
        r = run("fumble", {"kind": kind}, seed_for([1]))
        assert "(L1" not in str(r["display"]) and "L162" not in str(r["display"])
        assert assumed(r) == []
