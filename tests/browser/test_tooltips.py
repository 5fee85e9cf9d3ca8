"""Material's tooltips (``content.tooltips``: the glossary's abbreviations) stay inside the
window at every width from a phone to a wide screen (issue #30: at 375 px a tooltip reached past
the screen's edge). site_plugins/assets/js/helpers/tooltips.js puts a tooltip above its abbreviation
where there is no room below; Material keeps it between the left and right edges.

Chromium, at 320, 375, 1366 and 1920 px: three abbreviations of the page with the most of them (read
from the build), each one moved to the bottom edge of the window and to the top (under the
header), and at its place as the page has it, hovered like a reader's pointer. One page for
the module, its window resized from width to width (as a window is dragged or a phone turned):
Material places each tooltip when it opens, for the window as it is then.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Browsers, resize_settled

pytestmark = pytest.mark.browser

WIDTHS = (320, 375, 1366, 1920)
HEIGHT = 700
SAMPLE = 3  # abbreviations per width, spread over the page (each at 3 places: 9 hovers)

# the active tooltip's box in the window (null while none is open)
TOOLTIP = """() => {
  const tip = document.querySelector(".md-tooltip2--active[role=tooltip] .md-tooltip2__inner");
  if (!tip) return null;
  const r = tip.getBoundingClientRect();
  const root = document.documentElement;
  return { left: r.left, right: r.right, top: r.top, bottom: r.bottom,
           width: root.clientWidth, height: root.clientHeight };
}"""
# the same, where the tooltip's opening transitions (Material's, 0.4 s) end: two frames for
# Material to place it (it measures the abbreviation in a frame after opening), then the
# transitions are finished at once (their end state, without drawing the 0.4 s in between)
SETTLED_TOOLTIP = (
    """async () => {
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const tip = document.querySelector(".md-tooltip2--active[role=tooltip]");
  if (tip) tip.getAnimations({ subtree: true }).forEach((a) => a.finish());
  return ("""
    + TOOLTIP
    + """)();
}"""
)
OPEN = """(title) => {
  const tip = document.querySelector(".md-tooltip2--active[role=tooltip]");
  return !!tip && tip.textContent.includes(title);
}"""
# put abbreviation `index` at `where` ("bottom": its bottom 4 px above the window's, "top": just
# under the header, "page": where the page has it); → its centre in the window
PLACE = """([index, where]) => {
  const abbr = document.querySelectorAll("article abbr[title]")[index];
  abbr.scrollIntoView({ block: "center" });
  const header = document.querySelector(".md-header").getBoundingClientRect().bottom;
  const box = abbr.getBoundingClientRect();
  const room = document.documentElement.clientHeight;
  if (where === "bottom") window.scrollBy(0, box.bottom - (room - 4));
  if (where === "top") window.scrollBy(0, box.top - (header + 4));
  const now = abbr.getBoundingClientRect();
  return { x: now.left + now.width / 2, y: now.top + now.height / 2, title: abbr.title };
}"""


def page_with_most_abbreviations(site: Path) -> str:
    counts = {
        path: path.read_text("utf-8").count("<abbr title=") for path in site.rglob("index.html")
    }
    best = max(counts, key=lambda path: counts[path])
    assert counts[best] >= SAMPLE, counts[best]
    return best.parent.relative_to(site).as_posix() + "/"


@pytest.fixture(scope="module")
def abbr_page(browsers: Browsers, site_url: str, built_site: Path) -> Iterator[Any]:
    """The page with the most abbreviations, loaded once for every width."""
    page = browsers.page(WIDTHS[0], HEIGHT)
    page.goto(site_url + page_with_most_abbreviations(built_site))
    yield page
    page.context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_tooltips_stay_inside_the_window(abbr_page: Any, width: int) -> None:
    page = abbr_page
    page.mouse.move(1, HEIGHT - 1)  # no tooltip left open from the last width
    page.wait_for_selector(".md-tooltip2--active[role=tooltip]", state="detached")
    resize_settled(page, width, HEIGHT)
    visible = page.evaluate(
        """() => [...document.querySelectorAll("article abbr[title]")].map(
             (a) => a.getClientRects().length > 0 && !a.closest("details:not([open])"))"""
    )
    shown = [index for index, yes in enumerate(visible) if yes]
    step = max(1, len(shown) // SAMPLE)
    checked: list[str] = []
    for index in shown[::step][:SAMPLE]:
        for where in ("bottom", "top", "page"):
            at: dict[str, Any] = page.evaluate(PLACE, [index, where])
            page.mouse.move(at["x"], at["y"])
            page.wait_for_function(OPEN, arg=at["title"], polling=50)
            box = page.evaluate(SETTLED_TOOLTIP)  # after Material's opening transition
            where_text = f"{width} px, {at['title']} ({where})"
            assert box, where_text
            assert box["left"] >= 0 and box["right"] <= box["width"], (where_text, box)
            assert box["top"] >= 0 and box["bottom"] <= box["height"], (where_text, box)
            page.mouse.move(1, HEIGHT - 1)
            page.wait_for_selector(".md-tooltip2--active[role=tooltip]", state="detached")
            checked.append(where_text)
    assert len(checked) >= 3 * min(SAMPLE, len(shown)), checked
