"""DSA 4.1 Hausregeln: the ``damage`` action – Wundschwelle, wounds, LeP thresholds
(``damage.py``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from engine import dice
from harness.brute import chance, expectation
from harness.support import assumed, draws
from regeln.dsa import common, damage
from tests.engine.dsa.helpers import annahme, error, fields, run


@pytest.mark.parametrize(
    ("ko", "sp", "wounds"), [(12, 6, 0), (12, 7, 1), (13, 6, 0), (13, 7, 1), (13, 30, 1), (1, 1, 1)]
)
def test_wound_threshold_ko_half(ko: int, sp: int, wounds: int) -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Crits und Patzer", Absatz zu Wunden: „Für Schaden, der
    größer als die Wundschwelle (KO/2) ist, erleiden Kämpfer eine (regeltechnische) Wunde.“ (KO/2
    not rounded; one wound per hit – Annahmen)."""
    r = run("damage", {"damage": str(sp), "ko": ko, "lep": 40})
    assert r["sp"] == sp and r["wunden"] == wounds


def test_multiple_wounds_when_data_allows(monkeypatch: pytest.MonkeyPatch) -> None:
    """001_240b8e52c108db7c.txt, Absatz zu Wunden: the number of wounds per hit is data
    (wunden.hoechstens_pro_treffer); with 3 each further full Wundschwelle adds one (OR)."""
    monkeypatch.setitem(common.DATA.content["wunden"]["hoechstens_pro_treffer"], "wert", 3)
    threshold = damage.wound_threshold(12, False)
    assert [damage.wounds_from_damage(sp, threshold) for sp in (6, 7, 12, 13, 18, 19, 40)] == [
        0,
        1,
        1,
        2,
        2,
        3,
        3,
    ]


def test_wounds_total_and_probe_penalty() -> None:
    """001_240b8e52c108db7c.txt, Absatz zu Wunden: „Pro Wunde sind alle Proben um zwei
    erschwert“."""
    r = run("damage", {"damage": "10", "ko": 12, "wunden": 2, "lep": 40})
    assert r["wunden_total"] == 3 and r["probe_penalty"] == 6


def test_rs_and_crit_in_damage() -> None:
    """SP = TP − RS (Annahme, the text names RS only for Gezielter Stich); Abschnitt "Crits und
    Patzer": a kritischer Angriff doubles the damage."""
    seed = 4
    d6 = draws(seed, [6])[0]
    r = run("damage", {"damage": "1W6+4", "zusatz": 2, "rs": 3, "kritisch": True, "lep": 80}, seed)
    assert r["sp"] == 2 * (d6 + 4 + 2) - 3
    assert run("damage", {"damage": "2", "rs": 5})["sp"] == 0


