"""DSA 4.1 Hausregeln: the ``defense`` action – Parade, Ausweichen, crits, Meisterparade
(``defense.py``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from harness.brute import chance
from harness.support import assumed, seed_where
from tests.engine.dsa.helpers import annahme, error, fields, model_outcome, run


def test_waffenparade_value() -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Mögliche Abwehraktionen...": „Wert ist Parade-Basis +
    Waffen-PA - eBE/2“ (eBE/2 aufgerundet, Annahme)."""
    r = run("defense", {"pa_basis": 9, "waffe_pa": 1, "ebe": 3})
    assert r["value"] == 9 + 1 - 2 and r["target"] == 8
    assert run("defense", {"pa_basis": 9, "ebe": 4})["value"] == 7


def test_schildparade_value() -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Mögliche Abwehraktionen...": „Wert ist Parade-Basis +
    Schild-PA + Bonus aus SF - eBE/2“, eBE der Waffe."""
    r = run(
        "defense", {"kind": "schildparade", "pa_basis": 9, "schild_pa": 3, "sf_bonus": 2, "ebe": 1}
    )
    assert r["value"] == 9 + 3 + 2 - 1


def test_gezieltes_ausweichen_value_and_plus_3() -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Mögliche Abwehraktionen...": Gezieltes Ausweichen –
    „Abwehraktion erschwert um 3“, „Wert ist Parade-Basis + Bonus aus SF - eBE ** Als eBE wird
    hier die BE verwendet“, nur mit SF 'Ausweichen I' oder höher."""
    params = {"kind": "ausweichen", "sf_ausweichen": True, "pa_basis": 9, "sf_bonus": 3, "be": 3}
    r = run("defense", params)
    assert r["value"] == 9 + 3 - 3 and r["target"] == 9 - 3
    assert {"name": "Gezieltes Ausweichen", "value": 3} in r["modifiers"]
    err = error("defense", {"kind": "ausweichen"})
    assert err["field"] == "sf_ausweichen" and "Ausweichen I" in err["message"]


def test_second_defense_plus_4_except_shield_and_staff() -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Auswahl von durchzuführenden Aktionen": „Die zweite
    Abwehraktion ist um 4 erschwert ** Ausnahme Schild- und Stabkämpfer“."""
    assert run("defense", {"pa_basis": 10, "zweite_abwehr": True})["target"] == 6
    r = run("defense", {"pa_basis": 10, "zweite_abwehr": True, "schild_oder_stab": True})
    assert r["target"] == 10


def test_half_defense_after_lucky_attack() -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Crits und Patzer": „hat der Verteidiger nur halbe
    PA/AW zur Reaktion“ (halved before Erschwernisse, rounded up – Annahme)."""
    r = run("defense", {"pa_basis": 11, "halbe_abwehr": True, "erschwernis": 2})
    assert r["halved_value"] == 6 and r["target"] == 4


def test_defense_crits() -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Crits und Patzer": kritische Abwehr (bestätigte 1)
    „verbraucht keine Aktion“; unglückliche Abwehr (unbestätigte 20) „immer misslungen“."""
    seed = seed_where(lambda g: g.randint(1, 20) == 1 and g.randint(1, 20) <= 5)
    r = run("defense", {"pa_basis": 5}, seed)
    assert r["outcome"] == "kritisch" and r["success"] and not r["costs_action"]
    seed = seed_where(lambda g: g.randint(1, 20) == 20 and g.randint(1, 20) <= 5)
    r = run("defense", {"pa_basis": 30}, seed)
    assert r["outcome"] == "ungluecklich" and not r["success"]
    seed = seed_where(lambda g: g.randint(1, 20) == 1 and g.randint(1, 20) > 2)
    r = run("defense", {"pa_basis": 0}, seed)  # a 1 succeeds even at value 0
    assert r["outcome"] == "gluecklich" and r["success"] and r["costs_action"]


def test_meisterparade() -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Meisterparade": Parade um X erschwert, erleichtert bei
    Erfolg die nächste Probe um X; „Trifft er nicht, ist seine nächste Probe um X erschwert“."""
    ok = seed_where(lambda g: 2 <= g.randint(1, 20) <= 7)
    r = run("defense", {"pa_basis": 10, "meisterparade": 3}, ok)
    assert r["target"] == 7 and r["success"] and r["next_probe_modifier"] == -3
    bad = seed_where(lambda g: 8 <= g.randint(1, 20) <= 19)
    r = run("defense", {"pa_basis": 10, "meisterparade": 3}, bad)
    assert not r["success"] and r["next_probe_modifier"] == 3


