"""DSA 4.1 Hausregeln: the 1W20 probe with its confirmation, and what every action shares
(``common.py``: ``probe_chances``; describe, rule tables, seeds, speed)."""

from __future__ import annotations

import time

import pytest

from engine import api
from engine.systems.dsa import common
from tests.engine.brute import chance
from tests.engine.dsa.helpers import KEYS, SRC, fighter, model_outcome, run


@pytest.mark.parametrize("target", [-5, 0, 1, 2, 5, 10, 14, 19, 20, 25])
@pytest.mark.parametrize("extra", [None, 0, 4, 10, 30])
def test_probe_chances_brute_force(target: int, extra: int | None) -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Crits und Patzer": glücklich/kritisch/unglücklich/
    Patzer with the confirmation (Annahme: second W20 against the same value), and Abschnitt
    "Fernkampfattacken ins Kampfgetümmel" for the random other person – all 400 pairs."""
    free = None if extra is None else target + extra
    got = common.probe_chances(target, free)
    for key in KEYS:
        assert got[key] == chance(
            [20, 20], lambda f, k=key: model_outcome(f[0], f[1], target, free) == k
        )
    assert sum(got.values()) == 1


def test_describe_lists_assumptions_and_source() -> None:
    """Every action shows its Annahmen (from dsa.yaml) and cites the source by section."""
    for action in ("initiative", "attack", "defense", "damage", "fumble"):
        spec = api.describe("dsa", action)
        assert spec["assumptions"], action
        assert spec["source"].startswith(SRC) and "Abschnitt" in spec["source"]


def test_rule_tables_have_the_page_shape() -> None:
    """001_240b8e52c108db7c.txt, Abschnitte "Besonderheiten von Fernkampfwaffen" and "Auswahl von
    durchzuführenden Aktionen": the tables the pages render (verbatim cells)."""
    from site_plugins.forms import render_table

    html = render_table("dsa", "entfernungen")
    for cell in (
        "sehr nah",
        "-2",
        "nah",
        "+-0",
        "mittel",
        "+4",
        "weit",
        "+8",
        "extrem weit",
        "+12",
    ):
        assert f"<td>{cell}</td>" in html
    html = render_table("dsa", "aktionskombinationen")
    assert "<td>Die zweite Angriffsaktion ist um 4 erschwert</td>" in html
    assert "<td>Ausnahme Schild- und Stabkämpfer</td>" in html


def test_same_seed_same_json() -> None:
    """Same seed and params ⇒ the same JSON."""
    params = {"art": "fernkampf", "wert": 15, "getuemmel": 5}
    assert api.run("dsa", "attack", params, 42) == api.run("dsa", "attack", params, 42)


def test_actions_are_fast_at_the_limits() -> None:
    """Well under a second even at the limits (20 fighters, big damage dice)."""
    fighters = [fighter(f"K{i}", i % 7) for i in range(20)]
    cases = [
        ("initiative", {"fighters": fighters}),
        ("attack", {"schaden": "20W6+20", "wert": 20}),
        ("damage", {"tp": "30W6", "ko": 30, "lep": 200}),
        ("defense", {}),
        ("fumble", {}),
    ]
    for action, params in cases:
        start = time.process_time()
        run(action, params)
        assert time.process_time() - start < 1.0, action
