"""Aktionswürfel-System (source 003_3ac4060591b07c19.txt, „Kampf“): shared test helpers.

The die of a Wurf is not in the text, so Willens-Wurf and Angriffswurf are inputs; the engine
rolls the weapon's damage dice and, for ties, the re-roll with the die from the data (Annahme).
``run`` and ``error`` call the engine through its JSON boundary (``engine.api.run``).
"""

from __future__ import annotations

import json
from typing import Any

from engine import api

SRC = "003_3ac4060591b07c19.txt"

# The sample situation the tests start from, given explicitly: the engine no longer fills in
# required fields (they used to default to these form values); a test's own params override it.
SAMPLE: dict[str, dict[str, Any]] = {
    "attack": {
        "angriffswurf": 12,
        "verteidigungswert": 10,
        "schadenswuerfel": "2W6",
        "ruestung": 2,
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
