"""DSA 4.1 Hausregeln (source 001_240b8e52c108db7c.txt, one line of wiki markup): what its
tests share.

The source has a single line, so each test cites the section heading (``Abschnitt "…"``).
Seeded tests replay ``random.Random(seed)`` independently (same draw order as the engine:
probe W20, confirmation W20 only after a 1 or 20, the Getümmel die, then the damage dice) and
derive the expected values by hand from the rule. Every reported probability is checked
against brute-force enumeration of all dice outcomes (``harness/brute.py``); the
independent model of the probe for that is ``model_outcome`` here. ``run``, ``error`` and the
rest are the shared ``harness/support.py`` bound to the system.
"""

from __future__ import annotations

from typing import Any

from harness.support import SystemTests

SRC = "001_240b8e52c108db7c.txt"

# The sample situation the tests start from, given explicitly: the engine no longer fills in
# required fields (they used to default to these form values); a test's own params override it.
SAMPLE: dict[str, dict[str, Any]] = {
    "attack": {"wert": 14, "damage": "1W6+4", "manoever_x": 0, "gs": 8, "distance": "nah"},
    "defense": {"pa_basis": 8},
    "damage": {"damage": "1W6+4", "ko": 12, "lep": 30},
    "fumble": {"wert": 12},
}


TESTS = SystemTests("dsa", SAMPLE)
run = TESTS.run
error = TESTS.error
fields = TESTS.fields
annahme = TESTS.annahme


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
