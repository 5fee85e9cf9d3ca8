"""The seeded requests every parity check sends: CPython, Node from the snapshot, Chromium.

Same seed + same params ⇒ the same JSON everywhere (ARCHITECTURE: "One engine, three doors").
Defaults, varied values within the limits, and some invalid requests, for every action.
"""

from __future__ import annotations

import json
import random
from typing import Any

from engine import api


def _vary(fields: list[dict[str, Any]], values: dict[str, Any], rng: random.Random) -> None:
    """Replace the integer fields (also inside lists) by random values within their limits."""
    for field in fields:
        if field["type"] == "int":
            values[field["name"]] = rng.randint(field["min"], field["max"])
        elif field["type"] == "bool":
            values[field["name"]] = rng.random() < 0.5
        elif field["type"] == "list":
            for row in values[field["name"]]:
                _vary(field["item"], row, rng)


def requests() -> list[dict[str, Any]]:
    """Seeded requests for every action: defaults, varied values, and some invalid ones."""
    rng = random.Random(20261129)
    out: list[dict[str, Any]] = []
    actions = [(s["name"], a["name"]) for s in api.catalog()["systems"] for a in s["actions"]]
    per_action = max(8, -(-60 // len(actions)))
    for system, action in actions:
        spec = api.describe(system, action)
        defaults = {p["name"]: p["default"] for p in spec["params"]}
        for index in range(per_action):
            params = json.loads(json.dumps(defaults))
            if index % 2:
                _vary(spec["params"], params, rng)
            seed = rng.randrange(2**32)
            out.append({"system": system, "action": action, "params": params, "seed": seed})
        out.append({"system": system, "action": action, "params": {"nicht_da": 1}, "seed": 1})
    out.append({"system": "gibt-es-nicht", "action": "x", "params": {}, "seed": 1})
    return out


def expected(batch: list[dict[str, Any]]) -> list[str]:
    """CPython's answers, exactly as the worker's run_json writes them."""
    return [api.run_json(json.dumps(request)) for request in batch]
