"""Ryssea initiative and the Tickleiste start (000_5fbfd0ad384a0921.txt L17–L45)."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest

from engine import api
from harness.brute import outcomes
from harness.support import assumed, draws
from regeln.ryssea.initiative import first_chances
from tests.engine.ryssea.helpers import DATA, TESTS


def fighter(name: str, ini: int, intuition: int = 3, modifier: int = 0, surprised: bool = False):
    return {
        "name": name,
        "ini": ini,
        "intuition": intuition,
        "modifier": modifier,
        "surprised": surprised,
    }


def run(fighters: list[dict[str, Any]], seed: int) -> dict[str, Any]:
    return TESTS.run("initiative", {"fighters": fighters}, seed)


def w6_rolls(seed: int, count: int) -> list[int]:
    """The W6 faces the engine rolls first for ``count`` fighters with this seed."""
    return draws(seed, [6] * count)


def test_initiative_is_ini_plus_w6_plus_mods_and_start_tick_is_negative() -> None:
    """L17/L21: "Initiative: INI+W6+Mods → Initiative → Startfeld vor der Position 0"."""
    result = run([fighter("Alrik", 12, modifier=2), fighter("Bruna", 9, modifier=-1)], seed=5)
    rolls = w6_rolls(5, 2)
    by_name = {o["name"]: o for o in result["order"]}
    assert by_name["Alrik"]["initiative"] == 12 + rolls[0] + 2
    assert by_name["Bruna"]["initiative"] == 9 + rolls[1] - 1
    for entry in result["order"]:
        assert entry["tick"] == -entry["initiative"]
        assert entry["roll"]["terms"][0]["dice"][0]["sides"] == 6


def test_surprised_fighter_loses_ten_ticks() -> None:
    """L43: "Zudem verliert ein Überraschter 10 Ticks … von seiner … Initiative abgezogen"."""
    plain = run([fighter("Alrik", 12)], seed=9)["order"][0]
    surprised = run([fighter("Alrik", 12, surprised=True)], seed=9)["order"][0]
    assert surprised["initiative"] == plain["initiative"] - 10
    assert surprised["tick"] == plain["tick"] + 10


def test_lower_tick_acts_first() -> None:
    """L17: the fighter stands Initiative fields before 0; the order follows the Zeitstrahl."""
    for seed in range(30):
        ticks = [
            o["tick"] for o in run([fighter(n, 8 + i) for i, n in enumerate("ABCD")], seed)["order"]
        ]
        assert ticks == sorted(ticks)


def test_same_tick_higher_intuition_first() -> None:
    """L25: "…beginnt derjenige mit der höheren Intuition"."""
    for seed in range(60):
        rolls = w6_rolls(seed, 2)
        if rolls[0] != rolls[1]:
            continue
        order = run([fighter("Leise", 10, intuition=2), fighter("Wach", 10, intuition=5)], seed)
        assert [o["name"] for o in order["order"]] == ["Wach", "Leise"]
        assert order["ties"] and not order["ties"][0]["rolloff"]
        return
    pytest.fail("no seed with equal W6 rolls found")


def test_full_tie_is_decided_by_w10_roll_off_repeated_until_resolved() -> None:
    """L25: same Intuition → "würfelt jeder Kämpfer einen W10 … höheren Ergebnis beginnt"."""
    found = 0
    for seed in range(400):
        result = run([fighter("A", 10), fighter("B", 10), fighter("C", 10)], seed)
        for tie in result["ties"]:
            rolloff = tie["rolloff"]
            assert rolloff, tie
            # within a tie, order follows the W10 results round by round (higher first)
            sequences = [rolloff[name] for name in tie["names"]]
            assert sequences == sorted(sequences, reverse=True)
            assert all(1 <= v <= 10 for seq in sequences for v in seq)
            found += any(len(seq) > 1 for seq in sequences)
    assert found, "no repeated roll-off seen in 400 seeds"


def test_same_seed_same_answer_and_json_round_trip() -> None:
    """Seeded rolls are reproducible (same seed, same JSON) and the result is plain JSON."""
    fighters = [fighter("A", 10), fighter("B", 11, surprised=True)]
    first = api.run("ryssea", "initiative", {"fighters": fighters}, 42)
    second = api.run("ryssea", "initiative", {"fighters": fighters}, 42)
    assert first == second
    assert json.loads(json.dumps(first)) == first


def test_every_die_is_in_the_display() -> None:
    """Each fighter's W6 appears in the explanation, with INI and modifiers by name."""
    result = run([fighter("A", 10, modifier=2), fighter("B", 11, surprised=True)], seed=3)
    rolls = next(s for s in result["display"]["sections"] if s["kind"] == "rolls")["items"]
    assert [r["label"] for r in rolls] == ["A: Initiativwurf", "B: Initiativwurf"]
    assert [m["label"] for m in rolls[0]["modifiers"]] == ["INI", "Modifikatoren"]
    assert [m["label"] for m in rolls[1]["modifiers"]] == ["INI", "Überrascht"]
    assert rolls[1]["modifiers"][1]["value"] == "−10"


