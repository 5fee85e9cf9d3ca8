"""Browser fixtures: the built site served on 127.0.0.1, Debian Chromium through Playwright."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, QuietHandler, SiteServer, Unzipped

__all__ = [
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "LOCAL_SCHEMES",
    "NEUTRAL_PAGE",
    "READER_CHROMIUM",
    "RESULTS_HOOK",
    "QuietHandler",
    "SharedVisit",
    "Unzipped",
    "csp_violations",
    "navigate",
    "resize",
    "reveal",
    "review_screenshot",
    "roll_seeded",
    "screenshots_wanted",
    "seed_storage",
    "wait_engine_ready",
    "window_size",
]

LOCAL_SCHEMES = ("file:", "blob:", "data:")
# Collects what the helpers and dice show (the widgets' regelwerk:result event), per page.
RESULTS_HOOK = """
window.__rwResults = [];
document.addEventListener("regelwerk:result", (event) => window.__rwResults.push(event.detail));
"""

# The tests drive Debian's chromium-headless-shell: the same Chromium build (Blink, V8, the same
# version) without the desktop browser around it, which is what headless Playwright runs by
# default too. Per fresh context it costs a third less CPU than the full chromium (measured
# with scripts/context_cost.py: 3.12 → 2.31 CPU-s for a Kampfhelfer page; the whole suite
# 401 → 338 s back to back). The benchmarks measure what a reader's browser does, so they run
# the full Debian chromium (READER_CHROMIUM). Both come from `make chromium`.
CHROMIUM = shutil.which("chromium-headless-shell") or "/usr/bin/chromium-headless-shell"
READER_CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    # Chromium 156 preloads its omnibox popup (a WebUI page of ~200 modules) in a renderer of
    # its own for every new window, and every Playwright context is a new window: ~0.8 CPU-s
    # per context, half of what a fresh context costs before the page (measured with a
    # Chromium trace, 0.97 → 0.42 CPU-s for about:blank). A page never sees that popup.
    "--disable-features=WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup,"
    "PreloadTopChromeWebUI",
]


@pytest.fixture(scope="session")
def site_url(built_site: Path, site_server: SiteServer) -> str:
    """The built site, served on a loopback address for the whole session (127.0.0.1, or one
    of its own per xdist worker, see tests/conftest.py; instant navigation works)."""
    site_server.start()
    return site_server.url


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian chromium-headless-shell is not installed (make test installs it)")
    with sync_api.sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield instance
        instance.close()


ENGINE_READY_MS = 180_000  # generous: a loaded CI machine can be slow; measured by the benchmark


def wait_engine_ready(page: Any) -> None:
    """Wait until the page's engine worker has booted Pyodide and the engine."""
    page.wait_for_function(
        "() => window.__regelwerk && window.__regelwerk.ready",
        timeout=ENGINE_READY_MS,
        # every 100 ms, not every frame: polling per frame keeps the page drawing frames
        # while it waits (measured: 0.09 CPU-s per second of waiting, against 0.006)
        polling=100,
    )


REVEAL = """
(helper) => {
  const block = helper.closest(".tabbed-block");
  if (!block || block.offsetParent !== null) return;
  const set = block.closest(".tabbed-set");
  const index = [...block.parentElement.children].indexOf(block);
  set.querySelectorAll(":scope > .tabbed-labels > label")[index].click();
}
"""


def reveal(helper: Any) -> Any:
    """Open the Kampfhelfer tab a helper sits in (as a reader taps it); returns the helper."""
    helper.evaluate(REVEAL)
    return helper


# One helper rolled with a fixed seed inside the page: „Zurücksetzen“, the seed under „Erweitert“,
# „Würfeln“, then wait for the answer – the same buttons and input events a reader triggers,
# in one round trip. Playwright's own click() and fill() first scroll the long page, move the
# mouse (hover transitions) and wait for stable frames: ≈ 0.25 s of drawing per helper, which
# the parity tests (80 helpers online, 30 offline) do not check; the fight, Tickleiste and
# keyboard tests click as a reader does.
ROLL_SEEDED = """async (box, seed) => {
  box.querySelector(".rw-reset").click();
  box.querySelector("details.rw-advanced").open = true;
  const field = box.querySelector("[data-path='seed']");
  field.value = String(seed);
  field.dispatchEvent(new Event("input", { bubbles: true }));
  field.dispatchEvent(new Event("change", { bubbles: true }));
  const result = box.querySelector(".rw-result");
  result.querySelectorAll(":scope > *").forEach((node) => { node.dataset.rwOld = "1"; });
  box.querySelector(".rw-submit").click();
  for (let waited = 0; waited < 60000; waited += 10) {
    const error = result.querySelector(":scope > .rw-error:not([data-rw-old])");
    if (error) return `Fehler: ${error.textContent}`;
    const seedLine = result.querySelector(":scope > .rw-seed:not([data-rw-old])");
    if (seedLine) return seedLine.textContent;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return "keine Antwort nach 60 s";
}"""


