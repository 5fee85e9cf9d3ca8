"""Ryssea rules engine: Probe, Angriff, Patzertabelle and the other rolls of 000.

Source: ``000_5fbfd0ad384a0921.txt`` (line numbers ``L…``). The dice mechanics are not in 000;
they come from the draft chapter "Würfelsystem & Proben" (public repository
RonjaVerenaUder/ryssea-wiki, commit 1489b4f; summarised in ../shared/RULES-INVENTORY.md):
Grundwert = (EIG1 + EIG2 + EIG3) / 2 + TaW, Grundwert + W10, Unfähig W8 / Begabt W12 /
Genie (W12 + W4) − 1, Vorteil / Nachteil, Kritischer Erfolg 9/10 → W10 → sum 19/20, Patzer
1/2 → W10 → sum 2/3, Erfolgsprobe TaW × W6 (5 and 6 count).

Every exact chance an action reports is compared with a brute-force enumeration of all dice
(``tests/engine/brute.py``), written here from the rule text, not from the engine's code.
"""

from __future__ import annotations

import itertools
import json
import math
import random
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import api
from engine.data_files import load
from engine.systems import ryssea
from tests.engine.brute import outcomes


def every_face(sides: Sequence[int]) -> tuple[Any, int]:
    """All face combinations and their count (each equally likely): integer bookkeeping."""
    return itertools.product(*(range(1, n + 1) for n in sides)), math.prod(sides)


SOURCE_NAME = "000_5fbfd0ad384a0921.txt"
DATA = load("ryssea")

# ---------------------------------------------------------------------------------------------
# Helpers: run, and brute force written from the rules
# ---------------------------------------------------------------------------------------------


def run(action: str, params: dict[str, Any] | None = None, seed: int = 1) -> dict[str, Any]:
    out = api.run("ryssea", action, params or {}, seed)
    assert out["ok"], out.get("error")
    json.dumps(out)  # JSON-serialisable
    result: dict[str, Any] = out["result"]
    return result


def error(action: str, params: dict[str, Any]) -> dict[str, str]:
    out = api.run("ryssea", action, params, 1)
    assert not out["ok"]
    err: dict[str, str] = out["error"]
    return err


def fr(text: str) -> Fraction:
    return Fraction(text)


TALENT_SIDES = {"normal": [10], "unfaehig": [8], "begabt": [12], "genie": [12, 4]}


def talent_sides(kind: str, mode: str) -> list[int]:
    """The dice of the talent roll: one talent die, two with Vorteil/Nachteil."""
    return TALENT_SIDES[kind] * (1 if mode == "normal" else 2)


def talent_value(kind: str, faces: Sequence[int]) -> int:
    return faces[0] + faces[1] - 1 if kind == "genie" else faces[0]


def kept_value(kind: str, mode: str, faces: Sequence[int]) -> int:
    n = len(TALENT_SIDES[kind])
    first = talent_value(kind, faces[:n])
    if mode == "normal":
        return first
    second = talent_value(kind, faces[n : 2 * n])
    return max(first, second) if mode == "vorteil" else min(first, second)


def crit_patzer(value: int, confirm: int) -> tuple[bool, bool]:
    """Draft rule: 9 or 10 → another W10, sum 19/20 critical; 1 or 2 → sum 2/3 Patzer
    (Annahme: the same numbers for every talent die)."""
    return value >= 9 and value + confirm >= 19, value <= 2 and value + confirm <= 3


def erfolge(faces: Sequence[int]) -> int:
    return sum(1 for f in faces if f >= 5)


def brute_probe(
    base: int, kind: str, mode: str, succeeds: Any
) -> tuple[Fraction, Fraction, Fraction]:
    """(success, critical, Patzer) by enumerating talent dice and the confirmation W10."""
    sides = [*talent_sides(kind, mode), 10]
    n = len(sides) - 1
    success = crit = fumble = 0
    combos, total = every_face(sides)
    for faces in combos:
        value = kept_value(kind, mode, faces[:n])
        c, f = crit_patzer(value, faces[n])
        success += c or (not f and succeeds(base + value))
        crit += c
        fumble += f
    return Fraction(success, total), Fraction(crit, total), Fraction(fumble, total)


# ---------------------------------------------------------------------------------------------
# Data and tables
# ---------------------------------------------------------------------------------------------


