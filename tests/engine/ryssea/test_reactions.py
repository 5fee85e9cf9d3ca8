"""Ryssea Ausweichsprung, Unterbrechung, Zusammenarbeit, Atemholen (000_5fbfd0ad384a0921.txt)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine import api
from harness.support import assumed
from tests.engine.ryssea.helpers import (
    BASE,
    PROBE_SAMPLE,
    annahme,
    brute_probe,
    crit_patzer,
    erfolge,
    error,
    every_face,
    fr,
    run,
    seek,
)


@pytest.mark.parametrize(
    ("taw", "schaden", "mod"), [(0, 10, 0), (3, 2, -4), (3, 0, 30), (2, 200, -30)]
)
def test_dodge_jump_brute_force(taw: int, schaden: int, mod: int) -> None:
    """000_5fbfd0ad384a0921.txt L253: Akrobatik vs 15; success lowers the damage by 1 and by 1
    more per Erfolg."""
    result = run("dodge_jump", {**BASE, "taw": taw, "damage": schaden, "modifier": mod})
    base = 15 + taw + mod
    hits = cut = 0
    combos, count = every_face([10, 10, *([6] * taw)])
    for faces in combos:
        crit, fumble = crit_patzer(faces[0], faces[1])
        ok = crit or (not fumble and base + faces[0] >= 15)
        hits += ok
        if ok:
            cut += min(schaden, 1 + erfolge(faces[2:]))
    success, reduction = Fraction(hits, count), Fraction(cut, count)
    assert fr(result["chances"]["success"]) == success
    assert fr(result["chances"]["expected_reduction"]) == reduction
    assert fr(result["chances"]["expected_damage"]) == schaden - reduction
    if result["success"]:
        assert result["reduction"] == min(schaden, 1 + result["probe"]["erfolge"])
    else:
        assert result["reduction"] == 0


@pytest.mark.parametrize(("schaden", "stoerend"), [(0, 0), (5, 2), (12, 0), (30, 10)])
def test_interruption_brute_force(schaden: int, stoerend: int) -> None:
    """000_5fbfd0ad384a0921.txt L120–L122: Selbstbeherrschung vs 10 + damage taken; L192: each
    Erfolg of a Störender Angriff adds 3."""
    result = run("interruption", {**BASE, "taw": 5, "damage": schaden, "stoerend": stoerend})
    target = 10 + schaden + 3 * stoerend
    assert result["difficulty"] == target
    success, _, _ = brute_probe(20, "normal", "normal", lambda total: total >= target)
    assert fr(result["chances"]["success"]) == success
    assert fr(result["chances"]["interrupted"]) == 1 - success
    assert result["interrupted"] == (not result["success"])
    assert result["probe"]["erfolgswuerfel"] is None


def test_teamwork_brute_force() -> None:
    """000_5fbfd0ad384a0921.txt L311–L313: each helper attacks the Verteidigung − 5; success →
    +1 (+1 per Erfolg) for the main attacker, failure → −1; the bonuses add up."""
    helpers = [
        {"name": "Bruna", **BASE, "taw": 2},
        {"name": "Cedric", **BASE, "taw": 0, "modifier": -6, "wuerfel": "unfaehig"},
    ]
    result = run("teamwork", {"verteidigung": 26, "helfer": helpers})
    assert result["difficulty"] == 21
    tally: dict[int, int] = {}
    combos, count = every_face([10, 10, 6, 6, 8, 10])
    for faces in combos:
        total = 0
        for value, confirm, pool, base in (
            (faces[0], faces[1], faces[2:4], 17),
            (faces[4], faces[5], (), 9),
        ):
            crit, fumble = crit_patzer(value, confirm)
            ok = crit or (not fumble and base + value >= 21)
            total += 1 + erfolge(pool) if ok else -1
        tally[total] = tally.get(total, 0) + 1
    dist = {t: Fraction(n, count) for t, n in tally.items()}
    got = {int(k): fr(v) for k, v in result["chances"]["total"].items()}
    assert got == dist
    assert fr(result["chances"]["expected_total"]) == sum(t * p for t, p in dist.items())
    assert fr(result["chances"]["positive"]) == sum(p for t, p in dist.items() if t > 0)
    bonus = sum(h["bonus"] for h in result["helpers"])
    assert result["total"] == bonus
    for helper in result["helpers"]:
        expected = 1 + helper["probe"]["erfolge"] if helper["success"] else -1
        assert helper["bonus"] == expected
    helpers = [{"name": "A", **PROBE_SAMPLE}, {"name": "a", **PROBE_SAMPLE}]
    assert error("teamwork", {"helfer": helpers})["field"] == "helfer.1.name"


def test_catch_breath() -> None:
    """000_5fbfd0ad384a0921.txt L261: Atemholen heals 10 + Konstitution Betäubungsschaden."""
    result = run("catch_breath", {"konstitution": 7, "betaeubungsschaden": 30})
    assert (result["heal_max"], result["healed"], result["betaeubungsschaden"]) == (17, 17, 13)
    result = run("catch_breath", {"konstitution": 7, "betaeubungsschaden": 5})
    assert (result["healed"], result["betaeubungsschaden"]) == (5, 0)


ROUNDING = "probe.grundwert_rundung"


@pytest.mark.parametrize("action", ["dodge_jump", "interruption"])
def test_probe_reactions_name_the_rounding_only_for_an_odd_sum(action: str) -> None:
    """Draft „Würfelsystem & Proben“: (EIG1 + EIG2 + EIG3) / 2 – its rounding is an Annahme,
    named only when the sum is odd (and the die between 3 and 8: no Kritisch / Patzer)."""
    text = annahme(ROUNDING)
    even = seek(action, {}, lambda r: 3 <= r["probe"]["die_value"] <= 8)
    assert assumed(even) == []
    odd = seek(action, {"eig3": 11}, lambda r: 3 <= r["probe"]["die_value"] <= 8)
    assert assumed(odd) == [text]


def test_teamwork_names_the_rounding_for_an_odd_helper_and_goes_on_to_the_attack() -> None:
    """L311–L313: the helpers' bonus goes to the main attacker's next melee attack (offered with
    the sum filled in); a helper's Patzer on his Kampftalent offers the Patzertabelle (L406)."""
    text = annahme(ROUNDING)
    helper = {"name": "Bruna", **PROBE_SAMPLE}
    even = seek(
        "teamwork", {"helfer": [helper]}, lambda r: 3 <= r["helpers"][0]["probe"]["die_value"] <= 8
    )
    assert assumed(even) == []
    odd = run("teamwork", {"helfer": [{**helper, "eig1": 11}]})
    assert text in assumed(odd)
    assert even["follow_ups"] == [
        {
            "action": "attack",
            "title": "Angriff des Hauptangreifers",
            "params": {"angriffsart": "nahkampf", "zusammenarbeit": even["total"]},
        }
    ]
    patzer = seek("teamwork", {"helfer": [helper]}, lambda r: r["helpers"][0]["probe"]["patzer"])
    assert {
        "action": "fumble",
        "title": "Patzertabelle für Bruna",
        "params": {"ursache": "kampftalent"},
    } in patzer["follow_ups"]


def test_catch_breath_rests_on_no_assumption() -> None:
    """L261: 10 + Konstitution, no dice and nothing the text leaves open."""
    assert assumed(run("catch_breath", {})) == []
    assert api.describe("ryssea", "catch_breath")["assumptions"] == []