def roll_seeded(helper: Any, seed: int) -> None:
    """Roll ``helper`` (a locator) with ``seed`` from its reset form, as a reader would;
    returns once its result (with that seed) is shown."""
    answer = helper.evaluate(ROLL_SEEDED, seed)
    assert answer == f"Wurfnummer {seed}", (helper.get_attribute("id"), answer)


def navigate(page: Any, url: str) -> None:
    """Go to ``url`` the way a reader does: a link click that Material's instant navigation
    takes over, so the page's scripts and the booted engine stay (one boot per visit). It
    waits for the new page's own article (search results are ``article`` elements too)."""
    target = page.evaluate(
        """url => {
            const href = new URL(url, location.href).href;
            document.querySelector("article.md-content__inner").dataset.rwLeaving = "1";
            const link = document.createElement("a");
            link.href = href;
            document.body.appendChild(link);
            link.click();
            link.remove();
            return href;
        }""",
        url,
    )
    page.wait_for_function(
        """url => location.href.split("#")[0] === url.split("#")[0]
            && document.querySelector("article.md-content__inner")
            && !document.querySelector("article.md-content__inner[data-rw-leaving]")""",
        arg=target,
    )


def seed_storage(page: Any, site_url: str, items: dict[str, str]) -> None:
    """Put ``items`` into the site's localStorage before its first page is opened, as a
    browser that kept them from an earlier visit: from a blank page of the same origin, so
    the engine boots once (on the page opened next), not once for seeding and once more."""
    blank = site_url + "__leer__.html"
    page.route(blank, lambda route: route.fulfill(body="<!doctype html><title>leer</title>"))
    page.goto(blank)
    page.evaluate(
        "items => Object.entries(items).forEach(([k, v]) => localStorage.setItem(k, v))", items
    )
    page.unroute(blank)


SCREENSHOTS = ROOT / "test-results" / "screenshots"


def screenshots_wanted() -> bool:
    """``REGELWERK_SCREENSHOTS=1`` (``make screenshots``): save pictures for review."""
    return bool(os.environ.get("REGELWERK_SCREENSHOTS"))


def review_screenshot(target: Any, name: str, *, full_page: bool = True) -> None:
    """Save a picture of a page (whole, or its window with ``full_page=False``) or of one
    element (a locator) for review in test-results/screenshots/ – only with
    ``REGELWERK_SCREENSHOTS=1`` (``make screenshots``): a full-page PNG costs seconds."""
    if not screenshots_wanted():
        return
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    if not hasattr(target, "goto"):  # an element
        target.screenshot(path=str(SCREENSHOTS / name))
        return
    if full_page:
        target.evaluate("window.scrollTo(0, 0)")
    target.screenshot(path=str(SCREENSHOTS / name), full_page=full_page)


