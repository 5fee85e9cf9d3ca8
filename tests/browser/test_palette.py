"""The header's colour scheme switch (mkdocs.yml theme.palette: „Dunkles Farbschema“ /
„Helles Farbschema“), run by site_plugins/assets/js/palette.js instead of Material's palette
component (overrides/partials/palette.html; issue #46: Material's component forced two full
style recalculations of every page on load).

What a reader sees: the switch shows the other scheme; a click, Enter on the focused switch,
and instant navigation and a reload keep the choice (Material's inline script sets it from
``__palette`` before the page is drawn). What the page no longer does: touch the body's colour
attributes or mark it „switching“ while it loads. A damaged stored choice (the brief: what a
reader keeps survives corrupt storage) gives the page's own scheme and is replaced."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import Browsers, PageErrors, navigate, seed_storage

pytestmark = pytest.mark.browser

PAGE = "ryssea/"
OTHER_PAGE = "ryssea/fernkampf/"

# every change of the body's colour attributes from the first script of the page on
RECORD_BODY_CHANGES = """
window.__rwBodyChanges = [];
new MutationObserver((records) => {
  for (const record of records) {
    if (record.target === document.body && record.attributeName.startsWith("data-md-color"))
      window.__rwBodyChanges.push(record.attributeName);
  }
}).observe(document, { attributes: true, subtree: true });
"""
SCHEME = "document.body.getAttribute('data-md-color-scheme')"
SETTLED = "() => !document.body.hasAttribute('data-md-color-switching')"
# the switch's visible label, by its input's name (Material's tooltips take the label's title)
VISIBLE_SWITCH = """() => [...document.querySelectorAll("form[data-rw-palette] label")]
  .filter((label) => !label.hidden)
  .map((label) => label.previousElementSibling.getAttribute("aria-label"))"""


WIRED = "() => document.querySelector('form[data-rw-palette]')?.dataset.rwPalette === 'on'"
COLOR_SCHEME_META = "document.querySelector('meta[name=color-scheme]')?.content"
FOCUSED_SCHEME = "document.activeElement.getAttribute('data-md-color-scheme')"


def loaded(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_function(WIRED)


def test_the_switch_turns_the_scheme_and_every_later_page_keeps_it(
    browsers: Browsers, site_url: str
) -> None:
    page = browsers.page(init_scripts=[RECORD_BODY_CHANGES])
    try:
        loaded(page, site_url + PAGE)
        assert page.evaluate(SCHEME) == "default"
        assert page.evaluate(VISIBLE_SWITCH) == ["Dunkles Farbschema"]
        # a first visit: the page's own scheme stands, only the (unstyled) media mark is added
        assert page.evaluate("window.__rwBodyChanges") == ["data-md-color-media"]

        page.locator("label[title='Dunkles Farbschema']").click()
        page.wait_for_function(SETTLED)
        assert page.evaluate(SCHEME) == "slate"
        assert page.evaluate(VISIBLE_SWITCH) == ["Helles Farbschema"]
        assert page.evaluate(COLOR_SCHEME_META) == "dark"

        navigate(page, site_url + OTHER_PAGE)
        assert page.evaluate(SCHEME) == "slate"
        assert page.evaluate(VISIBLE_SWITCH) == ["Helles Farbschema"]

        # a reload: Material's inline script sets the kept scheme; the load changes nothing more
        page.reload()
        page.wait_for_function(WIRED)
        assert page.evaluate(SCHEME) == "slate"
        assert "data-md-color-switching" not in page.evaluate("window.__rwBodyChanges")
        # the browser's own parts are dark at once, from what the switch kept (no style read)
        assert page.evaluate(COLOR_SCHEME_META) == "dark"
        assert page.evaluate(VISIBLE_SWITCH) == ["Helles Farbschema"]
    finally:
        page.context.close()


def test_enter_on_the_focused_switch_turns_it_back_and_forth(
    browsers: Browsers, site_url: str
) -> None:
    page = browsers.page()
    try:
        loaded(page, site_url + PAGE)
        page.locator("form[data-rw-palette] input").first.focus()
        page.keyboard.press("Enter")
        page.wait_for_function(SETTLED)
        assert page.evaluate(SCHEME) == "slate"
        assert page.evaluate(FOCUSED_SCHEME) == "slate"
        page.keyboard.press("Enter")
        page.wait_for_function(SETTLED)
        assert page.evaluate(SCHEME) == "default"
        assert page.evaluate(VISIBLE_SWITCH) == ["Dunkles Farbschema"]
    finally:
        page.context.close()


def test_a_damaged_stored_choice_is_replaced_by_the_pages_own_scheme(
    browsers: Browsers, site_url: str, page_errors: PageErrors
) -> None:
    # Material's inline script in <head> reads "__palette" with JSON.parse and throws on a
    # damaged entry (its own code); the switch still works and writes a valid entry, so the
    # next page loads without the error
    page_errors.expect(r"pageerror: SyntaxError")
    page = browsers.page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        seed_storage(page, site_url, {"/.__palette": "{kaputt", "/.__palette_colours": "["})
        loaded(page, site_url + PAGE)
        assert errors, "Materials Skript hat den kaputten Eintrag gelesen"
        assert page.evaluate(SCHEME) == "default"
        assert page.evaluate(VISIBLE_SWITCH) == ["Dunkles Farbschema"]
        assert page.evaluate("JSON.parse(localStorage.getItem('/.__palette')).index") == 0

        errors.clear()
        page.reload()
        page.wait_for_function(WIRED)
        assert errors == []
        page.locator("label[for='__palette_1']").click()
        page.wait_for_function(SETTLED)
        assert page.evaluate(SCHEME) == "slate"
    finally:
        page.context.close()
