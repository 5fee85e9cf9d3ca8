"""In-page probes and measuring helpers shared by the benchmarks (online and offline).

scripts/benchmark.py and scripts/benchmark_offline.py measure the boot the same way: every run
is a browser with a new, empty profile (cold: nothing cached, a first visit; warm: a reload),
once with the plain boot and once from the snapshot, each without and with CPU throttling ×4
(a stand-in for a phone). Only how the plain boot is forced differs (see each script). The
figures are printed; nothing is asserted.
"""

from __future__ import annotations

import gzip
import itertools
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from harness.browser import CHROMIUM_ARGS, READER_CHROMIUM  # noqa: E402

MODES = ("plain", "snapshot")  # window.__regelwerk.mode
MODE_LABELS = {"plain": "ohne Schnellstart", "snapshot": "mit Schnellstart"}
PHONE_RATE = 4  # Emulation.setCPUThrottlingRate: the page's main thread 4× slower
RATES = (1, PHONE_RATE)
KINDS = ("snapshot", "wasm", "stdlib", "other")  # bytes of a cold visit, by file
KIND_LABELS = {
    "snapshot": "Schnellstart-Abbild",
    "wasm": "pyodide.asm.wasm(.gz)",
    "stdlib": "python_stdlib*.zip",
    "other": "alles andere",
}
# Pyodide's whole standard library, or an archive the build cut from it (named by the key)
STDLIB = re.compile(r"/python_stdlib(-plain)?(-[0-9a-f]+)?\.zip$")
READY_TIMEOUT_MS = 180_000
VIEWPORT = {"width": 1280, "height": 900}
PYTEST = [str(ROOT / ".venv" / "bin" / "pytest"), "-q", "-p", "no:cacheprovider"]

# every main-thread task of 50 ms or more, from the start of the page
LONGTASK_OBSERVER = """
window.__longtasks = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    window.__longtasks.push({start: entry.startTime, duration: entry.duration});
  }
}).observe({type: "longtask", buffered: true});
"""

# one click on the first helper's "Würfeln" until its result is painted
CLICK_TIMER = """
() => new Promise((resolve) => {
  const helper = document.querySelector(".rw-helper");
  const started = performance.now();
  helper.addEventListener("regelwerk:result", () => {
    requestAnimationFrame(() => resolve(performance.now() - started));
  }, {once: true});
  helper.querySelector(".rw-submit").click();
})
"""

# The boot as engine-client.js recorded it (window.__regelwerk, ms from navigation start), the
# longest main-thread tasks before the helper scripts ran (Material's page load; online the
# worker already boots then, started from <head>) and from then until ready (all of them: the
# longest is Material's DOMContentLoaded handler, which also calls our initPage – traced), our
# own initPage's time (page.js), and, in the offline export, when the last runtime part
# arrived (OFFLINE_PARTS_PROBE).
BOOT_FIGURES = """
() => {
  const timing = window.__regelwerk;
  const tasks = window.__longtasks || [];
  const longest = (from, to) => Math.max(0, ...tasks
    .filter((task) => task.start >= from && task.start < to)
    .map((task) => task.duration));
  const parts = window.__regelwerkParts;
  return {
    mode: timing.mode,
    kept: !!timing.kept,
    started_in_head: !!timing.startedInHead,
    ready_ms: timing.ready,
    boot_start_ms: timing.bootStart,
    worker_ms: timing.workerMs,
    runtime_loaded_ms: parts && parts.last !== null ? parts.last : null,
    longest_page_load_task_ms: longest(0, timing.scriptsStart),
    longest_boot_task_ms: longest(timing.scriptsStart, timing.ready),
    init_page_ms: timing.initPageMs || 0,
    steps: timing.steps || {},
  };
}
"""

