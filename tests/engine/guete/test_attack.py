"""Güte-System: the ``attack`` action – who hits, Parade, the three defense outcomes, bad input."""

from __future__ import annotations

from typing import Any

import pytest

from harness.support import assumed, notes
from tests.engine.guete.helpers import annahme, d6, error, fields, form_params, run, send

# --- resolution -------------------------------------------------------------------------------


def test_direct_confrontation_higher_guete_hits() -> None:
    """002_51e59e824768e9e9.txt L11–L13: both roll, the higher Güte hits its opponent."""
    r = run("attack", {"konfrontation": True, "angriff_guete": 5, "gegner_guete": 3})
    assert r["hitter"] == "angreifer"
    r = run("attack", {"konfrontation": True, "angriff_guete": 2, "gegner_guete": 3})
    assert r["hitter"] == "gegner"
    assert r["display"]["headline"] == "Ziel trifft Angreifer"


def test_direct_confrontation_equal_guete_no_damage() -> None:
    """002_51e59e824768e9e9.txt L15: identical Güten – the weapons glance off, no damage."""
    r = run("attack", {"konfrontation": True, "angriff_guete": 4, "gegner_guete": 4})
    assert r["hitter"] == "" and r["outcome"] == "kein_treffer"
    assert r["verlust"] == {"LE": 0, "KE": 0, "AUS": 0} and r["rolls"] == []


def test_confrontation_one_failure_assumption() -> None:
    """002_51e59e824768e9e9.txt L11–L15 (Annahme angriff.konfrontation_fehlschlag)."""
    r = run("attack", {"konfrontation": True, "angriff_gelungen": False, "gegner_guete": -3})
    assert r["hitter"] == "gegner"
    r = run("attack", {"konfrontation": True, "angriff_gelungen": False, "gegner_gelungen": False})
    assert r["hitter"] == ""


def test_without_confrontation_success_hits() -> None:
    """002_51e59e824768e9e9.txt L17: without confrontation only success or failure counts."""
    assert run("attack", {"angriff_gelungen": False})["outcome"] == "kein_treffer"
    assert run("attack", {"angriff_guete": -2})["hitter"] == "angreifer"


@pytest.mark.parametrize(
    ("ok", "guete", "defense", "resource"),
    [(False, 0, "misslungen", "LE"), (True, 3, "halb", "KE"), (True, 4, "vollstaendig", None)],
)
def test_defense_outcomes(ok: bool, guete: int, defense: str, resource: str | None) -> None:
    """002_51e59e824768e9e9.txt L19–L29: failed Abwehr → full damage to LE; success with
    Güte ≤ attacker's → KE (halbe Verteidigung); higher → no damage (vollständige)."""
    seed = 7
    r = run(
        "attack",
        {"angriff_guete": 3, "abwehr_gelungen": ok, "abwehr_guete": guete, "damage": "1W6+2"},
        seed,
    )
    assert r["abwehr"] == defense
    if resource is None:
        assert r["rolls"] == [] and r["verlust"] == {"LE": 0, "KE": 0, "AUS": 0}
    else:
        damage = d6(seed)[0] + 2
        assert r["rolls"][0]["total"] == damage
        assert r["verlust"][resource] == damage
        assert r["chances"]["expected"][resource] == "11/2"


