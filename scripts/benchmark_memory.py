"""What the engine costs a phone in memory, and how fast it comes back after being freed.

    .venv/bin/python scripts/benchmark_memory.py [--site site] [--runs 3]

Prints figures and asserts nothing. Each run is Debian's full Chromium (the reader's browser,
``harness.browser.READER_CHROMIUM``) with a new, empty profile; after each step the memory of
every process of that browser is summed as PSS (``/proc/<pid>/smaps_rollup``: shared pages
split among the processes that share them, so the sum is what the browser really holds):

1. the start page (no helpers, no engine): the baseline,
2. a Kampfhelfer page with its engine ready (Pyodide booted from the snapshot in its worker),
   5 s after „ready“ and again 30 s after it (what the page holds while the game master plays:
   by then the browser has collected what the boot left, ≈ 20 MB),
3. the same page after its tab was hidden for longer than it keeps the engine (engine-client.js
   ``hiddenFreeMs``, shortened to 1 s here through ``window.__regelwerkHiddenFreeMs``; the tab
   is hidden as a phone switching apps hides it: ``document.visibilityState`` and its event),
4. shown again: the engine starts from the kept snapshot (OPFS) – the time until it is ready
   (``__regelwerk.restoreMs``) and the memory then.

The figures are medians of ``--runs``; the Kampfhelfer page is the first one the built site
has (no list of systems here). Issue #46's target: a page with the engine ≤ 100 MB more than a
page without helpers, restored in ≤ 0.5 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from harness.browser import (  # noqa: E402
    CHROMIUM_ARGS,
    READER_CHROMIUM,
    SiteServer,
    hidden_tab_script,
    set_hidden,
    wait_engine_ready,
)


def children(pid: int) -> list[int]:
    """``pid`` and every process below it."""
    found = [pid]
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            listed = (task / "children").read_text().split()
        except OSError:
            continue
        for child in listed:
            found += children(int(child))
    return found


def pss_mb(root: int) -> float:
    total_kb = 0
    for pid in children(root):
        try:
            text = Path(f"/proc/{pid}/smaps_rollup").read_text()
        except OSError:
            continue  # gone meanwhile
        for line in text.splitlines():
            if line.startswith("Pss:"):
                total_kb += int(line.split()[1])
    return total_kb / 1024


def browser_pid(playwright_pids_before: set[int]) -> int:
    """The Chromium started since ``playwright_pids_before`` (its browser process)."""
    for proc in sorted(Path("/proc").iterdir(), key=lambda p: p.name):
        if not proc.name.isdigit() or int(proc.name) in playwright_pids_before:
            continue
        try:
            command = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if command and command[0].endswith(b"chromium") and b"--type=" not in b" ".join(command):
            return int(proc.name)
    raise RuntimeError("Chromium nicht gefunden")


# After "ready" the worker keeps a downloaded snapshot in OPFS (3 s later, worker-snapshot.js
# KEEP_AFTER_MS; writing 31.5 MB takes a few tenths of a second) and then frees its bytes.
SETTLE_MS = 5000
# Chromium collects the rest of the boot's garbage on its own a while later (20–30 s after
# „ready“ on this machine, measured every 5–15 s up to a minute: 150 → 126 MB, then flat).
STEADY_AFTER_READY_MS = 30_000


def settle(page: Any) -> None:
    """Let the page finish what it started (keeping the snapshot, the web app's status)."""
    page.wait_for_timeout(SETTLE_MS)


def kampfhelfer(site: Path) -> str:
    for index in sorted(site.glob("*/kampfhelfer/index.html")):
        return f"{index.parent.parent.name}/kampfhelfer/"
    raise SystemExit(f"keine Kampfhelfer-Seite in {site}")


def one_run(playwright: Any, url: str, page_path: str) -> dict[str, float]:
    before = {int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit()}
    with tempfile.TemporaryDirectory(prefix="regelwerk-memory-") as profile:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=READER_CHROMIUM, args=CHROMIUM_ARGS
        )
        try:
            root = browser_pid(before)
            page = context.pages[0] if context.pages else context.new_page()
            page.add_init_script(hidden_tab_script(1000))
            page.goto(url)
            settle(page)
            text_page = pss_mb(root)
            page.goto(url + page_path)
            wait_engine_ready(page)
            ready_at = time.monotonic()
            settle(page)
            with_engine = pss_mb(root)
            page.wait_for_timeout(
                max(0.0, STEADY_AFTER_READY_MS - (time.monotonic() - ready_at) * 1000)
            )
            steady = pss_mb(root)
            set_hidden(page, True)
            page.wait_for_function("() => window.__regelwerk.freed >= 1", polling=100)
            settle(page)
            freed = pss_mb(root)
            started = time.monotonic()
            set_hidden(page, False)
            wait_engine_ready(page)
            waited = (time.monotonic() - started) * 1000
            restore = float(page.evaluate("window.__regelwerk.restoreMs"))
            settle(page)
            again = pss_mb(root)
        finally:
            context.close()
    return {
        "text": text_page,
        "engine": with_engine,
        "steady": steady,
        "freed": freed,
        "again": again,
        "restore_ms": restore,
        "waited_ms": waited,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=ROOT / "site", help="gebaute Seite")
    parser.add_argument("--runs", type=int, default=3, help="Läufe (Median)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    page_path = kampfhelfer(args.site)
    server = SiteServer(args.site)
    server.start()
    runs = []
    try:
        with sync_playwright() as playwright:
            for _ in range(args.runs):
                runs.append(one_run(playwright, server.url, page_path))
    finally:
        server.stop()

    def median(key: str) -> float:
        return statistics.median(r[key] for r in runs)

    text = median("text")
    print(f"Speicher (PSS aller Chromium-Prozesse, Median aus {args.runs}), Seite {page_path}:")
    print(f"  Seite ohne Helfer                      {text:7.1f} MB")
    for key, label in (
        ("engine", "Kampfhelfer, Engine bereit (5 s)"),
        ("steady", "Kampfhelfer, 30 s nach „bereit“"),
        ("freed", "Tab verborgen, Engine freigegeben"),
        ("again", "wieder gezeigt, Engine neu gestartet"),
    ):
        value = median(key)
        print(f"  {label:38s} {value:7.1f} MB  ({value - text:+.1f} MB)")
    print(
        f"Neustart nach dem Freigeben: {median('restore_ms'):.0f} ms bis bereit "
        f"(Engine), {median('waited_ms'):.0f} ms gewartet (Test)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
