"""The fight for the players (issue #28, Deliver 1–3, 6): „Für Spieler zeigen“ on every
Kampfhelfer page gives a link and a QR code; the player view (spieler/) shows the fight from
the link's fragment – read-only, phone-first, no engine – and a second window of the same
browser (spieler/#live=<system>) follows the game master's fight live.

- the link holds what the game master chose to show: the own hero's values, the enemy only
  „grob“ (unverletzt / angeschlagen / schwer verletzt / kampfunfähig), the effects on them;
  the QR code is an SVG (built through the DOM: the strict CSP of every page holds, conftest's
  ``page_errors``) of version ≤ 10;
- the player view at 375 px (a phone) and 1280 px: who acts now and next, the order, „Stand
  von …“, „Das bin ich“ marks the player's fighter and is remembered; it loads no Pyodide and
  no engine file; scanning the next code (a new fragment) shows the new state;
- a bad or foreign link gives a German message on the page, never an error;
- the second screen follows „Weiter“ on the Kampfhelfer page, online and from the offline
  export (file://).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from harness.player_link import fragment_of, picture_text
from tests.browser.conftest import Browsers, SharedVisit, Unzipped, resize
from tests.browser.test_effects import NAMES, journal_with_order, keeps_ticks, put_on, weiter
from tests.browser.test_whole_fight import fight_systems

pytestmark = pytest.mark.browser

ENGINE_FILES = re.compile(r"pyodide|engine-[0-9a-f]+\.(zip|snap)|/worker\.js")


def open_share(page: Any) -> Any:
    box = page.locator(".rw-share-players")
    if not box.evaluate("b => b.open"):
        box.locator("summary").click()
    return box


def shared_link(page: Any, previous: str = "") -> str:
    box = open_share(page)
    page.wait_for_function(
        "p => { const l = document.querySelector('.rw-player-link');"
        " return l && l.value && l.value !== p; }",
        arg=previous,
        polling=100,
    )
    return str(box.locator(".rw-player-link").input_value())


def choose_show(page: Any, name: str, show: str) -> None:
    open_share(page).get_by_label(f"Was die Spieler von {name} sehen").select_option(show)


def player_page(browsers: Browsers, width: int) -> Any:
    context = browsers.context()
    page = context.new_page()
    page.set_viewport_size({"width": width, "height": 800 if width < 600 else 900})
    page.requests = []  # type: ignore[attr-defined]
    page.on("request", lambda r: page.requests.append(r.url))  # type: ignore[attr-defined]
    return page


def rows(page: Any) -> list[str]:
    page.locator(".rw-player-list").wait_for()
    return [t.strip() for t in page.locator(".rw-player-name").all_inner_texts()]


def setup_order(
    reader: SharedVisit, site: Path, sides: dict[str, str] | None = None
) -> tuple[str, Any]:
    """The Kampfhelfer page of the first system with an acting order, with NAMES in order
    (``sides`` as in ``journal_with_order``): → the system and the page. Where a Tickleiste
    keeps the time its fighters come from the board (tests/browser/test_effects.py)."""
    system = next(s for s in fight_systems() if not keeps_ticks(site, s))
    journal = journal_with_order(sides)
    page = reader.arrive(f"{system}/kampfhelfer/", {f"regelwerk:kampf:{system}": journal})
    return system, page


def test_link_qr_and_player_view(reader: SharedVisit, browsers: Browsers, built_site: Path) -> None:
    """The game master's link opened on a phone (375 px); the page is then looked at as on a
    laptop (1280 px) too."""
    _, gm = setup_order(reader, built_site)
    put_on(gm, "Ork", "1", "runden")
    choose_show(gm, "Alrik", "werte")
    choose_show(gm, "Ork", "grob")
    choose_show(gm, "Bruna", "nichts")
    link = shared_link(gm)
    assert "/spieler/#s=3." in link
    svg = gm.locator(".rw-share-qr svg.rw-qr")
    assert svg.get_attribute("aria-label") == "QR-Code der Spieleransicht"
    assert svg.locator("path").get_attribute("d")
    caption = gm.locator(".rw-share-qr figcaption").inner_text()
    version = int(re.search(r"QR-Version (\d+)", caption).group(1))  # type: ignore[union-attr]
    assert 1 <= version <= 10, caption

    page = player_page(browsers, 375)
    page.goto(link)
    assert rows(page) == list(NAMES)
    assert page.locator(".rw-player-actor-line").inner_text() == "Am Zug: Alrik"
    assert page.locator(".rw-player-next-line").inner_text() == "Als Nächstes: Ork"
    assert re.match(
        r"Stand von \d\d:\d\d:\d\d Uhr \(gerade eben\)",
        page.locator(".rw-player-stamp").inner_text(),
    )
    items = page.locator(".rw-player-fighter")
    assert "rw-player-actor" in (items.nth(0).get_attribute("class") or "")
    assert items.nth(1).locator(".rw-player-status").inner_text() == "unverletzt"
    assert (
        items.nth(1).locator(".rw-player-effects").inner_text().startswith("betäubt (noch 1 Runde")
    )
    assert not items.nth(2).locator(".rw-player-status").count(), "Bruna: nothing shown"
    # Alrik's values: the fight knows none of them yet – no row of dashes („LeP – · Wunden –“)
    assert not items.nth(0).locator(".rw-player-status").count()
    # no engine: nothing of Pyodide or the engine is loaded
    assert not [u for u in page.requests if ENGINE_FILES.search(u)], page.requests  # type: ignore[attr-defined]
    # phone-first: no sideways scrolling, large names, the order on one screen – and so on a
    # laptop
    for width in (375, 1280):
        if width != 375:
            resize(page, width)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        size = float(
            page.locator(".rw-player-name").first.evaluate(
                "e => parseFloat(getComputedStyle(e).fontSize)"
            )
        )
        assert size >= 18, (width, size)
        bottom = page.locator(".rw-player-me-field").evaluate(
            "e => e.getBoundingClientRect().bottom + window.scrollY"
        )
        assert bottom <= (800 if width < 600 else 900) + 200, (width, bottom)
    # „Das bin ich“, remembered
    page.get_by_label("Das bin ich:").select_option("Bruna")
    assert "rw-player-me" in (items.nth(2).get_attribute("class") or "")
    page.reload()
    rows(page)
    assert "rw-player-me" in (
        page.locator(".rw-player-fighter").nth(2).get_attribute("class") or ""
    )
    # the next code: „Weiter“ on the game master's page, the new fragment in the same view
    weiter(gm)
    second = shared_link(gm, link)
    page.evaluate("h => { location.hash = h; }", second.split("#", 1)[1])
    page.wait_for_function(
        "() => document.querySelector('.rw-player-actor-line').textContent === 'Am Zug: Ork'",
        polling=100,
    )
    assert page.locator(".rw-player-next-line").inner_text() == "Als Nächstes: Bruna"
    page.context.close()


HOSTILE = {
    "": "enthält keinen Kampf",
    "#wurf=1.abc": "gehört nicht zur Spieleransicht",
    "#s=9.AAAA": "Version 9",
    "#s=1.%%%": "beschädigt",
    "#s=1.AAAAAAAAAAAA": "beschädigt",
    "#live=../../etc": "gehört nicht zur Spieleransicht",
}


def test_heroes_show_their_values_by_default(reader: SharedVisit, built_site: Path) -> None:
    """Without a choice, a fighter of the side „Helden“ (DSA's initiative names the heroes'
    side so by default, regeln/dsa/initiative.py) shows „Werte“, the others „grob“."""
    _, page = setup_order(reader, built_site, {"Alrik": "Helden", "Ork": "Gegner"})
    box = open_share(page)
    shown = {n: box.get_by_label(f"Was die Spieler von {n} sehen").input_value() for n in NAMES}
    assert shown == {"Alrik": "werte", "Ork": "grob", "Bruna": "grob"}


def test_bad_links_get_a_german_message(reader: SharedVisit) -> None:
    """In a tab of the visit (the player view is read-only, it stores nothing of a link): the
    page opened without a fight, then each bad link as the next code scanned – a new fragment
    in the open view, as a phone's camera app hands it over. Every refusal of unpack is a
    unit test of player-link.js (tests/js/player-link.test.mjs); here the page shows them."""
    page = reader.context.new_page()
    page.set_viewport_size({"width": 375, "height": 800})
    for fragment, words in HOSTILE.items():
        if not fragment:
            page.goto(reader.site_url + "spieler/")
        else:  # the last message marked: only the new link's message counts
            page.evaluate(
                "h => { document.querySelector('.rw-player-problem').dataset.rwOld = '1';"
                " location.hash = h; }",
                fragment[1:],
            )
        problem = page.locator(".rw-player-problem:not([data-rw-old])")
        problem.wait_for()
        assert words in problem.inner_text(), (fragment, problem.inner_text())
        assert problem.get_attribute("role") == "alert"
    page.close()


def follow_live(gm: Any, screens: list[Any]) -> None:
    """The second screens show the game master's fight and follow „Weiter“."""
    for screen in screens:
        screen.wait_for_function(
            "() => document.querySelector('.rw-player-actor-line')", polling=100
        )
        assert screen.locator(".rw-player-actor-line").inner_text() == "Am Zug: Alrik"
    weiter(gm)
    for screen in screens:
        screen.wait_for_function(
            "() => document.querySelector('.rw-player-actor-line').textContent === 'Am Zug: Ork'",
            polling=100,
        )
    put_on(gm, "Bruna", "2", "runden")
    for screen in screens:
        screen.wait_for_function(
            "() => [...document.querySelectorAll('.rw-player-effects')]"
            ".some(e => e.textContent.startsWith('betäubt (noch 2 Runden'))",
            polling=100,
        )


