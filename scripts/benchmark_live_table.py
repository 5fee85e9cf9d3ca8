"""Benchmark of the live table (issue #45, deliverable 1): the game master's Kampfhelfer page
and a phone, two separate Debian Chromiums (the full ``chromium``, as a reader has it),
connected over WebRTC with no server.

    .venv/bin/python scripts/benchmark_live_table.py --site SITE [--steps 20] [--json]

SITE is a built site (``make site`` → ``site/``), served here on 127.0.0.1. Prints figures and
asserts nothing (tests/browser/test_live_table.py checks the behaviour):

- the invitation link's length and QR version for 2, 8 and 20 fighters (the page's own
  modules in Node, with the offer a Chromium made here: ``players/sdp.js`` packs it, the
  picture is reduced until both fit version 10 – the level sent);
- the handshake: the phone's answer code on screen (from the start of navigation to the
  invitation link), and the connection (from the game master's click on „Verbinden“ with the
  pasted code until the phone says „Live verbunden“);
- per step of the fight (``--steps`` times „Weiter“): from the game master's click until
  the phone shows the new actor – median and max. Both pages read the same system clock
  (``performance.timeOrigin + performance.now()``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from harness import deadlines  # noqa: E402
from harness.browser import (  # noqa: E402
    ALL_HELPERS_SET_UP,
    CHROMIUM_ARGS,
    READER_CHROMIUM,
    SiteServer,
    wait_engine_ready,
)
from harness.player_link import COUNTS, NAMES, PICTURE_JS, PLAYERS, run_module  # noqa: E402
from harness.whole_fight import fight_systems, journal_with_order  # noqa: E402

NOW = "performance.timeOrigin + performance.now()"
# on the phone: when the actor line shows a new text, and when „Live verbunden“ appears
PHONE_CLOCK = f"""
window.__rwSeen = [];
window.__rwConnected = null;
new MutationObserver(() => {{
  const line = document.querySelector(".rw-player-actor-line");
  const text = line ? line.textContent : "";
  const seen = window.__rwSeen;
  const last = seen.length ? seen[seen.length - 1].text : null;
  if (text && last !== text) seen.push({{ t: {NOW}, text }});
  if (!window.__rwConnected && document.querySelector(".rw-player-live-status--ok")) {{
    window.__rwConnected = {NOW};
  }}
}}).observe(document, {{ childList: true, subtree: true, characterData: true }});
"""
CLICK_WEITER = f"""() => {{
  const button = [...document.querySelectorAll(".rw-fight-bar button")]
    .find((b) => b.textContent.trim() === "Weiter ▶");
  const t = {NOW};
  button.click();
  return t;
}}"""
SIZES = r"""
import { HEALTH, LEVELS, fragmentOf, reduced } from "@@PLAYERS@@/link.js";
import { qrOf, VERSION_MAX } from "@@PLAYERS@@/qr.js";
import { withOffer } from "@@PLAYERS@@/wire.js";
const { page, offer, counts, names } = JSON.parse(process.argv[1]);
@@PICTURE@@
const rows = [];
for (const count of counts) {
  const full = picture(count);
  let sent = null;
  for (const level of LEVELS) {
    const link = page + withOffer(await fragmentOf(reduced(full, level)), offer);
    const qr = qrOf(link, VERSION_MAX);
    if (qr) { sent = { level, length: link.length, version: qr.version }; break; }
  }
  if (!sent) {
    const link = page + withOffer("", offer);
    const qr = qrOf(link, VERSION_MAX);
    sent = { level: "nur Live", length: link.length, version: qr ? qr.version : null };
  }
  const plain = page + (await fragmentOf(full));
  rows.push({ count, plain: plain.length, ...sent });
}
process.stdout.write(JSON.stringify(rows));
"""


def link_sizes(page: str, offer: str) -> list[dict[str, Any]]:
    script = SIZES.replace("@@PICTURE@@", PICTURE_JS).replace("@@PLAYERS@@", PLAYERS.as_uri())
    rows: list[dict[str, Any]] = run_module(
        script, {"page": page, "offer": offer, "counts": COUNTS, "names": NAMES}
    )
    return rows


def measure(site: Path, steps: int) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    server = SiteServer(site)
    server.start()
    try:
        with sync_playwright() as playwright:
            deadlines.guard_playwright(playwright)
            launch = {"executable_path": READER_CHROMIUM, "args": CHROMIUM_ARGS}
            gm_browser = playwright.chromium.launch(**launch)
            phone_browser = playwright.chromium.launch(**launch)
            try:
                return run(server.url, acting_order_system(site), gm_browser, phone_browser, steps)
            finally:
                gm_browser.close()
                phone_browser.close()
    finally:
        server.stop()


def acting_order_system(site: Path) -> str:
    """The first system whose Kampfhelfer page keeps an acting order (not a Tickleiste)."""
    return next(
        s
        for s in fight_systems(ROOT)
        if 'data-widget="tickleiste"'
        not in (site / s / "kampfhelfer" / "index.html").read_text(encoding="utf-8")
    )


def run(url: str, system: str, gm_browser: Any, phone_browser: Any, steps: int) -> dict[str, Any]:
    gm = gm_browser.new_page(locale="de-DE", viewport={"width": 1280, "height": 900})
    gm.route(url + "__leer__.html", lambda r: r.fulfill(body="<!doctype html><title>leer</title>"))
    gm.goto(url + "__leer__.html")
    stored = [f"regelwerk:kampf:{system}", journal_with_order()]
    gm.evaluate("([k, v]) => localStorage.setItem(k, v)", stored)
    gm.goto(f"{url}{system}/kampfhelfer/")
    wait_engine_ready(gm)
    gm.wait_for_function(ALL_HELPERS_SET_UP, polling=100)
    box = gm.locator(".rw-share-players")
    box.locator("summary").click()
    box.get_by_role("button", name="Live verbinden").click()
    invitation = str(gm.locator(".rw-live-link").input_value())
    phone = phone_browser.new_page(locale="de-DE", viewport={"width": 375, "height": 800})
    phone.add_init_script(PHONE_CLOCK)
    phone.goto(invitation, wait_until="commit")
    code = phone.locator(".rw-player-live-code")
    code.wait_for()
    answer_ms = phone.evaluate("() => performance.now()")  # since the navigation started
    answer = str(code.input_value())
    gm.get_by_label("Antwort-Code des Handys (als Text)").fill(answer)
    clicked = gm.evaluate(
        f"() => {{ const t = {NOW}; document.querySelector('.rw-live-connect').click();"
        " return t; }"
    )
    phone.wait_for_function("() => window.__rwConnected", polling=20)
    connect_ms = phone.evaluate("() => window.__rwConnected") - clicked
    latencies = []
    for _ in range(steps):
        seen = phone.evaluate("() => window.__rwSeen.length")
        start = gm.evaluate(CLICK_WEITER)
        phone.wait_for_function("n => window.__rwSeen.length > n", arg=seen, polling=20)
        latencies.append(phone.evaluate("n => window.__rwSeen[n].t", seen) - start)
        gm.wait_for_timeout(100)  # a game master does not click faster
    offer = invitation.split("o=", 1)[1]
    return {
        "page": invitation.split("#", 1)[0],
        "offer": offer,
        "answer": answer,
        "answer_ms": round(answer_ms),
        "connect_ms": round(connect_ms),
        "steps": [round(v, 1) for v in latencies],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, required=True, help="a built site (make site)")
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--url",
        default="https://regelwerk.example.org/spieler/",
        help="the player page's address for the sizes",
    )
    args = parser.parse_args()
    figures = measure(args.site, args.steps)
    figures["sizes"] = link_sizes(args.url, figures["offer"])
    if args.json:
        print(json.dumps(figures, indent=2, ensure_ascii=False))
        return
    steps = figures["steps"]
    offer, answer = len(figures["offer"]), len(figures["answer"])
    print(f"Angebot (gepackt): {offer} Zeichen; Antwort-Code: {answer} Zeichen")
    print(f"Einladung für {args.url} ({len(args.url)} Zeichen):")
    print("Kämpfer  Link ohne Live  Einladung (Stufe, Zeichen, QR-Version)")
    for row in figures["sizes"]:
        sent = f"{row['level']}, {row['length']} Zeichen, Version {row['version']}"
        print(f"{row['count']:>7}  {row['plain']:>14}  {sent}")
    print(f"Handy: Antwort-Code steht nach {figures['answer_ms']} ms (ab Aufruf der Einladung)")
    print(f"Verbindung: {figures['connect_ms']} ms (Klick auf „Verbinden“ bis „Live verbunden“)")
    print(
        f"Schritt → Handy ({len(steps)} × „Weiter“): Median {statistics.median(steps):.1f} ms, "
        f"Max {max(steps):.1f} ms"
    )


if __name__ == "__main__":
    main()
