"""Aktionswürfel-System: the ``fumble`` action (declared in regeln/aktionswuerfel.yaml,
``art: keine_regel``)."""

from __future__ import annotations

from tests.engine.aktionswuerfel.helpers import run


def test_fumble_has_no_rule() -> None:
    """003_3ac4060591b07c19.txt L1–L110: the chapter has no fumble rule."""
    r = run("fumble", {})
    assert r["rule"] is None and "keine Regel" in r["meaning"]
