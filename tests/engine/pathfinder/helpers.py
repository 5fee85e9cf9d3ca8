"""Pathfinder 1 (source 004_019b513a861ec26f.txt): what its tests share – the sample values,
the reference hit rule; ``run``, ``error`` and the rest are the shared
``harness/support.py`` bound to the system."""

from __future__ import annotations

from typing import Any

from engine.data_files import load
from harness.support import SystemTests

SOURCE_NAME = "004_019b513a861ec26f.txt"
DATA = load("pathfinder")

# The sample situation the tests start from, given explicitly: the engine no longer fills in
# required fields (they used to default to these form values); a test's own params override it.
SAMPLE: dict[str, dict[str, Any]] = {
    "attack": {
        "gab": 3,
        "staerkemodifikator": 2,
        "geschicklichkeitsmodifikator": 1,
        "armor_class": 15,
        "damage": "1W8",
    },
    "armor_class": {"armor": 4, "geschicklichkeitsmodifikator": 2, "attacker_bonus": 5},
    "saving_throw": {"kind": "reflex", "base": 2, "attribute": 1, "sg": 15},
    "hit_points": {"hp": 12, "konstitution": 12, "damage": "1W8+2"},
    "initiative": {
        "fighters": [
            {"name": "Valeros", "geschicklichkeitsmodifikator": 2},
            {"name": "Goblin", "geschicklichkeitsmodifikator": 3},
        ]
    },
}


TESTS = SystemTests("pathfinder", SAMPLE)
run = TESTS.run
error = TESTS.error
fields = TESTS.fields
annahme = TESTS.annahme
with_sample = TESTS.with_sample


def ref_hit(natural: int, bonus: int, ac: int) -> bool:
    """L8 + L10, written independently of the engine."""
    return natural == 20 or (natural != 1 and natural + bonus >= ac)
