"""Güte-System: the situations' and options' Erschwernisse (``modifiers.py``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from engine.fight_contract import contract_of
from harness.support import assumed
from tests.conftest import ROOT
from tests.engine.guete.helpers import annahme, d6, error, fields, run

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
    ({"surprised": True}, 0, 1, "L89"),
    ({"unsichtbares_ziel": True}, 2, 0, "L95"),
    ({"unsichtbarer_angreifer": True}, 0, 2, "L97"),
    ({"wehrlos": True}, -2, 0, "L103"),
    ({"ziel_zweihaendig": True}, 0, 1, "L113"),
]


@pytest.mark.parametrize(("params", "attack_mod", "defense_mod", "line"), SITUATION_CASES)
def test_situation_modifiers(
    params: dict[str, Any], attack_mod: int, defense_mod: int, line: str
) -> None:
    """002_51e59e824768e9e9.txt L35–L113: every situation's Erschwernis (+) by name."""
    r = run("attack", params)
    assert r["erschwernis_angriff"] == attack_mod
    assert r["erschwernis_abwehr"] == defense_mod
    assert all(m["zeile"].startswith(line) for m in r["modifiers"])


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
            "surprised": True,
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
    names = {m["name"] for m in r["modifiers"]}
    assert {"Vollständige Dunkelheit", "Feuerangriff", "Kniend (Angreifer)"} <= names


def test_zurueckdraengen_dangerous_field_eases_defense() -> None:
    """002_51e59e824768e9e9.txt L353: dangerous field behind → Abwehr −1; L355: pushed back
    only on a failed defense, never damage."""
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
    second = [m for m in r["modifiers"] if m["applies_to"] == "Zweiter Angriffswurf"]
    assert second[0]["value"] == 3
    damage = d6(seed)[0] + 2
    assert r["verlust"] == {"LE": damage, "KE": 2 * damage, "AUS": 0}
    assert Fraction(r["chances"]["expected"]["KE"]) == 11


# --- conditions the options leave (tabellen.zustaende) -----------------------------------------


@pytest.mark.parametrize(
    ("params", "attack_mod", "defense_mod", "line"),
    [
        ({"angreifer_betaeubt": True}, 2, 0, "L129"),
        ({"ziel_betaeubt": True}, 0, 1, "L129"),
        ({"ziel_festgehalten": True}, 0, 2, "L173"),
        ({"ziel_rundumschlag": True}, 0, 2, "L293"),
        ({"ziel_rundumschlag": True, "ziel_zweihaendig": True}, 0, 2, "L293"),
        ({"ziel_zweihaendig": True}, 0, 1, "L113"),
    ],
)
def test_condition_modifiers(
    params: dict[str, Any], attack_mod: int, defense_mod: int, line: str
) -> None:
    """002_51e59e824768e9e9.txt L129: a betäubter fighter attacks at +2 and defends at +1;
    L173: a festgehaltenes Ziel defends at +2; L293: who swings a Rundumschlag defends at +2,
    and the usual +1 of the two-handed weapon (L113) is not added on top."""
    r = run("attack", params)
    assert r["erschwernis_angriff"] == attack_mod
    assert r["erschwernis_abwehr"] == defense_mod
    assert [m["zeile"] for m in r["modifiers"]] == [line]


def test_wehrlos_target_has_no_defense_modifiers() -> None:
    """L103: a defenseless target does not defend, so no Abwehr modifier applies."""
    r = run("attack", {"wehrlos": True, "ziel_betaeubt": True, "ziel_festgehalten": True})
    assert r["erschwernis_abwehr"] == 0


def test_rundumschlag_own_defense() -> None:
    """002_51e59e824768e9e9.txt L287, L293: the Rundumschlag is +1 to attack; its user defends
    at +2 when one of the targets gets through – listed for the attacker's own Abwehr, apart
    from the target's."""
    r = run("attack", {"option": "rundumschlag", "waffe_zweihaendig": True})
    assert r["erschwernis_angriff"] == 1 and r["erschwernis_abwehr"] == 0
    assert r["erschwernis_abwehr_angreifer"] == 2
    rows = r["display"]["sections"][1]["rows"]
    assert ["Summe Abwehr des Angreifers", "Abwehr des Angreifers", "+2"] in rows
    assert run("attack", {})["erschwernis_abwehr_angreifer"] == 0


