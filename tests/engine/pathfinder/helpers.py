"""Shared helpers of the Pathfinder tests: run an action, find a seed, the reference hit rule."""

from __future__ import annotations

import json
import random
from typing import Any

from engine import api
from engine.data_files import load

SOURCE_NAME = "004_019b513a861ec26f.txt"
DATA = load("pathfinder")

# The sample situation the tests start from, given explicitly: the engine no longer fills in
# required fields (they used to default to these form values); a test's own params override it.
SAMPLE: dict[str, dict[str, Any]] = {
    "attack": {"bab": 3, "strength": 2, "dexterity": 1, "armor_class": 15, "damage": "1W8"},
    "armor_class": {"armor": 4, "dexterity": 2, "attacker_bonus": 5},
    "saving_throw": {"kind": "reflex", "base": 2, "attribute": 1, "dc": 15},
    "hit_points": {"hp": 12, "konstitution": 12, "damage": "1W8+2"},
    "initiative": {
        "fighters": [{"name": "Valeros", "dexterity": 2}, {"name": "Goblin", "dexterity": 3}]
    },
}


def with_sample(action: str, params: Any) -> Any:
    return {**SAMPLE.get(action, {}), **params} if isinstance(params, dict) else params


def run(action: str, params: dict[str, Any] | None = None, seed: int = 1) -> dict[str, Any]:
    answer = api.run("pathfinder", action, with_sample(action, params or {}), seed)
    assert answer["ok"], answer
    json.loads(json.dumps(answer))
    return dict(answer["result"])


def error_of(action: str, params: dict[str, Any]) -> dict[str, str]:
    answer = api.run("pathfinder", action, with_sample(action, params), 1)
    assert not answer["ok"], answer
    return dict(answer["error"])


def seed_for(faces: list[int], sides: int = 20, limit: int = 200_000) -> int:
    """The first seed whose first dice (all with ``sides`` sides) show ``faces``."""
    for seed in range(limit):
        rng = random.Random(seed)
        if all(rng.randint(1, sides) == face for face in faces):
            return seed
    raise AssertionError(f"no seed for {faces}")


def ref_hit(natural: int, bonus: int, ac: int) -> bool:
    """L8 + L10, written independently of the engine."""
    return natural == 20 or (natural != 1 and natural + bonus >= ac)


def assumed(result: dict[str, Any]) -> list[str]:
    """The assumptions a result names (its notes „Für dieses Ergebnis angenommen“)."""
    for section in result["display"]["sections"]:
        if section["kind"] == "notes" and section["caption"] == api.ASSUMED_CAPTION:
            items: list[str] = section["items"]
            return items
    return []


def annahme(key: str) -> str:
    """The player-facing text of the Annahme at ``key`` in pathfinder.yaml."""
    node: Any = DATA.content
    for part in key.split("."):
        node = node[part]
    return " ".join(str(node["text"]).split())


def fields(action: str) -> dict[str, dict[str, Any]]:
    """The schema of an action's fields by name, as ``describe`` gives it."""
    return {f["name"]: f for f in api.describe("pathfinder", action)["params"]}


def applies(field: dict[str, Any], values: dict[str, Any]) -> bool:
    """Whether the form shows (and sends) ``field`` for these values, as forms.js decides it."""
    return all(values.get(other) in allowed for other, allowed in field.get("when", {}).items())


def chance_labels(result: dict[str, Any]) -> list[str]:
    """The labels of the result's (first) odds, in the order shown."""
    section = next(s for s in result["display"]["sections"] if s["kind"] == "chances")
    return [item["label"] for item in section["items"]]
