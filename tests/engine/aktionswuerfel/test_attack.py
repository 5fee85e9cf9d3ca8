"""Aktionswürfel-System: the ``attack`` action, hit and wound (``attack.py``)."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from harness.brute import chance, expectation
from harness.support import assumed, notes
from tests.engine.aktionswuerfel.helpers import annahme, error, fields, form_params, run, send


@pytest.mark.parametrize(
    ("roll", "defense", "hit"), [(10, 10, True), (9, 10, False), (0, 0, True), (999, 0, True)]
)
def test_attack_roll_vs_verteidigungswert(roll: int, defense: int, hit: bool) -> None:
    """003_3ac4060591b07c19.txt L52: a successful Angriffswurf against the Verteidigungswert
    (reaching it counts: Annahme angriff.erfolg_ab_gleichstand)."""
    r = run("attack", {"angriffswurf": roll, "verteidigungswert": defense})
    assert r["hit"] is hit
    assert (r["damage_roll"] is not None) is hit


def test_attack_attribute() -> None:
    """003_3ac4060591b07c19.txt L54: Gewandtheit for melee, Präzision for ranged."""
    assert run("attack", {})["angriffs_attribut"] == "Gewandtheit"
    assert run("attack", {"angriffsart": "fernkampf"})["angriffs_attribut"] == "Präzision"


def test_undefended_target_is_hit() -> None:
    """003_3ac4060591b07c19.txt L52: only a target that can defend needs the roll."""
    r = run("attack", {"ziel_verteidigt": False, "angriffswurf": 0, "verteidigungswert": 50})
    assert r["hit"] is True


def test_wound_seeded() -> None:
    """003_3ac4060591b07c19.txt L102–L110: damage dice + Schadensbonus − armour = wound;
    above Zähigkeit → critical; two criticals → kampfunfähig; Gesundheit 0 → death."""
    seed = 12
    rng = random.Random(seed)
    dice3 = [rng.randint(1, 6) for _ in range(3)]
    params = {
        "schadenswuerfel": "3W6",
        "schadensbonus": 3,
        "armor": 4,
        "zaehigkeit": 8,
        "gesundheit": 12,
        "kritische_wunden": 1,
    }
    r = run("attack", params, seed)
    wound = max(0, sum(dice3) + 3 - 4)
    assert r["wunde"]["schadenswert"] == wound
    assert r["wunde"]["kritisch"] is (wound > 8)
    assert r["wunde"]["kampfunfaehig"] is (wound > 8)
    assert r["wunde"]["gesundheit"] == 12 - wound
    assert r["wunde"]["tot"] is (12 - wound <= 0)


def test_armour_absorbs_everything() -> None:
    """003_3ac4060591b07c19.txt L102: armour reducing the damage to 0 → no wound."""
    r = run("attack", {"schadenswuerfel": "1W6", "armor": 6})
    assert r["wunde"]["schadenswert"] == 0 and r["wunde"]["kritisch"] is False
    assert r["chances"]["wunde"] == "0"


CASES = [
    ("1W6", 0, 0, 0, 1, 0),
    ("2W6", 2, 3, 6, 20, 0),
    ("3W6", 5, 1, 8, 10, 1),
    ("1W10+1W4", -3, 0, 2, 3, 1),
    ("2W6", 50, 0, 100, 999, 0),
    ("1W20", -50, 100, 0, 1, 1),
    ("4W6", 0, 0, 0, 24, 0),
]


@pytest.mark.parametrize(("notation", "bonus", "armour", "tough", "health", "crits"), CASES)
def test_wound_chances_brute_force(
    notation: str, bonus: int, armour: int, tough: int, health: int, crits: int
) -> None:
    """003_3ac4060591b07c19.txt L102–L110: every reported chance equals brute force."""
    from engine import dice

    expression = dice.parse(notation)
    sides = [t.sides for t in expression.terms for _ in range(t.count)]
    r = run(
        "attack",
        {
            "schadenswuerfel": notation,
            "schadensbonus": bonus,
            "armor": armour,
            "zaehigkeit": tough,
            "gesundheit": health,
            "kritische_wunden": crits,
        },
    )

    def wound(f: tuple[int, ...]) -> int:
        return max(0, sum(f) + expression.constant + bonus - armour)

    c = r["chances"]
    assert Fraction(c["wunde"]) == chance(sides, lambda f: wound(f) > 0)
    assert Fraction(c["kritisch"]) == chance(sides, lambda f: wound(f) > tough)
    assert Fraction(c["kampfunfaehig"]) == chance(sides, lambda f: crits + (wound(f) > tough) >= 2)
    assert Fraction(c["tot"]) == chance(sides, lambda f: health - wound(f) <= 0)
    assert Fraction(c["expected_wunde"]) == expectation(sides, wound)


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"schadenswuerfel": "30W6"}, "schadenswuerfel"),
        ({"schadenswuerfel": "1W1000"}, "schadenswuerfel"),
        ({"schadenswuerfel": "W"}, "schadenswuerfel"),
        ({"gesundheit": 0}, "gesundheit"),
        ({"gesundheit": -1000}, "gesundheit"),
        ({"kritische_wunden": -1}, "kritische_wunden"),
        ({"kritische_wunden": 21}, "kritische_wunden"),
        ({"angriffsart": "kampfmanoever", "manoever": "werfen"}, "manoever"),
        (
            {"angriffsart": "kampfmanoever", "manoever": "schieben", "schieben_opfer": 2},
            "schieben_opfer",
        ),
        ({"angriffsart": "kampfmanoever", "schieben_opfer": -1}, "schieben_opfer"),
        ({"angriffsart": "magie"}, "angriffsart"),
        ({"armor": -1}, "armor"),
    ],
)
def test_attack_bad_input(params: dict[str, Any], field: str) -> None:
    """Bad input → EngineError with a German message naming the field."""
    err = error("attack", params)
    assert err["field"] == field and err["message"]


def test_a_dead_target_is_refused_in_german() -> None:
    """003_3ac4060591b07c19.txt L104: at Gesundheit 0 the character dies – an attack on it is
    refused with a German message naming the field (a target_update can put 0 or less there)."""
    err = error("attack", {"gesundheit": 0})
    assert err["field"] == "gesundheit" and "tot" in err["message"]
    assert "Schicksalswürfel" in err["message"]


# --- connected helpers: hints, target_update, assumptions --------------------------------------


def test_attack_hints() -> None:
    """Whose value each field is, when it applies and what a result changes (L50–L110). The
    Angriffswurf is rolled at the table for this one attack (L52: „braucht es einen
    erfolgreichen Angriffswurf gegen den Verteidigungswert“): ``per_roll``, no fighter's value –
    before, the fight kept the attacker's last Angriffswurf and filled it into his next attack
    (issue 26, „Stale per-roll inputs“)."""
    f = fields("attack")
    assert f["angriffswurf"]["per_roll"] is True and "subject" not in f["angriffswurf"]
    assert [n for n, x in f.items() if x.get("per_roll")] == ["angriffswurf"]
    assert {f[n]["subject"] for n in ("schadenswuerfel", "schadensbonus")} == {"actor"}
    target = ("verteidigungswert", "armor", "zaehigkeit", "gesundheit", "kritische_wunden")
    assert {f[n]["subject"] for n in target} == {"target"}
    assert [n for n, x in f.items() if x.get("resource")] == ["gesundheit", "kritische_wunden"]
    for name in ("angriffsart", "ziel_verteidigt", "manoever", "schieben_opfer"):
        assert "subject" not in f[name]
    assert f["angriffswurf"]["when"] == {"ziel_verteidigt": [True]}
    assert f["verteidigungswert"]["when"] == {"ziel_verteidigt": [True]}
    damage = {"angriffsart": ["nahkampf", "fernkampf"]}
    for name in ("schadenswuerfel", "schadensbonus", "armor", "zaehigkeit", "gesundheit"):
        assert f[name]["when"] == damage, name
    assert f["manoever"]["when"] == {"angriffsart": ["kampfmanoever"]}
    assert f["schieben_opfer"]["when"] == {
        "angriffsart": ["kampfmanoever"],
        "manoever": ["schieben"],
    }


def test_target_update_after_a_hit() -> None:
    """003_3ac4060591b07c19.txt L102–L110: after a hit the target's Gesundheit and kritische
    Wunden, under the field names of the attack helper; none after a miss."""
    r = run("attack", {"schadenswuerfel": "1W6", "schadensbonus": 10, "zaehigkeit": 5}, 3)
    assert r["target_update"] == {
        "gesundheit": r["wunde"]["gesundheit"],
        "kritische_wunden": r["wunde"]["kritische_wunden"],
    }
    assert r["target_update"]["kritische_wunden"] == 1
    assert "target_update" not in run("attack", {"angriffswurf": 3})


def test_target_update_can_be_entered_again() -> None:
    """003_3ac4060591b07c19.txt L110: the target's values after a second critical wound are
    accepted by the next attack (kampfunfähig, not dead); the helper says so."""
    first = run("attack", {"schadenswuerfel": "1W6", "schadensbonus": 10, "kritische_wunden": 1})
    update = first["target_update"]
    assert update["kritische_wunden"] == 2 and update["gesundheit"] > 0
    again = run("attack", {"schadenswuerfel": "1W6", **update})
    assert any("kampfunfähig" in n for n in notes(again))


def test_leftover_values_never_block_a_roll() -> None:
    """Fields hidden by their ``when`` are not sent: a Kampfmanöver with impossible damage
    values, an undefended target with an empty roll – the form's values go through."""
    params = {
        "angriffsart": "kampfmanoever",
        "schadenswuerfel": "30W6",
        "gesundheit": 0,
        "ziel_verteidigt": False,
        "angriffswurf": None,
    }
    sent = form_params("attack", params)
    assert "schadenswuerfel" not in sent and "angriffswurf" not in sent
    assert send("attack", params)["ok"]
    # the engine still refuses such a value from a caller that does send it
    assert error("attack", {"schadenswuerfel": "30W6"})["field"] == "schadenswuerfel"


