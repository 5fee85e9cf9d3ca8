"""The Ryssea Tickleiste in the browser: add, roll, act, reload — nothing is lost.

Rules: 000_5fbfd0ad384a0921.txt L17–L25 (start fields and ties), L27–L33 (late joining,
Abwarten, Bereithalten), L126–L130 (reactions), durations from tabellen.handlungsdauern
(e.g. Aktive Abwehr 4 Ticks, L245).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import api
from tests.browser.conftest import wait_engine_ready

pytestmark = pytest.mark.browser

PAGE = "ryssea/kampfbeginn-und-initiative/"
SEED = 11
FIGHTERS = [
    {"name": "Alrik", "ini": "12", "intuition": "4", "modifier": "0", "surprised": False},
    {"name": "Bruna", "ini": "10", "intuition": "3", "modifier": "1", "surprised": False},
    {"name": "Cim", "ini": "10", "intuition": "3", "modifier": "0", "surprised": True},
    {"name": "Dora", "ini": "8", "intuition": "6", "modifier": "-1", "surprised": False},
]


def rows(helper: Any) -> list[list[str]]:
    return helper.locator(".rw-result tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
    )


def replay(commands: list[dict[str, Any]]) -> dict[str, Any]:
    """The same commands through the engine's JSON boundary, as the CLI would run them."""
    state: dict[str, Any] = {}
    result: dict[str, Any] = {}
    for params in commands:
        answer = api.run("ryssea", "tickleiste", {**params, "state": state}, SEED)
        assert answer["ok"], answer
        result = answer["result"]
        state = result["state"]
    return result


def test_add_roll_act_reload_keeps_the_state(page: Any, site_url: str) -> None:
    page.goto(site_url + PAGE)
    wait_engine_ready(page)
    helper = page.locator(".rw-tickleiste")
    helper.locator("summary", has_text="Seed").click()
    helper.locator("[data-path='seed']").fill(str(SEED))
    commands: list[dict[str, Any]] = []
    for fighter in FIGHTERS:
        for key in ("name", "ini", "intuition", "modifier"):
            helper.locator(f"[data-path='{key}']").fill(fighter[key])
        helper.locator("[data-path='surprised']").set_checked(fighter["surprised"])
        helper.get_by_role("button", name="Kämpfer hinzufügen").click()
        helper.locator(".rw-result").get_by_text(f"{fighter['name']} wartet").first.wait_for()
        commands.append({"command": "hinzufuegen", **fighter})
    helper.get_by_role("button", name="Kampf beginnen (Initiative würfeln)").click()
    helper.locator(".rw-result table").wait_for()
    commands.append({"command": "start"})

    def act(action: str, ticks: str, fighter: str | None = None) -> None:
        select = helper.locator("select[data-path='fighter']")
        if fighter:
            select.select_option(fighter)
        who = select.input_value()
        helper.locator("select[data-path='action']").select_option(action)
        helper.locator("[data-path='ticks']").fill(ticks)
        before = helper.locator(".rw-result").inner_text()
        helper.get_by_role("button", name="Handlung ausführen").click()
        page.wait_for_function(
            "before => document.querySelector('.rw-tickleiste .rw-result').innerText !== before",
            arg=before,
        )
        commands.append(
            {
                "command": "handeln",
                "fighter": who,
                "action": action,
                "ticks": ticks,
                "free_movement": False,
            }
        )

    act("nahkampfangriff", "5")  # the next fighter attacks with weapon speed 5
    act("gegenstand_einfach", "0")  # then the next one uses an item (5 ticks)
    # a reaction out of turn: Aktive Abwehr (4 ticks) by whoever is last on the line
    last = rows(helper)[-1][1]
    act("aktive_abwehr", "0", fighter=last)

    shown = rows(helper)
    expected = replay(commands)
    table = next(s for s in expected["display"]["sections"] if s["kind"] == "table")
    assert shown == table["rows"]
    stored = page.evaluate("localStorage.getItem('regelwerk:tickleiste:ryssea')")
    assert json.loads(stored)["state"] == expected["state"]

    page.reload()
    helper = page.locator(".rw-tickleiste")
    helper.locator(".rw-result table").wait_for()
    assert rows(helper) == shown  # shown straight from storage, before the engine is ready
    wait_engine_ready(page)
    options = helper.locator("select[data-path='fighter'] option").evaluate_all(
        "os => os.map(o => o.value)"
    )
    assert sorted(options) == sorted(f["name"] for f in FIGHTERS)
    assert helper.locator("select[data-path='fighter']").input_value() == shown[0][1]


def test_out_of_turn_action_and_import_errors_are_german(page: Any, site_url: str) -> None:
    page.goto(site_url + PAGE)
    wait_engine_ready(page)
    helper = page.locator(".rw-tickleiste")
    for name, ini in (("Ena", "15"), ("Olf", "1")):
        helper.locator("[data-path='name']").fill(name)
        helper.locator("[data-path='ini']").fill(ini)
        helper.get_by_role("button", name="Kämpfer hinzufügen").click()
        helper.locator(".rw-result").get_by_text(f"{name} wartet").first.wait_for()
    helper.get_by_role("button", name="Kampf beginnen (Initiative würfeln)").click()
    helper.locator(".rw-result table").wait_for()
    helper.locator("select[data-path='fighter']").select_option("Olf")
    helper.locator("select[data-path='action']").select_option("nahkampfangriff")
    helper.locator("[data-path='ticks']").fill("4")
    helper.get_by_role("button", name="Handlung ausführen").click()
    error = helper.locator("#helfer-ryssea-tickleiste-action-fehler")
    error.wait_for()
    assert "ist am Zug" in error.inner_text()
    # a broken file is refused with a message; the board stays as it was
    before = helper.locator(".rw-result table").inner_text()
    helper.locator(".rw-tl-import").set_input_files(
        files=[{"name": "kaputt.json", "mimeType": "application/json", "buffer": b"{nope"}]
    )
    helper.get_by_text("kein gültiges JSON").wait_for()
    assert helper.locator(".rw-result table").inner_text() == before
