"""The Ryssea initiative helper in Debian Chromium, compared with the CLI for the same seed.

Rule: 000_5fbfd0ad384a0921.txt L17–L25 (INI + W6 + Mods → Startfeld vor 0; gleicher Tick:
höhere Intuition, dann W10). The page must show exactly what ``python -m engine`` prints.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any
from urllib.parse import urlparse

import pytest

from engine import api
from harness.browser import ENGINE_READY_MS
from tests.browser.conftest import SharedVisit
from tests.conftest import ROOT

pytestmark = pytest.mark.browser

PAGE = "ryssea/kampfbeginn-und-initiative/"
FIGHTERS = [
    {"name": "Alrik", "ini": 10, "intuition": 3, "modifier": 0, "surprised": False},
    {"name": "Bruna", "ini": 10, "intuition": 3, "modifier": 0, "surprised": False},
    {"name": "Cim", "ini": 12, "intuition": 5, "modifier": -1, "surprised": True},
]


def tied_seed() -> int:
    """The first seed at which Alrik and Bruna reach the same tick (a W10 roll-off follows)."""
    for seed in range(1000):
        result = api.run("ryssea", "initiative", {"fighters": FIGHTERS}, seed)
        if any(tie["rolloff"] for tie in result["result"]["ties"]):
            return seed
    raise AssertionError("no seed with a tie in 0..999")


def cli(seed: int) -> dict[str, Any]:
    args = [sys.executable, "-m", "engine", "ryssea", "initiative", "--json", "--seed", str(seed)]
    for f in FIGHTERS:
        args += [
            "--fighters",
            f"name={f['name']},ini={f['ini']},intuition={f['intuition']},"
            f"modifier={f['modifier']},surprised={'ja' if f['surprised'] else 'nein'}",
        ]
    out = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def wait_ready(page: Any) -> None:
    page.wait_for_selector(".rw-status[data-state='ready']", timeout=ENGINE_READY_MS)


def fill_fighters(page: Any) -> None:
    helper = page.locator(".rw-helper").first
    rows = helper.locator(".rw-row")
    while rows.count() < len(FIGHTERS):
        helper.get_by_role("button", name="Kämpfer hinzufügen").click()
    for index, fighter in enumerate(FIGHTERS):
        for key in ("name", "ini", "intuition", "modifier"):
            helper.locator(f"[data-path='fighters.{index}.{key}']").fill(str(fighter[key]))
        helper.locator(f"[data-path='fighters.{index}.surprised']").set_checked(
            fighter["surprised"]
        )


def test_page_matches_cli_for_same_seed(reader: SharedVisit) -> None:
    seed = tied_seed()
    expected = cli(seed)
    assert expected["ok"], expected
    page = reader.arrive(PAGE)
    fill_fighters(page)
    helper = page.locator(".rw-helper").first
    helper.locator("summary", has_text="Wurfnummer").click()
    helper.locator("[data-path='seed']").fill(str(seed))
    helper.get_by_role("button", name="Würfeln").click()
    page.wait_for_selector(".rw-result table")

    table = next(s for s in expected["result"]["display"]["sections"] if s["kind"] == "table")
    # the result's own table (a chart's table of the same numbers is not the order)
    shown = helper.locator(".rw-result tbody tr").evaluate_all(
        "rows => rows.filter(r => !r.closest('.rw-chart'))"
        ".map(r => [...r.cells].map(c => c.textContent))"
    )
    assert shown == table["rows"]
    # order and ticks, as the engine computed them
    order = [(o["name"], o["tick"]) for o in expected["result"]["order"]]
    assert [(r[1], int(r[4].replace("−", "-"))) for r in shown] == order
    # every die is visible: one W6 per fighter, plus the roll-off W10s in the notes
    dice = helper.locator(".rw-die").evaluate_all("els => els.map(e => e.textContent)")
    expected_dice = [
        str(o["roll"]["total"])
        for o in sorted(
            expected["result"]["order"],
            key=lambda o: [f["name"] for f in FIGHTERS].index(o["name"]),
        )
    ]
    assert dice == expected_dice
    assert helper.locator(".rw-outcome").inner_text() == expected["result"]["display"]["outcome"]
    assert f"Wurfnummer {seed}" in helper.locator(".rw-result").inner_text()
    tie_text = helper.locator(".rw-notes", has_text="Gleichst").inner_text()
    assert "Stechen mit W10" in tie_text


def test_the_text_comes_first_and_the_page_requests_nothing_but_its_own_server(
    page: Any, site_url: str
) -> None:
    """A fresh browser: the text is readable before the engine (its state shown), and
    loading, booting and rolling ask nothing of another server."""
    urls: list[str] = []
    page.on("request", lambda request: urls.append(request.url))
    page.goto(site_url + PAGE, wait_until="domcontentloaded")
    assert page.locator("article").inner_text().strip()
    status = page.locator(".rw-status").first
    assert status.get_attribute("data-state") in {"idle", "loading", "ready"}
    wait_ready(page)
    assert status.inner_text().strip() == "Bereit."
    page.locator(".rw-helper").first.get_by_role("button", name="Würfeln").click()
    page.wait_for_selector(".rw-result table")
    assert urls, "no requests recorded"
    foreign = [
        u
        for u in urls
        if urlparse(u).scheme not in {"data", "blob"}
        and urlparse(u).netloc != urlparse(site_url).netloc
    ]
    assert foreign == []
    assert any(u.endswith("pyodide.asm.wasm.gz") for u in urls), "Pyodide came from elsewhere"


def test_bad_input_gets_a_german_message_at_the_field(reader: SharedVisit) -> None:
    page = reader.arrive(PAGE)
    helper = page.locator(".rw-helper").first
    helper.locator("[data-path='fighters.1.ini']").fill("zwölf")
    helper.get_by_role("button", name="Würfeln").click()
    error = helper.locator("#helfer-ryssea-initiative-fighters-1-ini-fehler")
    error.wait_for()
    assert "Kämpfer 2 – INI" in error.inner_text()
    assert "keine ganze Zahl" in error.inner_text()
    field = helper.locator("[data-path='fighters.1.ini']")
    assert field.get_attribute("aria-invalid") == "true"
    # the helper still works after the error
    field.fill("11")
    helper.get_by_role("button", name="Würfeln").click()
    page.wait_for_selector(".rw-result table")
    assert field.get_attribute("aria-invalid") is None


# A boot that fails (the wasm's request aborted) and „Erneut versuchen“: one of the states of
# tests/browser/test_boot_trouble.py's wasm test.
