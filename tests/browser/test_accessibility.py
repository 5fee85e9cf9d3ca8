"""axe-core over every kind of page, in both colour schemes, at 1280 and 375 px.

The default scheme gets all of axe's rules; the dark one (slate) its colour rules
(``a11y.COLOUR_RULES``: text contrast, links told apart by colour), since Material's palette
toggle changes the colours of the same DOM and nothing else. Our own contrast measurements
(borders and fills of controls) run in both, at both widths; the darkest text pair of ours
(reported, never failing) is looked for once per state and scheme.

The module's shared visit (``reader``, Material's instant navigation: the engine boots once
for the worker's modules), without the web app's service worker: its footer line
(„Offline bereit · … gespeichert“) comes from the status message pwa.js reads
(``a11y.show_offline_status``). Each page state is made once and checked at 1280 and at
375 px (the window resized, as a phone is turned; the states are made at alternating
widths), at each width in both schemes (the palette toggle clicked in between, as a reader
clicks it: the same DOM in other colours, so the state need not be made again for the second
scheme). The states: a rule
page with helpers after a roll (a result, a field error, the „Meine Werte“ question, the
shared-link field, the „Annahmen“ box open, a dice popover), every Kampfhelfer page after a
roll (Ryssea: the Tickleiste with three fighters, started, one waiting, one holding an
action), the search with results, the print page, the player view, the page „Meine Werte“
with a saved set (and the web app's notice), and the offline export's Patzertabelle with its
rolled row (online, only how its roll is announced is checked: the same article).

A test fails on a serious or critical violation in our own markup (``article`` and every
``rw-…`` element outside it), and on a control of ours whose border or fill stands out less
than 3:1 from what is behind it (axe does not measure that). Violations in Material's
templates (header, navigation, search, footer) and the lesser ones of ours are reported in
the warnings summary at the end of the run, not hidden; so is the darkest remaining text pair
of ours. With ``REGELWERK_SCREENSHOTS=1`` (``make screenshots``) the Kampfhelfer pages are saved
to ``test-results/screenshots/kampfhelfer-<system>-<scheme>-<width>.png``.
"""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.a11y import Findings, check, set_scheme, show_offline_status
from tests.browser.conftest import (
    ALL_HELPERS_SET_UP,
    Browsers,
    PageErrors,
    SharedVisit,
    Unzipped,
    click_in_page,
    evaluate_one,
    navigate,
    resize_settled,
    reveal,
    review_screenshot,
    wait_engine_ready,
)
from tests.conftest import rule_systems

pytestmark = pytest.mark.browser

SCHEMES = ("default", "slate")
WIDTHS = (1280, 375)
SYSTEMS = rule_systems()  # every system with pages, read from the engine
RULE_PAGE = "pathfinder/angriffswurf-und-ruestungsklasse/"  # four helpers, dice in the text


GENERIC_LINK_TEXT = {"hier", "link", "mehr", "regel", "regeltext", "quelle", "siehe"}


def colours_only(scheme: str) -> bool:
    """Every scheme after the first shows the same DOM in other colours (see above)."""
    return scheme != SCHEMES[0]


