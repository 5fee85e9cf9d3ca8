"""Every roll helper on every page of the built site, rolled in Chromium, compared with the engine.

The helpers are discovered from the built HTML (``.rw-helper[data-system][data-action]``) and
grouped by page, so each page loads (and boots Pyodide) once. For each helper the test sets a
fixed seed, clicks „Würfeln“, reads the form's parameters exactly as ``forms.js`` collects
them, and asserts that the page shows the outcome, the table rows and the dice faces of
``engine.api.run`` with those parameters and that seed. For one helper per system the real CLI
(``python -m engine SYSTEM ACTION --json --seed N --params …``) is run too and must print the
same JSON.

Without the browser: the ``vorgaben`` of every ```helfer fence name real fields with valid
values, and helper ids are unique on every built page.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
import yaml

import engine
from engine import api
from tests.browser.conftest import SharedVisit, evaluate_one, reveal, roll_seeded
from tests.conftest import ROOT, rule_systems

DOCS = ROOT / "docs"
SEED = 4711
# Field types the generated forms know; an action with other parameters (e.g. the Tickleiste's
# ``state``) has its own widget and is not a plain helper form.
FORM_TYPES = {"int", "bool", "text", "choice", "dice", "list"}

# The page's own forms.js ``collect`` (exported as ``window.Regelwerk.collect``): the params
# compared with the engine are exactly what the page sends.
COLLECT = "(helper) => window.Regelwerk.collect(helper)"

SHOWN = """(helper) => {
  const result = helper.querySelector(".rw-result");
  const text = (sel) => {
    const el = result.querySelector(sel);
    return el ? el.textContent : null;
  };
  return {
    headline: text(".rw-headline"),
    outcome: text(".rw-outcome"),
    seed: text(".rw-seed"),
    share: result.querySelector(".rw-share-copy") !== null,
    tables: [...result.querySelectorAll(".rw-table")].map((table) =>
      [...table.tBodies[0].rows].map((row) => [...row.cells].map((cell) => cell.textContent))),
    dice: [...result.querySelectorAll(".rw-die")].map((die) => die.textContent),
  };
}"""


# ------------------------------------------------------------------------------ discovery


class _Helpers(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[dict[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if "rw-helper" in values.get("class", "").split() and "data-action" in values:
            self.found.append(
                {
                    "id": values["id"],
                    "system": values["data-system"],
                    "action": values["data-action"],
                }
            )


def helpers_in(html: str) -> list[dict[str, str]]:
    parser = _Helpers()
    parser.feed(html)
    return parser.found


def page_url(html_file: Path, site: Path) -> str:
    rel = html_file.relative_to(site).as_posix()
    return rel[: -len("index.html")] if rel.endswith("index.html") else rel


def md_url(md_file: Path) -> str:
    rel = md_file.relative_to(DOCS).with_suffix("").as_posix()
    if rel == "index":
        return ""
    return (rel[: -len("/index")] if rel.endswith("/index") else rel) + "/"


def fences(md_file: Path) -> list[dict[str, Any]]:
    text = md_file.read_text(encoding="utf-8")
    out = []
    for block in re.findall(r"^```helfer\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL):
        spec = yaml.safe_load(block)
        assert isinstance(spec, dict), f"{md_file}: helfer block is not a mapping"
        out.append(spec)
    return out


# The pages with helpers, known at collection time from the Markdown sources; the first test
# proves that the built site has helpers on exactly these pages.
PAGES = sorted(md_url(p) for p in DOCS.rglob("*.md") if "```helfer" in p.read_text("utf-8"))


def form_helper(system: str, action: str) -> bool:
    schema = engine.describe(system, action)
    return all(p["type"] in FORM_TYPES for p in schema["params"])


@pytest.fixture(scope="module")
def site_helpers(built_site: Path) -> dict[str, list[dict[str, str]]]:
    out = {}
    for html_file in sorted(built_site.rglob("*.html")):
        found = helpers_in(html_file.read_text(encoding="utf-8"))
        if found:
            out[page_url(html_file, built_site)] = found
    return out


# ------------------------------------------------------------------------------ without browser


def test_pages_with_helpers_are_the_ones_with_fences(
    site_helpers: dict[str, list[dict[str, str]]],
) -> None:
    assert sorted(site_helpers) == PAGES
    systems = {h["system"] for found in site_helpers.values() for h in found}
    assert systems == set(rule_systems())  # every system with pages has its helpers


def test_helper_ids_are_unique_per_page(site_helpers: dict[str, list[dict[str, str]]]) -> None:
    for url, found in site_helpers.items():
        ids = [h["id"] for h in found]
        assert len(ids) == len(set(ids)), f"{url}: doppelte Helfer-ids {ids}"


def fixed_text(system: str, action: str) -> bool:
    """An action without fields that rolls no dice answers always the same text (e.g. „the
    text has no Patzer rule“): it explains on a rule page, it is no tool for the Kampfhelfer
    page (issue 26: a Patzer tab whose „Würfeln“ answered „Keine Patzerregel im Text“)."""
    if engine.describe(system, action)["params"]:
        return False
    display = api.run(system, action, {}, 1)["result"]["display"]
    rolls = [i for s in display["sections"] if s["kind"] == "rolls" for i in s["items"]]
    return not any(item["dice"] for item in rolls)


def test_every_action_has_a_helper_on_its_kampfhelfer_page(
    site_helpers: dict[str, list[dict[str, str]]],
) -> None:
    for system in api.catalog()["systems"]:
        if system["name"] == "allgemein":
            continue
        url = f"{system['name']}/kampfhelfer/"
        shown = {h["action"] for h in site_helpers.get(url, [])}
        # every action of the system, custom widgets (the Tickleiste) included – except
        # Ryssea's initiative: on the working surface the Tickleiste rolls it (one tool for
        # the fight, not two); its own helper stays on the rule page – and an action that
        # only ever answers one fixed text (it stays on its rule page)
        wanted = {a["name"] for a in system["actions"] if not fixed_text(system["name"], a["name"])}
        if system["name"] == "ryssea":
            wanted.discard("initiative")
        assert shown == wanted, url
        placed = {
            h["action"]
            for page, found in site_helpers.items()
            if page != url and page.startswith(f"{system['name']}/")
            for h in found
        }
        assert wanted <= placed, f"{system['name']}: ohne Helfer im Regeltext: {wanted - placed}"


@pytest.mark.parametrize("md", sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")))
def test_vorgaben_name_real_fields_with_valid_values(md: str) -> None:
    for spec in fences(DOCS / md):
        system, action = str(spec["system"]), str(spec["aktion"])
        names = {p["name"] for p in engine.describe(system, action)["params"]}
        vorgaben = spec.get("vorgaben") or {}
        unknown = set(vorgaben) - names
        assert not unknown, f"{md}: {system}.{action}: unbekannte vorgaben {unknown}"
        # as the form sends them: the page's vorgaben over the schema's pre-filled values
        schema = engine.describe(system, action)["params"]
        form = {p["name"]: p["default"] for p in schema if p["type"] != "state"}
        result = api.run(system, action, form | vorgaben, seed=1)
        assert result["ok"], f"{md}: {system}.{action}: {result.get('error')}"


# ------------------------------------------------------------------------------ in the browser


def expected_display(result: dict[str, Any]) -> dict[str, Any]:
    """What the page shows for ``result``: a Wurfnummer and „Link kopieren“ only with dice
    (issue 26: none on results that involve no dice, e.g. a table read or a sum of entries)."""
    display = result["result"]["display"]
    sections = display["sections"]
    dice = [
        str(die["value"])
        for s in sections
        if s["kind"] == "rolls"
        for item in s["items"]
        for die in item["dice"]
    ]
    return {
        "headline": display["headline"],
        "outcome": display["outcome"],
        "seed": f"Wurfnummer {result['seed']}" if dice else None,
        "share": bool(dice),
        "tables": [s["rows"] for s in sections if s["kind"] == "table"],
        "dice": dice,
    }


def cli(system: str, action: str, params: dict[str, Any], seed: int) -> dict[str, Any]:
    args = [sys.executable, "-m", "engine", system, action, "--json", "--seed", str(seed)]
    args += ["--params", json.dumps(params, ensure_ascii=False)]
    out = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=True, timeout=120)
    return json.loads(out.stdout)


@pytest.mark.browser
@pytest.mark.parametrize("url", PAGES)
def test_page_helpers_show_what_the_engine_computes(
    url: str, reader: SharedVisit, site_helpers: dict[str, list[dict[str, str]]]
) -> None:
    """One page for the module (``SharedVisit.go``): each page reached as a reader's click."""
    helpers = [h for h in site_helpers.get(url, []) if form_helper(h["system"], h["action"])]
    assert helpers, f"{url}: keine Würfelhelfer gefunden"
    check_page(reader.go(url), url, helpers)


def check_page(page: Any, url: str, helpers: list[dict[str, str]]) -> None:
    # the real CLI once per system, on its Kampfhelfer page (the first helper there)
    use_cli = url.endswith("/kampfhelfer/")
    for index, helper in enumerate(helpers):
        seed = SEED + 97 * index
        box = reveal(page.locator(f"[id='{helper['id']}']"))
        # from the form as the page builds it (a helper remembers input from other pages)
        roll_seeded(box, seed)
        # the form's params and what the helper shows, read together (one round trip)
        params, shown = evaluate_one(box, f"(box) => [({COLLECT})(box), ({SHOWN})(box)]")
        expected = api.run(helper["system"], helper["action"], params, seed)
        where = f"{url}#{helper['id']} ({helper['system']}.{helper['action']}, Seed {seed})"
        assert expected["ok"], f"{where}: {expected.get('error')}"
        if use_cli and index == 0:
            printed = cli(helper["system"], helper["action"], params, seed)
            assert printed == json.loads(json.dumps(expected)), where
        assert shown == expected_display(expected), where