def test_attack_names_the_assumptions_it_used() -> None:
    """L52: the entered Angriffswurf (Annahme wurf) and a tie (Annahme
    angriff.erfolg_ab_gleichstand) are named only when they decide the result."""
    tie = annahme("angriff.erfolg_ab_gleichstand")
    entered = annahme("wurf")
    assert assumed(run("attack", {"angriffswurf": 10, "verteidigungswert": 10})) == [entered, tie]
    assert assumed(run("attack", {"angriffswurf": 11, "verteidigungswert": 10})) == [entered]
    assert assumed(run("attack", {"ziel_verteidigt": False})) == []


# --- Kampfmanöver (L56–L80) ---------------------------------------------------------------------

MANOEUVRE = {"angriffsart": "kampfmanoever", "angriffswurf": 12, "verteidigungswert": 10}


def test_manoeuvre_on_athletik_without_damage() -> None:
    """003_3ac4060591b07c19.txt L58, L61: a Kampfmanöver is a special attack without direct
    damage; the Kampfmanöverwurf is based on Athletik. No damage dice, no wound, no update."""
    r = run("attack", {**MANOEUVRE, "manoever": "niederwerfen"})
    assert r["angriffs_attribut"] == "Athletik" and r["hit"] is True
    assert r["damage_roll"] is None and r["wunde"] is None and r["chances"] == {}
    assert "target_update" not in r
    assert r["kampfmanoever"] == {
        "kind": "niederwerfen",
        "success": True,
        "felder": None,
        "geopferte_aktionswuerfel": 0,
    }
    assert r["display"]["outcome"] == "Der Gegner liegt."  # L76
    assert any("2 Aktionswürfel" in n for n in notes(r))  # standing up from lying: L48


