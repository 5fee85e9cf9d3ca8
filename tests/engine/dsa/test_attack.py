"""DSA 4.1 Hausregeln: the ``attack`` action – probe, crits, Erschwernisse, damage, odds
(``attack.py``)."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import dice
from harness.brute import chance, expectation
from harness.support import assumed, draws, seed_where
from tests.engine.dsa.helpers import KEYS, annahme, attack, error, fields, model_outcome, run


def test_attack_roll_under_with_erschwernis() -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Mögliche Angriffsaktionen...": Attacke erschwert oder
    erleichtert nach Meisterentscheid; 1W20 ≤ AT − Erschwernis trifft (+N = schwerer)."""
    seed = seed_where(lambda g: 2 <= g.randint(1, 20) <= 19)
    first = draws(seed, [20])[0]
    r = attack({"wert": first + 3, "erschwernis": 3}, seed)
    assert r["target"] == first and r["outcome"] == "gelungen" and r["hits_target"]
    r = attack({"wert": first + 3, "erschwernis": 4}, seed)
    assert r["target"] == first - 1 and r["outcome"] == "misslungen" and r["sp"] is None
    r = attack({"wert": first - 3, "erschwernis": -3}, seed)
    assert r["outcome"] == "gelungen"


def test_attack_one_confirmed_is_kritisch_and_doubles_damage() -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Crits und Patzer": „Bei einem kritischen Angriff
    (bestätigte 1) hat der Verteidiger nur halbe PA/AW zur Reaktion und der Schaden verdoppelt
    sich.“ (SP = 2 × TP − RS, Annahme)."""
    seed = seed_where(lambda g: g.randint(1, 20) == 1 and g.randint(1, 20) <= 12)
    _, confirm, d6 = draws(seed, [20, 20, 6])
    assert confirm <= 12
    r = attack({"wert": 12, "ziel_rs": 3, "damage": "1W6+4"}, seed)
    assert r["outcome"] == "kritisch" and r["confirmation"]["total"] == confirm
    assert r["sp"] == 2 * (d6 + 4) - 3
    assert "halbe PA/AW" in r["display"]["outcome"]


def test_attack_one_unconfirmed_is_gluecklich() -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Crits und Patzer": glücklicher Angriff (unbestätigte 1):
    der Verteidiger hat nur halbe PA/AW; a 1 hits even below value 1 (Annahme)."""
    seed = seed_where(lambda g: g.randint(1, 20) == 1 and 2 <= g.randint(1, 20) <= 19)
    _, _, d6 = draws(seed, [20, 20, 6])
    r = attack({"wert": 1, "ziel_rs": 2}, seed)
    assert r["outcome"] == "gluecklich" and r["hits_target"]
    assert r["sp"] == d6 + 4 - 2


def test_attack_twenty_unglücklich_or_patzer() -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Crits und Patzer": a 20 never hits (unabhängig vom AT
    Wert); confirmed (second W20 fails) → Patzer with Missgeschick nach Meisterentscheid."""
    seed = seed_where(lambda g: g.randint(1, 20) == 20 and 10 < g.randint(1, 20) < 20)
    confirm = draws(seed, [20, 20])[1]
    r = attack({"wert": 10}, seed)
    assert r["outcome"] == "patzer" and not r["hits_target"] and r["sp"] is None
    assert "Missgeschick nach Meisterentscheid" in r["display"]["outcome"]
    r = attack({"wert": confirm}, seed)
    assert r["outcome"] == "ungluecklich"
    r = attack({"wert": 40}, seed)  # still misses, even with AT 40
    assert r["outcome"] == "ungluecklich" and not r["hits_target"]


def test_second_attack_and_passierschlag_plus_4() -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Auswahl von durchzuführenden Aktionen": „Die zweite
    Angriffsaktion ist um 4 erschwert ** Ausnahme Stabkämpfer“; Abschnitt "Mögliche Freie
    Aktionen...": „Ein Passierschlag ist ein um 4 erschwerter Angriff“."""
    assert attack({"wert": 14, "zweite_angriffsaktion": True})["target"] == 10
    assert attack({"wert": 14, "zweite_angriffsaktion": True, "stabkaempfer": True})["target"] == 14
    assert attack({"wert": 14, "passierschlag": True})["target"] == 10


