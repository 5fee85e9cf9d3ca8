"""Benchmark of seeing the odds (issue #44): drawing a chart, and „Was wäre wenn“ in the browser.

    .venv/bin/python scripts/benchmark_odds.py [--site SITE] [--runs N]

Prints figures and asserts nothing (targets: a chart drawn in ≤ 16 ms – one frame –, the
biggest „Was wäre wenn“ answered in ≤ 300 ms). Needs the built site (``make site``) in SITE
(default: site/) and Debian's chromium (``make chromium``).

1. In CPython, every action of every system is run with its form's defaults (``describe``'s
   ``default`` of each field): the result with the most bars in one ``distribution`` section is
   the chart measured; every action that names the opponent's value (``what_if``) has
   ``engine.api.what_if`` timed with the same defaults (and the fields the opponent's value
   needs set as its ``when`` asks) – the slowest is the request measured.
2. In Chromium, on that system's Kampfhelfer page (the engine booted in its worker):
   - the chart: the page's own chart module (helpers/chart.js, served from the source next to
     the built site, the code the bundle holds) draws that section N times into a helper's
     result – „aufbauen“ is building the SVG and its table, „mit Layout“ adds putting it into
     the page and the browser's style and layout of it (what a reader waits for before the
     chart's frame; a table of more than 40 rows gets its further rows 40 per later frame);
     the same for the widest section the engine ever sends (``engine.display.MAX_BARS`` bars,
     20W1000 in ranges of 100 values);
   - „Was wäre wenn“: the request through the page's worker (``Regelwerk.runEngine``), N times,
     from sending until the answer is read.
Medians of N (default 15 for the chart, 5 for the request).
"""

from __future__ import annotations

import argparse
import functools
import http.server
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

CHART_TARGET_MS = 16.0
WHAT_IF_TARGET_MS = 300.0
SOURCE_PREFIX = "/__odds_source__/"


def defaults(system: str, action: str) -> dict[str, Any]:
    import engine

    spec = engine.describe(system, action)
    return {p["name"]: p["default"] for p in spec["params"] if p.get("default") is not None}


def actions() -> list[tuple[str, str, dict[str, Any]]]:
    import engine

    out = []
    for system in engine.catalog()["systems"]:
        for action in system["actions"]:
            spec = engine.describe(system["name"], action["name"])
            if spec.get("widget"):
                continue
            out.append((system["name"], action["name"], spec))
    return out


def largest_distribution() -> tuple[str, str, dict[str, Any]] | None:
    """(system, action, section) of the default result with the most bars in one section."""
    from engine import api

    best: tuple[str, str, dict[str, Any]] | None = None
    for system, action, _ in actions():
        body = api.run(system, action, defaults(system, action), 1)
        if not body.get("ok"):
            continue
        for section in body["result"]["display"]["sections"]:
            if section.get("kind") != "distribution":
                continue
            if best is None or len(section["bars"]) > len(best[2]["bars"]):
                best = (system, action, section)
    return best


def widest_section() -> dict[str, Any]:
    """The widest chart the engine sends: 20W1000 in MAX_BARS ranges of 100 values."""
    from engine import dice
    from engine.display import MAX_BARS, Display

    display = Display("Benchmark")
    display.distribution(
        "Schaden (20W1000)", "Schaden", dice.distribution(dice.parse("20W1000")), before=True
    )
    section = display.sections[0]
    assert len(section["bars"]) == MAX_BARS, len(section["bars"])
    return section


def slowest_what_if(runs: int = 3) -> tuple[str, str, dict[str, Any], float, int] | None:
    """(system, action, params, median ms, rows) of the slowest what_if in CPython."""
    from engine import api

    slowest = None
    for system, action, spec in actions():
        if not spec.get("what_if"):
            continue
        params = defaults(system, action)
        # the fields the opponent's value needs (its `when`, e.g. „Abwehr gelungen“)
        field = next(p for p in spec["params"] if p["name"] == spec["what_if"])
        params.update({other: allowed[0] for other, allowed in (field.get("when") or {}).items()})
        times = []
        body: dict[str, Any] = {}
        for _ in range(runs):
            started = time.perf_counter()
            body = api.what_if(system, action, params)
            times.append((time.perf_counter() - started) * 1000)
        if not body.get("ok"):
            print(f"  {system}.{action}: {body['error']['message']}")
            continue
        ms = statistics.median(times)
        rows = len(body["what_if"]["rows"])
        print(f"  {system}.{action}: {ms:.0f} ms in CPython, {rows} Werte")
        if slowest is None or ms > slowest[3]:
            slowest = (system, action, params, ms, rows)
    return slowest


DRAW = """async ([url, section, runs]) => {
  const { drawDistribution } = await import(url);
  const host = document.querySelector(".rw-helper .rw-result") || document.body;
  const build = [];
  const full = [];
  for (let i = 0; i < runs + 2; i++) {
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
    const t0 = performance.now();
    const chart = drawDistribution(section);
    const t1 = performance.now();
    host.replaceChildren(chart);
    chart.getBoundingClientRect();  // style and layout, now
    document.body.offsetHeight;
    const t2 = performance.now();
    if (i >= 2) { build.push(t1 - t0); full.push(t2 - t0); }  // two runs to warm up
  }
  host.replaceChildren();
  return { build, full };
}"""

