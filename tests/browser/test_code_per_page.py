"""Each page loads only the browser code it uses (issue #46, deliverable 1: „a page loads only
the browser code it uses (text pages: navigation, tooltips, dice buttons in the text, the web
app's registration; helper pages: the rest, as separate chunks loaded when needed)“).

regelwerk.js runs on every page; regelwerk-helfer.js (helpers, the fight, „Meine Werte“) is
loaded by it where a page has any of them, regelwerk-spieler.js on the player view – a player's
phone never gets the helpers and the fight (site_plugins/assets/js/pages.js);
the search's German stemmer, the index's words and the ranking (suche-deutsch.js) come when the
reader opens the search (site_plugins/suche/assets/suche.js).
The pages are found in the build, not named: a page of text alone, one of text with dice
buttons, one with helpers. A dice button rolls without the helpers' code (issue #29's dice in
the text, e.g. 000_5fbfd0ad384a0921.txt „Jeder Schild richtet dabei 1W6+1 Punkte Schaden
an.“); instant navigation to a page with helpers loads it once; a script that cannot be loaded
is said in German on every helper, the text stays readable and „Erneut versuchen“ loads it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from harness.browser import ALL_HELPERS_SET_UP, wait_engine_ready
from tests.browser.conftest import PageErrors, navigate

pytestmark = pytest.mark.browser

HELPERS_SCRIPT = "regelwerk-helfer.js"
PLAYERS_SCRIPT = "regelwerk-spieler.js"
# what the two scripts set up (pages.js PARTS), as the build writes it
NEEDS_HELPERS = re.compile(r'class="(rw-helper|rw-workbench|rw-werte-verwaltung)\b')
PLAYER_VIEW = re.compile(r'class="rw-player\b')


def pages_of(site: Path) -> tuple[str, str, str, str]:
    """(a page of text alone, a page of text with dice buttons, a page with helpers, the player
    view) – paths below the site, found in the build."""
    plain = dice = helpers = players = None
    for path in sorted(site.rglob("index.html")):
        html = path.read_text(encoding="utf-8")
        if "<article" not in html:
            continue
        address = path.parent.relative_to(site).as_posix()
        address = "" if address == "." else f"{address}/"
        if PLAYER_VIEW.search(html):
            players = players or address
        elif NEEDS_HELPERS.search(html):
            helpers = helpers or address
        elif 'class="rw-dice' in html:
            dice = dice or address
        elif address:
            plain = plain or address
    assert plain and dice and helpers and players, (plain, dice, helpers, players)
    return plain, dice, helpers, players


def loads_of(requests: list[str], script: str = HELPERS_SCRIPT) -> int:
    return sum(1 for url in requests if url.split("?")[0].endswith(f"/{script}"))


def test_text_pages_load_no_helper_code_and_a_helper_page_loads_it_once(
    page: Any, site_url: str, built_site: Path
) -> None:
    plain, dice, helpers, players = pages_of(built_site)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(site_url + plain)
    page.wait_for_function("() => window.Regelwerk && window.__regelwerkKern")
    navigate(page, site_url + dice)
    # a dice button in the text rolls with the code of every page alone
    page.locator(".rw-dice").first.click()
    page.locator("#rw-dice-popover .rw-outcome").wait_for()
    page.keyboard.press("Escape")
    assert loads_of(requests) == loads_of(requests, PLAYERS_SCRIPT) == 0, requests
    # the player view: its own script, not the helpers and the fight
    navigate(page, site_url + players)
    page.locator(".rw-player[data-rw-player]").wait_for()
    assert loads_of(requests, PLAYERS_SCRIPT) == 1
    assert loads_of(requests) == 0
    # instant navigation to a page with helpers: loaded then, every helper set up and rolling
    navigate(page, site_url + helpers)
    wait_engine_ready(page)
    page.wait_for_function(ALL_HELPERS_SET_UP, polling=100)
    helper = page.locator(".rw-helper:not([data-widget]):visible").first
    helper.locator(".rw-submit").click()
    helper.locator(".rw-result .rw-outcome").wait_for()
    params = page.evaluate("(h) => window.Regelwerk.collect(h)", helper.element_handle())
    assert isinstance(params, dict)
    # there and back again: the script is there, not loaded a second time
    navigate(page, site_url + plain)
    navigate(page, site_url + helpers)
    page.wait_for_function(ALL_HELPERS_SET_UP, polling=100)
    assert loads_of(requests) == 1
    assert loads_of(requests, PLAYERS_SCRIPT) == 1
    # the search's language only once the reader opens the search
    language = [u for u in requests if u.split("?")[0].endswith("/suche-deutsch.js")]
    assert language == [], language
    page.locator("[data-md-component='search-query']").click()
    page.wait_for_function("() => !!window.regelwerkSuche", polling=100)
    assert page.evaluate("() => regelwerkSuche.transform('Rüstungen')") == "rustung"
    page.keyboard.press("Escape")


def open_without(page: Any, page_errors: PageErrors, script: str, url: str) -> None:
    """``url`` opened while ``script`` answers 404 (the browser's console error declared)."""
    page.route(f"**/{script}", lambda route: route.fulfill(status=404, body="fehlt"))
    page_errors.expect(r"^console\.error: Failed to load resource: .*404")
    page.goto(url)


def test_helper_code_that_cannot_be_loaded_is_said_and_loaded_again_on_retry(
    page: Any, site_url: str, built_site: Path, page_errors: PageErrors
) -> None:
    open_without(page, page_errors, HELPERS_SCRIPT, site_url + pages_of(built_site)[2])
    status = page.locator(".rw-helper .rw-status[data-state='failed']").first
    status.wait_for()
    text = status.inner_text()
    assert text.startswith("Fehler:") and HELPERS_SCRIPT in text, text
    assert "Regeltext, Tabellen und Suche funktionieren weiter" in text
    assert page.locator("article h1").is_visible()  # the text stays readable
    count = page.locator(".rw-helper").count()
    assert page.locator(".rw-helper .rw-status[data-state='failed']").count() == count
    # the file is there again: „Erneut versuchen“ sets the helpers up
    page.unroute(f"**/{HELPERS_SCRIPT}")
    retry = page.locator(".rw-helper").first.get_by_role("button", name="Erneut versuchen")
    retry.click()
    page.wait_for_function(ALL_HELPERS_SET_UP, polling=100)
    wait_engine_ready(page)


def test_a_player_view_whose_script_cannot_be_loaded_says_so_and_retries(
    page: Any, site_url: str, built_site: Path, page_errors: PageErrors
) -> None:
    """Not „Die Spieleransicht lädt …“ for ever: a German message and „Erneut versuchen“."""
    open_without(page, page_errors, PLAYERS_SCRIPT, site_url + pages_of(built_site)[3])
    said = page.locator(".rw-player .rw-notice--error")
    said.wait_for()
    assert said.inner_text().startswith("Fehler:") and PLAYERS_SCRIPT in said.inner_text()
    page.unroute(f"**/{PLAYERS_SCRIPT}")
    page.locator(".rw-player").get_by_role("button", name="Erneut versuchen").click()
    page.locator(".rw-player[data-rw-player]").wait_for()
    shown = page.locator(".rw-player").inner_text()
    # the view itself now speaks: this address carries no fight
    assert PLAYERS_SCRIPT not in shown and "enthält keinen Kampf" in shown, shown