# Offline export: window.RegelwerkOfflineParts made here, before the runtime scripts push
# their [name, index, text] chunks onto it (they keep an existing array). Its push records
# when the chunks arrive and how many characters each part has; with REFUSE_SNAPSHOT every
# "snapshot" chunk's text becomes "AAAA": the worker then gets bytes that are no snapshot and
# takes its announced plain boot, as it would with a broken snapshot.
OFFLINE_PARTS_PROBE = """
(() => {
  const refuseSnapshot = REFUSE_SNAPSHOT;
  const parts = [];
  const seen = {first: null, last: null, chars: {}};
  parts.push = function (...items) {
    const now = performance.now();
    if (seen.first === null) seen.first = now;
    seen.last = now;
    for (const item of items) {
      seen.chars[item[0]] = (seen.chars[item[0]] || 0) + item[2].length;
      if (refuseSnapshot && item[0] === "snapshot") item[2] = "AAAA";
    }
    return Array.prototype.push.apply(this, items);
  };
  window.RegelwerkOfflineParts = parts;
  window.__regelwerkParts = seen;
})();
"""


def offline_parts_probe(refuse_snapshot: bool) -> str:
    return OFFLINE_PARTS_PROBE.replace("REFUSE_SNAPSHOT", "true" if refuse_snapshot else "false")


# ---------------------------------------------------------------------- the browser


@contextmanager
def fresh_browser(playwright: Any) -> Iterator[Any]:
    """Chromium with a new, empty profile: nothing cached, as on a reader's first visit.

    A persistent profile, not ``browser.new_context()``: that one keeps its HTTP cache in
    memory, which (measured) does not keep the 9.6 MB pyodide.asm.wasm, so every "warm"
    reload downloaded it again; a profile's disk cache serves it as a reader's browser does.
    """
    with tempfile.TemporaryDirectory(prefix="regelwerk-bench-") as profile:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=READER_CHROMIUM, args=CHROMIUM_ARGS, viewport=VIEWPORT
        )
        try:
            yield context
        finally:
            context.close()


