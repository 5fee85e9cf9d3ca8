"""Benchmark of the offline export from file:// (prints figures, asserts nothing).

    .venv/bin/python scripts/benchmark_offline.py [--runs N] [--export DIR] [--json]

Without ``--export`` it builds the export into a temporary folder first. Figures, in Debian
Chromium with every request outside file:/blob:/data: aborted:
- zip size, unpacked size, size of the shared runtime (assets/offline/);
- time from opening a helper page to "helper ready" (``window.__regelwerk.ready``, i.e. from
  navigation start): cold = a fresh browser with a new, empty profile; warm = reload;
- when the boot started (engine-client.js waits for an idle moment) and the worker's own boot time;
- the longest main-thread task until ready, and the longest one between the start of the boot
  and ready (PerformanceObserver "longtask": tasks over 50 ms; 0 means none);
- click-to-result time of a roll.

``offline_figures(root, runs)`` is what scripts/benchmark.py can call with an export folder.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.browser_probes import CLICK_TIMER, LONGTASK_OBSERVER  # noqa: E402
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

HELPER_PAGE = "ryssea/kampfbeginn-und-initiative.html"
LOCAL = ("file:", "blob:", "data:")


def _boot(page: Any) -> dict[str, float]:
    page.wait_for_selector(".rw-status[data-state='ready']", timeout=180_000)
    timing = page.evaluate("window.__regelwerk")
    longest = page.evaluate(
        "([from, to]) => Math.max(0, ...window.__longtasks"
        ".filter(t => t.start + t.duration > from && t.start < to).map(t => t.duration))",
        [0, timing["ready"]],
    )
    during_boot = page.evaluate(
        "([from, to]) => Math.max(0, ...window.__longtasks"
        ".filter(t => t.start + t.duration > from && t.start < to).map(t => t.duration))",
        [timing["bootStart"], timing["ready"]],
    )
    return {
        "ready_ms": float(timing["ready"]),
        "boot_start_ms": float(timing["bootStart"]),
        "worker_ms": float(timing["workerMs"]),
        "longest_task_ms": float(longest),
        "longest_boot_task_ms": float(during_boot),
    }


def _prepare(context: Any, foreign: list[str]) -> Any:
    context.on("request", lambda r: None if r.url.startswith(LOCAL) else foreign.append(r.url))
    context.route(lambda url: not url.startswith(LOCAL), lambda route: route.abort())
    context.add_init_script(LONGTASK_OBSERVER)
    return context.pages[0] if context.pages else context.new_page()


def offline_figures(root: Path, runs: int = 3) -> dict[str, Any]:
    """Boot figures of the export folder ``root`` (the unpacked regelwerk-offline/)."""
    from playwright.sync_api import sync_playwright

    url = (root / HELPER_PAGE).as_uri()
    out: dict[str, Any] = {"cold": [], "warm": [], "clicks": [], "foreign_requests": []}
    with sync_playwright() as playwright:
        for _ in range(runs):
            with tempfile.TemporaryDirectory() as profile:
                context = playwright.chromium.launch_persistent_context(
                    profile,
                    executable_path=CHROMIUM,
                    args=CHROMIUM_ARGS,
                    viewport={"width": 1280, "height": 900},
                )
                page = _prepare(context, out["foreign_requests"])
                page.goto(url)
                out["cold"].append(_boot(page))
                page.reload()
                out["warm"].append(_boot(page))
                page.locator("details.rw-advanced > summary").first.click()
                for seed in range(10):
                    page.locator("[data-path='seed']").first.fill(str(seed))
                    out["clicks"].append(float(page.evaluate(CLICK_TIMER)))
                context.close()
    return out


def size_figures(zip_path: Path, root: Path) -> dict[str, int]:
    def size(path: Path) -> int:
        return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())

    return {
        "zip_bytes": zip_path.stat().st_size,
        "unpacked_bytes": size(root),
        "runtime_bytes": size(root / "assets" / "offline"),
    }


def _build(target: Path) -> tuple[Path, Path]:
    spec = importlib.util.spec_from_file_location(
        "build_offline", ROOT / "scripts" / "build_offline.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["build_offline"] = module
    spec.loader.exec_module(module)
    export = module.build_offline(target / "dist")
    unpacked = target / "Regelwerk Übung"
    with zipfile.ZipFile(export.zip_path) as archive:
        archive.extractall(unpacked)
    return export.zip_path, unpacked / "regelwerk-offline"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="cold/warm measurements (default 3)")
    parser.add_argument(
        "--export", type=Path, default=None, help="an existing dist/ (with regelwerk-offline/)"
    )
    parser.add_argument("--json", action="store_true", help="figures as JSON")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        if args.export:
            zip_path = args.export / "regelwerk-offline.zip"
            root = args.export / "regelwerk-offline"
        else:
            zip_path, root = _build(Path(tmp))
        figures: dict[str, Any] = {"sizes": size_figures(zip_path, root)}
        figures["browser"] = offline_figures(root, args.runs)

    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    sizes, b = figures["sizes"], figures["browser"]

    def runs(key: str, field: str) -> str:
        values = [r[field] for r in b[key]]
        listed = ", ".join(f"{v:.0f}" for v in values)
        return f"median {statistics.median(values):.0f} ms  (Läufe: {listed})"

    longest = max(r["longest_task_ms"] for r in b["cold"] + b["warm"])
    longest_boot = max(r["longest_boot_task_ms"] for r in b["cold"] + b["warm"])
    clicks = b["clicks"]
    print(f"Offline-ZIP:                                   {sizes['zip_bytes'] / 1e6:.2f} MB")
    print(
        f"Entpackt:                                      {sizes['unpacked_bytes'] / 1e6:.1f} MB"
        f" (gemeinsame Laufzeit assets/offline/ {sizes['runtime_bytes'] / 1e6:.1f} MB)"
    )
    print(f"file:// Helfer bereit nach Öffnen, kalt:       {runs('cold', 'ready_ms')}")
    print(f"file:// Helfer bereit nach Öffnen, warm:       {runs('warm', 'ready_ms')}")
    print(f"  davon Start des Bootens (Leerlauf), kalt:    {runs('cold', 'boot_start_ms')}")
    print(f"  Boot im Worker (Skripte da → bereit), kalt:  {runs('cold', 'worker_ms')}")
    print(f"Längste Hauptthread-Aufgabe bis bereit:        {longest:.0f} ms (über alle Läufe;")
    print("  meist Materials eigenes Laden der Seite, vor dem Start des Bootens)")
    print(f"Längste Hauptthread-Aufgabe während des Bootens: {longest_boot:.0f} ms")
    print(
        f"Klick bis Ergebnis:                            median {statistics.median(clicks):.1f} ms,"
        f" schlechtester {max(clicks):.1f} ms ({len(clicks)} Klicks)"
    )
    print(f"Anfragen außerhalb von file:/blob:/data::      {len(b['foreign_requests'])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