def test_condition_fields() -> None:
    """The conditions sit with the situations, as the roll's own choices; their help gives the
    numbers (no source line)."""
    f = fields("attack")
    for name in ("angreifer_betaeubt", "ziel_betaeubt", "ziel_festgehalten", "ziel_rundumschlag"):
        assert f[name]["group"] == "Besondere Situationen" and "subject" not in f[name]
    # L129: a stunned target defends at +1 and, striking back, attacks at +2
    assert f["ziel_betaeubt"]["help"].startswith(
        "Angriff: +2 (Gegenangriff in einer direkten Konfrontation); Abwehr: +1;"
    )
    assert f["angreifer_betaeubt"]["help"].startswith("Angriff: +2;")


def test_sicht_names_its_assumption_only_with_rain() -> None:
    """L71–L75: whether rain or fog adds to twilight or darkness is an Annahme – named only
    when both are chosen."""
    rule = annahme("sicht.zusammen_mit_regen")
    r = run("attack", {"sicht": "daemmerlicht", "regen_nebel": True})
    assert r["erschwernis_angriff"] == 2 and rule in assumed(r)
    assert rule not in assumed(run("attack", {"regen_nebel": True}))
    assert rule not in assumed(run("attack", {"sicht": "dunkelheit"}))


# --- betäubt, festgehalten and the Rundumschlag in a direct confrontation (issue 31) -----------

HELD = (
    "„außer dem Versuch sich zu befreien oder dem Einsatz von Natürliche Waffen - Biss stehen "
    "ihm keine anderen Handlungen offen.“"
)
HOLDING = (
    "„Solange eine Figur eine andere festhält, kann sie selber bis auf Abwehren und Natürliche "
    "Waffen - Biss ebenfalls keine anderen Aktionen durchführen.“"
)
CONFRONTATION = {"konfrontation": True}


def _mods(r: dict[str, Any], probe: str) -> list[tuple[str, int, str]]:
    return [(m["name"], m["value"], m["zeile"]) for m in r["modifiers"] if m["applies_to"] == probe]


def test_a_stunned_attacker_defends_at_plus_1_in_a_direct_confrontation() -> None:
    """002_51e59e824768e9e9.txt L129: „Solange ein Gegner betäubt ist, kann er nur mit +2
    erschwert angreifen und mit +1 abwehren.“ In a direct confrontation the attacker is hit when
    the counter-attack gets through (L11–L13): his own Abwehr is then +1; and a stunned target's
    counter-attack is an attack at +2. Without a confrontation this helper never hits the
    attacker, so nothing is added for him."""
    r = run("attack", {**CONFRONTATION, "angreifer_betaeubt": True})
    assert r["erschwernis_angriff"] == 2
    assert r["erschwernis_abwehr_angreifer"] == 1
    assert _mods(r, "Abwehr des Angreifers") == [("Betäubt (Angreifer)", 1, "L129")]
    rows = r["display"]["sections"][1]["rows"]
    assert ["Summe Abwehr des Angreifers", "Abwehr des Angreifers", "+1"] in rows
    assert run("attack", {"angreifer_betaeubt": True})["erschwernis_abwehr_angreifer"] == 0
    target = run("attack", {**CONFRONTATION, "ziel_betaeubt": True})
    assert _mods(target, "Gegenangriff") == [("Betäubt (Verteidiger)", 2, "L129")]
    assert ["Summe Gegenangriff", "Gegenangriff", "+2"] in target["display"]["sections"][1]["rows"]
    assert _mods(run("attack", {"ziel_betaeubt": True}), "Gegenangriff") == []


def test_a_held_target_strikes_back_only_with_a_bite() -> None:
    """002_51e59e824768e9e9.txt L173: the held victim „kann nur mit +2 abwehren und außer dem
    Versuch sich zu befreien oder dem Einsatz von Natürliche Waffen - Biss stehen ihm keine
    anderen Handlungen offen.“ Its ordinary counter-attack in a direct confrontation is refused
    with the rule's words; as a bite it is evaluated."""
    err = error("attack", {**CONFRONTATION, "ziel_festgehalten": True})
    assert err["field"] == "ziel_festgehalten"
    assert HELD in err["message"] and "Biss" in err["message"]
    r = run("attack", {**CONFRONTATION, "ziel_festgehalten": True, "gegner_biss": True})
    assert r["erschwernis_abwehr"] == 2
    assert r["hitter"] == "angreifer"


