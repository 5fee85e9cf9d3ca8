"""The book and its helpers in Firefox and WebKit (issue #33): one browser per engine and test
module, behind one small interface, so that both engines run the same checks.

- Firefox: Debian's ``firefox-esr`` over WebDriver BiDi, driven by npm ``puppeteer-core``
  from a Node process (``firefox_bridge.mjs``; no browser download).
- WebKit: Debian's ``WebKitWebDriver`` (webkit2gtk-driver, its MiniBrowser) over W3C
  WebDriver with pip ``selenium``, on a private Xvfb display.

``make test`` installs both (and xvfb) when they are missing. Never ``playwright install``:
Playwright's own Firefox and WebKit builds cannot be downloaded here.

Every page gets ``PROBE``, which records uncaught errors, unhandled rejections and Content
Security Policy violations in the page (``window.__rwProblems``) and every result a helper
shows (``window.__rwResults``). Firefox runs it before the page's own scripts and reports
uncaught errors (a CSP violation is one there) from its driver log too. Classic WebDriver has
no way to run a script before the page's own, so in WebKit the probe is put in right after the
load event; violations from before are still read from WebKit's ReportingObserver
(``buffered``), and an uncaught error while the page loaded shows as a helper that never
becomes ready.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest

from tests.conftest import ROOT, SiteServer

FIREFOX = shutil.which("firefox-esr") or "/usr/bin/firefox-esr"
WEBKIT_DRIVER = shutil.which("WebKitWebDriver") or "/usr/bin/WebKitWebDriver"
XVFB = shutil.which("Xvfb") or "/usr/bin/Xvfb"
BRIDGE = Path(__file__).with_name("firefox_bridge.mjs")
ANSWER_S = 180  # generous: a loaded 2-core machine boots Pyodide slowly, and polls end early

PROBE = r"""
(() => {
  if (window.__rwProblems) return;
  const problems = (window.__rwProblems = []);
  const at = (file, line) => (file ? ` (${file}:${line})` : "");
  document.addEventListener("securitypolicyviolation", (e) => {
    const source = at(e.sourceFile, e.lineNumber);
    problems.push(`CSP: ${e.effectiveDirective} blockiert ${e.blockedURI}${source}`);
  });
  window.addEventListener("error", (e) => {
    problems.push(`error: ${e.message}${at(e.filename, e.lineno)}`);
  });
  window.addEventListener("unhandledrejection", (e) => {
    problems.push(`unhandledrejection: ${(e.reason && e.reason.stack) || e.reason}`);
  });
  if (typeof ReportingObserver === "function") {
    // CSP violations from before the probe (WebKit), delivered with the first task
    new ReportingObserver((reports) => {
      for (const { body } of reports) {
        problems.push(`CSP-Bericht: ${body.effectiveDirective} blockiert ${body.blockedURL}`);
      }
    }, { types: ["csp-violation"], buffered: true }).observe();
  }
  window.__rwResults = [];
  document.addEventListener("regelwerk:result", (e) => window.__rwResults.push(e.detail));
})();
"""


class Engine:
    """A browser, as the checks see it: open a page, call a function in it, its problems."""

    name = ""

    def open(self, url: str) -> None:
        """Open ``url`` (a full load) with the probe in place; returns after the load event."""
        raise NotImplementedError

    def call(self, source: str, *args: Any) -> Any:
        """``(source)(...args)`` in the page, awaited; its value (JSON)."""
        raise NotImplementedError

    def driver_problems(self) -> list[str]:
        """What the driver itself saw go wrong since the last call (not every driver can)."""
        return []

    def problems(self) -> list[str]:
        """Everything the page and the driver reported since the last call."""
        found = self.call("() => (window.__rwProblems || []).splice(0)")
        return [*found, *self.driver_problems()]

    def close(self) -> None:
        raise NotImplementedError


class Firefox(Engine):
    """firefox-esr over WebDriver BiDi, through ``firefox_bridge.mjs`` (puppeteer-core)."""

    name = "Firefox"

    def __init__(self) -> None:
        # the bridge's stderr (Firefox's own messages), for the report when it stops answering
        self.log: IO[str] = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115
        self.process = subprocess.Popen(
            ["node", str(BRIDGE), FIREFOX],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
            encoding="utf-8",
        )
        self.answers: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.version = self._answer()
        self._send({"op": "init", "script": PROBE})

    def _read(self) -> None:
        assert self.process.stdout
        for line in self.process.stdout:
            self.answers.put(line)
        self.answers.put("")  # the bridge ended

    def _answer(self) -> Any:
        try:
            line = self.answers.get(timeout=ANSWER_S)
        except queue.Empty:
            line = ""
        if not line:
            self.log.seek(0)
            pytest.fail(f"Firefox-Brücke antwortet nicht:\n{self.log.read()[-3000:]}")
        answer = json.loads(line)
        if not answer["ok"]:
            pytest.fail(f"Firefox: {answer['error']}")
        return answer["value"]

    def _send(self, command: dict[str, Any]) -> Any:
        assert self.process.stdin
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()
        return self._answer()

    def open(self, url: str) -> None:
        self._send({"op": "goto", "url": url})

    def call(self, source: str, *args: Any) -> Any:
        return self._send({"op": "evaluate", "source": source, "args": list(args)})

    def driver_problems(self) -> list[str]:
        return list(self._send({"op": "problems"}))

    def close(self) -> None:
        try:
            self._send({"op": "close"})
            self.process.wait(timeout=30)
        finally:
            if self.process.poll() is None:
                self.process.kill()
            self.log.close()


class WebKit(Engine):
    """WebKitGTK's MiniBrowser through WebKitWebDriver (selenium), on its own Xvfb display."""

    name = "WebKit"

    def __init__(self) -> None:
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service

        # -displayfd: Xvfb picks a free display itself and writes its number
        self.xvfb = subprocess.Popen(
            [XVFB, "-displayfd", "1", "-screen", "0", "1280x900x24", "-nolisten", "tcp"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert self.xvfb.stdout
        display = self.xvfb.stdout.readline().strip()
        if not display:
            self.xvfb.kill()
            pytest.fail("Xvfb startet nicht")
        env = dict(os.environ, DISPLAY=f":{display}", NO_AT_BRIDGE="1")
        options = Options()
        options.add_argument("--automation")
        try:
            self.driver = webdriver.WebKitGTK(
                options=options,
                service=Service(executable_path=WEBKIT_DRIVER, env=env),
            )
        except Exception:
            self.xvfb.kill()
            raise
        self.version = str(self.driver.capabilities.get("browserVersion"))
        self.driver.set_script_timeout(ANSWER_S)
        self.driver.set_window_size(1280, 900)

    def open(self, url: str) -> None:
        self.driver.get(url)
        self.driver.execute_script(PROBE)

    def call(self, source: str, *args: Any) -> Any:
        answer = self.driver.execute_async_script(
            f"""const done = arguments[arguments.length - 1];
            Promise.resolve().then(() => ({source})(...[...arguments].slice(0, -1))).then(
              (value) => done({{ok: true, value: value === undefined ? null : value}}),
              (error) => done({{ok: false, error: String((error && error.stack) || error)}}));""",
            *args,
        )
        if not answer["ok"]:
            pytest.fail(f"WebKit: {answer['error']}")
        return answer["value"]

    def close(self) -> None:
        try:
            self.driver.quit()
        finally:
            self.xvfb.terminate()
            self.xvfb.wait(timeout=10)


@pytest.fixture(scope="session")
def site_url(built_site: Path, site_server: SiteServer) -> str:
    """The built site on its loopback address (see tests/conftest.py; instant navigation
    works there)."""
    site_server.start()
    return site_server.url


@pytest.fixture(scope="module")
def firefox() -> Iterator[Engine]:
    if not Path(FIREFOX).exists():
        pytest.fail("Debian firefox-esr fehlt (make test installiert es)")
    if not (ROOT / "node_modules" / "puppeteer-core").is_dir():
        pytest.fail("node_modules/puppeteer-core fehlt: npm ci")
    engine = Firefox()
    yield engine
    engine.close()


@pytest.fixture(scope="module")
def webkit() -> Iterator[Engine]:
    for binary in (WEBKIT_DRIVER, XVFB):
        if not Path(binary).exists():
            pytest.fail(f"{binary} fehlt (make test installiert webkit2gtk-driver und xvfb)")
    engine = WebKit()
    yield engine
    engine.close()
