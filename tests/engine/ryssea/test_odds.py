"""Ryssea: seeing the odds (issue 44) – the distributions as charts, „Was wäre wenn“ and
„Vergleichen“, each against an enumeration of every die written from the rule text
(000_5fbfd0ad384a0921.txt, cited by line; the probe's dice from the draft chapter, see
``helpers.py``)."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest

from engine import odds
from engine.formatting import parse_fraction
from harness.brute import outcomes
from tests.engine.ryssea.helpers import (
    BASE,
    PROBE_SAMPLE,
    crit_patzer,
    erfolge,
    every_face,
    fr,
    run,
    with_sample,
)
from tests.engine.ryssea.test_attack import brute_attack


def distribution(result: dict[str, Any], prefix: str) -> dict[str, Any]:
    """The distribution section whose caption begins with ``prefix``."""
    return next(
        s
        for s in result["display"]["sections"]
        if s["kind"] == "distribution" and s["caption"].startswith(prefix)
    )


def numeric(section: dict[str, Any]) -> dict[int, Fraction]:
    """A numeric distribution's bars as value → exact chance; they must sum to 1."""
    assert section["numeric"] and section["before"]
    bars = {bar["value"]: parse_fraction(bar["fraction"]) for bar in section["bars"]}
    assert sum(bars.values()) == 1
    return bars


def before_sections(result: dict[str, Any]) -> list[dict[str, Any]]:
    return [s for s in result["display"]["sections"] if s.get("before")]


ATTACKS = [
    {},
    {"meisterschafts_manoever": 2, "streiftreffer_folge": "schaden"},
    {"meisterschafts_manoever": 1, "manoever_schaden": "halb", "betaeubungsschlag": True},
    {"erfolge_rest": "stoerender_angriff", "wurf_art": "vorteil"},
]


@pytest.mark.parametrize("extra", ATTACKS)
def test_attack_damage_per_attack_equals_enumeration(extra: dict[str, Any]) -> None:
    """000_5fbfd0ad384a0921.txt L186: a hit „richtet den bei der Waffe aufgeführten Schaden an“,
    a miss none; L73–L82 (Streiftreffer −2 per manoeuvre, halved damage), L190–L194
    (Betäubungsschlag, Wuchtangriff +1 per Erfolg): the damage per attack, a miss as 0, is
    the enumeration of every die; its mean is the expected damage the attack reports."""
    params = {**BASE, "taw": 2, "damage": "1W3+1", **extra}
    result = run("attack", params)
    counts: dict[int, int] = {}
    expected = brute_attack(params, 17, [3], 1, damages=counts)
    whole = sum(counts.values())
    section = distribution(result, "Schaden am Ziel je Angriff")
    assert numeric(section) == {d: Fraction(n, whole) for d, n in sorted(counts.items()) if n}
    assert section["mean"]["label"] == "Erwarteter Schaden je Angriff"
    assert parse_fraction(section["mean"]["fraction"]) == expected["expected_damage"]
    assert fr(result["chances"]["expected_damage"]) == expected["expected_damage"]


def test_ranged_damage_per_attack_counts_the_cover_as_no_damage() -> None:
    """000_5fbfd0ad384a0921.txt L210 (1 Erfolg per started Grundreichweite), L220 (Deckung: the
    probe succeeds, the Erfolge fall short – the attack hits the cover, not the target)."""
    params = {
        **BASE,
        "taw": 3,
        "angriffsart": "fernkampf",
        "grundreichweite": 20,
        "distance": 21,
        "deckung": "leicht",
        "damage": "1W2",
    }
    counts: dict[int, int] = {}
    brute_attack(params, 18, [2], 0, 1, 1, damages=counts)
    whole = sum(counts.values())
    bars = numeric(distribution(run("attack", params), "Schaden am Ziel je Angriff"))
    assert bars == {d: Fraction(n, whole) for d, n in sorted(counts.items()) if n}


def brute_hit_and_damage(verteidigung: int) -> tuple[Fraction, Fraction]:
    """L186 (reach or exceed the Verteidigung), L194 (Wuchtangriff): hit chance and expected
    damage of the sample attack with TaW 1 and 1W3+1 damage, by enumeration."""
    params = {**BASE, "taw": 1, "damage": "1W3+1", "verteidigung": verteidigung}
    expected = brute_attack(params, 16, [3], 1)
    return expected["hit"], expected["expected_damage"]


