"""Benchmark of the web app (service worker): prints figures, asserts nothing.

    .venv/bin/python scripts/benchmark_pwa.py [--runs N] [--json]

Builds the site into a temporary folder, serves it on 127.0.0.1 and measures in Debian
Chromium, each run with a new, empty browser profile (a cold first visit):
- the time from navigation start until the page shows „Offline bereit“ (what this visit
  stores is stored: the shell, the other pages and – after a page with helpers – the
  runtime), on the player view ``spieler/`` (a player's phone: no helper, no engine), on the
  start page (no helper) and on a helper page (the page loads the runtime itself, then the
  service worker stores it);
- the bytes stored for offline use after each of these first visits, read back through the
  Cache Storage API from the page (every cache, every response's body), per cache, and the
  largest files;
- what the server sent during each first visit (bytes; how often the big runtime files went
  out in full), i.e. whether a visit without helpers downloads the runtime at all and whether
  the helper page's downloads it twice.
"""

from __future__ import annotations

import argparse
import functools
import json
import re
import shutil
import statistics
import sys
import tempfile
import threading
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from harness.browser import CHROMIUM_ARGS, READER_CHROMIUM, QuietHandler, SiteServer, build_site  # noqa: E402  # noqa: E402

PAGES = {
    "Spielersicht": "spieler/",
    "Startseite": "",
    "Helferseite": "ryssea/kampfbeginn-und-initiative/",
}
READY_TIMEOUT_MS = 300_000
# the big runtime files: label → how their path ends
RUNTIME = {
    "pyodide.asm.wasm.gz": re.compile(r"/pyodide\.asm\.wasm(\.gz)?$"),
    "python_stdlib-*.zip": re.compile(r"/python_stdlib(-plain)?-[0-9a-f]+\.zip$"),
    ".snap": re.compile(r"\.snap$"),
}
# When „Offline bereit“ first appears (navigation start = 0).
READY_PROBE = """
window.__offlineReadyAt = null;
new MutationObserver(() => {
  if (window.__offlineReadyAt !== null) return;
  const line = document.querySelector(".rw-pwa-status");
  if (line && line.textContent.includes("Offline bereit")) {
    window.__offlineReadyAt = performance.now();
  }
}).observe(document, { subtree: true, childList: true, characterData: true });
"""
CACHE_BYTES = """async () => {
  const out = {};
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    let bytes = 0, files = 0;
    const each = [];
    for (const request of await cache.keys()) {
      const response = await cache.match(request);
      const size = (await response.arrayBuffer()).byteLength;
      bytes += size;
      files += 1;
      each.push([new URL(request.url).pathname, size]);
    }
    each.sort((a, b) => b[1] - a[1]);
    out[name] = { bytes, files, largest: each.slice(0, 8) };
  }
  return out;
}"""


