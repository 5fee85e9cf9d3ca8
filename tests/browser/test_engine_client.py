"""The worker client: failures are reported at once with their cause, a stuck request fails
with a German message and never takes the other waiting requests with it (the reliability
issue, deliverable 3; the snapshot issue, deliverable 2). The boot starts from <head> with one
worker, Material's search builds its index after the boot (or at once when the reader
searches), and a reload boots from the snapshot kept in OPFS (the snapshot issue,
deliverable 4 and the warm boot)."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from harness.browser import hidden_tab_script, set_hidden
from tests.browser.conftest import PageErrors, seed_storage, wait_engine_ready
from tests.browser.test_search import INPUT as SEARCH_INPUT
from tests.browser.test_search import search

pytestmark = pytest.mark.browser

PAGE = "ryssea/kampfhelfer/"


# the standard library: the archive the build cut for the snapshot boot (named by the key)
BLOCKABLE = ("pyodide.asm.wasm.gz", "python_stdlib-*.zip")


def test_a_missing_runtime_file_is_named_within_seconds(
    page: Any, site_url: str, page_errors: PageErrors
) -> None:
    # one visit: each file is missing in turn, and „Erneut versuchen“ starts a fresh boot –
    # which fails naming the next missing file, then (every file there again) succeeds
    for step, blocked in enumerate(BLOCKABLE):
        page.route(f"**/{blocked}", lambda route: route.fulfill(status=404, body="fehlt"))
        name = re.escape(blocked).replace(r"\*", "[0-9a-f]{16}")
        # Pyodide's own loader, in the worker, may still throw about the file once the boot
        # has already ended with the message checked below
        page_errors.expect(rf"^pageerror: \w*Error: Failed to load '[^']*/{name}'")
        started = time.monotonic()
        if step == 0:
            page.goto(site_url + PAGE)
        else:
            retry = page.locator(".rw-helper").first.get_by_role("button", name="Erneut versuchen")
            retry.click()
        # the failure that names this file (not the previous step's, still shown at first)
        status = page.locator(".rw-status[data-state='failed']", has_text=re.compile(name)).first
        status.wait_for(timeout=30_000)
        assert time.monotonic() - started < 15  # not the 2-minute boot timeout
        text = status.inner_text()
        assert text.startswith("Fehler:") and re.search(name, text) and "HTTP 404" in text, text
        assert "Zeitüberschreitung" not in text
        # the text stays readable
        assert page.locator("article h1").is_visible()
        page.unroute(f"**/{blocked}")
    # „Erneut versuchen“ works once the files are there again
    page.locator(".rw-helper").first.get_by_role("button", name="Erneut versuchen").click()
    wait_engine_ready(page)


def test_a_rejected_snapshot_falls_back_and_says_so(page: Any, site_url: str) -> None:
    page.route("**/*.snap", lambda route: route.fulfill(status=200, body=b"\x00" * 64))
    page.goto(site_url + PAGE)
    wait_engine_ready(page)
    assert page.evaluate("window.__regelwerk.mode") == "plain"
    status = page.locator(".rw-status").first.inner_text()
    assert "Schnellstart nicht möglich" in status, status


STUCK_FIRST_WORKER = """
window.__regelwerkRequestTimeoutMs = 1000;
window.__rwWorkers = 0;
const RealWorker = window.Worker;
window.Worker = function (...args) {
  const worker = new RealWorker(...args);
  if (!String(args[0]).endsWith("/worker.js")) return worker;  // Material's search worker
  window.__rwWorkers += 1;
  if (window.__rwWorkers === 1) {
    const post = worker.postMessage.bind(worker);
    worker.postMessage = (message, ...rest) =>
      message && message.type === "run" ? undefined : post(message, ...rest);
  }
  return worker;
};
"""

RUN_MANY = """
async () => {
  const heavy = {system: "allgemein", action: "wurf",
                 params: {notation: "40W1000", mode: "vorteil"}, seed: 1};
  const light = {system: "allgemein", action: "wurf", params: {notation: "1W6"}, seed: 2};
  const results = await Promise.allSettled([
    window.Regelwerk.runEngine(heavy),
    window.Regelwerk.runEngine(light),
    window.Regelwerk.runEngine(light),
  ]);
  return results.map((r) => r.status === "fulfilled"
    ? (r.value.ok ? "ok" : r.value.error.message) : "abgelehnt: " + r.reason.message);
}
"""


def test_a_stuck_request_fails_in_german_and_the_others_are_answered(
    page: Any, site_url: str
) -> None:
    # The page's first engine worker hangs: it boots, but never answers a roll. A short
    # timeout (1 s, not 20 s) ends the first request; the other two, queued behind it, must
    # be answered by a fresh worker. (A real long computation as the stand-in made the test
    # depend on the machine's speed: under load even the light rolls ran over a 150 ms limit.)
    page.add_init_script(STUCK_FIRST_WORKER)
    page.goto(site_url + PAGE)
    wait_engine_ready(page)
    first, *others = page.evaluate(RUN_MANY)
    assert first == "abgelehnt: Die Berechnung hat zu lange gedauert und wurde abgebrochen"
    assert others == ["ok", "ok"]  # the queue survived, on a fresh worker
    assert page.evaluate("window.__rwWorkers") == 2
    wait_engine_ready(page)


ROLL = '{system: "allgemein", action: "wurf", params: {notation: "3W6"}, seed: 7}'

# The engine's workers counted, the search worker Material starts, the moment the page released
# Material's search to build its index (search-hold.js: "freigeben" on the BroadcastChannel
# "regelwerk-suche", heard here by a channel of the test's own) and the moment the engine's
# worker said "ready" – noted before any script of the page runs.
WATCH_SEARCH_SETUP = """
window.__rwWorkers = 0;
window.__searchWorkers = [];
window.__searchSetupAt = null;
window.__engineReadyAt = null;
new BroadcastChannel("regelwerk-suche").onmessage = (event) => {
  if (event.data === "freigeben" && window.__searchSetupAt === null) {
    window.__searchSetupAt = performance.now();
  }
};
const WatchedWorker = window.Worker;
window.Worker = function (...args) {
  const worker = new WatchedWorker(...args);
  if (String(args[0]).includes("/workers/")) window.__searchWorkers.push(String(args[0]));
  if (String(args[0]).endsWith("/worker.js")) {
    window.__rwWorkers += 1;
    worker.addEventListener("message", (event) => {
      if (event.data && event.data.type === "ready") window.__engineReadyAt = performance.now();
    });
  }
  return worker;
};
"""


def search_answers(page: Any, query: str) -> None:
    page.locator(SEARCH_INPUT).click()
    search(page, query)  # test_search's: types like a reader, waits for the first hit


def test_the_search_answers_while_python_still_loads(page: Any, site_url: str) -> None:
    # a reader who searches at once does not wait for the engine: the cursor in the search box
    # lets the search build its index at once (here the boot cannot end: the wasm never arrives)
    page.route("**/pyodide.asm.wasm.gz", lambda route: None)
    page.add_init_script(WATCH_SEARCH_SETUP)
    page.goto(site_url + PAGE)
    page.locator(".rw-status[data-state='loading']").first.wait_for()
    page.wait_for_timeout(500)
    assert page.evaluate("window.__searchSetupAt") is None  # held while Python boots
    search_answers(page, "Initiative")
    assert page.evaluate("window.__engineReadyAt") is None
    assert page.locator(".rw-status").first.get_attribute("data-state") == "loading"


KEPT = "regelwerk-schnellstart"  # worker.js: the folder of the kept snapshot in OPFS

KEPT_NAMES = """
async () => {
  const root = await navigator.storage.getDirectory();
  const folder = await root.getDirectoryHandle("@KEPT@", {create: true});
  const names = [];
  for await (const name of folder.keys()) names.push(name);
  return names.sort();
}
""".replace("@KEPT@", KEPT)

WRITE_KEPT = """
async ([name, size]) => {
  const root = await navigator.storage.getDirectory();
  const folder = await root.getDirectoryHandle("@KEPT@", {create: true});
  const writable = await (await folder.getFileHandle(name, {create: true})).createWritable();
  await writable.write(new Uint8Array(size).fill(7));
  await writable.close();
}
""".replace("@KEPT@", KEPT)


# A tab the reader hides and shows again (harness.browser.hidden_tab_script), with a short time
# until a hidden tab frees its engine; the engine's workers stopped are counted.
HIDDEN_TAB = (
    hidden_tab_script(300)
    + """
