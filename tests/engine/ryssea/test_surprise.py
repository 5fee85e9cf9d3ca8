"""Ryssea Hinterhalt und Überraschung (000_5fbfd0ad384a0921.txt L41–L45).

„Eine Anführen- oder Heimlichkeit-Probe des Angreifers (nach Wahl des Angreifers) wird dabei mit
einer Sinnenschärfe-Probe des Verteidigers verglichen. Bei mehreren Personen wird für jeden
Angreifer eine einzelne Probe gewürfelt …, auch die Verteidiger würfeln einzeln. Das niedrigste
Ergebnis der Angreifer wird mit dem höchsten Ergebnis der Verteidiger verglichen. … Sollte der
Angreifer als Sieger aus diesem Vergleich hervorgehen, erhält er für die kommende Aktion einen
Taktischen Vorteil. Zudem verliert ein Überraschter 10 Ticks“ (L41). The engine side is
``regeln/ryssea/surprise.py``.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from engine import api
from harness.support import assumed
from regeln.ryssea import common, surprise
from tests.engine.ryssea.helpers import DATA, every_face, fr, kept_value, run, seek, talent_sides

TIE_TEXT = "Gleichstand zwischen dem niedrigsten Ergebnis"
THRESHOLD_TEXT = "Beim Überraschungsvergleich zählen nur die Ergebnisse"
ROUNDING_TEXT = "Ob die halbe Eigenschaftssumme"


def person(name: str, eig: tuple[int, int, int] = (10, 10, 10), taw: int = 5, **extra: Any):
    return {"name": name, "eig1": eig[0], "eig2": eig[1], "eig3": eig[2], "taw": taw, **extra}


def grundwert(row: dict[str, Any]) -> int:
    """Draft „Würfelsystem & Proben“: (EIG1 + EIG2 + EIG3) / 2 + TaW (Annahme: rounded down)."""
    return (row["eig1"] + row["eig2"] + row["eig3"]) // 2 + row["taw"]


def brute_surprise(
    attackers: list[dict[str, Any]], defenders: list[dict[str, Any]], ties_win: bool = False
) -> Fraction:
    """L41: every attacker and every defender rolls his own probe (Grundwert + talent die +
    modifier); the ambush succeeds when the lowest attacker result beats the highest defender
    result (a tie is no win for the attackers: Annahme). Enumerates every talent die."""
    people = [*attackers, *defenders]
    dice = [talent_sides(p.get("wuerfel", "normal"), p.get("wurf_art", "normal")) for p in people]
    combos, count = every_face([s for sides in dice for s in sides])
    wins = 0
    for faces in combos:
        totals = []
        at = 0
        for p, sides in zip(people, dice, strict=True):
            value = kept_value(
                p.get("wuerfel", "normal"), p.get("wurf_art", "normal"), faces[at : at + len(sides)]
            )
            totals.append(grundwert(p) + p.get("modifier", 0) + value)
            at += len(sides)
        lowest = min(totals[: len(attackers)])
        highest = max(totals[len(attackers) :])
        wins += lowest > highest or (ties_win and lowest == highest)
    return Fraction(wins, count)


CASES = [
    # one against one, equal values
    ([person("A")], [person("D")]),
    # several attackers: the weakest counts
    ([person("A"), person("B", taw=8, talent="anfuehren")], [person("D", taw=6)]),
    # several defenders: the most watchful counts
    (
        [person("A", taw=9)],
        [person("D"), person("E", (12, 12, 12), 2), person("F", taw=0, wurf_art="nachteil")],
    ),
    # two against two, other dice and modifiers
    (
        [person("A", wuerfel="begabt", modifier=2), person("B", wurf_art="vorteil")],
        [person("D", taw=3), person("E", wuerfel="unfaehig", modifier=-3)],
    ),
    ([person("A", wuerfel="genie")], [person("D", wuerfel="genie", wurf_art="vorteil")]),
    # hopeless and certain
    ([person("A", taw=0, modifier=-30)], [person("D", taw=30)]),
    ([person("A", taw=30, modifier=30)], [person("D", taw=0)]),
]


@pytest.mark.parametrize(("attackers", "defenders"), CASES)
def test_surprise_chance_brute_force(
    attackers: list[dict[str, Any]], defenders: list[dict[str, Any]]
) -> None:
    """000_5fbfd0ad384a0921.txt L41, L43: the exact chance that the ambush succeeds, against
    enumeration of every talent die of every attacker and defender."""
    result = run("surprise", {"angreifer": attackers, "verteidiger": defenders})
    assert fr(result["chances"]["success"]) == brute_surprise(attackers, defenders)


@pytest.mark.parametrize(("attackers", "defenders"), CASES[:4])
def test_chance_if_the_data_gave_ties_to_the_attackers(
    attackers: list[dict[str, Any]], defenders: list[dict[str, Any]]
) -> None:
    """The tie rule is an Annahme in the data (possible values verteidiger, angreifer): the
    other choice counts a tie as the attackers' win, again exact against enumeration."""
    specs = [
        [
            common.probe_input(
                row
                | {
                    "wuerfel": row.get("wuerfel", "normal"),
                    "wurf_art": row.get("wurf_art", "normal"),
                },
                modifiers=(("Modifikator", row.get("modifier", 0)),),
            )
            for row in side
        ]
        for side in (attackers, defenders)
    ]
    got = surprise.success_chance(specs[0], specs[1], ties_to_attackers=True)
    assert got == brute_surprise(attackers, defenders, ties_win=True)


