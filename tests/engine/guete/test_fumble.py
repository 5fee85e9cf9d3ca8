"""Güte-System: the ``fumble`` action (declared in regeln/guete.yaml, ``art: keine_regel``)."""

from __future__ import annotations

from tests.engine.guete.helpers import run


def test_fumble_has_no_rule() -> None:
    """002_51e59e824768e9e9.txt L229, L289: „besondere Würfelergebnisse“ are referenced, the
    chapter is missing – the action says so and invents no table."""
    r = run("fumble", {})
    assert r["rule"] is None and "keine Regel" in r["meaning"]