def test_tables_verbatim_from_source(sources_dir: Path) -> None:
    """000_5fbfd0ad384a0921.txt L226–L231, L335–L340, L408–L415: every cell the pages show
    from the data appears in the source line of its row (the pages render these tables)."""
    lines = (sources_dir / SOURCE_NAME).read_text(encoding="utf-8").split("\n")
    for name, first_line in (
        ("kampfpositionen", 336),
        ("unbewegliche_ziele", 227),
        ("patzertabelle", 409),
    ):
        columns = [c["feld"] for c in DATA.table(f"tabellen.{name}.spalten", ("feld", "titel"))]
        header = lines[first_line - 2]
        for column in DATA.table(f"tabellen.{name}.spalten", ("feld", "titel")):
            assert str(column["titel"]) in header
        rows = DATA.table(f"tabellen.{name}.zeilen", tuple(columns))
        for offset, row in enumerate(rows):
            source_line = lines[first_line - 1 + offset]
            for column in columns:
                assert str(row[column]) in source_line, (name, column, source_line)


def test_kampfpositionen_numbers_match_cells() -> None:
    """000_5fbfd0ad384a0921.txt L335–L340: the numeric helper fields equal the shown cells
    ("—" = 0; + is a bonus on the attack probe)."""
    for row in DATA.table("tabellen.kampfpositionen.zeilen", ("position",)):
        for column in ("eigen_nah", "eigen_fern", "gegner_nah", "gegner_fern"):
            shown = str(row[column]).replace("−", "-").replace("—", "0")
            assert int(shown) == row[f"wert_{column}"]


def test_patzertabelle_bands_cover_2_to_20() -> None:
    """000_5fbfd0ad384a0921.txt L408–L415: seven bands 2 / 3–4 / 5–8 / 9–13 / 14–17 / 18–19 /
    20 cover every 2W10 result exactly once."""
    rows = DATA.table("tabellen.patzertabelle.zeilen", ("von", "bis"))
    assert [(r["von"], r["bis"]) for r in rows] == [
        (2, 2),
        (3, 4),
        (5, 8),
        (9, 13),
        (14, 17),
        (18, 19),
        (20, 20),
    ]


def test_handlungsdauern_for_the_tickleiste() -> None:
    """000_5fbfd0ad384a0921.txt L186 (≥ 3), L206 (3), L245 (4), L257 (3), L269 (5/10/15),
    L311 (8), L366 (≥ 15), L174/L182 (Sprinten 10), L130 (reactions: 30 ticks): every row of
    tabellen.handlungsdauern has a numeric ticks or ticks_min and a source line."""
    rows = DATA.table("tabellen.handlungsdauern.zeilen", ("schluessel", "handlung", "zeile"))
    by_key = {r["schluessel"]: r for r in rows}
    for row in rows:
        value = row.get("ticks", row.get("ticks_min"))
        assert isinstance(value, int) and not isinstance(value, bool), row
        assert str(row["zeile"]).startswith("L")
    assert by_key["nahkampfangriff"]["ticks_min"] == 3
    assert by_key["fernkampfangriff"]["ticks"] == 3
    assert by_key["aktive_abwehr"]["ticks"] == 4
    assert by_key["umklammerung_loesen"]["ticks"] == 3
    assert [by_key[f"gegenstand_{n}"]["ticks"] for n in ("einfach", "zweimal", "dreimal")] == [
        5,
        10,
        15,
    ]
    assert by_key["zusammenarbeit_helfer"]["ticks"] == 8
    assert by_key["kampfsituation_veraendern"]["ticks_min"] == 15
    assert by_key["sprinten"]["ticks"] == 10
    assert by_key["sprinten"]["unterbrechungspunkte"] == [0, 3, 5, 7, 10]
    assert DATA.integer("tickleiste.reaktion_hoechstens_zurueck") == 30
    # values the text leaves open are marked as Annahme
    keys = {a["key"] for a in DATA.assumptions()}
    for name in ("laufen", "aufstehen", "fernkampfwaffe_bereitmachen"):
        index = [r["schluessel"] for r in rows].index(name)
        assert f"tabellen.handlungsdauern.zeilen.{index}" in keys