def test_gezielter_stich_damage() -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Gezielter Stich": „Attacke ignoriert RS und richtet eine
    automatische Wunde an ** … ist zudem die Wundschwelle des Gegners um 2 gesenkt“."""
    r = run("damage", {"damage": "5", "rs": 4, "ko": 12, "gezielter_stich": True, "lep": 40})
    assert r["sp"] == 5 and r["wundschwelle"] == "4" and r["wunden"] == 2
    r = run("damage", {"damage": "4", "rs": 4, "ko": 12, "gezielter_stich": True, "lep": 40})
    assert r["wunden"] == 1  # automatic wound only: 4 is not > 4


@pytest.mark.parametrize(
    ("lep_after", "status"),
    [
        (6, "kampffaehig"),
        (5, "kampfunfaehig"),
        (1, "kampfunfaehig"),
        (0, "lebensbedrohlich"),
        (-11, "lebensbedrohlich"),
        (-12, "tot"),
        (-30, "tot"),
    ],
)
def test_lep_thresholds(lep_after: int, status: str) -> None:
    """001_240b8e52c108db7c.txt, Absatz zu Wunden: „Ab 5 LeP ist ein Kämpfer kampfunfähig“, „Ab 0
    LeP … lebensbedrohlich verletzt“, „Ab (KO*-1) LeP ist ein Kämpfer tot“ (KO 12; „ab“ = at or
    below, Annahme)."""
    r = run("damage", {"damage": str(20 - lep_after), "ko": 12, "lep": 20})
    assert r["lep"] == lep_after and r["status"] == status


def test_dying_within_ko_times_w6_kr() -> None:
    """001_240b8e52c108db7c.txt, Absatz zu Wunden: „stirbt innerhalb von KO * W6 KR“."""
    seed = 9
    d6, dying = draws(seed, [6, 6])
    r = run("damage", {"damage": "1W6", "ko": 11, "lep": 1}, seed)
    assert r["lep"] == 1 - d6 and r["status"] == "lebensbedrohlich"
    assert r["dying_within_kr"] == 11 * dying and r["dying_roll"]["total"] == dying


@pytest.mark.parametrize(
    "params",
    [
        {"damage": "1W6+4", "ko": 12, "lep": 30},
        {"damage": "2W6+2", "ko": 13, "lep": 8, "rs": 2},
        {"damage": "1W6+2", "ko": 5, "lep": 4, "kritisch": True, "zusatz": 3, "rs": 1},
        {"damage": "3W6", "ko": 1, "lep": 0, "gezielter_stich": True},
        {"damage": "1W20", "ko": 30, "lep": 200, "rs": 20},
        {"damage": "1W6-5", "ko": 7, "lep": 5},
    ],
)
def test_damage_chances_brute_force(params: dict[str, Any]) -> None:
    """001_240b8e52c108db7c.txt, Absatz zu Wunden: P(wound), P(status) and the expectations by
    enumerating every TP die."""
    r = run("damage", params)
    expr = dice.parse(params["damage"])
    sides = [t.sides for t in expr.terms for _ in range(t.count)]
    ko, lep = params["ko"], params["lep"]
    aimed = params.get("gezielter_stich", False)
    ws = Fraction(ko, 2) - (2 if aimed else 0)

    def sp_of(f: tuple[int, ...]) -> int:
        tp = expr.constant + sum(f) + params.get("zusatz", 0)
        if params.get("kritisch"):
            tp *= 2
        return max(0, tp - (0 if aimed else params.get("rs", 0)))

    def wounds(f: tuple[int, ...]) -> int:
        sp = sp_of(f)
        return (1 if sp > 0 and sp > ws else 0) + (1 if aimed else 0)

    def status(f: tuple[int, ...]) -> str:
        left = lep - sp_of(f)
        if left <= -ko:
            return "tot"
        if left <= 0:
            return "lebensbedrohlich"
        return "kampfunfaehig" if left <= 5 else "kampffaehig"

    assert Fraction(r["expected_sp"]) == expectation(sides, sp_of)
    assert Fraction(r["expected_wunden"]) == expectation(sides, wounds)
    assert Fraction(r["chances"]["wunde"]) == chance(sides, lambda f: wounds(f) > 0)
    for key in ("kampffaehig", "kampfunfaehig", "lebensbedrohlich", "tot"):
        assert Fraction(r["chances"][key]) == chance(sides, lambda f, k=key: status(f) == k)


def test_damage_validation() -> None:
    """Bad input: EngineError with a German message naming the field."""
    err = error("damage", {"ko": 10, "lep": -10})
    assert err["field"] == "lep" and "tot" in err["message"]
    err = error("damage", {"ko": 0})
    assert err["field"] == "ko"
    err = error("damage", {"damage": "W"})
    assert err["field"] == "damage"


def test_damage_hints_and_the_targets_new_lep_and_wounds() -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Crits und Patzer", Absatz zu Wunden: the hit lowers
    the target's LeP by the SP and adds its wounds – ``target_update`` carries both, under the
    names of the damage helper's target fields, and they feed the next hit."""
    f = fields("damage")
    # the TP of this hit (the attack's follow-up brings the rolled TP), its bonus TP, crit and
    # Gezielter Stich belong to this roll only (issue 26: a stale „11“ from the last hit was
    # kept for the attacker and won over the next hit's TP)
    per_roll = {"damage", "zusatz", "kritisch", "gezielter_stich"}
    assert {n for n, x in f.items() if x.get("per_roll")} == per_roll
    assert not [n for n in per_roll if "subject" in f[n]]
    assert {n for n, x in f.items() if x.get("subject") == "target"} == {
        "rs",
        "ko",
        "lep",
        "wunden",
    }
    assert {n for n, x in f.items() if x.get("resource")} == {"lep", "wunden"}
    assert (f["lep"]["resource_name"], f["wunden"]["resource_name"]) == ("LeP", "Wunden")
    r = run("damage", {"damage": "9", "rs": 1, "ko": 12, "lep": 30, "wunden": 1})
    assert r["target_update"] == {"lep": 22, "wunden": 2}
    again = run("damage", {"damage": "9", "rs": 1, "ko": 12, **r["target_update"]})
    assert again["target_update"] == {"lep": 14, "wunden": 3}


