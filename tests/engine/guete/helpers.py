"""Güte-System (source 002_51e59e824768e9e9.txt, „Kampfregeln - Nahkampf“): what its tests
share.

The text defines no FP roll, so the probes are inputs; the tests check the resolution (who
hits, which defense, which resource loses), every modifier from the sections, the dice the
text does define, and every reported probability against brute-force enumeration. ``run``,
``error`` and the rest are the shared ``harness/support.py`` bound to the system; ``d6``
replays the seeded dice.
"""

from __future__ import annotations

from typing import Any

from harness.support import SystemTests, draws

SRC = "002_51e59e824768e9e9.txt"

# The sample situation the tests start from, given explicitly: the engine no longer fills in
# required fields (they used to default to these form values); a test's own params override it.
SAMPLE: dict[str, dict[str, Any]] = {
    "attack": {
        "angreifer": "Angreifer",
        "ziel": "Ziel",
        "angriff_gelungen": True,
        "angriff_guete": 3,
        "damage": "1W6+2",
        "gegner_gelungen": True,
        "gegner_guete": 2,
        "gegner_schaden": "1W6+2",
        "abwehr_guete": 0,
        "parade_guete": 0,
        "hiebe_stufen": 1,
        "gezielt_ziel": "gliedmasse",
        "sturzflug_hoehe": 5,
    },
    "aufwachen": {"gw_widerstand": 4},
    "erdruecken": {"gewicht": 200},
    "sturzflug": {"hoehe": 9},
}


TESTS = SystemTests("guete", SAMPLE)
run = TESTS.run
error = TESTS.error
fields = TESTS.fields
annahme = TESTS.annahme
form_params = TESTS.form_params
send = TESTS.send


def d6(seed: int, count: int = 1) -> list[int]:
    return draws(seed, [6] * count)
