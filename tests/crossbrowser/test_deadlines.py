"""Issue #47, item 6 in Firefox and WebKit: „Every browser-driver call in the suite has a
deadline; a hang fails within a minute and names what it waited for“ (harness/deadlines.py,
tests/crossbrowser/conftest.py). Each browser is started with a deadline of a few seconds, so
that a hang costs seconds here, not a minute; a page that never answers is a data: URL whose
script loops for ever or whose promise never settles."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator

import pytest

from harness import deadlines

from .conftest import Engine, Firefox, WebKit, need_firefox, need_webkit

pytestmark = [
    pytest.mark.browser,
    pytest.mark.filterwarnings("ignore:setting remote_server_addr:DeprecationWarning"),
]

PAGE = "data:text/html,<!doctype html><title>haengt</title><p>Hier haengt gleich etwas."
SHORT_S = 3.0
HANGS = {
    "endless-loop": "() => { while (true) {} }",
    "promise-never-settles": "() => new Promise(() => {})",
}
STEPS = {"Firefox": "evaluate", "WebKit": "execute_async_script"}


def _alive(pid: int | None) -> bool:
    if not pid:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat", encoding="utf-8") as stat:  # a zombie is gone too
        return stat.read().split(") ", 1)[1][0] != "Z"


def _pids(engine: Engine) -> list[int]:
    """The processes of the engine that must not outlive a hang."""
    if isinstance(engine, Firefox):
        return [p for p in (engine.process.pid, engine.browser_pid) if p]
    assert isinstance(engine, WebKit)
    return [engine.service.process.pid, engine.xvfb.pid]  # type: ignore[union-attr]


ENGINES: dict[str, tuple[Callable[[], None], Callable[[float], Engine]]] = {
    "Firefox": (need_firefox, lambda s: Firefox(deadline_s=s)),
    "WebKit": (need_webkit, lambda s: WebKit(deadline_s=s)),
}


@pytest.fixture(params=sorted(ENGINES))
def short_engine(request: pytest.FixtureRequest) -> Iterator[Engine]:
    """A browser of the smoke suite (the same guards, the same driver), with a deadline of
    ``SHORT_S`` per command, on a page that is about to hang."""
    need, make = ENGINES[request.param]
    need()
    engine = make(SHORT_S)
    try:
        engine.open(PAGE)
        yield engine
    finally:
        engine.close()


@pytest.mark.parametrize("script", list(HANGS.values()), ids=list(HANGS))
def test_a_page_that_never_answers_fails_within_the_deadline(
    short_engine: Engine, script: str
) -> None:
    """#47 item 6: a script that never returns held the smoke suite until the driver gave up
    – WebKitWebDriver never, for an endless loop (still waiting after 240 s); Firefox and a
    never-settling promise in WebKit after 180 s, naming nothing („Firefox-Brücke antwortet
    nicht“, „script timed out“). Now the call fails after its deadline naming the call, its
    script and the page; the browser and its driver are killed, and every later call fails at
    once instead of waiting again."""
    engine = short_engine
    pids = _pids(engine)
    started = time.monotonic()
    with pytest.raises(deadlines.Hang) as failure:
        engine.call(script)
    took = time.monotonic() - started
    assert SHORT_S <= took < SHORT_S + 10, took
    assert str(failure.value) == (
        f"{engine.name}: wartete 3 s auf {STEPS[engine.name]}(„{script}“) auf {PAGE}"
        " – keine Antwort"
    )
    for _ in range(30):  # a killed process takes a moment to go
        if not any(_alive(pid) for pid in pids):
            break
        time.sleep(0.1)
    assert [pid for pid in pids if _alive(pid)] == []
    started = time.monotonic()
    with pytest.raises(deadlines.Hang, match="nach einer Zeitüberschreitung beendet"):
        engine.call("() => 1")
    assert time.monotonic() - started < 1
