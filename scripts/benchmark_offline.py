"""Benchmark of the offline export from file:// (prints figures, asserts nothing).

    .venv/bin/python scripts/benchmark_offline.py [--runs N] [--export DIR] [--suite] [--json]

Without ``--export`` it builds the export into a temporary folder first. Figures, in Debian
Chromium with every request outside file:/blob:/data: aborted (counted: there should be none),
measured with the helpers shared with scripts/benchmark.py (scripts/browser_probes.py):
- zip size, unpacked size, size of the shared runtime (assets/offline/);
- the plain boot and the snapshot boot side by side, with the factor plain ÷ snapshot: helper
  ready after opening a page (``window.__regelwerk.ready``, from navigation start), cold = a
  browser with a new, empty profile, warm = reload, median of ``--runs`` each; when the boot
  started, the worker's own boot time, and how much of "ready" went to loading the runtime
  scripts (until their last part arrived) and to handing the parts over to the worker;
- ready per page for every Kampfhelfer page of the export (``*/kampfhelfer.html``), opened one
  after the other (without throttling): every page of the export boots again (no instant
  navigation from file://), so this is what a reader waits for;
- all of it again with the CPU throttled ×4 (main thread only, see ``CpuThrottle``);
- the longest main-thread task while booting (ours) and before (Material's page load);
- click-to-result time of a roll; the bytes read on a cold visit, by part.

The plain boot is forced by OFFLINE_PARTS_PROBE: every "snapshot" chunk of the runtime
arrives as "AAAA", bytes that are no snapshot, and the worker takes its announced fallback
(``window.__regelwerk.mode`` says "plain"; the table's check line counts it).

``offline_figures(root, runs)`` is what scripts/benchmark.py can call with an export folder.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from harness.browser import LOCAL_SCHEMES, NOT_LOCAL  # noqa: E402
from harness.offline_export import build_offline  # noqa: E402
from scripts.browser_probes import (  # noqa: E402
    KINDS,
    Row,
    Transfers,
    boot_figures,
    boot_rows,
    boot_series,
    field,
    fresh_browser,
    offline_parts_probe,
    print_boot_table,
    print_checks,
    print_transfers,
    suite_figures,
    suite_line,
)

FIRST_PAGE = "ryssea/kampfbeginn-und-initiative.html"  # 1 helper; cold, then reloaded
# opened next, one after the other: every system's Kampfhelfer page the export has (the
# game master's page at the table; the target is each of them ready ≤ 1.0 s)
KAMPFHELFER = "*/kampfhelfer.html"


def kampfhelfer_pages(root: Path) -> list[str]:
    """Every Kampfhelfer page of the export folder ``root``, as paths relative to it."""
    return sorted(path.relative_to(root).as_posix() for path in root.glob(KAMPFHELFER))


def _prepare(context: Any, mode: str, foreign: list[str]) -> None:
    context.on(
        "request", lambda r: None if r.url.startswith(LOCAL_SCHEMES) else foreign.append(r.url)
    )
    # matched by the driver: the export's own requests never wait for a round trip to Python
    context.route(NOT_LOCAL, lambda route: route.abort())
    context.add_init_script(offline_parts_probe(refuse_snapshot=mode == "plain"))


def _cold_transfers(playwright: Any, url: str, foreign: list[str]) -> dict[str, int]:
    """Bytes read from file:// on a cold visit; the snapshot, wasm and stdlib are base64 text
    inside the runtime scripts, so their share is the characters their parts had."""
    with fresh_browser(playwright) as context:
        _prepare(context, "snapshot", foreign)
        transfers = Transfers(context)
        page = context.pages[0]
        page.goto(url)
        boot_figures(page)
        transfers.settle(page)
        chars = page.evaluate("window.__regelwerkParts.chars")
    files = transfers.by_kind(schemes=("file:",))
    out = {kind: int(chars.get(kind, 0)) for kind in KINDS if kind != "other"}
    out["other"] = files["total"] - sum(out.values())
    out["total"] = files["total"]
    out["requests"] = files["requests"]
    return out


def offline_figures(root: Path, runs: int = 5) -> dict[str, Any]:
    """Boot figures of the export folder ``root`` (the unpacked regelwerk-offline/)."""
    from playwright.sync_api import sync_playwright

    foreign: list[str] = []
    more = {page.removesuffix(".html"): (root / page).as_uri() for page in kampfhelfer_pages(root)}
    first = (root / FIRST_PAGE).as_uri()
    with sync_playwright() as playwright:
        series = boot_series(
            playwright, runs, first, lambda context, mode: _prepare(context, mode, foreign), more
        )
        transfers = _cold_transfers(playwright, first, foreign)
    return {
        "series": series,
        "pages": list(more),
        "transfers": transfers,
        "foreign_requests": foreign,
    }


def size_figures(zip_path: Path, root: Path) -> dict[str, int]:
    def size(path: Path) -> int:
        return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())

    return {
        "zip_bytes": zip_path.stat().st_size,
        "unpacked_bytes": size(root),
        "runtime_bytes": size(root / "assets" / "offline"),
    }


def offline_rows(labels: list[str]) -> list[Row]:
    """The common rows, with "ready" of the cold boot split and ready per page (``labels``:
    the pages opened after the first, as ``offline_figures`` named them)."""

    def scripts(cell: dict[str, Any]) -> list[float]:
        return [r["runtime_loaded_ms"] - r["boot_start_ms"] for r in cell["cold"]]

    def handover(cell: dict[str, Any]) -> list[float]:
        return [r["ready_ms"] - r["worker_ms"] - r["runtime_loaded_ms"] for r in cell["cold"]]

    def measured(cell: dict[str, Any]) -> bool:  # the other pages: without throttling only
        return any(cell["pages"].values())

    def first(cell: dict[str, Any]) -> list[float]:
        return field("cold", "ready_ms")(cell) if measured(cell) else []

    pages: list[Row] = [
        (
            "Helfer bereit nach Öffnen, je Seite (jede bootet neu):",
            lambda cell: [1.0] if measured(cell) else [],
            "heading",
            0,
        ),
        (f"  Seite {FIRST_PAGE.removesuffix('.html')} (kalt)", first, "median", 0),
    ]
    for label in labels:
        pages.append(
            (
                f"  Seite {label} (danach)",
                lambda cell, label=label: [r["ready_ms"] for r in cell["pages"][label]],
                "median",
                0,
            )
        )

    def worker_step(name: str, before: str | None) -> Callable[[dict[str, Any]], list[float]]:
        """A step of the worker's boot (worker.js ``steps``): ms since the previous one."""

        def values(cell: dict[str, Any]) -> list[float]:
            runs = [r["steps"] for r in cell["cold"] if name in r["steps"]]
            return [s[name] - (s.get(before, 0) if before else 0) for s in runs]

        return values

    return boot_rows(
        [
            ("  Laufzeit-Skripte laden (kalt)", scripts, "median", 0),
            ("  Teile an den Worker übergeben (kalt)", handover, "median", 0),
            ("  im Worker: wasm entpackt (kalt)", worker_step("wasm", None), "median", 0),
            (
                "  im Worker: Abbild entpackt und ergänzt (kalt)",
                worker_step("snapshot", "wasm"),
                "median",
                0,
            ),
            (
                "  im Worker: Pyodide übersetzt und geladen (kalt)",
                worker_step("pyodide", "snapshot"),
                "median",
                0,
            ),
            *pages,
        ]
    )