@pytest.mark.parametrize(
    "params",
    [
        {"pa_basis": 0},
        {"pa_basis": 30, "waffe_pa": 15},
        {"pa_basis": 12, "ebe": 20, "erschwernis": 30, "wunden": 10},
        {"pa_basis": 14, "halbe_abwehr": True, "zweite_abwehr": True, "finte": 20},
        {"kind": "ausweichen", "sf_ausweichen": True, "pa_basis": 10, "be": 20},
        {
            "kind": "schildparade",
            "pa_basis": 9,
            "schild_pa": 15,
            "sf_bonus": 15,
            "erschwernis": -20,
        },
    ],
)
def test_defense_chances_brute_force(params: dict[str, Any]) -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Crits und Patzer" (Abwehr): every chance by
    enumerating both W20."""
    r = run("defense", params)
    target = r["target"]
    for key in ("kritisch", "gluecklich", "gelungen", "misslungen", "ungluecklich", "patzer"):
        expected = chance([20, 20], lambda f, k=key: model_outcome(f[0], f[1], target, None) == k)
        assert Fraction(r["chances"][key]) == expected
    ok = chance(
        [20, 20],
        lambda f: model_outcome(f[0], f[1], target, None) in ("kritisch", "gluecklich", "gelungen"),
    )
    assert Fraction(r["chances"]["abwehr_gelingt"]) == ok


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"schild_pa": 2}, "schild_pa"),
        ({"kind": "schildparade", "waffe_pa": 2}, "waffe_pa"),
        ({"sf_bonus": 2}, "sf_bonus"),
        ({"kind": "ausweichen", "sf_ausweichen": True, "meisterparade": 2}, "meisterparade"),
        ({"kind": "ausweichen", "sf_ausweichen": True, "ebe": 2}, "ebe"),
        ({"be": 2}, "be"),
        ({"pa_basis": -1}, "pa_basis"),
        ({"kind": "ausweichen_ungezielt"}, "kind"),
        # the hit carried on: a crit always halves the defense; TP must be dice
        ({"kritisch": True}, "kritisch"),
        ({"damage": "W"}, "damage"),
    ],
)
def test_defense_validation(params: dict[str, Any], field: str) -> None:
    """Bad input: EngineError with a German message naming the field."""
    err = error("defense", params)
    assert err["field"] == field and err["message"]


def test_defense_values_are_the_defenders_the_target_of_the_attacker() -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Ablauf einer Kampfrunde": „Ausnahmen sind hier Paraden
    und Ausweichen, die immer als Reaktion erfolgen“ – the defender reacts in the attacker's
    phase, so his values are the target's; each value of one kind of defense names its kind."""
    f = fields("defense")
    assert {n for n, x in f.items() if x.get("subject") == "target"} == {
        "pa_basis",
        "waffe_pa",
        "schild_pa",
        "sf_bonus",
        "sf_ausweichen",
        "ebe",
        "be",
        "wunden",
        "schild_oder_stab",
    }
    assert not any(x.get("subject") == "actor" for x in f.values())
    assert f["waffe_pa"]["when"] == {"kind": ["waffenparade"]}
    assert f["schild_pa"]["when"] == {"kind": ["schildparade"]}
    assert f["sf_bonus"]["when"] == {"kind": ["schildparade", "ausweichen"]}
    assert f["ebe"]["when"] == {"kind": ["waffenparade", "schildparade"]}
    assert f["be"]["when"] == f["sf_ausweichen"]["when"] == {"kind": ["ausweichen"]}
    assert f["meisterparade"]["when"] == {"kind": ["waffenparade", "schildparade"]}
    assert f["schild_oder_stab"]["when"] == {"zweite_abwehr": [True]}
    for name in ("kind", "erschwernis", "halbe_abwehr", "finte", "nachwirkung"):
        assert "subject" not in f[name]


def test_values_of_one_defense_are_cleared_after_it() -> None:
    """One roll's only (issue 26, point 5): the halved PA/AW after this glücklicher or kritischer
    Angriff and its Finte X (Abschnitte "Crits und Patzer", "Geläufigste aktive
    Kampfsonderfertigkeiten"), „seine nächste Probe ist um X erschwert“, and the hit being
    parried, carried on to the damage. None of them is a fighter's value."""
    f = fields("defense")
    hit = {"damage", "zusatz", "kritisch", "gezielter_stich"}
    assert {n for n, x in f.items() if x.get("per_roll")} == {
        "nachwirkung",
        "halbe_abwehr",
        "finte",
        *hit,
    }
    assert not [n for n in hit if f[n].get("advanced")]  # what goes on is on screen
    assert f["kritisch"]["when"] == {"halbe_abwehr": [True]}


