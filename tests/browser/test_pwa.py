"""The online site as a web app: installable, offline after the first visit, updated when we
publish (site_plugins/webapp/pwa.py, site_plugins/webapp/assets/).

- the manifest and the icons (rendered at build time from the logo; sizes from the PNG header),
  and Chromium's own verdict: installable (DevTools protocol);
- a first visit stores everything („Offline bereit“; with the browser saving data only after
  „Trotzdem offline speichern“ – but the player view at once: the next code opens in flight
  mode); then, in flight mode, pages never visited (link clicks and
  direct loads), search, tooltips, rolls in three systems, the Tickleiste and a reload work
  with no request that the service worker did not answer;
- a first visit without helpers (the player view, a rule page) stores the site without the
  engine's runtime and requests none of its files; a page with helpers then stores it;
- a new deployment with another engine is offered („Neue Version – neu laden“), the old pages
  keep their old engine until the reader agrees, then the new engine answers – in every open
  tab of the site; a reader whose older deployment kept the runtime in Workbox's precache gets
  the new runtime stored before the offer, one who never had it gets none;
- no web app in the offline export (file://) and none under `mkdocs serve`, where a worker
  installed earlier on the same address removes itself.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from harness.browser import ENGINE_READY_MS
from harness.player_link import measure
from site_plugins.webapp import pwa
from tests.browser.conftest import (
    RESULTS_HOOK,
    Browsers,
    QuietHandler,
    Unzipped,
    navigate,
    wait_engine_ready,
)
from tests.conftest import ROOT, SiteServer

pytestmark = pytest.mark.browser

STATUS = ".rw-pwa-status"
TOAST = ".rw-pwa-toast"
STORE_WAIT_MS = ENGINE_READY_MS
ENGINE_KEY = "() => document.querySelector('meta[name=regelwerk-engine]').content"
# navigator.connection.saveData as on a phone with the data saver on
SAVE_DATA = """
Object.defineProperty(Navigator.prototype, "connection", {
  configurable: true,
  get: () => ({ saveData: true, addEventListener() {}, removeEventListener() {} }),
});
"""


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from the PNG header (signature, then the IHDR chunk)."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", path
    width, height = struct.unpack(">II", head[16:24])
    return width, height


# ------------------------------------------------------------------ manifest and icons


def test_manifest_and_icons_come_from_the_build(built_site: Path) -> None:
    manifest = json.loads((built_site / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["lang"] == "de"
    assert manifest["name"].startswith("Regelwerk") and manifest["short_name"] == "Regelwerk"
    assert "Würfelhelfern" in manifest["description"]
    assert manifest["start_url"] == manifest["scope"] == "./"  # the manifest lies in the root
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] == "#795649"  # Material's primary „brown“
    assert manifest["background_color"] == "#ffffff"
    sizes = {}
    for icon in manifest["icons"]:
        width, height = png_size(built_site / icon["src"])
        assert icon["sizes"] == f"{width}x{height}" and icon["type"] == "image/png"
        sizes[icon["purpose"]] = [*sizes.get(icon["purpose"], []), width]
    assert sorted(sizes["any"]) == [192, 512] and sizes["maskable"] == [512]
    assert png_size(built_site / "assets/pwa/apple-touch-icon.png") == (180, 180)
    for page in sorted(built_site.rglob("*.html")):
        html = page.read_text(encoding="utf-8")
        assert html.count('rel="manifest"') == 1, page
        assert 'rel="apple-touch-icon"' in html and "assets/pwa/pwa.js" in html, page
        assert re.search(r'<link rel="icon" href="[./]*assets/regelwerk/logo\.svg"', html), page
    assert "self.__WB_MANIFEST" not in (built_site / "sw.js").read_text(encoding="utf-8")


def test_chromium_reports_the_site_installable(
    browsers: Browsers, site_url: str, tmp_path: Path
) -> None:
    # installability is never granted in an incognito context: a profile on disk
    context = browsers.persistent(tmp_path / "profil")
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(site_url)
        cdp = context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"] == site_url + "manifest.webmanifest"
        assert manifest["errors"] == []
        assert manifest["manifest"]["startUrl"] == site_url
        assert manifest["manifest"]["scope"] == site_url
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    finally:
        context.close()


# ------------------------------------------------------------------ offline after a visit


class Requests:
    """Every request of a browser context, and whether the service worker answered it."""

    def __init__(self, context: Any) -> None:
        self.seen: list[Any] = []
        context.on("request", lambda request: self.seen.append(request))

    def mark(self) -> int:
        return len(self.seen)

    def to_network(self, since: int) -> list[str]:
        """Requests after ``since`` that went to (or tried) the network: not answered by the
        service worker, or made by the service worker itself."""
        out = []
        for request in self.seen[since:]:
            if request.url.startswith(("data:", "blob:")):
                continue
            response = request.response()
            if response is None and request.failure == "net::ERR_ABORTED":
                # cancelled by the page itself (a reload while the favicon was on its way);
                # a request that tried the network in flight mode fails otherwise
                # (net::ERR_INTERNET_DISCONNECTED) and is counted
                continue
            if request.service_worker is not None or not (
                response and response.from_service_worker
            ):
                out.append(request.url)
        return out


def new_context(browsers: Browsers, *scripts: str) -> Any:
    """With the web app's service worker (the harness watches every page of it)."""
    return browsers.context(service_workers="allow", init_scripts=(RESULTS_HOOK, *scripts))


