"""Old names keep working where readers keep them (issue 27 item 6, CONTRIBUTING.md „Namen“).

A field the engine renamed (``Param.formerly``: Ryssea's „schaden“ is „damage“, „modifikator“
„modifier“, DSA's „schaden“ „damage“ …) is still read under its old name from what a browser
kept before the update: the remembered input of a helper, a set of „Meine Werte“, a share link
and a stored fight; a Tickleiste file from before opens too. The map of old to new names
comes from the engine (the helper's ``data-formerly``, site_plugins/forms.py
``former_names``), never from a list of the browser code. The rules rolled are Ryssea's
(000_5fbfd0ad384a0921.txt L184–L226) and DSA's (001_240b8e52c108db7c.txt); what is checked
is that a value under an old name arrives in the renamed field.
"""

from __future__ import annotations

import json

import pytest

from engine import api
from harness.browser import ENGINE_READY_MS
from tests.browser.conftest import SharedVisit
from tests.conftest import ROOT

pytestmark = pytest.mark.browser

ATTACK = "section.rw-helper[data-action='attack']"
FIXTURE = ROOT / "tests" / "fixtures" / "tickleiste-vor-der-umbenennung.json"


def former_names(system: str) -> dict[str, str]:
    """Old name → new, from the engine's schemas (what the page gets from the build)."""
    out: dict[str, str] = {}
    for action in next(s for s in api.catalog()["systems"] if s["name"] == system)["actions"]:
        for field in api.describe(system, action["name"])["params"]:
            for one in (field, *field.get("item", [])):
                out.update(dict.fromkeys(one.get("formerly", []), one["name"]))
    return out


def test_the_page_has_the_engines_map_of_old_names(reader: SharedVisit) -> None:
    page = reader.arrive("ryssea/kampfhelfer/")
    shown = page.locator(ATTACK).first.get_attribute("data-formerly")
    assert json.loads(shown or "{}") == former_names("ryssea")
    assert former_names("ryssea")["schaden"] == "damage"


def test_remembered_input_and_saved_values_under_an_old_name_fill_the_renamed_field(
    reader: SharedVisit,
) -> None:
    """localStorage from before the update: the attack's last input (remember.js, kept under
    „schaden“, „modifikator“) and a set of „Meine Werte“ (saved.js) fill „damage“ and
    „modifier“; nothing is reported as unknown."""
    remembered = {"version": 1, "values": {"eig1": "14", "schaden": "1W8+2", "modifikator": "3"}}
    sets = {
        "version": 1,
        "entries": [
            {
                "id": "alt-1",
                "name": "Alrik – von früher",
                "system": "ryssea",
                "action": "attack",
                "values": {"eig1": "15", "schaden": "1W10+1", "modifikator": "-2"},
                "saved": "2026-11-30T20:00:00.000Z",
            }
        ],
    }
    page = reader.arrive(
        "ryssea/kampfhelfer/",
        {
            "regelwerk:helfer:ryssea.attack": json.dumps(remembered),
            "regelwerk:werte": json.dumps(sets),
        },
    )
    helper = page.locator(ATTACK).first
    assert helper.locator("[data-path='damage']").input_value() == "1W8+2"
    assert helper.locator("[data-path='modifier']").input_value() == "3"
    assert helper.locator("[data-path='eig1']").input_value() == "14"
    helper.locator(".rw-values-select").select_option(label="Alrik – von früher")
    assert helper.locator("[data-path='damage']").input_value() == "1W10+1"
    assert helper.locator("[data-path='modifier']").input_value() == "-2"
    assert "Nicht übernommen" not in helper.inner_text()


def test_a_share_link_from_before_the_rename_replays_the_same_roll(reader: SharedVisit) -> None:
    """A link copied before the update („…;schaden=1W8%2B2;modifikator=2“) fills the renamed
    fields and rolls what the engine rolls with the new names and that Wurfnummer."""
    old = {"eig1": "14", "taw": "8", "schaden": "1W8+2", "modifikator": "2", "verteidigung": "17"}
    values = ";".join(f"{k}={v.replace('+', '%2B')}" for k, v in old.items())
    page = reader.arrive("ryssea/kampfhelfer/")
    link = f"#wurf=1/a1b2c3/ryssea.attack/4242/{values}"
    page.evaluate("hash => { location.hash = hash; }", link)
    helper = page.locator(ATTACK).first
    helper.locator(".rw-replayed").wait_for(timeout=ENGINE_READY_MS)
    assert "Nicht übernommen" not in helper.locator(".rw-replayed").inner_text()
    assert helper.locator("[data-path='damage']").input_value() == "1W8+2"
    full = {p["name"]: p["default"] for p in api.describe("ryssea", "attack")["params"]}
    new = {former_names("ryssea").get(k, k): v for k, v in old.items()}
    expected = api.run("ryssea", "attack", full | new, 4242)
    assert expected["ok"], expected
    shown = helper.locator(".rw-result .rw-outcome").inner_text()
    assert shown == expected["result"]["display"]["outcome"]
    # the old „modifikator“ arrived too: the talent roll lists „Sonstige Modifikatoren +2“
    text = helper.locator(".rw-result").inner_text()
    assert "Sonstige Modifikatoren" in text and "+2" in text


