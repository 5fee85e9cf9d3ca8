"""Güte-System: seeing the odds (issue #44) – the target's damage per attack and the further
rolls' distributions against full enumeration of the dice, „Was wäre wenn“ across the Güte of
the target's Abwehr, „Vergleichen“ of the Nahkampfoptionen and Waffenarten against running the
attack with each, and the mark ``before`` honest (the same sections for every Wurfnummer).

The probes are entered as rolled at the table (the text defines no FP roll), so who hits and
which defense counts follow from the inputs; only the damage is rolled.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from engine import api, dice
from engine.formatting import parse_fraction
from harness.brute import distribution as brute_distribution
from tests.engine.guete.helpers import SAMPLE, run

CAPTION = "Schaden am Ziel je Angriff"


def _sections(result: dict[str, Any], start: str) -> list[dict[str, Any]]:
    return [s for s in result["display"]["sections"] if s.get("caption", "").startswith(start)]


def _numeric(section: dict[str, Any]) -> dict[int, Fraction]:
    assert section["kind"] == "distribution" and section["numeric"]
    dist = {bar["value"]: parse_fraction(bar["fraction"]) for bar in section["bars"]}
    assert sum(dist.values()) == 1
    assert parse_fraction(section["mean"]["fraction"]) == sum(v * p for v, p in dist.items())
    return dist


def _per_attack(result: dict[str, Any]) -> dict[int, Fraction]:
    (section,) = _sections(result, CAPTION)
    assert section["before"] is True and section["axis"] == "Schaden"
    assert section["mean"]["label"] == "Erwarteter Schaden je Angriff"
    return _numeric(section)


def _target_loss(params: dict[str, Any], faces: tuple[int, ...]) -> int:
    """The target's loss of LE and KE, by hand, from the faces of the weapon dice (then the
    fire or fall die): L19–L29 (failed Abwehr → full damage to LE, Güte ≤ the attacker's → KE,
    higher → none), L203–L205 gedämpfte Schläge (half to KE; a halbe Verteidigung costs AUS,
    not LE or KE), L127 Betäuben and L187–L193 Feuerangriff (KE, the fire 1W6+2 on top), L231
    gezielte Hiebe (twice the damage on KE after a second roll), L363–L367 zweihändige Hiebe
    (+2 a step), L325–L327 Sturzflug (1W6 + height bonus, the dropped prey 1W6+2 KE),
    L137–L173, L335–L355 options without damage."""
    p = {**SAMPLE["attack"], **params}
    option = p.get("option", "keine")
    if option in ("entwaffnen", "festhalten", "zu_fall", "zurueckdraengen"):
        return 0
    failed = not p.get("abwehr_gelungen", False)
    if not failed and p["abwehr_guete"] > p["angriff_guete"]:
        return 0  # vollständige Verteidigung
    if option == "sturzflug":
        height = p["sturzflug_hoehe"]
        weapon = faces[0] + min(5, max(0, height - 5) // 2)
        rest = faces[1:]
    else:
        expression = dice.parse(p["damage"])
        n = expression.dice_count
        weapon = sum(faces[:n]) + expression.constant
        rest = faces[n:]
        if option == "zweihaendige_hiebe":
            weapon += 2 * p["hiebe_stufen"]
    damage = max(0, weapon)
    # gedämpft: half to KE after a failed Abwehr; after a halbe Verteidigung AUS only
    loss = (damage // 2 if failed else 0) if option == "gedaempft" else damage
    if option == "gezielt" and p.get("gezielt_zweiter_wurf"):
        loss += 2 * damage
    if rest:  # fire or the dropped prey: 1W6+2
        loss += rest[0] + 2
    return loss


def _sides(params: dict[str, Any]) -> list[int]:
    p = {**SAMPLE["attack"], **params}
    option = p.get("option", "keine")
    if option == "sturzflug":
        return [6, 6] if p.get("sturzflug_greifen") else [6]
    expression = dice.parse(p["damage"])
    sides = [t.sides for t in expression.terms for _ in range(t.count)]
    return [*sides, 6] if option == "feuerangriff" else sides


ATTACKS = [
    {},
    {"damage": "2W6-3"},
    {"abwehr_gelungen": True, "abwehr_guete": 2, "damage": "1W8"},
    {"abwehr_gelungen": True, "abwehr_guete": 4},
    {"option": "gedaempft", "damage": "2W6"},
    {"option": "gedaempft", "abwehr_gelungen": True, "abwehr_guete": 1},
    {"option": "feuerangriff", "damage": "1W6"},
    {"option": "feuerangriff", "damage": "1W6", "feuerempfindlich": True},
    {"option": "gezielt", "gezielt_zweiter_wurf": True, "damage": "1W6-1"},
    {"option": "zweihaendige_hiebe", "hiebe_stufen": 3},
    {"option": "betaeuben", "abwehr_gelungen": True, "abwehr_guete": 3},
    {"option": "entwaffnen"},
    {"option": "sturzflug", "waffenart": "natuerlich", "sturzflug_hoehe": 12},
    {
        "option": "sturzflug",
        "waffenart": "natuerlich",
        "sturzflug_hoehe": 30,
        "sturzflug_greifen": True,
    },
]


@pytest.mark.parametrize("params", ATTACKS)
def test_damage_per_attack_is_every_die_enumerated(params: dict[str, Any]) -> None:
    """002_51e59e824768e9e9.txt L19–L29 and the options (see ``_target_loss``): the target's
    loss of LE and KE against every face of the weapon and extra dice; its mean is the
    expected LE plus KE the result names."""
    r = run("attack", params, 5)
    dist = _per_attack(r)
    assert dist == brute_distribution(_sides(params), lambda f: _target_loss(params, f))
    expected = r["chances"]["expected"]
    mean = sum(v * p for v, p in dist.items())
    assert mean == Fraction(expected["LE"]) + Fraction(expected["KE"])


@pytest.mark.parametrize(
    "params",
    [
        {"konfrontation": True, "angriff_guete": 2, "gegner_guete": 4},  # the counter hits
        {"konfrontation": True, "angriff_guete": 3, "gegner_guete": 3},  # weapons clash
        {"angriff_gelungen": False},
        {"parade": True, "parade_guete": 2},  # Güte 7 ≥ 3: caught by the Parade
    ],
)
def test_no_hit_on_the_target_is_no_damage_for_certain(params: dict[str, Any]) -> None:
    """002_51e59e824768e9e9.txt L11–L17 (the higher Güte hits, equal ones clash; a failed
    attack hits nobody) and L269–L279 (a Parade of Güte + 5 at least the attacker's catches
    the attack): the target takes 0 for certain."""
    assert _per_attack(run("attack", params)) == {0: Fraction(1)}


def test_the_rolls_own_distribution_stays_only_where_it_differs() -> None:
    """002_51e59e824768e9e9.txt L21 (failed Abwehr: the damage rolled, in full) – the roll's
    distribution would repeat the damage per attack and is left out; L203–L205 (gedämpfte
    Schläge: half of it) – there it stays, as the roll's own, not read as odds."""
    plain = run("attack", {})
    assert not _sections(plain, "Schaden 1W6+2")
    halved = run("attack", {"option": "gedaempft"})
    (roll,) = _sections(halved, "Schaden 1W6+2: Wahrscheinlichkeit jeder Summe")
    assert roll["kind"] == "distribution" and "before" not in roll
    assert _numeric(roll) == brute_distribution([6], lambda f: f[0] + 2)


