"""Güte-System: the rule data – Annahmen and rule tables (``common.py``, ``guete.yaml``)."""

from __future__ import annotations

from engine import api
from engine.data_files import load


def test_assumptions_are_in_describe_and_data() -> None:
    """Everything the text leaves open is an Annahme in guete.yaml, shown by describe."""
    data = load("guete")
    keys = {a["key"] for a in data.assumptions()}
    assert {"fp_wurf", "initiative.hoeher_zuerst", "wuerfe.erdruecken.rundung"} <= keys
    assert any("Initiativwurf" in a for a in api.describe("guete", "initiative")["assumptions"])
    assert api.describe("guete", "attack")["assumptions"]


def test_tables_have_page_shape() -> None:
    """The regeltabelle fences render tabellen.* from guete.yaml (columns and rows)."""
    from site_plugins.forms import render_table

    for name in ("verteidigung", "situationen", "optionen"):
        html = render_table("guete", name)
        assert '<table class="rw-rule-table"' in html and "</tbody>" in html
        assert html.startswith('<div class="md-typeset__scrollwrap">')  # scrolls at 375 px
    assert "Rekonstruktion" in load("guete").text("tabellen.situationen.titel")
