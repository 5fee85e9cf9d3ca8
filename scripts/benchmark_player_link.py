"""Benchmark of „Für Spieler zeigen“: how long the players' link is, and which QR code it needs.

    .venv/bin/python scripts/benchmark_player_link.py [--url URL] [--json]

Prints figures and asserts nothing (the goal – 8 fighters in a QR code of version ≤ 10, the
size phone cameras read reliably – is read by people; tests/js/player-link.test.mjs checks
it). Runs the page's own modules in Node (player-link.js packs the picture, qr.js draws the
code with lean-qr): for 2, 8 and 20 fighters of a DSA-like fight – heroes with their LeP and
Wunden shown, enemies „grob“, every fourth fighter „betäubt“ – it prints the bytes of the
picture as JSON (for comparison) and in the compact form that travels, the link's length in
full, the QR version it would need, and the level the page sends (full, „ohne Wirkungen“,
„nur Reihenfolge“, „nur Namen“) with that link's length and QR version; past version 10 even
with the names alone, the page shows no code, only the link.

``--url``: the player page's address (default: the site's public address from
REGELWERK_SITE_URL, else mkdocs.yml's local one); a longer address leaves less for the fight.

``--browser SITE``: also opens the 8-fighter link in Debian Chromium against the built site
in SITE (served on 127.0.0.1) and prints the time from the start of navigation until the
order is on screen – a first visit (a new, empty profile: nothing cached), a second visit
(the profile's cache, as a phone that scanned before), and both with the page's main thread
4× slower (a stand-in for a phone, scripts/browser_probes.py CpuThrottle) – and the bytes of
the first visit (until the order shows, and all the web app's worker then keeps for
offline use in the background).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from harness.player_link import COUNTS, measure  # noqa: E402

# when the order is on screen: the player view's list appearing, from the start of navigation
SHOWN_OBSERVER = """
new MutationObserver((_, observer) => {
  if (document.querySelector(".rw-player-list")) {
    window.__playerShownMs = performance.now();
    observer.disconnect();
  }
}).observe(document, {childList: true, subtree: true});
"""


def browser_figures(site: Path, page_path: str, fragment: str, runs: int) -> dict[str, object]:
    """Times (ms, median of ``runs``) until the order is shown, and a first visit's bytes."""
    import functools
    import http.server
    import statistics
    import threading

    from playwright.sync_api import sync_playwright

    from scripts.browser_probes import CpuThrottle, Transfers, fresh_browser

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/{page_path}{fragment}"
    times: dict[str, list[float]] = {}
    until_shown: list[int] = []
    background: list[int] = []
    try:
        with sync_playwright() as playwright:
            for rate in (1, 4):
                for _ in range(runs):
                    with fresh_browser(playwright) as context:
                        context.add_init_script(SHOWN_OBSERVER)
                        transfers = Transfers(context)
                        page = context.new_page()
                        if rate != 1:
                            CpuThrottle(context, page, rate)
                        for visit in ("erster Besuch", "zweiter Besuch"):
                            if visit == "erster Besuch":
                                page.goto(url)
                            else:
                                page.reload()
                            page.wait_for_function("() => window.__playerShownMs")
                            shown = float(page.evaluate("window.__playerShownMs"))
                            times.setdefault(f"{visit}, CPU ×{rate}", []).append(shown)
                            if visit == "erster Besuch" and rate == 1:
                                until_shown.append(transfers.by_kind()["total"])
                            # the web app's worker keeps the site for offline use meanwhile
                            transfers.settle(page, quiet_ms=1500, limit_ms=60_000)
                            if visit == "erster Besuch" and rate == 1:
                                background.append(transfers.by_kind()["total"])
    finally:
        server.shutdown()
    return {
        "ms": {key: statistics.median(values) for key, values in times.items()},
        "bytes_shown": statistics.median(until_shown),
        "bytes_settled": statistics.median(background),
    }


def site_url() -> str:
    env = os.environ.get("REGELWERK_SITE_URL")
    if env:
        return env
    for line in (ROOT / "mkdocs.yml").read_text(encoding="utf-8").splitlines():
        if line.startswith("site_url:"):
            return line.split('"')[1]
    return "http://127.0.0.1:8000/"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="Adresse der Spieleransicht (…/spieler/)")
    parser.add_argument("--json", action="store_true", help="Ergebnis als JSON")
    parser.add_argument("--browser", type=Path, help="gebaute Seite (site/): Zeiten messen")
    parser.add_argument("--runs", type=int, default=3, help="Läufe je Zeit (Median)")
    args = parser.parse_args()
    page = args.url or site_url().rstrip("/") + "/spieler/"
    rows = measure(page)
    browser = None
    if args.browser:
        fragment = str(rows[1]["fragment"])
        browser = browser_figures(args.browser, "spieler/", fragment, args.runs)
    if args.json:
        out = {"page": page, "rows": rows, "browser": browser}
        print(json.dumps(out, ensure_ascii=False, indent=2))
        return
    print(f"Spieleransicht: {page} ({len(page)} Zeichen)")
    print("Kämpfer  JSON B  kompakt B  Link voll  QR-Version voll  gesendet (Stufe, Link, QR)")
    for row in rows:
        sent = row["sent"]
        said = (
            f"{sent['level']}, {sent['length']} Zeichen, Version {sent['version']}"  # type: ignore[index]
            if sent
            else "kein QR-Code (nur der Link)"
        )
        version = row["version"] if row["version"] is not None else "> 40"
        print(
            f"{row['count']:>7}  {row['json']:>6}  {row['text']:>9}  {row['link']:>9}  "
            f"{version!s:>15}  {said}"
        )
    if browser:
        print(f"\nSpieleransicht mit {COUNTS[1]} Kämpfern in Chromium, bis die Reihenfolge steht:")
        for key, ms in browser["ms"].items():  # type: ignore[attr-defined]
            print(f"  {key}: {ms / 1000:.2f} s".replace(".", ","))
        shown, settled = browser["bytes_shown"], browser["bytes_settled"]
        print(
            f"  übertragen beim ersten Besuch, bis die Reihenfolge steht: {shown / 1000:.0f} kB "
            "(ungepackt vom lokalen Server; Materials Suche lädt ihren Index mit)"
        )
        print(
            f"  übertragen beim ersten Besuch insgesamt (die Web-App speichert die Seite für "
            f"offline, im Hintergrund): {settled / 1000:.0f} kB"
        )


if __name__ == "__main__":
    main()
