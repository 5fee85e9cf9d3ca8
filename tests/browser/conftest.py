"""Browser fixtures: the built site served on 127.0.0.1, Debian Chromium through Playwright, and
the harness every browser test runs in: one factory for browser contexts (``browsers``) whose
pages fail the test on an uncaught error, a console error of ours or a Content Security Policy
violation (``page_errors``; CONTRIBUTING.md, „Wo was im Browser passiert“)."""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest

from harness import deadlines
from harness.browser import (
    ALL_HELPERS_SET_UP,
    CHROMIUM,
    CHROMIUM_ARGS,
    LOCAL_SCHEMES,
    NOT_LOCAL,
    READER_CHROMIUM,
    QuietHandler,
    SiteServer,
    click_in_page,
    evaluate_one,
    form_params,
    wait_engine_ready,
)
from tests.conftest import ROOT, Unzipped

__all__ = [
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "LOCAL_SCHEMES",
    "NEUTRAL_PAGE",
    "READER_CHROMIUM",
    "RESULTS_HOOK",
    "Browsers",
    "PageErrors",
    "QuietHandler",
    "SharedVisit",
    "Unzipped",
    "click_in_page",
    "evaluate_one",
    "form_params",
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

# Collects what the helpers and dice show (the widgets' regelwerk:result event), per page.
RESULTS_HOOK = """
window.__rwResults = [];
document.addEventListener("regelwerk:result", (event) => window.__rwResults.push(event.detail));
"""


@pytest.fixture(scope="session")
def site_url(built_site: Path, site_server: SiteServer) -> str:
    """The built site, served on a loopback address for the whole session (127.0.0.1, or one
    of its own per xdist worker, see tests/conftest.py; instant navigation works)."""
    site_server.start()
    return site_server.url


@pytest.fixture(scope="session")
def browser(watch: Watch) -> Iterator[Any]:
    """The one Chromium of the session; tests get their contexts from ``browsers``. Every
    call to it has a deadline (``harness.deadlines.guard_playwright``, issue #47 item 6)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian chromium-headless-shell is not installed (make test installs it)")
    with sync_api.sync_playwright() as playwright:
        deadlines.guard_playwright(playwright)
        instance = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, timeout=deadlines.STEP_S * 1000
        )
        watch.browser = instance  # to find contexts made around the factory
        yield instance
        instance.close()


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
    evaluate_one(helper, REVEAL)
    return helper


# One helper rolled with a fixed seed inside the page: „Zurücksetzen“, the seed under „Erweitert“,
# „Würfeln“, then wait for the answer – the same buttons and input events a reader triggers,
# in one round trip. Playwright's own click() and fill() first scroll the long page, move the
# mouse (hover transitions) and wait for stable frames: ≈ 0.25 s of drawing per helper, which
# the parity tests (80 helpers online, 30 offline) do not check; the fight, Tickleiste and
# keyboard tests click as a reader does.
ROLL_SEEDED = """async (box, [seed, waitMs]) => {
  box.querySelector(".rw-reset").click();
  // a helper that never rolls dice has no Wurfnummer to type (the engine's rolls_dice)
  const field = box.querySelector("[data-path='seed']");
  if (field) {
    box.querySelector("details.rw-advanced").open = true;
    field.value = String(seed);
    field.dispatchEvent(new Event("input", { bubbles: true }));
    field.dispatchEvent(new Event("change", { bubbles: true }));
  }
  const result = box.querySelector(".rw-result");
  result.querySelectorAll(":scope > *").forEach((node) => { node.dataset.rwOld = "1"; });
  box.querySelector(".rw-submit").click();
  for (let waited = 0; waited < waitMs; waited += 10) {
    const error = result.querySelector(":scope > .rw-error:not([data-rw-old])");
    if (error) return `Fehler: ${error.textContent}`;
    // the headline comes with the whole result; the Wurfnummer only with dice (results.js)
    if (result.querySelector(":scope > .rw-headline:not([data-rw-old])")) {
      const seedLine = result.querySelector(":scope > .rw-seed:not([data-rw-old])");
      return seedLine ? seedLine.textContent : "ohne Würfel";
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return `keine Antwort nach ${waitMs / 1000} s`;
}"""


def roll_seeded(helper: Any, seed: int) -> None:
    """Roll ``helper`` (a locator) with ``seed`` from its reset form, as a reader would;
    returns once its result (with that seed, or a result without dice: no Wurfnummer) is
    shown."""
    answer = evaluate_one(helper, ROLL_SEEDED, [seed, int(deadlines.WAIT_S * 1000)])
    assert answer in (f"Wurfnummer {seed}", "ohne Würfel"), (helper.get_attribute("id"), answer)


def navigate(page: Any, url: str) -> None:
    """Go to ``url`` the way a reader does: a link click that Material's instant navigation
    takes over, so the page's scripts and the booted engine stay (one boot per visit). It
    waits for the new page's own article (search results are ``article`` elements too).
    Already on that page: only its anchor changes (a click would not render it anew)."""
    here, _, _ = page.url.partition("#")
    wanted, _, anchor = urljoin(page.url, url).partition("#")
    if here == wanted:
        if anchor:
            page.evaluate("anchor => { location.hash = anchor; }", anchor)
        return
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


def window_size(width: int, height: int | None = None) -> dict[str, int]:
    """A browser window ``width`` px wide: 900 px high on a laptop, 800 on a phone."""
    return {"width": width, "height": height or (900 if width > 800 else 800)}


def resize(page: Any, width: int, height: int | None = None) -> None:
    """Resize the window (as a phone is turned; ``height`` as in ``window_size``) and let the
    layout settle: Material's drawer and sidebars move with a transition (250 ms) at every
    breakpoint crossed – 1920 → 1280 was once measured 2 px too wide while they moved."""
    page.set_viewport_size(window_size(width, height))
    page.wait_for_function("w => window.innerWidth === w", arg=width, polling=50)
    page.wait_for_timeout(300)


# Two frames for the media queries and Material's resize handlers to start their transitions
# (drawer, sidebars: 250 ms), then those finished at once, twice over (a handler may start one
# a frame later): the layout in its end state, without drawing the frames in between.
FINISH_TRANSITIONS = """async () => {
  const frames = () => new Promise((done) =>
    requestAnimationFrame(() => requestAnimationFrame(done)));
  for (let round = 0; round < 2; round++) {
    await frames();
    document.getAnimations().filter((a) => a instanceof CSSTransition)
      .forEach((a) => a.finish());
  }
}"""


def resize_settled(page: Any, width: int, height: int | None = None) -> None:
    """``resize`` with Material's transitions finished at once instead of waited for (300 ms
    of frames drawn: ≈ 0.1 CPU-s per resize), for checks of the settled layout."""
    page.set_viewport_size(window_size(width, height))
    page.wait_for_function("w => window.innerWidth === w", arg=width, polling=50)
    page.evaluate(FINISH_TRANSITIONS)


# ------------------------------------------------------------------ the harness
# Every browser context of the tests comes from ``browsers`` (one factory), which wires the
# listeners once per context – for all its pages, frames and workers, also tabs a test opens
# itself. What they report is kept in order (``Watch``); at the end of each test its share is
# checked (``page_errors``): an uncaught error in a page or worker, a console error of ours or
# a Content Security Policy violation fails the test, unless the test declared it with
# ``page_errors.expect(pattern)``.

# Our code in the browser: the site's scripts (site_plugins/assets → assets/regelwerk/, the
# web app's pwa.js and sw.js, the offline export's transport) and the offline engine worker,
# which runs from a blob: address. It logs expected trouble with console.warn("[regelwerk]", …)
# – a warning, never a failure; a console.error with that prefix, or any console error whose
# source is one of these files (a script of ours, or a file of ours that failed to load), is
# one. Console errors of other code (Material, axe, Chromium's own) are shown with a failing
# test but do not fail it.
OURS_PREFIX = "[regelwerk]"
OUR_FILES = re.compile(r"/assets/(regelwerk|pwa|offline)/|/sw\.js$|^blob:")
# How Chromium reports a Content Security Policy violation on the console (for the page and
# also for its frames and workers, which the page's securitypolicyviolation event does not see)
CSP = re.compile(r"Content Security Policy|Refused to")
# One task in the page: an error its timers throw right after the test's last step is
# reported before the test ends.
FLUSH = "() => new Promise((resolve) => setTimeout(resolve))"


@dataclass(frozen=True)
class Incident:
    """Something a page reported that fails the test, unless the test declared it."""

    kind: str  # "pageerror", "console.error" (ours) or "csp"
    text: str
    source: str  # the script and line, or the page
    during: str  # what pytest ran when it came (PYTEST_CURRENT_TEST)

    def __str__(self) -> str:
        return f"{self.kind}: {self.text} ({self.source})"


def _source(url: str, line: int | None = None) -> str:
    return f"{url}:{line}" if url and line else url or "?"


class Watch:
    """What the contexts made by ``Browsers`` report, in order, for the whole session (one
    per xdist worker); ``take`` hands out what came since it was last called."""

    def __init__(self) -> None:
        self.incidents: list[Incident] = []
        self.other_errors: list[str] = []  # console errors of other code: shown, never failing
        self.lines: dict[Any, list[str]] = {}  # open context → its console, "type: text"
        self.browser: Any = None
        self._taken = 0
        self._others_taken = 0

    def follow(self, context: Any) -> Any:
        lines: list[str] = []
        self.lines[context] = lines
        context.on("console", lambda message: self._console(message, lines))
        context.on("weberror", self._uncaught)
        context.on("close", lambda closed: self.lines.pop(closed, None))
        # every step of a test ends after STEP_S unless it says otherwise (issue #47 item 6)
        context.set_default_timeout(deadlines.STEP_S * 1000)
        context.set_default_navigation_timeout(deadlines.STEP_S * 1000)
        return context

    def _now(self) -> str:
        return os.environ.get("PYTEST_CURRENT_TEST", "between tests")

    def _console(self, message: Any, lines: list[str]) -> None:
        text = str(message.text)
        lines.append(f"{message.type}: {text}")
        location = message.location or {}
        url = str(location.get("url") or "")
        if not url and message.worker is not None:
            url = str(message.worker.url)
        source = _source(url, location.get("lineNumber"))
        if not url and message.page is not None:  # e.g. a script the test evaluated
            source = str(message.page.url)
        if CSP.search(text):
            self.incidents.append(Incident("csp", text, source, self._now()))
        elif message.type == "error":
            if text.startswith(OURS_PREFIX) or OUR_FILES.search(url.split("?")[0]):
                self.incidents.append(Incident("console.error", text, source, self._now()))
            else:
                self.other_errors.append(f"console.error: {text} ({source})")

    def _uncaught(self, web_error: Any) -> None:
        error = web_error.error
        location = web_error.location or {}
        url = str(location.get("url") or "")
        if not url and web_error.page is not None:
            url = str(web_error.page.url)
        text = f"{error.name or 'Error'}: {error.message}"
        self.incidents.append(
            Incident("pageerror", text, _source(url, location.get("line")), self._now())
        )

    def flush(self) -> None:
        """Let every open page run one task, so what its timers throw right now arrives."""
        for context in list(self.lines):
            for page in [page for page in context.pages if not page.is_closed()]:
                # closed or navigating: nothing more to hear from it
                with contextlib.suppress(Exception):
                    page.evaluate(FLUSH)

    def take(self) -> tuple[list[Incident], list[str]]:
        """The incidents and the other console errors since the last call."""
        incidents, others = self.incidents[self._taken :], self.other_errors[self._others_taken :]
        self._taken, self._others_taken = len(self.incidents), len(self.other_errors)
        return incidents, others

    def strays(self) -> list[str]:
        """Open contexts of the browser that ``Browsers`` did not make (nobody listens to
        them): closed here, so that only the test that made one fails."""
        if self.browser is None:
            return []
        found = [context for context in self.browser.contexts if context not in self.lines]
        for context in found:
            context.close()
        return [str(context) for context in found]


class Browsers:
    """The one factory for browser contexts (fixture ``browsers``): German, 1280 × 900 (a
    phone: ``width=375``), 60 s for every step, without the web app's service worker unless
    ``service_workers="allow"`` – it would fetch the whole site (24 MB) into every fresh
    context, a third of a test's CPU time; test_pwa.py keeps it (test_keyboard.py and
    test_accessibility.py show its footer line and notice from the status messages pwa.js
    reads, a11y.show_offline_status). Its contexts are watched (``page_errors``); whoever makes
    one closes it."""

    def __init__(self, browser: Any, watch: Watch) -> None:
        self.browser = browser
        self.watch = watch

    def context(
        self,
        width: int = 1280,
        height: int | None = None,
        *,
        service_workers: str = "block",
        init_scripts: Sequence[str] = (),
        network: bool = True,
        **options: Any,
    ) -> Any:
        """A fresh context; ``init_scripts`` run before every page's own scripts;
        ``network=False`` aborts every request outside file:, blob: and data: (the offline
        export, as on a desk without a network)."""
        context = self.watch.follow(
            self.browser.new_context(
                locale="de-DE",
                viewport=window_size(width, height),
                service_workers=service_workers,
                **options,
            )
        )
        if not network:
            # a pattern the driver matches: the local requests are never handed to Python
            # (a Python callable as the matcher has every request intercepted and continued
            # from here, ≈ 800 round trips in test_offline.py alone)
            context.route(NOT_LOCAL, lambda route: route.abort())
        for script in init_scripts:
            context.add_init_script(script)
        return context

    def page(self, width: int = 1280, height: int | None = None, **options: Any) -> Any:
        """A page in a fresh context of its own (see ``context``); close ``page.context``."""
        return self.context(width, height, **options).new_page()

    def persistent(self, folder: Path, **options: Any) -> Any:
        """A context with a profile on disk (a browser of its own, e.g. for what Chromium
        grants no incognito context, such as installing the web app)."""
        return self.watch.follow(
            self.browser.browser_type.launch_persistent_context(
                str(folder),
                executable_path=CHROMIUM,
                args=CHROMIUM_ARGS,
                locale="de-DE",
                **{"timeout": deadlines.STEP_S * 1000, **options},
            )
        )

    def console(self, target: Any) -> list[str]:
        """Everything the console of a page's context (or a context) said so far, as
        "type: text" – its pages, frames and workers."""
        context = getattr(target, "context", target)
        return self.watch.lines.get(context, [])


@pytest.fixture(scope="session")
def watch() -> Iterator[Watch]:
    """What the browser reported, for the session; what came after the last test is checked
    here (a context closed at the end of a module)."""
    seen = Watch()
    yield seen
    incidents, _ = seen.take()
    if incidents:
        pytest.fail(PageErrors.message(incidents, "the end of the session"), pytrace=False)


@pytest.fixture(scope="session")
def browsers(browser: Any, watch: Watch) -> Browsers:
    """The factory for every browser context of the tests (``Browsers``)."""
    return Browsers(browser, watch)


class PageErrors:
    """The check at the end of a test (fixture ``page_errors``, used by every test): it fails
    if the browser reported an incident (``Incident``) since the previous test's check that
    the test did not declare with ``expect``."""

    def __init__(self, watch: Watch, test: str) -> None:
        self.watch = watch
        self.test = test
        self.expected: list[re.Pattern[str]] = []

    def expect(self, pattern: str) -> None:
        """Incidents matching ``pattern`` (``re.search`` over „kind: text (source)“, e.g.
        "pageerror: TypeError: Failed to fetch (…/worker.js)") are what this test causes on
        purpose – a file it blocks, storage it corrupts; they may come, they need not."""
        self.expected.append(re.compile(pattern))

    def unexpected(self, flush: bool) -> tuple[list[Incident], list[str]]:
        if flush:
            self.watch.flush()
        incidents, others = self.watch.take()
        return [i for i in incidents if not any(p.search(str(i)) for p in self.expected)], others

    def verify(self, when: str) -> None:
        incidents, others = self.unexpected(flush=True)
        strays = self.watch.strays()
        if incidents:
            pytest.fail(self.message(incidents, when, self.test, others), pytrace=False)
        if strays:
            pytest.fail(
                "browser contexts not made by `browsers` (no harness listens to them): "
                + ", ".join(strays),
                pytrace=False,
            )

    @staticmethod
    def message(
        incidents: list[Incident], when: str, test: str = "", others: Sequence[str] = ()
    ) -> str:
        lines = [
            f"the browser reported {len(incidents)} incident(s) by {when} that the test did not "
            "declare (page_errors.expect; CONTRIBUTING.md, „Wo was im Browser passiert“):"
        ]
        for incident in incidents:
            during = incident.during
            if test and during.startswith(test + " "):
                during = during[len(test) + 1 :].strip("()")
            shown = str(incident)
            if len(shown) > 500:
                shown = shown[:400] + " … " + shown[-80:]
            lines.append(f"  {shown}  [during {during}]")
        if others:
            lines.append("console errors of other code (they fail nothing):")
            lines += [f"  {line}" for line in others]
        return "\n".join(lines)


PAGE_ERRORS = pytest.StashKey[PageErrors]()


@pytest.fixture(autouse=True)
def page_errors(request: pytest.FixtureRequest, watch: Watch) -> Iterator[PageErrors]:
    """Every test's check (see ``PageErrors``): after its body (``pytest_runtest_call``
    below), and again after its fixtures closed their pages."""
    check = PageErrors(watch, request.node.nodeid)
    request.node.stash[PAGE_ERRORS] = check
    yield check
    check.verify("the end of its teardown")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """A test whose body passed fails here on an undeclared incident (reported as a failure of
    the test, not an error of a fixture). When the body failed anyway, what the browser
    reported is added to its report."""
    check = item.stash.get(PAGE_ERRORS, None)
    try:
        result = yield
    except BaseException:
        if check is not None:
            incidents, others = check.unexpected(flush=False)
            if incidents or others:
                text = PageErrors.message(incidents, "the failure", item.nodeid, others)
                item.add_report_section("call", "browser", text)
        raise
    if check is not None:
        check.verify("the end of the test")
    return result


# ------------------------------------------------------------------ one visit per module


@pytest.fixture
def page(browsers: Browsers) -> Iterator[Any]:
    """A fresh page in a context of its own (``Browsers.page``), for a test that needs the
    browser fresh: a reload before the first boot, an init script, blocked files, rights
    like the clipboard."""
    page = browsers.page()
    yield page
    page.context.close()


# What a test may do to the shared page or its context that the next module must not inherit:
# a visit changed so is closed, not handed on (SharedVisit.hand_on).
LASTING_CHANGES = (
    "route",
    "route_from_har",
    "route_web_socket",
    "add_init_script",
    "expose_function",
    "expose_binding",
    "set_extra_http_headers",
    "emulate_media",
    "set_geolocation",
    "set_offline",
    "add_cookies",
)
NEUTRAL_PAGE = ""  # the start page: no helper and no widget, so it never writes to storage
CLEAR_AND_SEED = """items => {
  localStorage.clear();
  sessionStorage.clear();
  Object.entries(items).forEach(([key, value]) => localStorage.setItem(key, value));
}"""
# A search the last test left (its query, its results – Material keeps them across instant
# navigation) is cleared as a reader would clear it: the field emptied, Material reading it on
# keyup, the search closed; true once no result is left.
CLEAR_SEARCH = """() => {
  const field = document.querySelector("[data-md-component='search-query']");
  if (field && field.value) {
    field.value = "";
    field.dispatchEvent(new KeyboardEvent("keyup", { key: "Backspace", bubbles: true }));
  }
  const toggle = document.getElementById("__search");
  if (toggle) toggle.checked = false;
}"""
NO_SEARCH_RESULTS = "() => !document.querySelector('.md-search-result__list > li')"


class SharedVisit:
    """One booted page, as one visit of a reader: every page is reached by instant
    navigation, so the engine boots once instead of once per test (≈ 2 CPU-s each, see
    CONTRIBUTING.md). A visit serves one module at a time and is handed on to the next module
    of the worker (``Visits``, ``hand_on``) unless a test changed it for good.

    ``go`` moves on with the storage as it is (checks that need no empty storage, page after
    page); ``arrive`` gives the test exactly the storage it asks for (empty by default): the
    widgets keep their state in the page's DOM and in storage, both fresh on arrival. A test
    that needs the browser itself fresh (a reload, an init script, a blocked file) reloads or
    uses the ``page`` fixture.

    What the visit keeps from one test to the next: the window with its JavaScript (globals
    and listeners a test added, the booted engine worker), the origin's other storage (OPFS,
    Cache Storage, cookies), tabs a test opened in ``context`` and did not close, and the
    window size until the next ``go``. ``arrive`` resets localStorage and sessionStorage, the
    rights granted to the context (``grant_permissions``), a question or popover left open
    (Escape) and the page's content and widgets (rendered anew on arrival)."""

    def __init__(self, browsers: Browsers, site_url: str) -> None:
        self.site_url = site_url
        self.context = browsers.context()
        self.page: Any = None
        self.loaded = False
        self.spoiled = False  # a lasting change to the page or context: not handed on
        self._listeners: list[tuple[str, Any]] = []
        self._watch_changes(self.context)

    def _watch_changes(self, target: Any) -> None:
        """Mark the visit spoiled when a test changes ``target`` for good (a route, an init
        script …), and note the listeners a test adds, to remove them before the next module."""
        for name in LASTING_CHANGES:
            method = getattr(target, name, None)
            if method is not None:
                setattr(target, name, self._spoiling(method))
        if target is not self.context:
            for name in ("on", "once"):
                setattr(target, name, self._noting(getattr(target, name)))

    def _spoiling(self, method: Any) -> Any:
        def changed(*args: Any, **kwargs: Any) -> Any:
            self.spoiled = True
            return method(*args, **kwargs)

        return changed

    def _noting(self, method: Any) -> Any:
        def listen(event: str, handler: Any) -> Any:
            self._listeners.append((event, handler))
            return method(event, handler)

        return listen

    def hand_on(self) -> bool:
        """Make the visit ready for the next module, as a fresh one would be: its tabs closed
        but the page, the listeners of the last module removed, the start page with empty
        storage and no rights granted. False if it cannot be handed on (spoiled, closed, or
        somewhere the site's instant navigation cannot leave)."""
        page = self.page
        if self.spoiled or page is None or page.is_closed() or not self.loaded:
            return False
        for event, handler in self._listeners:
            page.remove_listener(event, handler)
        self._listeners.clear()
        for other in self.context.pages:
            if other is not page:
                other.close()
        if not page.url.startswith(self.site_url):
            return False
        try:
            page.keyboard.press("Escape")
            navigate(page, self.site_url + NEUTRAL_PAGE)
            page.evaluate(CLEAR_AND_SEED, {})
        except Exception:  # any trouble (a timeout, a closed page): a fresh visit next
            return False
        self.context.clear_permissions()
        return True

    def go(self, path: str, width: int = 1280, height: int | None = None) -> Any:
        """The page ``path`` (storage as it is), engine ready and every helper set up, in a
        window of ``width`` × ``height`` (900 px high on a laptop, 800 on a phone)."""
        self._forget_closed_page()
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
        self._forget_closed_page()
        if self.page is None:
            if items:
                seed_storage(self._open(), self.site_url, items)
        else:
            self.page.keyboard.press("Escape")  # a question or popover left by the last test
            navigate(self.page, self.site_url + NEUTRAL_PAGE)
            self.page.evaluate(CLEAR_SEARCH)
            self.page.wait_for_function(NO_SEARCH_RESULTS, timeout=10_000, polling=100)
            self.page.evaluate(CLEAR_AND_SEED, items)
            self.context.clear_permissions()
        return self.go(path, width, height)

    def _forget_closed_page(self) -> None:
        """A page closed under the visit (a call on it ran out of time and the deadline closed
        it, harness/deadlines.py): the next test starts on a new page of the same context."""
        if self.page is not None and self.page.is_closed():
            self.page = None
            self.loaded = False

    def _open(self) -> Any:
        self.page = self.context.new_page()
        self._watch_changes(self.page)
        return self.page

    def close(self) -> None:
        self.context.close()


