"""What one fresh browser context costs the test suite, in CPU seconds: prints figures only.

    .venv/bin/python scripts/context_cost.py [--runs N] [--reader] [--flags "--some-flag ..."]

Most browser tests open a fresh Playwright context (an empty profile: nothing cached, nothing
stored) and load a page; on this 2-core machine the suite is CPU-bound, so this is what its
time is made of. For a blank page, a page without helpers and two pages whose helpers boot the
engine, each in ``--runs`` fresh contexts of one Debian chromium-headless-shell (the tests'
browser and flags, ``tests/browser/conftest.py``; ``--reader``: the full chromium the
benchmarks use), it prints the CPU time of the whole process tree (Chromium, Playwright's
driver, the local server) from creating the context to closing it, median and range.
``--flags`` adds Chromium flags to try one (compare with a run without).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from harness.browser import CHROMIUM, CHROMIUM_ARGS, READER_CHROMIUM, SiteServer, build_site  # noqa: E402  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")
PAGES = {
    "about:blank": None,
    "Startseite (keine Helfer)": "",
    "Patzertabelle (Würfelknöpfe: Engine startet)": "ryssea/patzertabelle/",
    "Kampfhelfer Ryssea (Engine startet)": "ryssea/kampfhelfer/",
}


def tree_cpu_seconds(root: int) -> float:
    """User and system time of ``root``'s descendants, the ended ones included (each
    process's reaped children count in its cutime/cstime)."""
    children: dict[int, list[tuple[int, list[str]]]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            fields = Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append((int(name), fields))
    total = 0
    stack = [root]
    while stack:
        for pid, fields in children.get(stack.pop(), []):
            total += sum(int(value) for value in fields[11:15])
            stack.append(pid)
    return total / TICKS


def one_context(browser: Any, url: str | None, engine: bool) -> float:
    before = tree_cpu_seconds(os.getpid())
    context = browser.new_context(
        locale="de-DE", viewport={"width": 1280, "height": 900}, service_workers="block"
    )
    page = context.new_page()
    if url is not None:
        page.goto(url)
    if engine:
        page.wait_for_function(
            "() => window.__regelwerk && window.__regelwerk.ready", timeout=120_000, polling=100
        )
    page.wait_for_timeout(300)
    context.close()
    time.sleep(0.3)  # the renderer has ended and been reaped
    return tree_cpu_seconds(os.getpid()) - before


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="Kontexte je Seite (Standard 5)")
    parser.add_argument("--flags", default="", help="zusätzliche Chromium-Flags")
    parser.add_argument(
        "--reader",
        action="store_true",
        help="das volle Debian-chromium der Benchmarks statt chromium-headless-shell der Tests",
    )
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        server = SiteServer(Path(tmp) / "site")
        proc = build_site(server.directory, server.url, root=ROOT)
        if proc.returncode != 0:
            raise SystemExit(f"mkdocs build --strict fehlgeschlagen:\n{proc.stderr}")
        server.start()
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=READER_CHROMIUM if args.reader else CHROMIUM,
                    args=CHROMIUM_ARGS + args.flags.split(),
                )
                print(f"CPU-Sekunden je frischem Browserkontext, Median [min–max] aus {args.runs}:")
                for label, path in PAGES.items():
                    url = None if path is None else server.url + path
                    engine = path is not None and path.startswith("ryssea/")
                    values = [one_context(browser, url, engine) for _ in range(args.runs)]
                    print(
                        f"  {label:<46} {statistics.median(values):5.2f}"
                        f" [{min(values):.2f}–{max(values):.2f}]"
                    )
                browser.close()
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