def test_wehrlos_no_defense_and_easier_attack() -> None:
    """002_51e59e824768e9e9.txt L103: a defenseless target – attack −2, no defense (Annahme:
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
    assert r["outcome"] == "pariert" and r["verlust"]["KE"] == 0


def test_parade_negative_fails_and_gesichtsfeld() -> None:
    """002_51e59e824768e9e9.txt L271, L275: a final Güte below 0 fails (≥ 0 still works); a
    Parade does not work against attacks from the Gesichtsfeld."""
    r = run("attack", {"parade": True, "parade_guete": -5, "angriff_guete": 0})
    assert r["parade"]["guete"] == 0 and r["outcome"] == "pariert"
    r = run("attack", {"parade": True, "parade_guete": -6, "angriff_guete": 0})
    assert r["parade"]["nutzbar"] is False and r["outcome"] == "treffer"
    r = run("attack", {"parade": True, "parade_guete": 9, "gesichtsfeld": True})
    assert r["parade"]["nutzbar"] is False and r["outcome"] == "treffer"


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
        ({"damage": "1W1000"}, "damage"),
        ({"damage": "11W6"}, "damage"),
        ({"damage": "1W21"}, "damage"),
        ({"damage": "xyz"}, "damage"),
        ({"option": "patzer"}, "option"),
    ],
)
def test_bad_input(params: dict[str, Any], field: str) -> None:
    """Bad input → EngineError with a German message naming the field."""
    err = error("attack", params)
    assert err["field"] == field
    assert err["message"].split(":")[0]


# --- connected helpers: hints, when, assumptions -------------------------------------------------


def test_attack_hints() -> None:
    """Whose value each field is: the attacker's name, weapon and damage = actor; the target's
    name, counter-attack weapon, Parade, two-handed weapon, fire sensitivity = target;
    situations and options = the roll's own (no subject). The FPs rolled at the table for this
    one attack – the attack, the counter-attack, the Abwehr (L17–L27: „Gelingt die Probe auf
    Abwehren und ist die Güte höher …“) and the second roll of a gezielter Hieb (L223–L229) –
    are ``per_roll``: cleared after the roll, never a fighter's value (issue 26: „Abwehr
    gelungen, Güte 4“ from the last roll stayed). The Parade stays the target's: it is rolled
    „zu Beginn der Runde“ and holds against every attacker of that round (L269, L273). LE, KE
    and AUS are the target's life values (L21–L29): ``resource``s, blank when unknown."""
    f = fields("attack")
    actor = {"angreifer", "damage", "waffe_zweihaendig"}
    target = {"ziel", "gegner_schaden", "parade", "parade_guete"}
    target |= {"ziel_zweihaendig", "feuerempfindlich", "le", "ke", "aus"}
    rolled = {"angriff_gelungen", "angriff_guete", "gegner_gelungen", "gegner_guete"}
    rolled |= {"abwehr_gelungen", "abwehr_guete", "gezielt_zweiter_wurf"}
    rolled |= {"angriff_kritisch"}  # the attack's result: a critical failure (L289)
    assert {n for n, x in f.items() if x.get("per_roll")} == rolled
    assert {n for n, x in f.items() if x.get("subject") == "actor"} == actor | {"waffenart"}
    assert {n for n, x in f.items() if x.get("subject") == "target"} == target
    assert [(n, x["resource_name"]) for n, x in f.items() if x.get("resource")] == [
        ("le", "LE"),
        ("ke", "KE"),
        ("aus", "AUS"),
    ]
    for name in ("le", "ke", "aus"):
        assert f[name]["blank"] is True and f[name]["default"] is None and not f[name]["required"]
    for name in ("konfrontation", "option", "sicht", "wehrlos", "ziel_betaeubt", "hiebe_stufen"):
        assert "subject" not in f[name], name


OPTION_FIELDS = {
    "hiebe_stufen": "zweihaendige_hiebe",
    "gezielt_ziel": "gezielt",
    "gezielt_zweiter_wurf": "gezielt",
    "sturzflug_hoehe": "sturzflug",
    "sturzflug_greifen": "sturzflug",
    "gefaehrliches_feld": "zurueckdraengen",
    "feuerempfindlich": "feuerangriff",
}


def test_option_fields_apply_only_to_their_option() -> None:
    """002_51e59e824768e9e9.txt L123–L367: each option's own field (Stufen L363, gezielter
    Hieb L223–L229, Sturzflug L325–L327, gefährliches Feld L353, feuerempfindlich L191) is
    asked only with that option – and not when no option is allowed (L37, L95)."""
    f = fields("attack")
    blocked = {"falsche_hand": [False], "unsichtbares_ziel": [False]}
    assert f["option"]["when"] == blocked
    for name, option in OPTION_FIELDS.items():
        assert f[name]["when"] == {"option": [option], **blocked}, name
    plain = form_params("attack", {"option": "keine"})
    assert not set(OPTION_FIELDS) & set(plain)
    sent = form_params("attack", {"option": "gezielt"})
    assert {"gezielt_ziel", "gezielt_zweiter_wurf"} <= set(sent)


def test_probe_fields_apply_only_in_their_case() -> None:
    """L11–L17, L19, L103, L269–L279: the Güte only with a success; the counter-attack only in
    a direct confrontation; no Abwehr, counter-attack or Parade against a wehrloses Ziel; the
    Parade's Güte only with a Parade, which excludes striking back."""
    f = fields("attack")
    assert f["angriff_guete"]["when"] == {"angriff_gelungen": [True]}
    for name in ("gegner_gelungen", "gegner_guete", "gegner_schaden"):
        assert f[name]["when"] == {"konfrontation": [True], "wehrlos": [False]}
    assert f["konfrontation"]["when"] == {"wehrlos": [False]}
    assert f["abwehr_gelungen"]["when"] == {"wehrlos": [False]}
    assert f["abwehr_guete"]["when"] == {"abwehr_gelungen": [True], "wehrlos": [False]}
    assert f["parade"]["when"] == {"konfrontation": [False], "wehrlos": [False]}
    assert f["parade_guete"]["when"] == {
        "parade": [True],
        "konfrontation": [False],
        "wehrlos": [False],
    }