class CpuThrottle:
    """CPU throttling through the DevTools protocol, for the page and (tried) its workers.

    What we found (Debian's Chromium 156, this 2-core machine):
    - ``Emulation.setCPUThrottlingRate`` on the page's session slows the page's main thread
      only. At ×4 the worker's own boot time stayed about what it was (online, one run each:
      snapshot 0.76 → 0.90 s, plain 3.78 → 3.85 s) while the page's part grew about fourfold.
      A fixed loop took 3× as long on the main thread, 1.6× in a worker.
    - Even that 1.6× is no throttling but competition for the two cores: the throttler holds
      the page's main thread busy for about half a core even while the page is idle (measured:
      0.03–0.13 s of CPU in 3 s idle at ×1, 1.5–1.8 s at ×4), which the worker then lacks.
    - Attaching to the worker target (``Target.setAutoAttach``, the new worker held with
      ``waitForDebuggerOnStart`` until it is throttled) and sending it the same command does
      not help: Chromium refuses it, "Operation is only supported for pages, not workers"
      (its InspectorEmulationAgent accepts it for pages only).
    So this class tries it on every worker, records the answer in ``workers`` (the benchmarks
    print it) and would throttle the worker too on a Chromium that accepts it. Until then the
    throttled figures are a phone's main thread with a PC's worker, and the benchmarks add an
    estimate with the worker's own time scaled by the same factor.
    """

    def __init__(self, context: Any, page: Any, rate: float) -> None:
        self.rate = rate
        self.workers: list[dict[str, str]] = []
        self._pending: dict[int, dict[str, str]] = {}
        self._ids = itertools.count(1)
        self.session = context.new_cdp_session(page)
        self.session.send("Emulation.setCPUThrottlingRate", {"rate": rate})
        self.session.on("Target.attachedToTarget", self._attached)
        self.session.on("Target.receivedMessageFromTarget", self._answered)
        # flatten=False: Playwright's CDPSession cannot address a child session by itself, so
        # the worker is spoken to through Target.sendMessageToTarget.
        self.session.send(
            "Target.setAutoAttach",
            {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": False},
        )

    def _send(
        self,
        session_id: str,
        method: str,
        params: dict[str, Any],
        record: dict[str, str] | None = None,
    ) -> None:
        ident = next(self._ids)
        if record is not None:
            self._pending[ident] = record
        message = json.dumps({"id": ident, "method": method, "params": params})
        self.session.send(
            "Target.sendMessageToTarget", {"sessionId": session_id, "message": message}
        )

    def _attached(self, event: dict[str, Any]) -> None:
        info, session_id = event["targetInfo"], event["sessionId"]
        if info["type"] == "worker" and self.rate != 1:
            record = {"url": info["url"], "answer": "keine Antwort"}
            self.workers.append(record)
            self._send(session_id, "Emulation.setCPUThrottlingRate", {"rate": self.rate}, record)
        if event.get("waitingForDebugger"):
            self._send(session_id, "Runtime.runIfWaitingForDebugger", {})

    def _answered(self, event: dict[str, Any]) -> None:
        message = json.loads(event["message"])
        record = self._pending.pop(message.get("id", -1), None)
        if record is not None:
            error = message.get("error")
            record["answer"] = error["message"] if error else "angenommen"


def boot_figures(page: Any) -> dict[str, Any]:
    """Wait until the helper is ready, then read the boot's figures (BOOT_FIGURES)."""
    page.wait_for_function(
        "() => window.__regelwerk && window.__regelwerk.ready",
        timeout=READY_TIMEOUT_MS,
        polling=100,  # not every frame: the check itself runs on the measured main thread
    )
    return dict(page.evaluate(BOOT_FIGURES))


# Online, worker.js keeps the inflated snapshot in OPFS a few seconds after a boot from the
# download (so it never competes with the boot): true once it is there – or where nothing is
# kept (the offline export, a browser without OPFS).
KEPT_PROBE = """
async () => {
  if (location.protocol === "file:" || !navigator.storage || !navigator.storage.getDirectory) {
    return true;
  }
  const root = await navigator.storage.getDirectory();
  let folder;
  try {
    folder = await root.getDirectoryHandle("regelwerk-schnellstart");
  } catch (error) {
    return false;
  }
  for await (const name of folder.keys()) if (name.endsWith(".snap")) return true;
  return false;
}
"""


def wait_kept(page: Any, limit_s: float = 15) -> None:
    """Before the warm reload, as for a reader who comes back later: wait (at most
    ``limit_s``) until the snapshot is kept. Not after a plain boot, which keeps nothing."""
    if page.evaluate("window.__regelwerk.mode") != "snapshot":
        return
    deadline = time.monotonic() + limit_s
    while not page.evaluate(KEPT_PROBE) and time.monotonic() < deadline:
        page.wait_for_timeout(200)


def click_times(page: Any, count: int) -> list[float]:
    """``count`` rolls of the first helper (a new seed each), each until its result is painted."""
    page.locator("details.rw-advanced > summary").first.click()
    times = []
    for seed in range(count):
        page.locator("[data-path='seed']").first.fill(str(seed))
        times.append(float(page.evaluate(CLICK_TIMER)))
    return times


def boot_series(
    playwright: Any,
    runs: int,
    first: str,
    prepare: Callable[[Any, str], None],
    more_pages: dict[str, str] | None = None,
    clicks: int = 5,
) -> dict[str, Any]:
    """Boot figures per CPU rate and boot mode: ``runs`` fresh browsers each.

    In each: open ``first`` (cold), reload it (warm), roll ``clicks`` times, then, without
    throttling only (to keep the run within minutes), open each of ``more_pages`` (label →
    URL) in turn. ``prepare(context, mode)`` forces the boot mode before the first page. The
    runs alternate the rates and modes, so a slow moment of the machine does not fall on one
    column only. Returns ``{"rates": {rate: {mode: figures}}, "worker_throttle": answers}``.
    """
    pages = more_pages or {}
    series: dict[str, Any] = {
        str(rate): {
            mode: {"cold": [], "warm": [], "clicks": [], "pages": {p: [] for p in pages}}
            for mode in MODES
        }
        for rate in RATES
    }
    workers: dict[str, str] = {}
    for _ in range(runs):
        for rate in RATES:
            for mode in MODES:
                cell = series[str(rate)][mode]
                with fresh_browser(playwright) as context:
                    prepare(context, mode)
                    context.add_init_script(LONGTASK_OBSERVER)
                    page = context.pages[0] if context.pages else context.new_page()
                    throttle = CpuThrottle(context, page, rate)
                    page.goto(first)
                    cell["cold"].append(boot_figures(page))
                    wait_kept(page)
                    page.reload()
                    cell["warm"].append(boot_figures(page))
                    cell["clicks"] += click_times(page, clicks)
                    for label, url in pages.items() if rate == 1 else ():
                        page.goto(url)
                        cell["pages"][label].append(boot_figures(page))
                    for worker in throttle.workers:
                        url = worker["url"]
                        name = "Blob-Worker" if url.startswith("blob:") else url.rsplit("/", 1)[-1]
                        workers[name] = worker["answer"]
    return {"rates": series, "worker_throttle": workers}


# ---------------------------------------------------------------------- bytes


def kind_of(url: str) -> str:
    path = urlsplit(url).path
    if path.endswith(".snap"):
        return "snapshot"
    if path.endswith((".wasm", ".wasm.gz")):  # the site ships it gzip-compressed
        return "wasm"
    if STDLIB.search(path):
        return "stdlib"
    return "other"


@dataclass(frozen=True)
class Fetched:
    """One response: its URL, body and header bytes, and whether the service worker fetched
    it (the web app storing the site for offline use) rather than the page or its worker."""

    url: str
    body: int
    headers: int
    service_worker: bool


class Transfers:
    """Bytes (body and headers) of every response in a browser context.

    Playwright reports the dedicated worker's requests with the page's (checked: the wasm,
    the stdlib and the snapshot, which only the worker fetches, are among them), so no CDP
    Network listener on the worker target is needed. The service worker's requests come too,
    marked (``Fetched.service_worker``).
    """

    def __init__(self, context: Any) -> None:
        self.responses: list[tuple[str, int]] = []
        self.fetched: list[Fetched] = []
        self.open = 0
        context.on("request", self._started)
        context.on("requestfinished", self._finished)
        context.on("requestfailed", self._failed)

    def _started(self, request: Any) -> None:
        self.open += 1

    def _failed(self, request: Any) -> None:
        self.open -= 1

    def _finished(self, request: Any) -> None:
        sizes = request.sizes()
        body, headers = max(0, sizes["responseBodySize"]), max(0, sizes["responseHeadersSize"])
        self.responses.append((request.url, body + headers))
        by_sw = request.service_worker is not None
        self.fetched.append(Fetched(request.url, body, headers, by_sw))
        self.open -= 1

    def settle(self, page: Any, quiet_ms: int = 600, limit_ms: int = 15_000) -> None:
        """Wait until no request has been open for ``quiet_ms`` (at most ``limit_ms``)."""
        quiet = waited = 0
        while quiet < quiet_ms and waited < limit_ms:
            page.wait_for_timeout(100)
            waited += 100
            quiet = quiet + 100 if self.open <= 0 else 0

    def by_kind(self, schemes: tuple[str, ...] = ("http:", "https:")) -> dict[str, int]:
        """Bytes per kind (KINDS) and in total, of the responses whose URL has ``schemes``."""
        kept = [(url, size) for url, size in self.responses if url.startswith(schemes)]
        out = dict.fromkeys(KINDS, 0)
        for url, size in kept:
            out[kind_of(url)] += size
        out["total"] = sum(size for _, size in kept)
        out["requests"] = len(kept)
        return out


# What a host that compresses its responses sends: gzip at nginx's and Apache's usual level,
# where it makes the file smaller (an already compressed file – the snapshot, a png – goes
# as it is: hosts leave such types alone, and gzip would only add bytes).
HOST_GZIP_LEVEL = 6


@dataclass
class FileBytes:
    path: str
    count: int  # responses with a body
    raw: int  # body bytes as sent by our server (it does not compress)
    gzipped: int  # the same responses from a gzipping host
    service_worker: bool


def host_gzipped(content: bytes) -> int:
    return min(len(content), len(gzip.compress(content, HOST_GZIP_LEVEL, mtime=0)))


def file_bytes(fetched: list[Fetched], site_dir: Path, base_url: str) -> list[FileBytes]:
    """Bytes per file of a cold visit, raw and as a gzipping host would send them (the file
    compressed from ``site_dir``), the largest first; the page's and its worker's requests
    apart from the service worker's."""
    rows: dict[tuple[str, bool], FileBytes] = {}
    sizes: dict[str, int] = {}
    for item in fetched:
        if not item.url.startswith(base_url) or item.body == 0:
            continue
        path = urlsplit(item.url).path.removeprefix(urlsplit(base_url).path) or "index.html"
        local = site_dir / (path + "index.html" if path.endswith("/") else path)
        if path not in sizes:
            sizes[path] = host_gzipped(local.read_bytes()) if local.is_file() else item.body
        row = rows.setdefault(
            (path, item.service_worker), FileBytes(path, 0, 0, 0, item.service_worker)
        )
        row.count += 1
        row.raw += item.body
        row.gzipped += min(item.body, sizes[path])
    return sorted(rows.values(), key=lambda row: (row.service_worker, -row.raw, row.path))


def print_file_bytes(rows: list[FileBytes], limit: int = 12) -> None:
    """The table of :func:`file_bytes`: the ``limit`` largest files of the page, the rest
    summed, the totals; then the service worker's."""
    print(
        "Je Datei, erster Besuch einer Helferseite mit Schnellstart (roh = wie dieser Server,"
        f" gzip = wie ein komprimierender Host, Stufe {HOST_GZIP_LEVEL}):"
    )
    print(f"  {'Datei':<58}{'Anzahl':>7}{'roh':>12}{'gzip':>12}")
    for service_worker in (False, True):
        group = [row for row in rows if row.service_worker == service_worker]
        if not group:
            continue
        if service_worker:
            print("  dazu lädt der Service Worker (Web-App, für offline) im Hintergrund:")
        for row in group[:limit]:
            print(
                f"  {row.path[-58:]:<58}{row.count:>7}{row.raw / 1e6:>9.2f} MB"
                f"{row.gzipped / 1e6:>9.2f} MB"
            )
        rest = group[limit:]
        if rest:
            label = f"{len(rest)} weitere Dateien"
            print(
                f"  {label:<58}{sum(r.count for r in rest):>7}"
                f"{sum(r.raw for r in rest) / 1e6:>9.2f} MB"
                f"{sum(r.gzipped for r in rest) / 1e6:>9.2f} MB"
            )
        label = "zusammen (Service Worker)" if service_worker else "zusammen (Seite und Worker)"
        print(
            f"  {label:<58}{sum(r.count for r in group):>7}"
            f"{sum(r.raw for r in group) / 1e6:>9.2f} MB"
            f"{sum(r.gzipped for r in group) / 1e6:>9.2f} MB"
        )


# ---------------------------------------------------------------------- the test suite


def suite_figures(run: bool) -> dict[str, Any] | None:
    """With ``run``: the whole test suite once (``pytest -q -p no:cacheprovider``), timed."""
    if not run:
        return None
    started = time.perf_counter()
    proc = subprocess.run(PYTEST, cwd=ROOT, capture_output=True, text=True)
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    return {
        "wall_s": time.perf_counter() - started,
        "exit_code": proc.returncode,
        "summary": lines[-1] if lines else proc.stderr.strip()[-200:],
    }


def suite_line(suite: dict[str, Any] | None) -> str:
    label = "Testsuite (ganz, pytest -q), Wandzeit:"
    if suite is None:
        return (
            f"{label:<58} nicht gemessen: mit --suite läuft `.venv/bin/pytest"
            f" {' '.join(PYTEST[1:])}` einmal, hier steht dann seine Wandzeit"
        )
    return (
        f"{label:<58} {suite['wall_s']:.0f} s  ({suite['summary'].strip('= ')},"
        f" Exit-Code {suite['exit_code']})"
    )


# ---------------------------------------------------------------------- printing

# A row of the boot table: label, the values of one cell (its figures → numbers), "median",
# "max", "longtask" (a maximum of the browser's long tasks, which start at 50 ms) or "heading"
# (the label alone), digits. A row without values in either column is left
# out (a heading too).
Row = tuple[str, Callable[[dict[str, Any]], list[float]], str, int]


def field(key: str, name: str) -> Callable[[dict[str, Any]], list[float]]:
    return lambda cell: [float(run[name]) for run in cell[key]]


def boot_rows(extra: Iterable[Row] = ()) -> list[Row]:
    """The rows both benchmarks print; ``extra`` comes after the worker's rows."""
    return [
        ("Helfer bereit nach Navigation, kalt", field("cold", "ready_ms"), "median", 0),
        ("Helfer bereit nach Reload, warm", field("warm", "ready_ms"), "median", 0),
        ("  Boot beginnt nach (kalt)", field("cold", "boot_start_ms"), "median", 0),
        ("  Boot im Worker, eigene Messung (kalt)", field("cold", "worker_ms"), "median", 0),
        ("  Boot im Worker, eigene Messung (warm)", field("warm", "worker_ms"), "median", 0),
        *extra,
        (
            "Längste Hauptthread-Aufgabe beim Booten (alle)",
            lambda c: [r["longest_boot_task_ms"] for r in c["cold"] + c["warm"]],
            "longtask",
            0,
        ),
        (
            "  davon unsere: Einrichten der Seite (initPage)",
            lambda c: [r["init_page_ms"] for r in c["cold"] + c["warm"]],
            "max",
            1,
        ),
        (
            "Längste Aufgabe beim Seitenaufbau (Material, davor)",
            lambda c: [r["longest_page_load_task_ms"] for r in c["cold"] + c["warm"]],
            "longtask",
            0,
        ),
        ("Klick bis Ergebnis", lambda c: c["clicks"], "median", 1),
    ]


def phone_estimate(cell: dict[str, Any]) -> list[float]:
    """Ready (cold) with the worker's own time scaled like the main thread's."""
    return [r["ready_ms"] + (PHONE_RATE - 1) * r["worker_ms"] for r in cell["cold"]]


def _cell(values: list[float], how: str, digits: int) -> tuple[str, float]:
    if not values:
        return "–", 0.0
    if how == "longtask" and max(values) == 0:
        # the browser reports only tasks of 50 ms or more ("longtask" entries)
        return "keine ≥ 50", 0.0
    if how in ("max", "longtask"):
        return f"max {max(values):.{digits}f}", max(values)
    middle = statistics.median(values)
    return f"{middle:.{digits}f} [{min(values):.{digits}f}–{max(values):.{digits}f}]", middle


def throttle_reaches_worker(series: dict[str, Any]) -> bool:
    return all(answer == "angenommen" for answer in series["worker_throttle"].values())


def print_boot_table(series: dict[str, Any], rows: list[Row], runs: int) -> None:
    """Plain and snapshot side by side, per CPU rate, with the factor plain ÷ snapshot."""
    width = 56
    print(
        f"Bootzeiten in ms: Median [kleinster–größter] aus {runs} Läufen (max = über alle);"
        " Faktor = ohne ÷ mit"
    )
    print(f"{'':<{width}}{MODE_LABELS['plain']:>22}{MODE_LABELS['snapshot']:>22}{'Faktor':>9}")
    for rate, cells in series["rates"].items():
        title = "CPU ungedrosselt" if rate == "1" else f"CPU ×{rate} gedrosselt (Handy-Ersatz)"
        print(title)
        table = list(rows)
        if rate != "1" and not throttle_reaches_worker(series):
            table.append(
                (
                    f"≈ Handy, kalt: bereit + {PHONE_RATE - 1} × Worker (Schätzung)",
                    phone_estimate,
                    "median",
                    0,
                )
            )
        for label, values, how, digits in table:
            if not values(cells["plain"]) and not values(cells["snapshot"]):
                continue
            if how == "heading":
                print(f"  {label}")
                continue
            plain, plain_value = _cell(values(cells["plain"]), how, digits)
            snap, snap_value = _cell(values(cells["snapshot"]), how, digits)
            factor = f"{plain_value / snap_value:.1f}×" if plain_value and snap_value else "–"
            print(f"  {label:<{width - 2}}{plain:>22}{snap:>22}{factor:>9}")


def print_checks(series: dict[str, Any]) -> None:
    """Which boot each column really got, and whether the throttling reached the worker."""
    counts = []
    for mode in MODES:
        figures = [
            run
            for cells in series["rates"].values()
            for key in ("cold", "warm")
            for run in cells[mode][key]
        ]
        got = sum(1 for run in figures if run["mode"] == mode)
        counts.append(f"{MODE_LABELS[mode]} → {mode} in {got}/{len(figures)} Starts")
    print(f"Startart laut window.__regelwerk.mode: {', '.join(counts)}")
    snapshot_runs = [
        (key, run)
        for cells in series["rates"].values()
        for key in ("cold", "warm")
        for run in cells["snapshot"][key]
    ]
    kept = {
        key: f"{sum(1 for k, r in snapshot_runs if k == key and r.get('kept'))}/"
        f"{sum(1 for k, _ in snapshot_runs if k == key)}"
        for key in ("cold", "warm")
    }
    head = sum(1 for _, run in snapshot_runs if run.get("started_in_head"))
    print(
        f"Schnellstart aus dem gespeicherten entpackten Abbild (OPFS): kalt {kept['cold']},"
        f" warm {kept['warm']}; Start schon im <head>: {head}/{len(snapshot_runs)}"
    )
    rates = series["rates"]
    ratios = []
    for mode in MODES:
        slow = statistics.median(field("cold", "worker_ms")(rates[str(PHONE_RATE)][mode]))
        fast = statistics.median(field("cold", "worker_ms")(rates["1"][mode]))
        ratios.append(f"{slow / fast:.2f} ({MODE_LABELS[mode]})")
    print(
        f"CPU ×{PHONE_RATE} im Worker? Boot im Worker gedrosselt ÷ ungedrosselt, kalt:"
        f" {', '.join(ratios)}"
    )
    answers = series["worker_throttle"]
    if not answers:
        print("  kein Worker-Ziel gesehen")
    for name, answer in sorted(answers.items()):
        print(f"  Emulation.setCPUThrottlingRate am Worker-Ziel {name}: {answer}")
    if not throttle_reaches_worker(series):
        print(
            "  → die Drosselung trifft nur den Hauptthread; was der Worker langsamer wird, ist"
            " Konkurrenz um die Kerne (der gedrosselte Hauptthread belegt auch im Leerlauf"
            " etwa einen halben Kern), keine Drosselung; daher die Schätzzeile"
        )


def print_transfers(columns: dict[str, dict[str, int]], note: str = "") -> None:
    """Bytes of a cold visit by kind, one column per boot mode (or one column)."""
    print(f"Übertragen beim ersten Besuch einer Helferseite (kalt){note}:")
    heads = "".join(f"{MODE_LABELS.get(name, name):>22}" for name in columns)
    print(f"  {'':<30}{heads}")
    for kind in (*KINDS, "total"):
        label = KIND_LABELS.get(kind, "zusammen")
        cells = "".join(f"{values[kind] / 1e6:>19.2f} MB" for values in columns.values())
        print(f"  {label:<30}{cells}")
    counts = "".join(f"{values['requests']:>22}" for values in columns.values())
    print(f"  {'Antworten':<30}{counts}")