def test_what_if_across_the_verteidigung_equals_enumeration() -> None:
    """000_5fbfd0ad384a0921.txt L186: „Die Schwierigkeit ist hierbei die Verteidigung des
    Kontrahenten“ – „Was wäre wenn“ goes across it; each row's hit chance and expected damage
    equal the enumeration for that Verteidigung."""
    params = with_sample("attack", {**BASE, "taw": 1, "damage": "1W3+1", "verteidigung": 22})
    answer = odds.what_if("ryssea", "attack", params)
    assert answer["field"] == "verteidigung"
    labels = [c["label"] for c in answer["columns"]]
    hit = labels.index("Ziel getroffen (auch Streiftreffer)")
    mean = labels.index("Erwarteter Schaden je Angriff")
    assert len(answer["rows"]) >= 10
    for row in answer["rows"]:
        chance, damage = brute_hit_and_damage(row["value"])
        assert parse_fraction(row["cells"][hit]["fraction"]) == chance, row["value"]
        assert parse_fraction(row["cells"][mean]["fraction"]) == damage, row["value"]


@pytest.mark.parametrize("field", ["erfolge_rest", "betaeubungsschlag", "angriffsart"])
def test_compare_rows_equal_the_attack_run_with_each_choice(field: str) -> None:
    """L190–L194 (the free manoeuvres), L200 (Schildstoß: 1W6+1, no Meisterschafts-Manöver),
    L210: each row of „Vergleichen“ is the attack run with that choice."""
    params = with_sample("attack", {**BASE, "taw": 3})
    answer = odds.compare("ryssea", "attack", params, field)
    columns = answer["columns"] + [{"label": s["label"]} for s in answer["same"]]
    assert answer["rows"]
    for row in answer["rows"]:
        result = run("attack", {**params, field: row["value"]})
        shown = {
            **{
                c["label"]: parse_fraction(cell["fraction"])
                for c, cell in zip(answer["columns"], row["cells"], strict=True)
            },
            **{s["label"]: parse_fraction(s["fraction"]) for s in answer["same"]},
        }
        assert len(shown) == len(columns)
        assert shown["Ziel getroffen (auch Streiftreffer)"] == fr(result["chances"]["hit"])
        assert shown["Erwarteter Schaden je Angriff"] == fr(result["chances"]["expected_damage"])
        assert shown["Patzer"] == fr(result["chances"]["patzer"])


def test_compare_says_what_the_rules_forbid() -> None:
    """000_5fbfd0ad384a0921.txt L210: a ranged attack reaches at most six times its
    Grundreichweite – at 500 m with 20 m the Fernkampfangriff is refused, with the reason, not
    shown; the Nahkampfangriff and the Schildstoß are compared."""
    params = with_sample("attack", {**BASE, "grundreichweite": 20, "distance": 500})
    answer = odds.compare("ryssea", "attack", params, "angriffsart")
    assert [r["value"] for r in answer["rows"]] == ["nahkampf", "schildstoss"]
    [refused] = answer["refused"]
    assert refused["value"] == "fernkampf" and refused["label"] == "Fernkampfangriff"
    assert refused["message"].startswith("Entfernung (m): 500 m liegt außerhalb der Reichweite")


@pytest.mark.parametrize("taw", [0, 1, 4])
def test_probe_erfolge_equal_enumeration(taw: int) -> None:
    """Draft „Würfelsystem & Proben“: TaW × W6, every 5 or 6 one Erfolg – the bars of the
    Erfolge are the enumeration of the W6, their mean the expected Erfolge."""
    result = run("probe", {"taw": taw})
    tally: dict[int, int] = {}
    combos, count = every_face([6] * taw)
    for faces in combos:
        tally[erfolge(faces)] = tally.get(erfolge(faces), 0) + 1
    section = distribution(result, f"Erfolge aus {taw} W6")
    assert numeric(section) == {k: Fraction(n, count) for k, n in sorted(tally.items())}
    assert parse_fraction(section["mean"]["fraction"]) == fr(result["chances"]["expected_erfolge"])


def test_probe_what_if_across_the_schwierigkeit() -> None:
    """L186: reach or exceed the Schwierigkeit; „Was wäre wenn“ across it, ≥ 10 values, each
    the enumeration of the talent die and the Bestätigungswurf (9/10 → 19, 1/2 → 3)."""
    answer = odds.what_if("ryssea", "probe", {**PROBE_SAMPLE, "schwierigkeit": 25})
    labels = [c["label"] for c in answer["columns"]]
    assert len(answer["rows"]) >= 10
    for row in answer["rows"]:
        goal = row["value"]
        hits = 0
        combos, count = every_face([10, 10])
        for value, confirm in combos:
            crit, fumble = crit_patzer(value, confirm)
            hits += crit or (not fumble and 20 + value >= goal)
        cell = row["cells"][labels.index("Probe gelingt")]
        assert parse_fraction(cell["fraction"]) == Fraction(hits, count), goal


