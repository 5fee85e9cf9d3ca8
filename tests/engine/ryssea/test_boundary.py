"""Ryssea at the JSON boundary: every action round-trips, shows its display, names bad fields."""

from __future__ import annotations

import json

import pytest

from engine import api
from tests.engine.ryssea.support import (
    error,
    with_sample,
)

ACTIONS = ["probe", "attack", "fumble", "dodge_jump", "interruption", "teamwork", "catch_breath"]


@pytest.mark.parametrize("action", ACTIONS)
def test_every_action_json_display_and_same_seed(action: str) -> None:
    """Each result round-trips through JSON, carries the display block, and a seed repeats."""
    first = api.run("ryssea", action, with_sample(action, {}), 42)
    again = api.run("ryssea", action, with_sample(action, {}), 42)
    assert first == again
    assert json.loads(json.dumps(first)) == first
    display = first["result"]["display"]
    assert display["headline"] and display["outcome"]
    doc = api.describe("ryssea", action)
    assert doc["title"] and doc["source"]


@pytest.mark.parametrize("action", ACTIONS)
def test_unknown_field_named(action: str) -> None:
    err = error(action, {"gibt_es_nicht": 1})
    assert err["field"] == "gibt_es_nicht"
    assert "Unbekanntes Feld" in err["message"]