def test_the_second_attack_action_cites_its_rule() -> None:
    """001_240b8e52c108db7c.txt (one line), Abschnitt "Auswahl von durchzuführenden Aktionen":
    „2 Angriffsaktionen -> Die zweite Angriffsaktion ist um 4 erschwert ** Ausnahme
    Stabkämpfer“. The field the fight bar sets on an actor's second action is
    ``zweite_angriffsaktion``: shown in the form (not folded away), no fighter's value and not
    cleared by the page; the result says which rule made the probe harder – or why not."""
    f = fields("attack")["zweite_angriffsaktion"]
    assert f["type"] == "bool" and f["default"] is False
    assert not f.get("advanced") and not f.get("subject") and not f.get("per_roll")
    second = attack({"wert": 14, "zweite_angriffsaktion": True})
    assert second["target"] == 10
    notes = [
        item
        for section in second["display"]["sections"]
        if section.get("kind") == "notes"
        for item in section["items"]
    ]
    assert "Zweite Angriffsaktion: „Die zweite Angriffsaktion ist um 4 erschwert“ (+4)." in notes
    staff = attack({"wert": 14, "zweite_angriffsaktion": True, "stabkaempfer": True})
    said = json.dumps(staff["display"], ensure_ascii=False)
    assert staff["target"] == 14 and "„Ausnahme Stabkämpfer“" in said
    first = json.dumps(attack({"wert": 14})["display"], ensure_ascii=False)
    assert "Angriffsaktion" not in first


