"""Pathfinder Patzer (L10, L162, ``fumble.py``): only a saving throw's natural 1 is a Patzer."""

from __future__ import annotations

from fractions import Fraction

from engine import api
from harness.support import assumed, seed_for
from tests.engine.pathfinder.helpers import fields, run

# ---------------------------------------------------------------------------------------------
# Fumble (L10, L162)
# ---------------------------------------------------------------------------------------------


def test_only_a_saving_throws_natural_1_is_a_patzer() -> None:
    """L162: „Eine natürliche 1 … bei einem Rettungswurf ist immer ein Patzer (und kann
    Gegenstände beschädigen …)“; L10: at an attack a natural 1 „immer als Fehlschlag gewertet“
    – a miss, no Patzer. The helper is about the saving throw; no Patzertabelle in the text."""
    one = run("fumble", {}, seed_for([1]))
    assert one["kind"] == "rettungswurf" and one["natural_1"] is True
    assert "Patzer" in one["meaning"] and "Gegenstände beschädigen" in one["meaning"]
    assert Fraction(one["chances"]["natural_1"]) == Fraction(1, 20)
    other = run("fumble", {}, seed_for([2]))
    assert other["natural_1"] is False
    notes = next(s for s in other["display"]["sections"] if s["kind"] == "notes")["items"]
    assert any("Patzertabelle" in n or "Patzerregel" in n for n in notes)
    assert [c["value"] for c in fields("fumble")["kind"]["choices"]] == ["rettungswurf"]


def test_an_attack_is_refused_with_the_rule() -> None:
    """L10: a request from before (a saved value, a link) with kind „angriff“ is refused in
    German, saying why: the attack's natural 1 is a miss, not a Patzer."""
    answer = api.run("pathfinder", "fumble", {"kind": "angriff"}, 1)
    assert not answer["ok"] and answer["error"]["field"] == "kind"
    assert "Fehlschlag" in answer["error"]["message"]
    assert "Rettungswurf" in answer["error"]["message"]


def test_the_rolled_natural_is_stated_not_rolled_again() -> None:
    """L162: after a saving throw that showed a natural 1, the helper states the Patzer of
    that 1 (``natural``, this roll's value) – no new W20, so no die and no Wurfnummer in the
    result, the same for every seed."""
    stated = [run("fumble", {"natural": 1}, seed) for seed in (1, 2, 3)]
    assert stated[0] == stated[1] == stated[2]
    assert stated[0]["natural_1"] is True and stated[0]["roll"] is None
    assert not [s for s in stated[0]["display"]["sections"] if s["kind"] == "rolls"]
    assert run("fumble", {"natural": 7})["natural_1"] is False
    field = fields("fumble")["natural"]
    assert field["per_roll"] is True and field["blank"] is True
    assert (field["min"], field["max"]) == (1, 20)


def test_fumble_speaks_without_line_numbers_and_assumes_nothing() -> None:
    """L10, L162 are cited in the action's source, not in what the player reads."""
    for params in ({}, {"natural": 1}):
        r = run("fumble", params, seed_for([1]))
        assert "(L1" not in str(r["display"]) and "L162" not in str(r["display"])
        assert assumed(r) == []