def _cells(answer: dict[str, Any], row: dict[str, Any]) -> dict[str, Fraction]:
    out = {s["label"]: parse_fraction(s["fraction"]) for s in answer["same"]}
    for column, cell in zip(answer["columns"], row["cells"], strict=True):
        if cell is not None:
            out[column["label"]] = parse_fraction(cell["fraction"])
    return out


@pytest.mark.parametrize(
    "params",
    [
        {"abwehr_gelungen": True, "abwehr_guete": 1, "angriff_guete": 3, "damage": "2W6"},
        {
            "abwehr_gelungen": True,
            "abwehr_guete": 0,
            "angriff_guete": 9,
            "parade": True,
            "parade_guete": 1,
        },
    ],
)
def test_what_if_walks_the_guete_of_the_abwehr(params: dict[str, Any]) -> None:
    """002_51e59e824768e9e9.txt L23 („Gelingt die Abwehr, aber ist die Güte niedriger oder
    gleich der des Gegners, verliert die Figur körperliche Energie“), L27 (higher: no damage)
    and L269–L279 (through a Parade of Güte + 5 the Abwehr meets only the rest): each row's
    expected damage against enumeration."""
    answer = api.what_if("guete", "attack", {**SAMPLE["attack"], **params})
    assert answer["ok"], answer
    sweep = answer["what_if"]
    assert sweep["field"] == "abwehr_guete" and len(sweep["rows"]) >= 10
    rest = params["angriff_guete"] - (params["parade_guete"] + 5 if params.get("parade") else 0)
    for row in sweep["rows"]:
        sides = _sides(params)
        damage = brute_distribution(
            sides, lambda f: _target_loss({**params, "abwehr_guete": -99}, f)
        )
        mean = sum(v * p for v, p in damage.items()) if row["value"] <= rest else Fraction(0)
        assert _cells(sweep, row)["Erwarteter Schaden je Angriff"] == mean


