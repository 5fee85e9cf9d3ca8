"""Pathfinder 1 rules engine (source ``004_019b513a861ec26f.txt``, „Die Grundregeln des Kampfes“).

Every rule test cites the source line it checks; what the text leaves open is an Annahme in
``engine/data/pathfinder.yaml`` and the tests say so. Exact chances are compared with brute-force
enumeration of every die (``tests/engine/brute.py``) and an independent reference written from
the rule text here.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from engine import api
from engine.data_files import load
from engine.errors import EngineError
from engine.systems.pathfinder.attack import GRIP_CHOICES, WEAPON_CHOICES
from engine.systems.pathfinder.common import size_modifier
from engine.systems.pathfinder.damage import combined_multiplier, strength_damage
from engine.systems.pathfinder.hit_points import hp_state
from tests.engine.brute import chance, expectation

SOURCE_NAME = "004_019b513a861ec26f.txt"
DATA = load("pathfinder")


def run(action: str, params: dict[str, Any] | None = None, seed: int = 1) -> dict[str, Any]:
    answer = api.run("pathfinder", action, params or {}, seed)
    assert answer["ok"], answer
    json.loads(json.dumps(answer))
    return dict(answer["result"])


def error_of(action: str, params: dict[str, Any]) -> dict[str, str]:
    answer = api.run("pathfinder", action, params, 1)
    assert not answer["ok"], answer
    return dict(answer["error"])


def seed_for(faces: list[int], sides: int = 20, limit: int = 200_000) -> int:
    """The first seed whose first dice (all with ``sides`` sides) show ``faces``."""
    for seed in range(limit):
        rng = random.Random(seed)
        if all(rng.randint(1, sides) == face for face in faces):
            return seed
    raise AssertionError(f"no seed for {faces}")


def ref_hit(natural: int, bonus: int, ac: int) -> bool:
    """L8 + L10, written independently of the engine."""
    return natural == 20 or (natural != 1 and natural + bonus >= ac)


# ---------------------------------------------------------------------------------------------
# Source table and data
# ---------------------------------------------------------------------------------------------


def test_size_table_is_the_source_table_verbatim(sources_dir: Path) -> None:
    """004_019b513a861ec26f.txt L50–L61: Tabelle: Größenmodifikatoren, kolossal −8 … Mini +8."""
    lines = (sources_dir / SOURCE_NAME).read_text(encoding="utf-8").split("\n")
    assert lines[49] == "Tabelle: Größenmodifikatoren"
    assert lines[51] == "GrößeGrößenmodifikator"
    source_rows = [re.fullmatch(r"(\D+?)([+-]\d+)", line) for line in lines[52:61]]
    table = DATA.raw("tabellen.groessenmodifikatoren")
    assert [c["titel"] for c in table["spalten"]] == ["Größe", "Größenmodifikator"]
    rows = table["zeilen"]
    assert [(m.group(1), m.group(2)) for m in source_rows if m] == [
        (r["groesse"], r["modifikator"]) for r in rows
    ]
    assert [r["wert"] for r in rows] == [int(r["modifikator"]) for r in rows]
    assert [size_modifier(r["schluessel"]) for r in rows] == [-8, -4, -2, -1, 0, 1, 2, 4, 8]


def test_every_assumption_has_a_text_citing_a_line() -> None:
    """Everything the text leaves open (L10, L23, L76, L78, L80, L82, L95, L160) is an Annahme."""
    found = {a["key"]: a["text"] for a in DATA.assumptions()}
    for key in (
        "angriff.bestaetigung",
        "angriff.bedrohungsbereich_nur_bei_treffer",
        "angriff.entfernungsmalus_je_schritt",
        "schaden.rundung",
        "schaden.mindestschaden_je_treffer",
        "rettungswurf.vergleich",
        "initiative.wurf",
        "initiative.gleichstand",
        "trefferpunkte.tot_darunter",
    ):
        assert re.search(r"L\d+", found[key]), key
    attack_spec = api.describe("pathfinder", "attack")
    assert any("bestätigen" in text for text in attack_spec["assumptions"])
    assert api.describe("pathfinder", "initiative")["assumptions"]
    assert api.describe("pathfinder", "saving_throw")["assumptions"]


# ---------------------------------------------------------------------------------------------
# Attack roll (L6–L23)
# ---------------------------------------------------------------------------------------------


def test_attack_hits_when_total_reaches_the_armor_class() -> None:
    """L8: 1W20 + Angriffsbonus; „Erreicht oder übertrifft dein Ergebnis die Rüstungsklasse“."""
    seed = seed_for([11])
    # GAB 3 + ST 2 + size 0 = +5: 11 + 5 = 16
    assert run("attack", {"armor_class": 16}, seed)["hit"] is True
    assert run("attack", {"armor_class": 16}, seed)["total"] == 16
    missed = run("attack", {"armor_class": 17}, seed)
    assert missed["hit"] is False
    assert missed["outcome"] == "verfehlt"
    assert missed["damage"] is None


def test_natural_1_always_misses_and_natural_20_always_hits_and_threatens() -> None:
    """L10: natürliche 1 immer Fehlschlag; natürliche 20 immer Treffer und Bedrohung."""
    one = run("attack", {"bab": 30, "strength": 20, "armor_class": 0}, seed_for([1]))
    assert one["natural"] == 1
    assert one["hit"] is False
    assert one["outcome"] == "fehlschlag_natuerliche_1"
    twenty = run("attack", {"bab": 0, "strength": -5, "armor_class": 80}, seed_for([20, 5]))
    assert twenty["hit"] is True
    assert twenty["threat"] is True
    # the confirmation (Annahme) needs a hit: 5 − 5 < 80, so not confirmed
    assert twenty["critical"] is False
    assert twenty["outcome"] == "treffer"
    assert twenty["damage"]["times"] == 1


def test_extended_threat_range_threatens_only_on_a_hit() -> None:
    """L10 names only the 20; Annahme angriff.bedrohungsbereich_nur_bei_treffer (range 19–20)."""
    seed = seed_for([19, 10])
    hit = run("attack", {"threat_range": "19", "armor_class": 20}, seed)  # 19 + 5 = 24
    assert hit["threat"] is True
    assert hit["confirmation"]["natural"] == 10
    assert hit["critical"] is False  # confirmation 10 + 5 = 15 < 20
    missed = run("attack", {"threat_range": "19", "armor_class": 25}, seed)
    assert missed["hit"] is False
    assert missed["threat"] is False


def test_confirmation_is_a_second_attack_roll_with_the_same_bonus() -> None:
    """L10 → „Aktionen im Kampf“ (missing): Annahme angriff.bestaetigung, same bonus and RK."""
    for confirm_face in range(1, 21):
        seed = seed_for([20, confirm_face])
        result = run("attack", {"armor_class": 18}, seed)  # bonus +5
        assert result["confirmation"]["natural"] == confirm_face
        assert result["confirmation"]["total"] == confirm_face + 5
        assert result["critical"] is ref_hit(confirm_face, 5, 18)
        expected_times = 2 if result["critical"] else 1
        assert result["damage"]["times"] == expected_times


def test_melee_attack_bonus_is_bab_plus_strength_plus_size() -> None:
    """L15–L18: Grund-Angriffsbonus + Stärkemodifikator + Größenmodifikator."""
    result = run(
        "attack",
        {"bab": 6, "strength": 3, "dexterity": 9, "size": "klein", "range_increment": 4},
    )
    assert result["attack_bonus"] == 6 + 3 + 1
    labels = [p["label"] for p in result["attack_bonus_parts"]]
    assert labels == ["GAB", "ST", "Größe"]


def test_ranged_attack_bonus_is_bab_plus_dex_plus_size_plus_range_penalty() -> None:
    """L20–L23: GAB + GE + Größe + Entfernungsmalus (−2 je Grundreichweite: Annahme)."""
    result = run(
        "attack",
        {
            "weapon": "bogen",
            "bab": 4,
            "strength": 5,
            "dexterity": 3,
            "size": "gross",
            "range_increment": 3,
            "attack_other": 1,
        },
    )
    assert result["attack_bonus"] == 4 + 3 - 1 - 4 + 1
    assert {p["label"]: p["value"] for p in result["attack_bonus_parts"]} == {
        "GAB": 4,
        "GE": 3,
        "Größe": -1,
        "Entfernungsmalus": -4,
        "andere Modifikatoren": 1,
    }


def test_size_modifiers_apply_to_the_attack() -> None:
    """L18, L23, L50–L61: the Größenmodifikator of the table, kolossal −8 … Mini +8."""
    for key, value in (("kolossal", -8), ("mini", 8), ("winzig", 4), ("riesig", -2)):
        assert run("attack", {"size": key, "bab": 10, "strength": 0})["attack_bonus"] == 10 + value


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
        "strength": 2,
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
    params = {"damage": "1W3", "strength": -5, "armor_class": 0}
    result = run("attack", params, seed_for([15]))
    assert result["damage"]["raw_total"] <= 3 - 5
    assert result["damage"]["lethal"] == 0
    assert result["damage"]["nonlethal"] == 1
    assert Fraction(result["chances"]["expected_damage"]) == 0
    assert Fraction(result["chances"]["expected_nonlethal"]) == Fraction(result["chances"]["hit"])


# ---------------------------------------------------------------------------------------------
# Exact chances of the attack vs brute force
# ---------------------------------------------------------------------------------------------


def _ref_damage(faces: tuple[int, ...], times: int, sides: int, count: int, bonus: int) -> int:
    """Sum of ``times`` weapon rolls (count dice each, +bonus each) then the extra dice."""
    weapon = faces[: times * count]
    extra = faces[times * count :]
    return sum(weapon) + times * bonus + sum(extra)


ATTACK_CASES = [
    # (bab, strength, size, ac, threat, mult, other_mult, damage_other, dice, extra)
    (0, -5, "kolossal", 80, "20", "2", "1", 0, (1, 4), (0, 0)),
    (30, 20, "mini", 0, "15", "4", "1", 0, (1, 4), (1, 3)),
    (3, 2, "mittelgross", 15, "19", "3", "1", -4, (1, 4), (0, 0)),
    (5, -3, "klein", 12, "18", "2", "2", -2, (1, 3), (1, 2)),
    (1, 0, "gross", 21, "20", "4", "3", 0, (1, 2), (0, 0)),
    (10, 1, "winzig", 25, "17", "3", "1", 5, (2, 3), (0, 0)),
]


@pytest.mark.parametrize("case", ATTACK_CASES)
def test_attack_chances_match_brute_force(case: tuple[Any, ...]) -> None:
    """L8, L10 (+ Annahmen Bedrohungsbereich, Bestätigung), L76, L84–L88: hit, threat,
    confirmed critical and expected damage, by enumerating both W20 and every damage die."""
    bab, st, size, ac, threat, mult, other_mult, dmg_other, (count, sides), (xc, xs) = case
    params = {
        "bab": bab,
        "strength": st,
        "size": size,
        "armor_class": ac,
        "threat_range": threat,
        "multiplier": mult,
        "other_multiplier": other_mult,
        "damage_other": dmg_other,
        "damage": f"{count}W{sides}",
        "extra_dice": f"{xc}W{xs}" if xc else "0",
    }
    result = run("attack", params)
    chances = {k: Fraction(v) for k, v in result["chances"].items()}
    bonus = bab + st + size_modifier(size)
    lo = int(threat)

    def threatens(a: int) -> bool:
        return a == 20 or (a >= lo and ref_hit(a, bonus, ac))

    def critical(f: tuple[int, ...]) -> bool:
        return threatens(f[0]) and ref_hit(f[1], bonus, ac)

    assert chances["hit"] == chance([20], lambda f: ref_hit(f[0], bonus, ac))
    assert chances["threat"] == chance([20], lambda f: threatens(f[0]))
    assert chances["critical"] == chance([20, 20], critical)
    assert chances["natural_1"] == Fraction(1, 20)

    normal = int(other_mult)
    crit = int(mult) + int(other_mult) - 1
    dmg_bonus = st + dmg_other
    lethal = Fraction(0)
    nonlethal = Fraction(0)
    for times, p_kind in (
        (normal, chances["hit"] - chances["critical"]),
        (crit, chances["critical"]),
    ):
        dice_sides = [sides] * (times * count) + [xs] * xc

        def total(f: tuple[int, ...], t: int = times) -> int:
            return _ref_damage(f, t, sides, count, dmg_bonus)

        lethal += p_kind * expectation(dice_sides, lambda f, g=total: g(f) if g(f) >= 1 else 0)
        nonlethal += p_kind * chance(dice_sides, lambda f, g=total: g(f) < 1)
    assert chances["expected_damage"] == lethal
    assert chances["expected_nonlethal"] == nonlethal


def test_attack_expected_damage_by_full_joint_enumeration() -> None:
    """L8, L10, L84, L88 at once: every face of attack W20, confirmation W20, three 1W3 weapon
    rolls (×3) and a 1W2 extra die enumerated jointly – no independence shortcut."""
    params = {
        "bab": 2,
        "strength": 1,
        "armor_class": 14,
        "threat_range": "18",
        "multiplier": "3",
        "damage": "1W3",
        "extra_dice": "1W2",
        "damage_other": -2,
    }
    result = run("attack", params)
    bonus, ac = 3, 14

    def damage(f: tuple[int, ...]) -> int:
        attack, confirm, w1, w2, w3, x = f
        if not ref_hit(attack, bonus, ac):
            return 0
        is_crit = (attack == 20 or attack >= 18) and ref_hit(confirm, bonus, ac)
        weapon = [w1, w2, w3] if is_crit else [w1]
        total = sum(w - 1 for w in weapon) + x  # ST +1, andere −2 per roll
        return total if total >= 1 else 0

    assert Fraction(result["chances"]["expected_damage"]) == expectation(
        [20, 20, 3, 3, 3, 2], damage
    )


# ---------------------------------------------------------------------------------------------
# Armor class (L25–L66)
# ---------------------------------------------------------------------------------------------


def test_armor_class_formula() -> None:
    """L33: 10 + Rüstungsbonus + Schildbonus + Geschicklichkeitsmodifikator + andere (Größe
    L64, natürliche Rüstung L46, Ablenkung L44, Ausweichen L48)."""
    params = {
        "armor": 5,
        "shield": 2,
        "dexterity": 3,
        "size": "klein",
        "natural_armor": 1,
        "deflection": 2,
        "dodge": 1,
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
    result = run("armor_class", {"armor": 6, "dexterity": 4, "max_dex": 1})
    assert result["dexterity_used"] == 1
    assert result["armor_class"]["normal"] == 10 + 6 + 1


def test_losing_the_dex_bonus_keeps_a_dex_penalty() -> None:
    """L38: „Besitzt du keinen Bonus, ändert sich deine RK nicht.“"""
    values = run("armor_class", {"armor": 2, "dexterity": -2})["armor_class"]
    assert values["normal"] == values["flat"] == 10 + 2 - 2


def test_incorporeal_touch_ignores_cover_but_keeps_force_armor() -> None:
    """L66: körperlose Berührungsangriffe ignorieren Deckung; Krafteffekt-Rüstung gilt weiter."""
    params = {"armor": 4, "dexterity": 1, "cover": 2, "force_armor": True}
    values = run("armor_class", params)["armor_class"]
    assert values["touch"] == 10 + 1 + 2
    assert values["incorporeal_touch"] == 10 + 1 + 4
    values = run("armor_class", dict(params, force_armor=False))["armor_class"]
    assert values["incorporeal_touch"] == 10 + 1


@pytest.mark.parametrize("attacker", [-10, 0, 5, 19, 50])
def test_armor_class_hit_chances_match_brute_force(attacker: int) -> None:
    """L8, L10: the attacker's hit chance against each RK variant."""
    result = run("armor_class", {"armor": 8, "dexterity": 2, "attacker_bonus": attacker})
    for key, ac in result["armor_class"].items():
        expected = chance([20], lambda f, ac=ac: ref_hit(f[0], attacker, ac))
        assert Fraction(result["chances"][f"hit_{key}"]) == expected