def brute_first_chances(fighters: list[dict[str, Any]]) -> list[Fraction]:
    """Enumerate all W6 faces; a full tie (tick and Intuition) is a fair roll-off."""
    chances = [Fraction(0)] * len(fighters)
    for faces, weight in outcomes([6] * len(fighters)):
        keys = []
        for f, face in zip(fighters, faces, strict=True):
            initiative = f["ini"] + face + f["modifier"] - (10 if f["surprised"] else 0)
            keys.append((-initiative, -f["intuition"]))
        best = min(keys)
        winners = [i for i, k in enumerate(keys) if k == best]
        for i in winners:
            chances[i] += weight / len(winners)
    return chances


@pytest.mark.parametrize(
    "fighters",
    [
        [fighter("A", 10), fighter("B", 10)],
        [fighter("A", 10, 4), fighter("B", 12, 2), fighter("C", 11, 4)],
        [fighter("A", 0), fighter("B", 99), fighter("C", 0, surprised=True)],
        [fighter("A", 20, 1, 5, True), fighter("B", 15, 1), fighter("C", 15, 1), fighter("D", 14)],
        [fighter("A", 10, 3, -99), fighter("B", 10, 3, 99)],
        [fighter(n, 10) for n in "ABCDE"],
    ],
)
def test_first_chances_equal_brute_force(fighters: list[dict[str, Any]]) -> None:
    """The exact "Chance, als Erste(r) zu handeln" against enumeration of every W6 (L17–L25)."""
    exact = first_chances(fighters)
    assert exact == brute_first_chances(fighters)
    assert sum(exact) == 1


def test_duplicate_names_are_rejected_at_the_name_field() -> None:
    """Every marker on the Tickleiste needs its own name."""
    answer = api.run(
        "ryssea", "initiative", {"fighters": [fighter("Alrik", 1), fighter("alrik", 2)]}
    )
    assert not answer["ok"]
    assert answer["error"]["field"] == "fighters.1.name"
    assert "Kämpfer 2 – Name" in answer["error"]["message"]


@pytest.mark.parametrize(
    ("params", "field", "words"),
    [
        ({"fighters": []}, "fighters", "mindestens 1"),
        ({"fighters": [fighter("A", 100)]}, "fighters.0.ini", "außerhalb"),
        ({"fighters": [{"name": "A", "ini": "zwölf"}]}, "fighters.0.ini", "keine ganze Zahl"),
        ({"fighters": [{"name": " ", "ini": 3}]}, "fighters.0.name", "nicht leer"),
        (
            {"fighters": [{"name": "A", "ini": 10, "intuition": 3, "surprised": "vielleicht"}]},
            "fighters.0.surprised",
            "ja",
        ),
        ({"fighters": [fighter("A", 1)], "extra": 1}, "extra", "Unbekanntes Feld"),
    ],
)
def test_bad_input_names_the_field_in_german(
    params: dict[str, Any], field: str, words: str
) -> None:
    answer = api.run("ryssea", "initiative", params, 1)
    assert not answer["ok"]
    assert answer["error"]["field"] == field
    assert words in answer["error"]["message"]


def test_the_roll_off_repetition_is_a_documented_assumption() -> None:
    """The text does not say what happens when the W10s tie again (L25): data marks it."""
    spec = api.describe("ryssea", "initiative")
    assert any("erneut" in text for text in spec["assumptions"])


def test_turns_give_the_acting_order_at_combat_start() -> None:
    """L17, L21: the lowest start tick acts first; L25: on a shared start tick the higher
    Intuition, then the W10. ``turns`` carries that order for the fight bar."""
    fighters = [fighter("Alrik", 12, 4), fighter("Bruna", 20, 3), fighter("Cato", 12, 2)]
    for seed in range(30):
        result = run(fighters, seed)
        assert [t["name"] for t in result["turns"]] == [o["name"] for o in result["order"]]
        for turn, entry in zip(result["turns"], result["order"], strict=True):
            shared = [o for o in result["order"] if o["tick"] == entry["tick"]]
            label = f"Starttick {entry['tick']}".replace("-", "−")
            if len(shared) > 1:
                label += f", {shared.index(entry) + 1}. auf dem Feld"
            assert turn["label"] == label


def test_a_roll_off_names_its_assumption_only_when_it_happens() -> None:
    """L25: the W10 roll-off; that still equal W10s are rolled again is an Annahme, named only
    in a result with a roll-off."""
    text = " ".join(str(DATA.content["initiative"]["wiederholung_bei_gleichstand"]["text"]).split())
    apart = run([fighter("A", 40), fighter("B", 1)], 1)
    assert assumed(apart) == []
    same = [fighter("A", 10), fighter("B", 10)]
    tied = next(
        r for r in (run(same, s) for s in range(200)) if r["ties"] and r["ties"][0]["rolloff"]
    )
    assert text in assumed(tied)
