"""Benchmark of the online site: prints figures, asserts nothing (targets are read by people).

    .venv/bin/python scripts/benchmark.py [--runs N] [--suite] [--json]

Builds the site (timed), serves it on 127.0.0.1 and measures in Debian Chromium, with the
helpers shared with scripts/benchmark_offline.py (scripts/browser_probes.py):
- the plain boot and the snapshot boot side by side, with the factor plain ÷ snapshot: helper
  ready after navigation, cold (a browser with a new, empty profile: nothing cached) and warm
  (a reload once the worker has kept the inflated snapshot in OPFS, as for a reader coming
  back), when the boot started and the worker's own boot time, median of ``--runs`` each;
- all of it again with the CPU throttled ×4 (a stand-in for a phone; it reaches the page's
  main thread only, see ``CpuThrottle``), with an estimate that scales the worker too;
- the longest main-thread task while booting (ours) and before it (Material's page load);
- click-to-result time of a roll;
- the bytes of a cold visit of a helper page, the worker's requests included, by kind and
  per file: raw (this server does not compress) and as a gzipping host would send them,
  the service worker's background downloads apart;
- a second page in the same visit (instant navigation: no second boot);
- every action's ``run`` time on CPython; with ``--suite`` the test suite's wall time.

The plain boot is forced the way a reader without the snapshot gets it: the server answers
``*.snap`` with 404 and the worker takes its announced fallback. Not with Playwright's
``page.route(...)``, although that answers the same 404: routing switches the browser's HTTP
cache off (measured: the warm reload then downloaded all 20.7 MB again, and the interception
cost about 0.2 s a boot), so the plain column's "warm" would have been a cold one.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import api  # noqa: E402
from harness.browser import QuietHandler, SiteServer, build_site  # noqa: E402
from scripts.browser_probes import (  # noqa: E402
    MODES,
    FileBytes,
    Transfers,
    boot_figures,
    boot_rows,
    boot_series,
    file_bytes,
    fresh_browser,
    print_boot_table,
    print_checks,
    print_file_bytes,
    print_transfers,
    suite_figures,
    suite_line,
)

HELPER_PAGE = "ryssea/kampfbeginn-und-initiative/"


class SnapshotSwitch(QuietHandler):
    """Answers ``*.snap`` with 404 while the server's ``refuse_snapshot`` is set."""

    def send_head(self) -> Any:
        refuse = getattr(self.server, "refuse_snapshot", False)
        if refuse and urlsplit(self.path).path.endswith(".snap"):
            self.send_error(404, "Benchmark: normaler Start ohne Schnellstart-Abbild")
            return None
        return super().send_head()


def build(server: SiteServer) -> float:
    """Build for the server's URL (instant navigation needs site_url to match) and time it."""
    started = time.perf_counter()
    proc = build_site(server.directory, server.url, root=ROOT)
    if proc.returncode != 0:
        raise SystemExit(f"mkdocs build --strict fehlgeschlagen:\n{proc.stderr}")
    return time.perf_counter() - started


def second_page(playwright: Any, base: str) -> dict[str, Any]:
    """One visit: helper page → another page → back, by clicking links (instant navigation)."""
    with fresh_browser(playwright) as context:
        page = context.pages[0]
        wasm: list[str] = []
        context.on(
            "request",
            lambda r: wasm.append(r.url) if r.url.endswith((".wasm", ".wasm.gz")) else None,
        )
        page.goto(base + HELPER_PAGE)
        boot_figures(page)
        page.evaluate("window.__sameVisit = true")
        page.locator("a.md-nav__link[href*='patzertabelle']").first.click()
        page.wait_for_url("**/patzertabelle/")
        page.locator("a.md-nav__link[href*='kampfbeginn-und-initiative']").first.click()
        page.wait_for_url("**/" + HELPER_PAGE)
        started = time.perf_counter()
        page.wait_for_selector(".rw-status[data-state='ready']", timeout=120_000)
        return {
            "same_visit": page.evaluate("window.__sameVisit === true"),
            "wasm_downloads": len(wasm),
            "ready_again_ms": (time.perf_counter() - started) * 1000,
        }