# ---------------------------------------------------------------------------------------------
# Saving throw (L144–L162)
# ---------------------------------------------------------------------------------------------


def test_saving_throw_total_and_natural_1_and_20() -> None:
    """L146–L149: 1W20 + Grundbonus auf RW + Attributsmodifikator; L162: natürliche 1 immer
    ein Patzer, natürliche 20 immer ein Erfolg; sonst SG erreichen (Annahme, L160)."""
    for face in range(1, 21):
        seed = seed_for([face])
        result = run("saving_throw", {"base": 4, "attribute": 2, "other": 1, "dc": 12}, seed)
        assert result["total"] == face + 7
        assert result["success"] is (face == 20 or (face != 1 and face + 7 >= 12))
        if face == 1:
            assert result["outcome"] == "patzer"
    assert (
        run("saving_throw", {"base": 30, "attribute": 20, "dc": 1}, seed_for([1]))["success"]
        is False
    )
    assert (
        run("saving_throw", {"base": 0, "attribute": -5, "dc": 80}, seed_for([20]))["success"]
        is True
    )


@pytest.mark.parametrize(("bonus", "dc"), [(-5, 80), (-5, 1), (0, 10), (7, 15), (50, 60)])
def test_saving_throw_chances_match_brute_force(bonus: int, dc: int) -> None:
    """L162 + Annahme rettungswurf.vergleich: exact success chance."""
    base, attribute = (30, bonus - 30) if bonus > 20 else (0, bonus)
    result = run("saving_throw", {"base": base, "attribute": attribute, "dc": dc})
    expected = chance([20], lambda f: f[0] == 20 or (f[0] != 1 and f[0] + bonus >= dc))
    assert Fraction(result["chances"]["success"]) == expected
    assert Fraction(result["chances"]["patzer"]) == Fraction(1, 20)