def test_assumptions_attached_to_actions() -> None:
    """Everything the texts leave open is an Annahme in the data and shows in describe()."""
    probe_doc = api.describe("ryssea", "probe")
    assert any("abgerundet" in a or "rundet ab" in a for a in probe_doc["assumptions"])
    assert any("W8" in a and "W12" in a for a in probe_doc["assumptions"])
    attack_doc = api.describe("ryssea", "attack")
    assert any("Reihenfolge" in a for a in attack_doc["assumptions"])
    fumble_doc = api.describe("ryssea", "fumble")
    assert any("9–13" in a for a in fumble_doc["assumptions"])


# ---------------------------------------------------------------------------------------------
# Probe
# ---------------------------------------------------------------------------------------------


def test_grundwert_rounds_down() -> None:
    """Draft „Würfelsystem & Proben“: Grundwert = (EIG1 + EIG2 + EIG3) / 2 + TaW; the rounding
    is not stated (Annahme: down)."""
    assert ryssea.grundwert((10, 10, 11), 4) == 15 + 4
    assert ryssea.grundwert((0, 0, 1), 0) == 0
    assert ryssea.grundwert((40, 40, 40), 30) == 90


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
        "modifikator": base_mod,
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
            {"eig1": 9, "eig2": 10, "eig3": 12, "taw": 4, "schwierigkeit": 22, "modifikator": -1},
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
    high = {"taw": 0, "schwierigkeit": 0, "modifikator": 30}
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


# ---------------------------------------------------------------------------------------------
# Angriff
# ---------------------------------------------------------------------------------------------

BASE = {"eig1": 10, "eig2": 10, "eig3": 10}


def brute_attack(
    params: dict[str, Any],
    base: int,
    damage_sides: list[int],
    damage_const: int,
    need_range: int = 0,
    need_cover: int = 0,
) -> dict[str, Fraction]:
    """Rules of 000 L73–L82, L186–L194, L210, L220, L247, written out for enumeration."""
    kind, mode, taw = (
        params.get("wuerfel", "normal"),
        params.get("wurf_art", "normal"),
        params["taw"],
    )
    att = [*talent_sides(kind, mode), 10, *([6] * taw)]
    abwehr = params.get("aktive_abwehr", False)
    dkind = params.get("abwehr_wuerfel", "normal")
    dmode = params.get("abwehr_wurf_art", "normal")
    dtaw = params.get("abwehr_taw", 5)
    dbase = 20 - 5 + dtaw + params.get("abwehr_modifikator", 0)  # abwehr_eig 10/10/10
    defence = [*talent_sides(dkind, dmode), 10, *([6] * dtaw)] if abwehr else []
    mastery = params.get("meisterschafts_manoever", 0)
    rest_mode = params.get("erfolge_rest", "wuchtangriff")
    restriction = params.get("manoever_schaden", "voll")
    graze_mode = params.get("streiftreffer_folge", "schaden")
    stun = params.get("betaeubungsschlag", False)
    target = params.get("verteidigung", 25)
    keys = ("success", "hit", "full_hit", "streiftreffer", "cover", "out_of_range", "critical")
    out = dict.fromkeys((*keys, "patzer", "expected_damage"), 0)

    def restrict(points: int) -> int:
        points = max(0, points)
        return 0 if restriction == "kein" else points // 2 if restriction == "halb" else points

    n_att = len(talent_sides(kind, mode))
    n_def = len(talent_sides(dkind, dmode))
    combos, count = every_face([*att, *defence, *damage_sides])
    for faces in combos:
        value = kept_value(kind, mode, faces[:n_att])
        crit, fumble = crit_patzer(value, faces[n_att])
        k = erfolge(faces[n_att + 1 : len(att)])
        total = base + value
        if abwehr:
            d = faces[len(att) :]
            dval = kept_value(dkind, dmode, d[:n_def])
            dk = erfolge(d[n_def + 1 : len(defence)])
            reaches = total > dbase + dval + 2 * dk  # tie: the defender wins (L247)
        else:
            reaches = total >= target  # reach or exceed (L186)
        dmg = sum(faces[len(att) + len(defence) :]) + damage_const
        success = crit or (not fumble and reaches)
        out["critical"] += crit
        out["patzer"] += fumble
        if not success:
            continue
        out["success"] += 1
        if k < need_range:
            out["out_of_range"] += 1
            continue
        if k < need_range + need_cover:
            out["cover"] += 1
            continue
        left = k - need_range - need_cover
        if left < mastery:  # Streiftreffer (L77–L82)
            out["streiftreffer"] += 1
            out["hit"] += 1
            points = restrict(dmg)
            if graze_mode == "schaden" and restriction != "kein":
                points = max(0, points - 2 * mastery)
            out["expected_damage"] += points
            continue
        left -= mastery
        if stun and left >= 1:
            left -= 1
        out["full_hit"] += 1
        out["hit"] += 1
        wucht = left if rest_mode == "wuchtangriff" else 0
        out["expected_damage"] += restrict(dmg + wucht)
    return {key: Fraction(value, count) for key, value in out.items()}