def browser_figures(server: SiteServer, runs: int) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    server.server.RequestHandlerClass = functools.partial(  # type: ignore[assignment]
        SnapshotSwitch, directory=str(server.directory)
    )

    def prepare(context: Any, mode: str) -> None:
        server.server.refuse_snapshot = mode == "plain"  # type: ignore[attr-defined]

    url = server.url + HELPER_PAGE
    out: dict[str, Any] = {"transfers": {}}
    with sync_playwright() as playwright:
        out["series"] = boot_series(playwright, runs, url, prepare)
        for mode in MODES:
            with fresh_browser(playwright) as context:
                prepare(context, mode)
                transfers = Transfers(context)
                page = context.pages[0]
                page.goto(url)
                boot_figures(page)
                transfers.settle(page)
                out["transfers"][mode] = transfers.by_kind()
                if mode == "snapshot":
                    rows = file_bytes(transfers.fetched, server.directory, server.url)
                    out["files"] = [dataclasses.asdict(row) for row in rows]
        prepare(None, "snapshot")
        out["second_page"] = second_page(playwright, server.url)
    return out


def action_figures() -> list[tuple[str, float, float]]:
    rows = []
    for system in api.catalog()["systems"]:
        for action in system["actions"]:
            spec = api.describe(system["name"], action["name"])
            params = {p["name"]: p["default"] for p in spec["params"]}
            times = []
            for seed in range(30):
                started = time.perf_counter()
                answer = api.run(system["name"], action["name"], params, seed)
                times.append((time.perf_counter() - started) * 1000)
                assert answer["ok"], answer
            rows.append(
                (f"{system['name']}.{action['name']}", statistics.median(times), max(times))
            )
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="Läufe je Spalte (Standard 5)")
    parser.add_argument("--suite", action="store_true", help="auch die Testsuite einmal timen")
    parser.add_argument("--json", action="store_true", help="figures as JSON")
    args = parser.parse_args()

    figures: dict[str, Any] = {"runs": args.runs}
    with tempfile.TemporaryDirectory() as tmp:
        server = SiteServer(Path(tmp) / "site")
        figures["build_s"] = build(server)
        server.start()
        try:
            figures["browser"] = browser_figures(server, args.runs)
        finally:
            server.stop()
    figures["actions"] = action_figures()
    figures["suite"] = suite_figures(args.suite)

    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    b = figures["browser"]
    print(f"{'Site-Build (mkdocs build --strict):':<58} {figures['build_s']:.2f} s")
    print_boot_table(b["series"], boot_rows(), args.runs)
    print_checks(b["series"])
    transfers = b["transfers"]
    print_transfers(transfers, " (der lokale Server komprimiert nicht)")
    print_file_bytes([FileBytes(**row) for row in b["files"]])
    seen = all(transfers[mode]["wasm"] > 0 for mode in MODES)
    print(f"  Anfragen des Workers mitgezählt (wasm gesehen): {'ja' if seen else 'NEIN'}")
    second = b["second_page"]
    print(
        f"{'Zurück zur Helferseite im selben Besuch:':<58} bereit nach "
        f"{second['ready_again_ms']:.0f} ms, Seite nicht neu geladen:"
        f" {'ja' if second['same_visit'] else 'nein'},"
        f" pyodide.asm.wasm(.gz) {second['wasm_downloads']}× geladen"
    )
    print(suite_line(figures["suite"]))
    print(
        "Engine run() auf CPython inkl. exakter Wahrscheinlichkeiten "
        "(Median / Maximum über 30 Seeds):"
    )
    for name, median, worst in figures["actions"]:
        print(f"  {name:<36} {median:7.2f} ms / {worst:7.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
