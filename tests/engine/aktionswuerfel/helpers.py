"""Aktionswürfel-System (source 003_3ac4060591b07c19.txt, „Kampf“): what its tests share.

The die of a Wurf is not in the text, so Willens-Wurf and Angriffswurf are inputs; the engine
rolls the weapon's damage dice and, for ties, the re-roll with the die from the data (Annahme).
``run``, ``error`` and the rest are the shared ``harness/support.py`` bound to the system.
"""

from __future__ import annotations

from typing import Any

from harness.support import SystemTests

SRC = "003_3ac4060591b07c19.txt"

# The sample situation the tests start from, given explicitly: the engine no longer fills in
# required fields (they used to default to these form values); a test's own params override it.
SAMPLE: dict[str, dict[str, Any]] = {
    "attack": {
        "angriffswurf": 12,
        "verteidigungswert": 10,
        "schadenswuerfel": "2W6",
        "armor": 2,
        "zaehigkeit": 6,
        "gesundheit": 20,
    },
}


TESTS = SystemTests("aktionswuerfel", SAMPLE)
run = TESTS.run
error = TESTS.error
fields = TESTS.fields
annahme = TESTS.annahme
form_params = TESTS.form_params
send = TESTS.send