def check_attack(result: dict[str, Any], expected: dict[str, Fraction]) -> None:
    for key, value in expected.items():
        assert fr(result["chances"][key]) == value, key


@pytest.mark.parametrize(
    "extra",
    [
        {},
        {"verteidigung": 0, "modifikator": 30},
        {"verteidigung": 99, "modifikator": -30},
        {"meisterschafts_manoever": 2, "streiftreffer_folge": "schaden"},
        {"meisterschafts_manoever": 1, "manoever_schaden": "halb", "betaeubungsschlag": True},
        {"meisterschafts_manoever": 2, "manoever_schaden": "kein"},
        {
            "wuerfel": "begabt",
            "wurf_art": "nachteil",
            "erfolge_rest": "stoerender_angriff",
            "schaden": "2",
        },
        {
            "wuerfel": "unfaehig",
            "wurf_art": "vorteil",
            "streiftreffer_folge": "betaeubung",
            "meisterschafts_manoever": 3,
            "schaden": "4",
        },
    ],
)
def test_melee_attack_chances_brute_force(extra: dict[str, Any]) -> None:
    """000_5fbfd0ad384a0921.txt L186 (hit on reaching the Verteidigung, weapon damage), L73–L82
    (1 Erfolg per Meisterschafts-Manöver, Streiftreffer −2 per manoeuvre or Betäubungsschaden,
    halved / no damage kept), L190–L194 (Betäubungsschlag 1 Erfolg, Wuchtangriff +1 per
    Erfolg): every chance and the expected damage against enumeration."""
    params = {**BASE, "taw": 2, "schaden": "1W3+1", **extra}
    result = run("attack", params)
    base = 15 + 2 + params.get("modifikator", 0)  # Grundwert 15 + TaW
    if params["schaden"] == "1W3+1":
        expected = brute_attack(params, base, [3], 1)
    else:
        expected = brute_attack(params, base, [], int(params["schaden"]))
    check_attack(result, expected)
    assert fr(result["chances"]["expected_erfolge"]) == Fraction(2, 3)


@pytest.mark.parametrize(
    ("entfernung", "deckung", "need_range", "need_cover"),
    [(20, "keine", 0, 0), (21, "leicht", 1, 1), (60, "schwer", 2, 2), (120, "keine", 5, 0)],
)
def test_ranged_attack_chances_brute_force(
    entfernung: int, deckung: str, need_range: int, need_cover: int
) -> None:
    """000_5fbfd0ad384a0921.txt L210 (1 Erfolg per started base range, at most 6×), L220
    (Deckung leicht 1 / schwer 2 Erfolge; probe ok but Erfolge short → hits the cover)."""
    params = {
        **BASE,
        "taw": 3,
        "angriffsart": "fernkampf",
        "grundreichweite": 20,
        "entfernung": entfernung,
        "deckung": deckung,
        "schaden": "1W2",
        "meisterschafts_manoever": 1,
    }
    result = run("attack", params)
    assert result["erfolge"]["reichweite_noetig"] == need_range
    assert result["erfolge"]["deckung_noetig"] == need_cover
    expected = brute_attack(params, 18, [2], 0, need_range, need_cover)
    check_attack(result, expected)


def test_aktive_abwehr_chances_brute_force() -> None:
    """000_5fbfd0ad384a0921.txt L247: the defender's probe value + 2 × its Erfolge is the
    attacker's difficulty; on a tie the defender wins."""
    params = {
        **BASE,
        "taw": 0,
        "schaden": "3",
        "aktive_abwehr": True,
        "abwehr_taw": 1,
        "abwehr_wuerfel": "unfaehig",
        "abwehr_modifikator": 4,
    }
    result = run("attack", params)
    expected = brute_attack(params, 15, [], 3)
    check_attack(result, expected)