window.__rwStopped = 0;
const stop = Worker.prototype.terminate;
Worker.prototype.terminate = function () {
  window.__rwStopped += 1;
  return stop.call(this);
};
"""
)


def engine_key(built_site: Path) -> str:
    html = (built_site / PAGE / "index.html").read_text(encoding="utf-8")
    found = re.search(r'<meta name="regelwerk-engine" content="([0-9a-f]+)"', html)
    assert found
    return found.group(1)


def kept_names(page: Any, wanted: list[str]) -> list[str]:
    """The files in the kept-snapshot folder, once they are ``wanted`` (keeping runs after
    "ready"), or whatever is there after 20 s."""
    deadline = time.monotonic() + 20
    names: list[str] = page.evaluate(KEPT_NAMES)
    while names != wanted and time.monotonic() < deadline:
        page.wait_for_timeout(100)
        names = page.evaluate(KEPT_NAMES)
    return names


def test_a_cold_visit_boots_once_from_the_head_and_a_reload_from_the_kept_snapshot(
    page: Any, site_url: str, built_site: Path
) -> None:
    """One cold visit and its reload (one context, two boots) show: the compressed wasm only,
    one worker started from <head> before the search index, and the warm boot from OPFS."""
    key = engine_key(built_site)
    # an older engine's copy and a half-written one are there already: both go
    seed_storage(page, site_url, {})
    page.evaluate(WRITE_KEPT, ["engine-0123456789abcdef.snap", 1000])
    page.evaluate(WRITE_KEPT, [f"engine-{key}.snap.teil", 1000])
    # Pyodide's wasm is 9.6 MB, 3.5 MB gzip-compressed: the site ships only the .gz (also a
    # host that does not compress sends 3.5 MB; issue 29: a cold visit ≤ 14 MB raw) and the
    # worker inflates it; Pyodide's own request for pyodide.asm.wasm never leaves the worker
    urls: list[str] = []
    page.context.on("request", lambda request: urls.append(request.url))
    page.add_init_script(HIDDEN_TAB)  # before the watch replaces window.Worker
    page.add_init_script(WATCH_SEARCH_SETUP)
    page.goto(site_url + PAGE)
    wait_engine_ready(page)
    assert page.evaluate("[window.__regelwerk.mode, window.__regelwerk.kept]") == [
        "snapshot",
        False,
    ]
    wasm = [u.rsplit("/", 1)[1] for u in urls if "pyodide.asm.wasm" in u]
    assert wasm == ["pyodide.asm.wasm.gz"], wasm
    assert not (built_site / "assets/pyodide/pyodide.asm.wasm").exists()
    # the snapshot issue, deliverable 4: the boot starts as soon as a page with a helper loads
    # – engine-start.js inline in <head>, before the helper scripts at the end of <body>; they
    # adopt that worker (with what it said before they ran) instead of starting a second one
    assert page.evaluate("window.__regelwerk.startedInHead") is True
    # inline, before the stylesheets: a script after them would wait until they are loaded
    html = (built_site / PAGE / "index.html").read_text(encoding="utf-8")
    assert html.index("__regelwerkEarlyWorker") < html.index('rel="stylesheet"')
    assert page.evaluate("window.__rwWorkers") == 1
    first = page.evaluate(f"() => window.Regelwerk.runEngine({ROLL}, {{raw: true}})")
    answer = page.evaluate(f"() => window.Regelwerk.runEngine({ROLL})")
    assert answer["ok"], answer
    # "helper ready warm ≤ 0.8 s": Material's search worker builds its index (≈ 0.3 s of CPU)
    # only when the reader wants to search, never beside the boot, nor because it ended – and
    # then answers as before. Material starts our holding worker (written for mkdocs-material
    # 9.8.2: a newer Material that no longer takes its worker from __config, or loads lunr
    # elsewhere, fails here or in the search)
    assert [url.rsplit("/", 1)[1] for url in page.evaluate("window.__searchWorkers")] == [
        "regelwerk-search.js"
    ]
    assert page.evaluate("window.__engineReadyAt") is not None
    assert page.evaluate("window.__searchSetupAt") is None
    search_answers(page, "Initiative")
    assert page.evaluate("window.__searchSetupAt") is not None
    # the snapshot is kept in OPFS (the others removed), and the reload boots from it
    assert kept_names(page, [f"engine-{key}.snap"]) == [f"engine-{key}.snap"]
    page.reload()
    wait_engine_ready(page)
    assert page.evaluate("[window.__regelwerk.mode, window.__regelwerk.kept]") == [
        "snapshot",
        True,
    ]
    # the kept snapshot answers exactly as the downloaded one did
    assert page.evaluate(f"() => window.Regelwerk.runEngine({ROLL}, {{raw: true}})") == first
    # issue #46, deliverable 4: the tab hidden for a while (the game master in his messenger)
    # frees the engine – its worker stopped, its memory back to the phone – and shown again it
    # starts from the kept snapshot, answering as before
    set_hidden(page, True)
    page.wait_for_function("() => window.__regelwerk.freed === 1", polling=50)
    assert page.evaluate("window.__rwStopped") == 1
    set_hidden(page, False)
    wait_engine_ready(page)
    assert page.evaluate("[window.__regelwerk.mode, window.__regelwerk.kept]") == [
        "snapshot",
        True,
    ]
    print(f"engine started again after being freed: {page.evaluate('__regelwerk.restoreMs')} ms")
    assert page.evaluate(f"() => window.Regelwerk.runEngine({ROLL}, {{raw: true}})") == first
    # hidden again while a roll waits: nothing is freed under it
    page.evaluate(f"() => {{ window.__rwSlow = window.Regelwerk.runEngine({ROLL}); }}")
    set_hidden(page, True)
    set_hidden(page, False)
    assert page.evaluate("window.__rwSlow.then((a) => a.ok)") is True


@pytest.mark.slow  # long: scheduled first (tests/conftest.py _work_order)
def test_a_damaged_kept_snapshot_is_removed_and_the_helper_still_works(
    page: Any, site_url: str, built_site: Path
) -> None:
    key = engine_key(built_site)
    seed_storage(page, site_url, {})
    page.evaluate(WRITE_KEPT, [f"engine-{key}.snap", 4096])  # not a snapshot at all
    page.goto(site_url + PAGE)
    wait_engine_ready(page)
    assert page.evaluate("window.__regelwerk.mode") == "plain"  # announced, as any rejection
    assert "Schnellstart nicht möglich" in page.locator(".rw-status").first.inner_text()
    assert page.evaluate(f"() => window.Regelwerk.runEngine({ROLL})")["ok"]
    assert page.evaluate(KEPT_NAMES) == []  # so the next page load downloads it again
    page.reload()
    wait_engine_ready(page)
    assert page.evaluate("[window.__regelwerk.mode, window.__regelwerk.kept]") == [
        "snapshot",
        False,
    ]
