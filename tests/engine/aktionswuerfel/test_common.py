"""Aktionswürfel-System: the rule data and its Annahmen (``common.py``, ``aktionswuerfel.yaml``)."""

from __future__ import annotations

from engine import api
from engine.data_files import load


def test_assumptions_in_data() -> None:
    """The die of a Wurf (L22–L23, L38, L54) and the tie rule are Annahmen in the data."""
    keys = {a["key"] for a in load("aktionswuerfel").assumptions()}
    assert {"wurf", "initiative.stechen", "angriff.erfolg_ab_gleichstand"} <= keys
    assert len(api.describe("aktionswuerfel", "initiative")["assumptions"]) == 2
    assert load("aktionswuerfel").integer("zug.aktionswuerfel") == 2  # L18