def wait_offline_ready(page: Any) -> None:
    page.locator(STATUS, has_text="Offline bereit").wait_for(timeout=STORE_WAIT_MS)


def roll(page: Any, action: str) -> None:
    """The plain helper's „Würfeln“; waits for its result."""
    helper = page.locator(f"section.rw-helper[data-action='{action}']").first
    helper.locator(".rw-submit").click()
    helper.locator(".rw-result .rw-outcome").first.wait_for()


def first_visit_saving_data(browsers: Browsers, site_url: str) -> tuple[Any, Requests, Any]:
    """A browser that saves data visits the start page once: what a visit needs first is
    stored, the other pages are not („Trotzdem offline speichern“ is offered). → its context
    (the caller closes it), its requests and the page."""
    context = new_context(browsers, SAVE_DATA)
    requests = Requests(context)
    page = context.new_page()
    page.goto(site_url)
    button = page.locator(STATUS).get_by_role("button", name="Trotzdem offline speichern")
    button.wait_for(timeout=STORE_WAIT_MS)
    return context, requests, page


def test_first_visit_then_everything_works_in_flight_mode(
    browsers: Browsers, site_url: str
) -> None:
    context, requests, page = first_visit_saving_data(browsers, site_url)
    try:
        button = page.locator(STATUS).get_by_role("button", name="Trotzdem offline speichern")
        status = page.evaluate("window.RegelwerkOffline.status")
        assert status["core"]["cached"] == status["core"]["files"] > 20
        assert status["pages"]["cached"] == 0 and not status["complete"]
        # the start page has no helper: the runtime waits for „Trotzdem offline speichern“
        assert status["runtime"]["cached"] == 0 and status["runtime"]["files"] >= 8
        assert "Datensparmodus" in page.locator(STATUS).inner_text()
        assert page.locator(TOAST).get_by_role("button", name="Trotzdem offline speichern").count()
        # what a visit needs first includes the player view (site_plugins/webapp/pwa.py): a phone
        # that visited the site once opens the next code in flight mode, nothing from the
        # network (issue #28, Deliver 6). The link is the benchmark's 8 fighters, packed by
        # the page's own module.
        fragment = str(measure(site_url + "spieler/")[1]["fragment"])
        context.set_offline(True)
        offline_from = requests.mark()
        player = context.new_page()
        player.goto(site_url + "spieler/" + fragment)
        player.locator(".rw-player-list").wait_for()
        assert player.locator(".rw-player-name").count() == 8
        assert player.locator(".rw-player-actor-line").inner_text().startswith("Am Zug: ")
        assert requests.to_network(offline_from) == []
        player.close()
        context.set_offline(False)
        button.click()
        wait_offline_ready(page)
        assert "MB gespeichert" in page.locator(STATUS).inner_text()
        status = page.evaluate("window.RegelwerkOffline.status")
        assert status["complete"] and status["pages"]["files"] > 40

        context.set_offline(True)
        offline_from = requests.mark()
        # instant navigation (a link click) to a page never visited: the engine boots there
        # from the cache (the start page has no helper)
        navigate(page, site_url + "dsa/kampfhelfer/")
        wait_engine_ready(page)
        assert page.evaluate("window.__regelwerk.mode") == "snapshot"
        roll(page, "attack")
        # more pages never visited, each with a roll (a direct load of a page never loaded
        # before is the reload at the end: it came by a link click)
        navigate(page, site_url + "guete/kampfhelfer/")
        roll(page, "attack")
        navigate(page, site_url + "pathfinder/kampfhelfer/")
        roll(page, "attack")
        # the search (its worker and index from the cache)
        page.locator("input[data-md-component=search-query]").click()
        page.keyboard.type("Patzertabelle")
        page.locator(".md-search-result__item a").first.wait_for()
        page.keyboard.press("Escape")
        # the Tickleiste, a tooltip, and a reload that keeps the fighter: the first direct
        # load of this page, from the cache, and the engine boots there offline
        navigate(page, site_url + "ryssea/kampfbeginn-und-initiative/")
        board = page.locator("section.rw-tickleiste").first
        board.locator("[data-path='name']").fill("Alrik")
        board.get_by_role("button", name="Kämpfer hinzufügen").click()
        board.locator(".rw-result").get_by_text("Alrik wartet").first.wait_for()
        page.locator("article abbr[title]").first.hover()
        page.locator(".md-tooltip2--active").first.wait_for()
        page.reload()
        wait_engine_ready(page)
        board.locator(".rw-result").get_by_text("Alrik wartet").first.wait_for()
        wait_offline_ready(page)
        assert requests.to_network(offline_from) == []
    finally:
        context.close()