class Visit:
    """One context and page; pages are reached by instant navigation. Every page state is
    checked at both widths, at each in both schemes: the window is resized (as a phone is
    turned), and Material's layout follows by media queries; the palette is switched (the same
    DOM in other colours). The states are made at alternating widths and schemes, so each
    width and each scheme needs one change, not two."""

    def __init__(self, reader: SharedVisit, report: list[Findings]) -> None:
        self.scheme, self.width = SCHEMES[0], WIDTHS[0]
        self.reader = reader
        self.report = report
        self.page: Any = None

    def open(self, path: str) -> Any:
        if self.page is None:
            # the module's shared visit (no service worker: its footer line comes from the
            # status message pwa.js reads, a11y.show_offline_status), with empty storage and
            # booted on a page with helpers – also when a test runs alone
            self.page = self.reader.arrive(RULE_PAGE, width=self.width)
            set_scheme(self.page, self.scheme)
            show_offline_status(self.page)
        page = self.page
        navigate(page, self.reader.site_url + path)
        assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == self.scheme
        if page.locator(".rw-helper, .rw-dice").count():
            wait_engine_ready(page)
            # every 100 ms, not every frame: a wait per frame keeps the page painting
            page.wait_for_function(ALL_HELPERS_SET_UP, polling=100)
        return page

    def resize(self, width: int) -> None:
        if width == self.width:
            return
        resize_settled(self.page, width)
        self.width = width

    def switch(self, scheme: str) -> None:
        if scheme == self.scheme:
            return
        set_scheme(self.page, scheme)
        self.scheme = scheme

    def check(
        self, state: str, prepare: Any = None, screenshot: str | None = None
    ) -> list[Findings]:
        """The state at the current width, then at the other, each in the current scheme and
        then the other; ``prepare`` runs after each resize (e.g. reopening a popover placed
        for the other width), ``screenshot`` is a file name with ``{scheme}`` and
        ``{width}``."""
        found = []
        named: set[str] = set()  # the schemes whose darkest text pair is named already
        for width in sorted(WIDTHS, key=lambda w: w != self.width):
            self.resize(width)
            if prepare:
                prepare()
            for scheme in sorted(SCHEMES, key=lambda s: s != self.scheme):
                self.switch(scheme)
                one = check(
                    self.page,
                    f"{scheme} {width}px: {state}",
                    colours_only=colours_only(scheme),
                    darkest=scheme not in named,
                )
                named.add(scheme)
                self.report.append(one)
                found.append(one)
                if screenshot:
                    review_screenshot(self.page, screenshot.format(scheme=scheme, width=width))
        return found


@pytest.fixture(scope="module", autouse=True)
def report() -> Iterator[list[Findings]]:
    """Every page state's findings; at the end of the module what did not fail the tests is
    summed up."""
    found: list[Findings] = []
    yield found
    if found:
        warnings.warn(summary(found), UserWarning, stacklevel=1)


@pytest.fixture(scope="module")
def visit(shared_visit: SharedVisit, report: list[Findings]) -> Iterator[Visit]:
    instance = Visit(shared_visit, report)
    yield instance
    if instance.page is not None and not instance.page.is_closed():
        instance.switch(SCHEMES[0])  # the visit goes on to the next module as it came


def summary(found: list[Findings]) -> str:
    lines = [f"axe-core violations in {len(found)} page states (ours serious/critical fail):"]
    counts: Counter[tuple[str, str, str]] = Counter()
    where: dict[tuple[str, str, str], set[str]] = {}
    for f in found:
        for v in f.violations:
            key = ("ours" if v["ours"] else "Material", v["impact"], v["rule"])
            counts[key] += 1
            where.setdefault(key, set()).add(f"{v['target'][:50]} @ {f.state}")
    for (owner, impact, rule), n in sorted(counts.items()):
        targets = "; ".join(sorted(where[(owner, impact, rule)])[:3])
        lines.append(f"  {owner:8} {impact:9} {rule}: {n} nodes ({targets})")
    weak = [c for f in found for c in f.weak_controls]
    lines.append(f"controls of ours under 3:1 (fail): {len(weak)}")
    texts = [f for f in found if f.darkest_text]
    if texts:
        darkest = min(texts, key=lambda f: float((f.darkest_text or {})["ratio"]))
        lines.append(f"darkest text pair of ours: {darkest.darkest_text} ({darkest.state})")
    controls = [f for f in found if f.weakest_control]
    if controls:
        weakest = min(controls, key=lambda f: float((f.weakest_control or {})["ratio"]))
        lines.append(f"weakest control of ours: {weakest.weakest_control} ({weakest.state})")
    return "\n".join(lines)


# Rules whose violations in Material's templates we fixed (overrides/partials/: the search
# dialog's and the progress bar's names): they fail wherever they are found again
FIXED_IN_MATERIAL = ("aria-dialog-name", "aria-progressbar-name")


def assert_named(found: list[Findings]) -> None:
    """Material's search dialog and progress bar have accessible names (Lighthouse's
    accessibility score counted them)."""
    unnamed = [
        f"{one.state}: {v['rule']}: {v['target']}"
        for one in found
        for v in one.violations
        if v["rule"] in FIXED_IN_MATERIAL
    ]
    assert unnamed == [], "\n".join(unnamed)


