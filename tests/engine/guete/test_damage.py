"""Güte-System: damage, the loss per resource and each option's effects (``damage.py``)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from harness.brute import chance, expectation
from harness.support import assumed
from tests.engine.guete.helpers import annahme, d6, error, run

# --- option effects ---------------------------------------------------------------------------


def test_gedaempft_half_to_ke_or_aus() -> None:
    """002_51e59e824768e9e9.txt L203–L205: failed defense → half (rounded down) to KE; half
    defense → Ausdauer loses the damage, no KE."""
    seed = 3
    damage = d6(seed)[0] + 2
    r = run("attack", {"option": "gedaempft"}, seed)
    assert r["verlust"] == {"LE": 0, "KE": damage // 2, "AUS": 0}
    assert Fraction(r["chances"]["expected"]["KE"]) == expectation([6], lambda f: (f[0] + 2) // 2)
    r = run("attack", {"option": "gedaempft", "abwehr_gelungen": True, "abwehr_guete": 1}, seed)
    assert r["verlust"] == {"LE": 0, "KE": 0, "AUS": damage}


def test_betaeuben_always_ke_and_rounds() -> None:
    """002_51e59e824768e9e9.txt L127: damage always to KE unless fully defended; failed
    defense → FP(Widerstand), 1 round (one-handed) / 2 (two-handed), +1 for hammers etc."""
    r = run("attack", {"option": "betaeuben", "waffenart": "hammer", "waffe_zweihaendig": True})
    assert r["verlust"]["LE"] == 0 and r["verlust"]["KE"] > 0
    assert "3 Runden" in r["wirkungen"][0]
    r = run("attack", {"option": "betaeuben"})
    assert "1 Runde benommen" in r["wirkungen"][0]


def test_feuerangriff_extra_fire_damage() -> None:
    """002_51e59e824768e9e9.txt L187–L191: club damage plus 1W6+2 fire; always KE, fire as
    LE against feuerempfindliche Wesen."""
    seed = 9
    weapon, fire = d6(seed, 2)
    r = run("attack", {"option": "feuerangriff", "damage": "1W6"}, seed)
    assert r["verlust"] == {"LE": 0, "KE": weapon + fire + 2, "AUS": 0}
    r = run("attack", {"option": "feuerangriff", "damage": "1W6", "feuerempfindlich": True}, seed)
    assert r["verlust"] == {"LE": fire + 2, "KE": weapon, "AUS": 0}
    assert r["chances"]["expected"] == {"LE": "11/2", "KE": "7/2", "AUS": "0"}


def test_entwaffnen_distance_and_direction() -> None:
    """002_51e59e824768e9e9.txt L137–L143: at most half defense → disarmed, no damage, the
    weapon flies 1W6−3 m (≤ 0: at the victim's feet); double Güte → attacker chooses."""
    seed = 2
    r = run(
        "attack",
        {"option": "entwaffnen", "angriff_guete": 3, "abwehr_gelungen": True, "abwehr_guete": 2},
        seed,
    )
    assert r["rolls"][0]["total"] == d6(seed)[0] - 3
    assert r["verlust"] == {"LE": 0, "KE": 0, "AUS": 0}
    assert any("Spielleiter" in e for e in r["wirkungen"])
    feet = sum(Fraction(p) for v, p in r["chances"]["damage"].items() if int(v) <= 0)
    assert feet == chance([6], lambda f: f[0] - 3 <= 0) == Fraction(1, 2)
    r = run(
        "attack",
        {"option": "entwaffnen", "angriff_guete": 4, "abwehr_gelungen": True, "abwehr_guete": 2},
    )
    assert any("Angreifer bestimmt" in e for e in r["wirkungen"])
    r = run(
        "attack",
        {"option": "entwaffnen", "angriff_guete": 1, "abwehr_gelungen": True, "abwehr_guete": 2},
    )
    assert r["rolls"] == [] and "behält" in r["wirkungen"][0]


def test_zu_fall_one_and_two_handed() -> None:
    """002_51e59e824768e9e9.txt L335–L341: failed defense falls; a half defense suffices
    against one-handed, not against two-handed weapons; never damage."""
    half = {"option": "zu_fall", "abwehr_gelungen": True, "abwehr_guete": 1}
    assert "bleibt" in run("attack", half)["wirkungen"][0]
    assert "stürzt" in run("attack", {**half, "waffe_zweihaendig": True})["wirkungen"][0]
    assert "stürzt" in run("attack", {"option": "zu_fall"})["wirkungen"][0]


def test_festhalten_only_on_failed_defense() -> None:
    """002_51e59e824768e9e9.txt L171–L173: never damage; failed defense → held (Abwehr +2)."""
    base = {"option": "festhalten", "waffenart": "faustkampf"}
    r = run("attack", base)
    assert "Gegriffen" in r["wirkungen"][0] and r["verlust"]["LE"] == 0
    r = run("attack", {**base, "abwehr_gelungen": True, "abwehr_guete": 0})
    assert "Nicht festgehalten" in r["wirkungen"][0]


@pytest.mark.parametrize(("height", "bonus"), [(5, 0), (6, 0), (7, 1), (14, 4), (15, 5), (200, 5)])
def test_sturzflug_damage_in_attack(height: int, bonus: int) -> None:
    """002_51e59e824768e9e9.txt L325: 1W6 + 1 per 2 full metres above 5 m, max 1W6+5."""
    seed = 11
    r = run(
        "attack",
        {
            "option": "sturzflug",
            "waffenart": "natuerlich",
            "sturzflug_hoehe": height,
            "damage": "3W10",
        },
        seed,
    )
    assert r["rolls"][0]["notation"] == ("1W6" if bonus == 0 else f"1W6+{bonus}")
    assert r["verlust"]["LE"] == d6(seed)[0] + bonus


def test_zweihaendige_hiebe_damage() -> None:
    """002_51e59e824768e9e9.txt L363: +2 damage per +1 Erschwernis, up to +6 / +3."""
    r = run("attack", {"option": "zweihaendige_hiebe", "hiebe_stufen": 3, "damage": "1W6"})
    assert r["rolls"][0]["notation"] == "1W6+6"
    assert error("attack", {"option": "zweihaendige_hiebe", "hiebe_stufen": 4})["field"] == (
        "hiebe_stufen"
    )


@pytest.mark.parametrize("notation", ["1W6", "2W6+3", "1W10-2", "3W6", "1W20+1W4", "10W2", "10W20"])
@pytest.mark.parametrize("option", ["keine", "gedaempft", "feuerangriff", "gezielt"])
def test_damage_chances_brute_force(notation: str, option: str) -> None:
    """002_51e59e824768e9e9.txt L21–L23, L187, L203: the reported damage distribution and the
    expected losses equal the brute-force enumeration of all dice."""
    from engine import dice

    expression = dice.parse(notation)
    sides = [t.sides for t in expression.terms for _ in range(t.count)]
    signs = [t.sign for t in expression.terms for _ in range(t.count)]
    if math.prod(sides) > 5000:  # 10W20: too many outcomes to enumerate here
        sides, signs = sides[:0], signs[:0]
    params = {"damage": notation, "option": option, "gezielt_zweiter_wurf": True}
    r = run("attack", params)
    if not sides:
        assert sum(Fraction(p) for p in r["chances"]["damage"].values()) == 1
        return

    def total(faces: tuple[int, ...]) -> int:
        return expression.constant + sum(
            s * f for s, f in zip(signs, faces[: len(signs)], strict=True)
        )

    for value, p in r["chances"]["damage"].items():
        assert Fraction(p) == chance(sides, lambda f, v=int(value): total(f) == v)
    full = sides + ([6] if option == "feuerangriff" else [])

    def le(f: tuple[int, ...]) -> int:
        return 0 if option in ("gedaempft", "feuerangriff") else max(0, total(f))

    def ke(f: tuple[int, ...]) -> int:
        d = max(0, total(f))
        if option == "gedaempft":
            return d // 2
        if option == "feuerangriff":
            return d + f[-1] + 2
        return 2 * d if option == "gezielt" else 0

    assert Fraction(r["chances"]["expected"]["LE"]) == expectation(full, le)
    assert Fraction(r["chances"]["expected"]["KE"]) == expectation(full, ke)


def test_entwaffnen_names_which_guete_counts() -> None:
    """002_51e59e824768e9e9.txt L143: which Güte of the target is meant is an Annahme, named
    when the target is disarmed; not when it fully defends (L139)."""
    rule = annahme("angriff.entwaffnen_guete_ziel")
    disarmed = {"option": "entwaffnen", "abwehr_gelungen": True, "abwehr_guete": 2}
    assert rule in assumed(run("attack", disarmed))
    escaped = {"option": "entwaffnen", "abwehr_gelungen": True, "abwehr_guete": 5}
    assert rule not in assumed(run("attack", escaped))


def test_armour_assumption_only_with_damage() -> None:
    """L187, L319: the armour rules are missing; the Annahme is named when damage is rolled,
    not for an option without damage (L341) or a full defense (L27)."""
    rule = annahme("angriff.ruestung")
    assert rule in assumed(run("attack", {}))
    assert rule not in assumed(run("attack", {"option": "zu_fall"}))
    assert rule not in assumed(run("attack", {"abwehr_gelungen": True, "abwehr_guete": 9}))