def test_saving_throw_names_the_attribute_of_its_kind() -> None:
    """L154–L158: Reflex GE, Willen WE, Zähigkeit KO."""
    for kind, name in (
        ("reflex", "Geschicklichkeitsmodifikator"),
        ("willen", "Weisheitsmodifikator"),
        ("zaehigkeit", "Konstitutionsmodifikator"),
    ):
        assert run("saving_throw", {"kind": kind})["parts"][1]["label"] == name


# ---------------------------------------------------------------------------------------------
# Initiative (not in the text: Annahme)
# ---------------------------------------------------------------------------------------------


def test_initiative_is_d20_plus_dex_plus_other() -> None:
    """Not in the text (L8 presumes an order): Annahme initiative.wurf 1W20 + GE + andere."""
    fighters = [
        {"name": "A", "dexterity": 2, "other": 4},
        {"name": "B", "dexterity": -1, "other": 0},
    ]
    rng = random.Random(7)
    faces = [rng.randint(1, 20), rng.randint(1, 20)]
    result = run("initiative", {"fighters": fighters}, 7)
    by_name = {o["name"]: o for o in result["order"]}
    assert by_name["A"]["initiative"] == faces[0] + 6
    assert by_name["B"]["initiative"] == faces[1] - 1
    totals = [o["initiative"] for o in result["order"]]
    assert totals == sorted(totals, reverse=True)