def assert_clean(found: list[Findings]) -> None:
    problems = [
        f"{one.state}: {v['impact']} {v['rule']}: {v['target']} – {v['summary']}"
        for one in found
        for v in one.failures
    ] + [
        f"{one.state}: control under 3:1: {c['control']} ({c['what']} on {c['behind']}: "
        f"{c['ratio']})"
        for one in found
        for c in one.weak_controls
    ]
    assert problems == [], "\n".join(problems)


# ------------------------------------------------------------------------------ page states

ROLL = """(helper) => {
  const boxes = helper.querySelectorAll("details.rw-more, details.rw-assumptions");
  boxes.forEach((d) => (d.open = true));
  helper.querySelectorAll(".rw-result > *").forEach((node) => { node.dataset.old = "1"; });
  helper.querySelector(".rw-submit").click();
}"""

BAD_INPUT = """(helper) => {
  const input = helper.querySelector(".rw-field--int input[type=text]");
  input.value = "abc";
  input.dispatchEvent(new Event("input", { bubbles: true }));
  helper.querySelector(".rw-submit").click();
}"""


def roll(page: Any, helper: Any) -> None:
    evaluate_one(helper, ROLL)
    helper.locator(".rw-result > .rw-outcome:not([data-old])").wait_for()


def field_error(page: Any, helper: Any) -> None:
    evaluate_one(helper, BAD_INPUT)
    helper.locator(".rw-field-error:not([hidden])").first.wait_for()


def visible_form_helpers(page: Any) -> Any:
    return page.locator(".rw-helper:not([data-widget]):visible")


def save_values(page: Any, name: str) -> None:
    """„Werte speichern …“ on the page's first form helper: the question in the page,
    answered with ``name``; its notice stays."""
    first = visible_form_helpers(page).first
    click_in_page(first.locator(".rw-values-save"))
    question = first.locator(".rw-values-notices input[type=text]")
    question.fill(name)
    question.press("Enter")
    first.locator(".rw-values-notices .rw-notice").wait_for()


def test_rule_page_after_a_roll(visit: Visit) -> None:
    page = visit.open(RULE_PAGE)
    first = visible_form_helpers(page).first
    second = page.locator(".rw-helper:not([data-widget]):visible:has(.rw-field--int)").nth(1)
    roll(page, first)
    field_error(page, second)
    # „Link kopieren“: the link field (the clipboard is not granted here)
    click_in_page(first.locator(".rw-share-copy"))
    first.locator(".rw-share-link").wait_for()
    save_values(page, "Alrik – Langschwert")

    # a dice button in the text: its popover (opened again at each width, placed for it)
    def open_popover() -> None:
        page.evaluate("() => document.querySelector('#rw-dice-popover .rw-outcome')?.remove()")
        click_in_page(page.locator(".rw-dice").first)
        page.locator("#rw-dice-popover .rw-outcome").wait_for()

    # the helpers' rule links name the rule (the file and lines only in the title)
    links = page.locator(".rw-helper .rw-source a").evaluate_all(
        "links => links.map((a) => [a.textContent.trim(), a.title])"
    )
    assert links
    for text, title in links:
        assert len(text) > 3 and text.lower() not in GENERIC_LINK_TEXT, text
        assert ".txt" in title, title  # the source file, for maintainers
    assert_clean(visit.check("rule page, result, field error, popover", prepare=open_popover))
    page.keyboard.press("Escape")


