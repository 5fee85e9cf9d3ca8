"""When the engine cannot start, or the browser keeps nothing: the page says so within
seconds, says what still works, and throws nothing (issue „The book and its helpers in every
browser engine“, points 2 and 5).

Before, a boot that hung (in WebKit from the offline zip: the inflated runtime was unreadable)
showed „Würfelhelfer lädt …“ for two minutes; a browser that refuses storage lost every input
without a word until the first save failed.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import PageErrors, wait_engine_ready
from tests.conftest import ROOT

pytestmark = pytest.mark.browser

PAGE = "dsa/kampfhelfer/"
STILL_WORKS = "Regeltext, Tabellen und Suche funktionieren"
WASM_GZ = "assets/pyodide/pyodide.asm.wasm.gz"
PYODIDE = ROOT / "node_modules" / "pyodide"


# the controls of a form that its action row lies over (the row sticks to the window's bottom
# while the form is longer than the window)
UNDER_THE_ROW = """
(row) => {
  const r = row.getBoundingClientRect();
  return [...row.closest(".rw-form").querySelectorAll("input, select, button, summary")]
    .filter((el) => !row.contains(el) && el.checkVisibility({ visibilityProperty: true }))
    .filter((el) => {
      const b = el.getBoundingClientRect();
      return b.top < r.bottom && r.top < b.bottom && b.left < r.right && r.left < b.right;
    })
    .map((el) => el.dataset.path || el.textContent.trim());
}
"""


def _failed_at_once(page: Any, started: float, words: str) -> None:
    """The boot failed within seconds (not the 2-minute timeout), naming the file with
    ``words``, saying what still works; the text stays readable."""
    status = page.locator(".rw-status[data-state='failed']", has_text=words).first
    status.wait_for(timeout=30_000)
    assert time.monotonic() - started < 15
    text = status.inner_text()
    assert words in text and STILL_WORKS in text, text
    assert page.locator("article h1").is_visible()


def test_a_bad_or_missing_wasm_fails_or_says_so_and_every_retry_starts_afresh(
    page: Any, site_url: str, built_site: Path, page_errors: PageErrors
) -> None:
    """One visit, the wasm's file in five states in turn, „Erneut versuchen“ between them (a
    fresh boot each time): damaged, not loadable at all, no WebAssembly, never arriving, sent
    already inflated."""
    page.set_viewport_size({"width": 375, "height": 667})  # a phone: the form is long
    page.add_init_script("window.__regelwerkSlowBootMs = 1500")  # 10 s on the site
    retry = page.locator(".rw-helper").first.get_by_role("button", name="Erneut versuchen")

    def serve(handler: Any) -> None:
        page.unroute("**/pyodide.asm.wasm.gz")
        page.route("**/pyodide.asm.wasm.gz", handler)

    # the site ships the wasm gzip-compressed (pyodide.asm.wasm.gz, inflated by the worker
    # while it downloads): a download cut off halfway does not inflate – the boot fails at
    # once naming the file (not the 2-minute timeout, not a compile error about a stream)
    whole = (built_site / WASM_GZ).read_bytes()
    serve(lambda route: route.fulfill(status=200, body=whole[: len(whole) // 2]))
    started = time.monotonic()
    page.goto(site_url + PAGE)
    _failed_at_once(page, started, "pyodide.asm.wasm.gz beschädigt")

    # the request fails outright (no connection to the server): „Fehler:“ at once, naming
    # the file. The worker's fetch hands the failed request on to Pyodide (after ending the
    # boot with this message), where nobody catches it any more.
    page_errors.expect(r"^pageerror: \w*Error: Failed to fetch \(.*/assets/regelwerk/worker\.js\b")
    serve(lambda route: route.abort())
    started = time.monotonic()
    retry.click()
    _failed_at_once(page, started, "pyodide.asm.wasm.gz nicht ladbar")
    failed = page.locator(".rw-status[data-state='failed']").first.inner_text()
    assert failed.startswith("Fehler:"), failed

    # a wasm that arrives but is no WebAssembly: Pyodide's loader only warns and waits; the
    # failure reaches the page at once, naming the file (before: the 2-minute timeout)
    serve(
        lambda route: route.fulfill(
            status=200, body=b"\x00asm\x01\x00\x00\x00kaputt", content_type="application/wasm"
        )
    )
    started = time.monotonic()
    retry.click()
    _failed_at_once(page, started, "pyodide.asm.wasm nicht ausführbar")

    # the wasm never arrives (a dead connection): after the slow-boot time the status says
    # so, names what works, and „Erneut versuchen“ starts afresh
    hanging: list[Any] = []
    serve(lambda route: hanging.append(route))
    retry.click()
    status = page.locator(".rw-status[data-slow='1']").first
    status.wait_for(timeout=10_000)
    text = status.inner_text()
    assert "lädt noch" in text and STILL_WORKS in text, text
    # the long message stands in the form, where it pushes the fields down: stuck to the
    # window's bottom it grew over them (issue 26, point 7: no notice covers a control)
    row = page.locator(".rw-helper .rw-form > .rw-actions").first
    assert row.evaluate(UNDER_THE_ROW) == []
    assert retry.is_visible()
    assert page.locator("article h1").is_visible()

    # a host that sends the .gz with Content-Encoding: gzip hands the browser's fetch the
    # wasm itself: the worker compiles it as it is – and the retry boots
    wasm = (PYODIDE / "pyodide.asm.wasm").read_bytes()
    served: list[str] = []

    def inflated(route: Any) -> None:
        served.append(route.request.url)
        route.fulfill(status=200, body=wasm)

    serve(inflated)
    retry.click()
    wait_engine_ready(page)
    assert page.evaluate("window.__regelwerk.mode") == "snapshot"
    assert served  # the wasm came through the .gz's address
    assert page.locator(".rw-status").first.get_attribute("data-slow") == ""


# a browser that reads nothing back and refuses every write (as Safari's private mode did):
# Material's own storage calls catch that; ours must say so and go on
BLOCKED_STORAGE = """
Storage.prototype.getItem = function () { return null; };
Storage.prototype.setItem = function () {
  throw new DOMException("Der Speicher ist voll", "QuotaExceededError");
};
"""


def test_a_browser_that_keeps_nothing_is_told_and_still_rolls(page: Any, site_url: str) -> None:
    # the browser keeps nothing: the page says once that values last for this visit only,
    # and every helper still rolls; no page error
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.add_init_script(BLOCKED_STORAGE)
    page.goto(site_url + PAGE)
    wait_engine_ready(page)
    notes = page.locator(".rw-not-kept")
    assert notes.count() == 1
    assert "nur, solange die Seite offen ist" in notes.inner_text()
    helper = page.locator("section.rw-helper[data-action='initiative']")
    helper.locator(".rw-submit").click()
    helper.locator(".rw-result .rw-seed").wait_for()
    assert errors == []
