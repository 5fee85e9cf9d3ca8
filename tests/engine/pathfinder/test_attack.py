"""Pathfinder attack roll (L6–L23) and the ``attack`` action's exact chances (``attack.py``,
``attack_roll.py``, ``attack_display.py``).
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest

from harness.brute import chance, expectation
from harness.support import applies, assumed, chance_labels, seed_for
from regeln.pathfinder.attack import GRIP_CHOICES, WEAPON_CHOICES
from regeln.pathfinder.common import size_modifier
from tests.engine.pathfinder.helpers import annahme, fields, ref_hit, run

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
    one = run("attack", {"gab": 30, "staerkemodifikator": 20, "armor_class": 0}, seed_for([1]))
    assert one["natural"] == 1
    assert one["hit"] is False
    assert one["outcome"] == "fehlschlag_natuerliche_1"
    twenty = run(
        "attack", {"gab": 0, "staerkemodifikator": -5, "armor_class": 80}, seed_for([20, 5])
    )
    assert twenty["hit"] is True
    assert twenty["threat"] is True
    # the confirmation (Annahme) needs a hit: 5 − 5 < 80, so not confirmed
    assert twenty["critical"] is False
    assert twenty["outcome"] == "treffer"
    assert twenty["damage"]["times"] == 1


def test_a_natural_1_says_the_text_has_no_fumble_rule_and_offers_nothing() -> None:
    """004_019b513a861ec26f.txt L10: „Bei einem Angriffswurf wird eine natürliche 1 … immer als
    Fehlschlag gewertet“ – and nothing more: the text has no fumble rule for attacks. So the
    result says so instead of offering a follow-up the rules do not have (issue 26, point 6:
    „Pathfinder's natural 1 … offer[s its] follow-ups“ only where the text defines one)."""
    one = run("attack", {"gab": 30, "staerkemodifikator": 20, "armor_class": 0}, seed_for([1]))
    assert one["natural"] == 1 and one["follow_ups"] == []
    notes = [
        item
        for section in one["display"]["sections"]
        if section.get("kind") == "notes"
        for item in section["items"]
    ]
    assert any("keine Patzerregel" in note for note in notes), notes
    other = run("attack", {"armor_class": 80}, seed_for([2]))
    assert not any("Patzerregel" in str(s) for s in other["display"]["sections"])


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
        {
            "gab": 6,
            "staerkemodifikator": 3,
            "geschicklichkeitsmodifikator": 9,
            "size": "klein",
            "range_increment": 4,
        },
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
            "gab": 4,
            "staerkemodifikator": 5,
            "geschicklichkeitsmodifikator": 3,
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
        assert (
            run("attack", {"size": key, "gab": 10, "staerkemodifikator": 0})["attack_bonus"]
            == 10 + value
        )


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
        "gab": bab,
        "staerkemodifikator": st,
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
        "gab": 2,
        "staerkemodifikator": 1,
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


def test_thrown_weapons_reach_five_increments_projectiles_ten() -> None:
    """Annahme angriff.entfernungsmalus_je_schritt (L23 names the malus without values)."""
    assert run("attack", {"weapon": "wurfwaffe", "range_increment": 5})["attack_bonus"] == (
        3 + 1 - 8
    )
    assert run("attack", {"weapon": "fernkampf", "range_increment": 10})["attack_bonus"] == (
        3 + 1 - 18
    )


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


# ---------------------------------------------------------------------------------------------
# Connected helpers: hints, follow-up, odds order, the assumptions a result names
# ---------------------------------------------------------------------------------------------


def test_attack_hints_whose_values_and_when_they_apply() -> None:
    """The attacker's own values are ``actor``, the target's RK ``target``; ST, GE, range, grip
    and Zugstärke only where L15–L23 and L78–L82 let them count."""
    f = fields("attack")
    assert {n for n, x in f.items() if x.get("subject") == "actor"} == {
        "weapon",
        "gab",
        "staerkemodifikator",
        "geschicklichkeitsmodifikator",
        "size",
        "threat_range",
        "multiplier",
        "damage",
        "grip",
        "light_weapon",
        "composite_rating",
        "damage_other",
    }
    assert {n for n, x in f.items() if x.get("subject") == "target"} == {"armor_class"}
    ranged = ["wurfwaffe", "bogen", "kompositbogen", "fernkampf"]
    assert (
        f["geschicklichkeitsmodifikator"]["when"]
        == f["range_increment"]["when"]
        == {"weapon": ranged}
    )
    assert f["staerkemodifikator"]["when"] == {"weapon": ["nahkampf", *ranged[:3]]}
    assert f["grip"]["when"] == {"weapon": ["nahkampf", "wurfwaffe"]}
    assert f["light_weapon"]["when"]["grip"] == ["zweihaendig"]
    assert f["composite_rating"]["when"] == {"weapon": ["kompositbogen"]}
    # the two notes „zählt nur …“ of the answer: the form no longer sends such a value
    assert not applies(f["range_increment"], {"weapon": "nahkampf"})
    assert not applies(f["grip"], {"weapon": "bogen"})


def test_a_hit_continues_with_the_targets_hit_points() -> None:
    """L71, L74: „Wenn du einen erfolgreichen Angriff ausführst, verursachst du Schaden“,
    „Schaden reduziert die aktuellen Trefferpunkte des Ziels“ – the follow-up carries the damage
    total as a constant, so „Trefferpunkte nach Schaden“ lowers them by what was rolled (below 1:
    again 1 point of nonlethal damage, L76); a miss has no follow-up."""
    seed = seed_for([11])
    hit = run("attack", {"armor_class": 16, "damage_other": 1}, seed)
    assert hit["hit"] is True
    (follow,) = hit["follow_ups"]
    assert follow["action"] == "hit_points"
    assert follow["params"] == {"damage": str(hit["damage"]["raw_total"])}
    after = run("hit_points", {"hp": 30, "konstitution": 12, **follow["params"]})
    assert after["hp_after"] == 30 - hit["damage"]["lethal"]
    assert run("attack", {"armor_class": 17}, seed)["follow_ups"] == []
    low = run("attack", {"staerkemodifikator": -5, "damage": "1W4", "armor_class": 0}, seed)
    assert low["damage"]["nonlethal"] == 1
    after = run("hit_points", {"hp": 30, "konstitution": 12, **low["follow_ups"][0]["params"]})
    assert after["hp_after"] == 30 and after["nonlethal"] == 1


def test_attack_odds_list_the_hit_first_then_the_critical_hit() -> None:
    """Most important first: hit, critical hit, threat; the natural 1 in the text's words."""
    assert chance_labels(run("attack")) == [
        "Treffer",
        "Kritischer Treffer (bestätigt)",
        "Bedrohung",
        "natürliche 1: verfehlt immer",
        "Nur Mindestschaden (1 nichttödlich)",
    ]


def test_attack_names_only_the_assumptions_its_roll_rests_on() -> None:
    """A plain melee hit rests on no assumption; a threat on the confirmation (L10), a miss in an
    extended threat range on the threat rule, a range beyond the first increment on the
    Entfernungsmalus (L23), an odd Strength two-handed on the rounding (L82)."""
    plain = seed_for([11])
    assert assumed(run("attack", {"armor_class": 16}, plain)) == []
    assert assumed(run("attack", {"armor_class": 16}, seed_for([20, 5]))) == [
        annahme("angriff.bestaetigung")
    ]
    missed = run("attack", {"threat_range": "19", "armor_class": 25}, seed_for([19]))
    assert assumed(missed) == [annahme("angriff.bedrohungsbereich_nur_bei_treffer")]
    ranged = {"weapon": "fernkampf", "armor_class": 5}
    assert annahme("angriff.entfernungsmalus_je_schritt") not in assumed(
        run("attack", ranged, plain)
    )
    far = run("attack", {**ranged, "range_increment": 3}, plain)
    assert annahme("angriff.entfernungsmalus_je_schritt") in assumed(far)
    two_hands = {"grip": "zweihaendig", "armor_class": 5}
    assert assumed(run("attack", {**two_hands, "staerkemodifikator": 2}, plain)) == []
    assert assumed(run("attack", {**two_hands, "staerkemodifikator": 3}, plain)) == [
        annahme("schaden.rundung")
    ]


def _confirmation_line(result: dict[str, Any]) -> dict[str, Any]:
    rolls = [i for s in result["display"]["sections"] if s["kind"] == "rolls" for i in s["items"]]
    return next(item for item in rolls if item["label"] == "Bestätigungswurf")


@pytest.mark.parametrize(
    ("faces", "armor_class", "decision"),
    [
        ([20, 17], 15, "gegen RK 15: bestätigt – kritischer Treffer (×2)"),  # 17 + 5 = 22
        ([20, 9], 15, "gegen RK 15: nicht bestätigt – normaler Treffer"),  # 9 + 5 = 14
        ([20, 20], 40, "gegen RK 40: bestätigt (natürliche 20) – kritischer Treffer (×2)"),
        ([20, 1], 5, "gegen RK 5: nicht bestätigt (natürliche 1) – normaler Treffer"),
    ],
)
def test_the_confirmation_roll_says_what_it_decided(
    faces: list[int], armor_class: int, decision: str
) -> None:
    """L10: „Außerdem stellt eine natürliche 20 auch eine Bedrohung dar, der ein möglicher
    kritischer Treffer folgen kann“ – the Bestätigungswurf's line ends in its decision (issue
    26: „Bestätigungswurf … = 14“ never said yes or no); a natural 1 or 20 that decides against
    the total is named (L10: „immer als Fehlschlag“ / „immer ein Treffer“)."""
    result = run("attack", {"armor_class": armor_class}, seed_for(faces))
    line = _confirmation_line(result)
    assert line["decision"] == decision
    assert result["critical"] is ("nicht bestätigt" not in decision)
