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

Every driver call has a deadline (issue #47, item 6; harness/deadlines.py): ``deadline_s`` per
command (``CALL_S`` unless a test gives less), also for starting the browser and its driver. A
command without an answer by then fails the test naming the command and the page, and the
browser with its driver is killed (a page that hangs would hold every later command too);
every later call fails at once.
"""

from __future__ import annotations

import json
import os
import queue
import select
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, NoReturn

import pytest

from harness import deadlines
from tests.conftest import ROOT, SiteServer

FIREFOX = shutil.which("firefox-esr") or "/usr/bin/firefox-esr"
WEBKIT_DRIVER = shutil.which("WebKitWebDriver") or "/usr/bin/WebKitWebDriver"
XVFB = shutil.which("Xvfb") or "/usr/bin/Xvfb"
BRIDGE = Path(__file__).with_name("firefox_bridge.mjs")
# what a wait in the page may take (a loaded 2-core machine boots Pyodide slowly): below the
# deadline of the call that waits, so that the wait ends with the state it saw
ANSWER_S = deadlines.WAIT_S

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
    where = ""  # the page last opened, for the messages
    dead = ""  # why the browser was killed: every later call fails at once

    def hung(self, seconds: float, step: str) -> NoReturn:
        """A command that did not answer within ``seconds``: kill the browser and its driver
        and fail the test, naming the command and the page."""
        message = deadlines.hang_message(self.name, seconds, step, self.where)
        self.dead = message
        self.kill()
        raise deadlines.Hang(message)

    def alive(self, step: str) -> None:
        if self.dead:
            raise deadlines.Hang(
                f"{self.name}: nach einer Zeitüberschreitung beendet, kein "
                f"{step} mehr ({self.dead})"
            )

    def kill(self) -> None:
        """End the browser and its driver at once, leaving no process behind."""
        raise NotImplementedError

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
    """firefox-esr over WebDriver BiDi, through ``firefox_bridge.mjs`` (puppeteer-core).

    The bridge ends every command at ``deadline_s`` itself (and starts Firefox within
    ``CALL_S``); this side waits a little longer in case the bridge itself stops answering.
    Either way the bridge and Firefox are killed: Firefox runs in a process group of its own
    (puppeteer starts it detached), the bridge tells its process id first."""

    name = "Firefox"

    def __init__(self, deadline_s: float | None = None) -> None:
        self.deadline_s = deadlines.CALL_S if deadline_s is None else deadline_s
        self.browser_pid: int | None = None
        # the bridge's stderr (Firefox's own messages), for the report when it stops answering
        self.log: IO[str] = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115
        self.process = subprocess.Popen(
            [
                "node",
                str(BRIDGE),
                FIREFOX,
                str(int(self.deadline_s * 1000)),
                str(int(deadlines.CALL_S * 1000)),
            ],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
            encoding="utf-8",
            start_new_session=True,  # the bridge and what it starts: killed as one group
        )
        self.answers: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        try:
            started = self._answer("den Start von Firefox (puppeteer.launch)", deadlines.CALL_S)
            self.version, self.browser_pid = started["version"], started["pid"]
            self._send({"op": "init", "script": PROBE}, "die Probe (evaluateOnNewDocument)")
        except BaseException:
            self.kill()
            self.log.close()
            raise

    def _read(self) -> None:
        assert self.process.stdout
        for line in self.process.stdout:
            self.answers.put(line)
        self.answers.put("")  # the bridge ended

    def _answer(self, step: str, seconds: float) -> Any:
        # the bridge answers a command that ran out of time itself; a little longer here
        try:
            line = self.answers.get(timeout=seconds + BRIDGE_GRACE_S)
        except queue.Empty:
            self.hung(seconds, step)
        if not line:
            self.log.seek(0)
            self.dead = "die Firefox-Brücke hat sich beendet"
            self.kill()
            pytest.fail(
                f"Firefox-Brücke antwortet nicht ({step} auf {self.where or '?'}):\n"
                f"{self.log.read()[-3000:]}"
            )
        answer = json.loads(line)
        if not answer["ok"]:
            if answer.get("hung"):
                self.hung(seconds, step)
            pytest.fail(f"Firefox: {answer['error']} ({step} auf {self.where or '?'})")
        return answer["value"]

    def _send(self, command: dict[str, Any], step: str) -> Any:
        self.alive(step)
        assert self.process.stdin
        try:
            self.process.stdin.write(json.dumps(command) + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass  # the bridge ended: _answer reports it
        return self._answer(step, self.deadline_s)

    def open(self, url: str) -> None:
        self.where = url
        self._send({"op": "goto", "url": url}, f"goto({deadlines.shorten(url)})")

    def call(self, source: str, *args: Any) -> Any:
        step = f"evaluate(„{deadlines.shorten(source)}“)"
        return self._send({"op": "evaluate", "source": source, "args": list(args)}, step)

    def driver_problems(self) -> list[str]:
        return list(self._send({"op": "problems"}, "problems()"))

    def kill(self) -> None:
        deadlines.kill_group(self.process)
        deadlines.kill_pid_group(self.browser_pid)
        self.browser_pid = None

    def close(self) -> None:
        try:
            if not self.dead and self.process.poll() is None:
                self._send({"op": "close"}, "close()")
                self.process.wait(timeout=self.deadline_s)
                self.browser_pid = None  # closed by the bridge: nothing of it is left
        finally:
            self.kill()
            self.log.close()


class WebKit(Engine):
    """WebKitGTK's MiniBrowser through WebKitWebDriver (selenium), on its own Xvfb display.

    Selenium's HTTP connection to the driver waits without limit unless told (its
    ``ClientConfig`` timeout is the socket default, none): a page whose script never returns
    held ``execute_async_script`` for ever. Here the driver ends a script and a page load at
    ``deadline_s`` (its script and page-load timeouts), and the connection gives up a little
    later (a page that keeps WebKit busy gets no answer from the driver at all); then the
    driver, MiniBrowser and Xvfb are killed (each in a process group of its own)."""

    name = "WebKit"

    def __init__(self, deadline_s: float | None = None) -> None:
        self.deadline_s = deadlines.CALL_S if deadline_s is None else deadline_s
        self.xvfb: subprocess.Popen[str] | None = None
        self.service: Any = None
        self.driver: Any = None
        try:
            self._start()
        except BaseException:
            self.kill()
            raise

    def _start(self) -> None:
        from selenium import webdriver
        from selenium.webdriver.remote.client_config import ClientConfig
        from selenium.webdriver.remote.remote_connection import RemoteConnection
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service

        # -displayfd: Xvfb picks a free display itself and writes its number
        self.xvfb = subprocess.Popen(
            [XVFB, "-displayfd", "1", "-screen", "0", "1280x900x24", "-nolisten", "tcp"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            start_new_session=True,
        )
        assert self.xvfb.stdout
        ready, _, _ = select.select([self.xvfb.stdout], [], [], deadlines.CALL_S)
        display = self.xvfb.stdout.readline().strip() if ready else ""
        if not display:
            pytest.fail(f"Xvfb startet nicht (keine Anzeige nach {deadlines.CALL_S:g} s)")
        env = dict(os.environ, DISPLAY=f":{display}", NO_AT_BRIDGE="1")
        options = Options()
        options.add_argument("--automation")
        # the driver in a process group of its own, with MiniBrowser and its processes
        self.service = Service(
            executable_path=WEBKIT_DRIVER, env=env, popen_kw={"start_new_session": True}
        )
        self.service.start()  # gives up by itself after ≈ 30 s (selenium's Service.start)
        config = ClientConfig(remote_server_addr=self.service.service_url, timeout=deadlines.CALL_S)
        self.where = "den Start von MiniBrowser"
        try:
            self.driver = webdriver.Remote(
                command_executor=RemoteConnection(client_config=config), options=options
            )
        except Exception as error:
            if _timed_out(error):
                self.hung(deadlines.CALL_S, "new_session()")
            raise
        self.where = ""
        config.timeout = self.deadline_s + DRIVER_GRACE_S
        self.version = str(self.driver.capabilities.get("browserVersion"))
        self._do("set_script_timeout()", self.driver.set_script_timeout, self.deadline_s)
        self._do("set_page_load_timeout()", self.driver.set_page_load_timeout, self.deadline_s)
        self._do("set_window_size()", self.driver.set_window_size, 1280, 900)

    def _do(self, step: str, command: Any, *args: Any) -> Any:
        """``command(*args)``; a command without an answer within the deadline kills the
        browser and fails the test naming ``step``."""
        self.alive(step)
        try:
            return command(*args)
        except Exception as error:
            if _timed_out(error):
                self.hung(self.deadline_s, step)
            raise

    def open(self, url: str) -> None:
        self.where = url
        self._do(f"get({deadlines.shorten(url)})", self.driver.get, url)
        self._do("execute_script(Probe)", self.driver.execute_script, PROBE)

    def call(self, source: str, *args: Any) -> Any:
        answer = self._do(
            f"execute_async_script(„{deadlines.shorten(source)}“)",
            self.driver.execute_async_script,
            f"""const done = arguments[arguments.length - 1];
            Promise.resolve().then(() => ({source})(...[...arguments].slice(0, -1))).then(
              (value) => done({{ok: true, value: value === undefined ? null : value}}),
              (error) => done({{ok: false, error: String((error && error.stack) || error)}}));""",
            *args,
        )
        if not answer["ok"]:
            pytest.fail(f"WebKit: {answer['error']} (auf {self.where or '?'})")
        return answer["value"]

    def kill(self) -> None:
        if self.service is not None:
            deadlines.kill_group(self.service.process)
        deadlines.kill_group(self.xvfb)

    def close(self) -> None:
        try:
            if not self.dead and self.driver is not None:
                self._do("quit()", self.driver.quit)
                self.service.stop()
        finally:
            self.kill()


# how much longer than a command's deadline this side waits for the driver to report it
BRIDGE_GRACE_S = 5.0
DRIVER_GRACE_S = 5.0


def _timed_out(error: BaseException) -> bool:
    """A driver command that ran out of time: the driver's own timeout (a script, a page
    load) or no answer on the HTTP connection to it."""
    from selenium.common.exceptions import TimeoutException
    from urllib3.exceptions import TimeoutError as ConnectionTimeout

    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, (TimeoutException, ConnectionTimeout, TimeoutError)):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def need_firefox() -> None:
    if not Path(FIREFOX).exists():
        pytest.fail("Debian firefox-esr fehlt (make test installiert es)")
    if not (ROOT / "node_modules" / "puppeteer-core").is_dir():
        pytest.fail("node_modules/puppeteer-core fehlt: npm ci")


def need_webkit() -> None:
    for binary in (WEBKIT_DRIVER, XVFB):
        if not Path(binary).exists():
            pytest.fail(f"{binary} fehlt (make test installiert webkit2gtk-driver und xvfb)")


@pytest.fixture(scope="session")
def site_url(built_site: Path, site_server: SiteServer) -> str:
    """The built site on its loopback address (see tests/conftest.py; instant navigation
    works there)."""
    site_server.start()
    return site_server.url


@pytest.fixture(scope="module")
def firefox() -> Iterator[Engine]:
    need_firefox()
    engine = Firefox()
    yield engine
    engine.close()


@pytest.fixture(scope="module")
def webkit() -> Iterator[Engine]:
    need_webkit()
    engine = WebKit()
    yield engine
    engine.close()