def test_a_held_attacker_may_only_bite() -> None:
    """002_51e59e824768e9e9.txt L173: a held fighter who attacks – only with Natürliche Waffen -
    Biss; any other attack is refused with the rule's words. Hit in a direct confrontation, he
    defends at +2 („kann nur mit +2 abwehren“)."""
    err = error("attack", {"angreifer_festgehalten": True})
    assert err["field"] == "angreifer_festgehalten"
    assert HELD in err["message"]
    bite = {"angreifer_festgehalten": True, "angriff_biss": True}
    assert run("attack", bite)["hitter"] == "angreifer"
    r = run("attack", {**bite, **CONFRONTATION})
    assert _mods(r, "Abwehr des Angreifers") == [("Festgehalten (Angreifer)", 2, "L173")]


def test_the_one_holding_may_only_defend_or_bite() -> None:
    """002_51e59e824768e9e9.txt L175: „Solange eine Figur eine andere festhält, kann sie selber
    bis auf Abwehren und Natürliche Waffen - Biss ebenfalls keine anderen Aktionen
    durchführen.“ As the attacker: only a bite; as the target: its Abwehr stands, its
    counter-attack in a direct confrontation only as a bite."""
    err = error("attack", {"angreifer_haelt_fest": True})
    assert err["field"] == "angreifer_haelt_fest"
    assert HOLDING in err["message"]
    assert run("attack", {"angreifer_haelt_fest": True, "angriff_biss": True})["hitter"]
    err = error("attack", {**CONFRONTATION, "ziel_haelt_fest": True})
    assert err["field"] == "ziel_haelt_fest"
    assert HOLDING in err["message"]
    defends = {"ziel_haelt_fest": True, "abwehr_gelungen": True, "abwehr_guete": 1}
    assert run("attack", defends)["abwehr"] == "halb"  # it defends
    bite = {**CONFRONTATION, "ziel_haelt_fest": True, "gegner_biss": True}
    assert run("attack", bite)["hitter"] == "angreifer"


def test_holding_fields() -> None:
    """The new conditions sit with the others (the roll's situation); the bites with the attack
    and the counter-attack."""
    f = fields("attack")
    for name in ("angreifer_festgehalten", "angreifer_haelt_fest", "ziel_haelt_fest"):
        assert f[name]["group"] == "Besondere Situationen" and "subject" not in f[name]
    assert f["gegner_biss"]["when"] == {"konfrontation": [True], "wehrlos": [False]}
    assert f["angriff_biss"]["group"] == "Angriff"


def test_a_critically_failed_rundumschlag_makes_the_attacker_fall() -> None:
    """002_51e59e824768e9e9.txt L289: „Führt der Rundumschlag zu einem kritischen Misserfolg,
    führt dieses automatisch zum Sturz des Angreifers“ – a consequence of the result (``sturz``,
    with the line), said in its outcome, with the FP(Gaukeleien) of a fall (L79)."""
    swing = {"option": "rundumschlag", "waffe_zweihaendig": True, "angriff_gelungen": False}
    r = run("attack", {**swing, "angriff_kritisch": True})
    assert r["sturz"] == {"wer": "angreifer", "name": "Angreifer", "zeile": "L289"}
    assert "Angreifer stürzt" in r["display"]["outcome"]
    assert "FP(Gaukeleien)" in r["display"]["outcome"]
    assert "sturz" not in run("attack", swing)
    f = fields("attack")
    assert f["angriff_kritisch"]["per_roll"] is True
    assert f["angriff_kritisch"]["when"] == {
        "option": ["rundumschlag"],
        "falsche_hand": [False],
        "unsichtbares_ziel": [False],
        "angriff_gelungen": [False],
    }
    # a critical failure is a failure: with a success it is refused
    err = error("attack", {**swing, "angriff_gelungen": True, "angriff_kritisch": True})
    assert err["field"] == "angriff_kritisch"


