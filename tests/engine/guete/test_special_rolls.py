"""Güte-System: the further rolls – aufwachen … feuerschaden (declared in regeln/guete.yaml,
``art: wurf``)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from harness.brute import chance
from harness.support import assumed
from tests.engine.guete.helpers import annahme, d6, fields, run


@pytest.mark.parametrize("gw", [0, 4, 12, 30])
def test_aufwachen(gw: int) -> None:
    """002_51e59e824768e9e9.txt L47: 2W6 − GW(Widerstand) rounds; ≤ 0 → wide awake."""
    seed = 5
    r = run("aufwachen", {"gw_widerstand": gw}, seed)
    assert r["total"] == sum(d6(seed, 2)) - gw
    assert Fraction(r["chances"]["sofort hellwach"]) == chance([6, 6], lambda f: sum(f) - gw <= 0)
    assert Fraction(r["chances"]["expected"]) == 7 - gw


def test_entwaffnen_roll() -> None:
    """002_51e59e824768e9e9.txt L141: 1W6 − 3 metres."""
    r = run("entwaffnen", {}, 8)
    assert r["total"] == d6(8)[0] - 3
    assert r["chances"]["landet zu Füßen des Opfers"] == "1/2"


@pytest.mark.parametrize(("kg", "bonus"), [(1, 0), (49, 0), (50, 1), (260, 5), (2000, 40)])
def test_erdruecken(kg: int, bonus: int) -> None:
    """002_51e59e824768e9e9.txt L157: 2W6 + kg/50 (rounded down: Annahme)."""
    r = run("erdruecken", {"gewicht": kg}, 6)
    assert r["total"] == sum(d6(6, 2)) + bonus
    dist = {int(k): Fraction(v) for k, v in r["chances"]["exact"].items()}
    for value, p in dist.items():
        assert p == chance([6, 6], lambda f, v=value: sum(f) + bonus == v)


def test_sturzflug_roll_and_prey() -> None:
    """002_51e59e824768e9e9.txt L325–L327: 1W6 + bonus (max +5); dropped prey 1W6+2 KE."""
    r = run("sturzflug", {"hoehe": 10, "greifen": True}, 12)
    first, second = d6(12, 2)
    assert r["total"] == first + 2
    assert r["sturz"]["total"] == second + 2
    assert r["chances"]["expected_sturz"] == "11/2"
    assert Fraction(r["chances"]["expected"]) == Fraction(7, 2) + 2


def test_feuerschaden_roll() -> None:
    """002_51e59e824768e9e9.txt L187: 1W6+2 fire damage."""
    r = run("feuerschaden", {"feuerempfindlich": True}, 3)
    assert r["total"] == d6(3)[0] + 2 and "LE" in r["display"]["outcome"]


def test_erdruecken_names_the_rounding_only_with_a_remainder() -> None:
    """002_51e59e824768e9e9.txt L157: kg / 50 – rounding down is an Annahme, named (and shown)
    only when the weight leaves a remainder."""
    rule = annahme("aktionen.erdruecken.modifikatoren.0.rundung")
    r = run("erdruecken", {"gewicht": 210})
    assert assumed(r) == [rule]
    assert "(abgerundet)" in r["display"]["sections"][0]["items"][0]["modifiers"][0]["label"]
    assert assumed(run("erdruecken", {"gewicht": 200})) == []


def test_special_roll_hints() -> None:
    """Whose value: the sleeper's own GW Widerstand and the Bruta's own weight (actor), the
    fire sensitivity of the one set on fire (target); the Sturzflug's height is the roll's."""
    assert fields("aufwachen")["gw_widerstand"]["subject"] == "actor"
    assert fields("erdruecken")["gewicht"]["subject"] == "actor"
    assert fields("feuerschaden")["feuerempfindlich"]["subject"] == "target"
    assert "subject" not in fields("sturzflug")["hoehe"]