def _figures(result: dict[str, Any]) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for section in result["display"]["sections"]:
        if not section.get("before"):
            continue
        if section["kind"] == "chances":
            for item in section["items"]:
                out[item["label"]] = parse_fraction(item["fraction"])
        elif section["kind"] == "distribution" and section["numeric"]:
            out[section["mean"]["label"]] = parse_fraction(section["mean"]["fraction"])
    return out


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"abwehr_gelungen": True, "abwehr_guete": 1}, "option"),
        ({"waffenart": "natuerlich", "damage": "1W8"}, "option"),
        ({"waffe_zweihaendig": True, "option": "rundumschlag"}, "option"),
        ({"option": "festhalten", "waffenart": "faustkampf"}, "waffenart"),
    ],
)
def test_compare_is_the_attack_with_each_choice(params: dict[str, Any], field: str) -> None:
    """002_51e59e824768e9e9.txt L123–L367, the Nahkampfoptionen and what each needs (Festhalten
    only „mit Faustkampf oder Natürliche Waffen - Klauen“ L163–L173, Rundumschlag only with 2hand-
    and Stangenwaffen, Sturzflug a FP(Natürliche Waffen) L325): each row is the attack run with
    that choice; each refusal is the attack's own German refusal naming the option."""
    full = {**SAMPLE["attack"], **params}
    answer = api.compare("guete", "attack", full, field)
    assert answer["ok"], answer
    table = answer["compare"]
    assert table["rows"]
    for row in table["rows"]:
        assert _cells(table, row) == _figures(run("attack", {**params, field: row["value"]}))
    for refused in table["refused"]:
        error = api.run("guete", "attack", {**full, field: refused["value"]}, 1)
        assert not error["ok"] and error["error"]["message"] == refused["message"]
        assert error["error"]["field"] in (field, "option")
    values = [r["value"] for r in table["rows"]] + [r["value"] for r in table["refused"]]
    assert len(values) == len(set(values))


# -- the further rolls ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "params", "sides", "total", "axis"),
    [
        ("aufwachen", {"gw_widerstand": 5}, [6, 6], lambda f: f[0] + f[1] - 5, "Ergebnis"),
        ("entwaffnen", {}, [6], lambda f: f[0] - 3, "Meter"),
        ("erdruecken", {"gewicht": 260}, [6, 6], lambda f: f[0] + f[1] + 5, "Schaden"),
        ("sturzflug", {"hoehe": 14}, [6], lambda f: f[0] + 4, "Schaden"),
        ("feuerschaden", {}, [6], lambda f: f[0] + 2, "Schaden"),
    ],
)
def test_further_rolls_distribution_is_every_die_enumerated(
    action: str,
    params: dict[str, Any],
    sides: list[int],
    total: Callable[[tuple[int, ...]], int],
    axis: str,
) -> None:
    """002_51e59e824768e9e9.txt L47 (Aufwachen 2W6 − GW Widerstand), L141 (Entwaffnen 1W6 − 3
    m), L153–L161 (Erdrücken 2W6 + kg / 50, rounded down), L325 (Sturzflug 1W6 + 1 je 2 volle
    Meter über 5 m), L187–L193 (Feuerschaden 1W6+2): the „Verteilung“ against every die, its
    mean the result's expected value; it replaces the former list of chances."""
    r = run(action, params, 2)
    (section,) = _sections(r, "Verteilung")
    assert section["kind"] == "distribution" and section["before"] is True
    assert section["axis"] == axis
    assert _numeric(section) == brute_distribution(sides, total)
    assert parse_fraction(section["mean"]["fraction"]) == Fraction(r["chances"]["expected"])
    assert not [s for s in r["display"]["sections"] if s["kind"] == "chances" and not s["items"]]


@pytest.mark.parametrize(
    ("action", "params"),
    [
        ("attack", {}),
        ("attack", {"option": "feuerangriff", "abwehr_gelungen": True, "abwehr_guete": 1}),
        ("attack", {"option": "entwaffnen"}),
        ("attack", {"konfrontation": True, "gegner_guete": 5}),
        ("aufwachen", {}),
        ("entwaffnen", {}),
        ("erdruecken", {}),
        ("sturzflug", {"greifen": True}),
        ("feuerschaden", {}),
    ],
)
def test_before_sections_are_the_same_for_every_roll(action: str, params: dict[str, Any]) -> None:
    """002_51e59e824768e9e9.txt L19–L29 (what a hit costs follows from the entered probes; only
    the damage is rolled) and the further rolls (L47, L141, L153, L187, L325): the odds before
    the roll are the same for many Wurfnummern."""
    sections = [
        [s for s in run(action, params, seed)["display"]["sections"] if s.get("before")]
        for seed in range(12)
    ]
    assert sections[0]
    assert all(s == sections[0] for s in sections)