def test_second_screen_follows_the_fight(reader: SharedVisit, built_site: Path) -> None:
    """Two second screens at once, a phone's (375 px) and a laptop's (1280 px)."""
    system, gm = setup_order(reader, built_site)
    screens = []
    for width in (375, 1280):
        screen = reader.context.new_page()
        screen.set_viewport_size({"width": width, "height": 800})
        screen.goto(f"{reader.site_url}spieler/#live={system}")
        screens.append(screen)
    follow_live(gm, screens)
    for screen in screens:
        screen.close()


def offline_context(browsers: Browsers) -> tuple[Any, list[str]]:
    """A context with no network (file://, blob:, data: only) and every request it makes."""
    context = browsers.context(network=False)
    requests: list[str] = []
    context.on("request", lambda r: requests.append(r.url))
    return context, requests


def offline_bench(context: Any, export: Unzipped) -> tuple[str, Any]:
    """The export's Kampfhelfer page of the first system with an acting order, with NAMES in
    order (stored before through the export's player page: same file:// origin)."""
    system = next(
        s
        for s in fight_systems()
        if "tickleiste" not in (export.root / s / "kampfhelfer.html").read_text(encoding="utf-8")
    )
    gm = context.new_page()
    gm.goto(export.url("spieler.html"))
    gm.evaluate(
        "([k, v]) => { localStorage.clear(); localStorage.setItem(k, v); }",
        [f"regelwerk:kampf:{system}", journal_with_order()],
    )
    gm.goto(export.url(f"{system}/kampfhelfer.html"))
    gm.locator(".rw-effect-form").wait_for()
    return system, gm


