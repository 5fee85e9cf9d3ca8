"""Issue #47, item 6 in Chromium: „Every browser-driver call in the suite has a deadline; a hang
fails within a minute and names what it waited for“ (harness/deadlines.py). The deadlines are
cut to a few seconds here, so that a hang costs seconds, not a minute."""

from __future__ import annotations

import time
from typing import Any

import pytest

from harness import deadlines

from .conftest import Browsers

pytestmark = pytest.mark.browser

HANGING_PAGE = "data:text/html,<!doctype html><title>haengt</title><p>Hier haengt gleich etwas."
SHORT_S = 3.0  # every call
STEP_S = 2.0  # a step (Playwright's own timeout, below the call's deadline)


@pytest.fixture
def short_deadlines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deadlines, "CALL_S", SHORT_S)
    monkeypatch.setattr(deadlines, "STEP_S", STEP_S)


@pytest.fixture
def hanging(browsers: Browsers, short_deadlines: None) -> Any:
    page = browsers.page()
    page.goto(HANGING_PAGE)
    yield page
    page.context.close()


@pytest.mark.parametrize(
    "script",
    ["() => { while (true) {} }", "() => new Promise(() => {})"],
    ids=["endless-loop", "promise-never-settles"],
)
def test_a_page_script_that_never_returns_fails_within_the_deadline(
    hanging: Any, script: str
) -> None:
    """#47 item 6: ``page.evaluate`` has no timeout of its own – a script that never returns
    held the test for ever (before: still waiting after 150 s). Now the call fails after the
    deadline, naming the call, its script and the page, and the hung page is closed (every
    later call on it, the harness's own at the end of the test included, would wait too)."""
    started = time.monotonic()
    with pytest.raises(deadlines.Hang) as failure:
        hanging.evaluate(script)
    took = time.monotonic() - started
    assert SHORT_S <= took < SHORT_S + deadlines.CLOSE_S + 1, took
    assert str(failure.value).endswith(
        f"Chromium: wartete 3 s auf Frame.evaluateExpression(„{script}“) auf {HANGING_PAGE}"
        " – keine Antwort"
    )
    assert hanging.is_closed()


def test_a_wait_longer_than_the_deadline_is_cut_to_it(hanging: Any) -> None:
    """#47 item 6: a test's own ``timeout=`` longer than the deadline (there were waits of
    120 and 180 s) ends at the deadline, naming what it waited for."""
    started = time.monotonic()
    with pytest.raises(deadlines.Hang, match=r"Frame\.waitForFunction\(„\(\) => false“\)"):
        hanging.wait_for_function("() => false", timeout=120_000)
    assert time.monotonic() - started < SHORT_S + 5


def test_every_step_has_a_default_timeout(hanging: Any) -> None:
    """#47 item 6: a step without a ``timeout=`` (a click on an element that never comes)
    ends after ``STEP_S``, with Playwright's message naming the locator."""
    started = time.monotonic()
    with pytest.raises(Exception, match=r"(?s)Timeout 2000ms exceeded.*#kommt-nie"):
        hanging.locator("#kommt-nie").click()
    assert time.monotonic() - started < STEP_S + 5


def test_a_hang_on_an_element_names_its_page(hanging: Any) -> None:
    """#47 item 6: a call on an element (``locator.evaluate`` goes through its handle) that
    never returns names the page the element is on, too."""
    with pytest.raises(deadlines.Hang) as failure:
        hanging.locator("p").evaluate("(p) => new Promise(() => {})")
    assert str(failure.value).endswith(
        "Chromium: wartete 3 s auf ElementHandle.evaluateExpression(„(p) => new Promise(() =>"
        f" {{}})“) auf {HANGING_PAGE} – keine Antwort"
    )
    assert hanging.is_closed()
