"""Seeing the odds (issue 44) in the Aktionswürfel-System: the wound per attack against full
enumeration of the damage dice, „Was wäre wenn“ across the Verteidigungswert against an
independent reading of the rule, „Vergleichen“ of Angriff and Kampfmanöver against running the
action with each choice, and the mark ``before`` honest.

Source: quellen/003_3ac4060591b07c19.txt (line numbers in each docstring). The die of a Wurf
is not in the text (Annahme ``wurf``): the Angriffswurf is entered, so whether the attack
succeeds is certain for the given inputs; only the damage dice are rolled here.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from engine import api
from engine.formatting import parse_fraction
from harness import brute
from tests.engine.aktionswuerfel.helpers import SAMPLE, run

PER_ATTACK = "Erwarteter Schaden je Angriff"


def per_attack(result: dict[str, Any]) -> dict[int, Fraction]:
    (section,) = [s for s in result["display"]["sections"] if s["kind"] == "distribution"]
    assert section["numeric"] is True and section["before"] is True
    assert section["axis"] == "Schadenswert" and section["mean"]["label"] == PER_ATTACK
    dist = {bar["value"]: parse_fraction(bar["fraction"]) for bar in section["bars"]}
    assert sum(dist.values()) == 1
    assert parse_fraction(section["mean"]["fraction"]) == sum(v * p for v, p in dist.items())
    return dist


def ref_wound(sides: list[int], bonus: int, armor: int) -> dict[int, Fraction]:
    """L102: Schadenswürfel + Schadensbonus, reduced by the armour's Schutz; a wound only where
    the armour does not take it to 0 – every face of every damage die enumerated."""
    out: dict[int, Fraction] = {}
    for faces, weight in brute.outcomes(sides):
        wound = max(0, sum(faces) + bonus - armor)
        out[wound] = out.get(wound, Fraction(0)) + weight
    return out


@pytest.mark.parametrize(
    ("params", "sides", "bonus", "armor"),
    [
        ({}, [6, 6], 0, 2),
        ({"schadenswuerfel": "1W10", "schadensbonus": 3, "armor": 1}, [10], 3, 1),
        ({"schadenswuerfel": "3W4", "armor": 8}, [4, 4, 4], 0, 8),
        ({"schadenswuerfel": "1W6+1W8", "schadensbonus": -2, "armor": 0}, [6, 8], -2, 0),
    ],
)
def test_wound_per_attack_equals_enumeration_and_its_mean_the_expected_wound(
    params: dict[str, Any], sides: list[int], bonus: int, armor: int
) -> None:
    """003_3ac4060591b07c19.txt L52 (a hit against the Verteidigungswert), L102 (damage −
    Rüstung = Wunde): with the entered roll a hit, the wound per attack is the wound of the
    damage dice – bars against enumeration, the mean the result's expected wound."""
    result = run("attack", params)
    assert result["hit"] is True
    dist = per_attack(result)
    assert dist == ref_wound(sides, bonus, armor)
    assert sum(v * p for v, p in dist.items()) == Fraction(result["chances"]["expected_wunde"])


def test_a_miss_and_a_manoeuvre_deal_no_wound() -> None:
    """L52: without a successful Angriffswurf no damage; L58: a Kampfmanöver never deals
    direct damage – both 0 with certainty."""
    missed = run("attack", {"angriffswurf": 5})
    assert missed["hit"] is False and per_attack(missed) == {0: 1}
    held = run("attack", {"angriffsart": "kampfmanoever", "manoever": "festhalten"})
    assert held["hit"] is True and per_attack(held) == {0: 1}


