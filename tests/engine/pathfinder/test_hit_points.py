"""Pathfinder Trefferpunkte nach Schaden (L69–L95, ``hit_points.py``)."""

from __future__ import annotations

import random
import re
from fractions import Fraction

import pytest

from engine.systems.pathfinder.hit_points import hp_state
from tests.engine.brute import chance
from tests.engine.pathfinder.helpers import run

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
    assert hp_state(hp, 12) == state
    result = run("hit_points", {"hp": 10, "constitution": 12, "damage": str(10 - hp)})
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
    result = run("hit_points", {"hp": hp, "constitution": con, "damage": damage})
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