def test_initiative_tie_goes_to_higher_modifier_then_roll_off() -> None:
    """Annahme initiative.gleichstand: higher modifier first, then a 1W20 roll-off."""
    seed = seed_for([10, 12])  # A: 10 + 3 = 13, B: 12 + 1 = 13
    fighters = [{"name": "A", "dexterity": 3}, {"name": "B", "dexterity": 1}]
    order = run("initiative", {"fighters": fighters}, seed)["order"]
    assert [o["name"] for o in order] == ["A", "B"]
    assert order[0]["rolloff"] == []
    seed = seed_for([9, 9, 4, 17])  # equal totals and modifiers: roll-off 4 vs 17
    fighters = [{"name": "A", "dexterity": 2}, {"name": "B", "dexterity": 2}]
    order = run("initiative", {"fighters": fighters}, seed)["order"]
    assert [o["name"] for o in order] == ["B", "A"]
    assert order[0]["rolloff"] == [17]


def _ref_first(modifiers: list[int]) -> list[Fraction]:
    """Brute force over every W20 face of every fighter; ties split fairly (roll-off).

    Counted in integers: a tie of k fighters gives each ``scale // k`` (scale divisible by k)."""
    scale = 5 * 7 * 8 * 9
    counts = [0] * len(modifiers)
    for faces in itertools.product(range(1, 21), repeat=len(modifiers)):
        keys = [(f + m, m) for f, m in zip(faces, modifiers, strict=True)]
        best = max(keys)
        winners = [i for i, k in enumerate(keys) if k == best]
        for i in winners:
            counts[i] += scale // len(winners)
    return [Fraction(c, scale * 20 ** len(modifiers)) for c in counts]