@pytest.mark.parametrize("system", SYSTEMS)
def test_kampfhelfer_page(visit: Visit, system: str) -> None:
    page = visit.open(f"{system}/kampfhelfer/")
    board = page.locator(".rw-tickleiste")
    if board.count():  # a system with a Tickleiste: its states (acting, waiting, holding) too
        board.locator("[data-path='name']").wait_for()
        for name, ini in (("Alrik", "12"), ("Bruna", "10"), ("Cim", "7")):
            board.locator("[data-path='name']").fill(name)
            board.locator("[data-path='ini']").fill(ini)
            click_in_page(board.locator("[data-command='hinzufuegen']"))
            board.locator(f".rw-tl-marker[data-name='{name}']").wait_for()
        click_in_page(board.locator("[data-command='start']"))
        board.locator(".rw-tl-field--now").wait_for()
        click_in_page(board.locator("[data-command='abwarten']"))
        board.locator(".rw-tl-side .rw-tl-marker").first.wait_for()
        click_in_page(board.locator("[data-command='bereithalten']"))
        board.locator(".rw-tl-marker--holds").wait_for()
    roll(page, visible_form_helpers(page).first)
    found = visit.check(
        f"{system}/kampfhelfer/ after a roll",
        screenshot=f"kampfhelfer-{system}-{{scheme}}-{{width}}.png",
    )
    assert_clean(found)


def test_the_odds_of_an_attack(visit: Visit) -> None:
    """Issue 44: a helper's „Was wäre wenn?“ (lines over the opponent's value, the table with
    the current row marked) and „Vergleichen“ (the best value emphasised) – the first helper
    of the rule systems whose action names both – checked like every other state."""
    for system in SYSTEMS:
        page = visit.open(f"{system}/kampfhelfer/")
        helper = page.locator(".rw-helper:not([data-widget])[data-odds*='compare']").first
        if helper.count():
            break
    else:
        pytest.skip("no Kampfhelfer helper offers „Was wäre wenn“ and „Vergleichen“")
    reveal(helper)
    roll(page, helper)
    output = helper.locator(".rw-odds-output")
    click_in_page(helper.locator(".rw-odds-ask[data-odds='what_if']"))
    output.locator(".rw-chart").first.wait_for()
    click_in_page(helper.locator(".rw-odds-ask[data-odds='compare']"))
    output.locator("td.rw-best, .rw-error").first.wait_for()
    click_in_page(helper.locator(".rw-result .rw-chart-toggle").first)  # a chart's table shown
    assert_clean(visit.check(f"{system}/kampfhelfer/ with „Was wäre wenn“ and „Vergleichen“"))


def test_patzertabelle_announces_outcome_and_row(visit: Visit) -> None:
    """The rolled Patzertabelle is heard once: the outcome, then the marked row. Its page is
    checked with axe and our contrast measurements in the offline export (the same article
    and rolled row; online's own „Link kopieren“ is checked on the rule page and every
    Kampfhelfer page)."""
    page = visit.open("ryssea/patzertabelle/")
    helper = page.locator(".rw-helper").first
    roll(page, helper)
    page.locator("tr.rw-row-hit").wait_for()
    # heard once: the outcome first, then the marked row – not the whole result
    outcome = helper.locator(".rw-outcome").text_content() or ""
    said = helper.locator(".rw-announce")
    page.wait_for_function(
        "([el, text]) => el.textContent.startsWith(text)"
        " && el.textContent.includes('Markierte Tabellenzeile')",
        arg=[said.element_handle(), outcome],
        polling=100,
    )
    assert len(said.text_content() or "") < len(outcome) + 80
    assert helper.locator(".rw-result").get_attribute("aria-live") is None


def test_search_open(visit: Visit) -> None:
    page = visit.open("ryssea/")
    page.wait_for_timeout(150)  # Material closes the search 125 ms after a navigation
    page.keyboard.press("s")  # Material's shortcut: open the search
    page.wait_for_function("() => document.getElementById('__search').checked")
    page.keyboard.type("Patzer")
    page.locator(".md-search-result__list > li").first.wait_for()
    page.wait_for_timeout(400)  # the results fade in (Material's transitions: 250 ms)
    try:
        found = visit.check("search with results")
        assert_clean(found)
        assert_named(found)
    finally:
        # an empty query empties the list (its results are <article>s, which the next
        # navigation would take for the page's own), then Escape closes the search
        page.keyboard.press("Control+A")
        page.keyboard.press("Backspace")
        page.locator(".md-search-result__list > li").first.wait_for(state="detached")
        page.keyboard.press("Escape")
        page.wait_for_function("() => !document.getElementById('__search').checked")


def test_print_page(visit: Visit) -> None:
    visit.open("ryssea/druck/")
    assert_clean(visit.check("print page"))


