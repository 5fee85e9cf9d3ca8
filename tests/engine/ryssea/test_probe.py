"""Ryssea Einfache Probe: Grundwert, talent dice, Kritisch / Patzer, Erfolgswürfel.

The probe machinery is ``regeln/ryssea/common.py``, the action ``probe.py``.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from harness.support import assumed
from regeln.ryssea import common
from tests.engine.ryssea.helpers import annahme, brute_probe, erfolge, every_face, fr, run, seek


def test_grundwert_rounds_down() -> None:
    """Draft „Würfelsystem & Proben“: Grundwert = (EIG1 + EIG2 + EIG3) / 2 + TaW; the rounding
    is not stated (Annahme: down)."""
    assert common.grundwert((10, 10, 11), 4) == 15 + 4
    assert common.grundwert((0, 0, 1), 0) == 0
    assert common.grundwert((40, 40, 40), 30) == 90


def test_probe_w10_crit_and_patzer_three_percent() -> None:
    """Draft „Würfelsystem & Proben“: with the W10 a Kritischer Erfolg and a Patzer each have
    3/100 (9/10 then sum 19/20; 1/2 then sum 2/3); 000 L186: success on reaching the value."""
    result = run("probe", {"eig1": 10, "eig2": 10, "eig3": 10, "taw": 5, "schwierigkeit": 25})
    chances = result["chances"]
    assert fr(chances["critical"]) == Fraction(3, 100)
    assert fr(chances["patzer"]) == Fraction(3, 100)
    # Grundwert 20: needs the W10 to show 5+ (6/10); a crit with 9/10 is a success anyway; the
    # Patzer (die 1/2) is below 5 anyway
    assert fr(chances["success"]) == Fraction(6, 10)


@pytest.mark.parametrize("kind", ["normal", "unfaehig", "begabt", "genie"])
@pytest.mark.parametrize("mode", ["normal", "vorteil", "nachteil"])
@pytest.mark.parametrize(("base_mod", "target"), [(0, 25), (-30, 99), (30, 0)])
def test_probe_chances_brute_force(kind: str, mode: str, base_mod: int, target: int) -> None:
    """Draft „Würfelsystem & Proben“ (talent dice, Vorteil/Nachteil, Kritisch, Patzer) and
    000 L186 (reach or exceed): success, crit and Patzer against enumeration of every die."""
    params = {
        "eig1": 10,
        "eig2": 10,
        "eig3": 10,
        "taw": 5,
        "wuerfel": kind,
        "wurf_art": mode,
        "schwierigkeit": target,
        "modifier": base_mod,
        "erfolgsprobe": False,
    }
    result = run("probe", params)
    base = 20 + base_mod
    expected = brute_probe(base, kind, mode, lambda total: total >= target)
    got = tuple(fr(result["chances"][k]) for k in ("success", "critical", "patzer"))
    assert got == expected


@pytest.mark.parametrize("taw", [0, 1, 3, 6])
def test_erfolgsprobe_distribution_brute_force(taw: int) -> None:
    """Draft „Würfelsystem & Proben“: Erfolgsprobe TaW × W6, every 5 or 6 is one Erfolg."""
    result = run("probe", {"taw": taw})
    dist = {int(k): fr(v) for k, v in result["chances"]["erfolge"].items()}
    tally: dict[int, int] = {}
    combos, count = every_face([6] * taw)
    for faces in combos:
        tally[erfolge(faces)] = tally.get(erfolge(faces), 0) + 1
    expected = {k: Fraction(n, count) for k, n in tally.items()}
    assert dist == expected
    assert fr(result["chances"]["expected_erfolge"]) == Fraction(taw, 3)


def test_probe_seeded_roll_by_hand() -> None:
    """Draft „Würfelsystem & Proben“ + 000 L186: the seeded roll, recomputed by hand from the
    same generator: W10 first, a confirmation W10 only on 1/2/9/10, then TaW × W6."""
    for seed in range(40):
        rng = random.Random(seed)
        die = rng.randint(1, 10)
        confirm = rng.randint(1, 10) if die in (1, 2, 9, 10) else None
        pool = [rng.randint(1, 6) for _ in range(4)]
        result = run(
            "probe",
            {"eig1": 9, "eig2": 10, "eig3": 12, "taw": 4, "schwierigkeit": 22, "modifier": -1},
            seed,
        )
        total = (31 // 2) + 4 + die - 1
        crit = confirm is not None and die >= 9 and die + confirm >= 19
        fumble = confirm is not None and die <= 2 and die + confirm <= 3
        probe = result["probe"]
        assert probe["grundwert"] == 19
        assert probe["die_value"] == die
        assert probe["total"] == total
        assert probe["critical"] == crit
        assert probe["patzer"] == fumble
        assert probe["erfolge"] == sum(1 for f in pool if f >= 5)
        assert result["success"] == (crit or (not fumble and total >= 22))


def test_probe_seeds_reach_crit_and_patzer() -> None:
    """Draft „Würfelsystem & Proben“: a crit succeeds even below the Schwierigkeit, a Patzer
    fails even above it (Annahme: the names say Erfolg / verheerender Misserfolg, L406)."""
    crit_seed = fumble_seed = None
    for seed in range(2000):
        rng = random.Random(seed)
        die, confirm = rng.randint(1, 10), rng.randint(1, 10)
        if crit_seed is None and die >= 9 and die + confirm >= 19:
            crit_seed = seed
        if fumble_seed is None and die <= 2 and die + confirm <= 3:
            fumble_seed = seed
    assert crit_seed is not None and fumble_seed is not None
    low = {"eig1": 0, "eig2": 0, "eig3": 0, "taw": 0, "schwierigkeit": 99}
    result = run("probe", low, crit_seed)
    assert result["probe"]["critical"] and result["success"]
    high = {"taw": 0, "schwierigkeit": 0, "modifier": 30}
    result = run("probe", high, fumble_seed)
    assert result["probe"]["patzer"] and not result["success"]


def test_genie_vorteil_rolls_twice_and_keeps_better() -> None:
    """Draft „Würfelsystem & Proben“: Genie (W12 + W4) − 1; Vorteil: a second roll, the better
    counts (both rolls shown)."""
    result = run("probe", {"wuerfel": "genie", "wurf_art": "vorteil", "taw": 0}, 11)
    rolls = result["probe"]["rolls"]
    assert len(rolls) == 2
    values = [r["total"] for r in rolls]
    assert result["probe"]["die_value"] == max(values)
    assert all(r["notation"] == "1W12+1W4-1" for r in rolls)


def test_probe_names_the_assumptions_it_used() -> None:
    """Draft „Würfelsystem & Proben“: the rounding of (EIG1 + EIG2 + EIG3) / 2 is not stated
    (Annahme), so a result names it only for an odd sum; a Kritischer Erfolg that succeeds
    below the Schwierigkeit, or a Patzer that fails above it, names that Annahme; a Patzer
    offers the Patzertabelle (000 L406, for a Kampftalent)."""
    rounding = annahme("probe.grundwert_rundung")
    even = run("probe", {"eig1": 10, "eig2": 10, "eig3": 10})
    assert rounding not in assumed(even)
    odd = run("probe", {"eig1": 10, "eig2": 10, "eig3": 11})
    assert rounding in assumed(odd)
    crit = seek("probe", {"schwierigkeit": 99}, lambda r: r["probe"]["critical"])
    assert crit["success"]
    assert annahme("probe.kritisch_gelingt") in assumed(crit)
    plain = seek("probe", {}, lambda r: 3 <= r["probe"]["die_value"] <= 8)
    assert assumed(plain) == []
    assert "follow_ups" not in plain
    patzer = seek("probe", {}, lambda r: r["probe"]["patzer"])
    assert patzer["follow_ups"] == [
        {
            "action": "fumble",
            "title": "Patzertabelle (bei einem Kampftalent)",
            "params": {"ursache": "kampftalent"},
        }
    ]
    # the Patzer fails below the Schwierigkeit anyway: the Annahme decides nothing there
    assert annahme("probe.patzer_misslingt") not in assumed(patzer)
    reached = seek("probe", {"schwierigkeit": 0}, lambda r: r["probe"]["patzer"])
    assert not reached["success"]
    assert annahme("probe.patzer_misslingt") in assumed(reached)


def test_other_dice_and_vorteil_assumptions_named_on_a_threshold() -> None:
    """The draft gives the Kritischer Erfolg / Patzer thresholds for the W10 only, and says
    nothing about which die decides with Vorteil / Nachteil (Annahmen): named when a die
    reached a threshold, not otherwise."""
    other = annahme("probe.andere_wuerfel")
    begabt = {"wuerfel": "begabt"}
    confirmed = seek("probe", begabt, lambda r: r["probe"]["confirmation"] is not None)
    assert other in assumed(confirmed)
    quiet = seek("probe", begabt, lambda r: r["probe"]["confirmation"] is None)
    assert other not in assumed(quiet)
    kept = annahme("probe.vorteil_behaltener_wuerfel")

    def faces(result: dict[str, Any]) -> list[int]:
        return [d["value"] for t in result["probe"]["rolls"][0]["terms"] for d in t["dice"]]

    edge = seek(
        "probe", {"wurf_art": "vorteil"}, lambda r: any(f in (1, 2, 9, 10) for f in faces(r))
    )
    assert kept in assumed(edge)
    middle = seek("probe", {"wurf_art": "vorteil"}, lambda r: all(3 <= f <= 8 for f in faces(r)))
    assert kept not in assumed(middle)


@pytest.mark.parametrize(
    ("talent", "confirmation", "decision"),
    [
        (10, 9, "(nötig: 19 oder mehr): bestätigt – Kritischer Erfolg"),
        (9, 9, "(nötig: 19 oder mehr): nicht bestätigt – kein Kritischer Erfolg"),
        (10, 8, "(nötig: 19 oder mehr): nicht bestätigt – kein Kritischer Erfolg"),
        (1, 2, "(nötig: 3 oder weniger): bestätigt – Patzer"),
        (2, 2, "(nötig: 3 oder weniger): nicht bestätigt – kein Patzer"),
    ],
)
def test_the_confirmation_roll_says_what_it_decided(
    talent: int, confirmation: int, decision: str
) -> None:
    """Draft „Würfelsystem & Proben“ (data: „der W10 zeigt 9 oder 10 → weiterer W10, Summe 19
    oder 20“ / „1 oder 2 → weiterer W10, Summe 2 oder 3“): the Bestätigungswurf's line ends in
    what it decided (issue 26: „Bestätigungswurf (Kritischer Erfolg?) … = 14“ never said yes
    or no), and that is what the probe's result says."""

    def faces(result: dict[str, Any]) -> bool:
        rolls = result["probe"]["rolls"]
        shown = result["probe"]["confirmation"]
        return rolls[0]["total"] == talent and shown is not None and shown["total"] == confirmation

    result = seek("probe", {"taw": 0}, faces)
    line = next(
        item
        for section in result["display"]["sections"]
        if section["kind"] == "rolls"
        for item in section["items"]
        if "Bestätigungswurf" in item["label"]
    )
    assert line["decision"] == decision
    assert line["total"] == str(talent + confirmation)
    confirmed = "nicht bestätigt" not in decision
    assert (result["probe"]["critical"] or result["probe"]["patzer"]) is confirmed