def test_manoeuvre_festhalten() -> None:
    """003_3ac4060591b07c19.txt L65–L71: the target counts as festgehalten, cannot move
    normally; Stärke-Wurf to move, Athletik-Wurf to break free; both sacrifice a die per turn."""
    r = run("attack", {**MANOEUVRE, "manoever": "festhalten"})
    assert "festgehalten" in r["display"]["outcome"]
    text = " ".join(notes(r))
    assert "Stärke-Wurf" in text and "Athletik-Wurf" in text and "Reaktion" in text
    assert "je Zug 1 Aktionswürfel" in text


@pytest.mark.parametrize(("sacrificed", "moved"), [(0, 1), (1, 2)])
def test_manoeuvre_schieben(sacrificed: int, moved: int) -> None:
    """003_3ac4060591b07c19.txt L80: one field in the direction of the attack, one more per
    further sacrificed Aktionswürfel (at most the one left after the roll: L18, L22)."""
    r = run("attack", {**MANOEUVRE, "manoever": "schieben", "schieben_opfer": sacrificed})
    assert r["kampfmanoever"]["felder"] == moved
    assert r["kampfmanoever"]["geopferte_aktionswuerfel"] == sacrificed
    assert f"{moved} Feld" in r["display"]["outcome"]
    assert fields("attack")["schieben_opfer"]["max"] == 1