def test_attack_tie_rules() -> None:
    """000_5fbfd0ad384a0921.txt L186: reaching the Verteidigung hits; L247: a tie with the
    Aktive Abwehr goes to the defender."""
    for seed in range(25):
        plain = run("attack", {**BASE, "taw": 0, "verteidigung": 25}, seed)
        probe = plain["attack"]
        if not probe["critical"] and not probe["patzer"]:
            assert plain["probe_success"] == (probe["total"] >= 25)
        active = run("attack", {**BASE, "taw": 0, "aktive_abwehr": True, "abwehr_taw": 0}, seed)
        probe = active["attack"]
        if not probe["critical"] and not probe["patzer"]:
            assert active["probe_success"] == (probe["total"] > active["target"]["value"])
            defence = active["target"]["defence"]
            assert active["target"]["value"] == defence["total"] + 2 * defence["erfolge"]


def test_attack_modifiers_by_name() -> None:
    """000_5fbfd0ad384a0921.txt L360 (Taktischer Vorteil +3 each), L370 (Überzahl +1 each, max
    +3), L335–L340 (Kampfpositionen), L346 (Wasser −3), L198 (Lücke suchen +1 per 2 ticks,
    max +3), L325 (Lichtverhältnisse)."""
    result = run(
        "attack",
        {
            **BASE,
            "taktischer_vorteil": 2,
            "ueberzahl": 5,
            "position_eigen": "kniend",
            "position_ziel": "liegend",
            "wasser": "hueft",
            "vorbereitung_ticks": 7,
            "licht": -3,
            "zusammenarbeit": 2,
        },
    )
    mods = {m["name"]: m["value"] for m in result["attack"]["modifiers"]}
    assert mods == {
        "Taktischer Vorteil × 2": 6,
        "Überzahl (5 überzählig)": 3,
        "Eigene Kampfposition Kniend": -1,
        "Kampfposition des Ziels Liegend": 4,
        "Hüfthohes Wasser": -3,
        "Lücke suchen (7 Ticks)": 3,
        "Lichtverhältnisse": -3,
        "Zusammenarbeit": 2,
    }
    ranged = run(
        "attack",
        {
            **BASE,
            "angriffsart": "fernkampf",
            "position_eigen": "fliegend",
            "position_ziel": "kniend",
            "vorbereitung_ticks": 5,
            "kampfgetuemmel": True,
            "wasser": "unter",
        },
    )
    mods = {m["name"]: m["value"] for m in ranged["attack"]["modifiers"]}
    assert mods == {
        "Eigene Kampfposition Fliegend": -2,
        "Kampfposition des Ziels Kniend": -1,
        "Zielen (5 Ticks)": 2,
        "Kampfgetümmel": -6,
        "Unter Wasser": -6,
    }


def test_range_erfolge() -> None:
    """000_5fbfd0ad384a0921.txt L210: 1 Erfolg per started increase by the base range; at most
    six times the range (5 Erfolge)."""
    assert [ryssea.range_erfolge(d, 20) for d in (0, 20, 21, 40, 41, 100, 101, 120)] == [
        0,
        0,
        1,
        1,
        2,
        4,
        5,
        5,
    ]
    err = error("attack", {"angriffsart": "fernkampf", "grundreichweite": 20, "entfernung": 121})
    assert err["field"] == "entfernung"
    assert "120 m" in err["message"]


def test_unbewegliche_ziele() -> None:
    """000_5fbfd0ad384a0921.txt L224–L231: shooting at an immobile target uses the Zielwert of
    the table (Groß 15) instead of a Verteidigung."""
    result = run(
        "attack", {**BASE, "taw": 0, "angriffsart": "fernkampf", "unbewegliches_ziel": "gross"}
    )
    assert result["target"] == {"kind": "unbewegliches_ziel", "value": 15, "size": "Groß"}
    # Grundwert 15: the W10 must show 0+ → only a Patzer fails
    assert fr(result["chances"]["success"]) == 1 - Fraction(3, 100)