def test_wounds_make_every_probe_harder_by_2() -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Crits und Patzer", Absatz zu Wunden: „Pro Wunde sind
    alle Proben um zwei erschwert“."""
    assert attack({"wert": 14, "wunden": 3})["target"] == 8
    assert run("defense", {"pa_basis": 10, "wunden": 2})["target"] == 6


def brute_attack(
    target: int, free: int | None, sides: list[int], dmg: Any, tp: Any
) -> dict[str, Fraction]:
    """Enumerate first W20, confirmation W20 and the damage dice: SP on the target, TP on
    another person in the Kampfgetümmel (before his own RS, which the text does not know)."""

    def hit_target(f: tuple[int, ...]) -> Fraction:
        o = model_outcome(f[0], f[1], target, free)
        if o in ("kritisch", "gluecklich", "gelungen"):
            return Fraction(dmg(f[2:], o == "kritisch"))
        return Fraction(0)

    def hit_other(f: tuple[int, ...]) -> Fraction:
        o = model_outcome(f[0], f[1], target, free)
        return Fraction(tp(f[2:])) if o == "andere_person" else Fraction(0)

    return {
        "target": expectation([20, 20, *sides], hit_target),
        "other": expectation([20, 20, *sides], hit_other),
    }


@pytest.mark.parametrize(
    "params",
    [
        {"wert": 14},
        {"wert": 0, "erschwernis": 30, "ziel_rs": 20},
        {"wert": 40, "erschwernis": -20, "damage": "2W6+2", "ziel_rs": 5},
        {"wert": 12, "manoever": "wuchtschlag", "manoever_x": 20, "ziel_rs": 3},
        {"wert": 18, "manoever": "sturmangriff", "gs": 20, "damage": "1W6-2", "ziel_rs": 8},
        {"wert": 16, "manoever": "gezielter_stich", "ziel_rs": 20, "damage": "1W4"},
        {"kind": "fernkampf", "wert": 15, "getuemmel": 5, "damage": "1W6+3", "ziel_rs": 2},
        {
            "kind": "fernkampf",
            "wert": 20,
            "getuemmel": 10,
            "distance": "extrem_weit",
            "zielen": 20,
        },
        {"kind": "fernkampf", "wert": 1, "distance": "sehr_nah", "getuemmel": 3},
        {"kind": "fernkampf", "wert": 18, "getuemmel": 4, "damage": "1W6-2", "ziel_rs": 4},
    ],
)
def test_attack_chances_and_expected_damage_brute_force(params: dict[str, Any]) -> None:
    """001_240b8e52c108db7c.txt, Abschnitte "Crits und Patzer", "Fernkampfattacken ins
    Kampfgetümmel" and the SF sections: every reported chance and the expected SP (crit doubles
    the TP incl. bonuses, then − RS, never below 0 – Annahme) by enumerating all dice; for
    another person hit in the Kampfgetümmel the expected TP, never below 0, before his own RS
    (the target's RS is the target's)."""
    r = attack(params)
    target, free = r["target"], r["target_without_melee"]
    for key in KEYS:
        expected = chance([20, 20], lambda f, k=key: model_outcome(f[0], f[1], target, free) == k)
        assert Fraction(r["chances"][key]) == expected, key
    expr = dice.parse(params.get("damage", "1W6+4"))
    sides = [t.sides for t in expr.terms for _ in range(t.count)]
    signs = [t.sign for t in expr.terms for _ in range(t.count)]
    bonus = sum(m["value"] for m in r["damage_bonus"])
    rs = 0 if params.get("manoever") == "gezielter_stich" else params.get("ziel_rs", 0)

    def tp(faces: tuple[int, ...]) -> int:
        return expr.constant + sum(s * f for s, f in zip(signs, faces, strict=True)) + bonus

    def dmg(faces: tuple[int, ...], crit: bool) -> int:
        return max(0, (2 * tp(faces) if crit else tp(faces)) - rs)

    brute = brute_attack(target, free, sides, dmg, lambda faces: max(0, tp(faces)))
    assert Fraction(r["expected_damage"]) == brute["target"]
    assert Fraction(r["expected_damage_other"]) == brute["other"]


@pytest.mark.parametrize(
    ("params", "field", "needle"),
    [
        ({"wert": 41}, "wert", "außerhalb"),
        ({"kind": "nahkampf", "distance": "weit"}, "distance", "nur für Schüsse"),
        ({"kind": "nahkampf", "zielen": 2}, "zielen", "nur für Schüsse"),
        ({"kind": "nahkampf", "getuemmel": 3}, "getuemmel", "nur für Schüsse"),
        ({"kind": "fernkampf", "manoever": "finte", "manoever_x": 2}, "manoever", "Nahkampf"),
        ({"kind": "fernkampf", "passierschlag": True}, "passierschlag", "Nahkampf"),
        ({"manoever": "wuchtschlag"}, "manoever_x", "mindestens 1"),
        ({"manoever_x": 3}, "manoever_x", "nur für Wuchtschlag"),
        ({"passierschlag": True, "zweite_angriffsaktion": True}, "passierschlag", "Freie Aktion"),
        ({"ziel_schild_pa": 2}, "ziel_schild_pa", "Schild"),
        ({"kind": "fernkampf", "getuemmel": 1}, "getuemmel", "mindestens 2"),
        (
            {"kind": "fernkampf", "getuemmel": 4, "getuemmel_namen": "A, B"},
            "getuemmel_namen",
            "3 andere",
        ),
        ({"getuemmel_namen": "A"}, "getuemmel_namen", "nur bei"),
        ({"damage": "1W"}, "damage", "Trefferpunkte"),
        ({"distance": "ganz_weit"}, "distance", "keine der Möglichkeiten"),
    ],
)
def test_attack_validation(params: dict[str, Any], field: str, needle: str) -> None:
    """Bad input: EngineError with a German message naming the field."""
    err = error("attack", params)
    assert err["field"] == field, err
    assert needle in err["message"], err


@settings(max_examples=60, deadline=None)
@given(
    art=st.sampled_from(["nahkampf", "fernkampf"]),
    wert=st.integers(0, 40),
    erschwernis=st.integers(-20, 30),
    getuemmel=st.sampled_from([0, 2, 3, 10]),
    seed=st.integers(0, 2**32),
)
def test_attack_properties(
    art: str, wert: int, erschwernis: int, getuemmel: int, seed: int
) -> None:
    """Any valid attack answers, its chances sum to 1 and the outcome has positive chance."""
    params: dict[str, Any] = {"kind": art, "wert": wert, "erschwernis": erschwernis}
    if art == "fernkampf":
        params["getuemmel"] = getuemmel
    r = attack(params, seed)
    total = sum(Fraction(r["chances"][k]) for k in KEYS)
    assert total == 1
    assert Fraction(r["chances"][r["outcome"]]) > 0


# ---------------------------------------------------------------------------------------------
# Connected helpers: hints, follow-ups, the assumptions a result names
# ---------------------------------------------------------------------------------------------


def test_attack_hints_whose_values_and_when_they_apply() -> None:
    """The attacker's own values are ``actor``, the target's RS and shield ``target``; each field
    of one case only (manoeuvres, shots) names its case."""
    f = fields("attack")
    assert {n for n, x in f.items() if x.get("subject") == "actor"} == {
        "kind",  # Attacke or Schuss goes with the weapon's TP (an archer stays an archer)
        "wert",
        "wunden",
        "stabkaempfer",
        "gs",
        "damage",
    }
    assert {n for n, x in f.items() if x.get("subject") == "target"} == {
        "ziel_rs",
        "ziel_schild",
        "ziel_schild_pa",
    }
    assert not any(x.get("resource") for x in f.values())
    # one roll's only (issue 26, point 5): „seine nächste Probe ist um X erschwert“ (Abschnitt
    # "Geläufigste aktive Kampfsonderfertigkeiten"), a Passierschlag (Abschnitt "Mögliche Freie
    # Aktionen..."), the actions spent aiming before this shot (Abschnitt "Besonderheiten von
    # Fernkampfwaffen"); the second attack action is set by the fight, not cleared by the page
    per_roll = {n for n, x in f.items() if x.get("per_roll")}
    assert per_roll == {"nachwirkung", "passierschlag", "zielen"}
    assert "per_roll" not in f["zweite_angriffsaktion"]
    assert "subject" not in f["zweite_angriffsaktion"]
    assert f["manoever_x"]["when"] == {
        "kind": ["nahkampf"],
        "manoever": ["wuchtschlag", "finte"],
    }
    assert f["gs"]["when"] == {"kind": ["nahkampf"], "manoever": ["sturmangriff"]}
    assert f["ziel_schild_pa"]["when"]["ziel_schild"] == [True]
    for name in ("distance", "zielen", "getuemmel"):
        assert f[name]["when"] == {"kind": ["fernkampf"]}
    assert f["getuemmel_namen"]["when"]["getuemmel"] == list(range(2, 11))
    assert f["passierschlag"]["when"] == {"kind": ["nahkampf"]}


def test_a_hit_continues_with_the_halved_defense_and_the_rolled_damage() -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Crits und Patzer": „Bei einem glücklichen Angriff
    (unbestätigte 1) hat der Verteidiger nur halbe PA/AW zur Reaktion“; Abschnitt "Finte":
    „erschwert damit die Reaktion des Ziels (Parade/Ausweichen) um X, wenn er trifft“. The damage
    follow-up carries the rolled TP as a constant: „Schaden und Wunden“ gives the same SP."""
    seed = seed_where(lambda g: g.randint(1, 20) == 1 and 13 <= g.randint(1, 20) <= 19)
    params = {"wert": 12, "manoever": "finte", "manoever_x": 2, "ziel_rs": 3}
    r = attack(params, seed)
    assert r["outcome"] == "gluecklich"
    defense, damage = r["follow_ups"]
    tp = r["damage_roll"]["total"]
    # the defense carries the hit on: a failed defense continues with this very damage
    hit = {"damage": str(tp), "zusatz": 0, "kritisch": False, "gezielter_stich": False}
    assert defense == {
        "action": "defense",
        "title": "Abwehr des Ziels würfeln",
        "params": {"halbe_abwehr": True, "finte": 2, **hit},
    }
    assert damage["action"] == "damage"
    assert damage["params"] == {
        "damage": str(tp),
        "zusatz": 0,
        "kritisch": False,
        "gezielter_stich": False,
        "rs": 3,
    }
    after = run("damage", {**damage["params"], "ko": 12, "lep": 30})
    assert after["sp"] == r["sp"] == tp - 3
    halved = run("defense", {"pa_basis": 10, **defense["params"]})
    assert halved["halved_value"] == 5 and halved["target"] == 5 - 2
    # an RS nobody typed here (the collapsed field's 0) is not passed on: the damage helper
    # keeps the armour it knows (issue 26, B2 and Deliver 4: hidden fields are never a source)
    plain = attack({**params, "ziel_rs": 0}, seed)["follow_ups"][1]["params"]
    assert "rs" not in plain