def test_a_held_fighters_bite_with_an_option_is_an_annahme() -> None:
    """002_51e59e824768e9e9.txt L173, L175: held or holding, only „Natürliche Waffen - Biss“ is
    left; whether the bite may carry a Nahkampfoption the text leaves open – the data's Annahme
    (allowed) is named in such a result, and only there."""
    rule = annahme("angriff.biss_mit_option")
    bite = {"angreifer_festgehalten": True, "angriff_biss": True}
    with_option = {**bite, "option": "betaeuben", "waffenart": "natuerlich"}
    assert rule in assumed(run("attack", with_option))
    assert rule not in assumed(run("attack", bite))
    assert rule not in assumed(run("attack", {"angriff_biss": True, "option": "betaeuben"}))


SRC_LINES = (ROOT / "quellen" / "002_51e59e824768e9e9.txt").read_text(encoding="utf-8").splitlines()


def test_a_fall_offers_liegend_with_the_durations_of_the_text() -> None:
    """L79–L83: „Stürzt ein Charakter im Kampf … darf er eine FP(Gaukeleien) machen. Gelingt
    diese Probe, stürzt der Charakter, kann aber innerhalb der nächsten Bewegungsphase wieder
    aufstehen. Misslingt der Wurf allerdings, benötigt er die gesamte nächste Runde, um wieder
    auf die Beine zu kommen. Er gilt bis dahin als liegende Figur (s.o.).“ – the result offers
    the effect „liegend“ (a condition of the fight contract) for the one who falls, one choice
    per outcome of the FP(Gaukeleien), with the durations from the data (the page had them
    written into fight.js). With an acting order the effect ends when round now + ``runden``
    begins, without one after ``zuege`` turns of that fighter."""
    assert "FP(Gaukeleien)" in SRC_LINES[78] and "liegende Figur" in SRC_LINES[82]
    swing = {"option": "rundumschlag", "waffe_zweihaendig": True, "angriff_gelungen": False}
    r = run("attack", {**swing, "angriff_kritisch": True, "angreifer": "Ork"})
    assert r["effect_offers"] == [
        {
            "fighter": "actor",
            "effect": "liegend",
            "ref": "Sturz",
            "question": "Ork stürzt – seine FP(Gaukeleien):",
            "choices": [
                {
                    "label": "FP(Gaukeleien) gelungen",
                    "meaning": "steht in der nächsten Bewegungsphase auf",
                    "duration": {"runden": 1, "zuege": 1},
                },
                {
                    "label": "FP(Gaukeleien) misslungen",
                    "meaning": "liegt die ganze nächste Runde",
                    "duration": {"runden": 2, "zuege": 2},
                },
            ],
        }
    ]
    assert "liegend" in contract_of("guete").condition_names()
    assert run("attack", swing)["effect_offers"] == []


@pytest.mark.parametrize(
    ("two_handed", "abwehr", "falls"),
    [
        (False, {"abwehr_gelungen": False}, True),
        (False, {"abwehr_gelungen": True, "abwehr_guete": 1}, False),
        (True, {"abwehr_gelungen": True, "abwehr_guete": 1}, True),
        (True, {"abwehr_gelungen": True, "abwehr_guete": 5}, False),
    ],
)
def test_zu_fall_bringen_offers_the_fall_for_the_target(
    two_handed: bool, abwehr: dict[str, Any], falls: bool
) -> None:
    """L335–L343: „Misslingt die Probe auf Abwehren vollständig, stürzt der Verteidiger“, with a
    two-handed weapon a halbe Abwehr is not enough; „Wird der Gegner zu Fall gebracht, gilt er
    als gestürzt (s. Sturz).“ – the same offer, for the target."""
    params = {"option": "zu_fall", "waffe_zweihaendig": two_handed, "ziel": "Wolf", **abwehr}
    if two_handed:
        params["waffenart"] = "andere"
    offers = run("attack", params)["effect_offers"]
    if not falls:
        assert offers == []
        return
    (offer,) = offers
    assert offer["fighter"] == "target" and offer["effect"] == "liegend"
    assert offer["ref"] == "Zu Fall gebracht" and offer["question"].startswith("Wolf stürzt")
    assert [c["duration"] for c in offer["choices"]] == [
        {"runden": 1, "zuege": 1},
        {"runden": 2, "zuege": 2},
    ]
