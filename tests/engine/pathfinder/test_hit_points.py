"""Pathfinder Trefferpunkte nach Schaden (L69–L95, ``hit_points.py``)."""

from __future__ import annotations

import random
import re
from fractions import Fraction

import pytest

from harness.brute import chance
from harness.support import assumed
from regeln.pathfinder.hit_points import hp_state
from tests.engine.pathfinder.helpers import annahme, fields, run

# ---------------------------------------------------------------------------------------------
# Hit points (L93–L95)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hp", "state"),
    [(5, "bei_kraeften"), (1, "bei_kraeften"), (0, "kampfunfaehig"), (-1, "sterbend"),
     (-11, "sterbend"), (-12, "tot"), (-20, "tot")],
)  # fmt: skip
def test_hit_point_states(hp: int, state: str) -> None:
    """L95: 0 kampfunfähig, „auf – 1“ sterbend, negativer Konstitutionswert tot (darunter:
    Annahme trefferpunkte.tot_darunter)."""
    assert hp_state(hp, 12)["id"] == state
    result = run("hit_points", {"hp": 10, "konstitution": 12, "damage": str(10 - hp)})
    assert result["hp_after"] == hp
    assert result["state"] == state


def test_hit_points_damage_roll_and_minimum() -> None:
    """L74: Schaden reduziert die Trefferpunkte; L76: unter 1 wird 1 nichttödlich (Annahme:
    senkt die TP nicht)."""
    rng = random.Random(4)
    face = rng.randint(1, 6)
    result = run("hit_points", {"hp": 8, "damage": "1W6+2"}, 4)
    assert result["hp_after"] == 8 - face - 2
    low = run("hit_points", {"hp": 8, "damage": "1W4-6"}, 4)
    assert low["lethal"] == 0
    assert low["nonlethal"] == 1
    assert low["hp_after"] == 8
    assert Fraction(low["chances"]["minimum"]) == 1


@pytest.mark.parametrize(
    ("hp", "con", "damage"), [(3, 10, "2W6"), (0, 3, "1W4+1"), (-2, 5, "1W6-2")]
)
def test_hit_point_chances_match_brute_force(hp: int, con: int, damage: str) -> None:
    """L95 thresholds over every face of the damage dice."""
    result = run("hit_points", {"hp": hp, "konstitution": con, "damage": damage})
    count, rest = damage.split("W")
    sides = int(re.match(r"\d+", rest).group())  # type: ignore[union-attr]
    const = int(rest[len(str(sides)) :] or 0)

    def state(f: tuple[int, ...]) -> str:
        amount = sum(f) + const
        after = hp - (amount if amount >= 1 else 0)
        if after <= -con:
            return "tot"
        if after <= -1:
            return "sterbend"
        return "kampfunfaehig" if after == 0 else "bei_kraeften"

    for key in ("bei_kraeften", "kampfunfaehig", "sterbend", "tot"):
        expected = chance([sides] * int(count), lambda f, key=key: state(f) == key)
        assert Fraction(result["chances"][key]) == expected, key


def test_hit_points_are_the_targets_and_the_result_updates_them() -> None:
    """L74: „Schaden reduziert die aktuellen Trefferpunkte des Ziels“ – hit points and
    Konstitutionswert are the target's, the hit points a resource; ``target_update`` gives the
    new value, which the next hit starts from."""
    f = fields("hit_points")
    assert f["hp"]["subject"] == "target" and f["hp"]["resource"] is True
    assert f["konstitution"]["subject"] == "target" and "resource" not in f["konstitution"]
    assert "subject" not in f["damage"]
    # the damage of this one hit (the attack's follow-up brings the rolled total): cleared after
    # the roll and not put back on a reload – before, the helper showed the last hit's „11“
    # instead of the weapon („1W8+2“, issue 26 B8)
    assert f["damage"]["per_roll"] is True
    assert [n for n, x in f.items() if x.get("per_roll")] == ["damage"]
    r = run("hit_points", {"hp": 20, "konstitution": 12, "damage": "7"})
    assert r["target_update"] == {"hp": 13}
    again = run("hit_points", {"konstitution": 12, "damage": "7", **r["target_update"]})
    assert again["target_update"] == {"hp": 6}


def test_hit_points_name_only_the_assumptions_the_hit_rests_on() -> None:
    """L95 names only the limits (tot at −KO: below it an Annahme); L76 the minimum damage,
    whose effect on the hit points is an Annahme."""
    assert assumed(run("hit_points", {"hp": 20, "konstitution": 12, "damage": "7"})) == []
    assert assumed(run("hit_points", {"hp": 2, "konstitution": 12, "damage": "14"})) == []
    below = run("hit_points", {"hp": 2, "konstitution": 12, "damage": "15"})
    assert below["state"] == "tot"
    assert assumed(below) == [annahme("trefferpunkte.tot_darunter")]
    minimum = run("hit_points", {"hp": 20, "konstitution": 12, "damage": "0"})
    assert minimum["hp_after"] == 20
    assert assumed(minimum) == [annahme("trefferpunkte.nichttoedlich")]


@pytest.mark.parametrize(
    ("hp", "zustand", "text", "rule"),
    [(20, "kampffähig", "über 0 Trefferpunkte", "Trefferpunkte > 0: über 0 Trefferpunkte"),
     (7, "kampfunfähig", "kampfunfähig", "Trefferpunkte ≤ 0: kampfunfähig"),
     (6, "kampfunfähig", "sterbend", "Trefferpunkte ≤ −1: sterbend"),
     (-5, "tot", "tot", "Trefferpunkte ≤ −Konstitutionswert: tot")],
)  # fmt: skip
def test_hit_points_say_whether_the_target_can_still_act(
    hp: int, zustand: str, text: str, rule: str
) -> None:
    """L95: at 0 TP „kampfunfähig“, from −1 „sterbend“, at the negative Konstitutionswert „tot“
    – ``target_state`` names it in the fight's one vocabulary (engine.fight_state) with the rule
    of the fight contract that decided it: the Kampfhelfer page passes over a fighter who
    cannot act. 7 damage, Konstitution 12 (−12 tot)."""
    r = run("hit_points", {"hp": hp, "konstitution": 12, "damage": "7"})
    assert r["target_state"] == {
        "zustand": zustand,
        "text": text,
        "id": r["state"],
        "rule": rule,
        "missing": [],
    }
