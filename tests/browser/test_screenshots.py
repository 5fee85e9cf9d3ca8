"""Layout checks at 1280 and 375 px, and with ``REGELWERK_SCREENSHOTS=1`` (``make screenshots``)
screenshots for review in test-results/screenshots/.

One content page per system; the ones marked with a table must show their rule tables as real
``<table>`` elements (not a code block from an unrendered fence). At 375 px no content may
stick out to the right except inside a scroll wrapper (Material's table wrapper, code blocks).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import (
    SharedVisit,
    navigate,
    resize_settled,
    review_screenshot,
    screenshots_wanted,
)

pytestmark = pytest.mark.browser

WIDTHS = (1280, 375)

# page → does it hold a rule table?
PAGES = {
    "ryssea/patzertabelle/": True,
    "dsa/crits-und-wunden/": True,
    "guete/nahkampfoptionen/": True,
    "aktionswuerfel/ablauf-und-initiative/": False,
    "pathfinder/angriffswurf-und-ruestungsklasse/": True,
    "ryssea/druck/": True,
}

OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const wrappers = ".md-typeset__scrollwrap, .md-typeset__table, pre, .highlight, .md-sidebar";
  const out = [];
  for (const el of document.querySelectorAll(".md-main *, .md-header *")) {
    if (el.closest(wrappers)) continue;
    const box = el.getBoundingClientRect();
    if (box.width > 0 && box.right > width + 1) {
      out.push(`${el.tagName.toLowerCase()}.${el.className}: ${Math.round(box.right)}px`);
    }
  }
  return { page: document.documentElement.scrollWidth, width, elements: out.slice(0, 10) };
}"""

LEAKED_FENCE = """() => [...document.querySelectorAll('article pre code')]
  .map((c) => c.textContent).filter((t) => /^\\s*(system|tabelle):/m.test(t))"""


@pytest.mark.parametrize(("path", "has_table"), PAGES.items(), ids=list(PAGES))
def test_page_layout(reader: SharedVisit, path: str, has_table: bool) -> None:
    """Each page in the shared visit, as one reader's: reached by Material's instant navigation
    (the engine booted once for the worker's modules, no service worker), looked at in a window
    of every width in turn (resized, as a phone is turned: Material's layout follows by media
    queries)."""
    if reader.page is None:  # a visit not yet begun: on the first page, which has helpers
        reader.go(next(iter(PAGES)), WIDTHS[0])
    page = reader.page
    navigate(page, reader.site_url + path)
    page.wait_for_selector("article h1")
    name = path.strip("/").replace("/", "-")
    if has_table:  # the DOM, the same at every width
        assert page.locator("article table").count() >= 1, f"{path}: keine <table>"
        assert page.evaluate(LEAKED_FENCE) == [], f"{path}: Tabelle als Codeblock"
        # Material wraps every content table in a horizontal scroll wrapper at runtime.
        assert (
            page.locator("article .md-typeset__scrollwrap table").count()
            == page.locator("article table").count()
        )
    # the width the page arrived at first, then the other (one resize per page)
    for width in sorted(WIDTHS, key=lambda w: w != page.viewport_size["width"]):
        resize_settled(page, width)
        look_at(page, path, name, width)


def look_at(page: Any, path: str, name: str, width: int) -> None:
    # The print page holds a whole system: its first screen is enough, plus how it prints.
    full = not path.endswith("/druck/")
    review_screenshot(page, f"{name}-{width}.png", full_page=full)
    if not full and width > 800 and screenshots_wanted():
        page.emulate_media(media="print")
        review_screenshot(page, f"{name}-{width}-print.png", full_page=False)
        page.emulate_media(media="screen")

    if width < 800:
        result = page.evaluate(OVERFLOW)
        assert result["page"] <= result["width"], f"{path}: Seite breiter als {width}px: {result}"
        assert result["elements"] == [], f"{path}: ragt heraus: {result['elements']}"
