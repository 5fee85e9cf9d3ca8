"""The Ryssea Tickleiste in the browser: a time line, and nothing is lost.

Rules: 000_5fbfd0ad384a0921.txt L9–L15 (the Zeitstrahl), L17–L25 (start fields; markers on
one field stacked from the inside out in arrival order; ties), L27–L33 (late joining,
Abwarten-Feld in the middle, Bereithalten), L126–L130 (reactions), durations from
tabellen.handlungsdauern (e.g. Aktive Abwehr 4 Ticks, L245).

Reliability (the „Nothing lost, nothing stuck“ issue): one checked path per command, corrupt
storage set aside with a notice and a working board, undo across reloads, asking before a
board is replaced, replays with the logged seed, versioned files, a refused save reported.

The tests share one booted page (``reader``, conftest's SharedVisit): each arrives at the page
with the storage it asks for, by instant navigation – corrupt storage too, which the board
reads on every arrival, as on a load.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine import api
from tests.browser.conftest import SharedVisit, wait_engine_ready

pytestmark = pytest.mark.browser

PAGE = "ryssea/kampfbeginn-und-initiative/"
KEY = "regelwerk:tickleiste:ryssea"
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


def stored(page: Any) -> dict[str, Any]:
    """The board as the fight keeps it (the one copy: the fight store, fight/store.js)."""
    return {"state": page.evaluate("window.Regelwerk.fight('ryssea').board || {}")}


def open_board(page: Any) -> Any:
    """The board on ``page`` (arrived at PAGE), with the fixed seed under „Wurf wiederholen“."""
    helper = page.locator(".rw-tickleiste")
    helper.locator("summary", has_text="Wurf wiederholen").click()
    helper.locator("[data-path='seed']").fill(str(SEED))
    return helper


def add(helper: Any, fighter: dict[str, Any]) -> None:
    for key in ("name", "ini", "intuition", "modifier"):
        helper.locator(f"[data-path='{key}']").fill(fighter[key])
    helper.locator("[data-path='surprised']").set_checked(fighter["surprised"])
    helper.get_by_role("button", name="Kämpfer hinzufügen").click()
    helper.locator(f".rw-tl-marker[data-name='{fighter['name']}']").wait_for()


def start(helper: Any) -> None:
    helper.get_by_role("button", name="Kampf beginnen (Initiative würfeln)").click()
    helper.locator(".rw-tl-field--now").wait_for()


def act(helper: Any, action: str, ticks: str, fighter: str | None = None) -> str:
    select = helper.locator("select[data-path='fighter']")
    if fighter:
        select.select_option(fighter)
    who = str(select.input_value())
    helper.locator("select[data-path='action']").select_option(action)
    helper.locator("[data-path='ticks']").fill(ticks)
    before = helper.locator(".rw-result").inner_text()
    helper.get_by_role("button", name="Handlung ausführen").click()
    helper.page.wait_for_function(
        "before => document.querySelector('.rw-tickleiste .rw-result').innerText !== before",
        arg=before,
        polling=100,
    )
    return who


def board_with_fighters(page: Any, fighters: list[dict[str, Any]]) -> Any:
    helper = open_board(page)
    for fighter in fighters:
        add(helper, fighter)
    start(helper)
    return helper


def test_add_roll_act_reload_keeps_the_state_and_its_undo(reader: SharedVisit) -> None:
    """One board through a reload: what it shows and stores is the engine's (replayed on
    CPython); the moves are steps of the fight, not rolls of the page's roll log (issue 26);
    after the reload the board is drawn from storage and its last move can be undone and
    redone; starting anew and removing a fighter ask first. (One visit for what were three
    tests, each building its board anew – the reload is the one that matters.)"""
    page = reader.arrive(PAGE)
    helper = board_with_fighters(page, FIGHTERS)
    commands: list[dict[str, Any]] = [{"command": "hinzufuegen", **f} for f in FIGHTERS]
    commands.append({"command": "start"})
    before_last: dict[str, Any] = {}
    for action, ticks, fighter in (
        ("nahkampfangriff", "5", None),  # the next fighter attacks with weapon speed 5
        ("gegenstand_einfach", "0", None),  # then the next one uses an item (5 ticks)
        ("aktive_abwehr", "0", "last"),  # a reaction out of turn by the last on the line
    ):
        last = rows(helper)[-1][1] if fighter == "last" else None
        before_last = stored(page)["state"]
        who = act(helper, action, ticks, last)
        commands.append(
            {"command": "handeln", "fighter": who, "action": action, "ticks": ticks}
            | {"free_movement": False}
        )
        # action-specific values go back to their defaults for the next fighter
        assert helper.locator("select[data-path='action']").input_value() == "nahkampfangriff"
        assert helper.locator("[data-path='ticks']").input_value() == "0"

    shown = rows(helper)
    expected = replay(commands)
    table = next(s for s in expected["display"]["sections"] if s["kind"] == "table")
    assert shown == table["rows"]
    assert stored(page)["state"] == expected["state"]
    # the board is kept once, as the fight's (issue #48: no second stored copy); beside it only
    # the engine's last picture of that very board, without an echo of the request
    picture = json.loads(page.evaluate("localStorage.getItem('regelwerk:tickleiste-bild:ryssea')"))
    assert picture["key"]["board"] == expected["state"]
    assert "params" not in json.dumps(picture)
    assert page.evaluate("localStorage.getItem('regelwerk:tickleiste:ryssea')") is None
    # every command is a step of the fight, named by what it did (the one undo)
    steps = json.loads(page.evaluate("localStorage.getItem('regelwerk:kampf:ryssea')"))["steps"]
    assert [s["label"].startswith("Tickleiste: ") for s in steps] == [True] * len(commands)
    assert any("Nahkampfangriff" in s["label"] for s in steps), "the moves were made"
    # Issue 26: the roll log was „full of Tickleiste moves whose „Wiederholen“ does nothing“ –
    # a move is not a roll; issue #48: the Kampfbeginn rolls the initiative (000 L17–L21), and
    # „the roll log … includes every roll that used dice“: it is the one entry
    entries = page.locator("#rw-page-log li").all_inner_texts()
    assert len(entries) == 1, entries
    assert entries[0].startswith("Tickleiste: ") and "Wurfnummer 11" in entries[0], entries

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

    # undo survives the reload: the last move (the Aktive Abwehr) is taken back, and redone
    undo = helper.get_by_role("button", name="Rückgängig")
    assert undo.get_attribute("title") == f"Rückgängig: Tickleiste: {expected['event']}"
    undo.click()
    helper.locator(".rw-tl-notices").get_by_text("Rückgängig gemacht").wait_for()
    assert stored(page)["state"] == before_last
    helper.get_by_role("button", name="Wiederherstellen").click()
    helper.locator(".rw-tl-notices").get_by_text("Wiederhergestellt").wait_for()
    assert stored(page)["state"] == expected["state"]
    # starting anew asks; „Abbrechen“ keeps the board, „Ja“ empties it, undo brings it back
    full = stored(page)["state"]
    helper.get_by_role("button", name="Neu beginnen …").click()
    helper.get_by_role("button", name="Abbrechen").click()
    assert stored(page)["state"] == full
    helper.get_by_role("button", name="Neu beginnen …").click()
    helper.get_by_role("button", name="Ja, ersetzen").click()
    helper.locator(".rw-tl-notices").get_by_text("Die Tickleiste ist leer.").wait_for()
    assert stored(page)["state"]["fighters"] == []
    helper.get_by_role("button", name="Rückgängig").click()
    helper.locator(".rw-tl-notices").get_by_text("Rückgängig gemacht").wait_for()
    assert stored(page)["state"] == full
    # removing a fighter asks too
    helper.locator(".rw-tl-strip .rw-tl-marker").first.click()
    helper.get_by_role("button", name="Kämpfer entfernen …").click()
    helper.get_by_role("button", name="Ja, entfernen").click()
    helper.locator(".rw-result").get_by_text("verlässt den Kampf").first.wait_for()
    assert len(stored(page)["state"]["fighters"]) == len(FIGHTERS) - 1


def test_the_time_line_draws_the_engine_state(reader: SharedVisit) -> None:
    """Fields in acting order from the current tick, markers stacked in arrival order (L23),
    the next actor marked, the Abwarten-Feld (L31); a marker selects its fighter; a fighter
    out of turn cannot act (one board for what were two tests)."""
    page = reader.arrive(PAGE)
    helper = board_with_fighters(page, FIGHTERS)
    act(helper, "nahkampfangriff", "3")
    waiting = str(helper.locator("select[data-path='fighter']").input_value())
    helper.get_by_role("button", name="Abwarten").click()
    helper.locator(f".rw-tl-side .rw-tl-marker[data-name='{waiting}']").wait_for()
    state = stored(page)["state"]
    on_line = sorted(
        (f for f in state["fighters"] if f["status"] == "aktiv"),
        key=lambda f: (f["tick"], f["order"]),
    )
    drawn = helper.locator(".rw-tl-strip .rw-tl-marker").evaluate_all(
        "ms => ms.map(m => [m.dataset.name, Number(m.closest('.rw-tl-field').dataset.tick)])"
    )
    assert drawn == [[f["name"], f["tick"]] for f in on_line]
    now = helper.locator(".rw-tl-field--now")
    assert now.get_attribute("data-tick") == str(on_line[0]["tick"])
    first = helper.locator(".rw-tl-marker--next")
    assert first.get_attribute("data-name") == on_line[0]["name"]
    assert "am Zug" in str(first.get_attribute("aria-label"))
    # a marker selects its fighter; the arrow keys walk the markers (one tab stop)
    target = on_line[-1]["name"]
    helper.locator(f".rw-tl-strip .rw-tl-marker[data-name='{target}']").click()
    assert helper.locator("select[data-path='fighter']").input_value() == target
    assert (
        helper.locator(f".rw-tl-marker[data-name='{target}']").get_attribute("aria-pressed")
        == "true"
    )
    helper.locator(f".rw-tl-marker[data-name='{target}']").press("Home")
    focused = page.evaluate("document.activeElement.dataset.name")
    assert focused == on_line[0]["name"]
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    assert helper.locator("select[data-path='fighter']").input_value() == on_line[1]["name"]
    assert helper.locator(".rw-tl-marker[tabindex='0']").count() == 1
    # an action of the last on the line, not am Zug, is refused in German (L128: „Die meisten
    # Handlungen sind Aktionen, die nur ausgeführt werden können, wenn ein Abenteurer gerade am
    # Zug ist“)
    assert on_line[-1]["tick"] > on_line[0]["tick"], on_line
    helper.locator("select[data-path='fighter']").select_option(on_line[-1]["name"])
    helper.locator("select[data-path='action']").select_option("nahkampfangriff")
    helper.locator("[data-path='ticks']").fill("4")
    helper.get_by_role("button", name="Handlung ausführen").click()
    error = helper.locator("#helfer-ryssea-tickleiste-action-fehler")
    error.wait_for()
    assert "ist am Zug" in error.inner_text()


def test_time_line_at_375_px_scrolls_inside_with_20_fighters(reader: SharedVisit) -> None:
    state = {"version": 1, "started": True, "seq": 20, "log": [], "fighters": []}
    for index in range(20):
        state["fighters"].append(
            {"name": f"Kämpfer {index + 1}", "ini": 10, "intuition": 3, "modifier": 0}
            | {"surprised": False, "status": "aktiv", "tick": (index * 3) % 60, "order": index}
        )
    answer = api.run("ryssea", "tickleiste", {"command": "anzeigen", "state": state}, 1)
    assert answer["ok"], answer
    page = reader.arrive(PAGE, {KEY: json.dumps({"state": state})}, width=375)
    helper = page.locator(".rw-tickleiste")
    helper.locator(".rw-tl-marker[data-name='Kämpfer 20']").wait_for(state="attached")
    assert helper.locator(".rw-tl-strip .rw-tl-marker").count() == 20
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    wrap = helper.locator(".rw-tl-strip-wrap")
    assert wrap.evaluate("w => w.scrollWidth > w.clientWidth")
    first = helper.locator(".rw-tl-marker--next")
    box, frame = first.bounding_box(), wrap.bounding_box()
    assert box and frame and frame["x"] <= box["x"] <= frame["x"] + frame["width"]


# (a stored display without its display takes the page's path of "unreadable": a unit test of
# tickleiste-state.js, tests/js/tickleiste-state.test.mjs)
CORRUPT = {
    "unreadable": "{kein json",
    "wrong-shape": json.dumps({"state": {"fighters": "x"}}),
    "null-fighter": json.dumps({"state": {"version": 1, "fighters": [None]}}),
    "huge-tick": json.dumps(
        {
            "state": {
                "version": 1,
                "started": True,
                "fighters": [
                    {
                        "name": "A",
                        "ini": 1,
                        "intuition": 1,
                        "modifier": 0,
                        "surprised": False,
                        "status": "aktiv",
                        "tick": 10**9,
                        "order": 1,
                    }
                ],
            }
        }
    ),
}


@pytest.mark.parametrize("raw", CORRUPT.values(), ids=list(CORRUPT))
def test_corrupt_storage_is_set_aside_and_the_board_works(reader: SharedVisit, raw: str) -> None:
    page = reader.arrive(PAGE, {KEY: raw})
    helper = page.locator(".rw-tickleiste")
    notice = helper.locator(".rw-tl-notices .rw-notice--error")
    notice.wait_for()
    assert "Sicherung" in notice.inner_text()
    backup = page.evaluate("localStorage.getItem('regelwerk:sicherung:tickleiste:ryssea')")
    assert json.loads(backup)["raw"] == raw
    with page.expect_download() as download:
        notice.get_by_role("button", name="Sicherung herunterladen").click()
    assert download.value.suggested_filename == "tickleiste-sicherung.json"
    # the board works: a fighter can be added, the form never submits natively
    url = page.url.split("#")[0]  # (Material's navigation.tracking changes the hash)
    add(helper, FIGHTERS[0])
    assert page.url.split("#")[0] == url
    assert [f["name"] for f in stored(page)["state"]["fighters"]] == ["Alrik"]


def test_files_are_versioned_checked_and_replace_only_when_asked(reader: SharedVisit) -> None:
    page = reader.arrive(PAGE)
    helper = board_with_fighters(page, FIGHTERS[:2])
    with page.expect_download() as download:
        helper.get_by_role("button", name="Als Datei sichern").click()
    saved = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert saved["format"] == "regelwerk-tickleiste" and saved["version"] == 1
    assert saved["state"] == stored(page)["state"]
    board = stored(page)["state"]

    def load(name: str, content: bytes) -> Any:
        helper.locator(".rw-tl-import").set_input_files(
            files=[{"name": name, "mimeType": "application/json", "buffer": content}]
        )
        return helper.locator(".rw-tl-notices .rw-notice")

    # every refusal of the file's form (not JSON, other format or version, no state, too deep,
    # too big) is a unit test of tickleiste-state.js and store.js (tests/js/); here the page
    # shows one of them, and the engine refuses a state of the right form
    bad = {
        "kaputt.json": (b"{nope", "Inhalt ist beschädigt"),
        "gross.json": (b" " * 300_000, "zu groß"),
        "fremd.json": (
            json.dumps(saved | {"state": {"version": 1, "fighters": [None]}}).encode(),
            "fighters.0",
        ),
    }
    for name, (content, message) in bad.items():
        notice = load(name, content)
        notice.get_by_text(message).wait_for()
        assert "Laden nicht möglich" in notice.inner_text(), name
        assert stored(page)["state"] == board, name
    # a good file on a board with fighters asks first
    other = dict(
        saved,
        state=replay([{"command": "hinzufuegen", "name": "Xena", "ini": 9, "intuition": 3}])[
            "state"
        ],
    )
    load("andere.json", json.dumps(other).encode())
    helper.get_by_role("button", name="Ja, ersetzen").click()
    helper.locator(".rw-tl-notices").get_by_text("geladen").wait_for()
    assert [f["name"] for f in stored(page)["state"]["fighters"]] == ["Xena"]
    helper.get_by_role("button", name="Rückgängig").click()
    helper.locator(".rw-tl-notices").get_by_text("Rückgängig gemacht").wait_for()
    assert stored(page)["state"] == board


def test_a_refused_save_says_so(reader: SharedVisit) -> None:
    """A browser that refuses the writes (a full storage): the page says so, the board works.
    On the shared visit, its writes refused from here on and allowed again at the end (the
    board writes on every command, store.js ``write``; a fresh browser with an init script
    only for this cost an engine boot)."""
    page = reader.arrive(PAGE)
    page.evaluate(
        """() => {
          const original = Storage.prototype.setItem;
          window.__rwSetItem = original;
          Storage.prototype.setItem = function (key, value) {
            if (key.startsWith("regelwerk:kampf")) {
              throw new DOMException("voll", "QuotaExceededError");
            }
            return original.call(this, key, value);
          };
        }"""
    )
    try:
        helper = open_board(page)
        add(helper, FIGHTERS[0])
        notice = helper.locator(".rw-tl-notices .rw-notice--error")
        notice.wait_for()
        assert "Nicht gespeichert" in notice.inner_text()
        assert page.evaluate("localStorage.getItem('regelwerk:kampf:ryssea')") is None
        # the board still works for this visit
        add(helper, FIGHTERS[1])
        assert helper.locator(".rw-tl-marker").count() == 2
    finally:
        page.evaluate("() => { Storage.prototype.setItem = window.__rwSetItem; }")
    # once the browser keeps things again, the next step stores the whole fight of this visit
    # (the window's fight store held it): nothing was lost
    add(helper, FIGHTERS[2])
    assert [f["name"] for f in stored(page)["state"]["fighters"]] == ["Alrik", "Bruna", "Cim"]
    assert page.evaluate("localStorage.getItem('regelwerk:kampf:ryssea')") is not None


def test_a_board_changed_in_another_tab_is_read_again_before_a_command(
    reader: SharedVisit,
) -> None:
    """Nothing lost: the rule page and the Kampfhelfer page both carry the board, and both are
    views of the one fight (fight.js). A step another tab made is shown here at once (the
    storage event); a command given here applies to the board as it now stands, never writes
    this tab's older board over the newer one."""
    page = reader.arrive(PAGE)
    here = open_board(page)
    add(here, FIGHTERS[0])
    other = reader.context.new_page()
    try:
        other.goto(reader.site_url + "ryssea/kampfhelfer/")
        wait_engine_ready(other)
        there = other.locator(".rw-tickleiste")
        there.locator(".rw-tl-marker[data-name='Alrik']").wait_for()
        add(there, FIGHTERS[1])
    finally:
        other.close()
    here.locator(".rw-tl-marker[data-name='Bruna']").wait_for()  # without a reload
    add(here, FIGHTERS[2])
    assert [f["name"] for f in stored(page)["state"]["fighters"]] == ["Alrik", "Bruna", "Cim"]
    # and „Rückgängig“ here takes back the newest step of the fight, Cim's
    here.get_by_role("button", name="Rückgängig").click()
    here.locator(".rw-tl-notices").get_by_text("Rückgängig gemacht").wait_for()
    assert [f["name"] for f in stored(page)["state"]["fighters"]] == ["Alrik", "Bruna"]