def test_dodge_jump_remaining_damage_equals_enumeration() -> None:
    """000_5fbfd0ad384a0921.txt L253: a successful Ausweichsprung (Akrobatik against 15) lowers
    the damage by 1 and by 1 more per Erfolg."""
    result = run("dodge_jump", {**BASE, "taw": 2, "damage": 3, "modifier": -8})
    tally: dict[int, int] = {}
    combos, count = every_face([10, 10, 6, 6])
    for faces in combos:
        crit, fumble = crit_patzer(faces[0], faces[1])
        ok = crit or (not fumble and 17 - 8 + faces[0] >= 15)
        left = 3 - min(3, 1 + erfolge(faces[2:])) if ok else 3
        tally[left] = tally.get(left, 0) + 1
    section = distribution(result, "Verbleibender Schaden")
    assert numeric(section) == {d: Fraction(n, count) for d, n in sorted(tally.items())}
    assert parse_fraction(section["mean"]["fraction"]) == fr(result["chances"]["expected_damage"])


def test_teamwork_total_is_its_distribution() -> None:
    """000_5fbfd0ad384a0921.txt L311–L313: the helpers' bonuses add up; the bars are the total's
    distribution (checked against enumeration in test_reactions), its mean the expected total,
    and „Was wäre wenn“ goes across the opponent's Verteidigung."""
    params = {"verteidigung": 25, "helfer": [{"name": "Bruna", **PROBE_SAMPLE, "taw": 2}]}
    result = run("teamwork", params)
    section = distribution(result, "Gesamt-Modifikator")
    assert numeric(section) == {int(k): fr(v) for k, v in result["chances"]["total"].items()}
    assert parse_fraction(section["mean"]["fraction"]) == fr(result["chances"]["expected_total"])
    answer = odds.what_if("ryssea", "teamwork", params)
    assert answer["field"] == "verteidigung" and len(answer["rows"]) >= 10


def fighter(name: str, ini: int, intuition: int = 3, surprised: bool = False) -> dict[str, Any]:
    return {"name": name, "ini": ini, "intuition": intuition, "modifier": 0, "surprised": surprised}


@pytest.mark.parametrize(
    "fighters",
    [
        [fighter("A", 10), fighter("B", 10), fighter("C", 9, 4)],
        [fighter("A", 12, 4), fighter("B", 10), fighter("C", 10), fighter("D", 20, 1, True)],
    ],
)
def test_places_at_combat_start_equal_enumeration(fighters: list[dict[str, Any]]) -> None:
    """000_5fbfd0ad384a0921.txt L17–L25: INI + W6 (− 10 ticks surprised, L43), the higher first;
    the same tick: the higher Intuition; still equal: a W10 roll-off (fair: every order of the
    tied equally likely). Each fighter's places are the enumeration of every W6."""
    result = run("initiative", {"fighters": fighters})
    n = len(fighters)
    places = [[Fraction(0)] * n for _ in fighters]
    for faces, weight in outcomes([6] * n):
        keys = [
            (f["ini"] + face - (10 if f["surprised"] else 0), f["intuition"])
            for f, face in zip(fighters, faces, strict=True)
        ]
        orders = [o for o in itertools.permutations(range(n)) if _sorted(o, keys)]
        for order in orders:
            for place, index in enumerate(order):
                places[index][place] += weight / len(orders)
    for f, expected in zip(fighters, places, strict=True):
        section = distribution(result, f"Platz von {f['name']}")
        assert not section["numeric"] and section["before"]
        got = [parse_fraction(b["fraction"]) for b in section["bars"]]
        assert [b["label"] for b in section["bars"]] == [f"Platz {k}" for k in range(1, n + 1)]
        assert got == expected and sum(got) == 1


def _sorted(order: tuple[int, ...], keys: list[tuple[int, int]]) -> bool:
    return all(keys[a] >= keys[b] for a, b in itertools.pairwise(order))


BEFORE_CASES = [
    ("attack", {"aktive_abwehr": True}),
    ("attack", {"angriffsart": "fernkampf", "distance": 30, "deckung": "leicht"}),
    ("probe", {}),
    ("dodge_jump", {}),
    ("interruption", {}),
    ("teamwork", {}),
    ("surprise", {}),
    ("initiative", {"fighters": [fighter("A", 10), fighter("B", 10)]}),
    ("fumble", {"ursache": "kampftalent"}),
]


@pytest.mark.parametrize(("action", "params"), BEFORE_CASES)
def test_odds_before_the_roll_do_not_depend_on_the_dice(
    action: str, params: dict[str, Any]
) -> None:
    """What is marked as the odds before the roll is the same for every Wurfnummer (only those
    sections are read by „Was wäre wenn“ and „Vergleichen“)."""
    first = before_sections(run(action, params, 1))
    assert first
    for seed in (2, 3, 17, 99):
        assert before_sections(run(action, params, seed)) == first
