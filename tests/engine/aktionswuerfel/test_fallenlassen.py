"""Aktionswürfel-System: the ``fallenlassen`` action, a freie Aktion (``fallenlassen.py``)."""

from __future__ import annotations

from typing import Any

import pytest

from harness.support import assumed, notes
from tests.engine.aktionswuerfel.helpers import annahme, error, fields, form_params, run, send

NEIGHBOUR = {"wohin": "nachbarfeld"}


def test_drop_to_the_ground_needs_no_roll() -> None:
    """003_3ac4060591b07c19.txt L90: an item held in the hand can be dropped to the ground –
    no roll, no assumption; a freie Aktion, one per Zug (L84–L86)."""
    r = run("fallenlassen", {})
    assert r == r | {"wohin": "boden", "gelungen": None, "feld": "eigenes"}
    assert r["display"]["outcome"] == "Der Gegenstand fällt zu Boden."
    assert any("freie Aktion: 1 je Zug" in n and "Spielleiter" in n for n in notes(r))
    assert assumed(r) == []


@pytest.mark.parametrize(("roll", "success"), [(0, False), (9, False), (10, True), (25, True)])
def test_neighbouring_field_geschicklichkeit_gegen_10(roll: int, success: bool) -> None:
    """003_3ac4060591b07c19.txt L92: a Geschicklichkeit-Wurf gegen 10 drops it into a
    neighbouring field (10 itself: Annahme; a failed roll: Annahme, the own field)."""
    r = run("fallenlassen", {**NEIGHBOUR, "geschicklichkeitswurf": roll})
    assert r["gelungen"] is success
    assert r["feld"] == ("benachbart" if success else "eigenes")
    assert f"Geschicklichkeit-Wurf {roll} gegen 10" in r["display"]["outcome"]


def test_fallenlassen_names_the_assumptions_it_used() -> None:
    """L92: the entered roll (Annahme wurf), the tie at 10 and the failed roll are named only
    where they decide."""
    entered = annahme("wurf")
    tie = annahme("freie_aktionen.fallenlassen.erfolg_ab_gleichstand")
    failed = annahme("freie_aktionen.fallenlassen.misslungen")
    assert assumed(run("fallenlassen", {**NEIGHBOUR, "geschicklichkeitswurf": 10})) == [
        entered,
        tie,
    ]
    assert assumed(run("fallenlassen", {**NEIGHBOUR, "geschicklichkeitswurf": 12})) == [entered]
    assert assumed(run("fallenlassen", {**NEIGHBOUR, "geschicklichkeitswurf": 3})) == [
        entered,
        failed,
    ]


def test_fallenlassen_hints() -> None:
    """The Geschicklichkeit-Wurf (L92) is rolled at the table for this one drop: ``per_roll``
    (cleared after the roll), not a value of the character; asked only for the neighbouring
    field."""
    f = fields("fallenlassen")
    assert f["geschicklichkeitswurf"]["per_roll"] is True
    assert "subject" not in f["geschicklichkeitswurf"]
    assert f["geschicklichkeitswurf"]["when"] == {"wohin": ["nachbarfeld"]}
    assert "subject" not in f["wohin"]
    assert "geschicklichkeitswurf" not in form_params("fallenlassen", {"wohin": "boden"})
    assert send("fallenlassen", {"wohin": "boden", "geschicklichkeitswurf": -5})["ok"]


@pytest.mark.parametrize(
    ("params", "field", "words"),
    [
        ({"wohin": "nachbarfeld"}, "geschicklichkeitswurf", "fehlt"),
        ({**NEIGHBOUR, "geschicklichkeitswurf": -1}, "geschicklichkeitswurf", "außerhalb"),
        ({**NEIGHBOUR, "geschicklichkeitswurf": "zehn"}, "geschicklichkeitswurf", "keine ganze"),
        ({"wohin": "decke"}, "wohin", "keine der Möglichkeiten"),
    ],
)
def test_fallenlassen_bad_input(params: dict[str, Any], field: str, words: str) -> None:
    """Bad input → a German message naming the field."""
    err = error("fallenlassen", params)
    assert err["field"] == field and words in err["message"]
