"""Deadlines for every browser-driver call of the tests (issue #47, item 6: „Every
browser-driver call in the suite has a deadline; a hang fails within a minute and names what it
waited for“).

A browser whose page hangs – a script that never returns, a promise that never settles, a
driver that stops answering – would otherwise hold the test for as long as the driver lets it:
Playwright's ``page.evaluate`` has no timeout at all, selenium's HTTP connection to
WebKitWebDriver waits without limit by default, and puppeteer's protocol timeout is three
minutes. Here every call gets one, and the failure says which call, on which page:

    Chromium: wartete 50 s auf Frame.evaluateExpression(„() => { while (true) {} }“) auf
    data:text/html,… – keine Antwort

- ``STEP_S``: one step of a test (a click, a navigation, a wait for an element) – Playwright's
  default timeout for every context of the tests.
- ``CALL_S``: the most any one driver call may take, the engine's boot included (Pyodide
  from its snapshot: a few seconds, ≈ 20 on a loaded 2-core machine). Playwright: every call
  over the protocol (``guard_playwright``), also one with a longer ``timeout=`` of its own;
  WebKit and Firefox: every command (tests/crossbrowser/conftest.py).
- ``WAIT_S``: what a wait inside the page (a polling loop in a script the test runs) may take;
  below ``CALL_S``, so such a loop ends with the state it saw instead of being cut off.

The tests of the deadlines themselves (tests/browser/test_deadlines.py,
tests/crossbrowser/test_deadlines.py) give the drivers a deadline of a few seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import subprocess
from collections.abc import Callable
from typing import Any

STEP_S = 30.0
CALL_S = 50.0
WAIT_S = 45.0
CLOSE_S = 5.0  # closing a page or browser that hung, before the test is told


class Hang(AssertionError):
    """A browser-driver call that did not answer within its deadline (fails the test)."""


def shorten(text: Any, length: int = 80) -> str:
    """``text`` on one line, at most ``length`` characters (a script, a selector, a URL)."""
    line = re.sub(r"\s+", " ", str(text)).strip()
    return line if len(line) <= length else line[: length - 1] + "…"


def hang_message(browser: str, seconds: float, step: str, where: str) -> str:
    """„<browser>: wartete <n> s auf <step> auf <where> – keine Antwort“."""
    return f"{browser}: wartete {seconds:g} s auf {step} auf {where or '?'} – keine Antwort"


def kill_group(process: subprocess.Popen[Any] | None) -> None:
    """Kill ``process`` and everything in its process group (started with
    ``start_new_session=True``): a wedged driver leaves nothing behind."""
    if process is None or process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError):
        process.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5)


def kill_pid_group(pid: int | None) -> None:
    """Kill the process group led by ``pid`` (e.g. a browser its driver started detached)."""
    if not pid:
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signal.SIGKILL)


# ------------------------------------------------------------------ Playwright

# What a protocol call names as its subject, in the order looked for (first 80 characters).
_SUBJECTS = ("expression", "selector", "url", "name", "key", "text")


def _lineage(owner: Any) -> list[Any]:
    """``owner`` and the objects it belongs to (a handle → its frame → its page → …)."""
    chain: list[Any] = []
    while owner is not None and len(chain) < 10:
        chain.append(owner)
        owner = getattr(owner, "_parent", None)
    return chain


def _where(owner: Any) -> str:
    """The page a Playwright object belongs to (its URL), as far as the client knows it."""
    for candidate in _lineage(owner):
        url = getattr(candidate, "url", None)
        if isinstance(url, str):
            return url
        pages = getattr(candidate, "_pages", None)  # a browser context
        if pages:
            return ", ".join(page.url for page in pages)
    return getattr(owner, "_type", type(owner).__name__)


def _step(owner: Any, method: str, params: Any) -> str:
    subject = next(
        (params[key] for key in _SUBJECTS if isinstance(params, dict) and params.get(key)),
        None,
    )
    name = f"{getattr(owner, '_type', type(owner).__name__)}.{method}"
    return f"{name}(„{shorten(subject)}“)" if subject is not None else f"{name}()"


def _page_of(owner: Any) -> Any:
    """The page (impl object) an object lives in, or None (a context, the browser)."""
    for candidate in _lineage(owner):
        if getattr(candidate, "_type", "") == "Page":
            return candidate
        if getattr(candidate, "_type", "") == "Frame":
            return getattr(candidate, "_page", None)
    return None


def guard_playwright(
    playwright: Any, seconds: Callable[[], float] = lambda: CALL_S, browser: str = "Chromium"
) -> None:
    """Give every call of ``playwright`` (a sync ``Playwright``) over its protocol a
    deadline of ``seconds()``: a call without an answer by then fails with ``Hang``, naming
    the call and the page, once that page is closed (a page whose script never returns would
    hold every later call on it, and the harness's flush at the end of each test).

    Playwright's own timeouts end its waits first (``STEP_S``, or a test's ``timeout=``);
    this also ends what has none – ``evaluate`` waits for the page's script for ever – and
    cuts a longer ``timeout=`` to ``CALL_S``. The sync API cannot be called from another
    thread, so the deadline is a timer in Playwright's own event loop, which keeps running
    while the test waits: it rejects the call's future (the answer that may still come is
    ignored, as for a cancelled call)."""
    connection = playwright._impl_obj._connection
    send = connection.send_message_to_server  # the one door of every call (connection.py)

    def guarded(owner: Any, method: str, params: Any, options: dict[str, Any]) -> Any:
        future = send(owner, method, params, options)
        if future.done():
            return future
        limit = seconds()
        loop = connection._loop

        def expire() -> None:
            if future.done():
                return
            message = hang_message(browser, limit, _step(owner, method, params), _where(owner))
            page = _page_of(owner)
            if page is None or page.is_closed():
                future.set_exception(Hang(message))
                return

            def fail(closing: Any) -> None:
                if not closing.cancelled():
                    closing.exception()  # retrieved: a page that would not close is no news
                if not future.done():
                    future.set_exception(Hang(message))

            # the page closed first, so that the test goes on without it
            closing = loop.create_task(asyncio.wait_for(page.close(None, None), CLOSE_S))
            closing.add_done_callback(fail)

        timer = loop.call_later(limit, expire)
        future.add_done_callback(lambda _: timer.cancel())
        return future

    connection.send_message_to_server = guarded
