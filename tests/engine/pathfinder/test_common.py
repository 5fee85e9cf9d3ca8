"""Pathfinder: the source table and data (``common.py``), validation and JSON of every action."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from engine import api
from engine.errors import EngineError
from regeln.pathfinder.common import size_modifier
from tests.engine.pathfinder.helpers import DATA, SOURCE_NAME, error, with_sample

# ---------------------------------------------------------------------------------------------
# Source table and data
# ---------------------------------------------------------------------------------------------


def test_size_table_is_the_source_table_verbatim(sources_dir: Path) -> None:
    """004_019b513a861ec26f.txt L50–L61: Tabelle: Größenmodifikatoren, kolossal −8 … Mini +8."""
    lines = (sources_dir / SOURCE_NAME).read_text(encoding="utf-8").split("\n")
    assert lines[49] == "Tabelle: Größenmodifikatoren"
    assert lines[51] == "GrößeGrößenmodifikator"
    source_rows = [re.fullmatch(r"(\D+?)([+-]\d+)", line) for line in lines[52:61]]
    table = DATA.raw("tabellen.groessenmodifikatoren")
    assert [c["titel"] for c in table["spalten"]] == ["Größe", "Größenmodifikator"]
    rows = table["zeilen"]
    assert [(m.group(1), m.group(2)) for m in source_rows if m] == [
        (r["groesse"], r["modifikator"]) for r in rows
    ]
    assert [r["wert"] for r in rows] == [int(r["modifikator"]) for r in rows]
    assert [size_modifier(r["schluessel"]) for r in rows] == [-8, -4, -2, -1, 0, 1, 2, 4, 8]


def test_every_assumption_has_a_player_text_and_a_quelle_citing_a_line() -> None:
    """Everything the text leaves open (L10, L23, L76, L78, L80, L82, L95, L160) is an Annahme.
    Players read its ``text`` (no line numbers, no file name, no „Engine“); the citation for
    maintainers is its ``quelle``."""
    found = {a["key"]: a["text"] for a in DATA.assumptions()}
    for key, text in found.items():
        node: Any = DATA.content
        for part in key.split("."):
            node = node[part]
        assert re.search(r"L\d+", node["quelle"]) and SOURCE_NAME in node["quelle"], key
        assert not re.search(r"L\d+|\.txt|Engine", text), key
    for key in (
        "angriff.bestaetigung",
        "angriff.bedrohungsbereich_nur_bei_treffer",
        "angriff.entfernungsmalus_je_schritt",
        "schaden.rundung",
        "schaden.mindestschaden_je_treffer",
        "rettungswurf.vergleich",
        "aktionen.initiative.wurf",  # the declared helper's (regeln/pathfinder.yaml)
        "aktionen.initiative.gleichstand",
        "trefferpunkte.tot_darunter",
    ):
        assert key in found, key
    attack_spec = api.describe("pathfinder", "attack")
    assert any("bestätigen" in text for text in attack_spec["assumptions"])
    assert api.describe("pathfinder", "initiative")["assumptions"]
    assert api.describe("pathfinder", "saving_throw")["assumptions"]


# ---------------------------------------------------------------------------------------------
# Validation, JSON, CLI
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "params", "field", "label"),
    [
        ("attack", {"gab": 31}, "gab", "Grund-Angriffsbonus"),
        ("attack", {"size": "huge"}, "size", "Größe"),
        ("attack", {"weapon": "wurfwaffe", "range_increment": 6}, "range_increment", "Entfernung"),
        ("attack", {"damage": "2W20kh1"}, "damage", "Waffenschaden"),
        ("attack", {"damage": "13W6"}, "damage", "Waffenschaden"),
        ("attack", {"damage": "1W100"}, "damage", "Waffenschaden"),
        ("attack", {"damage": "1W4+1W6+1W8+1W10+1W12"}, "damage", "Waffenschaden"),
        ("attack", {"damage": "1W6+500"}, "damage", "Waffenschaden"),
        ("attack", {"extra_dice": "17W6"}, "extra_dice", "Zusätzliche Schadenswürfel"),
        ("attack", {"damage": "zwei"}, "damage", "Waffenschaden"),
        (
            "armor_class",
            {"geschicklichkeitsmodifikator": "viel"},
            "geschicklichkeitsmodifikator",
            "Geschicklichkeitsmodifikator",
        ),
        ("saving_throw", {"kind": "mut"}, "kind", "Art"),
        ("hit_points", {"hp": -12, "konstitution": 12}, "hp", "Aktuelle Trefferpunkte"),
        ("hit_points", {"damage": "100W1000"}, "damage", "Schaden"),
        (
            "initiative",
            {
                "fighters": [
                    {"name": "Ezren", "geschicklichkeitsmodifikator": 1},
                    {"name": "ezren", "geschicklichkeitsmodifikator": 1},
                ]
            },
            "fighters.1.name",
            "Name",
        ),
        ("initiative", {"fighters": []}, "fighters", "Kämpfer"),
    ],
)
def test_bad_input_gives_a_german_error_naming_the_field(
    action: str, params: dict[str, Any], field: str, label: str
) -> None:
    """Validation at the JSON boundary: German message with the field's label and path."""
    answer = error(action, params)
    assert answer["field"] == field
    assert label in answer["message"]


def test_engine_error_type_for_unknown_size() -> None:
    with pytest.raises(EngineError) as info:
        size_modifier("huge")
    assert info.value.field == "size"


@pytest.mark.parametrize("action", ["attack", "armor_class", "saving_throw", "initiative",
                                    "hit_points", "fumble"])  # fmt: skip
def test_results_are_json_with_a_display_and_are_reproducible(action: str) -> None:
    params = with_sample(action, {})
    first = api.run("pathfinder", action, params, 42)
    again = api.run("pathfinder", action, params, 42)
    assert first == again
    text = json.dumps(first, ensure_ascii=False)
    assert json.loads(text) == first
    display = first["result"]["display"]
    assert display["headline"] and display["outcome"]
    assert any(s["kind"] == "chances" for s in display["sections"])
    spec = api.describe("pathfinder", action)
    assert spec["source"].startswith("004_019b513a861ec26f.txt")


PLAYER_WORDS = (r"\bL\d+", r"\.txt", "Engine", "Seed", "JSON")


@pytest.mark.parametrize("action", ["attack", "armor_class", "saving_throw", "initiative",
                                    "hit_points", "fumble"])  # fmt: skip
def test_what_players_read_has_no_line_numbers_or_engine_words(action: str) -> None:
    """Labels, help, summary, Annahmen and a result's display: no source lines, file names,
    „Engine“, „Seed“ or „JSON“ – the citations stay in the action's ``source``."""
    spec = {k: v for k, v in api.describe("pathfinder", action).items() if k != "source"}
    result = api.run("pathfinder", action, with_sample(action, {}), 3)["result"]
    text = json.dumps([spec, result["display"]], ensure_ascii=False)
    for word in PLAYER_WORDS:
        assert not re.search(word, text), (action, word)
