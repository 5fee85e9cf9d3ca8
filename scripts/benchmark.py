"""Benchmark: prints figures, asserts nothing (targets are read by people, not by CI).

    .venv/bin/python scripts/benchmark.py [--runs N]

Measures, in Debian Chromium against the site served on 127.0.0.1:
- site build time (``mkdocs build --strict``),
- time from navigation to "helper ready", cold (fresh browser context) and warm (reload),
- the longest main-thread task while booting (PerformanceObserver "longtask"),
- click-to-result time of a roll (median and worst over several clicks),
- whether a second page in the same visit boots Pyodide again (instant navigation),
- every action's ``run`` time on CPython, probabilities included.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import api  # noqa: E402
from scripts.browser_probes import CLICK_TIMER, LONGTASK_OBSERVER  # noqa: E402
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.conftest import SiteServer, build_site  # noqa: E402

HELPER_PAGE = "ryssea/kampfbeginn-und-initiative/"


def build(server: SiteServer) -> float:
    """Build for the server's URL (instant navigation needs site_url to match) and time it."""
    started = time.perf_counter()
    proc = build_site(server.directory, server.url)
    if proc.returncode != 0:
        raise SystemExit(f"mkdocs build --strict fehlgeschlagen:\n{proc.stderr}")
    return time.perf_counter() - started


def boot_figures(page: Any) -> dict[str, float]:
    page.wait_for_selector(".rw-status[data-state='ready']", timeout=120_000)
    timing = page.evaluate("window.__regelwerk")
    tasks = page.evaluate("window.__longtasks")

    def longest(start: float, end: float) -> float:
        return max((t["duration"] for t in tasks if start <= t["start"] < end), default=0.0)

    return {
        "ready_ms": timing["ready"],
        "boot_start_ms": timing["bootStart"],
        "worker_ms": timing["workerMs"],
        # tasks of the page load itself (Material), before the engine starts booting
        "longest_page_load_task_ms": longest(0, timing["bootStart"]),
        # tasks while the worker boots Pyodide and the engine
        "longest_boot_task_ms": longest(timing["bootStart"], timing["ready"]),
    }


def browser_figures(base: str, runs: int) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    out: dict[str, Any] = {"cold": [], "warm": [], "clicks": []}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for _ in range(runs):
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            context.add_init_script(LONGTASK_OBSERVER)
            page = context.new_page()
            page.goto(base + HELPER_PAGE)
            out["cold"].append(boot_figures(page))
            page.reload()
            out["warm"].append(boot_figures(page))
            page.locator("summary", has_text="Seed").first.click()
            for i in range(10):
                page.locator("[data-path='seed']").first.fill(str(i))
                out["clicks"].append(page.evaluate(CLICK_TIMER))
            context.close()
        # one visit: helper page → another page → back, by clicking links (instant navigation)
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        wasm: list[str] = []
        page.on("request", lambda r: wasm.append(r.url) if r.url.endswith(".wasm") else None)
        page.goto(base + HELPER_PAGE)
        page.wait_for_selector(".rw-status[data-state='ready']", timeout=120_000)
        page.evaluate("window.__sameVisit = true")
        page.locator("a.md-nav__link[href*='patzertabelle']").first.click()
        page.wait_for_url("**/patzertabelle/")
        page.locator("a.md-nav__link[href*='kampfbeginn-und-initiative']").first.click()
        page.wait_for_url("**/" + HELPER_PAGE)
        started = time.perf_counter()
        page.wait_for_selector(".rw-status[data-state='ready']", timeout=120_000)
        out["second_page"] = {
            "same_visit": page.evaluate("window.__sameVisit === true"),
            "wasm_downloads": len(wasm),
            "ready_again_ms": (time.perf_counter() - started) * 1000,
        }
        context.close()
        browser.close()
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
    parser.add_argument("--runs", type=int, default=3, help="cold/warm measurements (default 3)")
    parser.add_argument("--json", action="store_true", help="figures as JSON")
    args = parser.parse_args()

    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        server = SiteServer(Path(tmp) / "site")
        figures["build_s"] = build(server)
        server.start()
        try:
            figures["browser"] = browser_figures(server.url, args.runs)
        finally:
            server.stop()
    figures["actions"] = action_figures()

    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    b = figures["browser"]

    def runs(key: str, field: str) -> str:
        values = [r[field] for r in b[key]]
        listed = ", ".join(f"{v:.0f}" for v in values)
        return f"median {statistics.median(values):.0f} ms  (Läufe: {listed})"

    runs_all = b["cold"] + b["warm"]
    longest = max(r["longest_boot_task_ms"] for r in runs_all)
    page_load = max(r["longest_page_load_task_ms"] for r in runs_all)
    clicks = b["clicks"]
    print(f"Site-Build (mkdocs build --strict):          {figures['build_s']:.2f} s")
    print(f"Helfer bereit nach Navigation, kalt:          {runs('cold', 'ready_ms')}")
    print(f"Helfer bereit nach Navigation, warm:          {runs('warm', 'ready_ms')}")
    print(f"davon Start im Worker (Pyodide + Engine):     {runs('cold', 'worker_ms')}")
    print(f"Boot beginnt (Browser im Leerlauf) nach:      {runs('cold', 'boot_start_ms')}")
    print(f"Längste Hauptthread-Aufgabe beim Booten:      {longest:.0f} ms (über alle Läufe)")
    print(f"Längste Aufgabe beim Seitenaufbau (Material): {page_load:.0f} ms (vor dem Boot)")
    print(
        f"Klick bis Ergebnis:                           median {statistics.median(clicks):.1f} ms,"
        f" schlechtester {max(clicks):.1f} ms ({len(clicks)} Klicks)"
    )
    second = b["second_page"]
    print(
        f"Zurück zur Helferseite im selben Besuch:      bereit nach "
        f"{second['ready_again_ms']:.0f} ms,"
        f" Seite nicht neu geladen: {'ja' if second['same_visit'] else 'nein'},"
        f" pyodide.asm.wasm {second['wasm_downloads']}× geladen"
    )
    print(
        "Engine run() auf CPython inkl. exakter Wahrscheinlichkeiten "
        "(Median / Maximum über 30 Seeds):"
    )
    for name, median, worst in figures["actions"]:
        print(f"  {name:<36} {median:7.2f} ms / {worst:7.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
