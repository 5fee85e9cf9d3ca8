"""Güte-System (source 002_51e59e824768e9e9.txt, „Kampfregeln - Nahkampf“).

The text defines no FP roll, so the probes are inputs; the tests check the resolution (who
hits, which defence, which resource loses), every modifier from the sections, the dice the
text does define, and every reported probability against brute-force enumeration.
"""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from typing import Any

import pytest

from engine import api
from engine.data_files import load
from tests.engine.brute import chance, expectation

SRC = "002_51e59e824768e9e9.txt"


def run(action: str, params: dict[str, Any], seed: int = 1) -> dict[str, Any]:
    out = api.run("guete", action, params, seed)
    assert out["ok"], out.get("error")
    json.loads(json.dumps(out))  # JSON round trip
    result: dict[str, Any] = out["result"]
    assert result["display"]["headline"]
    return result


def error(action: str, params: dict[str, Any]) -> dict[str, str]:
    out = api.run("guete", action, params, 1)
    assert not out["ok"]
    err: dict[str, str] = out["error"]
    return err


def d6(seed: int, count: int = 1) -> list[int]:
    rng = random.Random(seed)
    return [rng.randint(1, 6) for _ in range(count)]


# --- resolution -------------------------------------------------------------------------------


def test_direct_confrontation_higher_guete_hits() -> None:
    """002_51e59e824768e9e9.txt L11–L13: both roll, the higher Güte hits its opponent."""
    r = run("attack", {"konfrontation": True, "angriff_guete": 5, "gegner_guete": 3})
    assert r["treffer"] == "angreifer"
    r = run("attack", {"konfrontation": True, "angriff_guete": 2, "gegner_guete": 3})
    assert r["treffer"] == "gegner"
    assert r["display"]["headline"] == "Ziel trifft Angreifer"


def test_direct_confrontation_equal_guete_no_damage() -> None:
    """002_51e59e824768e9e9.txt L15: identical Güten – the weapons glance off, no damage."""
    r = run("attack", {"konfrontation": True, "angriff_guete": 4, "gegner_guete": 4})
    assert r["treffer"] == "" and r["ergebnis"] == "kein_treffer"
    assert r["verlust"] == {"LE": 0, "KE": 0, "AUS": 0} and r["wuerfe"] == []


def test_confrontation_one_failure_assumption() -> None:
    """002_51e59e824768e9e9.txt L11–L15 (Annahme angriff.konfrontation_fehlschlag)."""
    r = run("attack", {"konfrontation": True, "angriff_gelungen": False, "gegner_guete": -3})
    assert r["treffer"] == "gegner"
    r = run("attack", {"konfrontation": True, "angriff_gelungen": False, "gegner_gelungen": False})
    assert r["treffer"] == ""


def test_without_confrontation_success_hits() -> None:
    """002_51e59e824768e9e9.txt L17: without confrontation only success or failure counts."""
    assert run("attack", {"angriff_gelungen": False})["ergebnis"] == "kein_treffer"
    assert run("attack", {"angriff_guete": -2})["treffer"] == "angreifer"


@pytest.mark.parametrize(
    ("ok", "guete", "defence", "resource"),
    [(False, 0, "misslungen", "LE"), (True, 3, "halb", "KE"), (True, 4, "vollstaendig", None)],
)
def test_defence_outcomes(ok: bool, guete: int, defence: str, resource: str | None) -> None:
    """002_51e59e824768e9e9.txt L19–L29: failed Abwehr → full damage to LE; success with
    Güte ≤ attacker's → KE (halbe Verteidigung); higher → no damage (vollständige)."""
    seed = 7
    r = run(
        "attack",
        {"angriff_guete": 3, "abwehr_gelungen": ok, "abwehr_guete": guete, "schaden": "1W6+2"},
        seed,
    )
    assert r["abwehr"] == defence
    if resource is None:
        assert r["wuerfe"] == [] and r["verlust"] == {"LE": 0, "KE": 0, "AUS": 0}
    else:
        damage = d6(seed)[0] + 2
        assert r["wuerfe"][0]["total"] == damage
        assert r["verlust"][resource] == damage
        assert r["chances"]["erwartung"][resource] == "11/2"


