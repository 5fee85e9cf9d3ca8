"""Benchmark with Lighthouse (mobile preset): prints figures, asserts nothing.

    .venv/bin/python scripts/benchmark_lighthouse.py [--runs N] [--site SITE] [--json]

Builds the site into a temporary folder (or takes a built one: ``--site site``), serves it
on 127.0.0.1 from a server that gzips text as a host does (nginx's and Apache's level 6),
and runs Lighthouse 12 (node_modules, package.json) in Debian's full ``chromium``
(``CHROME_PATH``; ``--headless=new --no-sandbox``) with its mobile preset: a phone's screen,
simulated slow 4G (150 ms, 1.6 Mbit/s) and a CPU 4× slower. Every run is a cold first visit
(Lighthouse empties the storage of the origin before it loads the page). Chromium resolves
no host name (``--host-resolver-rules``): nothing leaves the machine; a request to another
host than 127.0.0.1 is printed.

Five pages, chosen from the built site: the start page, the player view ``spieler/``, the
first rule page without a helper, the rule page with the fewest helpers and the first
Kampfhelfer page (the sitemap's order; print pages left out). ``--seite PFAD`` measures
other pages instead (repeatable).

Per page the median of ``--runs`` (default 3) runs: the four scores (performance,
accessibility, best practices, SEO), Total Blocking Time, Cumulative Layout Shift, Largest
Contentful Paint, the bytes transferred in all, and the JavaScript bytes as sent (gzipped):
ours (``assets/regelwerk*/``, ``assets/pwa/``, ``sw.js``: page scripts and workers) and
Material's. Then what the scores lose (the failing audits of the last run) and the long
tasks on the main thread Lighthouse saw (simulated 4× CPU) with the script they came from, and
in how many runs the page loaded Material's search index (``search_index.json``) and its
bytes with the documents (``search_docs.json``, fetched only when the reader searches).

``--lange-aufgaben``: instead of Lighthouse, each page ``--runs`` times in Playwright (Debian's
chromium, a new context each time, the web app's service worker allowed, the CPU 4× slower
through CDP ``Emulation.setCPUThrottlingRate``) for 15 s: the long tasks
(PerformanceObserver ``longtask``) and, from the Long Animation Frames, every script entry of
at least 5 ms with its file and what called it (the biggest per file and caller).

``--json`` prints the figures of every run; ``--tabelle FILE`` prints the table of such a file.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gzip
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from harness.browser import CHROMIUM_ARGS, READER_CHROMIUM, QuietHandler, SiteServer, build_site  # noqa: E402

LIGHTHOUSE = ROOT / "node_modules" / "lighthouse" / "cli" / "index.js"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
CATEGORY_LABELS = {
    "performance": "Leistung",
    "accessibility": "Barrierefreiheit",
    "best-practices": "Best Practices",
    "seo": "SEO",
}
# what a host compresses (by file extension); a .gz, a zip, a picture or the snapshot goes
# as it is
GZIP_SUFFIXES = {".html", ".js", ".mjs", ".css", ".json", ".svg", ".xml", ".txt", ".webmanifest"}
HOST_GZIP_LEVEL = 6
# ours: page scripts, workers, the web app's scripts (Material's are in assets/javascripts/)
OURS = re.compile(r"/(assets/regelwerk[^/]*/|assets/pwa/|assets/offline/|sw\.js$)")
MATERIAL = re.compile(r"/assets/javascripts/")
# Material's search index (online: its config; the documents apart, search_docs.json)
SEARCH = re.compile(r"/search/search_(index|docs)\.json$")
CHROME_FLAGS = [
    "--headless=new",
    *CHROMIUM_ARGS,
    # nothing but 127.0.0.1 (an address, not a name) is reached
    "--host-resolver-rules=MAP * ~NOTFOUND",
]
RUN_TIMEOUT_S = 300


def gzip_handler(cache: dict[tuple[str, float], bytes], lock: threading.Lock) -> type:
    class Handler(QuietHandler):
        """Serves a text file gzipped when the browser accepts it (as a host does)."""

        def do_GET(self) -> None:
            path = Path(self.translate_path(self.path))
            if path.is_dir() and self.path.split("?")[0].endswith("/"):
                path = path / "index.html"
            accepts = "gzip" in self.headers.get("Accept-Encoding", "")
            if not (accepts and path.is_file() and path.suffix in GZIP_SUFFIXES):
                super().do_GET()
                return
            key = (str(path), path.stat().st_mtime)
            with lock:
                body = cache.get(key)
            if body is None:
                body = gzip.compress(path.read_bytes(), HOST_GZIP_LEVEL, mtime=0)
                with lock:
                    cache[key] = body
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(str(path)))
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Vary", "Accept-Encoding")
            self.end_headers()
            self.wfile.write(body)

    return Handler


@contextlib.contextmanager
def served(site: Path | None) -> Iterator[SiteServer]:
    """The site on 127.0.0.1, gzipping: built into a temporary folder, or ``site`` as it is."""
    with tempfile.TemporaryDirectory() as tmp:
        if site is None:
            server = SiteServer(Path(tmp) / "site")
            proc = build_site(server.directory, server.url, root=ROOT)
            if proc.returncode != 0:
                raise SystemExit(f"mkdocs build --strict fehlgeschlagen:\n{proc.stderr}")
        else:
            server = SiteServer(site.resolve())
        server.server.RequestHandlerClass = functools.partial(
            gzip_handler({}, threading.Lock()), directory=str(server.directory)
        )
        server.start()
        try:
            yield server
        finally:
            server.stop()


def sitemap_paths(site: Path) -> list[str]:
    text = (site / "sitemap.xml").read_text("utf-8")
    return [urlsplit(loc).path.lstrip("/") for loc in re.findall(r"<loc>([^<]+)</loc>", text)]


def choose_pages(site: Path) -> dict[str, str]:
    """The five pages, read from the built site (the sitemap's order)."""
    rule_pages: list[tuple[str, str]] = []
    for path in sitemap_paths(site):
        if path.count("/") != 2:  # a system's page: <system>/<page>/
            continue
        html = (site / path / "index.html").read_text("utf-8")
        if "rw-druck-inhalt" not in html:
            rule_pages.append((path, html))
    helpers = {path: html.count('class="rw-helper') for path, html in rule_pages}
    fight = [path for path, html in rule_pages if "rw-workbench" in html]
    without = [path for path, count in helpers.items() if count == 0]
    with_helpers = sorted(
        (count, path) for path, count in helpers.items() if count and path not in fight
    )
    if not (fight and without and with_helpers):
        raise SystemExit("Im gebauten Auftritt fehlt eine der Seitenarten")
    return {
        "Startseite": "",
        "Spielersicht": "spieler/",
        "Regelseite ohne Helfer": without[0],
        "Regelseite mit Helfer": with_helpers[0][1],
        "Kampfhelfer": fight[0],
    }


def lighthouse(url: str) -> dict[str, Any]:
    """One Lighthouse run (mobile preset, the four categories): its report as a dict."""
    env = dict(os.environ, CHROME_PATH=READER_CHROMIUM)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "report.json"
        proc = subprocess.run(
            [
                "node",
                str(LIGHTHOUSE),
                url,
                "--quiet",
                "--output=json",
                f"--output-path={out}",
                f"--only-categories={','.join(CATEGORIES)}",
                f"--chrome-flags={' '.join(CHROME_FLAGS)}",
                "--locale=de",
            ],
            capture_output=True,
            text=True,
            env=env,
            timeout=RUN_TIMEOUT_S,
            check=False,
        )
        if proc.returncode != 0 or not out.exists():
            raise SystemExit(f"Lighthouse fehlgeschlagen für {url}:\n{proc.stderr[-3000:]}")
        report: dict[str, Any] = json.loads(out.read_text("utf-8"))
    if report.get("runtimeError"):
        raise SystemExit(f"Lighthouse meldet für {url}: {report['runtimeError']}")
    return report


def figures(report: dict[str, Any], base: str) -> dict[str, Any]:
    audits = report["audits"]
    requests = audits["network-requests"]["details"]["items"]
    scripts = [r for r in requests if r.get("url", "").split("?")[0].endswith((".js", ".mjs"))]
    failing = {
        cat: [
            ref["id"]
            for ref in report["categories"][cat]["auditRefs"]
            if ref.get("weight")
            and audits[ref["id"]].get("score") is not None
            and audits[ref["id"]]["score"] < 1
        ]
        for cat in CATEGORIES
    }
    long_tasks = [
        {"url": t.get("url", ""), "ms": t.get("duration", 0), "start": t.get("startTime", 0)}
        for t in (audits.get("long-tasks", {}).get("details") or {}).get("items", [])
    ]
    return {
        "scores": {
            cat: round(100 * (report["categories"][cat]["score"] or 0)) for cat in CATEGORIES
        },
        "tbt_ms": audits["total-blocking-time"]["numericValue"],
        "cls": audits["cumulative-layout-shift"]["numericValue"],
        "lcp_ms": audits["largest-contentful-paint"]["numericValue"],
        "bytes": audits["total-byte-weight"]["numericValue"],
        "js_ours": sum(r.get("transferSize", 0) for r in scripts if OURS.search(r["url"])),
        "js_material": sum(r.get("transferSize", 0) for r in scripts if MATERIAL.search(r["url"])),
        "elsewhere": sorted(
            {r["url"] for r in requests if not r["url"].startswith((base, "data:", "blob:"))}
        ),
        "search_index": any("search_index.json" in r["url"] for r in requests),
        "search_bytes": sum(r.get("transferSize", 0) for r in requests if SEARCH.search(r["url"])),
        "failing": failing,
        "long_tasks": long_tasks,
    }


def measure(
    server: SiteServer, pages: dict[str, str], runs: int
) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for label, path in pages.items():
        out[label] = []
        for number in range(1, runs + 1):
            print(f"… {label} ({path or '/'}), Lauf {number}/{runs}", file=sys.stderr, flush=True)
            out[label].append(figures(lighthouse(server.url + path), server.url))
    return out


def german(value: float, digits: int = 0) -> str:
    return f"{value:,.{digits}f}".replace(",", " ").replace(".", ",")


def kilobytes(value: float) -> str:
    return german(value / 1000, 0 if value >= 10_000 else 1) + " kB"


def median(runs: list[dict[str, Any]], key: str, sub: str | None = None) -> float:
    return float(statistics.median(run[key][sub] if sub else run[key] for run in runs))


def print_table(pages: dict[str, str], measured: dict[str, list[dict[str, Any]]]) -> None:
    columns = [
        ("Seite", 24),
        ("Leist.", 6),
        ("Barr.", 6),
        ("BP", 4),
        ("SEO", 4),
        ("TBT", 8),
        ("CLS", 6),
        ("LCP", 8),
        ("gesamt", 10),
        ("JS unser", 9),
        ("JS Material", 11),
    ]
    print(
        " ".join(
            f"{name:>{width}}" if i else f"{name:<{width}}"
            for i, (name, width) in enumerate(columns)
        )
    )
    for label, runs in measured.items():
        cells = [
            label,
            *(f"{median(runs, 'scores', cat):.0f}" for cat in CATEGORIES),
            german(median(runs, "tbt_ms")) + " ms",
            german(median(runs, "cls"), 3),
            german(median(runs, "lcp_ms") / 1000, 1) + " s",
            kilobytes(median(runs, "bytes")),
            kilobytes(median(runs, "js_ours")),
            kilobytes(median(runs, "js_material")),
        ]
        print(
            " ".join(
                f"{cell:>{width}}" if i else f"{cell:<{width}}"
                for i, (cell, (_, width)) in enumerate(zip(cells, columns, strict=True))
            )
        )
    print(
        "Median je Seite; Leist./Barr./BP/SEO: Lighthouse-Punkte (Leistung, Barrierefreiheit, "
        "Best Practices, SEO); TBT, LCP simuliert (langsames 4G, CPU 4×); gesamt und JS: "
        "übertragene Bytes (gzip)"
    )
    print("Seiten: " + ", ".join(f"{label} = /{path}" for label, path in pages.items()))
    for label, runs in measured.items():
        last = runs[-1]
        lost = "; ".join(
            f"{CATEGORY_LABELS[cat]}: {', '.join(ids)}"
            for cat, ids in last["failing"].items()
            if ids
        )
        print(f"\n{label}: nicht bestanden (letzter Lauf): {lost or '–'}")
        index = sum(run["search_index"] for run in runs)
        sizes = ", ".join(kilobytes(run["search_bytes"]) for run in runs if "search_bytes" in run)
        print(
            f"  Suchindex (search_index.json) geladen: in {index} von {len(runs)} Läufen"
            + (f", übertragen mit den Dokumenten: {sizes}" if sizes else "")
        )
        tasks = last["long_tasks"]
        if tasks:
            print(f"  lange Aufgaben im Hauptthread (simuliert, CPU 4×): {len(tasks)}")
            for task in sorted(tasks, key=lambda t: -t["ms"])[:8]:
                source = urlsplit(task["url"]).path or task["url"] or "(ohne Skript)"
                print(f"    {german(task['ms']):>6} ms ab {german(task['start']):>6} ms  {source}")
        else:
            print("  keine langen Aufgaben im Hauptthread")
        elsewhere = sorted({url for run in runs for url in run["elsewhere"]})
        if elsewhere:
            print("  Anfragen an andere Hosts: " + ", ".join(elsewhere))


# Long tasks and the scripts of long animation frames, collected from the page's start.
LONG_TASKS_PROBE = """
window.__rwLong = { tasks: [], scripts: [] };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__rwLong.tasks.push(e.duration);
}).observe({ type: "longtask", buffered: true });
new PerformanceObserver((list) => {
  for (const frame of list.getEntries()) {
    for (const s of frame.scripts) {
      if (s.duration >= 5) {
        window.__rwLong.scripts.push({ url: s.sourceURL, invoker: s.invoker, ms: s.duration });
      }
    }
  }
}).observe({ type: "long-animation-frame", buffered: true });
"""
LONG_TASKS_WATCH_MS = 15_000


def long_tasks(server: SiteServer, pages: dict[str, str], runs: int) -> dict[str, Any]:
    """Per page and run: the long tasks' durations and the long frames' script entries."""
    from playwright.sync_api import sync_playwright

    out: dict[str, Any] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=READER_CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for label, path in pages.items():
                out[label] = []
                for number in range(1, runs + 1):
                    print(f"… {label}, Lauf {number}/{runs}", file=sys.stderr, flush=True)
                    context = browser.new_context(service_workers="allow", locale="de-DE")
                    try:
                        context.add_init_script(LONG_TASKS_PROBE)
                        page = context.new_page()
                        cdp = context.new_cdp_session(page)
                        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
                        page.goto(server.url + path)
                        page.wait_for_timeout(LONG_TASKS_WATCH_MS)
                        out[label].append(page.evaluate("window.__rwLong"))
                    finally:
                        context.close()
        finally:
            browser.close()
    return out


def print_long_tasks(measured: dict[str, Any]) -> None:
    print("Lange Aufgaben im Hauptthread, CPU 4× (CDP), 15 s ab dem Laden; je Lauf:")
    for label, runs in measured.items():
        counts = ", ".join(f"{len(r['tasks'])} ({german(sum(r['tasks']))} ms)" for r in runs)
        print(f"\n{label}: {counts}")
        biggest: dict[tuple[str, str], float] = {}
        for run in runs:
            for entry in run["scripts"]:
                key = (urlsplit(entry["url"]).path or "(ohne Datei)", entry["invoker"][:50])
                biggest[key] = max(biggest.get(key, 0.0), entry["ms"])
        for (source, invoker), ms in sorted(biggest.items(), key=lambda i: -i[1])[:8]:
            print(f"  {german(ms):>6} ms  {source}  ({invoker})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="Läufe je Seite (Standard 3)")
    parser.add_argument("--site", type=Path, help="einen gebauten Auftritt nehmen statt zu bauen")
    parser.add_argument("--seite", action="append", help="nur diese Seite (Pfad, wiederholbar)")
    parser.add_argument("--json", action="store_true", help="Zahlen als JSON")
    parser.add_argument("--tabelle", type=Path, help="die Tabelle aus einer --json-Ausgabe drucken")
    parser.add_argument(
        "--lange-aufgaben",
        action="store_true",
        help="statt Lighthouse: lange Aufgaben und ihre Skripte (Playwright, CPU 4×)",
    )
    args = parser.parse_args()
    if args.tabelle:
        saved = json.loads(args.tabelle.read_text("utf-8"))
        print_table(saved["pages"], saved["runs"])
        return 0
    if not LIGHTHOUSE.exists():
        raise SystemExit("Lighthouse fehlt in node_modules: npm ci")
    if not shutil.which("node"):
        raise SystemExit("node fehlt")

    with served(args.site) as server:
        pages = (
            {f"/{p.lstrip('/')}": p.lstrip("/") for p in args.seite}
            if args.seite
            else choose_pages(server.directory)
        )
        if args.lange_aufgaben:
            frames = long_tasks(server, pages, args.runs)
            if args.json:
                print(json.dumps({"pages": pages, "long_tasks": frames}, indent=2))
            else:
                print_long_tasks(frames)
            return 0
        measured = measure(server, pages, args.runs)
    if args.json:
        print(json.dumps({"pages": pages, "runs": measured}, indent=2, ensure_ascii=False))
    else:
        print_table(pages, measured)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