@pytest.mark.parametrize(
    "modifiers", [[0], [2, 3], [0, 0], [-5, 20], [5, 5, 3], [1, 0, 1], [20, -5, 3, 3]]
)
def test_initiative_first_chances_match_brute_force(modifiers: list[int]) -> None:
    """Annahme initiative.*: exact chance of each fighter to act first."""
    fighters = [
        {"name": f"K{i}", "dexterity": min(m, 20), "other": m - min(m, 20)}
        for i, m in enumerate(modifiers)
    ]
    result = run("initiative", {"fighters": fighters})
    got = [Fraction(result["first_chances"][f"K{i}"]) for i in range(len(modifiers))]
    assert got == _ref_first(modifiers)
    assert sum(got) == 1


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


# ---------------------------------------------------------------------------------------------
# Fumble (L10, L162)
# ---------------------------------------------------------------------------------------------


def test_fumble_says_there_is_no_rule_beyond_the_natural_1() -> None:
    """L10: natürliche 1 beim Angriff immer Fehlschlag; L162: beim Rettungswurf immer ein Patzer
    (kann Gegenstände beschädigen). Keine Patzertabelle im Text."""
    one = run("fumble", {"kind": "angriff"}, seed_for([1]))
    assert one["natural_1"] is True
    assert "Fehlschlag" in one["meaning"]
    assert Fraction(one["chances"]["natural_1"]) == Fraction(1, 20)
    save = run("fumble", {"kind": "rettungswurf"}, seed_for([1]))
    assert "Patzer" in save["meaning"]
    assert "Gegenstände beschädigen" in save["meaning"]
    other = run("fumble", {}, seed_for([2]))
    assert other["natural_1"] is False
    notes = next(s for s in other["display"]["sections"] if s["kind"] == "notes")["items"]
    assert any("Patzertabelle" in n or "Patzerregel" in n for n in notes)