def test_wehrlos_no_defence_and_easier_attack() -> None:
    """002_51e59e824768e9e9.txt L103: a defenceless target – attack −2, no defence (Annahme:
    counts as a failed Abwehr, damage to LE)."""
    r = run("attack", {"wehrlos": True, "abwehr_gelungen": True, "abwehr_guete": 10})
    assert r["abwehr"] == "misslungen" and r["verlust"]["LE"] > 0
    assert r["erschwernis_angriff"] == -2


def test_parade_guete_plus_five() -> None:
    """002_51e59e824768e9e9.txt L269–L273: Parade = Güte + 5; the attacker must beat it, the
    defender then defends against the difference."""
    r = run(
        "attack",
        {
            "parade": True,
            "parade_guete": 1,
            "angriff_guete": 9,
            "abwehr_gelungen": True,
            "abwehr_guete": 3,
        },
    )
    assert r["parade"] == {"guete": 6, "nutzbar": True, "abgefangen": False}
    assert r["effektive_guete"] == 3 and r["abwehr"] == "halb"
    r = run("attack", {"parade": True, "parade_guete": 1, "angriff_guete": 6})
    assert r["ergebnis"] == "pariert" and r["verlust"]["KE"] == 0


def test_parade_negative_fails_and_gesichtsfeld() -> None:
    """002_51e59e824768e9e9.txt L271, L275: a final Güte below 0 fails (≥ 0 still works); a
    Parade does not work against attacks from the Gesichtsfeld."""
    r = run("attack", {"parade": True, "parade_guete": -5, "angriff_guete": 0})
    assert r["parade"]["guete"] == 0 and r["ergebnis"] == "pariert"
    r = run("attack", {"parade": True, "parade_guete": -6, "angriff_guete": 0})
    assert r["parade"]["nutzbar"] is False and r["ergebnis"] == "treffer"
    r = run("attack", {"parade": True, "parade_guete": 9, "gesichtsfeld": True})
    assert r["parade"]["nutzbar"] is False and r["ergebnis"] == "treffer"


# --- modifiers --------------------------------------------------------------------------------


SITUATION_CASES = [
    ({"falsche_hand": True}, 2, 0, "L37"),
    ({"gesichtsfeld": True}, 0, 1, "L43"),
    ({"aufwachen": True}, 0, 2, "L47"),
    ({"ecke": True}, 0, 2, "L53"),
    ({"uebermacht": True}, -1, 0, "L55"),
    ({"angreifer_kniend": True}, 1, 0, "L61"),
    ({"angreifer_kniend": True, "waffe_zweihaendig": True}, 2, 0, "L61"),
    ({"ziel_kniend": True}, 0, 1, "L61"),
    ({"angreifer_liegend": True}, 2, 0, "L63"),
    ({"ziel_liegend": True}, 0, 2, "L63"),
    ({"sicht": "daemmerlicht"}, 1, 1, "L71"),
    ({"sicht": "dunkelheit"}, 2, 2, "L73"),
    ({"regen_nebel": True}, 1, 1, "L75"),
    ({"ueberrascht": True}, 0, 1, "L89"),
    ({"unsichtbares_ziel": True}, 2, 0, "L95"),
    ({"unsichtbarer_angreifer": True}, 0, 2, "L97"),
    ({"wehrlos": True}, -2, 0, "L103"),
    ({"ziel_zweihaendig": True}, 0, 1, "L113"),
]


@pytest.mark.parametrize(("params", "attack_mod", "defence_mod", "line"), SITUATION_CASES)
def test_situation_modifiers(
    params: dict[str, Any], attack_mod: int, defence_mod: int, line: str
) -> None:
    """002_51e59e824768e9e9.txt L35–L113: every situation's Erschwernis (+) by name."""
    r = run("attack", params)
    assert r["erschwernis_angriff"] == attack_mod
    assert r["erschwernis_abwehr"] == defence_mod
    assert all(m["zeile"].startswith(line) for m in r["modifikatoren"])


