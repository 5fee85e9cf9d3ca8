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
    "hit_points": {"hp": 12, "constitution": 12, "damage": "1W8+2"},
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
