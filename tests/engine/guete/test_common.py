"""Güte-System: the rule data – Annahmen and rule tables (``common.py``, ``guete.yaml``)."""

from __future__ import annotations

from typing import Any

from engine import api
from engine.data_files import load
from harness.support import NOT_FOR_PLAYERS, player_texts
from regeln.guete import SYSTEM
from tests.engine.guete.helpers import error, fields, run


def test_assumptions_are_in_describe_and_data() -> None:
    """Everything the text leaves open is an Annahme in guete.yaml, shown by describe."""
    data = load("guete")
    keys = {a["key"] for a in data.assumptions()}
    rounding = "aktionen.erdruecken.modifikatoren.0.rundung"  # the declared erdruecken's
    assert {"fp_wurf", "initiative.hoeher_zuerst", rounding} <= keys
    assert any("Initiativwurf" in a for a in api.describe("guete", "initiative")["assumptions"])
    assert api.describe("guete", "attack")["assumptions"]


def test_tables_have_page_shape() -> None:
    """The regeltabelle fences render tabellen.* from guete.yaml (columns and rows)."""
    from site_plugins.forms import render_table

    for name in ("verteidigung", "situationen", "zustaende", "optionen"):
        html = render_table("guete", name)
        assert '<table class="rw-rule-table"' in html and "</tbody>" in html
        assert html.startswith('<div class="md-typeset__scrollwrap">')  # scrolls at 375 px
    assert "Rekonstruktion" in load("guete").text("tabellen.situationen.titel")


PLAYER_CASES: list[tuple[str, dict[str, Any]]] = [
    ("initiative", {"fighters": [{"name": "A", "wert": 5}, {"name": "B", "wert": 5}]}),
    ("initiative", {"fighters": [{"name": "A", "wert": 5, "surprised": True}]}),
    ("attack", {}),
    ("attack", {"konfrontation": True, "angriff_guete": 2, "gegner_guete": 2}),
    ("attack", {"konfrontation": True, "angriff_gelungen": False}),
    ("attack", {"parade": True, "parade_guete": -6}),
    ("attack", {"parade": True, "parade_guete": 5, "gesichtsfeld": True}),
    ("attack", {"parade": True, "parade_guete": 5}),
    ("attack", {"parade": True, "parade_guete": 0, "angriff_guete": 9}),
    ("attack", {"abwehr_gelungen": True, "abwehr_guete": 9, "sicht": "dunkelheit"}),
    ("attack", {"option": "betaeuben", "angreifer_betaeubt": True}),
    ("attack", {"option": "entwaffnen", "abwehr_gelungen": True, "abwehr_guete": 2}),
    ("attack", {"option": "entwaffnen", "abwehr_gelungen": True, "abwehr_guete": 9}),
    ("attack", {"option": "festhalten", "waffenart": "faustkampf"}),
    ("attack", {"option": "feuerangriff", "feuerempfindlich": True}),
    ("attack", {"option": "gedaempft"}),
    ("attack", {"option": "gedaempft", "abwehr_gelungen": True, "abwehr_guete": 1}),
    ("attack", {"option": "gezielt", "gezielt_zweiter_wurf": True}),
    ("attack", {"option": "gezielt"}),
    ("attack", {"option": "rundumschlag", "waffe_zweihaendig": True, "ziel_rundumschlag": True}),
    ("attack", {"option": "stachelwirbel", "waffenart": "natuerlich"}),
    ("attack", {"option": "sturzflug", "waffenart": "natuerlich", "sturzflug_greifen": True}),
    ("attack", {"option": "zu_fall"}),
    ("attack", {"option": "zurueckdraengen", "gefaehrliches_feld": True}),
    ("attack", {"option": "zweihaendige_hiebe", "hiebe_stufen": 3}),
    ("attack", {"option": "zwei_waffen", "wehrlos": True}),
    ("fumble", {}),
    ("aufwachen", {"gw_widerstand": 12}),
    ("aufwachen", {}),
    ("entwaffnen", {}),
    ("erdruecken", {"gewicht": 210}),
    ("sturzflug", {"greifen": True}),
    ("feuerschaden", {}),
]
PLAYER_ERRORS: list[tuple[str, dict[str, Any]]] = [
    ("attack", {"falsche_hand": True, "option": "entwaffnen"}),
    ("attack", {"angreifer_kniend": True, "option": "entwaffnen"}),
    ("attack", {"angreifer_liegend": True, "waffe_zweihaendig": True}),
    ("attack", {"angreifer_kniend": True, "angreifer_liegend": True}),
    ("attack", {"ziel_kniend": True, "ziel_liegend": True}),
    ("attack", {"wehrlos": True, "konfrontation": True}),
    ("attack", {"parade": True, "konfrontation": True}),
    ("attack", {"option": "rundumschlag"}),
    ("attack", {"option": "gedaempft", "waffe_zweihaendig": True}),
    ("attack", {"option": "zweihaendige_hiebe", "waffe_zweihaendig": True}),
    ("attack", {"option": "zwei_waffen", "waffe_zweihaendig": True}),
    ("attack", {"option": "festhalten"}),
    ("attack", {"option": "stachelwirbel"}),
    ("attack", {"option": "sturzflug"}),
    ("attack", {"damage": "11W6"}),
    (
        "initiative",
        {"fighters": [{"name": "A", "wert": 1, "hinterhalt": True, "surprised": True}]},
    ),
]


def test_player_facing_words() -> None:
    """What a player reads – labels, help, summaries, results, errors, assumptions – names no
    source line, file or machinery („Engine“, „Seed“, „JSON“); the citations stay in
    ``source``, the data's ``quelle`` and the code."""
    texts: list[str] = []
    for action in SYSTEM.actions:
        texts += player_texts(api.describe("guete", action))
    for action, params in PLAYER_CASES:
        texts += player_texts(run(action, params)["display"])
    for action, params in PLAYER_ERRORS:
        texts.append(error(action, params)["message"])
    texts += [a["text"] for a in load("guete").assumptions()]
    assert [t for t in texts if NOT_FOR_PLAYERS.search(t)] == []


def test_every_assumption_cites_its_source() -> None:
    """Each Annahme keeps its citation for maintainers in ``quelle`` next to ``text``."""
    data = load("guete")
    for found in data.assumptions():
        entry = data.content
        for part in found["key"].split("."):  # a list (a declared helper's) by its index
            entry = entry[int(part)] if isinstance(entry, list) else entry[part]
        assert str(entry["quelle"]).startswith("002_51e59e824768e9e9.txt L"), found["key"]


def test_when_repeats_the_conditions_it_depends_on() -> None:
    """The form reads a hidden field's value as it stands: a field whose ``when`` names another
    field with a ``when`` of its own repeats that one, so it hides with it."""
    for action in SYSTEM.actions:
        schema = fields(action)
        for name, field in schema.items():
            for other in field.get("when", {}):
                inherited = schema[other].get("when", {})
                assert inherited.items() <= field["when"].items(), (action, name, other)
