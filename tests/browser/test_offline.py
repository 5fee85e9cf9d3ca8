"""The offline export, opened by double-click: ``file://``, every network request blocked.

A session fixture builds the export with ``harness/offline_export.py`` into a temporary folder
(``dist/`` is not used), unzips it below a folder whose name has a space and an umlaut, and
Debian Chromium opens ``index.html`` from there with every request outside ``file:``, ``blob:``
and ``data:`` aborted *and recorded*: there must be none. Every distinct roll helper is rolled
with a fixed seed, its defaults untouched, and compared with the engine on CPython for the same
params and seed (``python -m engine … --json --seed N --params …`` for the first, then
``engine.api.run`` in-process, which is what the CLI calls).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from mkdocs.config import load_config
from mkdocs.exceptions import PluginError

from engine import api
from harness.browser import ENGINE_READY_MS
from site_plugins.offline import plugin
from tests.browser.conftest import (
    LOCAL_SCHEMES,
    Browsers,
    Unzipped,
    evaluate_one,
    reveal,
    roll_seeded,
)
from tests.browser.test_csp import RECORDER
from tests.conftest import ROOT

pytestmark = pytest.mark.browser

MAX_ZIP_BYTES = 16_000_000  # one download, snapshot included (the snapshot issue: < 16 MB)
HELPER_MARK = 'class="rw-helper"'
HELPER = re.compile(
    r'<section class="rw-helper" id="([^"]+)"[^>]*? data-system="([^"]+)" '
    r'data-action="([^"]+)"[^>]*>'
    r'(?:<h[1-6] class="rw-title".*?</h[1-6]>)?'
    r"(<form\b.*?</form>)",
    re.S,
)
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:|^//", re.I)  # a scheme, or protocol-relative
RESOURCE = re.compile(
    r"<(?:script|img|iframe|source|audio|video|embed)\b[^>]*\bsrc=\"([^\"]*)\""
    r"|<link\b[^>]*\brel=\"(?:stylesheet|icon|preload|modulepreload|manifest)\"[^>]*"
    r"\bhref=\"([^\"]*)\"",
    re.I,
)


def _foreign(requests: list[str]) -> list[str]:
    return [url for url in requests if not url.startswith(LOCAL_SCHEMES)]


def _wait_ready(page: Any) -> None:
    page.wait_for_selector(".rw-status[data-state='ready']", timeout=ENGINE_READY_MS)


def _cli(system: str, action: str, params: dict[str, Any], seed: int) -> dict[str, Any]:
    args = [sys.executable, "-m", "engine", system, action, "--json", "--seed", str(seed)]
    args += ["--params", json.dumps(params, ensure_ascii=False)]
    out = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=False)
    assert out.stdout, out.stderr
    return dict(json.loads(out.stdout))


def _expected_dom(display: dict[str, Any]) -> dict[str, Any]:
    tables = [s["rows"] for s in display["sections"] if s["kind"] == "table"]
    dice = [
        str(die["value"])
        for s in display["sections"]
        if s["kind"] == "rolls"
        for item in s["items"]
        for die in item["dice"]
    ]
    return {"outcome": display["outcome"], "tables": tables, "dice": dice}


SHOWN_DOM = """
(root) => ({
  outcome: root.querySelector(".rw-outcome").textContent,
  tables: [...root.querySelectorAll("table.rw-table")].map(
    (t) => [...t.tBodies[0].rows].map((r) => [...r.cells].map((c) => c.textContent))),
  dice: [...root.querySelectorAll(".rw-die")].map((d) => d.textContent),
  seed: root.querySelector(".rw-seed") ? root.querySelector(".rw-seed").textContent : null,
})
"""


# ------------------------------------------------------------------------------- the files


def test_zip_is_small_and_holds_one_shared_runtime(export: Unzipped) -> None:
    assert export.zip_path.stat().st_size <= MAX_ZIP_BYTES
    assert " " in str(export.root) and "Ü" in str(export.root)
    with zipfile.ZipFile(export.zip_path) as archive:
        tops = {name.split("/", 1)[0] for name in archive.namelist()}
    assert tops == {"regelwerk-offline"}
    runtime = sorted((export.root / "assets" / "offline").glob("runtime-*.js"))
    assert runtime, "no runtime scripts"
    # the online runtime (module worker, fetch-loaded files) is not shipped a second time
    assert not (export.root / "assets" / "pyodide").exists()
    assert not list((export.root / "assets" / "regelwerk").glob("engine-*.zip"))
    assert not list((export.root / "assets" / "regelwerk").glob("engine-*.snap"))
    # nor the standard library cut for the online boots: the export carries its own
    assert not list((export.root / "assets" / "regelwerk").glob("python_stdlib*.zip"))
    assert not (export.root / "assets" / "regelwerk" / "worker.js").exists()
    pages = sorted(export.root.rglob("*.html"))
    assert len(pages) > 10
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert len(html) < 400_000, f"{page} carries a payload of its own"
        assert "assets/offline/transport.js" in html, page
        assert "navigation.instant" not in html, page
    # the download link of the online home page says "you already have it" here
    index = (export.root / "index.html").read_text(encoding="utf-8")
    assert "rw-offline-download" not in index
    assert "rw-offline-note" in index


def test_every_pyodide_rewrite_is_asserted(tmp_path: Path) -> None:
    pyodide = ROOT / "node_modules" / "pyodide"
    asm = (pyodide / "pyodide.asm.mjs").read_text(encoding="utf-8")
    for rewrite in plugin.REWRITES:
        with pytest.raises(PluginError, match="genau einmal"):
            plugin.classic_asm(asm.replace(rewrite.old, "", 1))
        with pytest.raises(PluginError, match="genau einmal"):
            plugin.classic_asm(asm.replace(rewrite.old, rewrite.old * 2, 1))
    for required in plugin.REQUIRED:
        with pytest.raises(PluginError, match="genau einmal"):
            plugin.worker_source(
                plugin.bundled_worker(),
                (pyodide / required.file).read_text(encoding="utf-8").replace(required.old, ""),
                plugin.classic_asm(asm),
                "{}",
            )
    # the worker as built – the site's own worker.js behind Pyodide's classic code – is a
    # valid classic script (no import/export statements, no import.meta)
    worker = plugin.worker_source(
        plugin.bundled_worker(),
        (pyodide / "pyodide.js").read_text(encoding="utf-8"),
        plugin.classic_asm(asm),
        (pyodide / "pyodide-lock.json").read_text(encoding="utf-8"),
    )
    script = tmp_path / "worker.cjs"
    script.write_text(worker, encoding="utf-8")
    check = subprocess.run(["node", "--check", str(script)], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr


# ------------------------------------------------------------------------------- the browser


def test_pages_search_tooltips_dice_and_saved_state(
    offline: tuple[Any, list[str]], export: Unzipped
) -> None:
    page, requests = offline
    page.context.add_init_script(RECORDER)  # test_csp.py: no policy violation offline either
    page.goto(export.url("index.html"))
    assert page.locator("article h1").inner_text().startswith("Regelwerk")

    # three pages by clicking links
    page.locator("article a[href='ryssea/index.html']").first.click()
    page.wait_for_url("**/ryssea/index.html")
    page.locator("a.md-nav__link[href$='kampfbeginn-und-initiative.html']").first.click()
    page.wait_for_url("**/ryssea/kampfbeginn-und-initiative.html")
    assert page.locator("article h1").is_visible()
    page.locator("a.md-nav__link[href$='patzertabelle.html']").first.click()
    page.wait_for_url("**/ryssea/patzertabelle.html")

    # a print page (generated, one per system) is a normal page of the export
    prints = sorted(export.root.glob("*/druck.html"))
    if prints:
        page.goto(prints[0].as_uri())
        assert page.locator("article").inner_text().strip()
        page.go_back()
        page.wait_for_url("**/ryssea/patzertabelle.html")

    # saved state: the colour scheme chosen on one page is still there on the next
    page.locator("label[title='Dunkles Farbschema']").first.click()
    assert page.locator("body").get_attribute("data-md-color-scheme") == "slate"

    # German search through the real search box, and its result opens the page
    page.locator(".md-search__input").click()
    page.keyboard.type("Tickleiste")
    first = page.locator(".md-search-result__item a").first
    first.wait_for(timeout=ENGINE_READY_MS)
    assert "kampfbeginn-und-initiative.html" in (first.get_attribute("href") or "")
    first.click()
    page.wait_for_url(re.compile(r".*/kampfbeginn-und-initiative\.html.*"))
    assert page.locator("body").get_attribute("data-md-color-scheme") == "slate"
    assert page.evaluate("localStorage.length") > 0

    # abbreviation tooltip
    abbr = page.locator("article abbr[title]").first
    meaning = abbr.get_attribute("title")
    abbr.hover()
    tooltip = page.locator(".md-tooltip2--active").first
    tooltip.wait_for()
    assert meaning and meaning in tooltip.inner_text()

    # a clickable die in the text rolls through the same offline engine
    dice = page.locator("article button.rw-dice")
    assert dice.count(), "no clickable die on the helper page"
    button = dice.first
    notation = str(button.get_attribute("data-notation"))
    button.click()
    popover = page.locator("#rw-dice-popover")
    popover.locator(".rw-seed").wait_for(timeout=ENGINE_READY_MS)
    shown = evaluate_one(popover, SHOWN_DOM)
    seed = int(shown["seed"].removeprefix("Wurfnummer "))
    expected = api.run("allgemein", "wurf", {"notation": notation, "mode": "normal"}, seed)
    assert expected["ok"], expected
    assert {k: shown[k] for k in ("outcome", "dice")} == {
        k: _expected_dom(expected["result"]["display"])[k] for k in ("outcome", "dice")
    }

    assert _foreign(requests) == []
    assert any(url.startswith("file:") for url in requests)
    assert page.evaluate("sessionStorage.getItem('csp')") in (None, "[]")


def test_no_page_refers_to_anything_outside_the_folder(export: Unzipped) -> None:
    """Every page (print pages included) loads scripts, styles and images from the folder."""
    for page in sorted(export.root.rglob("*.html")):
        html = page.read_text(encoding="utf-8")
        outside = [
            url
            for found in RESOURCE.findall(html)
            for url in found
            if url and EXTERNAL.match(url) and not url.startswith("data:")
        ]
        assert outside == [], (page, outside)


def _helpers_to_roll(root: Path) -> list[tuple[str, list[int]]]:
    """Pages to open, and which helpers on them (by position): one page per system, every
    action on it once.

    Offline, what may break is the way to the engine: file://, the embedded classic worker,
    the snapshot from the zip and the system's modules in it – per page visit (a Pyodide boot:
    no instant navigation from file://) and per system, not per form. The forms and their
    wiring are the same HTML and JS as online, where every helper of every page is rolled
    (test_all_helpers.py, test_parity.py), and test_no_page_refers_to_anything_outside_the_folder
    reads every page here. So each system (as the export's pages name them: a new system is
    rolled here without an edit) is opened once, on its page with the most actions (a
    Kampfhelfer page); the test rolls the system's first helper there and every other whose
    kind of result (the display's sections, dice or none) was not rolled yet.
    """
    pages: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*.html")):
        html = path.read_text(encoding="utf-8")
        keys = [f"{system}.{action}" for _, system, action, _ in HELPER.findall(html)]
        assert len(keys) == html.count(HELPER_MARK), f"{path}: helper markup not understood"
        if keys:
            pages[path.relative_to(root).as_posix()] = keys
    systems = sorted({key.split(".", 1)[0] for keys in pages.values() for key in keys})
    plan: list[tuple[str, list[int]]] = []
    for system in systems:
        own = [p for p in sorted(pages) if any(k.startswith(f"{system}.") for k in pages[p])]
        best = max(own, key=lambda p: len({k for k in pages[p] if k.startswith(f"{system}.")}))
        seen: set[str] = set()
        indices = []
        for index, key in enumerate(pages[best]):
            if key.startswith(f"{system}.") and key not in seen:
                seen.add(key)
                indices.append(index)
        plan.append((best, indices))
    return plan


COLLECT = "(helper) => window.Regelwerk.collect(helper)"  # forms.js, as test_all_helpers.py


def _result_kind(system: str, action: str, params: Any, seed: int) -> tuple[Any, ...]:
    """What the page has to show for a helper's result: which kinds of section (table, rolls,
    chances, notes – engine/display.py), whether there are dice (a Wurfnummer), or an
    error."""
    answer = api.run(system, action, params, seed)
    if not answer["ok"]:
        return ("error", answer["error"].get("field"))
    display = answer["result"]["display"]
    kinds = sorted({section["kind"] for section in display["sections"]})
    return (*kinds, bool(_expected_dom(display)["dice"]))


def test_every_helper_matches_the_engine(offline: tuple[Any, list[str]], export: Unzipped) -> None:
    page, requests = offline
    plan = _helpers_to_roll(export.root)
    assert plan, "no page with a roll helper in the export"
    rolled: list[str] = []
    kinds: set[tuple[Any, ...]] = set()
    for path, indices in plan:
        page.goto(export.url(path))
        _wait_ready(page)
        # every page boots again (no instant navigation from file://): from <head>, while the
        # page is still parsed, not after Material's script (issue 29, deliverable 3)
        assert page.evaluate("window.__regelwerk.startedInHead") is True, path
        helpers = page.locator("section.rw-helper:not([data-widget])")
        for number, index in enumerate(indices):
            helper = reveal(helpers.nth(index))
            # its rule system, its action and the form's params, in one round trip
            system, action, params = evaluate_one(
                helper,
                f"(h) => [h.getAttribute('data-system'), h.getAttribute('data-action'),"
                f" ({COLLECT})(h)]",
            )
            system, action = str(system), str(action)
            where = f"{path} #{index} {system}.{action}"
            seed = 4711 + len(rolled)
            # the system's first helper always; another only with a kind of result not
            # rolled yet (its form's params, as forms.js collects them, on CPython)
            kind = _result_kind(system, action, params, seed)
            if number and kind in kinds:
                continue
            kinds.add(kind)
            before = page.evaluate("window.__rwResults.length")
            roll_seeded(helper, seed)  # from the form as built (input is remembered)
            after, body = page.evaluate("[window.__rwResults.length, window.__rwResults.at(-1)]")
            assert after == before + 1, where
            assert body["ok"], (where, body)
            # the form's defaults, as the page sent them (engine-validated) - the same params
            # and seed on CPython; the first helper goes through the CLI, the rest in-process
            # (a helper that never rolls dice has no Wurfnummer field: the page sends its own)
            if not api.describe(system, action).get("rolls_dice", True):
                seed = int(body["seed"])
            if rolled:
                expected = api.run(system, action, body["params"], seed)
            else:
                expected = _cli(system, action, body["params"], seed)
            assert body == expected, where
            shown = evaluate_one(helper.locator(".rw-result"), SHOWN_DOM)
            wanted = _expected_dom(expected["result"]["display"])
            # a Wurfnummer only with dice (issue 26: none on a result without dice)
            assert shown["seed"] == (f"Wurfnummer {seed}" if wanted["dice"] else None), where
            assert {k: shown[k] for k in ("outcome", "tables", "dice")} == wanted, where
            rolled.append(where)
    assert len(rolled) >= len(plan)
    assert _foreign(requests) == []


def test_tickleiste_keeps_its_state_offline_and_a_roll_is_copied_as_text(
    offline: tuple[Any, list[str]], export: Unzipped
) -> None:
    """The Ryssea Tickleiste from file://: add, start, act, reload – the board is still there
    (000_5fbfd0ad384a0921.txt L17–L45; state in localStorage of the file:// origin)."""
    page, requests = offline
    page.context.add_init_script(RECORDER)  # test_csp.py: no policy violation offline either
    page.goto(export.url("ryssea/kampfhelfer.html"))
    _wait_ready(page)
    board = page.locator(".rw-tickleiste")
    for name, ini in (("Offline-Alrik", "12"), ("Offline-Bruna", "9")):
        board.locator("[data-path='name']").fill(name)
        board.locator("[data-path='ini']").fill(ini)
        board.get_by_role("button", name="Kämpfer hinzufügen").click()
        board.locator(".rw-result").get_by_text(f"{name} wartet").first.wait_for()
    board.get_by_role("button", name="Kampf beginnen (Initiative würfeln)").click()
    board.locator(".rw-result table").wait_for()
    board.locator("select[data-path='action']").select_option("aktive_abwehr")
    board.get_by_role("button", name="Handlung ausführen").click()
    board.get_by_text("Aktive Abwehr (4 Ticks)").first.wait_for()
    rows = board.locator(".rw-result tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
    )
    page.reload()
    board = page.locator(".rw-tickleiste")
    board.locator(".rw-result table").wait_for()
    again = board.locator(".rw-result tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
    )
    assert again == rows
    assert _foreign(requests) == []
    # the same visit (its second boot) shares a roll: as text, there is no published site
    _copied_as_text(page, requests, export)
    assert page.evaluate("sessionStorage.getItem('csp')") in (None, "[]")


# ------------------------------------------------------------------- sharing a roll offline
# Issue #30: „Link kopieren“ in the export copied file:///…/kampfhelfer.html#wurf=… – a folder
# on that computer, which opens nowhere else. share.js's header: a link to the published page
# when the export's build knew it (site_url, REGELWERK_SITE_URL in CI), else the roll as text.

PUBLISHED = "https://regelwerk.example/hausregeln/"  # never requested: the test only reads it
KAMPFHELFER = "ryssea/kampfhelfer"
ATTACK = "section.rw-helper[data-action='attack']"


@pytest.fixture(scope="module")
def published_export(export: Unzipped, tmp_path_factory: pytest.TempPathFactory) -> Unzipped:
    """The export as a build that knows the published site writes it (Unzipped.published)."""
    return export.published(tmp_path_factory.mktemp("veroeffentlicht"), PUBLISHED)


def test_the_export_build_takes_the_published_site_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """harness/offline_export.py hands site_url to the export's build as REGELWERK_SITE_URL;
    mkdocs-offline.yml (INHERIT: mkdocs.yml, site_url: !ENV …) and its offline plugin read it."""
    monkeypatch.setenv("REGELWERK_SITE_URL", PUBLISHED)
    config = load_config(str(ROOT / "mkdocs-offline.yml"))
    assert config.site_url == PUBLISHED
    assert any(isinstance(p, plugin.OfflinePlugin) for p in config.plugins.values())


def _roll_attack_and_copy(page: Any, url: str) -> tuple[Any, str, str]:
    """Open the Ryssea Kampfhelfer from file://, roll an attack with values of its own, press
    the share button: (the helper, the button's words, what reached the clipboard)."""
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    if unquote(page.url) != unquote(url):  # already there: no second boot
        page.goto(url)
    _wait_ready(page)
    helper = reveal(page.locator(ATTACK).first)
    helper.locator("[data-path='eig1']").fill("14")
    helper.locator("[data-path='taw']").fill("8")
    helper.locator("[data-path='verteidigung']").fill("17")
    evaluate_one(helper.locator("details.rw-advanced"), "details => { details.open = true; }")
    helper.locator("[data-path='seed']").fill("4242")
    helper.locator(".rw-submit").click()
    helper.locator(".rw-result .rw-share-copy").wait_for(timeout=ENGINE_READY_MS)
    button = helper.locator(".rw-result .rw-share-copy")
    words = button.inner_text()
    button.click()
    helper.locator(".rw-share-link").wait_for()
    copied = str(page.evaluate("navigator.clipboard.readText()"))
    assert copied == helper.locator(".rw-share-link").input_value()
    return helper, words, copied


def _copied_as_text(page: Any, requests: list[str], export: Unzipped) -> None:
    """„Link kopieren“ in the export without a published site copies the roll as text
    (issue #30; test_tickleiste_keeps_its_state_offline_and_a_roll_is_copied_as_text calls it)."""
    helper, words, copied = _roll_attack_and_copy(page, export.url(f"{KAMPFHELFER}.html"))
    assert words == "Wurf als Text kopieren"
    assert "file:" not in copied and "#wurf=" not in copied, copied
    assert str(export.root) not in copied
    outcome = helper.locator(".rw-outcome").inner_text()
    dice = helper.locator(".rw-result .rw-die").all_inner_texts()
    lines = copied.split("\n")
    assert lines[0].startswith("Angriff"), copied  # the helper, then the page
    assert lines[1].startswith("Werte: ") and "14" in lines[1] and "17" in lines[1], copied
    assert all(die in copied for die in dice), (dice, copied)
    assert outcome in copied and "Wurfnummer 4242" in copied, copied
    assert "als Text" in helper.locator(".rw-share-status").inner_text()
    assert _foreign(requests) == []


def test_offline_link_points_to_the_published_page_and_replays_there(
    offline: tuple[Any, list[str]],
    published_export: Unzipped,
    browsers: Browsers,
    site_url: str,
) -> None:
    page, requests = offline
    helper, words, copied = _roll_attack_and_copy(page, published_export.url(f"{KAMPFHELFER}.html"))
    assert words == "Link kopieren"
    assert copied.startswith(f"{PUBLISHED}{KAMPFHELFER}/#wurf=1/"), copied
    assert "file:" not in copied
    shown = evaluate_one(helper.locator(".rw-result"), SHOWN_DOM)
    assert _foreign(requests) == []  # the published address is only written, never asked
    # the same page of the published site (here: the suite's own build, served at site_url)
    other = browsers.page(375)
    other.goto(copied.replace(PUBLISHED, site_url, 1))
    shared = other.locator(ATTACK).first
    shared.locator(".rw-replayed").wait_for(timeout=ENGINE_READY_MS)
    assert evaluate_one(shared.locator(".rw-result"), SHOWN_DOM) == shown
    other.context.close()


def test_only_a_published_site_url_is_linked() -> None:
    """site_plugins/offline: mkdocs.yml's default (this computer) is no address to share."""
    assert plugin.published_root("http://127.0.0.1:8000/") is None
    assert plugin.published_root("http://localhost:8000/") is None
    assert plugin.published_root(None) is None
    assert plugin.published_root("https://gruppe.github.io/regelwerk") == (
        "https://gruppe.github.io/regelwerk/"
    )
    assert plugin.published_page(PUBLISHED, "dsa/kampfhelfer.md") == f"{PUBLISHED}dsa/kampfhelfer/"
    assert plugin.published_page(PUBLISHED, "index.md") == PUBLISHED
