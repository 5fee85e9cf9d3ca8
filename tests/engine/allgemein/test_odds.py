"""Seeing the odds (issue 44) for the plain dice rolls: the result's distribution against full
enumeration, „Vergleichen“ of Normal, Vorteil and Nachteil against the action, the mark
``before`` honest, and a distribution too wide for a chart left out within the work budget.

The rolls behind the clickable dice expressions of every text (e.g. 000_5fbfd0ad384a0921.txt
L238 „1W6+1“); Vorteil/Nachteil: two rolls, the better/worse counts (Ryssea
„Würfelsystem & Proben“).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from engine import api, dice
from engine.formatting import parse_fraction
from harness import brute


def _result(notation: str, mode: str = "normal", seed: int = 1) -> dict[str, Any]:
    answer = api.run("allgemein", "wurf", {"notation": notation, "mode": mode}, seed)
    assert answer["ok"], answer
    result: dict[str, Any] = answer["result"]
    return result


def _distribution(result: dict[str, Any]) -> dict[int, Fraction]:
    (section,) = [s for s in result["display"]["sections"] if s["kind"] == "distribution"]
    assert section["before"] is True and section["axis"] == "Ergebnis"
    assert section["mean"]["label"] == "Erwartungswert"
    dist = {bar["value"]: parse_fraction(bar["fraction"]) for bar in section["bars"]}
    assert sum(dist.values()) == 1
    assert parse_fraction(section["mean"]["fraction"]) == sum(v * p for v, p in dist.items())
    return dist


@pytest.mark.parametrize("notation", ["1W6+1", "2W6", "1W12+1W4-1", "2W10kh1"])
@pytest.mark.parametrize("mode", ["normal", "vorteil", "nachteil"])
def test_distribution_equals_enumeration_and_its_mean_the_expected_value(
    notation: str, mode: str
) -> None:
    """Each bar against every face of every die (two rolls with Vorteil/Nachteil, the
    better/worse counts); the mean is the result's expected value."""
    expression = dice.parse(notation)
    sides = [t.sides for t in expression.terms for _ in range(t.count)]

    def total(faces: tuple[int, ...]) -> int:
        class Fixed:
            def __init__(self) -> None:
                self.faces = list(faces)

            def randint(self, a: int, b: int) -> int:
                return self.faces.pop(0)

        return dice.roll(expression, Fixed()).total  # type: ignore[arg-type]

    n = len(sides)
    ref: dict[int, Fraction] = {}
    for faces, weight in brute.outcomes(sides if mode == "normal" else sides * 2):
        if mode == "normal":
            kept = total(faces)
        else:
            pick = max if mode == "vorteil" else min
            kept = pick(total(faces[:n]), total(faces[n:]))
        ref[kept] = ref.get(kept, Fraction(0)) + weight
    result = _result(notation, mode)
    dist = _distribution(result)
    assert dist == ref
    assert sum(v * p for v, p in dist.items()) == Fraction(result["expected"])
    # the chart shows range and mean: the note that said them is not repeated
    assert not [s for s in result["display"]["sections"] if s.get("caption") == "Verteilung"]


def test_compare_of_the_modes_agrees_with_the_action() -> None:
    """„Vergleichen“ of Normal, Vorteil, Nachteil: each row's expected value is the action's."""
    answer = api.compare("allgemein", "wurf", {"notation": "2W6+1"})
    assert answer["ok"], answer
    table = answer["compare"]
    assert [row["value"] for row in table["rows"]] == ["normal", "vorteil", "nachteil"]
    (column,) = table["columns"]
    assert column["label"] == "Erwartungswert"
    means = []
    for row in table["rows"]:
        expected = Fraction(_result("2W6+1", row["value"])["expected"])
        assert parse_fraction(row["cells"][0]["fraction"]) == expected
        means.append(expected)
    assert means[2] < means[0] < means[1]


@pytest.mark.parametrize("mode", ["normal", "vorteil"])
def test_the_distribution_does_not_depend_on_the_dice(mode: str) -> None:
    """Only odds before the roll are marked: twelve Wurfnummern, one distribution; the chances
    of the rolled result stay unmarked."""
    results = [_result("3W6", mode, seed) for seed in range(12)]
    marked = [[s for s in r["display"]["sections"] if s.get("before")] for r in results]
    assert all(m == marked[0] for m in marked)
    assert len({r["total"] for r in results}) > 1
    assert [s["kind"] for s in marked[0]] == ["distribution"]


def test_a_wide_distribution_is_a_chart_in_ranges() -> None:
    """20W1000 has 19.981 values: the chart draws them in 200 ranges of 100 values (the whole
    range, exactly), within one request's work budget; the range is then not said again."""
    result = _result("20W1000")
    (section,) = [s for s in result["display"]["sections"] if s["kind"] == "distribution"]
    assert section["width"] == 100 and len(section["bars"]) == 200
    assert section["mean"]["text"] == "10.010"
    assert not [s for s in result["display"]["sections"] if s.get("caption") == "Verteilung"]


def test_a_number_without_dice_draws_no_chart() -> None:
    result = _result("5")
    assert not [s for s in result["display"]["sections"] if s["kind"] == "distribution"]
