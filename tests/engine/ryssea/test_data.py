"""Ryssea rule data: tables and Annahmen of regeln/ryssea.yaml (000_5fbfd0ad384a0921.txt)."""

from __future__ import annotations

from pathlib import Path

from engine import api
from tests.engine.ryssea.helpers import DATA, SOURCE_NAME


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