# Pyodide, the cut standard libraries, the engine archive and its snapshot
RUNTIME_FILE = re.compile(r"/assets/(pyodide/|regelwerk/(engine-|python_stdlib))")


def wait_stored(page: Any, pages: bool = True) -> None:
    """The worker installed, took over and stored what a visit needs first and (``pages``)
    the other pages: it is done. A browser saving data stores no pages by itself."""
    page.wait_for_function(
        """(pages) => {
            const s = window.RegelwerkOffline.status;
            return navigator.serviceWorker.controller !== null && s && !s.filling
                && s.core.cached === s.core.files
                && (!pages || s.pages.cached === s.pages.files);
        }""",
        arg=pages,
        timeout=STORE_WAIT_MS,
        polling=100,
    )


def runtime_requests(requests: Requests) -> list[str]:
    return [r.url for r in requests.seen if RUNTIME_FILE.search(r.url)]


def test_a_visit_without_helpers_stores_the_site_without_the_runtime(
    browsers: Browsers, site_url: str
) -> None:
    # issue 29: a player who only opens the player view on his phone (or a reader of a rule
    # page without helpers) gets the text, the search and the player view offline – and not
    # the engine's runtime (10 MB); opening a page with helpers stores it, and then the
    # helpers work in flight mode too. The first visit is the player view's; a rule page
    # without helpers loaded next asks for no runtime either (pwa.js decides by the open
    # page's helpers, whichever page installed the worker: one install instead of two).
    context = new_context(browsers)
    requests = Requests(context)
    page = context.new_page()
    try:
        page.goto(site_url + "spieler/")
        assert page.locator(".rw-helper, .rw-dice").count() == 0
        wait_stored(page)
        assert runtime_requests(requests) == []
        status = page.evaluate("window.RegelwerkOffline.status")
        assert status["pages"]["files"] > 40
        assert status["runtime"]["cached"] == 0 and not status["complete"]
        assert page.locator(STATUS).inner_text().startswith("Offline bereit ohne Würfelhelfer")
        page.goto(site_url + "ryssea/bewegungshandlungen/")
        assert page.locator(".rw-helper, .rw-dice").count() == 0
        page.locator(STATUS, has_text="Offline bereit ohne Würfelhelfer").wait_for()
        assert runtime_requests(requests) == []
        # a page with helpers: its engine loads the runtime, then the worker stores it
        navigate(page, site_url + "ryssea/kampfbeginn-und-initiative/")
        wait_engine_ready(page)
        page.wait_for_function(
            "() => window.RegelwerkOffline.status.complete", timeout=STORE_WAIT_MS, polling=100
        )
        assert page.locator(STATUS).inner_text().startswith("Offline bereit ·")
        status = page.evaluate("window.RegelwerkOffline.status")
        assert status["runtime"]["cached"] == status["runtime"]["files"] >= 8
        context.set_offline(True)
        offline_from = requests.mark()
        page.goto(site_url + "dsa/kampfhelfer/")
        wait_engine_ready(page)
        roll(page, "attack")
        assert requests.to_network(offline_from) == []
    finally:
        context.close()