def test_streiftreffer_seeded() -> None:
    """000_5fbfd0ad384a0921.txt L77–L82: too few Erfolge for the declared manoeuvres → the
    Erfolge are forfeited and the damage drops by 2 per declared manoeuvre (min 0, Annahme)."""
    found = False
    for seed in range(60):
        result = run(
            "attack",
            {
                **BASE,
                "taw": 2,
                "verteidigung": 10,
                "meisterschafts_manoever": 2,
                "schaden": "1W6+3",
            },
            seed,
        )
        if result["outcome"] != "streiftreffer":
            continue
        found = True
        assert result["attack"]["erfolge"] < 2
        rolled = result["damage"]["roll"]["total"]
        assert result["damage"]["target"] == max(0, rolled - 4)
        assert result["erfolge"]["wuchtangriff"] == 0
    assert found


def test_wuchtangriff_and_betaeubungsschlag_seeded() -> None:
    """000_5fbfd0ad384a0921.txt L190 (Betäubungsschlag for 1 Erfolg: Betäubungsschaden, also
    for the Wuchtangriff points), L194 (Wuchtangriff +1 per Erfolg)."""
    for seed in range(40):
        result = run(
            "attack",
            {**BASE, "taw": 6, "verteidigung": 0, "betaeubungsschlag": True, "schaden": "1W8"},
            seed,
        )
        if result["outcome"] != "treffer":
            continue
        k = result["attack"]["erfolge"]
        rolled = result["damage"]["roll"]["total"]
        if k >= 1:
            assert result["damage"]["kind"] == "Betäubungsschaden"
            assert result["damage"]["target"] == rolled + k - 1
        else:
            assert result["damage"]["kind"] == "Schaden"
            assert result["damage"]["target"] == rolled


def test_schildstoss_damage_and_no_mastery() -> None:
    """000_5fbfd0ad384a0921.txt L200: a Schildstoß does 1W6+1 and allows free manoeuvres but no
    Meisterschafts-Manöver."""
    result = run("attack", {**BASE, "angriffsart": "schildstoss", "verteidigung": 0}, 3)
    assert result["damage"]["roll"]["notation"] == "1W6+1"
    err = error("attack", {"angriffsart": "schildstoss", "meisterschafts_manoever": 1})
    assert err["field"] == "meisterschafts_manoever"
    assert err["message"].startswith("Angesagte Meisterschafts-Manöver:")


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"deckung": "leicht"}, "deckung"),
        ({"kampfgetuemmel": True}, "kampfgetuemmel"),
        ({"unbewegliches_ziel": "klein"}, "unbewegliches_ziel"),
        ({"angriffsart": "fernkampf", "ueberzahl": 1}, "ueberzahl"),
        ({"angriffsart": "fernkampf", "betaeubungsschlag": True}, "betaeubungsschlag"),
        ({"gelegenheitsangriff": True, "meisterschafts_manoever": 1}, "meisterschafts_manoever"),
        ({"manoever_schaden": "halb"}, "manoever_schaden"),
        (
            {"angriffsart": "fernkampf", "unbewegliches_ziel": "klein", "aktive_abwehr": True},
            "aktive_abwehr",
        ),
        ({"schaden": "11W6"}, "schaden"),
        ({"schaden": "1W1000"}, "schaden"),
        ({"schaden": "W"}, "schaden"),
        ({"taktischer_vorteil": 6}, "taktischer_vorteil"),
        ({"taw": -1}, "taw"),
        ({"wuerfel": "w20"}, "wuerfel"),
    ],
)
def test_attack_bad_input(params: dict[str, Any], field: str) -> None:
    """Bad input → a German message naming the field."""
    err = error("attack", params)
    assert err["field"] == field
    assert ":" in err["message"]


# ---------------------------------------------------------------------------------------------
# Patzertabelle
# ---------------------------------------------------------------------------------------------


def brute_fumble(impossible: set[int]) -> list[Fraction]:
    rows = DATA.table("tabellen.patzertabelle.zeilen", ("von", "bis"))
    raw = [Fraction(0)] * len(rows)
    for faces, w in outcomes([10, 10]):
        total = sum(faces)
        for i, row in enumerate(rows):
            if row["von"] <= total <= row["bis"]:
                raw[i] += w
    possible = sum(p for p, row in zip(raw, rows, strict=True) if row["von"] not in impossible)
    return [
        Fraction(0) if r["von"] in impossible else p / possible
        for p, r in zip(raw, rows, strict=True)
    ]