def test_offline_export_player_view_and_second_screen(browsers: Browsers, export: Unzipped) -> None:
    """From file://: the player view from a link, and the second screen following the
    Kampfhelfer page – no request leaves the disk."""
    context, requests = offline_context(browsers)
    system, gm = offline_bench(context, export)
    screen = context.new_page()
    screen.goto(export.url("spieler.html") + f"#live={system}")
    follow_live(gm, [screen])
    link = shared_link(gm)
    assert link.startswith("file://") and "/spieler.html#s=3." in link
    assert "Offline-Version" in gm.locator(".rw-share-out").inner_text()
    player = context.new_page()
    player.goto(link)
    assert rows(player) == list(NAMES)
    assert not [u for u in requests if not u.startswith(("file:", "blob:", "data:"))], requests
    context.close()


def test_only_what_the_game_master_chose_leaves_his_device(
    reader: SharedVisit, browsers: Browsers, built_site: Path
) -> None:
    """#45, deliverable 2 („secrets 3/3“): „nichts“ sends the name only – no values, state,
    effects or place; „verbergen“ leaves the fighter out entirely; what the players could infer
    follows the choice (the next after the actor passes over the hidden Ork). Checked in every
    form the picture leaves the device: the link (decoded here, not read from the page), the
    QR code's link and the second screen's live picture."""
    system, gm = setup_order(reader, built_site)
    put_on(gm, "Ork", "2", "runden")
    put_on(gm, "Bruna", "3", "runden")
    choose_show(gm, "Alrik", "werte")
    choose_show(gm, "Ork", "verbergen")
    choose_show(gm, "Bruna", "nichts")
    link = shared_link(gm)
    travels = picture_text(link)
    assert "Ork" not in travels, travels
    bruna = next(line for line in travels.splitlines() if line.startswith("Bruna\t"))
    assert bruna.split("\t")[1:] == ["", "n", "", ""], bruna  # no place, no detail, no effect
    assert "betäubt" not in travels  # the only effects were on Ork and Bruna
    live = gm.evaluate("s => localStorage.getItem('regelwerk:spieler-live:' + s)", system)
    assert "Ork" not in live and "betäubt" not in live, live
    page = player_page(browsers, 375)
    page.goto(link)
    assert rows(page) == ["Alrik", "Bruna"]
    assert page.locator(".rw-player-actor-line").inner_text() == "Am Zug: Alrik"
    assert page.locator(".rw-player-next-line").inner_text() == "Als Nächstes: Bruna"
    assert "Ork" not in page.locator("main").inner_text()
    page.context.close()


