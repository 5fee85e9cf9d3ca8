"""A whole fight per system, played on the built site: what a game master types, clicks and
scrolls per round. Prints figures, asserts nothing (targets are read by people: issue 26 asks
for round 3 on a laptop ≤ 1 scroll per action and ≤ 2 clicks per attack with its damage).

    .venv/bin/python scripts/play_fight.py [--site site] [--system dsa …] [--check]
                                           [--why "Runde 3"] [--json]

The fight is the one of tests/browser/test_whole_fight.py (its ``Fight``), on every system with
a Kampfhelfer page: two heroes against two enemies, three rounds, a reload before the second
turn of round 2 and a wrong click there (the ally attacked with a Wurfnummer that hits, his
damage rolled, then „↶ Rückgängig“ until every number is back), each attack with the damage
that follows it. Each system is played at 1366 × 768 (a laptop) and 375 × 800 (a phone), each
time in a fresh browser context (nothing stored) of Debian Chromium (the reader's browser,
``chromium``; ``chromium-headless-shell`` if it is missing), without the web app's service worker.

Counted, per part of the fight („Aufbau“: the fighters and the order; then each round):
- typed: a field filled in (a value the page did not show for that fighter, a value of one roll
  the roll needs – the schema's ``per_roll``, rolled at the table –, a Wurfnummer, a fighter's
  Ticks on the Tickleiste the first time);
- clicks: a button, a tab, a switch, a choice in a list (one each);
- scrolls: an element the game master needs (to click, fill or read – a roll's headline) that
  is not in the window when he needs it: off screen, or under the sticky bar or a notice; it
  is then scrolled to the middle of the window.
``--check`` also compares the page with the expected fight after every step, as the test does.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from harness.browser import (  # noqa: E402
    ALL_HELPERS_SET_UP,
    CHROMIUM,
    CHROMIUM_ARGS,
    READER_CHROMIUM,
    SiteServer,
    wait_engine_ready,
)
from harness.whole_fight import Fight, fight_systems  # noqa: E402

SIZES = ((1366, 768), (375, 800))


def play(browser: Any, url: str, system: str, size: tuple[int, int], check: bool) -> dict[str, Any]:
    """One fight in a fresh context: {"parts": [[name, {typed, clicks, scrolls}], …], "errors"}."""
    width, height = size
    context = browser.new_context(
        locale="de-DE", viewport={"width": width, "height": height}, service_workers="block"
    )
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{url}{system}/kampfhelfer/")
        wait_engine_ready(page)
        page.wait_for_function(ALL_HELPERS_SET_UP, polling=100)
        tally = Fight(page, system, checks=check).play()
    finally:
        context.close()
    parts = [[name, counts] for name, counts in tally.parts]
    return {"parts": parts, "scrolled_to": tally.why, "errors": errors}


def print_scrolls(rows: list[dict[str, Any]], part: str) -> None:
    print(f"\nWohin gescrollt wurde ({part}):")
    for row in rows:
        seen = Counter(row["scrolled_to"].get(part, []))
        listed = ", ".join(f"{n}× {what}" for what, n in seen.most_common())
        print(f"{row['system']:<16}{row['width']:>6}px  {listed or '–'}")


def print_table(rows: list[dict[str, Any]]) -> None:
    names = [name for name, _ in rows[0]["parts"]] if rows else []
    print("getippt/Klicks/Scrolls je Teil des Kampfes; Züge: Züge (davon mit Angriff) je Runde")
    head = f"{'System':<16}{'Breite':>8}  " + "".join(f"{n:>12}" for n in names) + "  Züge"
    print(head)
    print("-" * (len(head) + 16))
    for row in rows:
        cells = "".join(
            f"{'/'.join(str(c[k]) for k in ('typed', 'clicks', 'scrolls')):>12}"
            for _, c in row["parts"]
        )
        turns = " ".join(f"{c['turns']}({c['attacks']})" for name, c in row["parts"] if c["turns"])
        print(f"{row['system']:<16}{row['width']:>6}px  {cells}  {turns}")
        for error in row["errors"]:
            print(f"    Fehler der Seite: {error}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--site", type=Path, default=ROOT / "site", help="die gebaute Seite (make site)"
    )
    parser.add_argument("--system", action="append", help="nur dieses System (mehrfach möglich)")
    parser.add_argument(
        "--check", action="store_true", help="nach jedem Schritt prüfen wie der Test"
    )
    parser.add_argument("--json", action="store_true", help="die Zahlen als JSON")
    parser.add_argument("--why", metavar="TEIL", help="wohin gescrollt wurde, z. B. „Runde 3“")
    args = parser.parse_args()
    if not (args.site / "index.html").is_file():
        raise SystemExit(f"Keine gebaute Seite in {args.site} – erst `make site`.")
    systems = args.system or list(fight_systems(ROOT))
    from playwright.sync_api import sync_playwright

    server = SiteServer(args.site)
    server.start()
    rows: list[dict[str, Any]] = []
    executable = READER_CHROMIUM if Path(READER_CHROMIUM).exists() else CHROMIUM
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
            for system in systems:
                for size in SIZES:
                    played = play(browser, server.url, system, size, args.check)
                    rows.append({"system": system, "width": size[0], "height": size[1], **played})
            browser.close()
    finally:
        server.stop()
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=1))
    else:
        print_table(rows)
        if args.why:
            print_scrolls(rows, args.why)


if __name__ == "__main__":
    main()