OPTION_CASES = [
    ({"option": "betaeuben"}, 2, "L125"),
    ({"option": "betaeuben", "waffenart": "hammer"}, 1, "L125"),
    ({"option": "betaeuben", "waffenart": "stab"}, 1, "L125"),
    ({"option": "entwaffnen"}, 1, "L135"),
    ({"option": "festhalten", "waffenart": "faustkampf"}, 1, "L171"),
    ({"option": "feuerangriff"}, 1, "L185"),
    ({"option": "gedaempft"}, -1, "L201"),
    ({"option": "gezielt"}, 1, "L215"),
    ({"option": "improvisiert"}, 1, "L243"),
    ({"option": "zwei_waffen"}, 1, "L253"),
    ({"option": "rundumschlag", "waffe_zweihaendig": True}, 1, "L287"),
    ({"option": "stachelwirbel", "waffenart": "natuerlich"}, 2, "L317"),
    ({"option": "sturzflug", "waffenart": "natuerlich"}, 0, "L325"),
    ({"option": "sturzflug", "waffenart": "natuerlich", "sturzflug_greifen": True}, 1, "L327"),
    ({"option": "zu_fall"}, 1, "L333"),
    ({"option": "zurueckdraengen"}, 1, "L349"),
    ({"option": "zweihaendige_hiebe", "hiebe_stufen": 1}, 1, "L363"),
    ({"option": "zweihaendige_hiebe", "hiebe_stufen": 3}, 3, "L363"),
]


@pytest.mark.parametrize(("params", "attack_mod", "line"), OPTION_CASES)
def test_option_modifiers(params: dict[str, Any], attack_mod: int, line: str) -> None:
    """002_51e59e824768e9e9.txt L123–L367: each option's Erschwernis on the attack FP."""
    r = run("attack", params)
    assert r["erschwernis_angriff"] == attack_mod, line


def test_modifiers_stack_at_their_limits() -> None:
    """002_51e59e824768e9e9.txt L61, L73, L75, L363: all modifiers add up, each by name."""
    r = run(
        "attack",
        {
            "angreifer_kniend": True,
            "sicht": "dunkelheit",
            "regen_nebel": True,
            "option": "feuerangriff",
            "ziel_liegend": True,
            "ueberrascht": True,
            "unsichtbarer_angreifer": True,
            "gesichtsfeld": True,
            "ecke": True,
            "aufwachen": True,
            "ziel_zweihaendig": True,
        },
    )
    assert r["erschwernis_angriff"] == 1 + 2 + 1 + 1
    # Dunkelheit 2, Regen 1, liegend 2, überrascht 1, Unsichtbarer 2, Gesichtsfeld 1,
    # Ecke 2, Aufwachen 2, zweihändig 1
    assert r["erschwernis_abwehr"] == 14
    names = {m["name"] for m in r["modifikatoren"]}
    assert {"Vollständige Dunkelheit", "Feuerangriff", "Kniend (Angreifer)"} <= names


def test_zurueckdraengen_dangerous_field_eases_defence() -> None:
    """002_51e59e824768e9e9.txt L353: dangerous field behind → Abwehr −1; L355: pushed back
    only on a failed defence, never damage."""
    r = run("attack", {"option": "zurueckdraengen", "gefaehrliches_feld": True})
    assert r["erschwernis_abwehr"] == -1 and r["verlust"]["LE"] == 0
    assert "zurück" in r["wirkungen"][0]


def test_gezielt_second_roll_modifier() -> None:
    """002_51e59e824768e9e9.txt L223–L231: second roll limbs +2, torso +3; success → double
    damage to KE in addition."""
    seed = 4
    r = run(
        "attack", {"option": "gezielt", "gezielt_ziel": "torso", "gezielt_zweiter_wurf": True}, seed
    )
    second = [m for m in r["modifikatoren"] if m["probe"] == "Zweiter Angriffswurf"]
    assert second[0]["wert"] == 3
    damage = d6(seed)[0] + 2
    assert r["verlust"] == {"LE": damage, "KE": 2 * damage, "AUS": 0}
    assert Fraction(r["chances"]["erwartung"]["KE"]) == 11