@pytest.mark.parametrize(
    ("manoeuvre", "extra"),
    [
        ("wuchtschlag", {"manoever_x": 3}),
        ("sturmangriff", {"gs": 7}),
        ("gezielter_stich", {}),
    ],
)
def test_a_critical_hit_passes_kritisch_and_the_bonus_tp(
    manoeuvre: str, extra: dict[str, Any]
) -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Crits und Patzer": „Bei einem kritischen Angriff
    (bestätigte 1) … verdoppelt sich“ der Schaden; the manoeuvres' bonus TP and the Gezielter
    Stich (ignores RS) go along, so the damage helper finds the attack's SP again."""
    seed = seed_where(lambda g: g.randint(1, 20) == 1 and g.randint(1, 20) <= 5)
    r = attack({"wert": 20, "manoever": manoeuvre, "ziel_rs": 4, **extra}, seed)
    assert r["outcome"] == "kritisch"
    defense, damage = r["follow_ups"]
    hit = {k: damage["params"][k] for k in ("damage", "zusatz", "kritisch", "gezielter_stich")}
    assert defense["params"] == {"halbe_abwehr": True, "finte": 0, **hit}
    assert damage["params"]["kritisch"] is True
    assert damage["params"]["zusatz"] == sum(m["value"] for m in r["damage_bonus"])
    assert damage["params"]["gezielter_stich"] is (manoeuvre == "gezielter_stich")
    after = run("damage", {**damage["params"], "ko": 12, "lep": 60})
    assert after["sp"] == r["sp"]