@pytest.mark.parametrize("impossible", [set(), {2}, {2, 20}, {3, 5, 14, 18}, {2, 3, 5, 14, 18, 20}])
def test_fumble_chances_brute_force(impossible: set[int]) -> None:
    """000_5fbfd0ad384a0921.txt L406–L415: 2W10 on the table; an impossible result is re-rolled,
    so the chances are those of 2W10 conditioned on a possible band."""
    params = {f"unmoeglich_{v}": True for v in impossible}
    result = run("fumble", params)
    rows = DATA.table("tabellen.patzertabelle.zeilen", ("von", "bis"))
    got = [fr(result["chances"][f"{r['von']}-{r['bis']}"]) for r in rows]
    assert got == brute_fumble(impossible)
    if not impossible:
        assert got == [Fraction(n, 100) for n in (1, 5, 22, 44, 22, 5, 1)]


def test_fumble_seeded_rows_and_rerolls() -> None:
    """000_5fbfd0ad384a0921.txt L406: the row matches the 2W10 total; impossible results are
    rolled again (every attempt kept)."""
    for seed in range(30):
        rng = random.Random(seed)
        total = rng.randint(1, 10) + rng.randint(1, 10)
        result = run("fumble", {}, seed)
        assert result["total"] == total
        row = result["row"]
        assert row["von"] <= total <= row["bis"]
        only = run("fumble", {f"unmoeglich_{v}": True for v in (2, 3, 5, 14, 18, 20)}, seed)
        assert (only["row"]["von"], only["row"]["bis"]) == (9, 13)
        totals = [a["total"] for a in only["attempts"]]
        assert all(not 9 <= t <= 13 for t in totals[:-1])
        assert 9 <= totals[-1] <= 13


def test_fumble_not_after_aktive_abwehr() -> None:
    """000_5fbfd0ad384a0921.txt L406: no roll on the table when an opponent's Aktive Abwehr
    caused the Patzer."""
    result = run("fumble", {"ursache": "aktive_abwehr"})
    assert result["rolled"] is False
    assert result["row"] is None
    assert "Aktive Abwehr" in result["display"]["outcome"]


def test_fumble_row_9_13_has_no_checkbox() -> None:
    """Annahme (data patzer.immer_moeglich): the 9–13 row is always possible, so re-rolling
    ends; the other six rows have an "unmöglich" checkbox."""
    names = [p["name"] for p in api.describe("ryssea", "fumble")["params"]]
    assert names == [
        "ursache",
        "unmoeglich_2",
        "unmoeglich_3",
        "unmoeglich_5",
        "unmoeglich_14",
        "unmoeglich_18",
        "unmoeglich_20",
    ]
    assert error("fumble", {"unmoeglich_9": True})["field"] == "unmoeglich_9"


# ---------------------------------------------------------------------------------------------
# Ausweichsprung, Unterbrechung, Zusammenarbeit, Atemholen
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("taw", "schaden", "mod"), [(0, 10, 0), (3, 2, -4), (3, 0, 30), (2, 200, -30)]
)
def test_dodge_jump_brute_force(taw: int, schaden: int, mod: int) -> None:
    """000_5fbfd0ad384a0921.txt L253: Akrobatik vs 15; success lowers the damage by 1 and by 1
    more per Erfolg."""
    result = run("dodge_jump", {**BASE, "taw": taw, "schaden": schaden, "modifikator": mod})
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
    result = run("interruption", {**BASE, "taw": 5, "schaden": schaden, "stoerend": stoerend})
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
        {"name": "Cedric", **BASE, "taw": 0, "modifikator": -6, "wuerfel": "unfaehig"},
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
    assert error("teamwork", {"helfer": [{"name": "A"}, {"name": "a"}]})["field"] == (
        "helfer.1.name"
    )


