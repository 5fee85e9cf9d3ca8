"""Seeing the odds (issue 44) in Pathfinder 1: the distributions of its results against full
enumeration of the dice, „Was wäre wenn“ against independent enumeration across the
opponent's value, „Vergleichen“ against running the action with each choice, and the mark
``before`` honest (the same marked sections whatever the dice show).

Source: quellen/004_019b513a861ec26f.txt (line numbers in each docstring).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from engine import api
from engine.formatting import parse_fraction
from harness import brute
from tests.engine.pathfinder.helpers import SAMPLE, ref_hit, run

PER_ATTACK = "Erwarteter Schaden je Angriff"


def sections(result: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [s for s in result["display"]["sections"] if s["kind"] == kind]


def numeric_distribution(result: dict[str, Any], axis: str) -> dict[int, Fraction]:
    """The one numeric distribution on ``axis``; its bars must sum to 1 and its mean must be
    the mean of its bars."""
    (section,) = [s for s in sections(result, "distribution") if s["axis"] == axis]
    assert section["numeric"] is True and section["before"] is True
    dist = {bar["value"]: parse_fraction(bar["fraction"]) for bar in section["bars"]}
    assert sum(dist.values()) == 1
    mean = parse_fraction(section["mean"]["fraction"])
    assert mean == sum(v * p for v, p in dist.items())
    return dist


def before_sections(result: dict[str, Any]) -> list[dict[str, Any]]:
    return [s for s in result["display"]["sections"] if s.get("before")]


# ---------------------------------------------------------------------------------------------
# The attack: damage per attack, by enumerating both W20 and every damage die
# ---------------------------------------------------------------------------------------------


def ref_per_attack(
    bonus: int,
    ac: int,
    weapon: list[int],
    per_roll: int,
    extra: list[int],
    *,
    threat_from: int = 20,
    multiplier: int = 2,
    other: int = 1,
) -> dict[int, Fraction]:
    """L8, L10: 1W20 + bonus ≥ RK hits, natural 1 misses, natural 20 hits and threatens; a
    threat in the range threatens only on a hit and is confirmed by a second attack roll
    (Annahmen angriff.bedrohungsbereich_nur_bei_treffer, angriff.bestaetigung). L84–L86: the
    weapon's damage with all its modifiers is rolled 1 + Σ(multiplier − 1) times; L88: extra
    dice once, never multiplied; L76: a total below 1 deals 1 nonlethal point – 0 lethal, like
    a miss. Both W20 and every damage die enumerated."""

    def damage(times: int) -> dict[int, Fraction]:
        sides = weapon * times + extra
        out: dict[int, Fraction] = {}
        for faces, weight in brute.outcomes(sides):
            rolls = [
                sum(faces[i * len(weapon) : (i + 1) * len(weapon)]) + per_roll for i in range(times)
            ]
            total = sum(rolls) + sum(faces[len(weapon) * times :])
            lethal = total if total >= 1 else 0
            out[lethal] = out.get(lethal, Fraction(0)) + weight
        return out

    normal = damage(other)
    critical = damage(1 + (multiplier - 1) + (other - 1))
    out: dict[int, Fraction] = {}
    for (first, second), weight in brute.outcomes([20, 20]):
        hit = ref_hit(first, bonus, ac)
        if not hit:
            out[0] = out.get(0, Fraction(0)) + weight
            continue
        threat = first == 20 or first >= threat_from
        kind = critical if threat and ref_hit(second, bonus, ac) else normal
        for value, p in kind.items():
            out[value] = out.get(value, Fraction(0)) + weight * p
    return {v: p for v, p in out.items() if p}


ATTACKS = [
    # (params, bonus, weapon dice, per-roll bonus, extra dice, keyword rules)
    ({"armor_class": 15, "damage": "1W8"}, 5, [8], 2, [], {}),
    ({"armor_class": 12, "damage": "1W4-3", "staerkemodifikator": -2}, 1, [4], -5, [], {}),
    (
        {"armor_class": 18, "damage": "1W6", "threat_range": "18", "multiplier": "3"},
        5,
        [6],
        2,
        [],
        {"threat_from": 18, "multiplier": 3},
    ),
    (
        {"armor_class": 14, "damage": "1W4", "extra_dice": "1W6", "other_multiplier": "2"},
        5,
        [4],
        2,
        [6],
        {"other": 2},
    ),
    (
        {"armor_class": 16, "damage": "2W4", "grip": "zweihaendig", "staerkemodifikator": 3},
        6,
        [4, 4],
        4,  # L82: anderthalbfacher Stärkebonus, 3 × 1,5 rounded down (Annahme schaden.rundung)
        [],
        {},
    ),
]


@pytest.mark.parametrize(("params", "bonus", "weapon", "per_roll", "extra", "rules"), ATTACKS)
def test_damage_per_attack_equals_enumeration_and_its_mean_the_expected_damage(
    params: dict[str, Any],
    bonus: int,
    weapon: list[int],
    per_roll: int,
    extra: list[int],
    rules: dict[str, int],
) -> None:
    """004_019b513a861ec26f.txt L8–L10 (hit, natural 1 and 20), L76 (Mindestschaden), L78–L82
    (Stärke on damage), L84–L88 (multiplying, extra dice never): the damage of one attack, a
    miss 0 – each bar against enumeration, the mean the expected damage of the result."""
    result = run("attack", params)
    assert result["attack_bonus"] == bonus
    dist = numeric_distribution(result, "Schaden")
    assert dist == ref_per_attack(bonus, params["armor_class"], weapon, per_roll, extra, **rules)
    mean = sum(v * p for v, p in dist.items())
    assert mean == Fraction(result["chances"]["expected_damage"])
    (section,) = sections(result, "distribution")
    assert section["mean"]["label"] == PER_ATTACK


def _per_attack_mean(figures: dict[str, Any], columns: list[dict[str, Any]]) -> Fraction:
    index = [c["label"] for c in columns].index(PER_ATTACK)
    return parse_fraction(figures["cells"][index]["fraction"])


def test_what_if_across_the_armour_class_agrees_with_enumeration() -> None:
    """L8, L10 and L84: across RK the hit chance and the expected damage per attack, each row
    against its own enumeration (at least ten values of RK)."""
    params = {"gab": 5, "armor_class": 15, "damage": "1W8", "staerkemodifikator": 2}
    answer = api.what_if("pathfinder", "attack", params)
    assert answer["ok"], answer
    sweep = answer["what_if"]
    assert len(sweep["rows"]) >= 10
    labels = [c["label"] for c in sweep["columns"]]
    for row in sweep["rows"]:
        ref = ref_per_attack(7, row["value"], [8], 2, [])
        mean = sum(v * p for v, p in ref.items())
        assert _per_attack_mean(row, sweep["columns"]) == mean
        hit = row["cells"][labels.index("Treffer")]
        assert parse_fraction(hit["fraction"]) == 1 - ref.get(0, Fraction(0))


@pytest.mark.parametrize("field", ["grip", "weapon"])
def test_compare_rows_are_the_action_run_with_each_choice(field: str) -> None:
    """L15–L23 (melee ST, ranged GE) and L78–L82 (Stärke by grip): each row of „Vergleichen“
    is what the attack itself says with that choice – its before-the-roll chances and the mean
    of its damage per attack."""
    params = {**SAMPLE["attack"], "geschicklichkeitsmodifikator": 3}
    answer = api.compare("pathfinder", "attack", params, field)
    assert answer["ok"], answer
    table = answer["compare"]
    assert table["refused"] == []
    columns = table["columns"]
    for row in table["rows"]:
        result = run("attack", {**params, field: row["value"]})
        expected = {
            (s["caption"], item["label"]): parse_fraction(item["fraction"])
            for s in before_sections(result)
            if s["kind"] == "chances"
            for item in s["items"]
        }
        mean = Fraction(result["chances"]["expected_damage"])
        for column, cell in zip(columns, row["cells"], strict=True):
            got = parse_fraction(cell["fraction"])
            if column["kind"] == "mean":
                assert column["label"] == PER_ATTACK and got == mean
            else:
                assert got == expected[column["caption"], column["label"]]
    if field == "grip":  # L80, L82: half and one and a half of ST +2 (1W8+1, 1W8+3)
        means = {row["value"]: _per_attack_mean(row, columns) for row in table["rows"]}
        assert means["zweithand"] < means["haupthand"] < means["zweihaendig"]


def test_a_weapon_the_range_forbids_is_refused_by_name_not_shown() -> None:
    """A thrown weapon reaches at most five Grundreichweiten (Annahme
    angriff.hoechstens_schritte_wurfwaffe, beside L19–L23's Entfernungsmalus): „Vergleichen“
    says why instead of showing it; the other weapons are rows."""
    params = {
        **SAMPLE["attack"],
        "weapon": "bogen",
        "range_increment": 7,
        "geschicklichkeitsmodifikator": 3,
    }
    table = api.compare("pathfinder", "attack", params, "weapon")["compare"]
    assert [r["value"] for r in table["refused"]] == ["wurfwaffe"]
    assert table["refused"][0]["message"].startswith("Entfernung (Grundreichweiten): Wurfwaffen")
    assert "wurfwaffe" not in [row["value"] for row in table["rows"]]
    answer = api.run("pathfinder", "attack", {**params, "weapon": "wurfwaffe"}, 1)
    assert answer["error"]["field"] == "range_increment"


# ---------------------------------------------------------------------------------------------
# Saving throw and Rüstungsklasse: „Was wäre wenn“ across the SG and the attacker's bonus
# ---------------------------------------------------------------------------------------------


def test_saving_throw_what_if_across_the_sg_agrees_with_enumeration() -> None:
    """L144–L162: 1W20 + Grundbonus + Attributsmodifikator against the SG (reaching it
    succeeds: Annahme rettungswurf.vergleich); L162: a natural 1 always fails, a natural 20
    always succeeds – each row against the enumerated W20."""
    answer = api.what_if("pathfinder", "saving_throw", SAMPLE["saving_throw"])
    assert answer["ok"], answer
    sweep = answer["what_if"]
    assert sweep["field"] == "sg" and len(sweep["rows"]) >= 10
    labels = [c["label"] for c in sweep["columns"]]
    for row in sweep["rows"]:
        sg = row["value"]
        success = brute.chance([20], lambda f, sg=sg: f[0] == 20 or (f[0] != 1 and f[0] + 3 >= sg))
        assert parse_fraction(row["cells"][labels.index("Erfolg")]["fraction"]) == success
        assert parse_fraction(row["cells"][labels.index("Misserfolg")]["fraction"]) == 1 - success


def test_armor_class_what_if_across_the_attackers_bonus_agrees_with_enumeration() -> None:
    """L33: RK 10 + Rüstung + GE …, L66 Berührungs-RK; an attacker hits on 1W20 + bonus ≥ RK
    (L8, L10) – each row's hit chance against RK 16 and Berührungs-RK 12 enumerated."""
    answer = api.what_if("pathfinder", "armor_class", SAMPLE["armor_class"])
    assert answer["ok"], answer
    sweep = answer["what_if"]
    assert sweep["field"] == "attacker_bonus" and len(sweep["rows"]) >= 10
    labels = [c["label"] for c in sweep["columns"]]
    for row in sweep["rows"]:
        for label, ac in (("RK", 16), ("Berührungs-RK", 12)):
            hit = brute.chance([20], lambda f, b=row["value"], ac=ac: ref_hit(f[0], b, ac))
            assert parse_fraction(row["cells"][labels.index(label)]["fraction"]) == hit


# ---------------------------------------------------------------------------------------------
# Trefferpunkte nach Schaden: the damage of one roll
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("damage", "sides", "constant"), [("1W8+2", [8], 2), ("2W4-4", [4, 4], -4)]
)
def test_hit_points_damage_distribution_equals_enumeration(
    damage: str, sides: list[int], constant: int
) -> None:
    """L76: less than 1 is 1 point of nonlethal damage – 0 lethal; the mean is the expected
    lethal damage of the result."""
    result = run("hit_points", {"damage": damage})
    dist = numeric_distribution(result, "Schaden")
    ref: dict[int, Fraction] = {}
    for faces, weight in brute.outcomes(sides):
        total = sum(faces) + constant
        key = total if total >= 1 else 0
        ref[key] = ref.get(key, Fraction(0)) + weight
    assert dist == ref
    assert sum(v * p for v, p in dist.items()) == Fraction(result["expected_lethal"])


