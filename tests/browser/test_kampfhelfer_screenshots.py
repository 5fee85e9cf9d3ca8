"""Screenshots of every system's Kampfhelfer page at 1280 px and 375 px, after one roll per helper.

The files land in ``test-results/screenshots/kampfhelfer-<system>-<width>.png`` for review; the
„Weitere Angaben und Modifikatoren“ boxes are opened, so every field of every form is in the
picture. At 375 px the page must not scroll sideways.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import reveal
from tests.browser.test_all_helpers import PagePool, form_helper

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-results" / "screenshots"
SYSTEMS = ("ryssea", "dsa", "guete", "aktionswuerfel", "pathfinder")

OVERFLOW = """() => {
  const width = window.innerWidth;
  const wide = [];
  for (const el of document.querySelectorAll(".rw-helper, .rw-helper *")) {
    const box = el.getBoundingClientRect();
    if (box.width > 0 && box.right > width + 1 && !el.closest(".rw-table-wrap")) {
      wide.push(`${el.tagName.toLowerCase()}.${el.className}: ${Math.round(box.right)}px`);
    }
  }
  return { scroll: document.scrollingElement.scrollWidth, width, wide: wide.slice(0, 10) };
}"""


@pytest.fixture(scope="module")
def pool(browser: Any, site_url: str) -> Iterator[PagePool]:
    instance = PagePool(browser, site_url)
    yield instance
    instance.close()


@pytest.mark.parametrize("system", SYSTEMS)
def test_kampfhelfer_page_at_1280_and_375(system: str, pool: PagePool) -> None:
    url = f"{system}/kampfhelfer/"
    page = pool.get(url)
    try:
        SHOTS.mkdir(parents=True, exist_ok=True)
        helpers = page.locator(".rw-helper[data-action]").evaluate_all(
            "els => els.map(e => [e.id, e.dataset.system, e.dataset.action])"
        )
        rolled = 0
        for helper_id, helper_system, action in helpers:
            if not form_helper(helper_system, action):
                continue
            box = reveal(page.locator(f"[id='{helper_id}']"))
            box.evaluate(
                "(h) => h.querySelectorAll('details.rw-more').forEach((d) => (d.open = true))"
            )
            box.locator(".rw-submit").click()
            box.locator(".rw-result .rw-outcome").wait_for()
            rolled += 1
        assert rolled == len(helpers) or rolled > 0
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(SHOTS / f"kampfhelfer-{system}-1280.png"), full_page=True)

        page.set_viewport_size({"width": 375, "height": 800})
        page.wait_for_function("() => window.innerWidth === 375")
        page.wait_for_timeout(300)  # let Material's layout settle (drawer, sidebars)
        measured = page.evaluate(OVERFLOW)
        page.screenshot(path=str(SHOTS / f"kampfhelfer-{system}-375.png"), full_page=True)
        assert measured["scroll"] <= measured["width"] + 1, measured
        assert measured["wide"] == [], measured
    finally:
        pool.done(url)