# --- option effects ---------------------------------------------------------------------------


def test_gedaempft_half_to_ke_or_aus() -> None:
    """002_51e59e824768e9e9.txt L203–L205: failed defence → half (rounded down) to KE; half
    defence → Ausdauer loses the damage, no KE."""
    seed = 3
    damage = d6(seed)[0] + 2
    r = run("attack", {"option": "gedaempft"}, seed)
    assert r["verlust"] == {"LE": 0, "KE": damage // 2, "AUS": 0}
    assert Fraction(r["chances"]["erwartung"]["KE"]) == expectation([6], lambda f: (f[0] + 2) // 2)
    r = run("attack", {"option": "gedaempft", "abwehr_gelungen": True, "abwehr_guete": 1}, seed)
    assert r["verlust"] == {"LE": 0, "KE": 0, "AUS": damage}


def test_betaeuben_always_ke_and_rounds() -> None:
    """002_51e59e824768e9e9.txt L127: damage always to KE unless fully defended; failed
    defence → FP(Widerstand), 1 round (one-handed) / 2 (two-handed), +1 for hammers etc."""
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
    r = run("attack", {"option": "feuerangriff", "schaden": "1W6"}, seed)
    assert r["verlust"] == {"LE": 0, "KE": weapon + fire + 2, "AUS": 0}
    r = run("attack", {"option": "feuerangriff", "schaden": "1W6", "feuerempfindlich": True}, seed)
    assert r["verlust"] == {"LE": fire + 2, "KE": weapon, "AUS": 0}
    assert r["chances"]["erwartung"] == {"LE": "11/2", "KE": "7/2", "AUS": "0"}


def test_entwaffnen_distance_and_direction() -> None:
    """002_51e59e824768e9e9.txt L137–L143: at most half defence → disarmed, no damage, the
    weapon flies 1W6−3 m (≤ 0: at the victim's feet); double Güte → attacker chooses."""
    seed = 2
    r = run(
        "attack",
        {"option": "entwaffnen", "angriff_guete": 3, "abwehr_gelungen": True, "abwehr_guete": 2},
        seed,
    )
    assert r["wuerfe"][0]["total"] == d6(seed)[0] - 3
    assert r["verlust"] == {"LE": 0, "KE": 0, "AUS": 0}
    assert any("Spielleiter" in e for e in r["wirkungen"])
    feet = sum(Fraction(p) for v, p in r["chances"]["schaden"].items() if int(v) <= 0)
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
    assert r["wuerfe"] == [] and "behält" in r["wirkungen"][0]


def test_zu_fall_one_and_two_handed() -> None:
    """002_51e59e824768e9e9.txt L335–L341: failed defence falls; a half defence suffices
    against one-handed, not against two-handed weapons; never damage."""
    half = {"option": "zu_fall", "abwehr_gelungen": True, "abwehr_guete": 1}
    assert "bleibt" in run("attack", half)["wirkungen"][0]
    assert "stürzt" in run("attack", {**half, "waffe_zweihaendig": True})["wirkungen"][0]
    assert "stürzt" in run("attack", {"option": "zu_fall"})["wirkungen"][0]


def test_festhalten_only_on_failed_defence() -> None:
    """002_51e59e824768e9e9.txt L171–L173: never damage; failed defence → held (Abwehr +2)."""
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
            "schaden": "3W10",
        },
        seed,
    )
    assert r["wuerfe"][0]["notation"] == ("1W6" if bonus == 0 else f"1W6+{bonus}")
    assert r["verlust"]["LE"] == d6(seed)[0] + bonus


