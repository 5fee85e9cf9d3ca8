"""German search in the real Material search box (Chromium, site served on a loopback address).

Queries from tests/site/search_queries.yml are typed into the search box on their page (``auf``,
reached by instant navigation like a reader's click; the home page if absent); the first hit
must be the expected page (or, with an anchor, that very section, shown and not folded). Every
page result shows its system's label; the same from file:// in the offline export.

The ranking of every query is checked without a browser (tests/site/test_search_index.py runs
Material's worker and our page script in Node); here run the queries whose outcome depends on
what only the page has – the page the search starts on (``auf``: the system read from the real
location after instant navigation), a section as the first hit (shown, not folded behind
„weitere Suchergebnisse“ by Material's rendering) – and the first query, the plain path through
the page's hooks on Material's worker.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest
import yaml

from harness.browser import ENGINE_READY_MS
from tests.browser.conftest import LOCAL_SCHEMES, Browsers, PageErrors, Unzipped, navigate
from tests.conftest import search_labels

pytestmark = pytest.mark.browser

QUERIES = Path(__file__).resolve().parent.parent / "site" / "search_queries.yml"
ENTRIES = yaml.safe_load(QUERIES.read_text(encoding="utf-8"))
PAGE_ENTRIES = [
    entry
    for index, entry in enumerate(ENTRIES)
    if index == 0 or "auf" in entry or "#" in str(entry["seite"])
]
INPUT = "input[data-md-component=search-query]"
ITEM = ".md-search-result__list > li"
FIRST = f"{ITEM} a.md-search-result__link"
LABEL = ".rw-suche-system"
# Material closes the search 125 ms after every navigation ("Always close drawer and search on
# navigation", bundle.ts): open it only after that.
CLOSES_AFTER_MS = 250
# The labels (mkdocs.yml, regelwerk-suche: systeme); other pages: GENERAL.
LABELS = search_labels()  # read: another group's system is covered without an edit
GENERAL = "Allgemein"

# The first hit of the first result: of the links of the first page result, the one Material
# scored highest (the page itself or its best section), and whether it is folded away.
TOP_HIT = """
() => {
  const item = document.querySelector(".md-search-result__list > li");
  if (!item) return null;
  let best = null;
  for (const link of item.querySelectorAll("a.md-search-result__link")) {
    const score = parseFloat(link.firstElementChild.getAttribute("data-md-score"));
    if (!best || score > best.score) best = { score, href: link.href, link };
  }
  return { href: best.href, folded: !!best.link.closest("details") };
}
"""
# Per page result: the href of its page link and the labels in it.
RESULT_LABELS = """
() => [...document.querySelectorAll(".md-search-result__list > li")].map((item) => ({
  href: item.querySelector("a.md-search-result__link").href,
  labels: [...item.querySelectorAll(".rw-suche-system")].map((label) => ({
    text: label.textContent,
    inTitle: !!label.closest("a.md-search-result__link > article > h1"),
    marked: !!label.querySelector("mark"),
  })),
}))
"""


def clear(page: Any) -> None:
    field = page.locator(INPUT)
    field.fill("")
    field.press("End")  # Material reads the query on keyup: the empty query clears the list
    page.wait_for_selector(ITEM, state="detached", timeout=10_000)


def settled_top_hit(page: Any) -> dict[str, Any]:
    """The first hit once the rendered list is stable."""
    page.wait_for_selector(FIRST, timeout=10_000)
    previous = None
    for _ in range(20):
        top = page.evaluate(TOP_HIT)
        if top is not None and top == previous:
            return dict(top)
        previous = top
        page.wait_for_timeout(50)
    assert previous is not None
    return dict(previous)


def search(page: Any, query: str) -> dict[str, Any]:
    """Enter ``query`` like a user; the first hit (``href``, ``folded``) once it settles."""
    clear(page)
    field = page.locator(INPUT)
    field.fill(query)
    field.press("End")  # Material reads the query on keyup
    return settled_top_hit(page)


def first_result(page: Any, query: str) -> str:
    """Enter ``query`` and return the href of the first page result once it settles."""
    search(page, query)
    return str(page.locator(FIRST).first.get_attribute("href"))


def go(page: Any, site_url: str, path: str) -> None:
    """Be on ``path`` (site-relative) – a reader's click, taken over by instant navigation –
    with the search open (navigation closes it; Material opens it when the box gets focus)."""
    if urlsplit(page.url).path.lstrip("/") != path:
        navigate(page, urljoin(site_url, path))
        page.wait_for_timeout(CLOSES_AFTER_MS)
    field = page.locator(INPUT)
    field.evaluate("field => field.blur()")
    field.click()
    page.wait_for_function("() => document.getElementById('__search').checked")


def site_path(site_url: str, href: str) -> str:
    """``href`` relative to the site, with its anchor (``ryssea/fernkampf/#deckung``)."""
    url = urlsplit(urljoin(site_url, href))
    path = url.path.lstrip("/")
    return f"{path}#{url.fragment}" if url.fragment else path


def label_of(path: str) -> str:
    folder, slash, _ = path.partition("/")
    return LABELS.get(folder, GENERAL) if slash else GENERAL


@pytest.fixture(scope="module")
def search_page(browsers: Browsers, site_url: str) -> Any:
    page = browsers.page()
    page.goto(site_url)
    page.locator(INPUT).click()
    page.wait_for_function("() => !!window.regelwerkSuche", polling=100)
    yield page
    page.context.close()


@pytest.mark.parametrize(
    "entry",
    PAGE_ENTRIES,
    ids=lambda e: f"{e['suche']} auf {e['auf']}" if e.get("auf") else str(e["suche"]),
)
def test_first_result(search_page: Any, site_url: str, entry: dict[str, str]) -> None:
    go(search_page, site_url, str(entry.get("auf", "")))
    top = search(search_page, str(entry["suche"]))
    expected = str(entry["seite"])
    found = site_path(site_url, top["href"])
    if "#" not in expected:
        found = found.split("#", 1)[0]
    assert found == expected, f"{entry['suche']}: erster Treffer {top['href']}"
    assert not top["folded"], f"{entry['suche']}: erster Treffer eingeklappt"


def test_deckung_rule_is_shown_first_and_enter_opens_it(search_page: Any, site_url: str) -> None:
    go(search_page, site_url, "")
    search(search_page, "Deckung Fernkampf")
    first = search_page.locator(ITEM).first
    links = first.locator(":scope > a.md-search-result__link")
    assert site_path(site_url, str(links.nth(0).get_attribute("href"))) == "ryssea/fernkampf/"
    section = site_path(site_url, str(links.nth(1).get_attribute("href")))
    assert section == "ryssea/fernkampf/#besondere-situationen-im-fernkampf"
    assert "Deckung" in links.nth(1).inner_text()  # its teaser, shown
    # Material's Enter opens the result it scored highest: the Deckung rule
    search_page.locator(INPUT).press("Enter")
    search_page.wait_for_url(
        re.compile(r".*/ryssea/fernkampf/.*#besondere-situationen-im-fernkampf")
    )


def test_every_result_shows_its_system(search_page: Any, site_url: str) -> None:
    go(search_page, site_url, "")
    seen = set()
    for query in ("Angriff", "Patzer"):
        search(search_page, query)
        # Material renders ten results at a time, more when the list is scrolled to its end
        shown = 0
        while search_page.locator(ITEM).count() > shown:
            shown = search_page.locator(ITEM).count()
            search_page.evaluate(
                "() => document.querySelector('.md-search__scrollwrap').scrollTo(0, 1e9)"
            )
            search_page.wait_for_timeout(300)
        results = search_page.evaluate(RESULT_LABELS)
        assert len(results) > 5
        for result in results:
            expected = label_of(site_path(site_url, result["href"]))
            wanted = [{"text": expected, "inTitle": True, "marked": False}]
            assert result["labels"] == wanted, (query, result)
            seen.add(expected)
        assert search_page.locator(LABEL).first.is_visible()
    assert seen == {*LABELS.values(), GENERAL}


def test_the_name_of_a_system_is_no_label_match(search_page: Any, site_url: str) -> None:
    """„Ryssea“ finds the pages whose text says Ryssea, not every Ryssea page by its label."""
    go(search_page, site_url, "")
    search(search_page, "Ryssea")
    results = search_page.evaluate(RESULT_LABELS)
    assert site_path(site_url, results[0]["href"]) == "ryssea/"
    assert not any(label["marked"] for result in results for label in result["labels"])
    ryssea_pages = {p.stem for p in (QUERIES.parents[2] / "docs" / "ryssea").glob("*.md")}
    assert len(results) < len(ryssea_pages)


def test_results_follow_the_reader_to_another_system(search_page: Any, site_url: str) -> None:
    """Instant navigation keeps the results: on a page of another system they are ranked
    again for it, without typing anew."""
    go(search_page, site_url, "pathfinder/angriffswurf-und-ruestungsklasse/")
    top = search(search_page, "Patzer")
    assert site_path(site_url, top["href"]).startswith("pathfinder/")
    navigate(search_page, urljoin(site_url, "ryssea/kolosse/"))
    search_page.wait_for_function(
        "() => /\\/ryssea\\/patzertabelle\\//.test("
        "document.querySelector('.md-search-result__list > li a').href)"
    )
    assert search_page.locator(INPUT).input_value() == "Patzer"


def test_no_stem_is_suggested(search_page: Any, site_url: str) -> None:
    """Material's suggestions are index terms – stems like "fernkampfattack" – not words."""
    go(search_page, site_url, "")
    search(search_page, "fernk")
    search_page.wait_for_timeout(300)
    assert search_page.locator(".md-search__suggest").text_content() == ""


def test_highlights_the_inflected_word(search_page: Any, site_url: str) -> None:
    """The index keeps word positions: the result text marks the word the stem matched."""
    go(search_page, site_url, "")
    first_result(search_page, "Kampfrunden")
    marked = search_page.locator(".md-search-result__list mark").all_inner_texts()
    assert any(text.lower().startswith("kampfrunde") for text in marked), marked


def test_search_box_keeps_what_the_user_typed(search_page: Any, site_url: str) -> None:
    go(search_page, site_url, "")
    first_result(search_page, "Rüstungen")
    assert search_page.locator(INPUT).input_value() == "Rüstungen"


# Material's own search worker (its hashed file), which our holding worker loads when released
MATERIAL_WORKER = re.compile(r"/workers/search\.[0-9a-f]{8}\.min\.js$")
# What is said on search-hold.js's channel, heard by a channel of the test's own.
LISTEN = """
window.__rwSearchTalk = [];
new BroadcastChannel("regelwerk-suche").onmessage = (event) => {
  window.__rwSearchTalk.push(event.data);
};
"""
RULE_PAGE = "ryssea/bewegungshandlungen/"


def test_the_index_is_built_when_the_reader_wants_to_search(
    browsers: Browsers, site_url: str, page_errors: PageErrors
) -> None:
    """Issue #29 (a lighter visit): Material's search builds its index (≈ 0.3 s of CPU on a
    PC) only when the reader moves to the search – not on every page load; without our page
    script (it failed to load) the search still works, released after NO_ANSWER_MS."""
    held = browsers.context(init_scripts=[LISTEN])
    alone = browsers.context()
    requests: dict[Any, list[str]] = {held: [], alone: []}
    for context in (held, alone):
        context.on("request", lambda request, c=context: requests[c].append(request.url))
    alone.route("**/assets/regelwerk/regelwerk.js", lambda route: route.abort())
    page_errors.expect(r"^console\.error: Failed to load resource: .*/regelwerk/regelwerk\.js")
    try:
        reader = held.new_page()
        reader.goto(site_url + RULE_PAGE)
        without = alone.new_page()
        without.goto(site_url + RULE_PAGE)
        # our worker asked, the page said "hold"
        reader.wait_for_function(
            "() => ['frage', 'halten'].every((word) => window.__rwSearchTalk.includes(word))",
            polling=100,
        )
        # nobody answers the worker of the page without our script: it starts Material's
        # search by itself (search-hold-worker.js) and the search answers
        without.locator(INPUT).click()
        without.keyboard.type("Initiative")
        without.wait_for_selector(FIRST, timeout=20_000)
        assert any(MATERIAL_WORKER.search(url) for url in requests[alone])
        # meanwhile – longer than NO_ANSWER_MS – the reader's page kept its search waiting
        assert not [u for u in requests[held] if MATERIAL_WORKER.search(u) or "/lunr/" in u]
        assert "freigeben" not in reader.evaluate("window.__rwSearchTalk")
        # the pointer over the search field: now the index is built, and the search answers
        reader.locator(INPUT).hover()
        reader.wait_for_function("() => window.__rwSearchTalk.includes('freigeben')", polling=100)
        reader.locator(INPUT).click()
        assert "/ryssea/" in first_result(reader, "Initiative")
        assert any(MATERIAL_WORKER.search(url) for url in requests[held])
    finally:
        held.close()
        alone.close()


INDEX = re.compile(r"/search/search_index\.json$")
DOCS = re.compile(r"/search/search_docs\.json$")


def test_the_player_view_loads_the_search_index_only_to_search(
    browsers: Browsers, site_url: str
) -> None:
    """Issue #46 (fast and light on a phone): a visit of the player view fetches no search
    documents (≈ 200 KB; Material's page script fetches search_index.json on every load, which
    online holds only the index's config); once the reader puts the cursor into the search
    field and types, the held worker fetches them and the results come."""
    context = browsers.context(init_scripts=[LISTEN])
    fetched: list[tuple[str, int]] = []

    def record(response: Any) -> None:
        if INDEX.search(response.url) or DOCS.search(response.url):
            fetched.append((response.url, len(response.body())))

    context.on("response", record)
    try:
        page = context.new_page()
        page.goto(site_url + "spieler/")
        page.wait_for_function("() => window.__rwSearchTalk.includes('halten')", polling=100)
        page.wait_for_load_state("networkidle")
        assert not [url for url, _ in fetched if DOCS.search(url)], fetched
        # what the page itself fetched: the config, without documents
        assert all(size < 2000 for _, size in fetched), fetched
        page.locator(INPUT).focus()
        page.keyboard.type("Initiative")
        page.wait_for_selector(FIRST, timeout=20_000)
        assert [url for url, size in fetched if DOCS.search(url) and size > 50_000], fetched
    finally:
        context.close()


@pytest.fixture(scope="module")
def offline_search(browsers: Browsers) -> Iterator[tuple[Any, list[str]]]:
    """One page for the module's searches from file://, whose context aborts (and records)
    every request that would leave the disk (as the ``offline`` fixture; each test loads its
    page anew: the export has no instant navigation)."""
    context = browsers.context(network=False)
    requests: list[str] = []
    context.on("request", lambda request: requests.append(request.url))
    yield context.new_page(), requests
    context.close()


def test_offline_search_knows_the_system(
    offline_search: tuple[Any, list[str]], export: Unzipped
) -> None:
    """From file:// (the iframe-worker shim, no instant navigation): a search on a Pathfinder
    page finds Pathfinder's Patzer first, and every result shows its system."""
    page, requests = offline_search
    page.goto(export.url("pathfinder/angriffswurf-und-ruestungsklasse.html"))
    page.locator(".md-search__input").click()
    page.keyboard.type("Patzer")
    page.wait_for_selector(FIRST, timeout=ENGINE_READY_MS)
    top = settled_top_hit(page)
    assert "/pathfinder/bewegungsrate-und-rettungswuerfe.html" in top["href"], top
    root = export.root.as_uri() + "/"
    results = page.evaluate(RESULT_LABELS)
    assert len(results) > 3
    for result in results:
        assert result["href"].startswith(root), result
        expected = label_of(result["href"][len(root) :])
        assert result["labels"] == [{"text": expected, "inTitle": True, "marked": False}], result
    assert results[0]["labels"][0]["text"] == "Pathfinder 1"
    assert [url for url in requests if not url.startswith(LOCAL_SCHEMES)] == []


def test_offline_search_folds_umlaut_spellings(
    offline_search: tuple[Any, list[str]], export: Unzipped
) -> None:
    """From file://, as online (issue #30): typed without a German keyboard, „Ueberraschung“
    finds the pages „Überraschung“ finds, in the same order; a real „ue“ stays („Feuer“)."""
    page, requests = offline_search
    page.goto(export.url("index.html"))
    page.locator(".md-search__input").click()
    page.wait_for_function("() => !!window.regelwerkSuche", polling=100)

    def pages(query: str) -> list[str]:
        search(page, query)
        return [str(result["href"]) for result in page.evaluate(RESULT_LABELS)]

    for typed, umlauts in (("Ueberraschung", "Überraschung"), ("Ruestung", "Rüstung")):
        expected = pages(umlauts)
        assert expected, umlauts
        assert pages(typed) == expected, typed
    assert page.evaluate("() => regelwerkSuche.transform('Feuer')") == "feu"
    assert [url for url in requests if not url.startswith(LOCAL_SCHEMES)] == []
