"""DSA 4.1 Hausregeln: shots in the ``attack`` action – distance, Zielen, Kampfgetümmel
(``ranged.py``)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.systems.dsa import common
from tests.engine.dsa.helpers import attack
from tests.engine.support import draws, seed_where


@pytest.mark.parametrize(
    ("key", "modifier"),
    [("sehr_nah", -2), ("nah", 0), ("mittel", 4), ("weit", 8), ("extrem_weit", 12)],
)
def test_distance_classes_sign(key: str, modifier: int) -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Besonderheiten von Fernkampfwaffen": „sehr nah (-2), nah
    (+-0), mittel (+4), weit (+8) oder extrem weit (+12)“ – + is an Erschwernis, so sehr nah
    makes the shot easier."""
    r = attack({"kind": "fernkampf", "wert": 12, "distance": key})
    assert r["target"] == 12 - modifier


@pytest.mark.parametrize(("actions", "bonus"), [(0, 0), (1, 0), (2, 1), (5, 2), (8, 4), (20, 4)])
def test_zielen(actions: int, bonus: int) -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Mögliche Sonstige Aktionen", Zielen: „Sammelt pro 2
    Aktionen Zielen je 1 Erleichterung“, „Kann maximal 4 Erleichterung ansammeln“."""
    assert attack({"kind": "fernkampf", "wert": 10, "zielen": actions})["target"] == 10 + bonus


def test_kampfgetuemmel_worked_example() -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Fernkampfattacken ins Kampfgetümmel", Beispiel: Zoe
    (Fernkampfwert 15), 5 Personen → +10; „Bei 1-5 trifft Zoe Ork A“, „Bei 6 bis 15 trifft Zoe
    zufällig einen anderen Kampfbeteiligten“, „Bei 16+ trifft Zoe nicht“."""
    names = ["Arjena", "Rosarion", "Ork B", "Ork C"]
    base = {"kind": "fernkampf", "wert": 15, "getuemmel": 5, "getuemmel_namen": ", ".join(names)}
    for first in range(2, 20):
        outcome = common.probe_outcome(first, None, 5, 15)
        if first <= 5:
            assert outcome == "gelungen"
        elif first <= 15:
            assert outcome == "andere_person"
        else:
            assert outcome == "misslungen"
    r = attack(base)
    assert r["target"] == 5 and r["target_without_melee"] == 15
    assert {"name": "Kampfgetümmel (5 Personen)", "value": 10} in r["modifiers"]
    c = {k: Fraction(v) for k, v in r["chances"].items()}
    assert c["trifft_ziel"] == Fraction(5, 20)
    assert c["andere_person"] == Fraction(10, 20)
    assert c["misslungen"] + c["ungluecklich"] + c["patzer"] == Fraction(5, 20)
    # A roll of 6–15: the other person is rolled with 1W4 among the four others.
    seed = seed_where(lambda g: 6 <= g.randint(1, 20) <= 15)
    _, which, d6 = draws(seed, [20, 4, 6])
    r = attack(base, seed)
    assert r["outcome"] == "andere_person"
    assert r["other_person"] == {"index": which, "name": names[which - 1]}
    assert r["sp"] == d6 + 4
    assert names[which - 1] in r["display"]["outcome"]


def test_kampfgetuemmel_two_people_needs_no_roll() -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Fernkampfattacken ins Kampfgetümmel": with only one
    other person that person is hit, no die needed."""
    seed = seed_where(lambda g: 9 <= g.randint(1, 20) <= 12)
    _, d6 = draws(seed, [20, 6])
    r = attack({"kind": "fernkampf", "wert": 12, "getuemmel": 2}, seed)
    assert r["outcome"] == "andere_person" and r["other_roll"] is None
    assert r["other_person"]["name"] == "Person 1" and r["sp"] == d6 + 4
