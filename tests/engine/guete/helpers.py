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


def run(action: str, params: dict[str, Any], seed: int = 1) -> dict[str, Any]:
    out = api.run("guete", action, params, seed)
    assert out["ok"], out.get("error")
    json.loads(json.dumps(out))  # JSON round trip
    result: dict[str, Any] = out["result"]
    assert result["display"]["headline"]
    return result


def error(action: str, params: dict[str, Any]) -> dict[str, str]:
    out = api.run("guete", action, params, 1)
    assert not out["ok"]
    err: dict[str, str] = out["error"]
    return err


def d6(seed: int, count: int = 1) -> list[int]:
    rng = random.Random(seed)
    return [rng.randint(1, 6) for _ in range(count)]
