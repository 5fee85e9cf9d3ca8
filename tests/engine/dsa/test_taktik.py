"""DSA 4.1 Hausregeln: Taktik in the ``initiative`` action (``taktik.py``)."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest

from harness.support import applies, assumed
from tests.engine.dsa.helpers import annahme, error, fields, fighter, run
from tests.engine.dsa.test_initiative import brute_first

SELF = "initiative.taktiker_mitstreiter"


def test_taktik_success_distributes_tap_to_allies_beyond_maximum() -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Mögliche Sonstige Aktionen", Taktik: „die übrigen TaP*
    können als INI-Bonus auf die Mitstreiter verteilt werden (auch über deren Maximum hinaus)“."""
    params = {
        "fighters": [
            fighter("Alrik", 12, orientieren=True),
            fighter("Bruna", 10, orientieren=True, taktik_bonus=3),
            fighter("Cato", 8, orientieren=True, taktik_bonus=1),
            fighter("Ork", 9, seite="Gegner", orientieren=True),
        ],
        "taktiker": "Alrik",
        "taktik_probe": "gelungen",
        "taktik_tap": 5,
    }
    r = run("initiative", params)
    by = {o["name"]: o["initiative"] for o in r["order"]}
    assert by == {"Alrik": 18, "Bruna": 10 + 6 + 3, "Cato": 8 + 6 + 1, "Ork": 15}
    assert r["taktik"]["changes"] == {"Bruna": 3, "Cato": 1}


def test_taktik_failure_minus_1_for_all_allies_only() -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Mögliche Sonstige Aktionen", Taktik: „Gescheiterte
    Probe führt zu INI-1 bei allen Mitstreitern“ (not the Taktiker, not the enemies)."""
    params = {
        "fighters": [
            fighter("Alrik", 12, orientieren=True),
            fighter("Bruna", 10, orientieren=True),
            fighter("Ork", 9, seite="Gegner", orientieren=True),
        ],
        "taktiker": "Alrik",
        "taktik_probe": "gescheitert",
    }
    by = {o["name"]: o["initiative"] for o in run("initiative", params)["order"]}
    assert by == {"Alrik": 18, "Bruna": 15, "Ork": 15}


def test_taktik_outnumbered_probe_harder_by_twice_ueberzahl() -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Mögliche Sonstige Aktionen", Taktik: „Im Falle eines
    Kampfes gegen eine Übermacht Gegner ist die Probe um Überzahlx2 erschwert“."""
    params = {
        "fighters": [fighter("Alrik", 12, orientieren=True), fighter("Bruna", 10)],
        "taktiker": "Alrik",
        "taktik_probe": "gescheitert",
        "ueberzahl": 3,
    }
    r = run("initiative", params)
    assert r["taktik"]["erschwernis"] == 6
    text = json.dumps(r["display"], ensure_ascii=False)
    assert "um +6 erschwert" in text