@pytest.mark.parametrize(
    ("params", "hidden"),
    [
        ({"falsche_hand": True, "option": "entwaffnen"}, "option"),  # L37
        ({"unsichtbares_ziel": True, "option": "gezielt"}, "option"),  # L95
        ({"angreifer_kniend": True, "angreifer_liegend": True}, "angreifer_liegend"),  # L61–L63
        ({"angreifer_liegend": True, "waffe_zweihaendig": True}, "angreifer_liegend"),  # L63
        ({"ziel_kniend": True, "ziel_liegend": True}, "ziel_liegend"),  # L61–L63
        ({"wehrlos": True, "konfrontation": True}, "konfrontation"),  # L103
        ({"wehrlos": True, "parade": True}, "parade"),  # L103
        ({"parade": True, "konfrontation": True}, "parade"),  # L279
    ],
)
def test_each_refusal_has_its_when(params: dict[str, Any], hidden: str) -> None:
    """A value the engine refuses outside its case is hidden by its ``when``, so a leftover
    can never block a roll from the form; a caller that sends it is still refused."""
    assert error("attack", params)["message"]
    assert hidden not in form_params("attack", params)
    answer = send("attack", params)
    assert answer["ok"], answer.get("error")


def test_unknown_life_values_are_not_written() -> None:
    """L21–L27: the losses go to LE, KE or AUS; a value the helper was not given (blank) is
    unknown – never 0 – and nothing is written for it."""
    r = run("attack", {})
    assert r["verlust"]["LE"] > 0 and "target_update" not in r
    assert r["loss_of"] == "target"
    blank = run("attack", {"le": "", "ke": None})
    assert "target_update" not in blank
    assert any("LE" in n and "unbekannt" in n for n in notes(blank))


@pytest.mark.parametrize(
    ("abwehr", "lost"),
    [({"abwehr_gelungen": False}, "le"), ({"abwehr_gelungen": True, "abwehr_guete": 1}, "ke")],
)
def test_the_targets_known_values_after_the_hit(abwehr: dict[str, Any], lost: str) -> None:
    """L21: a failed Abwehr costs Lebensenergie, L23: a halbe Verteidigung körperliche Energie –
    the target's known values after the hit are its ``target_update`` (the unknown one stays
    out), its ``target_state`` what the fight contract says (Güte: no rule, L235 – null)."""
    seed = 7
    damage = d6(seed)[0] + 2
    r = run("attack", {"damage": "1W6+2", "le": 20, "ke": 12, **abwehr}, seed)
    before = {"le": 20, "ke": 12}
    assert r["target_update"] == {**before, lost: before[lost] - damage}
    assert r["target_state"] is None and r["loss_of"] == "target"
    said = [n for n in notes(r) if n.startswith("Ziel: ")]
    assert len(said) == 1 and f"{lost.upper()} {before[lost]} → " in said[0]


def test_when_the_attacker_is_hit_no_target_value_changes() -> None:
    """L11–L13: in a direct confrontation the higher Güte hits – here the target's counter-
    attack hits the attacker: his LE is lost (``loss_of``: the actor), the target's values
    stay as they are and the result says whose values changed."""
    r = run(
        "attack",
        {"konfrontation": True, "angriff_guete": 1, "gegner_guete": 4, "le": 20, "ke": 9},
    )
    assert r["hitter"] == "gegner" and r["verlust"]["LE"] > 0
    assert r["loss_of"] == "actor" and "target_update" not in r
    assert any("Angreifer" in n and "nicht eingetragen" in n for n in notes(r))
    missed = run("attack", {"angriff_gelungen": False, "le": 20})
    assert missed["loss_of"] == "" and "target_update" not in missed


def test_attack_names_the_assumptions_it_used() -> None:
    """The entered probes (Annahme fp_wurf) always; a defenseless target (L103), a single
    failure in a confrontation (L11–L15), one option (L37 ff.) and the armour left out
    (L187, L319) only where they decide."""
    entered, armour = annahme("fp_wurf"), annahme("angriff.ruestung")
    assert assumed(run("attack", {"angriff_gelungen": False})) == [entered]
    assert assumed(run("attack", {})) == [entered, armour]
    r = run("attack", {"wehrlos": True})
    assert assumed(r) == [entered, annahme("angriff.wehrlos_ohne_abwehr"), armour]
    one_fails = {"konfrontation": True, "angriff_gelungen": False}
    assert annahme("angriff.konfrontation_fehlschlag") in assumed(run("attack", one_fails))
    both = {"konfrontation": True, "angriff_guete": 4, "gegner_guete": 4}
    assert assumed(run("attack", both)) == [entered]
    assert annahme("angriff.eine_option_je_angriff") in assumed(
        run("attack", {"option": "improvisiert"})
    )