# ------------------------------------------------------------------ a new deployment


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


ENGINE_META = re.compile(r'<meta name="regelwerk-engine" content="([0-9a-f]{16})"')


def _next_deployment(built_site: Path, target: Path) -> Path:
    """The next deployment, made from the suite's build: another engine key (its archive,
    snapshot and standard libraries under the new name, every page pointing there) and the
    service worker's lists generated anew by the build's own step (site_plugins/webapp/pwa.py
    write_worker: revisions, integrity, version). What a reader's browser sees
    of a new engine is exactly that – new file names, new pages, a new sw.js – and it costs a
    copy and one Node run instead of a second mkdocs build (≈ 15 CPU-s on a fresh clone, where
    the changed engine's snapshot had to be made too)."""
    shutil.copytree(built_site, target)
    found = ENGINE_META.search((target / "index.html").read_text(encoding="utf-8"))
    assert found
    old = found.group(1)
    new = f"{int(old, 16) ^ 0xFFFF_FFFF_FFFF_FFFF:016x}"
    renamed = [p for p in (target / "assets" / "regelwerk").iterdir() if old in p.name]
    assert len(renamed) >= 4, renamed  # engine-<key>.zip/.snap, python_stdlib(-plain)-<key>.zip
    for path in renamed:
        path.rename(path.with_name(path.name.replace(old, new)))
    for page in target.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        if old in html:
            page.write_text(html.replace(old, new), encoding="utf-8")
    color = json.loads((target / pwa.MANIFEST).read_text(encoding="utf-8"))["theme_color"]
    pwa.write_worker(target, color)
    worker = (target / pwa.SW_FILE).read_text(encoding="utf-8")
    assert new in worker and old not in worker
    return target


def serve_from(server: SiteServer, folder: Path) -> None:
    """The same address serves another folder from the next request on (a deployment)."""
    server.server.RequestHandlerClass = functools.partial(QuietHandler, directory=str(folder))


@pytest.fixture(scope="module")
def next_deployment(
    tmp_path_factory: pytest.TempPathFactory, built_site: Path
) -> Callable[[], tuple[Path, str]]:
    """The next deployment and its engine key, made on the first call (once for the module:
    the tests only read it; making it runs the build's Node step, ≈ 2 s)."""

    @functools.cache
    def make() -> tuple[Path, str]:
        folder = _next_deployment(built_site, tmp_path_factory.mktemp("naechste") / "site")
        found = ENGINE_META.search((folder / "index.html").read_text(encoding="utf-8"))
        assert found
        return folder, found.group(1)

    return make


@pytest.fixture
def redeploy(
    next_deployment: Callable[[], tuple[Path, str]], built_site: Path, site_server: SiteServer
) -> Iterator[Callable[[], str]]:
    """Called, the next deployment (a changed engine) is served at the same address from the
    next request on; it returns the new engine key. The suite's site is served again
    afterwards."""

    def deploy() -> str:
        folder, key = next_deployment()
        serve_from(site_server, folder)
        return key

    yield deploy
    serve_from(site_server, built_site)