@pytest.mark.parametrize(
    ("change", "field", "needle"),
    [
        ({"taktik_probe": "gelungen", "taktiker": ""}, "taktiker", "fehlt"),
        ({"taktik_probe": "gelungen", "taktiker": "Niemand"}, "taktiker", "keiner der Kämpfer"),
        ({"taktiker": "Alrik"}, "taktiker", "Kriegskunst-Probe"),
        ({"taktik_tap": 3}, "taktik_tap", "gelungenen"),
        ({"bonus": (1, 2)}, "fighters.1.taktik_bonus", "gelungenen"),
        (
            {"taktik_probe": "gelungen", "taktiker": "Alrik", "taktik_tap": 5, "bonus": (2, 2)},
            "fighters.2.taktik_bonus",
            "kein Mitstreiter",
        ),
        (
            {"taktik_probe": "gelungen", "taktiker": "Alrik", "taktik_tap": 5, "bonus": (0, 2)},
            "fighters.0.taktik_bonus",
            "der Taktiker selbst",
        ),
        (
            {"taktik_probe": "gelungen", "taktiker": "Alrik", "taktik_tap": 1, "bonus": (1, 2)},
            "taktik_tap",
            "nur 1",
        ),
        (
            {"taktik_probe": "gescheitert", "taktiker": "Alrik", "bonus": (1, 2)},
            "fighters.1.taktik_bonus",
            "gescheitert",
        ),
    ],
)
def test_taktik_validation(change: dict[str, Any], field: str, needle: str) -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Mögliche Sonstige Aktionen", Taktik: TaP* only after a
    successful probe, only to the Mitstreiter, at most the remaining TaP*."""
    fighters = [fighter("Alrik", 12), fighter("Bruna", 10), fighter("Ork", 9, seite="Gegner")]
    change = dict(change)
    if "bonus" in change:
        index, value = change.pop("bonus")
        fighters[index]["taktik_bonus"] = value
    err = error("initiative", {"fighters": fighters, **change})
    assert err["field"] == field
    assert needle in err["message"]


# ---------------------------------------------------------------------------------------------
# Is the Taktiker one of his Mitstreiter? The text does not say (Annahme, two readings)
# ---------------------------------------------------------------------------------------------


def _notes(r: dict[str, Any]) -> str:
    return " ".join(
        item
        for sec in r["display"]["sections"]
        if sec["kind"] == "notes" and sec["caption"] == "Hinweise"
        for item in sec["items"]
    )


@pytest.mark.parametrize(("counts", "alrik"), [(False, 18), (True, 17)])
def test_failed_taktik_costs_the_taktiker_ini_only_if_he_counts(counts: bool, alrik: int) -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Mögliche Sonstige Aktionen", Eintrag "Taktik":
    „Gescheiterte Probe führt zu INI-1 bei allen Mitstreitern“ – whether the Taktiker is one of
    them the text leaves open. Default (Annahme): no, he keeps his INI; the field
    „Taktiker zählt als Mitstreiter“ chooses the other reading: he loses 1 too."""
    params = {
        "fighters": [
            fighter("Alrik", 12, orientieren=True),
            fighter("Bruna", 10, orientieren=True),
            fighter("Ork", 9, seite="Gegner", orientieren=True),
        ],
        "taktiker": "Alrik",
        "taktik_probe": "gescheitert",
        "taktiker_mitstreiter": counts,
    }
    r = run("initiative", params)
    by = {o["name"]: o["initiative"] for o in r["order"]}
    assert by == {"Alrik": alrik, "Bruna": 15, "Ork": 15}
    if counts:
        assert annahme(SELF) not in assumed(r)
        assert "Gewählte Lesart (der Text lässt sie offen): Alrik zählt selbst" in _notes(r)
    else:
        assert annahme(SELF) in assumed(r)
        assert "Gewählte Lesart" not in _notes(r)
        assert (
            run("initiative", {k: v for k, v in params.items() if k != "taktiker_mitstreiter"}) == r
        )