def test_a_plain_hit_clears_a_leftover_halved_defense() -> None:
    """A normal hit: the defender has his full PA/AW – the follow-up says so explicitly."""
    seed = seed_where(lambda g: 2 <= g.randint(1, 20) <= 14)
    r = attack({"wert": 14}, seed)
    assert r["outcome"] == "gelungen"
    defense = r["follow_ups"][0]["params"]
    assert (defense["halbe_abwehr"], defense["finte"], defense["kritisch"]) == (False, 0, False)


def test_no_follow_up_for_the_target_after_a_miss_a_stray_shot_or_a_patzer() -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Crits und Patzer": a Patzer is „ein Missgeschick nach
    Meisterentscheid“ with no table, and its confirmation is rolled here already – nothing to
    continue with; neither after a miss. A shot that hits someone else in the Kampfgetümmel
    continues only with that person's damage (``other_target``: not the fight's target, see
    test_ranged.py), never with the target's defense."""
    seed = seed_where(lambda g: g.randint(1, 20) == 20 and 10 < g.randint(1, 20) < 20)
    assert attack({"wert": 10}, seed)["outcome"] == "patzer"
    assert attack({"wert": 10}, seed)["follow_ups"] == []
    seed = seed_where(lambda g: 11 <= g.randint(1, 20) <= 19)
    assert attack({"wert": 10}, seed)["follow_ups"] == []
    seed = seed_where(lambda g: 9 <= g.randint(1, 20) <= 14)
    stray = attack({"kind": "fernkampf", "wert": 14, "getuemmel": 3}, seed)
    assert stray["outcome"] == "andere_person"
    assert [(f["action"], f.get("other_target")) for f in stray["follow_ups"]] == [("damage", True)]


def test_attack_names_only_the_assumptions_its_roll_rests_on() -> None:
    """A plain hit without RS rests on no assumption; a 1 on the confirmation rule, RS on the
    SP rule, a missed manoeuvre on when its penalty arises."""
    seed = seed_where(lambda g: 2 <= g.randint(1, 20) <= 14)
    assert assumed(attack({"wert": 14}, seed)) == []
    one = seed_where(lambda g: g.randint(1, 20) == 1)
    assert assumed(attack({"wert": 14}, one)) == [annahme("probe.bestaetigung")]
    assert assumed(attack({"wert": 14, "ziel_rs": 2}, seed)) == [annahme("angriff.ruestungsschutz")]
    miss = seed_where(lambda g: 15 <= g.randint(1, 20) <= 19)
    r = attack({"wert": 14, "manoever": "sturmangriff"}, miss)
    assert r["next_probe_modifier"] == 4
    assert assumed(r) == [annahme("probe.fehlschlag_manoever")]
    # GS 7: 4 + GS/2 needs its rounding; GS 8 does not
    r = attack({"wert": 20, "manoever": "sturmangriff", "gs": 7}, seed)
    assert annahme("halbieren.gs") in assumed(r)
    r = attack({"wert": 20, "manoever": "sturmangriff", "gs": 8}, seed)
    assert annahme("halbieren.gs") not in assumed(r)
