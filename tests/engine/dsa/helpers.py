"""DSA 4.1 Hausregeln (source 001_240b8e52c108db7c.txt, one line of wiki markup): shared test
helpers.

The source has a single line, so each test cites the section heading (``Abschnitt "…"``).
Seeded tests replay ``random.Random(seed)`` independently (same draw order as the engine:
probe W20, confirmation W20 only after a 1 or 20, the Getümmel die, then the damage dice) and
derive the expected values by hand from the rule. Every reported probability is checked
against brute-force enumeration of all dice outcomes (``tests/engine/brute.py``); the
independent model of the probe for that is ``model_outcome`` here. ``run`` and ``error`` call
the engine through its JSON boundary (``engine.api.run``).
"""

from __future__ import annotations

import json
import random
from typing import Any

from engine import api

SRC = "001_240b8e52c108db7c.txt"


def run(action: str, params: dict[str, Any], seed: int = 1) -> dict[str, Any]:
    out = api.run("dsa", action, params, seed)
    assert out["ok"], out.get("error")
    assert json.loads(json.dumps(out)) == out  # JSON round trip
    result: dict[str, Any] = out["result"]
    assert result["display"]["headline"] and result["display"]["outcome"]
    return result


def error(action: str, params: dict[str, Any]) -> dict[str, str]:
    out = api.run("dsa", action, params, 1)
    assert not out["ok"], out
    err: dict[str, str] = out["error"]
    return err


def draws(seed: int, sides: list[int]) -> list[int]:
    rng = random.Random(seed)
    return [rng.randint(1, s) for s in sides]


def seed_where(predicate: Any, limit: int = 20_000) -> int:
    for seed in range(limit):
        if predicate(random.Random(seed)):
            return seed
    raise AssertionError("no seed found")


def fighter(name: str, basis: int, **extra: Any) -> dict[str, Any]:
    return {"name": name, "ini_basis": basis, **extra}


def model_outcome(first: int, confirm: int, target: int, free: int | None) -> str:
    """Abschnitt "Crits und Patzer" + Annahmen: 1 hits, 20 misses; confirmation W20 ≤ value."""
    confirmed_success = confirm == 1 or (confirm != 20 and confirm <= target)
    if first == 1:
        return "kritisch" if confirmed_success else "gluecklich"
    if first == 20:
        return "ungluecklich" if confirmed_success else "patzer"
    if first <= target:
        return "gelungen"
    if free is not None and first <= free:
        return "andere_person"
    return "misslungen"


KEYS = (
    "kritisch",
    "gluecklich",
    "gelungen",
    "andere_person",
    "misslungen",
    "ungluecklich",
    "patzer",
)


def attack(params: dict[str, Any], seed: int = 1) -> dict[str, Any]:
    return run("attack", params, seed)
