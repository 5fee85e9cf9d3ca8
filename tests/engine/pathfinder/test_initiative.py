"""Pathfinder Initiative (not in the text: Annahme; declared in ``regeln/pathfinder.yaml`` under
``aktionen.initiative``, ``art: initiative``)."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from engine import api
from harness.support import assumed, notes, seed_for
from tests.engine.pathfinder.helpers import annahme, run

# ---------------------------------------------------------------------------------------------
# Initiative (not in the text: Annahme)
# ---------------------------------------------------------------------------------------------


def test_initiative_is_d20_plus_dex_plus_other() -> None:
    """Not in the text (L8 presumes an order): Annahme initiative.wurf 1W20 + GE + andere."""
    fighters = [
        {"name": "A", "geschicklichkeitsmodifikator": 2, "other": 4},
        {"name": "B", "geschicklichkeitsmodifikator": -1, "other": 0},
    ]
    rng = random.Random(7)
    faces = [rng.randint(1, 20), rng.randint(1, 20)]
    result = run("initiative", {"fighters": fighters}, 7)
    by_name = {o["name"]: o for o in result["order"]}
    assert by_name["A"]["initiative"] == faces[0] + 6
    assert by_name["B"]["initiative"] == faces[1] - 1
    totals = [o["initiative"] for o in result["order"]]
    assert totals == sorted(totals, reverse=True)


def test_initiative_tie_goes_to_higher_modifier_then_roll_off() -> None:
    """Annahme initiative.gleichstand: higher modifier first, then a 1W20 roll-off."""
    seed = seed_for([10, 12])  # A: 10 + 3 = 13, B: 12 + 1 = 13
    fighters = [
        {"name": "A", "geschicklichkeitsmodifikator": 3},
        {"name": "B", "geschicklichkeitsmodifikator": 1},
    ]
    order = run("initiative", {"fighters": fighters}, seed)["order"]
    assert [o["name"] for o in order] == ["A", "B"]
    assert order[0]["rolloff"] == []
    seed = seed_for([9, 9, 4, 17])  # equal totals and modifiers: roll-off 4 vs 17
    fighters = [
        {"name": "A", "geschicklichkeitsmodifikator": 2},
        {"name": "B", "geschicklichkeitsmodifikator": 2},
    ]
    order = run("initiative", {"fighters": fighters}, seed)["order"]
    assert [o["name"] for o in order] == ["B", "A"]
    assert order[0]["rolloff"] == [17]


def _ref_first(modifiers: list[int]) -> list[Fraction]:
    """Brute force over every W20 face of every fighter; ties split fairly (roll-off).

    Counted in integers: a tie of k fighters gives each ``scale // k`` (scale divisible by k)."""
    scale = 5 * 7 * 8 * 9
    counts = [0] * len(modifiers)
    for faces in itertools.product(range(1, 21), repeat=len(modifiers)):
        keys = [(f + m, m) for f, m in zip(faces, modifiers, strict=True)]
        best = max(keys)
        winners = [i for i, k in enumerate(keys) if k == best]
        for i in winners:
            counts[i] += scale // len(winners)
    return [Fraction(c, scale * 20 ** len(modifiers)) for c in counts]


@pytest.mark.parametrize(
    "modifiers", [[0], [2, 3], [0, 0], [-5, 20], [5, 5, 3], [1, 0, 1], [20, -5, 3, 3]]
)
def test_initiative_first_chances_match_brute_force(modifiers: list[int]) -> None:
    """Annahme initiative.*: exact chance of each fighter to act first."""
    fighters = [
        {"name": f"K{i}", "geschicklichkeitsmodifikator": min(m, 20), "other": m - min(m, 20)}
        for i, m in enumerate(modifiers)
    ]
    result = run("initiative", {"fighters": fighters})
    got = [Fraction(result["first_chances"][f"K{i}"]) for i in range(len(modifiers))]
    assert got == _ref_first(modifiers)
    assert sum(got) == 1


def test_initiative_turns_and_the_tie_rule_only_after_a_tie() -> None:
    """Not in the text (Annahmen): ``turns`` is the acting order („Platz 1“ …); the tie rule is
    named only when two fighters rolled the same total."""
    fighters = [
        {"name": "A", "geschicklichkeitsmodifikator": 3},
        {"name": "B", "geschicklichkeitsmodifikator": 1},
    ]
    tied = run("initiative", {"fighters": fighters}, seed_for([10, 12]))  # 13 and 13
    assert tied["turns"] == [{"name": "A", "label": "Platz 1"}, {"name": "B", "label": "Platz 2"}]
    assert assumed(tied) == [
        annahme("aktionen.initiative.wurf"),
        annahme("aktionen.initiative.gleichstand"),
    ]
    plain = run("initiative", {"fighters": fighters}, seed_for([10, 5]))  # 13 and 6
    assert [t["name"] for t in plain["turns"]] == [o["name"] for o in plain["order"]]
    assert assumed(plain) == [annahme("aktionen.initiative.wurf")]


def test_initiative_declared_in_the_yaml_shows_what_the_python_helper_showed() -> None:
    """Not in the text (004_019b513a861ec26f.txt L8 presumes an order; Annahmen
    aktionen.initiative.wurf and .gleichstand): the declared helper (regeln/pathfinder.yaml)
    adds Geschicklichkeitsmodifikator + andere Modifikatoren (the roll line: „GE“ always,
    „andere“ only when not 0), its column is „W20 + Mod.“, a tie decided by the higher modifier
    says „Modifikator +3“, one decided by the roll-off only „Stechen 17“ (no roll of its own);
    the former field name „dexterity“ still reads, the order's ``value`` was ``modifier``."""
    fighters = [
        {"name": "A", "dexterity": 3},
        {"name": "B", "geschicklichkeitsmodifikator": 0, "other": 1},
    ]
    result = run("initiative", {"fighters": fighters}, seed_for([10, 12]))  # 13 and 13
    sections = result["display"]["sections"]
    table = next(s for s in sections if s["kind"] == "table")
    assert result["display"]["headline"] == "Initiative – Pathfinder (Annahme)"
    assert table["columns"] == ["Platz", "Kämpfer", "W20 + Mod.", "Initiative", "Gleichstand"]
    assert table["rows"] == [
        ["1", "A", "10 +3", "13", "Modifikator +3"],
        ["2", "B", "12 +1", "13", "Modifikator +1"],
    ]
    rolls = next(s for s in sections if s["kind"] == "rolls")["items"]
    assert [r["modifiers"] for r in rolls] == [
        [{"label": "GE", "value": "+3"}],
        [{"label": "GE", "value": "±0"}, {"label": "andere", "value": "+1"}],
    ]
    assert notes(result) == [
        "Die Initiative regelt der Text nicht; hier gelten die veröffentlichten Grundregeln."
    ]
    assert [o["value"] for o in result["order"]] == [3, 1]
    assert api.describe("pathfinder", "initiative")["result_formerly"] == {"value": ["modifier"]}
    equal = [{"name": "A", "geschicklichkeitsmodifikator": 2}, {"name": "B", "dexterity": 2}]
    rolled_off = run("initiative", {"fighters": equal}, seed_for([9, 9, 4, 17]))
    sections = rolled_off["display"]["sections"]
    rows = next(s for s in sections if s["kind"] == "table")["rows"]
    assert [(r[1], r[4]) for r in rows] == [("B", "Stechen 17"), ("A", "Stechen 4")]
    labels = [r["label"] for r in next(s for s in sections if s["kind"] == "rolls")["items"]]
    assert labels == ["A: Initiativwurf", "B: Initiativwurf"]