def test_zweihaendige_hiebe_damage() -> None:
    """002_51e59e824768e9e9.txt L363: +2 damage per +1 Erschwernis, up to +6 / +3."""
    r = run("attack", {"option": "zweihaendige_hiebe", "hiebe_stufen": 3, "schaden": "1W6"})
    assert r["wuerfe"][0]["notation"] == "1W6+6"
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
    params = {"schaden": notation, "option": option, "gezielt_zweiter_wurf": True}
    r = run("attack", params)
    if not sides:
        assert sum(Fraction(p) for p in r["chances"]["schaden"].values()) == 1
        return

    def total(faces: tuple[int, ...]) -> int:
        return expression.constant + sum(
            s * f for s, f in zip(signs, faces[: len(signs)], strict=True)
        )

    for value, p in r["chances"]["schaden"].items():
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

    assert Fraction(r["chances"]["erwartung"]["LE"]) == expectation(full, le)
    assert Fraction(r["chances"]["erwartung"]["KE"]) == expectation(full, ke)


# --- initiative, fumble, other rolls -------------------------------------------------------


def test_initiative_orders_inputs_and_says_no_rule() -> None:
    """002_51e59e824768e9e9.txt L89: the Initiativwurf has no rule in the text; ambushers win
    the first round; ties keep the input order (Annahme)."""
    r = run(
        "initiative",
        {
            "fighters": [
                {"name": "A", "wert": 5},
                {"name": "B", "wert": 7},
                {"name": "C", "wert": 5},
                {"name": "D", "wert": 1, "hinterhalt": True},
            ]
        },
    )
    assert [o["name"] for o in r["order"]] == ["D", "B", "A", "C"]
    assert r["ties"] == [["A", "C"]]
    notes = json.dumps(r["display"], ensure_ascii=False)
    assert "enthält aber keine Regel" in notes
    r = run(
        "initiative",
        {
            "fighters": [{"name": "A", "wert": 5}, {"name": "D", "wert": 1, "hinterhalt": True}],
            "erste_runde": False,
        },
    )
    assert [o["name"] for o in r["order"]] == ["A", "D"]


def test_initiative_surprised_cannot_act() -> None:
    """002_51e59e824768e9e9.txt L89: the surprised take no actions in the first round."""
    r = run(
        "initiative",
        {"fighters": [{"name": "A", "wert": 5, "ueberrascht": True}, {"name": "B", "wert": 3}]},
    )
    assert r["order"][0]["handelt_in_runde_1"] is False
    err = error("initiative", {"fighters": [{"name": "A"}, {"name": "a"}]})
    assert err["field"] == "fighters.1.name" and "Name" in err["message"]


def test_fumble_has_no_rule() -> None:
    """002_51e59e824768e9e9.txt L229, L289: „besondere Würfelergebnisse“ are referenced, the
    chapter is missing – the action says so and invents no table."""
    r = run("fumble", {})
    assert r["regel"] is None and "keine Regel" in r["erklaerung"]


@pytest.mark.parametrize("gw", [0, 4, 12, 30])
def test_aufwachen(gw: int) -> None:
    """002_51e59e824768e9e9.txt L47: 2W6 − GW(Widerstand) rounds; ≤ 0 → wide awake."""
    seed = 5
    r = run("aufwachen", {"gw_widerstand": gw}, seed)
    assert r["ergebnis"] == sum(d6(seed, 2)) - gw
    assert Fraction(r["chances"]["sofort hellwach"]) == chance([6, 6], lambda f: sum(f) - gw <= 0)
    assert Fraction(r["chances"]["erwartung"]) == 7 - gw


def test_entwaffnen_roll() -> None:
    """002_51e59e824768e9e9.txt L141: 1W6 − 3 metres."""
    r = run("entwaffnen", {}, 8)
    assert r["ergebnis"] == d6(8)[0] - 3
    assert r["chances"]["landet zu Füßen des Opfers"] == "1/2"