@pytest.mark.slow  # long: scheduled first (tests/conftest.py _work_order)
def test_a_new_deployment_is_offered_and_never_mixed(
    browsers: Browsers, site_url: str, redeploy: Callable[[], str]
) -> None:
    context = new_context(browsers)
    page = context.new_page()
    try:
        page.goto(site_url + "ryssea/kampfhelfer/")
        wait_offline_ready(page)  # no data saver: the other pages come by themselves
        old_key = page.evaluate(ENGINE_KEY)
        new_key = redeploy()
        assert new_key != old_key
        # the reader comes back: the page is the stored one, with its own engine, while the
        # new version installs in the background (with all its pages) and then waits
        page.reload()
        wait_engine_ready(page)
        assert page.evaluate(ENGINE_KEY) == old_key
        reload_button = page.locator(TOAST).get_by_role("button", name="Neue Version – neu laden")
        reload_button.wait_for(timeout=STORE_WAIT_MS)
        navigate(page, site_url + "dsa/kampfhelfer/")  # still the old version everywhere
        assert page.evaluate(ENGINE_KEY) == old_key
        roll(page, "attack")
        # another tab of the site, opened now, is of the old version too
        other = context.new_page()
        other.goto(site_url)
        assert other.evaluate(ENGINE_KEY) == old_key
        other.locator(TOAST).get_by_role("button", name="Neue Version – neu laden").wait_for()
        reload_button.click()
        # the page reloads by itself once the new version has taken over (poll across it)
        page.wait_for_function(
            """key => {
                const meta = document.querySelector("meta[name=regelwerk-engine]");
                return meta && meta.content.startsWith(key) && window.__regelwerk
                    && window.__regelwerk.ready;
            }""",
            arg=new_key,
            timeout=STORE_WAIT_MS,
            polling=100,
        )
        assert page.evaluate(ENGINE_KEY) == new_key
        # the other tab reloaded by itself as well
        other.wait_for_function(
            """key => {
                const meta = document.querySelector("meta[name=regelwerk-engine]");
                return Boolean(meta && meta.content.startsWith(key));
            }""",
            arg=new_key,
            polling=100,
        )
        assert page.evaluate("window.__regelwerk.mode") == "snapshot"
        roll(page, "attack")
        wait_offline_ready(page)  # the new version's pages came with it
        assert (
            page.locator(TOAST).get_by_role("button", name="Neue Version – neu laden").count() == 0
        )
    finally:
        context.close()


# What deployments before the runtime list (issue 29) left in a reader's browser: the engine's
# runtime in Workbox's precache, under /assets/pyodide/ (sw.js hadRuntime).
KEEP_AN_OLDER_RUNTIME = """async (url) => {
    const names = await caches.keys();
    const precache = names.find((name) => name.startsWith("workbox-precache"));
    const cache = await caches.open(precache);
    await cache.put(url, new Response("wasm of an older deployment"));
    return (await caches.open("regelwerk-laufzeit")).keys().then((keys) => keys.length);
}"""
STORED_RUNTIME = """async () => (await (await caches.open("regelwerk-laufzeit")).keys())
    .map((request) => request.url)"""


def test_an_update_stores_the_runtime_only_for_a_reader_who_had_it(
    browsers: Browsers, site_url: str, redeploy: Callable[[], str]
) -> None:
    # sw.js, install: a reader who had the helpers offline with an older deployment keeps
    # them offline after the update – also when that deployment kept the runtime in
    # Workbox's precache (there was no runtime cache then): the new version stores its own
    # runtime before it is offered. A reader who never had it (the player view on a phone
    # that saves data) does not get the 10 MB with the update either.
    had, never = new_context(browsers, SAVE_DATA), new_context(browsers, SAVE_DATA)
    never_requests = Requests(never)
    try:
        readers = [had.new_page(), never.new_page()]
        for page in readers:
            page.goto(site_url + "spieler/")
            wait_stored(page, pages=False)
        older = site_url + "assets/pyodide/pyodide.asm.wasm?__WB_REVISION__=aelter"
        assert readers[0].evaluate(KEEP_AN_OLDER_RUNTIME, older) == 0  # no runtime cache
        new_key = redeploy()
        for page in readers:
            page.reload()
        # offered once installed: installing is done
        for page in readers:
            page.locator(TOAST).get_by_role("button", name="Neue Version – neu laden").wait_for(
                timeout=STORE_WAIT_MS
            )
        stored = readers[0].evaluate(STORED_RUNTIME)
        assert any(f"engine-{new_key}.snap" in url for url in stored), stored
        assert any("/assets/pyodide/pyodide.asm.wasm" in url for url in stored), stored
        assert readers[1].evaluate(STORED_RUNTIME) == []
        assert runtime_requests(never_requests) == []
    finally:
        had.close()
        never.close()