def test_catch_breath() -> None:
    """000_5fbfd0ad384a0921.txt L261: Atemholen heals 10 + Konstitution Betäubungsschaden."""
    result = run("catch_breath", {"konstitution": 7, "betaeubungsschaden": 30})
    assert (result["heal_max"], result["healed"], result["betaeubungsschaden"]) == (17, 17, 13)
    result = run("catch_breath", {"konstitution": 7, "betaeubungsschaden": 5})
    assert (result["healed"], result["betaeubungsschaden"]) == (5, 0)


# ---------------------------------------------------------------------------------------------
# Boundary: every action, JSON, display, German errors, speed
# ---------------------------------------------------------------------------------------------

ACTIONS = ["probe", "attack", "fumble", "dodge_jump", "interruption", "teamwork", "catch_breath"]


@pytest.mark.parametrize("action", ACTIONS)
def test_every_action_json_display_and_same_seed(action: str) -> None:
    """Each result round-trips through JSON, carries the display block, and a seed repeats."""
    first = api.run("ryssea", action, {}, 42)
    again = api.run("ryssea", action, {}, 42)
    assert first == again
    assert json.loads(json.dumps(first)) == first
    display = first["result"]["display"]
    assert display["headline"] and display["outcome"]
    doc = api.describe("ryssea", action)
    assert doc["title"] and doc["source"]


@pytest.mark.parametrize("action", ACTIONS)
def test_unknown_field_named(action: str) -> None:
    err = error(action, {"gibt_es_nicht": 1})
    assert err["field"] == "gibt_es_nicht"
    assert "Unbekanntes Feld" in err["message"]


def test_extreme_inputs_answer_fast() -> None:
    """Every limit at once still answers well under a second."""
    import time

    params = {
        "angriffsart": "fernkampf",
        "eig1": 40,
        "eig2": 40,
        "eig3": 40,
        "taw": 30,
        "wuerfel": "genie",
        "wurf_art": "vorteil",
        "aktive_abwehr": True,
        "abwehr_taw": 30,
        "abwehr_wuerfel": "genie",
        "abwehr_wurf_art": "nachteil",
        "schaden": "10W100+100",
        "grundreichweite": 1000,
        "entfernung": 6000,
        "deckung": "schwer",
        "meisterschafts_manoever": 5,
    }
    start = time.perf_counter()
    result = run("attack", params)
    assert time.perf_counter() - start < 1.0
    chances = result["chances"]
    assert fr(chances["hit"]) == fr(chances["full_hit"]) + fr(chances["streiftreffer"])
    assert fr(chances["success"]) == sum(fr(chances[k]) for k in ("hit", "cover", "out_of_range"))


@settings(max_examples=40, deadline=None)
@given(
    kind=st.sampled_from(["nahkampf", "fernkampf", "schildstoss"]),
    taw=st.integers(0, 30),
    die=st.sampled_from(["normal", "unfaehig", "begabt", "genie"]),
    mode=st.sampled_from(["normal", "vorteil", "nachteil"]),
    verteidigung=st.integers(0, 99),
    mastery=st.integers(0, 5),
    abwehr=st.booleans(),
    entfernung=st.integers(0, 120),
    deckung=st.sampled_from(["keine", "leicht", "schwer"]),
)
def test_attack_chances_consistent(
    kind: str,
    taw: int,
    die: str,
    mode: str,
    verteidigung: int,
    mastery: int,
    abwehr: bool,
    entfernung: int,
    deckung: str,
) -> None:
    """The reported chances partition the probe's success: hit = voller Treffer +
    Streiftreffer, success = hit + Deckung + Reichweite verfehlt; all lie in [0, 1]."""
    params: dict[str, Any] = {
        "angriffsart": kind,
        "taw": taw,
        "wuerfel": die,
        "wurf_art": mode,
        "verteidigung": verteidigung,
        "aktive_abwehr": abwehr,
    }
    if kind == "fernkampf":
        params.update(entfernung=entfernung, grundreichweite=20, deckung=deckung)
    if kind != "schildstoss":
        params["meisterschafts_manoever"] = mastery
    chances = {k: fr(v) for k, v in run("attack", params)["chances"].items()}
    assert chances["hit"] == chances["full_hit"] + chances["streiftreffer"]
    assert chances["success"] == chances["hit"] + chances["cover"] + chances["out_of_range"]
    for key in ("success", "hit", "critical", "patzer"):
        assert 0 <= chances[key] <= 1
    assert chances["expected_erfolge"] == Fraction(taw, 3)