# the web app's notice as pwa.js shows an update (buttons: reload, close)
PWA_NOTICE = """() => {
  const toast = document.querySelector(".rw-pwa-toast");
  if (!toast) return false;
  const text = document.createElement("span");
  text.className = "rw-pwa-text";
  text.textContent = "Eine neue Version des Regelwerks ist da.";
  const reload = document.createElement("button");
  reload.type = "button";
  reload.className = "rw-pwa-button rw-pwa-reload";
  reload.textContent = "Neue Version – neu laden";
  const close = document.createElement("button");
  close.type = "button";
  close.className = "rw-pwa-button rw-pwa-close";
  close.textContent = "×";
  close.setAttribute("aria-label", "Hinweis schließen");
  toast.replaceChildren(text, reload, close);
  toast.hidden = false;
  return true;
}"""


def test_player_view(visit: Visit) -> None:
    """The player view (spieler/): its message without a fight, then a fight as the second
    screen reads it (the compact picture player-link.js documents), a fighter chosen as „ich“,
    an effect on another."""
    page = visit.open("spieler/")
    page.locator(".rw-player-problem").wait_for()
    system = SYSTEMS[0]
    picture = "\n".join(
        [
            f"1\t{system}\ttphi65\tRunde 2 · Platz 1\t0\t1\tLeP\t0",
            "Alrik\tPlatz 1\tw\t24\t",
            "Ork\tPlatz 2\tg\t1\tbetäubt\x1fnoch 1 Runde",
            "Bruna\tPlatz 3\tn\t\t",
        ]
    )
    page.evaluate(
        "([k, v]) => localStorage.setItem(k, JSON.stringify(v))",
        [f"regelwerk:spieler-live:{system}", picture],
    )
    page.evaluate("h => { location.hash = h; }", f"live={system}")
    page.locator(".rw-player-list").wait_for()
    page.get_by_label("Das bin ich:").select_option("Bruna")
    found = visit.check("player view, second screen")
    assert_clean(found)
    assert_named(found)


def test_meine_werte(visit: Visit) -> None:
    # a set of its own, saved on the rule page: the list is not empty when the test runs alone
    save_values(visit.open(RULE_PAGE), "Bruna – Kurzbogen")
    page = visit.open("meine-werte/")
    page.locator(".rw-werte-entry", has_text="Bruna – Kurzbogen").wait_for()
    assert page.evaluate(PWA_NOTICE), "the web app's notice (pwa.js) is missing"
    try:
        assert_clean(visit.check("Meine Werte, web app notice"))
    finally:
        page.evaluate("() => { document.querySelector('.rw-pwa-toast').hidden = true; }")


# ------------------------------------------------------------------------------ offline export


@pytest.fixture
def offline_page(browsers: Browsers) -> Iterator[Any]:
    page = browsers.page(network=False)
    yield page
    page.context.close()


def test_offline_export(
    offline_page: Any, export: Unzipped, report: list[Findings], page_errors: PageErrors
) -> None:
    """The export from file://: one page (Patzertabelle, rolled), at both widths, at each in
    both schemes."""
    # axe (with all its rules) reads every stylesheet once more by XMLHttpRequest, which
    # Chromium refuses from file://; the console names our CSS files as failed to load
    page_errors.expect(
        r"^console\.error: Failed to load resource: net::ERR_FAILED \(file:.*\.css\)$"
    )
    page = offline_page
    page.goto(export.url("ryssea/patzertabelle.html"))
    set_scheme(page, SCHEMES[0])
    wait_engine_ready(page)
    page.wait_for_function(
        "() => document.querySelector('.rw-helper').dataset.rwReady", polling=100
    )
    roll(page, page.locator(".rw-helper").first)
    schemes = list(SCHEMES)
    for width in WIDTHS:
        resize_settled(page, width)
        for scheme in schemes:
            set_scheme(page, scheme)
            found = check(
                page,
                f"{scheme} {width}px: offline export, Patzertabelle rolled",
                colours_only=colours_only(scheme),
            )
            report.append(found)
            assert_clean([found])
        schemes.reverse()  # the scheme shown goes on at the next width
