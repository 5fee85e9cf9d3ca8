"""German search in the real Material search box (Chromium, site served on 127.0.0.1).

Every query from tests/site/search_queries.yml is typed into the search box; the first result
must link to the expected page.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest
import yaml

pytestmark = pytest.mark.browser

QUERIES = Path(__file__).resolve().parent.parent / "site" / "search_queries.yml"
ENTRIES = yaml.safe_load(QUERIES.read_text(encoding="utf-8"))
INPUT = "input[data-md-component=search-query]"
FIRST = ".md-search-result__list > li a.md-search-result__link"


def first_result(page: Any, query: str) -> str:
    """Enter ``query`` like a user and return the href of the first result once it settles."""
    field = page.locator(INPUT)
    field.fill("")
    field.press("End")  # Material reads the query on keyup: the empty query clears the list
    page.wait_for_selector(".md-search-result__list > li", state="detached", timeout=10_000)
    field.fill(query)
    field.press("End")  # Material reads the query on keyup
    page.wait_for_selector(FIRST, timeout=10_000)
    previous = None
    for _ in range(20):  # wait until the rendered list is stable
        href = page.locator(FIRST).first.get_attribute("href")
        if href == previous:
            return str(href)
        previous = href
        page.wait_for_timeout(50)
    return str(previous)


@pytest.fixture(scope="module")
def search_page(browser: Any, site_url: str) -> Any:
    context = browser.new_context(locale="de-DE", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(site_url)
    page.locator(INPUT).click()
    page.wait_for_function("() => !!window.regelwerkSuche")
    yield page
    context.close()


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: str(e["suche"]))
def test_first_result(search_page: Any, site_url: str, entry: dict[str, str]) -> None:
    href = first_result(search_page, str(entry["suche"]))
    path = urlsplit(urljoin(site_url, href)).path.lstrip("/")
    assert path == entry["seite"], f"{entry['suche']}: erster Treffer {href}"


def test_highlights_the_inflected_word(search_page: Any) -> None:
    """The index keeps word positions: the result text marks the word the stem matched."""
    first_result(search_page, "Kampfrunden")
    marked = search_page.locator(".md-search-result__list mark").all_inner_texts()
    assert any(text.lower().startswith("kampfrunde") for text in marked), marked


def test_search_box_keeps_what_the_user_typed(search_page: Any) -> None:
    first_result(search_page, "Rüstungen")
    assert search_page.locator(INPUT).input_value() == "Rüstungen"
