"""Aktionswürfel-System (source 003_3ac4060591b07c19.txt, „Kampf“): shared test helpers.

The die of a Wurf is not in the text, so Willens-Wurf and Angriffswurf are inputs; the engine
rolls the weapon's damage dice and, for ties, the re-roll with the die from the data (Annahme).
``run`` and ``error`` call the engine through its JSON boundary (``engine.api.run``).
"""

from __future__ import annotations

import json
import re
from typing import Any

from engine import api
from engine.data_files import load

SRC = "003_3ac4060591b07c19.txt"

# The sample situation the tests start from, given explicitly: the engine no longer fills in
# required fields (they used to default to these form values); a test's own params override it.
SAMPLE: dict[str, dict[str, Any]] = {
    "attack": {
        "angriffswurf": 12,
        "verteidigungswert": 10,
        "schadenswuerfel": "2W6",
        "armor": 2,
        "zaehigkeit": 6,
        "gesundheit": 20,
    },
}


def with_sample(action: str, params: Any) -> Any:
    return {**SAMPLE.get(action, {}), **params} if isinstance(params, dict) else params


def run(action: str, params: dict[str, Any], seed: int = 1) -> dict[str, Any]:
    out = api.run("aktionswuerfel", action, with_sample(action, params), seed)
    assert out["ok"], out.get("error")
    json.loads(json.dumps(out))
    result: dict[str, Any] = out["result"]
    assert result["display"]["headline"]
    return result


def error(action: str, params: dict[str, Any]) -> dict[str, str]:
    out = api.run("aktionswuerfel", action, with_sample(action, params), 1)
    assert not out["ok"]
    err: dict[str, str] = out["error"]
    return err


# --- connected helpers: the schema hints, the assumptions a result names, player-facing words --

ASSUMED = "Für dieses Ergebnis angenommen"
# what a player must not read: source lines, file names, the machinery's words
NOT_FOR_PLAYERS = re.compile(r"\bL[0-9]+\b|Engine|Seed|JSON|\.txt|[0-9]{3}_[0-9a-f]{16}")


def assumed(result: dict[str, Any]) -> list[str]:
    """The assumptions a result names („Für dieses Ergebnis angenommen“)."""
    for section in result["display"]["sections"]:
        if section.get("caption") == ASSUMED:
            items: list[str] = section["items"]
            return items
    return []


def assumption(key: str) -> str:
    """The German text of the data's assumption at ``key``, as a result names it."""
    found = {a["key"]: a["text"] for a in load("aktionswuerfel").assumptions()}
    return found[key]


def fields(action: str) -> dict[str, dict[str, Any]]:
    return {f["name"]: f for f in api.describe("aktionswuerfel", action)["params"]}


def form_params(action: str, params: dict[str, Any]) -> dict[str, Any]:
    """What the form sends: every field's pre-filled value under ``params``, without the
    fields whose ``when`` does not hold (read from the values as they stand, like forms.js)."""
    schema = fields(action)
    values = {name: f["default"] for name, f in schema.items()} | with_sample(action, params)
    shown = {
        name: value
        for name, value in values.items()
        if all(values[other] in allowed for other, allowed in schema[name].get("when", {}).items())
    }
    return shown


def player_texts(value: Any) -> list[str]:
    """Every string in a display or a describe answer (the action's ``source`` excluded)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for k, v in value.items() if k != "source" for t in player_texts(v)]
    if isinstance(value, list):
        return [t for v in value for t in player_texts(v)]
    return []


def send(action: str, params: dict[str, Any], seed: int = 1) -> dict[str, Any]:
    """The engine's answer to what the form sends (``form_params``)."""
    return api.run("aktionswuerfel", action, form_params(action, params), seed)


def notes(result: dict[str, Any], caption: str = "Hinweise") -> list[str]:
    """The items of the display's notes section ``caption``."""
    for section in result["display"]["sections"]:
        if section["kind"] == "notes" and section["caption"] == caption:
            items: list[str] = section["items"]
            return items
    return []
