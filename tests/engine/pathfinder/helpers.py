"""Shared helpers of the Pathfinder tests: run an action, find a seed, the reference hit rule."""

from __future__ import annotations

import json
import random
from typing import Any

from engine import api
from engine.data_files import load

SOURCE_NAME = "004_019b513a861ec26f.txt"
DATA = load("pathfinder")


def run(action: str, params: dict[str, Any] | None = None, seed: int = 1) -> dict[str, Any]:
    answer = api.run("pathfinder", action, params or {}, seed)
    assert answer["ok"], answer
    json.loads(json.dumps(answer))
    return dict(answer["result"])


def error_of(action: str, params: dict[str, Any]) -> dict[str, str]:
    answer = api.run("pathfinder", action, params, 1)
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