class Visits:
    """The shared visit of this worker's session, lent to one module at a time and handed on
    to the next (``SharedVisit.hand_on``), or closed and made anew when it cannot be."""

    def __init__(self, browsers: Browsers, site_url: str) -> None:
        self.browsers = browsers
        self.site_url = site_url
        self.visit: SharedVisit | None = None

    def lend(self) -> SharedVisit:
        if self.visit is None:
            self.visit = SharedVisit(self.browsers, self.site_url)
        return self.visit

    def give_back(self, visit: SharedVisit) -> None:
        if not visit.hand_on():
            visit.close()
            self.visit = None

    def close(self) -> None:
        if self.visit is not None:
            self.visit.close()


@pytest.fixture(scope="session")
def visits(browsers: Browsers, site_url: str) -> Iterator[Visits]:
    lender = Visits(browsers, site_url)
    yield lender
    lender.close()


@pytest.fixture(scope="module")
def shared_visit(visits: Visits) -> Iterator[SharedVisit]:
    """The visit of the module's tests: the session's, handed on from the last module."""
    visit = visits.lend()
    yield visit
    visits.give_back(visit)


@pytest.fixture
def reader(shared_visit: SharedVisit) -> SharedVisit:
    """The shared visit (``SharedVisit.arrive``), the module's while its tests run."""
    return shared_visit


# ------------------------------------------------------------------ the offline export


@pytest.fixture
def offline(browsers: Browsers) -> Iterator[tuple[Any, list[str]]]:
    """A page whose context aborts (and records) every request that would leave the disk."""
    context = browsers.context(network=False, init_scripts=(RESULTS_HOOK,))
    requests: list[str] = []
    context.on("request", lambda request: requests.append(request.url))
    yield context.new_page(), requests
    context.close()
