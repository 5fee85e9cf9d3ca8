"""Pathfinder damage (L69–L88): Strength, multipliers, extra dice, Mindestschaden (damage.py)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from harness.support import seed_for
from regeln.pathfinder.damage import combined_multiplier, strength_damage
from tests.engine.pathfinder.helpers import run

# ---------------------------------------------------------------------------------------------
# Damage (L69–L88)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("weapon", "grip", "light", "strength", "rating", "expected"),
    [
        # L78: Nahkampf- oder Wurfwaffe: Stärkemodifikator
        ("nahkampf", "haupthand", False, 3, 0, 3),
        ("wurfwaffe", "haupthand", False, -2, 0, -2),
        # L78: Bogen (kein Kompositbogen): Malus ja, Bonus nein
        ("bogen", "haupthand", False, 4, 0, 0),
        ("bogen", "haupthand", False, -3, 0, -3),
        # L80: Zweithand halber Bonus (abgerundet, Annahme), Malus voll
        ("nahkampf", "zweithand", False, 5, 0, 2),
        ("nahkampf", "zweithand", False, 4, 0, 2),
        ("nahkampf", "zweithand", False, -3, 0, -3),
        # L82: zweihändig anderthalbfach (abgerundet), Malus nicht vervielfacht, leichte Waffe ×1
        ("nahkampf", "zweihaendig", False, 3, 0, 4),
        ("nahkampf", "zweihaendig", False, 4, 0, 6),
        ("nahkampf", "zweihaendig", False, -2, 0, -2),
        ("nahkampf", "zweihaendig", True, 4, 0, 4),
        # Annahmen: Kompositbogen bis Zugstärke, andere Fernkampfwaffen ohne ST
        ("kompositbogen", "haupthand", False, 4, 2, 2),
        ("kompositbogen", "haupthand", False, -1, 2, -1),
        ("fernkampf", "haupthand", False, 5, 0, 0),
        ("fernkampf", "haupthand", False, -5, 0, 0),
    ],
)
def test_strength_on_damage(
    weapon: str, grip: str, light: bool, strength: int, rating: int, expected: int
) -> None:
    """004_019b513a861ec26f.txt L78–L82: Stärkebonus, Zweithandwaffe, zweihändig."""
    assert strength_damage(weapon, grip, light, strength, rating)[0] == expected


def test_critical_damage_rolls_weapon_damage_again_and_adds_extra_dice_once() -> None:
    """L84: „Würfle … den Schaden (inkl. aller Modifikatoren) mehrfach aus und addiere“; L88:
    zusätzliche Würfel (hinterhältiger Angriff) werden niemals vervielfacht."""
    params = {
        "armor_class": 10,
        "multiplier": "3",
        "damage": "1W8",
        "staerkemodifikator": 2,
        "damage_other": 1,
        "extra_dice": "2W6",
    }
    seed = seed_for([20, 15])
    rng = random.Random(seed)
    faces = [rng.randint(1, 20), rng.randint(1, 20)]
    weapon = [rng.randint(1, 8) for _ in range(3)]
    extra = [rng.randint(1, 6) for _ in range(2)]
    result = run("attack", params, seed)
    assert faces == [20, 15]
    assert result["critical"] is True
    damage = result["damage"]
    assert damage["times"] == 3
    assert [r["terms"][0]["dice"][0]["value"] for r in damage["rolls"]] == weapon
    assert [d["value"] for d in damage["extra"]["terms"][0]["dice"]] == extra
    assert damage["raw_total"] == sum(w + 2 + 1 for w in weapon) + sum(extra)
    assert damage["lethal"] == damage["raw_total"]


def test_two_multipliers_add_up_to_one_less() -> None:
    """L86: „den Schaden zweimal zu verdoppeln, ist das Ergebnis der dreifache Normalschaden“."""
    assert combined_multiplier([2, 2]) == 3
    assert combined_multiplier([3, 2]) == 4
    assert combined_multiplier([4, 3]) == 6
    result = run("attack", {"armor_class": 0, "other_multiplier": "2"}, seed_for([20, 19]))
    assert result["multiplier"] == {"normal": 2, "critical": 3}
    assert result["damage"]["times"] == 3


def test_damage_below_one_becomes_one_nonlethal() -> None:
    """L76: „verursacht der Treffer dennoch 1 Punkt nichttödlichen Schaden“."""
    params = {"damage": "1W3", "staerkemodifikator": -5, "armor_class": 0}
    result = run("attack", params, seed_for([15]))
    assert result["damage"]["raw_total"] <= 3 - 5
    assert result["damage"]["lethal"] == 0
    assert result["damage"]["nonlethal"] == 1
    assert Fraction(result["chances"]["expected_damage"]) == 0
    assert Fraction(result["chances"]["expected_nonlethal"]) == Fraction(result["chances"]["hit"])
