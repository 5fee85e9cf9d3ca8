"""What the Ryssea tests share: the sample values, and brute force written from the rules.

Source: ``000_5fbfd0ad384a0921.txt`` (line numbers ``L…``). The dice mechanics are not in 000;
they come from the draft chapter "Würfelsystem & Proben" (public repository
RonjaVerenaUder/ryssea-wiki, ``content/Regelwerk/Würfelsystem & Proben.md``, commit 1489b4f):
Grundwert = (EIG1 + EIG2 + EIG3) / 2 + TaW, Grundwert + W10, Unfähig W8 / Begabt W12 /
Genie (W12 + W4) − 1, Vorteil / Nachteil, Kritischer Erfolg 9/10 → W10 → sum 19/20, Patzer
1/2 → W10 → sum 2/3, Erfolgsprobe TaW × W6 (5 and 6 count).

Every exact chance an action reports is compared with a brute-force enumeration of all dice
(``harness/brute.py``), written here from the rule text, not from the engine's code.
``run``, ``error``, ``seek`` and the rest are the shared ``harness/support.py`` bound to
the system.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from engine.data_files import load
from harness.support import SystemTests


def every_face(sides: Sequence[int]) -> tuple[Any, int]:
    """All face combinations and their count (each equally likely): integer bookkeeping."""
    return itertools.product(*(range(1, n + 1) for n in sides)), math.prod(sides)


SOURCE_NAME = "000_5fbfd0ad384a0921.txt"
DATA = load("ryssea")

# The sample situation the tests start from, given explicitly: the engine no longer fills in
# required fields (they used to default to these form values); a test's own params override it.
PROBE_SAMPLE: dict[str, Any] = {"eig1": 10, "eig2": 10, "eig3": 10, "taw": 5}
SAMPLE: dict[str, dict[str, Any]] = {
    "probe": {**PROBE_SAMPLE, "schwierigkeit": 25},
    "attack": {
        **PROBE_SAMPLE,
        "damage": "1W6+3",
        "verteidigung": 25,
        **{f"abwehr_{key}": value for key, value in PROBE_SAMPLE.items()},
        "grundreichweite": 20,
        "distance": 10,
    },
    "dodge_jump": {**PROBE_SAMPLE, "damage": 10},
    "interruption": {**PROBE_SAMPLE, "damage": 12},
    "teamwork": {"verteidigung": 25, "helfer": [{"name": "Bruna", **PROBE_SAMPLE}]},
    "catch_breath": {"konstitution": 10, "betaeubungsschaden": 15},
    "surprise": {
        "angreifer": [{"name": "Alrik", **PROBE_SAMPLE}],
        "verteidiger": [{"name": "Räuberbaron", **PROBE_SAMPLE}],
    },
}


TESTS = SystemTests("ryssea", SAMPLE)
run = TESTS.run
error = TESTS.error
fields = TESTS.fields
annahme = TESTS.annahme
with_sample = TESTS.with_sample
seek = TESTS.seek
send = TESTS.send


def fr(text: str) -> Fraction:
    return Fraction(text)


TALENT_SIDES = {"normal": [10], "unfaehig": [8], "begabt": [12], "genie": [12, 4]}


def talent_sides(kind: str, mode: str) -> list[int]:
    """The dice of the talent roll: one talent die, two with Vorteil/Nachteil."""
    return TALENT_SIDES[kind] * (1 if mode == "normal" else 2)


def talent_value(kind: str, faces: Sequence[int]) -> int:
    return faces[0] + faces[1] - 1 if kind == "genie" else faces[0]


def kept_value(kind: str, mode: str, faces: Sequence[int]) -> int:
    n = len(TALENT_SIDES[kind])
    first = talent_value(kind, faces[:n])
    if mode == "normal":
        return first
    second = talent_value(kind, faces[n : 2 * n])
    return max(first, second) if mode == "vorteil" else min(first, second)


def crit_patzer(value: int, confirm: int) -> tuple[bool, bool]:
    """Draft rule: 9 or 10 → another W10, sum 19/20 critical; 1 or 2 → sum 2/3 Patzer
    (Annahme: the same numbers for every talent die)."""
    return value >= 9 and value + confirm >= 19, value <= 2 and value + confirm <= 3


def erfolge(faces: Sequence[int]) -> int:
    return sum(1 for f in faces if f >= 5)


def brute_probe(
    base: int, kind: str, mode: str, succeeds: Any
) -> tuple[Fraction, Fraction, Fraction]:
    """(success, critical, Patzer) by enumerating talent dice and the confirmation W10."""
    sides = [*talent_sides(kind, mode), 10]
    n = len(sides) - 1
    success = crit = fumble = 0
    combos, total = every_face(sides)
    for faces in combos:
        value = kept_value(kind, mode, faces[:n])
        c, f = crit_patzer(value, faces[n])
        success += c or (not f and succeeds(base + value))
        crit += c
        fumble += f
    return Fraction(success, total), Fraction(crit, total), Fraction(fumble, total)


BASE = {"eig1": 10, "eig2": 10, "eig3": 10}
