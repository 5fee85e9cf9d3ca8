"""Plain dice rolls behind the clickable dice expressions (e.g. 000 L238 "1W6+1")."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine import api, dice
from engine.systems.allgemein.wurf import combined
from harness.brute import chance


@pytest.mark.parametrize("notation", ["1W6+1", "2W6", "W10", "1W20", "2W10", "1W12+1W4-1"])
@pytest.mark.parametrize("mode", ["normal", "vorteil", "nachteil"])
def test_distribution_with_vorteil_and_nachteil_equals_brute_force(
    notation: str, mode: str
) -> None:
    """Vorteil/Nachteil: roll twice, keep the better/worse (Ryssea "Würfelsystem & Proben")."""
    expression = dice.parse(notation)
    sides = [t.sides for t in expression.terms for _ in range(t.count)]
    signs = [t.sign for t in expression.terms for _ in range(t.count)]

    def total(faces: tuple[int, ...]) -> int:
        return sum(s * f for s, f in zip(signs, faces, strict=True)) + expression.constant

    n = len(sides)
    pick = max if mode == "vorteil" else min
    exact = combined(expression, mode)
    for value, p in exact.items():
        if mode == "normal":
            assert p == chance(sides, lambda f, v=value: total(f) == v)
        else:
            assert p == chance(sides * 2, lambda f, v=value: pick(total(f[:n]), total(f[n:])) == v)
    assert sum(exact.values()) == 1


def test_roll_reports_every_die_and_the_kept_total() -> None:
    answer = api.run("allgemein", "wurf", {"notation": "2W6+1", "mode": "vorteil"}, 3)
    result = answer["result"]
    totals = [r["total"] for r in result["rolls"]]
    assert result["total"] == max(totals)
    rolls = next(s for s in result["display"]["sections"] if s["kind"] == "rolls")["items"]
    assert [len(r["dice"]) for r in rolls] == [2, 2]
    assert rolls[0]["modifiers"] == [{"label": "Zuschlag", "value": "+1"}]
    assert (
        Fraction(result["chances"]["exact"])
        == combined(dice.parse("2W6+1"), "vorteil")[result["total"]]
    )


def test_bad_notation_is_a_german_error_at_the_field() -> None:
    answer = api.run("allgemein", "wurf", {"notation": "2W0"}, 1)
    assert answer["error"]["field"] == "notation"
    assert answer["error"]["message"].startswith("Würfelausdruck")