class Sent:
    """What the server sent: full responses per path and body bytes (thread-safe)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.full: Counter[str] = Counter()
        self.not_modified: Counter[str] = Counter()
        self.bytes = 0

    def reset(self) -> None:
        with self.lock:
            self.full.clear()
            self.not_modified.clear()
            self.bytes = 0


def counting_handler(sent: Sent) -> type[QuietHandler]:
    class Handler(QuietHandler):
        def send_response(self, code: int, message: str | None = None) -> None:
            if code == 304:
                with sent.lock:
                    sent.not_modified[self.path] += 1
            super().send_response(code, message)

        def copyfile(self, source: Any, outputfile: Any) -> None:
            data = source.read()
            with sent.lock:
                sent.full[self.path] += 1
                sent.bytes += len(data)
            outputfile.write(data)

    return Handler


def cold_visit(playwright: Any, url: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=READER_CHROMIUM, args=CHROMIUM_ARGS, locale="de-DE"
        )
        try:
            context.add_init_script(READY_PROBE)
            page = context.pages[0] if context.pages else context.new_page()
            page.goto(url)
            page.wait_for_function(
                "() => window.__offlineReadyAt !== null", timeout=READY_TIMEOUT_MS
            )
            return {
                "ready_ms": float(page.evaluate("window.__offlineReadyAt")),
                "caches": page.evaluate(CACHE_BYTES),
                "status": page.evaluate("window.RegelwerkOffline.status"),
            }
        finally:
            context.close()


def measure(server: SiteServer, sent: Sent, runs: int) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    figures: dict[str, Any] = {"visits": {}, "sent": {}}
    with sync_playwright() as playwright:
        for label, path in PAGES.items():
            visits = []
            figures["sent"][label] = []
            for _ in range(runs):
                sent.reset()
                visits.append(cold_visit(playwright, server.url + path))
                with sent.lock:
                    figures["sent"][label].append(
                        {
                            "bytes": sent.bytes,
                            "full": {
                                name: sum(n for p, n in sent.full.items() if end.search(p))
                                for name, end in RUNTIME.items()
                            },
                            "not_modified": {
                                name: sum(n for p, n in sent.not_modified.items() if end.search(p))
                                for name, end in RUNTIME.items()
                            },
                        }
                    )
            figures["visits"][label] = visits
    return figures


def megabytes(value: float) -> str:
    return f"{value / 1e6:.1f} MB".replace(".", ",")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="kalte Besuche je Seite (Standard 3)")
    parser.add_argument("--json", action="store_true", help="Zahlen als JSON")
    args = parser.parse_args()

    sent = Sent()
    with tempfile.TemporaryDirectory() as tmp:
        server = SiteServer(Path(tmp) / "site")
        proc = build_site(server.directory, server.url, root=ROOT)
        if proc.returncode != 0:
            raise SystemExit(f"mkdocs build --strict fehlgeschlagen:\n{proc.stderr}")
        server.server.RequestHandlerClass = functools.partial(
            counting_handler(sent), directory=str(server.directory)
        )
        server.start()
        try:
            figures = measure(server, sent, args.runs)
        finally:
            server.stop()
            shutil.rmtree(server.directory, ignore_errors=True)

    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    for label, visits in figures["visits"].items():
        last = visits[-1]
        total = sum(c["bytes"] for c in last["caches"].values())
        files = sum(c["files"] for c in last["caches"].values())
        per_cache = ", ".join(
            f"{name}: {megabytes(c['bytes'])}" for name, c in last["caches"].items()
        )
        print(
            f"Gespeichert nach dem ersten Besuch, {label} (Cache Storage, im Browser gelesen): "
            f"{megabytes(total)} in {files} Dateien"
        )
        print(f"  je Cache: {per_cache}")
        largest = sorted(
            (item for c in last["caches"].values() for item in c["largest"]), key=lambda i: -i[1]
        )
        print("  die größten Dateien:")
        for path, size in largest[:5]:
            print(f"    {path.split('?')[0][-60:]:<60} {megabytes(size):>9}")
    status = figures["visits"]["Helferseite"][-1]["status"]
    groups = [("vorab (Startseite, Suche, Skripte …)", "core")]
    if "runtime" in status:
        groups.append(("Laufzeit (nach einer Seite mit Helfern)", "runtime"))
    groups.append(("übrige Seiten", "pages"))
    print(
        "  Listen des Service Workers: "
        + "; ".join(
            f"{text}: {megabytes(status[key]['bytes'])} in {status[key]['files']} Dateien"
            for text, key in groups
        )
    )
    for label, visits in figures["visits"].items():
        values = [v["ready_ms"] for v in visits]
        listed = ", ".join(f"{v:.0f}" for v in values)
        print(
            f"Kalter Besuch bis „Offline bereit“, {label}: "
            f"median {statistics.median(values):.0f} ms (Läufe: {listed})"
        )
    for label, runs in figures["sent"].items():
        for number, run in enumerate(runs, 1):
            full = ", ".join(f"{name} {count}×" for name, count in run["full"].items())
            print(
                f"Vom Server gesendet, erster Besuch {label} (Lauf {number}): "
                f"{megabytes(run['bytes'])}; ganz gesendet: {full}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
