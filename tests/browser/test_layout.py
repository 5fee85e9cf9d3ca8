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
- At 375 px every control a finger hits – in every tab, with the results, the opened sections
  and the field messages on screen – is at least 44 × 44 px (issue 26, point 7; before: buttons
  28–30 px, the „?“ of a field's help 22 px, tab labels 40 px, the tabs' arrows 18 px); at
  1280 px every control and every link of the navigation at least 24 × 24 px (WCAG 2.5.8;
  before: the „?“ 22 px, the navigation's links 18 px high).

With ``REGELWERK_SCREENSHOTS=1`` (``make screenshots``) the rolled pages are also saved to
``test-results/screenshots/kampfhelfer-<system>-<width>.png`` (1366 and 375 px) for review.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.conftest import (
    REVEAL,
    SharedVisit,
    click_in_page,
    evaluate_one,
    resize_settled,
    review_screenshot,
    roll_seeded,
    screenshots_wanted,
)
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
TOUCH_PX = 44  # WCAG 2.5.5 (AAA) and the platforms' guidelines: 44 × 44 CSS px
POINTER_PX = 24  # WCAG 2.5.8 (AA), with a mouse: 24 × 24 CSS px

# The controls a finger must hit (buttons, selects, inputs, summaries, tab labels, Material's
# header buttons) inside `scope` that are shown and smaller than `least` px either way. A
# checkbox counts together with its label (a tap on the label ticks it); an input hidden for
# the eye (Material's tab radios, the file inputs behind their labels) is left to its label.
SMALL_TARGETS = """
([scope, least]) => {
  const controls = "button, select, input, textarea, summary, .tabbed-labels > label, " +
    "label.md-button, .md-header__button, .md-nav__link";
  const small = [];
  for (const root of document.querySelectorAll(scope)) {
    for (const el of [root, ...root.querySelectorAll(controls)]) {
      // shown: not in a closed box or tab, not hidden, not see-through (a faded-out arrow)
      if (!el.matches(controls) || el.closest("[hidden]")) continue;
      if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
      let box = el.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1) continue;
      if (el.matches("input[type=checkbox], input[type=radio]") && el.labels) {
        let [left, top, right, bottom] = [box.left, box.top, box.right, box.bottom];
        for (const label of el.labels) {
          const b = label.getBoundingClientRect();
          [left, top] = [Math.min(left, b.left), Math.min(top, b.top)];
          [right, bottom] = [Math.max(right, b.right), Math.max(bottom, b.bottom)];
        }
        box = { width: right - left, height: bottom - top };
      }
      if (box.width + 0.5 < least || box.height + 0.5 < least) {
        const text = (el.getAttribute("aria-label") || el.textContent || el.value || "").trim();
        const kind = String(el.className).trim().replace(/\\s+/g, ".");
        const size = `${Math.round(box.width)}×${Math.round(box.height)}`;
        small.push(`${el.tagName.toLowerCase()}.${kind} „${text.slice(0, 24)}“ ${size}`);
      }
    }
  }
  return [...new Set(small)];
}
"""


def small_targets(page: Any, scope: str, least: int = TOUCH_PX) -> list[str]:
    """The shown controls inside ``scope`` (a selector) smaller than ``least`` px either way."""
    return list(page.evaluate(SMALL_TARGETS, [scope, least]))


FORBIDDEN = re.compile(r"\bEngine\b|\bSeed\b|\bJSON\b|\.txt\b|\bL\d{1,3}\b")

# what sticks out to the right, outside a table's own scroll box (text only screen readers get,
# .rw-sr-only – a chart's table until „Als Tabelle“ –, is clipped to 1 px: it sticks out nowhere)
OVERFLOW = """() => {
  const width = window.innerWidth;
  const wide = [];
  for (const el of document.querySelectorAll(".rw-helper, .rw-helper *")) {
    const box = el.getBoundingClientRect();
    if (box.width > 0 && box.right > width + 1 && !el.closest(".rw-table-wrap, .rw-sr-only")) {
      wide.push(`${el.tagName.toLowerCase()}.${el.className}: ${Math.round(box.right)}px`);
    }
  }
  return { scroll: document.documentElement.scrollWidth, width, wide: wide.slice(0, 10) };
}"""


# A bad value typed into a field and „Würfeln“ (or „Kämpfer hinzufügen“) pressed, in the page:
# the same input and click events as a reader's, without Playwright's scrolling, pointer moves
# and waits for still frames (the field message's layout is checked, not the clicking)
BAD_VALUE = """([field, value, button]) => {
  field.value = value;
  field.dispatchEvent(new Event("input", { bubbles: true }));
  button.click();
}"""


def _bad_value(page: Any, field: Any, value: str, button: Any) -> None:
    page.evaluate(BAD_VALUE, [field.element_handle(), value, button.element_handle()])


def _errors(page: Any) -> None:
    """Field messages on screen: a Ticks error in the Tickleiste and a bad value elsewhere."""
    board = page.locator("section.rw-tickleiste")
    if board.count():
        add = board.get_by_role("button", name="Kämpfer hinzufügen")
        _bad_value(page, board.locator("[data-path='name']"), "", add)
        board.locator(".rw-field-error:not([hidden])").first.wait_for()
    plain = page.locator("section.rw-helper:not([data-widget])").first
    field = plain.locator("input[data-type='int']:not([disabled])").first
    if field.count() and field.is_visible():
        _bad_value(page, field, "zwölf", plain.locator(".rw-submit"))
        plain.locator(".rw-field-error:not([hidden])").first.wait_for()


SEED = 4711  # any fixed seed: the words and the layout are checked, not the outcome

# after its roll: the helper's tab opened (as a reader taps it), its „Weitere Angaben“ open;
# what it then shows
SHOWN = (
    """(helper) => {
  ("""
    + REVEAL
    + """)(helper);
  helper.querySelectorAll("details.rw-more").forEach((d) => (d.open = true));
  return helper.innerText;
}"""
)


def _roll_every_helper(page: Any) -> list[str]:
    """Roll each form helper once, its „Weitere Angaben“ open; returns what each then shows."""
    helpers = page.locator(".rw-helper[data-action]").evaluate_all(
        "els => els.map(e => [e.id, e.dataset.system, e.dataset.action])"
    )
    shown = []
    for helper_id, system, action in helpers:
        if not form_helper(system, action):
            continue
        box = page.locator(f"[id='{helper_id}']")
        roll_seeded(box, SEED)
        shown.append(evaluate_one(box, SHOWN))
    return shown


def _small_targets_in_every_tab(page: Any) -> list[str]:
    """The controls smaller than 44 × 44 px on the page, every tab of the tools opened in turn
    (its label clicked in the page: the sizes are checked, not the tapping)."""
    small = small_targets(page, ".md-header, .md-content")
    tabs = page.locator(".rw-workbench-tools .tabbed-labels > label")
    for index in range(tabs.count()):
        click_in_page(tabs.nth(index))
        small += small_targets(page, ".rw-workbench-tools")
    return sorted(set(small))


@pytest.mark.parametrize("system", SYSTEMS)
def test_kampfhelfer_layout_and_words(system: str, reader: SharedVisit) -> None:
    url = f"{system}/kampfhelfer/"
    page = reader.go(url)
    shown = _roll_every_helper(page)
    assert shown, f"{url}: no helper rolled"
    shown.append(page.locator(".rw-workbench").inner_text())
    found = sorted({word for text in shown for word in FORBIDDEN.findall(text)})
    assert found == [], (system, found)
    if screenshots_wanted():  # the rolled page, before the field messages
        for width in (1366, 375):
            resize_settled(page, width)
            review_screenshot(page, f"kampfhelfer-{system}-{width}.png")
    _errors(page)
    # from the width the page has now (one resize less)
    for width in sorted(WIDTHS, key=lambda w: w != page.viewport_size["width"]):
        resize_settled(page, width)
        broken = page.evaluate(MID_WORD_BREAKS, CHECKED)
        assert broken == [], (system, width, broken[:8])
        measured = page.evaluate(OVERFLOW)
        assert measured["scroll"] <= width, (system, width, measured)
        assert measured["wide"] == [], (system, width, measured)
        if width == 375:
            small = _small_targets_in_every_tab(page)
            assert small == [], (system, small[:12])
        if width == 1280:  # a mouse: the navigation's links too
            small = small_targets(page, ".md-header, .md-sidebar, .md-content", POINTER_PX)
            assert small == [], (system, width, small[:12])


def test_result_tables_scroll_inside_at_375(reader: SharedVisit) -> None:
    """The DSA order table keeps every column (today it lost „Gleichstand“ at 375 px)."""
    page = reader.go("dsa/kampfhelfer/")
    resize_settled(page, 375)
    helper = page.locator("section.rw-helper[data-action='initiative']")
    helper.locator(".rw-reset").click()  # no result left from the roll of every helper
    helper.locator(".rw-result table").wait_for(state="detached")
    helper.locator(".rw-submit").click()
    table = helper.locator(".rw-result table.rw-table").first
    table.wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    wrap = helper.locator(".rw-result .rw-table-wrap").first
    assert evaluate_one(wrap, "w => getComputedStyle(w).overflowX") == "auto"
    headers = table.locator("th").all_inner_texts()
    last = table.locator("th").last
    last.scroll_into_view_if_needed()
    box, frame = last.bounding_box(), wrap.bounding_box()
    assert box and frame and box["x"] + box["width"] <= frame["x"] + frame["width"] + 1, headers
