"""At the table: saved values („Meine Werte“), remembered helpers and shareable rolls.

The issues „At the table …“ (saved values across pages and reload, their file, share link →
identical result online and from file://, malformed links) and „A fight without retyping“
(every helper keeps its last input and result across reloads and pages, „Zurücksetzen“).
The helpers roll by the Ryssea rules (000_5fbfd0ad384a0921.txt L47–L82, L184–L226); what is
checked here is that the browser keeps and carries the values, not the rules themselves.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import api
from harness.browser import ENGINE_READY_MS
from tests.browser.conftest import (
    NEUTRAL_PAGE,
    Browsers,
    SharedVisit,
    Unzipped,
    navigate,
    review_screenshot,
    wait_engine_ready,
)
from tests.conftest import ROOT

pytestmark = pytest.mark.browser

KAMPFHELFER = "ryssea/kampfhelfer/"
RULE_PAGE = "ryssea/nahkampf-und-verteidigung/"
ATTACK = "section.rw-helper[data-action='attack']"


def fill_attack(helper: Any) -> None:
    helper.locator("[data-path='eig1']").fill("14")
    helper.locator("[data-path='taw']").fill("8")
    helper.locator("[data-path='damage']").fill("1W8+2")
    helper.locator("[data-path='verteidigung']").fill("17")


def save_as(helper: Any, name: str) -> None:
    helper.locator(".rw-values-save").first.click()
    helper.locator(".rw-values-notices input").fill(name)
    helper.get_by_role("button", name="Speichern", exact=True).click()
    helper.get_by_text(f"Gespeichert als „{name}“").wait_for()


def roll(helper: Any) -> str:
    helper.locator(".rw-submit").click()
    helper.locator(".rw-result .rw-share-copy").wait_for()
    return str(helper.locator(".rw-outcome").inner_text())


def test_saved_values_fill_forms_on_every_page_and_survive_a_reload(
    reader: SharedVisit,
) -> None:
    page = reader.arrive(KAMPFHELFER)
    attack = page.locator(ATTACK).first
    fill_attack(attack)
    save_as(attack, "Alrik – Langschwert")
    # another helper's own sets are its own: the fumble helper lists none
    fumble = page.locator("section.rw-helper[data-action='fumble']")
    assert fumble.locator(".rw-values-select").is_disabled()
    # the rule page (a link click; the reload below shows that the sets outlast the page):
    # one choice fills the form
    navigate(page, reader.site_url + RULE_PAGE)
    helper = page.locator(ATTACK).first
    helper.locator(".rw-reset").click()
    assert helper.locator("[data-path='eig1']").input_value() == "10"
    helper.locator(".rw-values-select").select_option(label="Alrik – Langschwert")
    assert helper.locator("[data-path='eig1']").input_value() == "14"
    assert helper.locator("[data-path='damage']").input_value() == "1W8+2"
    # overwriting asks first
    helper.locator("[data-path='taw']").fill("9")
    helper.locator(".rw-values-save").click()
    helper.locator(".rw-values-notices input").fill("Alrik – Langschwert")
    helper.get_by_role("button", name="Speichern", exact=True).click()
    helper.get_by_role("button", name="Ja, überschreiben").click()
    helper.get_by_text("Gespeichert als").wait_for()
    stored = json.loads(page.evaluate("localStorage.getItem('regelwerk:werte')"))
    assert [e["values"]["taw"] for e in stored["entries"]] == ["9"]
    # a field this helper no longer has is reported, and kept in the saved set
    stored["entries"][0]["values"]["alt_feld"] = 3
    page.evaluate("v => localStorage.setItem('regelwerk:werte', v)", json.dumps(stored))
    page.reload()
    wait_engine_ready(page)
    helper = page.locator(ATTACK).first
    helper.locator(".rw-values-select").select_option(label="Alrik – Langschwert")
    note = helper.locator(".rw-values-notices .rw-notice--error")
    assert "alt_feld" in note.inner_text()
    again = json.loads(page.evaluate("localStorage.getItem('regelwerk:werte')"))
    assert again["entries"][0]["values"]["alt_feld"] == 3


def test_the_tickleiste_adds_fighters_from_saved_values(reader: SharedVisit) -> None:
    page = reader.arrive(KAMPFHELFER)
    board = page.locator("section.rw-tickleiste")
    add = board.locator(".rw-tl-add")
    add.locator("[data-path='name']").fill("Bruna")
    add.locator("[data-path='ini']").fill("13")
    add.locator("[data-path='intuition']").fill("5")
    save_as(add, "Bruna")
    add.locator("[data-path='name']").fill("")
    add.locator(".rw-values-select").select_option(label="Bruna")
    assert add.locator("[data-path='ini']").input_value() == "13"
    board.get_by_role("button", name="Kämpfer hinzufügen").click()
    board.locator(".rw-tl-marker[data-name='Bruna']").wait_for()
    board = page.evaluate("window.Regelwerk.fight('ryssea').board")
    assert board["fighters"][0] | {"ini": 13, "intuition": 5} == board["fighters"][0]


def test_the_file_of_saved_values_is_checked_and_replaces_only_when_asked(
    reader: SharedVisit,
) -> None:
    page = reader.arrive(KAMPFHELFER)
    attack = page.locator(ATTACK).first
    fill_attack(attack)
    save_as(attack, "Alrik")
    navigate(page, reader.site_url + "meine-werte/")
    root = page.locator(".rw-werte-verwaltung")
    root.get_by_text("Ryssea: Angriff").wait_for()
    with page.expect_download() as download:
        root.get_by_role("button", name="Alle als Datei sichern").click()
    saved = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert saved["format"] == "regelwerk-werte" and saved["version"] == 1

    def load(name: str, content: bytes) -> Any:
        root.locator(".rw-werte-import").set_input_files(
            files=[{"name": name, "mimeType": "application/json", "buffer": content}]
        )
        return root.locator(".rw-werte-notices .rw-notice")

    # the file's every refusal is a unit test of saved.js (tests/js/saved.test.mjs); the page
    # shows one of them
    halb = json.dumps(saved | {"entries": [{"name": "x"}]}).encode()
    load("halb.json", halb).get_by_text("Eintrag 1").wait_for()
    changed = json.loads(json.dumps(saved))
    changed["entries"][0]["values"]["taw"] = "2"
    load("zurueck.json", json.dumps(changed).encode())
    root.get_by_role("button", name="Abbrechen").click()
    stored = json.loads(page.evaluate("localStorage.getItem('regelwerk:werte')"))
    assert stored["entries"][0]["values"]["taw"] == "8"
    load("zurueck.json", json.dumps(changed).encode())
    root.get_by_role("button", name="Ja, ersetzen").click()
    root.get_by_text("1 Einträge").wait_for()
    stored = json.loads(page.evaluate("localStorage.getItem('regelwerk:werte')"))
    assert stored["entries"][0]["values"]["taw"] == "2"
    # deleting offers undo
    root.get_by_role("button", name="Löschen").click()
    root.get_by_role("button", name="Rückgängig").click()
    root.locator(".rw-werte-name", has_text="Alrik").wait_for()


def test_a_helper_remembers_its_input_and_result_between_pages(reader: SharedVisit) -> None:
    page = reader.arrive(RULE_PAGE)
    helper = page.locator(ATTACK).first
    fill_attack(helper)
    outcome = roll(helper)
    navigate(page, reader.site_url + KAMPFHELFER)
    same = page.locator(ATTACK).first
    assert same.locator("[data-path='eig1']").input_value() == "14"
    assert same.locator(".rw-remembered").is_visible()
    assert same.locator(".rw-outcome").inner_text() == outcome
    # the Schildstoß helper on the rule page keeps its own purpose (its preset)
    navigate(page, reader.site_url + RULE_PAGE)
    shield = page.locator("#schildstoss-helfer")
    assert shield.locator("[data-path='angriffsart']").input_value() == "schildstoss"
    assert shield.locator("[data-path='eig1']").input_value() == "14"
    # „Zurücksetzen“ forgets, „Rückgängig“ brings it back
    helper = page.locator(ATTACK).first
    helper.locator(".rw-reset").click()
    assert helper.locator("[data-path='eig1']").input_value() == "10"
    assert helper.locator(".rw-outcome").count() == 0
    helper.get_by_role("button", name="Rückgängig").click()
    assert helper.locator("[data-path='eig1']").input_value() == "14"


def test_saving_in_two_tabs_keeps_both_sets(reader: SharedVisit) -> None:
    """Nothing is lost: a set saved in another tab is kept when this tab saves later (this tab
    read the list before; saved.js reads it again once the stored text has changed)."""
    first = reader.arrive(KAMPFHELFER)
    attack = first.locator(ATTACK).first
    assert attack.locator(".rw-values-select option").count() == 1  # „noch keine gespeichert“
    second = reader.context.new_page()
    try:
        second.goto(reader.site_url + KAMPFHELFER)
        wait_engine_ready(second)
        other = second.locator(ATTACK).first
        fill_attack(other)
        save_as(other, "Bruna")
    finally:
        second.close()
    fill_attack(attack)
    save_as(attack, "Alrik")
    stored = json.loads(first.evaluate("localStorage.getItem('regelwerk:werte')"))
    assert sorted(e["name"] for e in stored["entries"]) == ["Alrik", "Bruna"]
    assert attack.locator(".rw-values-select option", has_text="Bruna").count() == 1


def _cli(system: str, action: str, params: dict[str, Any], seed: str) -> dict[str, Any]:
    args = [sys.executable, "-m", "engine", system, action, "--json", "--seed", seed]
    args += ["--params", json.dumps(params, ensure_ascii=False)]
    out = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=False)
    return dict(json.loads(out.stdout))


SHOWN = """
(root) => ({
  outcome: root.querySelector(".rw-outcome").textContent,
  dice: [...root.querySelectorAll(".rw-die")].map((d) => d.textContent),
  seed: root.querySelector(".rw-seed").textContent,
})
"""


def test_a_shared_link_replays_the_same_roll_pasted_online_and_offline(
    reader: SharedVisit, browsers: Browsers, export: Unzipped
) -> None:
    """„Link kopieren“ puts a link of at most 300 characters into the clipboard that carries
    the values and the seed the CLI needs for the same result. Opened, it replays the same
    roll: pasted into the page already open, in a browser of its own, and from the offline
    export (file://).

    A reader who pastes a shared roll of the page already open into the address bar: the
    browser only changes the fragment (no load), and the roll is replayed all the same – on a
    page reached by a link, and on one loaded directly, where Material's instant navigation
    renders the page's content afresh for that first change of address. At phone width
    Material's anchor tracking has put the current section into the address again by the time
    the hashchange event arrives, so the link is read from the event."""
    page = reader.arrive(KAMPFHELFER, width=375)
    helper = page.locator(ATTACK).first
    fill_attack(helper)
    roll(helper)
    original = helper.locator(".rw-result").evaluate(SHOWN)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    helper.locator(".rw-share-copy").click()
    link = helper.locator(".rw-share-link").input_value()
    assert page.evaluate("navigator.clipboard.readText()") == link
    assert len(link) <= 300, link
    fragment = link.split("#", 1)[1]
    seed = re.search(r"/(\d+)/", fragment.split("ryssea.attack", 1)[1])
    assert seed
    # the same values and seed through the CLI give the result shown
    sent = json.loads(page.evaluate("localStorage.getItem('regelwerk:helfer:ryssea.attack')"))
    cli = _cli("ryssea", "attack", sent["values"], seed.group(1))
    assert cli["result"]["display"]["outcome"] == original["outcome"]

    def paste_and_replay() -> None:
        helper.locator(".rw-reset").click()
        assert helper.locator("[data-path='eig1']").input_value() == "10"
        page.goto(link)  # the same page: a fragment navigation
        helper.locator(".rw-replayed").wait_for(timeout=10_000)
        assert helper.locator(".rw-result").evaluate(SHOWN) == original
        assert helper.locator("[data-path='eig1']").input_value() == "14"

    paste_and_replay()  # reached by instant navigation
    page.goto(reader.site_url + KAMPFHELFER)  # loaded directly (no fragment: a full load)
    wait_engine_ready(page)
    paste_and_replay()
    # a link to a place in the page (the table of contents) is no shared roll
    page.goto(reader.site_url + KAMPFHELFER + "#angriff")
    assert page.locator(".rw-share-problem").count() == 0

    # another browser (nothing stored: the values come from the link), online, then the
    # offline export in the same browser (file://, an origin with storage of its own)
    other = browsers.page(375)
    try:
        for url in (link, export.url(KAMPFHELFER.rstrip("/") + ".html") + "#" + fragment):
            other.goto(url)
            shared = other.locator(ATTACK).first
            shared.locator(".rw-replayed").wait_for(timeout=ENGINE_READY_MS)
            shared.locator(".rw-result .rw-outcome").wait_for()
            assert shared.locator(".rw-result").evaluate(SHOWN) == original, url
            assert "Geteilter Wurf" in shared.locator(".rw-replayed").inner_text()
            if url == link:
                review_screenshot(shared, "geteilter-wurf-375.png")
    finally:
        other.context.close()


# Every refusal of the link's form is a unit test of share.js (tests/js/share.test.mjs and the
# property tests); the page shows one of them, and refuses a helper it does not have.
MALFORMED = [
    "wurf=1/x/ryssea.attack/keine-zahl/eig1=1",
    "wurf=1/x/gibtsnicht.attack/5/",
]


def test_a_malformed_link_gives_a_german_message_and_the_usual_form(reader: SharedVisit) -> None:
    """The first link opens the page (a load); the others are followed from another page of
    the visit (instant navigation: the same check of the address on arrival)."""
    for index, fragment in enumerate(MALFORMED):
        if index == 0:
            page = reader.arrive(KAMPFHELFER + "#" + fragment)
        else:
            navigate(page, reader.site_url + NEUTRAL_PAGE)
            navigate(page, reader.site_url + KAMPFHELFER + "#" + fragment)
        problem = page.locator(".rw-share-problem")
        problem.wait_for(timeout=ENGINE_READY_MS)
        assert problem.inner_text().startswith("Der geteilte Wurf lässt sich nicht öffnen:")
        assert page.locator(ATTACK).first.locator("[data-path='eig1']").input_value() == "10"


def test_the_api_answers_like_the_cli_for_a_shared_roll() -> None:
    """The link carries exactly what the CLI needs: system, action, values, seed."""
    params = {"eig1": "14", "taw": "8", "damage": "1W8+2", "verteidigung": "17"}
    full = {p["name"]: p["default"] for p in api.describe("ryssea", "attack")["params"]}
    assert _cli("ryssea", "attack", full | params, "4711") == api.run(
        "ryssea", "attack", full | params, 4711
    )