def test_certain_outcomes() -> None:
    """L41: with a lowest attacker result always above every defender result the ambush always
    succeeds, and never when always below."""
    sure = run(
        "surprise",
        {"angreifer": [person("A", taw=30, modifier=30)], "verteidiger": [person("D", taw=0)]},
    )
    assert fr(sure["chances"]["success"]) == 1 and sure["success"]
    never = run(
        "surprise",
        {"angreifer": [person("A", taw=0, modifier=-30)], "verteidiger": [person("D", taw=30)]},
    )
    assert fr(never["chances"]["success"]) == 0 and not never["success"]


@pytest.mark.parametrize("seed", range(40))
def test_seeded_comparison_lowest_attacker_against_highest_defender(seed: int) -> None:
    """L41: each probe is Grundwert + talent die; every attacker rolls, then every defender
    (one W10 each, in the order given); the lowest attacker result against the highest defender
    result decides; the winners get the Taktischer Vorteil, every defender loses 10 ticks."""
    attackers = [person("A"), person("B", (12, 11, 10), 4, modifier=3)]
    defenders = [person("D", taw=6), person("E", (9, 9, 9), 7)]
    result = run("surprise", {"angreifer": attackers, "verteidiger": defenders}, seed)
    rng = random.Random(seed)
    faces = [rng.randint(1, 10) for _ in range(4)]
    totals = [
        grundwert(p) + p.get("modifier", 0) + f
        for p, f in zip([*attackers, *defenders], faces, strict=True)
    ]
    assert [a["total"] for a in result["attackers"]] == totals[:2]
    assert [d["total"] for d in result["defenders"]] == totals[2:]
    low, high = min(totals[:2]), max(totals[2:])
    assert result["lowest_attacker"]["total"] == low
    assert result["highest_defender"]["total"] == high
    assert result["success"] == (low > high)
    assert result["tie"] == (low == high)
    if result["success"]:
        assert result["surprised"] == ["D", "E"]
        assert result["tactical_advantage"] == ["A", "B"]
    else:
        assert result["surprised"] == [] and result["tactical_advantage"] == []


def find(
    attackers: list[dict[str, Any]], defenders: list[dict[str, Any]], wanted: Any
) -> dict[str, Any]:
    return seek("surprise", {"angreifer": attackers, "verteidiger": defenders}, wanted)


def test_a_tie_goes_to_the_defenders_and_names_the_assumption() -> None:
    """L41 asks the attackers to come out „als Sieger“ and says nothing about a tie: the data's
    Annahme (ueberraschung.gleichstand) gives it to the defenders, like L247 for the Aktive
    Abwehr, and a result with a tie names it."""
    assert DATA.raw("ueberraschung.gleichstand") == "verteidiger"
    same = [person("A")], [person("D")]
    tie = find(*same, lambda r: r["tie"])
    assert not tie["success"] and tie["surprised"] == [] and tie["follow_ups"] == []
    assert "Gleichstand" in tie["display"]["outcome"]
    named = assumed(tie)
    assert any(TIE_TEXT in n for n in named)
    no_tie = find(*same, lambda r: not r["tie"])
    assert not any(TIE_TEXT in n for n in assumed(no_tie))


