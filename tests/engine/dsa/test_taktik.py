"""DSA 4.1 Hausregeln: Taktik in the ``initiative`` action (``taktik.py``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.engine.dsa.helpers import error, fighter, run


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