def test_hit_points_what_if_across_the_hit_points_agrees_with_enumeration() -> None:
    """L95: 0 kampfunfähig, from −1 sterbend, at −KO tot; each row's chances by enumerating the
    damage die at those hit points (nonlethal minimum: Annahme trefferpunkte.nichttoedlich)."""
    params = {"hp": 6, "konstitution": 4, "damage": "1W8+1"}
    answer = api.what_if("pathfinder", "hit_points", params)
    assert answer["ok"], answer
    sweep = answer["what_if"]
    assert len(sweep["rows"]) >= 10
    labels = [c["label"] for c in sweep["columns"]]

    def state(hp: int) -> str:
        if hp <= -4:
            return "tot"
        if hp < 0:
            return "sterbend"
        return "kampfunfähig" if hp == 0 else "über 0 Trefferpunkte"

    for row in sweep["rows"]:
        for label in labels:
            if label in ("tot", "sterbend", "kampfunfähig", "über 0 Trefferpunkte"):
                p = brute.chance([8], lambda f, h=row["value"], s=label: state(h - f[0] - 1) == s)
                assert parse_fraction(row["cells"][labels.index(label)]["fraction"]) == p


# ---------------------------------------------------------------------------------------------
# Initiative: each fighter's place
# ---------------------------------------------------------------------------------------------


