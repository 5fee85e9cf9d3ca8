"""Layout and words on the Kampfhelfer pages, at phone and laptop widths (the issue „A fight
without retyping“, item 5; „At the table“, item 4: errors never break the layout).

- No label, legend or field message breaks inside a word at 320, 375, 1280 or 1920 px: a word
  may only wrap at a soft hyphen from the build (forms.py, German syllables) or after „-“/„/“.
  Checked on the computed line boxes (one Range per character).
- Nothing makes the page wider than the window; result tables scroll inside their box.
- Player-facing text of the helpers says no „Engine“, „Seed“, „JSON“ and names no source
  files or line numbers (they stay in the rule link's title, for maintainers).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.conftest import wait_engine_ready

pytestmark = pytest.mark.browser

SYSTEMS = ("ryssea", "dsa", "guete", "aktionswuerfel", "pathfinder")
WIDTHS = (320, 375, 1280, 1920)

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


@pytest.mark.parametrize("width", WIDTHS)
def test_no_word_breaks_inside_and_no_page_overflow(
    browser: Any, site_url: str, width: int
) -> None:
    context = browser.new_context(locale="de-DE", viewport={"width": width, "height": 900})
    page = context.new_page()
    try:
        for system in SYSTEMS:
            page.goto(site_url + f"{system}/kampfhelfer/")
            wait_engine_ready(page)
            _errors(page)
            broken = page.evaluate(MID_WORD_BREAKS, CHECKED)
            assert broken == [], (system, width, broken[:8])
            assert page.evaluate("document.documentElement.scrollWidth") <= width, system
    finally:
        context.close()


def test_result_tables_scroll_inside_at_375(page: Any, site_url: str) -> None:
    """The DSA order table keeps every column (today it lost „Gleichstand“ at 375 px)."""
    page.set_viewport_size({"width": 375, "height": 800})
    page.goto(site_url + "dsa/kampfhelfer/")
    wait_engine_ready(page)
    helper = page.locator("section.rw-helper[data-action='initiative']")
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


FORBIDDEN = re.compile(r"\bEngine\b|\bSeed\b|\bJSON\b|\.txt\b|\bL\d{1,3}\b")


def test_player_facing_words(page: Any, site_url: str) -> None:
    for system in SYSTEMS:
        page.goto(site_url + f"{system}/kampfhelfer/")
        wait_engine_ready(page)
        for helper in page.locator("section.rw-helper:not([data-widget])").all()[:3]:
            if not helper.is_visible():
                continue  # in a closed tab
            helper.locator(".rw-submit").click()
            helper.locator(".rw-result .rw-outcome").wait_for()
        text = page.locator(".rw-workbench").inner_text()
        found = sorted(set(FORBIDDEN.findall(text)))
        assert found == [], (system, found)
