"""Güte-System (source 002_51e59e824768e9e9.txt, „Kampfregeln - Nahkampf“): shared test helpers.

The text defines no FP roll, so the probes are inputs; the tests check the resolution (who
hits, which defence, which resource loses), every modifier from the sections, the dice the
text does define, and every reported probability against brute-force enumeration. ``run`` and
``error`` call the engine through its JSON boundary; ``d6`` replays the seeded dice.
"""

from __future__ import annotations

import json
import random
from typing import Any

from engine import api

SRC = "002_51e59e824768e9e9.txt"

# The sample situation the tests start from, given explicitly: the engine no longer fills in
# required fields (they used to default to these form values); a test's own params override it.
SAMPLE: dict[str, dict[str, Any]] = {
    "attack": {
        "angreifer": "Angreifer",
        "ziel": "Ziel",
        "angriff_gelungen": True,
        "angriff_guete": 3,
        "schaden": "1W6+2",
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