def ref_places(modifiers: list[int]) -> list[list[Fraction]]:
    """1W20 + modifier each, higher first; equal totals to the higher modifier, then a fair
    roll-off (Annahme initiative.gleichstand: the published rules, the text has none) – every
    face of every W20 enumerated; among k fully tied each of their places has 1/k."""
    n = len(modifiers)
    out = [[Fraction(0)] * n for _ in range(n)]
    for faces, weight in brute.outcomes([20] * n):
        keys = [(f + m, m) for f, m in zip(faces, modifiers, strict=True)]
        for me, key in enumerate(keys):
            ahead = sum(1 for k in keys if k > key)
            tied = sum(1 for k in keys if k == key)
            for place in range(ahead, ahead + tied):
                out[me][place] += weight / tied
    return out


@pytest.mark.parametrize("modifiers", [[2, 3], [1, 1, 4], [0, 2, 2]])
def test_initiative_places_equal_enumeration(modifiers: list[int]) -> None:
    """Not in the text (L8 presupposes an order): the published rule as an Annahme – the place
    of each fighter before the roll, bars that sum to 1, Platz 1 the chance to act first."""
    fighters = [
        {"name": f"K{i}", "geschicklichkeitsmodifikator": m} for i, m in enumerate(modifiers)
    ]
    result = run("initiative", {"fighters": fighters})
    shown = sections(result, "distribution")
    assert [s["caption"] for s in shown] == [f"Platz von K{i} (vor dem Wurf)" for i in range(3)][
        : len(modifiers)
    ]
    ref = ref_places(modifiers)
    for i, section in enumerate(shown):
        assert section["numeric"] is False and section["before"] is True
        bars = [parse_fraction(b["fraction"]) for b in section["bars"]]
        assert [b["label"] for b in section["bars"]] == [
            f"Platz {k}" for k in range(1, len(modifiers) + 1)
        ]
        assert sum(bars) == 1
        assert bars == ref[i]
        assert bars[0] == Fraction(result["first_chances"][f"K{i}"])


