"""Güte-System: the ``attack`` action – who hits, Parade, the three defence outcomes, bad input."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.guete.helpers import d6, error, run

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