def test_successful_taktik_the_taktiker_gives_himself_tap_only_if_he_counts() -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Mögliche Sonstige Aktionen", Eintrag "Taktik": „die
    übrigen TaP* können als INI-Bonus auf die Mitstreiter verteilt werden“. Default reading:
    not to himself (refused, naming the field that allows it); other reading: to himself too.
    A success that gives him nothing does not depend on the reading: nothing is assumed."""
    fighters = [
        fighter("Alrik", 12, orientieren=True, taktik_bonus=2),
        fighter("Bruna", 10, orientieren=True, taktik_bonus=1),
    ]
    params = {
        "fighters": fighters,
        "taktiker": "Alrik",
        "taktik_probe": "gelungen",
        "taktik_tap": 3,
    }
    err = error("initiative", params)
    assert err["field"] == "fighters.0.taktik_bonus"
    assert "der Taktiker selbst" in err["message"]
    assert "„Taktiker zählt als Mitstreiter“" in err["message"]
    r = run("initiative", {**params, "taktiker_mitstreiter": True})
    assert {o["name"]: o["initiative"] for o in r["order"]} == {"Alrik": 20, "Bruna": 17}
    assert r["taktik"]["changes"] == {"Alrik": 2, "Bruna": 1}
    fighters[0]["taktik_bonus"] = 0
    r = run("initiative", params)
    assert annahme(SELF) not in assumed(r)


@pytest.mark.parametrize("counts", [False, True])
def test_first_chances_under_both_readings_brute_force(counts: bool) -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Mögliche Sonstige Aktionen", Eintrag "Taktik": the
    chance to act first after a failed probe, by enumerating every W6 – the two readings give
    different chances (the Taktiker at INI − 1 or not)."""
    taktiker = fighter("Alrik", 9, orientieren=True)  # Taktik follows Orientieren
    fighters = [taktiker, fighter("Bruna", 10), fighter("Ork", 11, seite="Gegner")]
    params = {
        "fighters": fighters,
        "taktiker": "Alrik",
        "taktik_probe": "gescheitert",
        "taktiker_mitstreiter": counts,
    }
    r = run("initiative", params)
    model = [
        {**taktiker, "modifier": -1 if counts else 0},
        fighter("Bruna", 10, modifier=-1),
        fighter("Ork", 11, seite="Gegner"),
    ]
    expected = brute_first(model)
    assert [Fraction(r["first_chances"][f["name"]]) for f in fighters] == expected
    other = brute_first([{**taktiker, "modifier": 0 if counts else -1}, *model[1:]])
    assert other != expected


def test_taktik_fields_apply_only_with_a_probe() -> None:
    """The Taktik fields are hidden (and not sent) without a Kriegskunst-Probe, the TaP* and the
    bonus of each fighter only after a successful one – a leftover value never blocks a roll."""
    f = fields("initiative")
    for name in ("taktiker", "taktiker_mitstreiter", "ueberzahl"):
        assert f[name]["when"] == {"taktik_probe": ["gelungen", "gescheitert"]}
    assert f["taktik_tap"]["when"] == {"taktik_probe": ["gelungen"]}
    bonus = next(i for i in f["fighters"]["item"] if i["name"] == "taktik_bonus")
    assert bonus["when"] == {"taktik_probe": ["gelungen"]}
    assert set(bonus["when"]) <= set(f)  # a field of the form, outside the row
    assert f["taktiker_mitstreiter"]["default"] is False
    assert not applies(f["taktik_tap"], {"taktik_probe": "gescheitert"})


# ---------------------------------------------------------------------------------------------
# Taktik follows Orientieren (issue 31)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("probe", ["gelungen", "gescheitert"])
def test_taktik_without_orientieren_is_refused(probe: str) -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Mögliche Sonstige Aktionen": „Taktik -> Nachdem der
    Kämpfer sich mit Orientieren einen Überblick verschafft hat …“, „Kann nur wenige Aktionen
    nach 'Orientieren' verwendet werden“, and Orientieren: „seine INI steigt auf das für ihn
    mögliche Maximum“. A Taktiker whose INI is rolled (not oriented) is refused with the rule's
    words, on his „Orientiert“ field – never a Taktik on a rolled INI."""
    fighters = [fighter("Alrik", 12), fighter("Bruna", 10), fighter("Ork", 9, seite="Gegner")]
    err = error("initiative", {"fighters": fighters, "taktik_probe": probe, "taktiker": "Alrik"})
    assert err["field"] == "fighters.0.orientieren"
    assert "„Kann nur wenige Aktionen nach 'Orientieren' verwendet werden“" in err["message"]
    assert err["message"].startswith("Kämpfer 1 – Orientiert: ")
    # oriented, his INI is the maximum (no roll) and the Taktik is evaluated
    fighters[0]["orientieren"] = True
    r = run("initiative", {"fighters": fighters, "taktik_probe": probe, "taktiker": "Alrik"})
    alrik = next(row for row in r["order"] if row["name"] == "Alrik")
    assert alrik["roll"] is None and alrik["oriented"] is True
    assert alrik["die_value"] == 6
    # the other fighters need not have oriented
    assert next(row for row in r["order"] if row["name"] == "Bruna")["roll"] is not None