def test_a_single_fighter_has_no_chart_of_places() -> None:
    result = run(
        "initiative", {"fighters": [{"name": "Allein", "geschicklichkeitsmodifikator": 1}]}
    )
    assert sections(result, "distribution") == []


# ---------------------------------------------------------------------------------------------
# The mark is honest: the same before-the-roll sections whatever the dice show
# ---------------------------------------------------------------------------------------------

BEFORE_CASES: list[tuple[str, dict[str, Any]]] = [
    ("attack", {}),
    ("attack", {"threat_range": "17", "multiplier": "3", "extra_dice": "1W6"}),
    ("attack", {"damage": "1W3", "staerkemodifikator": -4}),
    ("armor_class", {}),
    ("saving_throw", {}),
    ("hit_points", {}),
    ("hit_points", {"hp": 1, "damage": "1W4-2"}),
    ("initiative", {}),
    ("fumble", {}),
]


@pytest.mark.parametrize(("action", "params"), BEFORE_CASES)
def test_sections_marked_before_the_roll_do_not_depend_on_the_dice(
    action: str, params: dict[str, Any]
) -> None:
    """Only odds before the roll are marked (engine/odds.py reads them): twelve Wurfnummern,
    one set of marked sections – and every action with chances marks them."""
    results = [run(action, params, seed) for seed in range(12)]
    marked = [before_sections(r) for r in results]
    assert marked[0], action
    assert all(m == marked[0] for m in marked)
    outcomes = {r["display"]["outcome"] for r in results}
    assert len(outcomes) > 1 or action == "armor_class"  # the dice did differ


def test_every_action_with_an_opponents_value_names_it() -> None:
    """„Was wäre wenn“ goes across the value the roll is made against: RK (L8), SG (L160), the
    attacker's bonus for an RK, the hit points the damage falls on (L95)."""
    names = ["attack", "armor_class", "saving_throw", "initiative", "hit_points", "fumble"]
    assert {name: api.describe("pathfinder", name).get("what_if") for name in names} == {
        "attack": "armor_class",
        "armor_class": "attacker_bonus",
        "saving_throw": "sg",
        "initiative": None,
        "hit_points": "hp",
        "fumble": None,
    }
