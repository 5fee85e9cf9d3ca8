"""DSA 4.1 Hausregeln: shots in the ``attack`` action – distance, Zielen, Kampfgetümmel
(``ranged.py``)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from harness.brute import expectation
from harness.support import assumed, draws, notes, roll_line, seed_where
from regeln.dsa import common
from tests.engine.dsa.helpers import annahme, attack, model_outcome, run


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
    assert r["damage_roll"]["total"] == d6 + 4 and r["sp"] is None
    assert names[which - 1] in r["display"]["outcome"]


def test_kampfgetuemmel_two_people_needs_no_roll() -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Fernkampfattacken ins Kampfgetümmel": with only one
    other person that person is hit, no die needed."""
    seed = seed_where(lambda g: 9 <= g.randint(1, 20) <= 12)
    _, d6 = draws(seed, [20, 6])
    r = attack({"kind": "fernkampf", "wert": 12, "getuemmel": 2}, seed)
    assert r["outcome"] == "andere_person" and r["other_roll"] is None
    assert r["other_person"]["name"] == "Person 1" and r["damage_roll"]["total"] == d6 + 4


def _other_tp(faces: tuple[int, ...]) -> int:
    """A shot's TP 1W6+4 on whoever it hits, before that person's RS (never below 0)."""
    return max(0, faces[-1] + 4)


def test_the_other_persons_expected_damage_is_the_weapons_tp_before_his_rs() -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Fernkampfattacken ins Kampfgetümmel": „Schlägt der
    Angriff nur durch diese Erschwernis fehl, trifft er eine andere zufällige Person im
    Kampfgetümmel“ – whose armour the text does not know. The aimed target's RS is the
    target's: the other person's expected damage is the weapon's TP before his own RS (by
    enumeration of both W20 and the 1W6), the target's expected SP keep the target's RS."""
    base = {"kind": "fernkampf", "wert": 15, "getuemmel": 5, "damage": "1W6+4", "ziel_rs": 3}
    r = attack(base)
    target, free = r["target"], r["target_without_melee"]

    def outcome(f: tuple[int, ...]) -> str:
        return model_outcome(f[0], f[1], target, free)

    other = expectation([20, 20, 6], lambda f: _other_tp(f) if outcome(f) == "andere_person" else 0)
    assert Fraction(r["expected_damage_other"]) == other == Fraction(15, 4)
    on_target = expectation(
        [20, 20, 6],
        lambda f: (
            max(0, (2 if outcome(f) == "kritisch" else 1) * (f[2] + 4) - 3)
            if outcome(f) in ("kritisch", "gluecklich", "gelungen")
            else 0
        ),
    )
    assert Fraction(r["expected_damage"]) == on_target
    expected = notes(r, "Erwarteter Schaden (ohne Abwehr)")
    assert expected[1] == "an einer anderen Person: 3,75 TP – davon geht noch ihr RS ab"


def test_a_stray_shot_gives_the_tp_and_leaves_the_rs_to_the_person_hit() -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Fernkampfattacken ins Kampfgetümmel": the shot hits
    a random other person. The rolled TP are his before his own RS (the aimed target's RS 3
    does not come off), the result says his RS still comes off, and „Schaden und Wunden“ is
    offered for him with the TP and no RS – the page leaves his RS to be entered
    (``other_target``). The target takes no SP (``sp`` is the target's)."""
    names = ["Arjena", "Rosarion", "Ork B", "Ork C"]
    base = {
        "kind": "fernkampf",
        "wert": 15,
        "getuemmel": 5,
        "getuemmel_namen": ", ".join(names),
        "ziel_rs": 3,
    }
    seed = seed_where(lambda g: 6 <= g.randint(1, 20) <= 15)
    _, which, d6 = draws(seed, [20, 4, 6])
    r = attack(base, seed)
    assert r["outcome"] == "andere_person" and r["other_person"]["name"] == names[which - 1]
    assert r["sp"] is None and r["damage_roll"]["total"] == d6 + 4
    line = roll_line(r, "Trefferpunkte (TP)")
    assert line["total"] == str(d6 + 4)
    assert not any("RS" in str(m) for m in line.get("modifiers", []))
    said = notes(r)
    assert f"Von den {d6 + 4} TP geht noch der RS von {names[which - 1]} ab." in said[-1]
    assert annahme("angriff.ruestungsschutz") not in assumed(r)
    assert r["follow_ups"] == [
        {
            "action": "damage",
            "title": "Schaden an der anderen Person",
            "params": {
                "damage": str(d6 + 4),
                "zusatz": 0,
                "kritisch": False,
                "gezielter_stich": False,
            },
            "other_target": True,
        }
    ]
    # his own RS entered in the damage helper is what comes off
    hurt = run("damage", {**r["follow_ups"][0]["params"], "rs": 2, "ko": 12, "lep": 30})
    assert hurt["sp"] == d6 + 4 - 2


def test_no_damage_helper_for_another_person_without_a_stray_hit() -> None:
    """A shot into the Kampfgetümmel that hits its target or misses offers no helper for
    another person: only a shot that hit one does (``other_target``)."""
    base = {"kind": "fernkampf", "wert": 15, "getuemmel": 5}
    hit = attack(base, seed_where(lambda g: 2 <= g.randint(1, 20) <= 5))
    assert hit["outcome"] == "gelungen"
    assert not any(f.get("other_target") for f in hit["follow_ups"])
    miss = attack(base, seed_where(lambda g: 16 <= g.randint(1, 20) <= 19))
    assert miss["outcome"] == "misslungen" and miss["follow_ups"] == []
