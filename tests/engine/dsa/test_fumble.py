"""DSA 4.1 Hausregeln: the ``fumble`` action – confirming a 20 (``fumble.py``)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from harness.brute import chance
from harness.support import assumed, seed_where
from tests.engine.dsa.helpers import annahme, run


def test_fumble_confirmation_and_meisterentscheid() -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Crits und Patzer": „Bei einem gepatzten Angriff
    (bestätigte 20) … kommt es zu einem Missgeschick nach Meisterentscheid“ – no table in the
    text, so the action only confirms and says the Meister decides."""
    bad = seed_where(lambda g: 13 <= g.randint(1, 20) <= 19)
    r = run("fumble", {"wert": 12}, bad)
    assert r["confirmed"] and r["outcome"] == "patzer"
    assert "Meisterentscheid" in r["display"]["outcome"]
    assert "keine Patzertabelle" in r["display"]["outcome"]
    good = seed_where(lambda g: 2 <= g.randint(1, 20) <= 12)
    r = run("fumble", {"wert": 12, "kind": "abwehr"}, good)
    assert not r["confirmed"] and r["outcome"] == "ungluecklich" and r["missgeschick"] is None
    assert "Abwehr" in r["display"]["outcome"]


@pytest.mark.parametrize("wert", [-40, -1, 0, 1, 5, 12, 19, 20, 40])
def test_fumble_chance_brute_force(wert: int) -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Crits und Patzer": P(Patzer) by enumeration (a 1 on the
    confirmation never confirms, a 20 always does – Annahme)."""
    r = run("fumble", {"wert": wert})
    expected = chance([20], lambda f: f[0] == 20 or (f[0] != 1 and f[0] > wert))
    assert Fraction(r["chances"]["patzer"]) == expected
    assert Fraction(r["chances"]["ungluecklich"]) == 1 - expected


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_fumble_always_names_the_confirmation_assumption(seed: int) -> None:
    """The helper is the confirmation roll itself, whose rule the text leaves open (Abschnitt
    "Crits und Patzer" speaks only of „bestätigte 20“): every result names it, and only it."""
    r = run("fumble", {"wert": 12}, seed)
    assert assumed(r) == [annahme("probe.bestaetigung")]
    assert "Engine" not in str(r["display"])