@pytest.mark.parametrize(("kg", "bonus"), [(1, 0), (49, 0), (50, 1), (260, 5), (2000, 40)])
def test_erdruecken(kg: int, bonus: int) -> None:
    """002_51e59e824768e9e9.txt L157: 2W6 + kg/50 (rounded down: Annahme)."""
    r = run("erdruecken", {"gewicht": kg}, 6)
    assert r["ergebnis"] == sum(d6(6, 2)) + bonus
    dist = {int(k): Fraction(v) for k, v in r["chances"]["verteilung"].items()}
    for value, p in dist.items():
        assert p == chance([6, 6], lambda f, v=value: sum(f) + bonus == v)


def test_sturzflug_roll_and_prey() -> None:
    """002_51e59e824768e9e9.txt L325–L327: 1W6 + bonus (max +5); dropped prey 1W6+2 KE."""
    r = run("sturzflug", {"hoehe": 10, "greifen": True}, 12)
    first, second = d6(12, 2)
    assert r["ergebnis"] == first + 2
    assert r["sturz"]["total"] == second + 2
    assert r["chances"]["sturz_erwartung"] == "11/2"
    assert Fraction(r["chances"]["erwartung"]) == Fraction(7, 2) + 2


def test_feuerschaden_roll() -> None:
    """002_51e59e824768e9e9.txt L187: 1W6+2 fire damage."""
    r = run("feuerschaden", {"feuerempfindlich": True}, 3)
    assert r["ergebnis"] == d6(3)[0] + 2 and "LE" in r["display"]["outcome"]


# --- validation -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"falsche_hand": True, "option": "entwaffnen"}, "option"),
        ({"unsichtbares_ziel": True, "option": "gezielt"}, "option"),
        ({"angreifer_kniend": True, "option": "entwaffnen"}, "option"),
        ({"angreifer_liegend": True, "waffe_zweihaendig": True}, "waffe_zweihaendig"),
        ({"angreifer_kniend": True, "angreifer_liegend": True}, "angreifer_liegend"),
        ({"option": "rundumschlag"}, "option"),
        ({"option": "gedaempft", "waffe_zweihaendig": True}, "option"),
        ({"option": "zweihaendige_hiebe", "waffe_zweihaendig": True}, "option"),
        ({"option": "stachelwirbel"}, "option"),
        ({"wehrlos": True, "konfrontation": True}, "wehrlos"),
        ({"parade": True, "konfrontation": True}, "parade"),
        ({"sturzflug_hoehe": 4}, "sturzflug_hoehe"),
        ({"angriff_guete": 31}, "angriff_guete"),
        ({"schaden": "1W1000"}, "schaden"),
        ({"schaden": "11W6"}, "schaden"),
        ({"schaden": "1W21"}, "schaden"),
        ({"schaden": "xyz"}, "schaden"),
        ({"option": "patzer"}, "option"),
    ],
)
def test_bad_input(params: dict[str, Any], field: str) -> None:
    """Bad input → EngineError with a German message naming the field."""
    err = error("attack", params)
    assert err["field"] == field
    assert err["message"].split(":")[0]


def test_assumptions_are_in_describe_and_data() -> None:
    """Everything the text leaves open is an Annahme in guete.yaml, shown by describe."""
    data = load("guete")
    keys = {a["key"] for a in data.assumptions()}
    assert {"fp_wurf", "initiative.hoeher_zuerst", "wuerfe.erdruecken.rundung"} <= keys
    assert any("Initiativwurf" in a for a in api.describe("guete", "initiative")["assumptions"])
    assert api.describe("guete", "attack")["assumptions"]


def test_tables_have_page_shape() -> None:
    """The regeltabelle fences render tabellen.* from guete.yaml (columns and rows)."""
    from site_plugins.forms import render_table

    for name in ("verteidigung", "situationen", "optionen"):
        html = render_table("guete", name)
        assert '<table class="rw-rule-table"' in html and "</tbody>" in html
        assert html.startswith('<div class="md-typeset__scrollwrap">')  # scrolls at 375 px
    assert "Rekonstruktion" in load("guete").text("tabellen.situationen.titel")
