"""The roll log („Wurfprotokoll dieser Seite“, log.js) and what a result without dice shows.

Issue 26 (a play-test of whole fights): „The roll log is empty after a reload and full of
Tickleiste moves whose „Wiederholen“ does nothing“ and „Wurfnummer and „Link kopieren“ on results
without dice“. Now the log is kept per page in the browser, holds rolls only (helpers and dice
buttons; the Tickleiste's moves: tests/browser/test_tickleiste.py), and „Wiederholen“ rolls an
entry again with its Wurfnummer after a reload too – the same result.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

import pytest

from engine import api
from tests.browser.conftest import SharedVisit, reveal, roll_seeded, wait_engine_ready

pytestmark = pytest.mark.browser

PAGE = "ryssea/nahkampf-und-verteidigung/"  # helpers with dice and dice buttons in the text
NO_DICE_PAGE = "ryssea/weitere-handlungen/"  # Atemholen: „Kein Wurf nötig“
HELPER = "#helfer-ryssea-dodge_jump"
COLLECT = "(helper) => window.Regelwerk.collect(helper)"


def log_key(reader: SharedVisit, path: str) -> str:
    return f"regelwerk:wurfprotokoll:{urlsplit(reader.site_url).path}{path}"


def log_items(page: Any) -> list[str]:
    return page.locator("#rw-page-log li").evaluate_all("els => els.map((e) => e.innerText)")


def test_the_log_survives_a_reload_and_repeats_with_the_same_wurfnummer(
    reader: SharedVisit,
) -> None:
    """Roll a helper and a dice button, reload: both entries are there, and „Wiederholen“
    rolls the helper's entry again into its helper – same Wurfnummer, same result (the
    engine's for the logged params) – and the dice button's under its entry."""
    page = reader.arrive(PAGE)
    helper = reveal(page.locator(HELPER))
    roll_seeded(helper, 4242)
    params = helper.evaluate(COLLECT)
    expected = api.run("ryssea", "dodge_jump", params, 4242)["result"]["display"]
    page.get_by_role("button", name="1W6+1", exact=True).click()
    popover = page.get_by_role("dialog", name="Würfelergebnis")
    popover.locator(".rw-seed").wait_for()
    dice_seed = int(popover.locator(".rw-seed").inner_text().removeprefix("Wurfnummer "))
    page.keyboard.press("Escape")
    assert len(log_items(page)) == 2

    page.reload()
    wait_engine_ready(page)
    items = log_items(page)
    assert len(items) == 2, items
    assert f"(Wurfnummer {dice_seed})" in items[0] and "(Wurfnummer 4242)" in items[1]
    assert expected["outcome"] in items[1]

    # the helper's entry: into its helper, as a repeat (not logged again)
    helper = page.locator(HELPER)
    entry = page.locator("#rw-page-log li").nth(1)
    entry.get_by_role("button", name="Wiederholen").click()
    helper.locator(".rw-replayed", has_text="Wurfnummer 4242").wait_for()
    result = helper.locator(".rw-result")
    assert result.locator(".rw-seed").inner_text() == "Wurfnummer 4242"
    assert result.locator(".rw-outcome").inner_text() == expected["outcome"]
    assert len(log_items(page)) == 2

    # the dice button's entry after a reload: the repeat is shown under the entry
    dice_entry = page.locator("#rw-page-log li").first
    dice_entry.get_by_role("button", name="Wiederholen").click()
    repeated = dice_entry.locator(".rw-log-repeat .rw-seed")
    repeated.wait_for()
    assert repeated.inner_text() == f"Wurfnummer {dice_seed}"
    wanted = api.run("allgemein", "wurf", {"notation": "1W6+1", "mode": "normal"}, dice_seed)
    outcome = dice_entry.locator(".rw-log-repeat .rw-outcome").inner_text()
    assert outcome == wanted["result"]["display"]["outcome"]


def test_a_result_without_dice_shows_no_wurfnummer_no_link_and_is_not_logged(
    reader: SharedVisit,
) -> None:
    """Atemholen (000 L261: „heilt er am Ende der kontinuierlichen Aktion 10 + Konstitution
    Punkte Betäubungsschaden“) rolls nothing: no Wurfnummer, no „Link kopieren“, no log entry;
    the Zusammenarbeit beside it rolls and has all three."""
    page = reader.arrive(NO_DICE_PAGE)
    breath = reveal(page.locator("#helfer-ryssea-catch_breath"))
    roll_seeded(breath, 11)
    assert breath.locator(".rw-result .rw-headline").count() == 1
    assert breath.locator(".rw-result .rw-seed").count() == 0
    assert breath.locator(".rw-result .rw-share-copy").count() == 0
    assert log_items(page) == []
    teamwork = reveal(page.locator("#helfer-ryssea-teamwork"))
    roll_seeded(teamwork, 12)
    assert teamwork.locator(".rw-result .rw-seed").inner_text() == "Wurfnummer 12"
    assert teamwork.locator(".rw-result .rw-share-copy").count() == 1
    assert len(log_items(page)) == 1


def test_clearing_the_log_asks_first_and_can_be_undone(reader: SharedVisit) -> None:
    page = reader.arrive(PAGE)
    helper = reveal(page.locator(HELPER))
    for seed in (1, 2, 3):
        roll_seeded(helper, seed)
    log = page.locator("#rw-page-log")
    log.get_by_role("button", name="Protokoll leeren").click()
    log.get_by_role("button", name="Abbrechen").click()
    assert len(log_items(page)) == 3
    log.get_by_role("button", name="Protokoll leeren").click()
    log.get_by_role("alertdialog").get_by_text("3 Würfe").wait_for()
    log.get_by_role("button", name="Ja, leeren").click()
    assert log_items(page) == []
    assert page.evaluate("key => localStorage.getItem(key)", log_key(reader, PAGE)) is None
    log.get_by_role("button", name="Rückgängig").click()
    assert [item.split("(Wurfnummer ")[1][:1] for item in log_items(page)] == ["3", "2", "1"]
    stored = json.loads(page.evaluate("key => localStorage.getItem(key)", log_key(reader, PAGE)))
    assert [entry["seed"] for entry in stored["entries"]] == ["3", "2", "1"]


def test_a_stored_log_of_another_shape_is_set_aside_not_a_crash(reader: SharedVisit) -> None:
    """store.js's rule: what cannot be used is kept as the backup and reported, never lost and
    never a crash (page_errors fails the test on any error); the log starts empty."""
    key = log_key(reader, PAGE)
    broken = json.dumps({"version": 1, "entries": [{"seed": "x"}]})
    page = reader.arrive(PAGE, {key: broken})
    assert log_items(page) == []
    backup = page.evaluate(
        "key => localStorage.getItem(key)", key.replace("regelwerk:", "regelwerk:sicherung:")
    )
    assert json.loads(backup)["raw"] == broken
    helper = reveal(page.locator(HELPER))
    roll_seeded(helper, 7)
    assert len(log_items(page)) == 1
    stored = json.loads(page.evaluate("key => localStorage.getItem(key)", key))
    assert [entry["seed"] for entry in stored["entries"]] == ["7"]