def test_a_long_name_wraps_on_a_phone(
    reader: SharedVisit, browsers: Browsers, built_site: Path
) -> None:
    """#45: „At 375 px a 29-letter name overflows by 13 px“ – it breaks instead, the view stays
    as wide as the phone."""
    _, gm = setup_order(reader, built_site)
    link = shared_link(gm)
    long_name = "Rondrikan-Sturmbrecher-Eisenf"
    assert len(long_name) == 29
    text = picture_text(link).replace("Bruna\t", f"{long_name}\t")
    page = player_page(browsers, 375)
    page.goto(link.split("#", 1)[0] + fragment_of(text))
    assert long_name in rows(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.context.close()


def test_an_export_that_knows_the_published_site_links_the_players_there(
    browsers: Browsers, export: Unzipped, tmp_path: Path
) -> None:
    """#45: „From the offline export there is no code for the phones, only a file:// link“ –
    an export built for a published site gives the players' link and QR code of that site
    (shared rolls already point there); the request is only written, never sent."""
    published = "https://gruppe.example.org/regelwerk/"
    context, requests = offline_context(browsers)
    _, gm = offline_bench(context, export.published(tmp_path, published))
    link = shared_link(gm)
    assert link.startswith(f"{published}spieler/#s=3."), link
    assert gm.locator(".rw-share-qr svg.rw-qr").count() == 1
    assert "veröffentlichten Seite" in gm.locator(".rw-share-out").inner_text()
    assert not [u for u in requests if not u.startswith(("file:", "blob:", "data:"))], requests
    context.close()


def test_states_on_werte_and_a_next_that_gives_nothing_away(
    reader: SharedVisit, browsers: Browsers, built_site: Path
) -> None:
    """#45: a hero on „Werte“ who is tot shows his state beside his values; „Als Nächstes“
    does not pass over a „nichts“ fighter who is down (that would tell the players), and
    never names the one who acts now."""
    system = next(s for s in fight_systems() if not keeps_ticks(built_site, s))
    journal = json.loads(journal_with_order())
    journal["base"]["fighters"] = {
        "Alrik": {"actions": {}, "stats": {}, "state": {"zustand": "tot", "text": "tot"}},
        "Bruna": {"actions": {}, "stats": {}, "state": {"zustand": "kampfunfähig", "text": "k."}},
    }
    journal["base"]["actor"], journal["base"]["turn"] = "Ork", 1
    gm = reader.arrive(f"{system}/kampfhelfer/", {f"regelwerk:kampf:{system}": json.dumps(journal)})
    choose_show(gm, "Alrik", "werte")
    choose_show(gm, "Ork", "grob")
    choose_show(gm, "Bruna", "nichts")
    page = player_page(browsers, 375)
    page.goto(shared_link(gm))
    alrik = page.locator(".rw-player-fighter").nth(0)
    assert alrik.locator(".rw-player-status").inner_text().startswith("tot")
    assert "rw-player-down" in (alrik.get_attribute("class") or "")
    assert page.locator(".rw-player-actor-line").inner_text() == "Am Zug: Ork"
    assert page.locator(".rw-player-next-line").inner_text() == "Als Nächstes: Bruna"
    page.context.close()


SIDED_ROWS = """(initiative) => [...initiative.querySelectorAll(".rw-row")].map((row) => ({
  name: row.querySelector("[data-path$='.name']").value,
  side: row.querySelector("[data-path$='.seite']") !== null,
}))"""


@pytest.mark.parametrize("system", fight_systems())
def test_a_side_typed_in_the_initiative_decides_what_the_players_see(
    system: str, reader: SharedVisit
) -> None:
    """Issue #45, deliverable 3: „sides for Pathfinder (so heroes default to „Werte“)“ – every
    system whose initiative in the fight column has the field „Seite“ (DSA's, Pathfinder's
    declared ``seiten: true``, regeln/pathfinder.yaml; 004_019b513a861ec26f.txt L8 sets an order
    without a rule): the first fighter typed as „Helden“, the second as „Gegner“, rolled – the
    players see the hero's values and the enemy only „grob“, without a choice of the game
    master. Before, every Pathfinder fighter started as „grob“ in every fight."""
    page = reader.arrive(f"{system}/kampfhelfer/")
    initiative = page.locator(".rw-workbench-fight section.rw-helper:not([data-widget])").first
    if not initiative.count() or page.locator(".rw-workbench-fight .rw-tickleiste").count():
        pytest.skip(f"{system}: the Tickleiste keeps the fight (no initiative form)")
    rows = initiative.evaluate(SIDED_ROWS)
    if not all(r["side"] for r in rows):
        pytest.skip(f"{system}: its initiative has no field „Seite“")
    assert len(rows) >= 2, rows
    for index, side in ((0, "Helden"), (1, "Gegner")):
        initiative.locator(f"[data-path='fighters.{index}.seite']").fill(side)
    page.evaluate("() => { window.__sideRolls = 0; }")
    page.evaluate(
        "() => document.addEventListener('regelwerk:result', () => { window.__sideRolls += 1; })"
    )
    initiative.locator(".rw-submit").click()
    page.wait_for_function("() => window.__sideRolls > 0")
    box = open_share(page)
    hero, enemy = rows[0]["name"], rows[1]["name"]
    shown = {
        n: box.get_by_label(f"Was die Spieler von {n} sehen").input_value() for n in (hero, enemy)
    }
    assert shown == {hero: "werte", enemy: "grob"}, (system, shown)
