"""Layout and words on the Kampfhelfer pages, at phone and laptop widths (the issue „A fight
without retyping“, item 5; „At the table“, item 4: errors never break the layout).

One visit per system (one engine boot for the module, see ``SharedVisit``): every helper is rolled
with its „Weitere Angaben“ open, field messages are put on screen, then the page is measured at
1920, 1280, 375 and 320 px:

- No label, legend or field message breaks inside a word: a word may only wrap at a soft
  hyphen from the build (forms.py, German syllables) or after „-“/„/“. Checked on the computed
  line boxes (one Range per character).
- Nothing makes the page wider than the window, no part of a helper sticks out; result tables
  scroll inside their box.
- Player-facing text of the helpers says no „Engine“, „Seed“, „JSON“ and names no source
  files or line numbers (they stay in the rule link's title, for maintainers).

With ``REGELWERK_SCREENSHOTS=1`` (``make screenshots``) the rolled pages are also saved to
``test-results/screenshots/kampfhelfer-<system>-<width>.png`` (1366 and 375 px) for review.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.conftest import SharedVisit, resize, reveal, review_screenshot, roll_seeded
from tests.browser.test_all_helpers import form_helper
from tests.conftest import rule_systems

pytestmark = pytest.mark.browser


SYSTEMS = rule_systems()  # every system with pages, read from the engine
WIDTHS = (1920, 1280, 375, 320)

# every piece of a word between the allowed break points (spaces, soft hyphens, „-“, „/“, „–“)
# must sit on one line: its character boxes (one Range per piece) share one top
MID_WORD_BREAKS = """
(selector) => {
  const out = [];
  for (const element of document.querySelectorAll(selector)) {
    if (!element.getClientRects().length) continue;  // not shown
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent;
      const pieces = /[^\\s\\u00ad\\-\\/\u2013]{2,}/g;
      for (let m = pieces.exec(text); m; m = pieces.exec(text)) {
        // one Range per character, its last box: where the glyph is drawn (a Range right
        // after a soft hyphen also reports a box at the end of the line before)
        const tops = new Set();
        for (let i = m.index; i < m.index + m[0].length; i++) {
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const boxes = [...range.getClientRects()].filter((r) => r.width > 0);
          if (boxes.length) tops.add(Math.round(boxes[boxes.length - 1].top));
        }
        if (tops.size > 1) out.push(m[0]);
      }
    }
  }
  return out;
}
"""
CHECKED = (
    ".rw-helper label, .rw-helper legend, .rw-list-label, .rw-field-error:not([hidden]), "
    ".rw-fight-field, .rw-tl-side-title"
)
FORBIDDEN = re.compile(r"\bEngine\b|\bSeed\b|\bJSON\b|\.txt\b|\bL\d{1,3}\b")

# what sticks out to the right, outside a table's own scroll box
OVERFLOW = """() => {
  const width = window.innerWidth;
  const wide = [];
  for (const el of document.querySelectorAll(".rw-helper, .rw-helper *")) {
    const box = el.getBoundingClientRect();
    if (box.width > 0 && box.right > width + 1 && !el.closest(".rw-table-wrap")) {
      wide.push(`${el.tagName.toLowerCase()}.${el.className}: ${Math.round(box.right)}px`);
    }
  }
  return { scroll: document.documentElement.scrollWidth, width, wide: wide.slice(0, 10) };
}"""


def _errors(page: Any) -> None:
    """Field messages on screen: a Ticks error in the Tickleiste and a bad value elsewhere."""
    board = page.locator("section.rw-tickleiste")
    if board.count():
        board.locator("[data-path='name']").fill("")
        board.get_by_role("button", name="Kämpfer hinzufügen").click()
        board.locator(".rw-field-error:not([hidden])").first.wait_for()
    plain = page.locator("section.rw-helper:not([data-widget])").first
    field = plain.locator("input[data-type='int']:not([disabled])").first
    if field.count() and field.is_visible():
        field.fill("zwölf")
        plain.locator(".rw-submit").click()
        plain.locator(".rw-field-error:not([hidden])").first.wait_for()


SEED = 4711  # any fixed seed: the words and the layout are checked, not the outcome


def _roll_every_helper(page: Any) -> list[str]:
    """Roll each form helper once, its „Weitere Angaben“ open; returns what each then shows."""
    helpers = page.locator(".rw-helper[data-action]").evaluate_all(
        "els => els.map(e => [e.id, e.dataset.system, e.dataset.action])"
    )
    shown = []
    for helper_id, system, action in helpers:
        if not form_helper(system, action):
            continue
        box = reveal(page.locator(f"[id='{helper_id}']"))
        roll_seeded(box, SEED)
        box.evaluate("(h) => h.querySelectorAll('details.rw-more').forEach((d) => (d.open = true))")
        shown.append(box.inner_text())
    return shown


@pytest.mark.parametrize("system", SYSTEMS)
def test_kampfhelfer_layout_and_words(system: str, reader: SharedVisit) -> None:
    url = f"{system}/kampfhelfer/"
    page = reader.go(url)
    shown = _roll_every_helper(page)
    assert shown, f"{url}: no helper rolled"
    shown.append(page.locator(".rw-workbench").inner_text())
    found = sorted({word for text in shown for word in FORBIDDEN.findall(text)})
    assert found == [], (system, found)
    resize(page, 1366)
    review_screenshot(page, f"kampfhelfer-{system}-1366.png")
    resize(page, 375)
    review_screenshot(page, f"kampfhelfer-{system}-375.png")
    _errors(page)
    for width in WIDTHS:
        resize(page, width)
        broken = page.evaluate(MID_WORD_BREAKS, CHECKED)
        assert broken == [], (system, width, broken[:8])
        measured = page.evaluate(OVERFLOW)
        assert measured["scroll"] <= width, (system, width, measured)
        assert measured["wide"] == [], (system, width, measured)


def test_result_tables_scroll_inside_at_375(reader: SharedVisit) -> None:
    """The DSA order table keeps every column (today it lost „Gleichstand“ at 375 px)."""
    page = reader.go("dsa/kampfhelfer/")
    resize(page, 375)
    helper = page.locator("section.rw-helper[data-action='initiative']")
    helper.locator(".rw-reset").click()  # no result left from the roll of every helper
    helper.locator(".rw-result table").wait_for(state="detached")
    helper.locator(".rw-submit").click()
    table = helper.locator(".rw-result table.rw-table").first
    table.wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    wrap = helper.locator(".rw-result .rw-table-wrap").first
    assert wrap.evaluate("w => getComputedStyle(w).overflowX") == "auto"
    headers = table.locator("th").all_inner_texts()
    last = table.locator("th").last
    last.scroll_into_view_if_needed()
    box, frame = last.bounding_box(), wrap.bounding_box()
    assert box and frame and box["x"] + box["width"] <= frame["x"] + frame["width"] + 1, headers