def test_what_if_across_the_verteidigungswert_agrees_with_the_rule() -> None:
    """L52: the attack succeeds with a roll against the Verteidigungswert – a tie succeeds
    (Annahme angriff.erfolg_ab_gleichstand); across at least ten values each row's success and
    expected damage per attack against the rule and the enumerated wound."""
    answer = api.what_if("aktionswuerfel", "attack", SAMPLE["attack"])
    assert answer["ok"], answer
    sweep = answer["what_if"]
    assert sweep["field"] == "verteidigungswert" and len(sweep["rows"]) >= 10
    labels = [c["label"] for c in sweep["columns"]]
    wound = ref_wound([6, 6], 0, 2)
    expected = sum(v * p for v, p in wound.items())
    seen = set()
    for row in sweep["rows"]:
        hit = SAMPLE["attack"]["angriffswurf"] >= row["value"]
        seen.add(hit)
        cells = row["cells"]
        assert parse_fraction(cells[labels.index("Angriff erfolgreich")]["fraction"]) == hit
        assert parse_fraction(cells[labels.index(PER_ATTACK)]["fraction"]) == (
            expected if hit else 0
        )
    assert seen == {True, False}
    # the chances of a hit do not depend on the Verteidigungswert: said once
    assert "kritische Wunde" in [s["label"] for s in sweep["same"]]


def test_what_if_does_not_apply_without_a_defence() -> None:
    """L52: only a target that can defend needs the roll against its Verteidigungswert."""
    answer = api.what_if("aktionswuerfel", "attack", {**SAMPLE["attack"], "ziel_verteidigt": False})
    assert not answer["ok"] and answer["error"]["field"] == "verteidigungswert"


@pytest.mark.parametrize(
    ("field", "params"),
    [
        ("angriffsart", {}),
        ("angriffsart", {"angriffswurf": 8}),
        ("manoever", {"angriffsart": "kampfmanoever"}),
    ],
)
def test_compare_rows_are_the_action_run_with_each_choice(
    field: str, params: dict[str, Any]
) -> None:
    """L54 (Gewandtheit, Präzision), L58–L61 (Kampfmanöver on Athletik, no direct damage),
    L65–L80 (Festhalten, Niederwerfen, Schieben): each row of „Vergleichen“ is what the attack
    says with that choice; the rules forbid none of them."""
    values = {**SAMPLE["attack"], **params}
    answer = api.compare("aktionswuerfel", "attack", values, field)
    assert answer["ok"], answer
    table = answer["compare"]
    assert table["refused"] == []
    assert len(table["rows"]) == 3
    for row in table["rows"]:
        result = run("attack", {**values, field: row["value"]})
        figures: dict[str, Fraction] = {}
        for section in result["display"]["sections"]:
            if section.get("before") and section["kind"] == "chances":
                for item in section["items"]:
                    figures[item["label"]] = parse_fraction(item["fraction"])
        dist = per_attack(result)
        figures[PER_ATTACK] = sum((v * p for v, p in dist.items()), Fraction(0))
        for column, cell in zip(table["columns"], row["cells"], strict=True):
            if cell is None:  # a manoeuvre has no chances of a wound
                assert row["value"] == "kampfmanoever" and column["label"] not in figures
            else:
                assert parse_fraction(cell["fraction"]) == figures[column["label"]]


@pytest.mark.parametrize(
    ("action", "params"),
    [
        ("attack", {}),
        ("attack", {"angriffswurf": 3}),
        ("attack", {"schadenswuerfel": "1W20", "kritische_wunden": 1, "gesundheit": 8}),
        ("attack", {"angriffsart": "kampfmanoever", "manoever": "schieben"}),
        (
            "initiative",
            {
                "fighters": [
                    {"name": "Alrik", "willenswurf": 7},
                    {"name": "Bruna", "willenswurf": 7},
                    {"name": "Ork", "willenswurf": 4},
                ]
            },
        ),
    ],
)
def test_sections_marked_before_the_roll_do_not_depend_on_the_dice(
    action: str, params: dict[str, Any]
) -> None:
    """Only odds before the roll are marked: twelve Wurfnummern (damage dice, L38's re-roll),
    one set of marked sections."""
    results = [run(action, params, seed) for seed in range(12)]
    marked = [[s for s in r["display"]["sections"] if s.get("before")] for r in results]
    assert marked[0]
    assert all(m == marked[0] for m in marked)