ASK = """async ([request, runs]) => {
  const times = [];
  let rows = 0;
  for (let i = 0; i < runs + 1; i++) {
    const t0 = performance.now();
    const body = await window.Regelwerk.runEngine(request);
    const ms = performance.now() - t0;
    if (!body.ok) return { error: body.error.message };
    rows = body.what_if.rows.length;
    if (i >= 1) times.push(ms);  // the first warms the engine's imports
  }
  return { times, rows };
}"""


class Handler(http.server.SimpleHTTPRequestHandler):
    """The built site, and the browser modules' source under SOURCE_PREFIX."""

    def log_message(self, format: str, *args: object) -> None:
        pass

    def translate_path(self, path: str) -> str:
        if path.startswith(SOURCE_PREFIX):
            inner = path[len(SOURCE_PREFIX) :].split("?")[0]
            return str(ROOT / "site_plugins" / "assets" / "js" / inner)
        return super().translate_path(path)


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def verdict(ms: float, target: float) -> str:
    return "erreicht" if ms <= target else "VERFEHLT"


def browser(site: Path, runs: int, charts: list[tuple[str, dict[str, Any]]], ask: Any) -> None:
    from playwright.sync_api import sync_playwright

    from harness.browser import CHROMIUM_ARGS, READER_CHROMIUM

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Handler, directory=str(site))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    system = ask[0] if ask else "pathfinder"
    try:
        with sync_playwright() as playwright:
            instance = playwright.chromium.launch(
                executable_path=READER_CHROMIUM, args=CHROMIUM_ARGS
            )
            page = instance.new_page(viewport={"width": 1280, "height": 900}, locale="de-DE")
            page.goto(f"{base}{system}/kampfhelfer/")
            page.wait_for_function(
                "() => window.__regelwerk && window.__regelwerk.ready", timeout=180_000
            )
            print(
                f"\nChromium ({READER_CHROMIUM}), Seite {system}/kampfhelfer/, Median von {runs}:"
            )
            for name, section in charts:
                figures = page.evaluate(
                    DRAW, [f"{base}{SOURCE_PREFIX[1:]}helpers/chart.js", section, runs]
                )
                build, full = median(figures["build"]), median(figures["full"])
                print(
                    f"  Diagramm zeichnen, {name} ({len(section['bars'])} Balken): "
                    f"aufbauen {build:.1f} ms, mit Layout {full:.1f} ms "
                    f"(Ziel ≤ {CHART_TARGET_MS:.0f} ms: {verdict(full, CHART_TARGET_MS)})"
                )
            if ask:
                a_system, action, params, _, _ = ask
                request = {
                    "type": "what_if",
                    "system": a_system,
                    "action": action,
                    "params": params,
                }
                answer = page.evaluate(ASK, [request, max(3, runs // 3)])
                if "error" in answer:
                    print(f"  Was wäre wenn {a_system}.{action}: Fehler {answer['error']}")
                else:
                    ms = median(answer["times"])
                    print(
                        f"  Was wäre wenn {a_system}.{action} ({answer['rows']} Werte) über den "
                        f"Worker der Seite: {ms:.0f} ms "
                        f"(Ziel ≤ {WHAT_IF_TARGET_MS:.0f} ms: {verdict(ms, WHAT_IF_TARGET_MS)}; "
                        f"Einzelwerte {', '.join(f'{t:.0f}' for t in answer['times'])})"
                    )
            instance.close()
    finally:
        server.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, default=ROOT / "site")
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    if not (args.site / "index.html").is_file():
        sys.exit(f"{args.site}: keine gebaute Seite – erst `make site`")
    print("Größte Verteilung unter den Ergebnissen mit den Vorgaben der Helfer (CPython):")
    charts: list[tuple[str, dict[str, Any]]] = []
    found = largest_distribution()
    if found is None:
        print("  keine – noch kein Helfer gibt einen Abschnitt „distribution“ aus")
    else:
        system, action, section = found
        print(f"  {system}.{action}: „{section['caption']}“, {len(section['bars'])} Balken")
        charts.append((f"{system}.{action}", section))
    charts.append(("breiteste mögliche (20W1000)", widest_section()))
    print("„Was wäre wenn“ jeder Aktion mit den Vorgaben ihres Formulars (CPython, Median von 3):")
    ask = slowest_what_if()
    if ask is None:
        print("  keine Aktion nennt einen Wert des Gegners (what_if)")
    else:
        print(f"  am langsamsten: {ask[0]}.{ask[1]} ({ask[3]:.0f} ms, {ask[4]} Werte)")
    browser(args.site, args.runs, charts, ask)


if __name__ == "__main__":
    main()
