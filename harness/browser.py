"""The browser toolkit the tests, the benchmarks and a site's own checks share: Debian's
Chromium and its arguments, a static server for a built site, the waits and calls every
driver of a page needs. No test fixtures here (those are in ``tests/browser/conftest.py``);
each call to a browser has its deadline (:mod:`harness.deadlines`)."""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from harness import deadlines

LOCAL_SCHEMES = ("file:", "blob:", "data:")
# every address outside those schemes (what ``Browsers.context(network=False)`` aborts), as a
# pattern the driver matches itself (see there)
NOT_LOCAL = re.compile("^(?!(?:" + "|".join(map(re.escape, LOCAL_SCHEMES)) + "))")

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


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {  # noqa: RUF012  (the base class declares it as an instance variable)
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".wasm": "application/wasm",
        ".json": "application/json",
        ".zip": "application/zip",
    }

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def handle(self) -> None:
        # a page closed by its test while a file was on its way: the browser hung up, nothing
        # to report (the server thread would print a traceback into the test output)
        with contextlib.suppress(ConnectionResetError, BrokenPipeError):
            super().handle()


class SiteServer:
    """A static server on a loopback address, bound before the build, so the build knows its
    URL (port 0: any free port).

    Material's instant navigation needs ``site_url`` to match the server's port and path
    (it takes the host from the page: its sitemap's URLs get the page's hostname); the site is
    built with ``REGELWERK_SITE_URL`` set to a URL with this server's port.
    """

    def __init__(self, directory: Path, host: str = "127.0.0.1", port: int = 0) -> None:
        self.directory = directory
        handler = functools.partial(QuietHandler, directory=str(directory))
        self.server = http.server.ThreadingHTTPServer((host, port), handler)
        self.port = int(self.server.server_address[1])
        self.url = f"http://{host}:{self.port}/"
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        if self.thread:  # already serving (tests/browser and tests/crossbrowser share it)
            return
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        if self.thread:
            self.server.shutdown()
        self.server.server_close()


def build_site(
    out: Path, site_url: str, *extra: str, root: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """``mkdocs build --strict`` of the site in ``root`` (the working directory) into ``out``
    for a site served at ``site_url``."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", REGELWERK_SITE_URL=site_url)
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out), *extra],
        cwd=root or Path.cwd(),
        capture_output=True,
        text=True,
        env=env,
    )


# generous: a loaded CI machine can be slow (measured by the benchmark), but below the deadline
# of every call (harness/deadlines.py), so that the wait ends with its own message
ENGINE_READY_MS = int(deadlines.WAIT_S * 1000)


def wait_engine_ready(page: Any) -> None:
    """Wait until the page's engine worker has booted Pyodide and the engine."""
    page.wait_for_function(
        "() => window.__regelwerk && window.__regelwerk.ready",
        timeout=ENGINE_READY_MS,
        # every 100 ms, not every frame: polling per frame keeps the page drawing frames
        # while it waits (measured: 0.09 CPU-s per second of waiting, against 0.006)
        polling=100,
    )


def hidden_tab_script(free_ms: int) -> str:
    """An init script: the tab can be hidden and shown as a phone switching apps does it
    (``document.visibilityState`` and its event, through ``set_hidden``), and a hidden tab frees
    its engine after ``free_ms`` (engine-client.js ``hiddenFreeMs``)."""
    return f"""
window.__regelwerkHiddenFreeMs = {int(free_ms)};
window.__rwHidden = false;
Object.defineProperty(document, "visibilityState", {{
  configurable: true,
  get: () => (window.__rwHidden ? "hidden" : "visible"),
}});
"""


def set_hidden(page: Any, hidden: bool) -> None:
    """Hide or show the tab of ``page`` (after ``hidden_tab_script``)."""
    page.evaluate(
        """(hidden) => {
          window.__rwHidden = hidden;
          document.dispatchEvent(new Event("visibilitychange"));
        }""",
        hidden,
    )


def evaluate_one(locator: Any, expression: str, arg: Any = None) -> Any:
    """``locator.evaluate(expression, arg)`` in one protocol round trip instead of three.

    Playwright's ``locator.evaluate`` waits for the element (waitForSelector, which hands back
    a handle), evaluates on that handle and disposes of it: 6–7.5 CPU-ms of Python, driver and
    browser per call, against 2.4–2.8 here and 1 for a ``page.evaluate`` (400 calls each on
    the DSA Kampfhelfer page). Here the function ``expression`` runs in the same call that
    finds the elements (``evaluate_all``) when the locator names exactly one; when it names
    none yet, or more than one, ``locator.evaluate`` does it all the same – it waits for the
    element to be attached and raises Playwright's strict-mode error, so auto-waiting and
    strictness are kept.
    ``expression`` must be a JavaScript function (of the element and ``arg``)."""
    found = locator.evaluate_all(
        f"async (elements, arg) => elements.length === 1\n"
        f"  ? [await (\n{expression}\n)(elements[0], arg)] : []",
        arg,
    )
    if found:
        return found[0]
    return locator.evaluate(expression, arg)


def click_in_page(locator: Any) -> None:
    """The element's click event, fired in the page (as a tap or the keyboard gives it),
    without Playwright first scrolling it into view and waiting for calm frames (≈ 0.25 s of
    drawing per click): for checks of what the page does, or of where things are."""
    evaluate_one(locator, "(element) => element.click()")


def form_params(helper: Any) -> Any:
    """The params of a helper's form, as the page sends them (forms.js ``collect``)."""
    return evaluate_one(helper, "(h) => window.Regelwerk.collect(h)")


# Every helper set up and every fight of the page drawn and filled (page.js initPage sets the
# page up in slices; fight/workbench.js marks a fight „ready“ in its last one).
ALL_HELPERS_SET_UP = (
    "() => [...document.querySelectorAll('.rw-helper')].every((h) => h.dataset.rwReady)"
    " && [...document.querySelectorAll('.rw-workbench')]"
    ".every((w) => w.dataset.rwFight === 'ready')"
)
