"""Güte-System (source 002_51e59e824768e9e9.txt, „Kampfregeln - Nahkampf“): shared test helpers.

The text defines no FP roll, so the probes are inputs; the tests check the resolution (who
hits, which defence, which resource loses), every modifier from the sections, the dice the
text does define, and every reported probability against brute-force enumeration. ``run`` and
``error`` call the engine through its JSON boundary; ``d6`` replays the seeded dice.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from engine import api
from engine.data_files import load

SRC = "002_51e59e824768e9e9.txt"

# The sample situation the tests start from, given explicitly: the engine no longer fills in
# required fields (they used to default to these form values); a test's own params override it.
SAMPLE: dict[str, dict[str, Any]] = {
    "attack": {
        "angreifer": "Angreifer",
        "ziel": "Ziel",
        "angriff_gelungen": True,
        "angriff_guete": 3,
        "damage": "1W6+2",
        "gegner_gelungen": True,
        "gegner_guete": 2,
        "gegner_schaden": "1W6+2",
        "abwehr_guete": 0,
        "parade_guete": 0,
        "hiebe_stufen": 1,
        "gezielt_ziel": "gliedmasse",
        "sturzflug_hoehe": 5,
    },
    "aufwachen": {"gw_widerstand": 4},
    "erdruecken": {"gewicht": 200},
    "sturzflug": {"hoehe": 9},
}


def with_sample(action: str, params: Any) -> Any:
    return {**SAMPLE.get(action, {}), **params} if isinstance(params, dict) else params


def run(action: str, params: dict[str, Any], seed: int = 1) -> dict[str, Any]:
    out = api.run("guete", action, with_sample(action, params), seed)
    assert out["ok"], out.get("error")
    json.loads(json.dumps(out))  # JSON round trip
    result: dict[str, Any] = out["result"]
    assert result["display"]["headline"]
    return result


def error(action: str, params: dict[str, Any]) -> dict[str, str]:
    out = api.run("guete", action, with_sample(action, params), 1)
    assert not out["ok"]
    err: dict[str, str] = out["error"]
    return err


def d6(seed: int, count: int = 1) -> list[int]:
    rng = random.Random(seed)
    return [rng.randint(1, 6) for _ in range(count)]


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
    found = {a["key"]: a["text"] for a in load("guete").assumptions()}
    return found[key]


def fields(action: str) -> dict[str, dict[str, Any]]:
    return {f["name"]: f for f in api.describe("guete", action)["params"]}


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
    return api.run("guete", action, form_params(action, params), seed)


def notes(result: dict[str, Any], caption: str = "Hinweise") -> list[str]:
    """The items of the display's notes section ``caption``."""
    for section in result["display"]["sections"]:
        if section["kind"] == "notes" and section["caption"] == caption:
            items: list[str] = section["items"]
            return items
    return []
