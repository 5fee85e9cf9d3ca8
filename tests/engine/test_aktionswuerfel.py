"""Aktionswürfel-System (source 003_3ac4060591b07c19.txt, „Kampf“).

The die of a Wurf is not in the text, so Willens-Wurf and Angriffswurf are inputs; the engine
rolls the weapon's damage dice and, for ties, the re-roll with the die from the data (Annahme).
"""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction
from typing import Any

import pytest

from engine import api
from engine.data_files import load
from tests.engine.brute import chance, expectation

SRC = "003_3ac4060591b07c19.txt"


def run(action: str, params: dict[str, Any], seed: int = 1) -> dict[str, Any]:
    out = api.run("aktionswuerfel", action, params, seed)
    assert out["ok"], out.get("error")
    json.loads(json.dumps(out))
    result: dict[str, Any] = out["result"]
    assert result["display"]["headline"]
    return result


def error(action: str, params: dict[str, Any]) -> dict[str, str]:
    out = api.run("aktionswuerfel", action, params, 1)
    assert not out["ok"]
    err: dict[str, str] = out["error"]
    return err


def fighters(*values: int, first: tuple[int, ...] = ()) -> list[dict[str, Any]]:
    return [{"name": f"K{i}", "willenswurf": v, "zuerst": i in first} for i, v in enumerate(values)]


# --- initiative -------------------------------------------------------------------------------


def test_order_by_pips_descending() -> None:
    """003_3ac4060591b07c19.txt L38: order by the Willens-Wurf's pips, descending."""
    r = run("initiative", {"fighters": fighters(4, 11, 7)})
    assert [o["name"] for o in r["order"]] == ["K1", "K2", "K0"]
    assert r["first_chances"] == {"K0": "0", "K1": "1", "K2": "0"}


def test_ambusher_acts_first() -> None:
    """003_3ac4060591b07c19.txt L34: who sneaked up or strikes unprovoked has the initiative."""
    r = run("initiative", {"fighters": fighters(4, 11, 7, first=(0,))})
    assert [o["name"] for o in r["order"]] == ["K0", "K1", "K2"]


def test_tie_reroll_seeded() -> None:
    """003_3ac4060591b07c19.txt L38: equal pips → the roll is repeated among those tied
    (die: Annahme 1W6, data initiative.stechen)."""
    seed = 3
    r = run("initiative", {"fighters": fighters(5, 5, 9)}, seed)
    rng = random.Random(seed)
    a, b = rng.randint(1, 6), rng.randint(1, 6)
    while a == b:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
    assert r["order"][0]["name"] == "K2"
    expected = ["K0", "K1"] if a > b else ["K1", "K0"]
    assert [o["name"] for o in r["order"][1:]] == expected
    assert r["ties"][0]["names"] == expected


def test_tie_spielleiter_keeps_entry_order() -> None:
    """003_3ac4060591b07c19.txt L38: „oder der Spielleiter legt schließlich die Reihenfolge
    fest“ – no dice rolled, input order until the Spielleiter decides."""
    r = run("initiative", {"fighters": fighters(5, 5, 5), "gleichstand": "spielleiter"})
    assert [o["name"] for o in r["order"]] == ["K0", "K1", "K2"]
    assert all(o["rerolls"] == [] for o in r["order"])
    assert r["first_chances"]["K0"] == "1"


@pytest.mark.parametrize("k", [2, 3, 4])
def test_first_chance_among_tied_brute_force(k: int) -> None:
    """003_3ac4060591b07c19.txt L38: the reported chance to act first equals the exact
    re-roll process (one round enumerated, repeated rounds solved): 1/k for k tied."""
    r = run("initiative", {"fighters": fighters(*([6] * k), 2)})
    reported = [Fraction(r["first_chances"][f"K{i}"]) for i in range(k)]

    # P_first(n): probability that fighter 0 wins the re-roll among n; one round enumerated
    memo: dict[int, Fraction] = {1: Fraction(1)}

    def first(n: int) -> Fraction:
        if n in memo:
            return memo[n]
        win = Fraction(0)
        same = Fraction(0)  # all n tie again → the same state
        for faces in itertools.product(range(1, 7), repeat=n):
            top = max(faces)
            tied = [i for i, f in enumerate(faces) if f == top]
            if 0 not in tied:
                continue
            if len(tied) == n:
                same += Fraction(1, 6**n)
            else:
                win += Fraction(1, 6**n) * first(len(tied))
        memo[n] = win / (1 - same)
        return memo[n]

    assert reported == [first(k)] * k
    assert Fraction(r["first_chances"][f"K{k}"]) == 0


def test_initiative_duplicate_name() -> None:
    """Bad input: duplicate name → EngineError naming the field."""
    err = error("initiative", {"fighters": [{"name": "A"}, {"name": "a"}]})
    assert err["field"] == "fighters.1.name" and "Name" in err["message"]
    assert error("initiative", {"fighters": []})["field"] == "fighters"


# --- attack and wounds ------------------------------------------------------------------------


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


def test_fumble_has_no_rule() -> None:
    """003_3ac4060591b07c19.txt L1–L110: the chapter has no fumble rule."""
    r = run("fumble", {})
    assert r["regel"] is None and "keine Regel" in r["erklaerung"]


def test_assumptions_in_data() -> None:
    """The die of a Wurf (L22–L23, L38, L54) and the tie rule are Annahmen in the data."""
    keys = {a["key"] for a in load("aktionswuerfel").assumptions()}
    assert {"wurf", "initiative.stechen", "angriff.erfolg_ab_gleichstand"} <= keys
    assert len(api.describe("aktionswuerfel", "initiative")["assumptions"]) == 2
    assert load("aktionswuerfel").integer("zug.aktionswuerfel") == 2  # L18