# ---------------------------------------------------------------------------------------------
# Validation, JSON, CLI
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "params", "field", "label"),
    [
        ("attack", {"bab": 31}, "bab", "Grund-Angriffsbonus"),
        ("attack", {"size": "huge"}, "size", "Größe"),
        ("attack", {"weapon": "wurfwaffe", "range_increment": 6}, "range_increment", "Entfernung"),
        ("attack", {"damage": "2W20kh1"}, "damage", "Waffenschaden"),
        ("attack", {"damage": "13W6"}, "damage", "Waffenschaden"),
        ("attack", {"damage": "1W100"}, "damage", "Waffenschaden"),
        ("attack", {"damage": "1W4+1W6+1W8+1W10+1W12"}, "damage", "Waffenschaden"),
        ("attack", {"damage": "1W6+500"}, "damage", "Waffenschaden"),
        ("attack", {"extra_dice": "17W6"}, "extra_dice", "Zusätzliche Schadenswürfel"),
        ("attack", {"damage": "zwei"}, "damage", "Waffenschaden"),
        ("armor_class", {"dexterity": "viel"}, "dexterity", "Geschicklichkeitsmodifikator"),
        ("saving_throw", {"kind": "mut"}, "kind", "Art"),
        ("hit_points", {"hp": -12, "constitution": 12}, "hp", "Aktuelle Trefferpunkte"),
        ("hit_points", {"damage": "100W1000"}, "damage", "Schaden"),
        (
            "initiative",
            {"fighters": [{"name": "Ezren"}, {"name": "ezren"}]},
            "fighters.1.name",
            "Name",
        ),
        ("initiative", {"fighters": []}, "fighters", "Kämpfer"),
    ],
)
def test_bad_input_gives_a_german_error_naming_the_field(
    action: str, params: dict[str, Any], field: str, label: str
) -> None:
    """Validation at the JSON boundary: German message with the field's label and path."""
    error = error_of(action, params)
    assert error["field"] == field
    assert label in error["message"]