def test_crit_and_patzer_have_no_effect_and_are_named_only_when_a_die_reaches_them() -> None:
    """Kritischer Erfolg (9/10) and Patzer (1/2) come from the draft „Würfelsystem & Proben“;
    L41 gives them no effect in this comparison (Annahme ueberraschung.kritisch_patzer): no
    Bestätigungswurf, named only when a die showed such a value. An even Eigenschaften sum
    needs no rounding, so that assumption is not named either."""
    pair = [person("A")], [person("D")]
    edge = find(*pair, lambda r: r["attackers"][0]["probe"]["die_value"] in (1, 2, 9, 10))
    assert edge["attackers"][0]["probe"]["confirmation"] is None
    assert not edge["attackers"][0]["probe"]["critical"]
    assert any(THRESHOLD_TEXT in n for n in assumed(edge))
    plain = find(
        *pair,
        lambda r: (
            not r["tie"]
            and all(
                p["probe"]["die_value"] in range(3, 9) for p in (*r["attackers"], *r["defenders"])
            )
        ),
    )
    assert assumed(plain) == []
    odd = run("surprise", {"angreifer": [person("A", (10, 10, 11))], "verteidiger": [person("D")]})
    assert any(ROUNDING_TEXT in n for n in assumed(odd))


def test_success_carries_the_outcome_on() -> None:
    """L41, L45: on success every attacker gets a Taktischer Vorteil for the coming action (L360:
    +3 per advantage; the attack field counts advantages) and every defender is surprised, with
    the 10 ticks the initiative subtracts (L43, data initiative.ueberraschung_ticks)."""
    attackers = [person("A", taw=20), person("B", taw=20)]
    defenders = [person("D", taw=0), person("E", taw=0)]
    result = run("surprise", {"angreifer": attackers, "verteidiger": defenders})
    assert result["success"]
    assert result["surprised"] == ["D", "E"]
    assert result["tactical_advantage"] == ["A", "B"]
    assert result["tick_loss"] == DATA.integer("initiative.ueberraschung_ticks") == 10
    assert result["follow_ups"] == [
        {
            "action": "attack",
            "title": "Angriff mit Taktischem Vorteil",
            "params": {"taktischer_vorteil": 1},
        }
    ]
    # the follow-up's params are valid for the attack, and +3 per advantage (L360)
    attack = run("attack", result["follow_ups"][0]["params"])
    assert {"name": "Taktischer Vorteil × 1", "value": 3} in attack["attack"]["modifiers"]
    assert "verliert 10 Ticks" in result["display"]["outcome"]


@pytest.mark.parametrize(
    ("params", "field", "words"),
    [
        ({"angreifer": [], "verteidiger": [person("D")]}, "angreifer", "mindestens 1 Angreifer"),
        ({"angreifer": [person("A")], "verteidiger": []}, "verteidiger", "mindestens 1"),
        ({"verteidiger": [person("D")]}, "angreifer", "fehlt"),
        (
            {"angreifer": [person("A"), person("a")], "verteidiger": [person("D")]},
            "angreifer.1.name",
            "nur einmal",
        ),
        (
            {"angreifer": [person("A")], "verteidiger": [person("D"), person("D")]},
            "verteidiger.1.name",
            "nur einmal",
        ),
        (
            {"angreifer": [person("A")], "verteidiger": [person("D"), person("A")]},
            "verteidiger.1.name",
            "steht schon bei den Angreifern",
        ),
        (
            {"angreifer": [person("A", talent="klettern")], "verteidiger": [person("D")]},
            "angreifer.0.talent",
            "keine der Möglichkeiten",
        ),
    ],
)
def test_german_errors(params: dict[str, Any], field: str, words: str) -> None:
    """At least one attacker and one defender (L41 compares the two sides), every name once
    (the result names who is surprised), the probe of an attacker is Anführen or Heimlichkeit."""
    answer = api.run("ryssea", "surprise", params, 1)
    assert not answer["ok"]
    err = answer["error"]
    assert err["field"] == field
    assert words in err["message"]


def test_describe_lists_the_assumptions() -> None:
    doc = api.describe("ryssea", "surprise")
    assert doc["title"] == "Überraschung (Hinterhalt)"
    assert any(TIE_TEXT in a for a in doc["assumptions"])
    assert any(THRESHOLD_TEXT in a for a in doc["assumptions"])
