"""Ryssea Patzertabelle (000_5fbfd0ad384a0921.txt L404–L415)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from engine import api
from harness.brute import outcomes
from harness.support import assumed
from tests.engine.ryssea.helpers import DATA, annahme, error, fr, run


def brute_fumble(impossible: set[int]) -> list[Fraction]:
    rows = DATA.table("tabellen.patzertabelle.zeilen", ("von", "bis"))
    raw = [Fraction(0)] * len(rows)
    for faces, w in outcomes([10, 10]):
        total = sum(faces)
        for i, row in enumerate(rows):
            if row["von"] <= total <= row["bis"]:
                raw[i] += w
    possible = sum(p for p, row in zip(raw, rows, strict=True) if row["von"] not in impossible)
    return [
        Fraction(0) if r["von"] in impossible else p / possible
        for p, r in zip(raw, rows, strict=True)
    ]


@pytest.mark.parametrize("impossible", [set(), {2}, {2, 20}, {3, 5, 14, 18}, {2, 3, 5, 14, 18, 20}])
def test_fumble_chances_brute_force(impossible: set[int]) -> None:
    """000_5fbfd0ad384a0921.txt L406–L415: 2W10 on the table; an impossible result is re-rolled,
    so the chances are those of 2W10 conditioned on a possible band."""
    params = {f"unmoeglich_{v}": True for v in impossible}
    result = run("fumble", params)
    rows = DATA.table("tabellen.patzertabelle.zeilen", ("von", "bis"))
    got = [fr(result["chances"][f"{r['von']}-{r['bis']}"]) for r in rows]
    assert got == brute_fumble(impossible)
    if not impossible:
        assert got == [Fraction(n, 100) for n in (1, 5, 22, 44, 22, 5, 1)]


def test_fumble_seeded_rows_and_rerolls() -> None:
    """000_5fbfd0ad384a0921.txt L406: the row matches the 2W10 total; impossible results are
    rolled again (every attempt kept)."""
    for seed in range(30):
        rng = random.Random(seed)
        total = rng.randint(1, 10) + rng.randint(1, 10)
        result = run("fumble", {}, seed)
        assert result["total"] == total
        row = result["row"]
        assert row["von"] <= total <= row["bis"]
        only = run("fumble", {f"unmoeglich_{v}": True for v in (2, 3, 5, 14, 18, 20)}, seed)
        assert (only["row"]["von"], only["row"]["bis"]) == (9, 13)
        totals = [a["total"] for a in only["attempts"]]
        assert all(not 9 <= t <= 13 for t in totals[:-1])
        assert 9 <= totals[-1] <= 13


def test_fumble_not_after_aktive_abwehr() -> None:
    """000_5fbfd0ad384a0921.txt L406: no roll on the table when an opponent's Aktive Abwehr
    caused the Patzer."""
    result = run("fumble", {"ursache": "aktive_abwehr"})
    assert result["rolled"] is False
    assert result["row"] is None
    assert "Aktive Abwehr" in result["display"]["outcome"]


def test_fumble_row_9_13_has_no_checkbox() -> None:
    """Annahme (data patzer.immer_moeglich): the 9–13 row is always possible, so re-rolling
    ends; the other six rows have an "unmöglich" checkbox."""
    names = [p["name"] for p in api.describe("ryssea", "fumble")["params"]]
    assert names == [
        "ursache",
        "unmoeglich_2",
        "unmoeglich_3",
        "unmoeglich_5",
        "unmoeglich_14",
        "unmoeglich_18",
        "unmoeglich_20",
    ]
    assert error("fumble", {"unmoeglich_9": True})["field"] == "unmoeglich_9"


def test_the_always_possible_row_is_named_only_when_rows_are_impossible() -> None:
    """L406: an impossible result is rolled again; that 9–13 is always possible (so the
    re-rolling ends) is an Annahme, named only when some row was marked impossible."""
    text = annahme("patzer.immer_moeglich")
    assert text not in assumed(run("fumble", {}))
    assert text in assumed(run("fumble", {"unmoeglich_2": True}))
    assert assumed(run("fumble", {"ursache": "aktive_abwehr"})) == []