def test_thrown_weapons_reach_five_increments_projectiles_ten() -> None:
    """Annahme angriff.entfernungsmalus_je_schritt (L23 names the malus without values)."""
    assert run("attack", {"weapon": "wurfwaffe", "range_increment": 5})["attack_bonus"] == (
        3 + 1 - 8
    )
    assert run("attack", {"weapon": "fernkampf", "range_increment": 10})["attack_bonus"] == (
        3 + 1 - 18
    )


def test_engine_error_type_for_unknown_size() -> None:
    with pytest.raises(EngineError) as info:
        size_modifier("huge")
    assert info.value.field == "size"


@pytest.mark.parametrize("action", ["attack", "armor_class", "saving_throw", "initiative",
                                    "hit_points", "fumble"])  # fmt: skip
def test_results_are_json_with_a_display_and_are_reproducible(action: str) -> None:
    first = api.run("pathfinder", action, None, 42)
    again = api.run("pathfinder", action, None, 42)
    assert first == again
    text = json.dumps(first, ensure_ascii=False)
    assert json.loads(text) == first
    display = first["result"]["display"]
    assert display["headline"] and display["outcome"]
    assert any(s["kind"] == "chances" for s in display["sections"])
    spec = api.describe("pathfinder", action)
    assert spec["source"].startswith("004_019b513a861ec26f.txt")


def test_every_combination_of_attack_choices_answers() -> None:
    """Every weapon × grip × threat range × multiplier runs and its odds are consistent."""
    for weapon, grip, threat, mult in itertools.product(
        [w for w, _ in WEAPON_CHOICES],
        [g for g, _ in GRIP_CHOICES],
        ["20", "15"],
        ["2", "4"],
    ):
        params = {"weapon": weapon, "grip": grip, "threat_range": threat, "multiplier": mult}
        chances = run("attack", params)["chances"]
        assert Fraction(chances["critical"]) <= Fraction(chances["threat"])
        assert Fraction(chances["threat"]) <= Fraction(chances["hit"])
