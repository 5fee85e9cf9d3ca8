"""Aktionswürfel-System: the rule data and its Annahmen (``common.py``, ``aktionswuerfel.yaml``)."""

from __future__ import annotations

from engine import api
from engine.data_files import load
from harness.support import NOT_FOR_PLAYERS, player_texts
from regeln.aktionswuerfel import SYSTEM
from tests.engine.aktionswuerfel.helpers import error, fields, run


def test_assumptions_in_data() -> None:
    """The die of a Wurf (L22–L23, L38, L54), the tie rule and the order of several who begin
    (L34) are Annahmen in the data."""
    keys = {a["key"] for a in load("aktionswuerfel").assumptions()}
    expected = {"wurf", "initiative.stechen", "initiative.mehrere_zuerst"}
    assert expected | {"angriff.erfolg_ab_gleichstand"} <= keys
    assert len(api.describe("aktionswuerfel", "initiative")["assumptions"]) == len(expected)
    assert load("aktionswuerfel").integer("zug.aktionswuerfel") == 2  # L18


PLAYER_CASES = [
    (
        "initiative",
        {"fighters": [{"name": "A", "willenswurf": 5}, {"name": "B", "willenswurf": 5}]},
    ),
    ("initiative", {"fighters": [{"name": "A", "willenswurf": 5}], "gleichstand": "spielleiter"}),
    ("attack", {"schadenswuerfel": "3W6", "schadensbonus": 9, "armor": 0, "gesundheit": 5}),
    ("attack", {"schadenswuerfel": "1W6", "armor": 9}),
    ("attack", {"angriffswurf": 1}),
    ("attack", {"kritische_wunden": 2}),
    ("attack", {"angriffsart": "kampfmanoever", "manoever": "festhalten"}),
    ("attack", {"angriffsart": "kampfmanoever", "manoever": "schieben", "schieben_opfer": 1}),
    ("attack", {"angriffsart": "kampfmanoever", "angriffswurf": 1}),
    ("fumble", {}),
    ("fallenlassen", {}),
    ("fallenlassen", {"wohin": "nachbarfeld", "geschicklichkeitswurf": 4}),
]
PLAYER_ERRORS = [
    ("attack", {"gesundheit": 0}),
    ("attack", {"schadenswuerfel": "30W6"}),
    ("attack", {"angriffsart": "kampfmanoever", "schieben_opfer": 5}),
    ("fallenlassen", {"wohin": "nachbarfeld"}),
    ("initiative", {"fighters": [{"name": "A", "willenswurf": 5}, {"name": "a"}]}),
]


def test_player_facing_words() -> None:
    """What a player reads – labels, help, summaries, results, errors, assumptions – names no
    source line, file or machinery („Engine“, „Seed“, „JSON“); the citations stay in
    ``source``, the data's ``quelle`` and the code."""
    texts: list[str] = []
    for action in SYSTEM.actions:
        texts += player_texts(api.describe("aktionswuerfel", action))
    for action, params in PLAYER_CASES:
        texts += player_texts(run(action, params)["display"])
    for action, params in PLAYER_ERRORS:
        texts.append(error(action, params)["message"])
    texts += [a["text"] for a in load("aktionswuerfel").assumptions()]
    assert [t for t in texts if NOT_FOR_PLAYERS.search(t)] == []


def test_every_assumption_cites_its_source() -> None:
    """Each Annahme keeps its citation for maintainers in ``quelle`` next to ``text``."""
    data = load("aktionswuerfel")
    for found in data.assumptions():
        entry = data.content
        for part in found["key"].split("."):
            entry = entry[part]
        assert str(entry["quelle"]).startswith("003_3ac4060591b07c19.txt L"), found["key"]


def test_when_repeats_the_conditions_it_depends_on() -> None:
    """The form reads a hidden field's value as it stands: a field whose ``when`` names another
    field with a ``when`` of its own repeats that one, so it hides with it."""
    for action in SYSTEM.actions:
        schema = fields(action)
        for name, field in schema.items():
            for other in field.get("when", {}):
                inherited = schema[other].get("when", {})
                assert inherited.items() <= field["when"].items(), (action, name, other)
