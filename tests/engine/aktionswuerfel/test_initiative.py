"""Aktionswürfel-System: the ``initiative`` action (``initiative.py`` of the package)."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from typing import Any

import pytest

from engine import api
from engine.data_files import load
from harness.support import assumed, notes
from tests.engine.aktionswuerfel.helpers import annahme, error, fields, run


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


def test_the_re_roll_shows_its_dice() -> None:
    """003_3ac4060591b07c19.txt L38: the re-roll among those tied is rolled here, so every die of
    it stands in the result as a roll (CONTRIBUTING: the page recognises a result with dice by
    them – Wurfnummer, link, Wurfprotokoll); an order without a re-roll has no dice."""
    r = run("initiative", {"fighters": fighters(5, 5, 9)}, 3)
    rolls = [
        item
        for section in r["display"]["sections"]
        if section["kind"] == "rolls"
        for item in section["items"]
    ]
    shown: dict[str, list[int]] = {}
    for item in rolls:
        name, label = item["label"].split(": ")
        assert label == f"Wiederholung {len(shown.get(name, [])) + 1}"
        assert item["notation"] == "1W6" and len(item["dice"]) == 1
        shown.setdefault(name, []).append(item["dice"][0]["value"])
    assert shown == {o["name"]: o["rerolls"] for o in r["order"] if o["rerolls"]}
    assert shown and set(shown) == {"K0", "K1"}
    for params in (
        {"fighters": fighters(5, 6)},
        {"fighters": fighters(5, 5), "gleichstand": "spielleiter"},
    ):
        plain = run("initiative", params, 3)
        assert not any(s["kind"] == "rolls" for s in plain["display"]["sections"])


def test_tie_spielleiter_keeps_entry_order() -> None:
    """003_3ac4060591b07c19.txt L38: „oder der Spielleiter legt schließlich die Reihenfolge
    fest“ – no dice rolled, input order until the Spielleiter decides."""
    r = run("initiative", {"fighters": fighters(5, 5, 5), "gleichstand": "spielleiter"})
    assert [o["name"] for o in r["order"]] == ["K0", "K1", "K2"]
    assert all(o["rerolls"] == [] for o in r["order"])
    assert r["first_chances"]["K0"] == "1"


_FIRST: dict[int, Fraction] = {1: Fraction(1)}


def first_of_reroll(n: int) -> Fraction:
    """The exact chance that one given fighter wins a re-roll with 1W6 among ``n`` (Annahme
    initiative.stechen): one round enumerated, higher first, those still equal roll again
    among themselves, a round in which all ``n`` tie again solved as a repeat."""
    if n in _FIRST:
        return _FIRST[n]
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
            win += Fraction(1, 6**n) * first_of_reroll(len(tied))
    _FIRST[n] = win / (1 - same)
    return _FIRST[n]


@pytest.mark.parametrize("k", [2, 3, 4])
def test_first_chance_among_tied_brute_force(k: int) -> None:
    """003_3ac4060591b07c19.txt L38: the reported chance to act first equals the exact
    re-roll process (one round enumerated, repeated rounds solved): 1/k for k tied."""
    r = run("initiative", {"fighters": fighters(*([6] * k), 2)})
    reported = [Fraction(r["first_chances"][f"K{i}"]) for i in range(k)]
    assert reported == [first_of_reroll(k)] * k
    assert Fraction(r["first_chances"][f"K{k}"]) == 0


# --- several who begin (L34) ------------------------------------------------------------------


def test_several_who_begin_follow_their_willens_wurf_an_annahme() -> None:
    """003_3ac4060591b07c19.txt L34: who sneaked up or strikes unprovoked „hat … grundsätzlich
    zuerst die Initiative“ – how several of them follow one another the line does not say.
    Annahme initiative.mehrere_zuerst (L34): by their Willens-Wurf, as everyone else (L38). It
    is the default of the field that chooses the reading, and a result names it only when it
    decided something: two or more who begin."""
    text = annahme("initiative.mehrere_zuerst")
    assert "L34" in load("aktionswuerfel").content["initiative"]["mehrere_zuerst"]["quelle"]
    assert text in api.describe("aktionswuerfel", "initiative")["assumptions"]
    assert fields("initiative")["zuerst_order"]["default"] == "willenswurf"
    r = run("initiative", {"fighters": fighters(4, 11, 7, first=(0, 2))})
    assert [o["name"] for o in r["order"]] == ["K2", "K0", "K1"]
    assert r["first_chances"] == {"K0": "0", "K1": "0", "K2": "1"}
    assert text in assumed(r)
    alone = run("initiative", {"fighters": fighters(4, 11, 7, first=(0,))})
    assert text not in assumed(alone)
    # equal pips among those who begin: the tie rule of L38, as for everyone
    tied = run("initiative", {"fighters": fighters(6, 6, 3, 9, first=(0, 1, 2))})
    chances = [Fraction(tied["first_chances"][f"K{i}"]) for i in range(4)]
    assert chances == [first_of_reroll(2), first_of_reroll(2), 0, 0]
    assert [o["name"] for o in tied["order"][2:]] == ["K2", "K3"]


def test_the_other_reading_rerolls_among_those_who_begin() -> None:
    """003_3ac4060591b07c19.txt L34 (silent on several) with the other reading chosen: those who
    begin re-roll among themselves, as L38 does for equal pips (die: Annahme 1W6,
    initiative.stechen), higher first – their Willens-Wurf no longer counts; the others follow
    by theirs. The result says which reading was chosen and names the die, not the Annahme of
    the default reading."""
    seed = 5
    rows = fighters(4, 11, 7, 9, first=(0, 2))
    r = run("initiative", {"fighters": rows, "zuerst_order": "wiederholen"}, seed)
    rng = random.Random(seed)
    a, b = rng.randint(1, 6), rng.randint(1, 6)
    while a == b:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
    first = ["K0", "K2"] if a > b else ["K2", "K0"]
    assert [o["name"] for o in r["order"]] == [*first, "K1", "K3"]
    assert r["order"][0]["rerolls"][-1] == max(a, b)
    assert assumed(r) == [annahme("wurf"), annahme("initiative.stechen")]
    assert any("Gewählte Lesart" in n for n in notes(r))


@pytest.mark.parametrize("k", [2, 3])
def test_first_chance_of_those_who_begin_by_the_other_reading_brute_force(k: int) -> None:
    """L34 with the other reading, L38's re-roll: each of k who begin acts first with the
    chance of winning the re-roll among k (enumerated), whatever their Willens-Würfe; a higher
    Willens-Wurf without beginning never does."""
    rows = fighters(*range(3, 3 + k), 12, first=tuple(range(k)))
    for tie_rule in ("wiederholen", "spielleiter"):
        params = {"fighters": rows, "zuerst_order": "wiederholen", "gleichstand": tie_rule}
        r = run("initiative", params)
        reported = [Fraction(r["first_chances"][f"K{i}"]) for i in range(k + 1)]
        assert reported == [first_of_reroll(k)] * k + [Fraction(0)]


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