def test_manoeuvre_failure_has_no_effect() -> None:
    """003_3ac4060591b07c19.txt L61: only a success puts the effects into force."""
    r = run("attack", {**MANOEUVRE, "manoever": "schieben", "schieben_opfer": 1, "angriffswurf": 9})
    assert r["hit"] is False and r["kampfmanoever"]["felder"] is None
    assert r["kampfmanoever"]["geopferte_aktionswuerfel"] == 0
    assert r["display"]["headline"] == "Schieben misslungen"


def test_manoeuvre_names_its_assumption() -> None:
    """L52, L61: against what the Kampfmanöverwurf succeeds is an Annahme (like the
    Angriffswurf); an undefended target is moved without a roll – then no entered roll."""
    rule = annahme("kampfmanoever.gegen_verteidigungswert")
    r = run("attack", {**MANOEUVRE, "ziel_verteidigt": False, "angriffswurf": 0})
    assert r["hit"] is True and assumed(r) == [rule]
    r = run("attack", {**MANOEUVRE, "angriffswurf": 10})
    assert assumed(r) == [
        rule,
        annahme("wurf"),
        annahme("angriff.erfolg_ab_gleichstand"),
    ]


@pytest.mark.parametrize(
    ("before", "zustand", "text"),
    [
        # L110: „Charaktere mit zwei kritischen Wunden sind kampfunfähig.“
        ({"gesundheit": 20, "kritische_wunden": 1}, "kampfunfähig", "kampfunfähig"),
        # L104: „Sobald die aktuelle Gesundheit … auf 0 sinkt, stirbt der Charakter und kann nur
        # durch den Einsatz von Schicksalswürfeln gerettet werden.“
        ({"gesundheit": 8, "kritische_wunden": 0}, "tot", None),
        ({"gesundheit": 20, "kritische_wunden": 0}, "kampffähig", "kampffähig"),
    ],
)
def test_a_hit_says_whether_the_target_can_still_act(
    before: dict[str, Any], zustand: str, text: str | None
) -> None:
    """003_3ac4060591b07c19.txt L104, L110: the outcome said „Zwei kritische Wunden:
    kampfunfähig.“ or that Gesundheit 0 kills, but the result gave no ``target_state`` – the
    page never marked the target down (issue 48). A wound of 9 (over Zähigkeit 6) now gives the
    state after the hit; Gesundheit 0 is „tot“ with the Schicksalswürfel said in its text."""
    r = run("attack", {"schadenswuerfel": "9", "armor": 0, "zaehigkeit": 6, **before})
    state = r["target_state"]
    assert state["zustand"] == zustand
    if text is not None:
        assert state["text"] == text
    else:
        assert "Schicksalswürfel" in state["text"]
