"""Seeing the odds (issue 44) for the declared kinds: the YAML system of
``tests/fixtures/klingenspiel`` (its text ``quelle.txt``, cited by line) gets distributions,
„Was wäre wenn“ and „Vergleichen“ without a line of Python – each checked against an
enumeration of all faces (harness/brute.py)."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest

from engine import api, odds
from engine.data_files import DataError
from engine.formatting import parse_fraction
from engine.registry import System
from harness import brute
from tests.engine.test_declarative import (
    NAME,
    attack_by_enumeration,
    changed,
    declaration,
    declare,
    klingen,
    run,
)

__all__ = ["klingen"]  # the fixture, used by name


def distribution(result: dict[str, Any], prefix: str) -> dict[str, Any]:
    section: dict[str, Any] = next(
        s
        for s in result["display"]["sections"]
        if s["kind"] == "distribution" and s["caption"].startswith(prefix)
    )
    assert section["before"]
    return section


def numeric(section: dict[str, Any]) -> dict[int, Fraction]:
    assert section["numeric"]
    bars = {b["value"]: parse_fraction(b["fraction"]) for b in section["bars"]}
    assert sum(bars.values()) == 1
    return bars


def test_a_group_gets_charts_what_if_and_compare_without_code(klingen: System) -> None:
    """The fixture declares ``was_waere_wenn: armor`` and ``vergleichen: [kritisch]`` for its
    damage; its check goes across its ``ziel`` by itself – describe names them for the page."""
    assert api.describe(NAME, "angriff")["what_if"] == "verteidigung"
    assert "compare" not in api.describe(NAME, "angriff")
    damage = api.describe(NAME, "schaden")
    assert (damage["what_if"], damage["compare"]) == ("armor", ["kritisch"])
    assert "what_if" not in api.describe(NAME, "patzer")


@pytest.mark.parametrize(("strength", "armour", "critical"), [(2, 1, False), (1, 9, True)])
def test_damage_distribution_equals_enumeration(
    klingen: System, strength: int, armour: int, critical: bool
) -> None:
    """quelle.txt L12: Waffenschaden + Stärke − Rüstung, at least 0; a critical doubles
    Waffenschaden and Stärke. The bars are the enumeration of 2W6, the mean the expected
    damage."""
    params = {"waffe": "2W6", "staerke": strength, "armor": armour, "kritisch": critical}
    result = run("schaden", params)

    def hurt(faces: tuple[int, ...]) -> int:
        return max(0, (sum(faces) + strength) * (2 if critical else 1) - armour)

    expected: dict[int, Fraction] = {}
    for faces, weight in brute.outcomes([6, 6]):
        expected[hurt(faces)] = expected.get(hurt(faces), Fraction(0)) + weight
    section = distribution(result, "Schaden")
    assert numeric(section) == dict(sorted(expected.items()))
    assert parse_fraction(section["mean"]["fraction"]) == brute.expectation([6, 6], hurt)
    assert section["mean"]["label"] == "Erwarteter Schaden"


def test_check_margin_equals_enumeration(klingen: System) -> None:
    """quelle.txt L8: 2W6 + Angriffswert + Modifikator against the Verteidigung – the bars are
    the enumeration of total − Verteidigung (from 0 on a hit, L8 „Erreicht oder übertrifft“)."""
    result = run("angriff", {"angriffswert": 4, "modifier": 1, "verteidigung": 11})
    expected: dict[int, Fraction] = {}
    for faces, weight in brute.outcomes([6, 6]):
        margin = sum(faces) + 5 - 11
        expected[margin] = expected.get(margin, Fraction(0)) + weight
    bars = numeric(distribution(result, "Abstand zu Verteidigung"))
    assert bars == dict(sorted(expected.items()))
    assert sum(p for m, p in bars.items() if m >= 0) == Fraction(result["chances"]["hit"])


def test_table_rows_as_bars_by_their_range(klingen: System) -> None:
    """quelle.txt L16–L20: 1W6 on the Patzertabelle; each row's bar is labelled by its range
    and is the enumeration of the die."""
    section = distribution(run("patzer", {}), "Zeilen der Tabelle")
    assert not section["numeric"]
    rows = declaration()["tabellen"]["patzertabelle"]["zeilen"]
    assert [b["label"] for b in section["bars"]] == ["1–2", "3–4", "5", "6"]
    for bar, row in zip(section["bars"], rows, strict=True):
        chance = brute.chance([6], lambda f, r=row: r["von"] <= f[0] <= r["bis"])
        assert parse_fraction(bar["fraction"]) == chance


def places_by_enumeration(values: list[int], together: bool) -> list[list[Fraction]]:
    """quelle.txt L4–L5: 1W6 + Gewandtheit, higher first; equal: the higher Gewandtheit;
    still equal: a roll-off (every order of the tied equally likely) – or, declared so, they
    act together at the first of their places."""
    n = len(values)
    places = [[Fraction(0)] * n for _ in values]
    for faces, weight in brute.outcomes([6] * n):
        keys = [(f + v, v) for f, v in zip(faces, values, strict=True)]
        if together:
            for me in range(n):
                places[me][sum(1 for k in keys if k > keys[me])] += weight
            continue
        orders = [
            o
            for o in itertools.permutations(range(n))
            if all(keys[a] >= keys[b] for a, b in itertools.pairwise(o))
        ]
        for order in orders:
            for place, me in enumerate(order):
                places[me][place] += weight / len(orders)
    return places


def bars_of(result: dict[str, Any], name: str) -> list[Fraction]:
    section = distribution(result, f"Platz von {name}")
    assert not section["numeric"]
    return [parse_fraction(b["fraction"]) for b in section["bars"]]


@pytest.mark.parametrize("values", [[3, 3, 1], [2, 2, 2], [0, 5]])
def test_initiative_places_equal_enumeration(klingen: System, values: list[int]) -> None:
    fighters = [{"name": f"K{i}", "gewandtheit": v} for i, v in enumerate(values)]
    result = run("initiative", {"fighters": fighters})
    expected = places_by_enumeration(values, together=False)
    for i, chances in enumerate(expected):
        assert bars_of(result, f"K{i}") == chances
        assert sum(chances) == 1


def test_initiative_places_acting_together() -> None:
    """Declared ``gleichzeitig``: those still equal share the first of their places."""
    system = declare(changed(initiative={"gleichstand": ["gleichzeitig"]}), "places_test")
    api.SYSTEMS["places_test"] = system
    try:
        fighters = [{"name": n, "gewandtheit": 2} for n in "ABC"]
        result = api.run("places_test", "initiative", {"fighters": fighters}, 1)["result"]
        expected = places_by_enumeration([2, 2, 2], together=True)
        for name, chances in zip("ABC", expected, strict=True):
            assert bars_of(result, name) == chances
    finally:
        del api.SYSTEMS["places_test"]


def test_what_if_across_the_ziel_equals_enumeration(klingen: System) -> None:
    """quelle.txt L8–L9: „Was wäre wenn“ goes across the Verteidigung (the check's ``ziel``,
    no YAML needed); each row is the enumeration of 2W6 for that Verteidigung."""
    answer = odds.what_if(NAME, "angriff", {"angriffswert": 4, "verteidigung": 11})
    labels = [c["label"] for c in answer["columns"]]
    assert len(answer["rows"]) >= 10
    for row in answer["rows"]:
        expected = attack_by_enumeration(4, row["value"])
        cells = dict(zip(labels, row["cells"], strict=True))
        for label, key in (("Treffer", "hit"), ("Kritischer Treffer", "critical")):
            shown = cells[label]["fraction"] if label in cells else None
            if shown is None:  # the same in every row
                shown = next(s["fraction"] for s in answer["same"] if s["label"] == label)
            assert parse_fraction(shown) == expected[key], (row["value"], label)
        margin = sum(w * (sum(f) + 4 - row["value"]) for f, w in brute.outcomes([6, 6]))
        assert parse_fraction(cells["Mittlerer Abstand"]["fraction"]) == margin


def test_compare_a_critical_with_a_plain_hit(klingen: System) -> None:
    """quelle.txt L12: „Ein kritischer Treffer verdoppelt Waffenschaden und Stärke“ – the
    declared ``vergleichen: [kritisch]`` puts both side by side, each row the damage helper
    run with that choice."""
    params = {"waffe": "1W6", "staerke": 2, "armor": 1}
    answer = odds.compare(NAME, "schaden", params)
    assert answer["field"] == "kritisch"
    labels = [c["label"] for c in answer["columns"]]
    for row in answer["rows"]:
        result = run("schaden", {**params, "kritisch": row["value"]})
        cell = row["cells"][labels.index("Erwarteter Schaden")]
        assert parse_fraction(cell["fraction"]) == Fraction(result["chances"]["expected_damage"])


@pytest.mark.parametrize(
    ("values", "key", "words"),
    [
        ({"was_waere_wenn": "waffe"}, "aktionen.schaden.was_waere_wenn", "kein Zahlenfeld"),
        ({"vergleichen": ["staerke"]}, "aktionen.schaden.vergleichen.0", "kein Ja/Nein-Feld"),
        ({"vergleichen": ["kritisch", "kritisch"]}, "aktionen.schaden.vergleichen.1", "schon"),
    ],
)
def test_a_wrong_odds_field_names_file_and_key(
    values: dict[str, Any], key: str, words: str
) -> None:
    with pytest.raises(DataError) as caught:
        declare(changed(schaden=values), "odds_broken_test")
    assert caught.value.key == key and caught.value.file == "odds_broken_test.yaml"
    assert words in str(caught.value)


@pytest.mark.parametrize(
    ("action", "params"),
    [
        ("angriff", {"angriffswert": 3}),
        ("schaden", {"kritisch": True}),
        ("patzer", {}),
        ("initiative", {"fighters": [{"name": n, "gewandtheit": 2} for n in "AB"]}),
    ],
)
def test_odds_before_the_roll_do_not_depend_on_the_dice(
    klingen: System, action: str, params: dict[str, Any]
) -> None:
    """Only what the inputs decide is marked as the odds before the roll."""

    def before(seed: int) -> list[dict[str, Any]]:
        result = run(action, params, seed)
        return [s for s in result["display"]["sections"] if s.get("before")]

    first = before(1)
    assert first and all(before(seed) == first for seed in (2, 5, 40))
