"""Aktionswürfel-System: the ``attack`` action, hit and wound (``attack.py``)."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from tests.engine.aktionswuerfel.helpers import error, run
from tests.engine.brute import chance, expectation


@pytest.mark.parametrize(
    ("roll", "defence", "hit"), [(10, 10, True), (9, 10, False), (0, 0, True), (999, 0, True)]
)
def test_attack_roll_vs_verteidigungswert(roll: int, defence: int, hit: bool) -> None:
    """003_3ac4060591b07c19.txt L52: a successful Angriffswurf against the Verteidigungswert
    (reaching it counts: Annahme angriff.erfolg_ab_gleichstand)."""
    r = run("attack", {"angriffswurf": roll, "verteidigungswert": defence})
    assert r["treffer"] is hit
    assert (r["schadenswurf"] is not None) is hit


def test_attack_attribute() -> None:
    """003_3ac4060591b07c19.txt L54: Gewandtheit for melee, Präzision for ranged."""
    assert run("attack", {})["angriffs_attribut"] == "Gewandtheit"
    assert run("attack", {"angriffsart": "fernkampf"})["angriffs_attribut"] == "Präzision"


def test_undefended_target_is_hit() -> None:
    """003_3ac4060591b07c19.txt L52: only a target that can defend needs the roll."""
    r = run("attack", {"ziel_verteidigt": False, "angriffswurf": 0, "verteidigungswert": 50})
    assert r["treffer"] is True


def test_wound_seeded() -> None:
    """003_3ac4060591b07c19.txt L102–L110: damage dice + Schadensbonus − armour = wound;
    above Zähigkeit → critical; two criticals → kampfunfähig; Gesundheit 0 → death."""
    seed = 12
    rng = random.Random(seed)
    dice3 = [rng.randint(1, 6) for _ in range(3)]
    params = {
        "schadenswuerfel": "3W6",
        "schadensbonus": 3,
        "ruestung": 4,
        "zaehigkeit": 8,
        "gesundheit": 12,
        "kritische_wunden": 1,
    }
    r = run("attack", params, seed)
    wound = max(0, sum(dice3) + 3 - 4)
    assert r["wunde"]["schadenswert"] == wound
    assert r["wunde"]["kritisch"] is (wound > 8)
    assert r["wunde"]["kampfunfaehig"] is (wound > 8)
    assert r["wunde"]["gesundheit"] == 12 - wound
    assert r["wunde"]["tod"] is (12 - wound <= 0)


def test_armour_absorbs_everything() -> None:
    """003_3ac4060591b07c19.txt L102: armour reducing the damage to 0 → no wound."""
    r = run("attack", {"schadenswuerfel": "1W6", "ruestung": 6})
    assert r["wunde"]["schadenswert"] == 0 and r["wunde"]["kritisch"] is False
    assert r["chances"]["wunde"] == "0"


CASES = [
    ("1W6", 0, 0, 0, 1, 0),
    ("2W6", 2, 3, 6, 20, 0),
    ("3W6", 5, 1, 8, 10, 1),
    ("1W10+1W4", -3, 0, 2, 3, 1),
    ("2W6", 50, 0, 100, 999, 0),
    ("1W20", -50, 100, 0, 1, 1),
    ("4W6", 0, 0, 0, 24, 0),
]


@pytest.mark.parametrize(("notation", "bonus", "armour", "tough", "health", "crits"), CASES)
def test_wound_chances_brute_force(
    notation: str, bonus: int, armour: int, tough: int, health: int, crits: int
) -> None:
    """003_3ac4060591b07c19.txt L102–L110: every reported chance equals brute force."""
    from engine import dice

    expression = dice.parse(notation)
    sides = [t.sides for t in expression.terms for _ in range(t.count)]
    r = run(
        "attack",
        {
            "schadenswuerfel": notation,
            "schadensbonus": bonus,
            "ruestung": armour,
            "zaehigkeit": tough,
            "gesundheit": health,
            "kritische_wunden": crits,
        },
    )

    def wound(f: tuple[int, ...]) -> int:
        return max(0, sum(f) + expression.constant + bonus - armour)

    c = r["chances"]
    assert Fraction(c["wunde"]) == chance(sides, lambda f: wound(f) > 0)
    assert Fraction(c["kritisch"]) == chance(sides, lambda f: wound(f) > tough)
    assert Fraction(c["kampfunfaehig"]) == chance(sides, lambda f: crits + (wound(f) > tough) >= 2)
    assert Fraction(c["tod"]) == chance(sides, lambda f: health - wound(f) <= 0)
    assert Fraction(c["erwartete_wunde"]) == expectation(sides, wound)


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"schadenswuerfel": "30W6"}, "schadenswuerfel"),
        ({"schadenswuerfel": "1W1000"}, "schadenswuerfel"),
        ({"schadenswuerfel": "W"}, "schadenswuerfel"),
        ({"gesundheit": 0}, "gesundheit"),
        ({"kritische_wunden": 2}, "kritische_wunden"),
        ({"angriffsart": "magie"}, "angriffsart"),
        ({"ruestung": -1}, "ruestung"),
    ],
)
def test_attack_bad_input(params: dict[str, Any], field: str) -> None:
    """Bad input → EngineError with a German message naming the field."""
    err = error("attack", params)
    assert err["field"] == field and err["message"]