def test_damage_names_only_the_assumptions_its_hit_rests_on() -> None:
    """KO 12 with 7 SP, no RS, LeP off every threshold: nothing assumed. KO 13 with 7 SP: the
    unrounded KO/2 decides the wound („Wundschwelle (KO/2)“); RS: the SP rule; LeP landing on 5:
    the reading of „Ab 5 LeP“; far above the Wundschwelle: the count of wounds per hit."""
    assert assumed(run("damage", {"damage": "7", "ko": 12, "lep": 30})) == []
    r = run("damage", {"damage": "7", "ko": 13, "lep": 30})
    assert r["wunden"] == 1 and assumed(r) == [annahme("wunden.wundschwelle")]
    assert assumed(run("damage", {"damage": "8", "ko": 13, "lep": 30})) == []
    assert assumed(run("damage", {"damage": "9", "rs": 2, "ko": 12, "lep": 30})) == [
        annahme("angriff.ruestungsschutz")
    ]
    r = run("damage", {"damage": "7", "ko": 12, "lep": 12})
    assert r["status"] == "kampfunfaehig" and assumed(r) == [annahme("wunden.schwellen")]
    r = run("damage", {"damage": "13", "ko": 12, "lep": 40})
    assert r["wunden"] == 1 and assumed(r) == [annahme("wunden.hoechstens_pro_treffer")]


@pytest.mark.parametrize(
    ("lep", "zustand", "text", "rule"),
    [
        (30, "kampffähig", "kampffähig", "LeP > 5: kampffähig"),
        (4, "kampfunfähig", "kampfunfähig", "LeP ≤ 5: kampfunfähig"),
        (0, "kampfunfähig", "lebensbedrohlich verletzt", "LeP ≤ 0: lebensbedrohlich verletzt"),
        (-4, "tot", "tot", "LeP ≤ −KO: tot"),
    ],
)
def test_damage_says_whether_the_target_can_still_act(
    lep: int, zustand: str, text: str, rule: str
) -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Crits und Patzer", Absatz zu Wunden (kampfunfähig ab
    5 LeP, lebensbedrohlich ab 0 LeP, tot bei −KO): ``target_state`` names it in the fight's one
    vocabulary (engine.fight_state) with the rule of the fight contract that decided it, so the
    Kampfhelfer page passes over a fighter who cannot act. 9 TP without RS: 9 SP."""
    r = run("damage", {"damage": "9", "rs": 0, "ko": 4, "lep": lep + 9, "wunden": 0})
    assert r["lep"] == lep
    assert r["target_state"] == {
        "zustand": zustand,
        "text": text,
        "id": r["status"],
        "rule": rule,
        "missing": [],
    }


def _damage_line(result: dict[str, Any]) -> dict[str, Any]:
    rolls = [i for s in result["display"]["sections"] if s["kind"] == "rolls" for i in s["items"]]
    (line,) = [item for item in rolls if "Schaden" in item["label"] or "TP" in item["label"]]
    return line


@pytest.mark.parametrize(
    "situation",
    [
        {"ziel_rs": 2},
        {"ziel_rs": 3, "manoever": "wuchtschlag", "manoever_x": 2},
        {"ziel_rs": 0},
    ],
)
def test_attack_and_damage_use_one_word_for_one_quantity(situation: dict[str, Any]) -> None:
    """001_240b8e52c108db7c.txt, the abbreviations: „SP -> Schadenspunkte“ – the Schaden a hit
    does is SP (Abschnitt "Kampfrunde": „eine Selbstbeherrschungsprobe erschwert um die SP“),
    the weapon's roll is its Trefferpunkte (TP, Annahme „SP = TP − RS“). Issue 26: the attack
    said „Schaden (SP): 6“ where „Schaden und Wunden“ called the same 6 „TP“: both now show one
    line „Trefferpunkte (TP) → Schadenspunkte (SP)“ with the same SP, and the follow-up hands
    on the TP."""
    for seed in range(60):
        hit = run("attack", situation, seed)
        if not hit["follow_ups"]:
            continue
        follow = next(f for f in hit["follow_ups"] if f["action"] == "damage")["params"]
        hurt = run("damage", {**follow, "ko": 12, "lep": 30}, seed)
        attack_line, damage_line = _damage_line(hit), _damage_line(hurt)
        assert attack_line["label"] == damage_line["label"]
        assert attack_line["label"] == "Trefferpunkte (TP) → Schadenspunkte (SP)"
        assert attack_line["total"] == damage_line["total"] == str(hit["sp"]) == str(hurt["sp"])
        assert hurt["display"]["headline"] == f"Schaden – {hurt['sp']} SP"
        crit = [m["label"] for line in (attack_line, damage_line) for m in line["modifiers"]]
        assert not [label for label in crit if "Schaden" in label], crit
        return
    raise AssertionError("no hit in 60 seeds")


def test_the_weapon_field_is_called_trefferpunkte_in_both_helpers() -> None:
    """The field the attack's follow-up fills and the attack's weapon field carry the same key
    (``damage``, as every system's weapon damage), name and help: the weapon's Trefferpunkte
    (TP), not „Schaden“ (that is the SP, the text's „SP -> Schadenspunkte“, key ``sp``)."""
    weapon, tp = fields("attack")["damage"], fields("damage")["damage"]
    assert weapon["label"] == tp["label"] == "Trefferpunkte (TP)"
    assert "Schaden" not in weapon["help"] and "Schaden" not in tp["help"]
