"""Pathfinder Rüstungsklasse (L25–L66, ``armor_class.py``)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from harness.brute import chance
from harness.support import assumed
from tests.engine.pathfinder.helpers import fields, ref_hit, run

# ---------------------------------------------------------------------------------------------
# Armor class (L25–L66)
# ---------------------------------------------------------------------------------------------


def test_armor_class_formula() -> None:
    """L33: 10 + Rüstungsbonus + Schildbonus + Geschicklichkeitsmodifikator + andere (Größe
    L64, natürliche Rüstung L46, Ablenkung L44, Ausweichen L48)."""
    params = {
        "armor": 5,
        "schildbonus": 2,
        "geschicklichkeitsmodifikator": 3,
        "size": "klein",
        "natuerliche_ruestung": 1,
        "ablenkungsbonus": 2,
        "ausweichbonus": 1,
        "other": -1,
    }
    values = run("armor_class", params)["armor_class"]
    assert values["normal"] == 10 + 5 + 2 + 3 + 1 + 1 + 2 + 1 - 1
    # L66: Berührung ohne Rüstung, Schild und natürliche Rüstung
    assert values["touch"] == 10 + 3 + 1 + 2 + 1 - 1
    # L38, L48: ohne GE-Bonus verliert man auch die Ausweichboni
    assert values["flat"] == 10 + 5 + 2 + 1 + 1 + 2 - 1
    assert values["touch_flat"] == 10 + 1 + 2 - 1


def test_armor_limits_the_dex_bonus() -> None:
    """L35: „die Rüstung [kann] die Höhe deines Geschicklichkeitsbonus einschränken“."""
    params = {"armor": 6, "geschicklichkeitsmodifikator": 4, "max_geschicklichkeitsbonus": 1}
    result = run("armor_class", params)
    assert result["geschicklichkeitsbonus"] == 1
    assert result["armor_class"]["normal"] == 10 + 6 + 1


def test_losing_the_dex_bonus_keeps_a_dex_penalty() -> None:
    """L38: „Besitzt du keinen Bonus, ändert sich deine RK nicht.“"""
    values = run("armor_class", {"armor": 2, "geschicklichkeitsmodifikator": -2})["armor_class"]
    assert values["normal"] == values["flat"] == 10 + 2 - 2


def test_incorporeal_touch_ignores_cover_but_keeps_force_armor() -> None:
    """L66: körperlose Berührungsangriffe ignorieren Deckung; Krafteffekt-Rüstung gilt weiter."""
    params = {"armor": 4, "geschicklichkeitsmodifikator": 1, "deckung": 2, "force_armor": True}
    values = run("armor_class", params)["armor_class"]
    assert values["touch"] == 10 + 1 + 2
    assert values["incorporeal_touch"] == 10 + 1 + 4
    values = run("armor_class", dict(params, force_armor=False))["armor_class"]
    assert values["incorporeal_touch"] == 10 + 1


@pytest.mark.parametrize("attacker", [-10, 0, 5, 19, 50])
def test_armor_class_hit_chances_match_brute_force(attacker: int) -> None:
    """L8, L10: the attacker's hit chance against each RK variant."""
    result = run(
        "armor_class", {"armor": 8, "geschicklichkeitsmodifikator": 2, "attacker_bonus": attacker}
    )
    for key, ac in result["armor_class"].items():
        expected = chance([20], lambda f, ac=ac: ref_hit(f[0], attacker, ac))
        assert Fraction(result["chances"][f"hit_{key}"]) == expected


def test_armor_class_values_are_the_attacked_fighters_and_lead_to_the_attack() -> None:
    """L27: „Deine Rüstungsklasse (RK) zeigt an, wie schwer es für deine Gegner ist, dich … zu
    treffen“ – in a fight the RK belongs to the fighter being attacked: its parts are ``target``
    values, the attacker's bonus ``actor``, cover the situation. The result continues with the
    attack against this RK; the text leaves nothing open here, so nothing is assumed."""
    f = fields("armor_class")
    assert {n for n, x in f.items() if x.get("subject") == "target"} == {
        "armor",
        "schildbonus",
        "geschicklichkeitsmodifikator",
        "max_geschicklichkeitsbonus",
        "size",
        "natuerliche_ruestung",
        "ablenkungsbonus",
        "ausweichbonus",
        "force_armor",
        "other",
    }
    assert f["attacker_bonus"]["subject"] == "actor" and "subject" not in f["deckung"]
    r = run("armor_class", {"armor": 5, "geschicklichkeitsmodifikator": 2})
    assert r["follow_ups"] == [
        {"action": "attack", "title": "Angriff gegen RK 17", "params": {"armor_class": 17}}
    ]
    assert run("attack", r["follow_ups"][0]["params"])["armor_class"] == 17
    assert assumed(r) == []
    low = run(
        "armor_class",
        {"armor": 0, "geschicklichkeitsmodifikator": -5, "size": "kolossal", "other": -20},
    )
    assert low["armor_class"]["normal"] < 0 and low["follow_ups"] == []
