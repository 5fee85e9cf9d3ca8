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

# The sample situation the tests start from, given explicitly: the engine no longer fills in
# required fields (they used to default to these form values); a test's own params override it.
SAMPLE: dict[str, dict[str, Any]] = {
    "attack": {"wert": 14, "damage": "1W6+4", "manoever_x": 0, "gs": 8, "distance": "nah"},
    "defense": {"pa_basis": 8},
    "damage": {"tp": "1W6+4", "ko": 12, "lep": 30},
    "fumble": {"wert": 12},
}


def with_sample(action: str, params: Any) -> Any:
    return {**SAMPLE.get(action, {}), **params} if isinstance(params, dict) else params


def run(action: str, params: dict[str, Any], seed: int = 1) -> dict[str, Any]:
    out = api.run("dsa", action, with_sample(action, params), seed)
    assert out["ok"], out.get("error")
    assert json.loads(json.dumps(out)) == out  # JSON round trip
    result: dict[str, Any] = out["result"]
    assert result["display"]["headline"] and result["display"]["outcome"]
    return result


def error(action: str, params: dict[str, Any]) -> dict[str, str]:
    out = api.run("dsa", action, with_sample(action, params), 1)
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
    return {"name": name, "seite": "Helden", "ini_basis": basis, **extra}


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


def assumed(result: dict[str, Any]) -> list[str]:
    """The assumptions a result names (its notes „Für dieses Ergebnis angenommen“)."""
    for section in result["display"]["sections"]:
        if section["kind"] == "notes" and section["caption"] == api.ASSUMED_CAPTION:
            items: list[str] = section["items"]
            return items
    return []


def annahme(key: str) -> str:
    """The player-facing text of the Annahme at ``key`` in dsa.yaml, as a result names it."""
    from engine.systems.dsa.common import DATA

    node: Any = DATA.content
    for part in key.split("."):
        node = node[part]
    return " ".join(str(node["text"]).split())


def fields(action: str) -> dict[str, dict[str, Any]]:
    """The schema of an action's fields by name, as ``describe`` gives it."""
    return {f["name"]: f for f in api.describe("dsa", action)["params"]}


def applies(field: dict[str, Any], values: dict[str, Any]) -> bool:
    """Whether the form shows (and sends) ``field`` for these values, as forms.js decides it."""
    return all(values.get(other) in allowed for other, allowed in field.get("when", {}).items())