def _fight_from_before() -> str:
    """A DSA fight stored before the update: Alrik's attack values under „schaden“ and
    „entfernung“ and his „Schaden und Wunden“ under „tp“ in the fight's base, a later step
    that typed „schaden“ again."""
    fighters = {
        "Alrik": {
            "actions": {
                "attack": {"wert": "15", "schaden": "1W6+5"},
                "damage": {"tp": "1W6+3", "zusatz": "2"},
            },
            "stats": {},
            "state": None,
            "side": "Helden",
        },
        "Ork": {"actions": {}, "stats": {"ziel_rs": "3"}, "state": None, "side": "Gegner"},
    }
    turns = [{"name": "Alrik", "label": "Alrik"}, {"name": "Ork", "label": "Ork"}]
    base = {
        "fighters": fighters,
        "actor": "Alrik",
        "target": "Ork",
        "turns": turns,
        "turn": 0,
        "round": 1,
        "board": None,
    }
    step = {
        "label": "Werte von Alrik",
        "event": {
            "type": "values",
            "fighter": "Alrik",
            "action": "attack",
            "values": {"schaden": "2W6+1"},
        },
    }
    return json.dumps({"version": 2, "base": base, "steps": [step], "redo": []})


def test_a_stored_fight_from_before_the_rename_keeps_its_values(reader: SharedVisit) -> None:
    """fight-journal.js ``renamed``: the fight's values under an old name fill the renamed
    field of the fighter's helper (the step's newer value, not the base's), and the fight
    the page works with has only the new names."""
    page = reader.arrive("dsa/kampfhelfer/", {"regelwerk:kampf:dsa": _fight_from_before()})
    attack = page.locator(f".rw-workbench-tools {ATTACK}").first
    assert attack.locator("[data-path='damage']").input_value() == "2W6+1"
    assert attack.locator("[data-path='wert']").input_value() == "15"
    fight = page.evaluate("s => window.Regelwerk.fight(s)", "dsa")
    assert fight["fighters"]["Alrik"]["actions"]["attack"] == {"wert": "15", "damage": "2W6+1"}
    # „Schaden und Wunden“ kept the weapon's TP under „tp“ (renamed damage, as the attack's)
    assert fight["fighters"]["Alrik"]["actions"]["damage"] == {"damage": "1W6+3", "zusatz": "2"}


def test_a_tickleiste_file_from_before_the_rename_opens(reader: SharedVisit) -> None:
    """A board saved to a file before the update loads (tests/fixtures: three commands – two
    fighters added, „start“ – run with seed 11 through the engine of 48e1daf, the commit
    before the rename, in the file form of tickleiste-state.js ``fileText``):
    its fighters and their ticks are the board's. No key of the board was renamed; the
    engine reads its fighters' values through the same ``formerly`` of the Tickleiste's
    fields (tickleiste_board.py), so a later rename keeps such files working."""
    saved = json.loads(FIXTURE.read_text(encoding="utf-8"))
    page = reader.arrive("ryssea/kampfbeginn-und-initiative/")
    helper = page.locator(".rw-tickleiste")
    helper.locator(".rw-tl-import").set_input_files(
        files=[
            {
                "name": FIXTURE.name,
                "mimeType": "application/json",
                "buffer": FIXTURE.read_bytes(),
            }
        ]
    )
    helper.locator(".rw-tl-notices").get_by_text("geladen").wait_for()
    board = page.evaluate("window.Regelwerk.fight('ryssea').board")
    assert board == saved["state"]
    for fighter in saved["state"]["fighters"]:
        assert helper.locator(f".rw-tl-marker[data-name='{fighter['name']}']").count() == 1