# ------------------------------------------------------------------ where there is none


def test_the_offline_export_has_no_web_app(export: Unzipped) -> None:
    assert not (export.root / "sw.js").exists()
    assert not (export.root / "manifest.webmanifest").exists()
    assert not (export.root / "assets" / "pwa").exists()
    for page in export.root.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        assert 'rel="manifest"' not in html and "pwa.js" not in html, page


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, ""
    except urllib.error.URLError:  # nobody listens (yet)
        return 0, ""


def _worker_gone(page: Any) -> bool:
    """No registration, no controller, and the page is the live one (no manifest link)."""
    try:
        return bool(
            page.evaluate(
                """async () => (await navigator.serviceWorker.getRegistrations()).length === 0
                    && navigator.serviceWorker.controller === null
                    && document.readyState === "complete"
                    && !document.querySelector('link[rel=manifest]')"""
            )
        )
    except Exception:  # the page is being reloaded by the worker
        return False


@pytest.mark.slow  # long: scheduled first (tests/conftest.py _work_order)
def test_mkdocs_serve_has_none_and_removes_an_old_worker(
    browsers: Browsers, built_site: Path
) -> None:
    port = _free_port()
    url = f"http://127.0.0.1:{port}/"
    # first the built site on this address: its worker installs
    built = http.server.ThreadingHTTPServer(
        ("127.0.0.1", port), functools.partial(QuietHandler, directory=str(built_site))
    )
    threading.Thread(target=built.serve_forever, daemon=True).start()
    context = new_context(browsers)
    page = context.new_page()
    serve = None
    try:
        page.goto(url + "offline/")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", polling=100)
        built.shutdown()
        built.server_close()
        # then `mkdocs serve` on the same address
        env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
        serve = subprocess.Popen(
            [sys.executable, "-m", "mkdocs", "serve", "--no-livereload", "--dev-addr", url[7:-1]],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 180
        while _get(url + "offline/")[0] != 200:
            assert serve.poll() is None and time.monotonic() < deadline, "mkdocs serve kam nicht"
            time.sleep(0.5)
        status, html = _get(url + "offline/")
        assert 'rel="manifest"' not in html and "pwa.js" not in html
        assert _get(url + "manifest.webmanifest")[0] == 404
        status, worker = _get(url + "sw.js")
        assert status == 200 and "unregister()" in worker and "precache" not in worker
        # the reader opens the page again: the stored worker finds its successor, which
        # removes itself, and the page comes live from `mkdocs serve`
        page.reload()
        deadline = time.monotonic() + 60
        while not _worker_gone(page):
            assert time.monotonic() < deadline, "der alte Service Worker blieb"
            page.wait_for_timeout(250)
        assert page.evaluate("caches.keys()") == []
    finally:
        context.close()
        if serve is not None:
            serve.terminate()
            serve.wait(timeout=30)


def test_a_lan_address_over_http_says_offline_is_impossible(browser: Any, site_url: str) -> None:
    """#45: „On a LAN http:// address the view has no offline mode and nothing says so“ – the
    footer says so on every page there (the player view too), and what works instead. A name
    that resolves to this computer but is no loopback name is such an address for Chromium
    (no secure context, no service worker)."""
    from urllib.parse import urlsplit

    from harness import deadlines
    from harness.browser import CHROMIUM, CHROMIUM_ARGS

    host = urlsplit(site_url).hostname
    lan = browser.browser_type.launch(
        executable_path=CHROMIUM,
        args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP tisch.lan {host}"],
        timeout=deadlines.STEP_S * 1000,
    )
    try:
        page = lan.new_page()
        address = site_url.replace(f"//{host}", "//tisch.lan", 1)
        page.goto(address + "spieler/")
        assert page.evaluate("window.isSecureContext") is False
        line = page.locator(".rw-pwa-status")
        line.wait_for(timeout=ENGINE_READY_MS)
        text = line.inner_text()
        assert text.startswith("Offline nicht möglich unter http://tisch.lan:"), text
        assert "Offline-Version" in text
    finally:
        lan.close()