def _build(target: Path) -> tuple[Path, Path]:
    export = build_offline(target / "dist")
    unpacked = target / "Regelwerk Übung"
    with zipfile.ZipFile(export.zip_path) as archive:
        archive.extractall(unpacked)
    return export.zip_path, unpacked / "regelwerk-offline"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="Läufe je Spalte (Standard 5)")
    parser.add_argument(
        "--export", type=Path, default=None, help="an existing dist/ (with regelwerk-offline/)"
    )
    parser.add_argument("--suite", action="store_true", help="auch die Testsuite einmal timen")
    parser.add_argument("--json", action="store_true", help="figures as JSON")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        if args.export:
            zip_path = args.export.resolve() / "regelwerk-offline.zip"
            root = args.export.resolve() / "regelwerk-offline"
        else:
            zip_path, root = _build(Path(tmp))
        figures: dict[str, Any] = {"runs": args.runs, "sizes": size_figures(zip_path, root)}
        figures["browser"] = offline_figures(root, args.runs)
    figures["suite"] = suite_figures(args.suite)

    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    sizes, b = figures["sizes"], figures["browser"]
    print(f"{'Offline-ZIP:':<58} {sizes['zip_bytes'] / 1e6:.2f} MB")
    print(
        f"{'Entpackt:':<58} {sizes['unpacked_bytes'] / 1e6:.1f} MB"
        f" (gemeinsame Laufzeit assets/offline/ {sizes['runtime_bytes'] / 1e6:.1f} MB)"
    )
    print_boot_table(b["series"], offline_rows(b["pages"]), args.runs)
    print_checks(b["series"])
    print_transfers(
        {"snapshot": b["transfers"]},
        " aus file:// (Abbild, wasm und stdlib: ihr base64-Text in den Laufzeit-Skripten)",
    )
    print(f"{'Anfragen außerhalb von file:/blob:/data::':<58} {len(b['foreign_requests'])}")
    print(suite_line(figures["suite"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