def csp_violations(messages: list[str]) -> list[str]:
    """Console lines in which Chromium reports a Content Security Policy violation (also those
    of frames and workers, which the page's securitypolicyviolation event does not see)."""
    return [m for m in messages if "Content Security Policy" in m or "Refused to" in m]


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page; every test that uses it fails on a Content Security Policy violation.

    Without the web app's service worker: it would fetch the whole site (24 MB) into the
    fresh context's storage during every test, a third of a test's CPU time; test_pwa.py,
    test_keyboard.py and test_accessibility.py keep it."""
    context = browser.new_context(
        locale="de-DE", viewport={"width": 1280, "height": 900}, service_workers="block"
    )
    page = context.new_page()
    page.set_default_timeout(60_000)
    messages: list[str] = []
    page.on("console", lambda msg: messages.append(f"{msg.type}: {msg.text}"))
    page.on("pageerror", lambda err: messages.append(f"pageerror: {err}"))
    page.console_messages = messages  # type: ignore[attr-defined]
    yield page
    context.close()
    assert csp_violations(messages) == []


def window_size(width: int, height: int | None = None) -> dict[str, int]:
    """A browser window ``width`` px wide: 900 px high on a laptop, 800 on a phone."""
    return {"width": width, "height": height or (900 if width > 800 else 800)}


def resize(page: Any, width: int) -> None:
    """Resize the window (as a phone is turned) and let the layout settle: Material's drawer
    and sidebars move with a transition (250 ms) at every breakpoint crossed – 1920 → 1280
    was once measured 2 px too wide while they moved."""
    page.set_viewport_size(window_size(width))
    page.wait_for_function("w => window.innerWidth === w", arg=width, polling=50)
    page.wait_for_timeout(300)


NEUTRAL_PAGE = ""  # the start page: no helper and no widget, so it never writes to storage
CLEAR_AND_SEED = """items => {
  localStorage.clear();
  Object.entries(items).forEach(([key, value]) => localStorage.setItem(key, value));
}"""
ALL_HELPERS_SET_UP = (
    "() => [...document.querySelectorAll('.rw-helper')].every((h) => h.dataset.rwReady)"
)


class SharedVisit:
    """One booted page for a whole test module, as one visit of a reader: every page is
    reached by instant navigation, so the engine boots once per module instead of once per
    test (≈ 2 CPU-s each, see CONTRIBUTING.md).

    ``go`` moves on with the storage as it is (checks that need no empty storage, page after
    page); ``arrive`` gives the test exactly the storage it asks for (empty by default): the
    widgets keep their state in the page's DOM and in storage, both fresh on arrival. A test
    that needs the browser itself fresh (a reload, an init script, a blocked file) reloads or
    uses the ``page`` fixture."""

    def __init__(self, browser: Any, site_url: str) -> None:
        self.site_url = site_url
        self.context = browser.new_context(
            locale="de-DE", viewport={"width": 1280, "height": 900}, service_workers="block"
        )
        self.page: Any = None
        self.loaded = False
        self.messages: list[str] = []

    def go(self, path: str, width: int = 1280, height: int | None = None) -> Any:
        """The page ``path`` (storage as it is), engine ready and every helper set up, in a
        window of ``width`` × ``height`` (900 px high on a laptop, 800 on a phone)."""
        page = self._open() if self.page is None else self.page
        size = window_size(width, height)
        if page.viewport_size != size:
            page.set_viewport_size(size)
        if self.loaded:
            navigate(page, self.site_url + path)
        else:  # the first page of the visit (after seed_storage's blank page, if any)
            page.goto(self.site_url + path)
            self.loaded = True
        wait_engine_ready(page)
        page.wait_for_function(ALL_HELPERS_SET_UP, polling=100)
        return page

    def arrive(
        self,
        path: str,
        storage: dict[str, str] | None = None,
        width: int = 1280,
        height: int | None = None,
    ) -> Any:
        """The page ``path`` with exactly ``storage`` in localStorage (see ``go``)."""
        items = storage or {}
        if self.page is None:
            if items:
                seed_storage(self._open(), self.site_url, items)
        else:
            self.page.keyboard.press("Escape")  # a question or popover left by the last test
            navigate(self.page, self.site_url + NEUTRAL_PAGE)
            self.page.evaluate(CLEAR_AND_SEED, items)
        return self.go(path, width, height)

    def _open(self) -> Any:
        self.page = page = self.context.new_page()
        page.set_default_timeout(60_000)
        page.on("console", lambda msg: self.messages.append(f"{msg.type}: {msg.text}"))
        page.on("pageerror", lambda err: self.messages.append(f"pageerror: {err}"))
        page.console_messages = self.messages
        return page

    def close(self) -> None:
        self.context.close()


@pytest.fixture(scope="module")
def shared_visit(browser: Any, site_url: str) -> Iterator[SharedVisit]:
    visit = SharedVisit(browser, site_url)
    yield visit
    visit.close()


@pytest.fixture
def reader(shared_visit: SharedVisit) -> Iterator[SharedVisit]:
    """The module's shared visit (``SharedVisit.arrive``); the test fails on a Content
    Security Policy violation while it ran."""
    start = len(shared_visit.messages)
    yield shared_visit
    assert csp_violations(shared_visit.messages[start:]) == []


# ------------------------------------------------------------------ the offline export


@pytest.fixture
def offline(browser: Any) -> Iterator[tuple[Any, list[str]]]:
    """A page whose context aborts (and records) every request that would leave the disk."""
    context = browser.new_context(locale="de-DE", viewport={"width": 1280, "height": 900})
    requests: list[str] = []
    context.on("request", lambda request: requests.append(request.url))
    context.route("http://**/*", lambda route: route.abort())
    context.route("https://**/*", lambda route: route.abort())
    context.route(lambda url: not url.startswith(LOCAL_SCHEMES), lambda route: route.abort())
    context.add_init_script(RESULTS_HOOK)
    page = context.new_page()
    page.set_default_timeout(60_000)
    errors: list[str] = []
    messages: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda msg: messages.append(f"{msg.type}: {msg.text}"))
    yield page, requests
    context.close()
    assert errors == [], errors
    assert csp_violations(messages) == []