def test_a_failed_defense_goes_on_to_the_defenders_damage() -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Crits und Patzer": a hit „darf noch parieren oder
    ausweichen“ – when that fails, the hit lands: the defense offers „Schaden und Wunden“ with
    the hit it carried (the attack's rolled TP, bonus TP, crit, Gezielter Stich). The defender
    is the target of both rolls (Abschnitt "Ablauf einer Kampfrunde": Paraden „immer als
    Reaktion“), so the damage lands on him; his RS, KO and LeP are the fight's, not passed on.
    A defense that holds offers nothing. Nothing is left to decide once the defense failed: the
    follow-up is ``then`` (a page that rolled the defense in one tap rolls the damage after it,
    issue #48 „DSA attack + parade + damage ≤ 3 clicks“)."""
    hit = {"damage": "11", "zusatz": 3, "kritisch": True, "gezielter_stich": False}
    fails = seed_where(lambda g: 11 <= g.randint(1, 20) <= 19)
    r = run("defense", {"pa_basis": 10, "halbe_abwehr": True, **hit}, fails)
    assert r["outcome"] == "misslungen" and not r["success"]
    assert r["follow_ups"] == [
        {"action": "damage", "title": "Schaden am Verteidiger", "params": hit, "then": True}
    ]
    after = run("damage", {**r["follow_ups"][0]["params"], "ko": 12, "lep": 40})
    assert after["sp"] == 2 * (11 + 3)  # doubled by the crit, RS 0
    for outcome_seed in (
        seed_where(lambda g: g.randint(1, 20) == 20 and g.randint(1, 20) > 5),  # Patzer
        seed_where(lambda g: g.randint(1, 20) == 20 and g.randint(1, 20) <= 5),  # unglücklich
    ):
        failed = run("defense", {"pa_basis": 10, "halbe_abwehr": True, **hit}, outcome_seed)
        assert not failed["success"] and failed["follow_ups"][0]["params"] == hit
    holds = seed_where(lambda g: 2 <= g.randint(1, 20) <= 5)
    assert run("defense", {"pa_basis": 10, **hit, "kritisch": False}, holds)["follow_ups"] == []


def test_the_attacks_hit_reaches_the_damage_through_a_failed_defense() -> None:
    """The chain a game master clicks: attack → „Abwehr des Ziels würfeln“ → a failed parade →
    „Schaden am Verteidiger“ gives the SP the attack itself computed."""
    hits = seed_where(lambda g: 2 <= g.randint(1, 20) <= 12)
    r = run("attack", {"wert": 14, "damage": "1W6+4", "ziel_rs": 2}, hits)
    defense_params = r["follow_ups"][0]["params"]
    fails = seed_where(lambda g: 11 <= g.randint(1, 20) <= 19)
    parried = run("defense", {"pa_basis": 8, **defense_params}, fails)
    damage_params = parried["follow_ups"][0]["params"]
    after = run("damage", {**damage_params, "rs": 2, "ko": 12, "lep": 30})
    assert after["sp"] == r["sp"]


def test_defense_names_only_the_assumptions_its_roll_rests_on() -> None:
    """An even eBE and a full PA need no rounding; an odd eBE, a halved odd PA and a Schild- or
    Stabkämpfer exempt from the second defense (Abschnitt "Auswahl von durchzuführenden
    Aktionen": „Ausnahme Schild- und Stabkämpfer“) each name theirs."""
    seed = seed_where(lambda g: 2 <= g.randint(1, 20) <= 19)
    assert assumed(run("defense", {"pa_basis": 10, "ebe": 2}, seed)) == []
    assert assumed(run("defense", {"pa_basis": 10, "ebe": 3}, seed)) == [annahme("halbieren.ebe")]
    r = run("defense", {"pa_basis": 11, "halbe_abwehr": True}, seed)
    assert r["halved_value"] == 6 and assumed(r) == [annahme("halbieren.abwehr")]
    r = run("defense", {"pa_basis": 10, "zweite_abwehr": True, "schild_oder_stab": True}, seed)
    assert r["target"] == 10 and assumed(r) == [annahme("abwehr.zweite_abwehr_ausnahme")]
    assert assumed(run("defense", {"pa_basis": 10, "zweite_abwehr": True}, seed)) == []
