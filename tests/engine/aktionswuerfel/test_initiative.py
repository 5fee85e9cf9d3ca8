"""Aktionswürfel-System: the ``initiative`` action (``initiative.py`` of the package)."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from typing import Any

import pytest

from engine import api
from tests.engine.aktionswuerfel.helpers import annahme, error, run
from tests.engine.support import assumed


def fighters(*values: int, first: tuple[int, ...] = ()) -> list[dict[str, Any]]:
    return [{"name": f"K{i}", "willenswurf": v, "zuerst": i in first} for i, v in enumerate(values)]


# --- initiative -------------------------------------------------------------------------------


def test_the_willens_wurf_is_rolled_at_the_table() -> None:
    """003_3ac4060591b07c19.txt L38: „machen alle infrage kommenden Charaktere einen
    Willens-Wurf“ – its pips are typed in for this one ordering (``per_roll``): cleared after,
    never the next ordering's."""
    schema = {f["name"]: f for f in api.describe("aktionswuerfel", "initiative")["params"]}
    rows = {f["name"]: f for f in schema["fighters"]["item"]}
    assert rows["willenswurf"]["per_roll"] is True
    assert "per_roll" not in rows["name"] and "per_roll" not in rows["zuerst"]


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


def test_the_repeated_rolls_are_shown_as_dice() -> None:
    """003_3ac4060591b07c19.txt L38: „kann der Wurf unter den Betroffenen wiederholt werden“ –
    the engine rolls those dice (1W6, Annahme), so the result shows each as a roll: the page
    offers the Wurfnummer only for a result with dice (results.js hasDice), and before, a tie's
    order depended on the Wurfnummer while the result showed no die."""
    r = run("initiative", {"fighters": fighters(5, 5, 9)}, 3)
    rolls = [
        item
        for section in r["display"]["sections"]
        if section["kind"] == "rolls"
        for item in section["items"]
    ]
    shown = {
        name: [int(i["total"]) for i in rolls if i["label"].startswith(f"{name}:")]
        for name in ("K0", "K1")
    }
    assert shown == {o["name"]: o["rerolls"] for o in r["order"] if o["rerolls"]}
    assert all(i["notation"] == "1W6" for i in rolls)
    untied = run("initiative", {"fighters": fighters(4, 5, 9)}, 3)
    assert not [s for s in untied["display"]["sections"] if s["kind"] == "rolls"]


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
    rows = [{"name": "A", "willenswurf": 7}, {"name": "a", "willenswurf": 7}]
    err = error("initiative", {"fighters": rows})
    assert err["field"] == "fighters.1.name" and "Name" in err["message"]
    assert error("initiative", {"fighters": []})["field"] == "fighters"


def test_turns_are_the_order_of_one_round() -> None:
    """003_3ac4060591b07c19.txt L32, L38: the turns of a round in the order of the Willens-Wurf,
    labelled by place, for the Kampfhelfer page."""
    r = run("initiative", {"fighters": fighters(4, 11, 7, first=(0,))})
    assert r["turns"] == [
        {"name": "K0", "label": "Platz 1"},
        {"name": "K1", "label": "Platz 2"},
        {"name": "K2", "label": "Platz 3"},
    ]


def test_initiative_names_the_assumptions_it_used() -> None:
    """L38: the re-roll die (Annahme initiative.stechen) is named only when a tie was
    re-rolled; the entered Willens-Würfe (Annahme wurf) always decide the order."""
    entered, die = annahme("wurf"), annahme("initiative.stechen")
    assert assumed(run("initiative", {"fighters": fighters(5, 5)})) == [entered, die]
    assert assumed(run("initiative", {"fighters": fighters(5, 6)})) == [entered]
    tie_by_sl = {"fighters": fighters(5, 5), "gleichstand": "spielleiter"}
    assert assumed(run("initiative", tie_by_sl)) == [entered]
