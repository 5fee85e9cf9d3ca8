"""German search without a browser: Material's real search worker runs in Node.

The built search index is handed to Material's own worker script
(``assets/javascripts/workers/search.*.min.js``, which builds the lunr index with the German
stemmer), queries go through our search language first (``assets/regelwerk-suche/
suche-deutsch.js``, which the page script ``suche.js`` loads when the reader searches) and its
answers through that script's ranking (for the system of the page the search starts on),
exactly as in the browser. Fast (about a second) and independent of Chromium. The online build
keeps the index's documents apart (``search/search_docs.json``, fetched by the held search
worker when a reader searches; ``search_index.json`` keeps the config): the worker gets them
together, as here.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from mkdocs.exceptions import PluginError

from site_plugins.suche.plugin import LANGUAGE_SCRIPT, SCRIPT, index_words, system_labels
from tests.conftest import search_labels

QUERIES = Path(__file__).with_name("search_queries.yml")

# Node: Material's worker in one VM context (with a synchronous importScripts), our page script
# in another; prints {"transforms": {text: sent}, "results": [per query: the first pages, each
# {"first": its best hit's location, "title": its article's title, "scores": [its scores]}]}.
HARNESS = r"""
const fs = require("fs");
const path = require("path");
const vm = require("vm");
const [site, input] = process.argv.slice(-2);
const { transforms, queries } = JSON.parse(fs.readFileSync(input, "utf8"));
const workers = path.join(site, "assets/javascripts/workers");
const file = fs.readdirSync(workers).find((name) => /^search\.[0-9a-f]+\.min\.js$/.test(name));
const replies = [];
let onMessage = null;
const worker = {
  console,
  addEventListener: (type, fn) => { if (type === "message") onMessage = fn; },
  postMessage: (message) => replies.push(message),
  importScripts: (...urls) => {
    for (const url of urls) {
      vm.runInContext(fs.readFileSync(path.resolve(workers, url), "utf8"), worker);
    }
  },
};
worker.self = worker;
vm.createContext(worker);
vm.runInContext(fs.readFileSync(path.join(workers, file), "utf8"), worker);
const page = { console };
vm.createContext(page);
vm.runInContext(fs.readFileSync(path.join(site, process.env.SCRIPT), "utf8"), page);
const index = JSON.parse(fs.readFileSync(path.join(site, "search/search_index.json"), "utf8"));
index.docs = JSON.parse(fs.readFileSync(path.join(site, "search/search_docs.json"), "utf8"));
async function ask(message) {
  await onMessage({ data: message });
  return replies.pop();
}
(async () => {
  const setup = { config: index.config, docs: index.docs, options: { suggest: false } };
  await ask({ type: 0, data: setup });
  const out = { transforms: {}, results: [] };
  for (const text of transforms) out.transforms[text] = page.regelwerkSuche.transform(text);
  for (const [query, auf] of queries) {
    const { text, words } = page.regelwerkSuche.plan(query);
    const reply = await ask({ type: 2, data: text });
    const system = page.regelwerkSuche.systemOf(auf);
    const { items } = page.regelwerkSuche.rank(reply.data, system, words);
    out.results.push(items.slice(0, 8).map((group) => ({
      first: group[0].location,
      title: group.find((item) => !item.location.includes("#")).title,
      scores: group.map((item) => item.score),
    })));
  }
  process.stdout.write(JSON.stringify(out));
})();
"""

TRANSFORMS = {
    "Rüstungen": "rustung",  # umlaut folded, plural ending stemmed
    "Würfeln": "wurfel",  # dative plural -n after -el
    "Rüstungen Kampfrunden": "rustung kampfrund",
    "Rüst": "rust",  # a word still being typed stays a prefix
    "Kolossangriffe": "+koloss angriff",  # compound the text never uses
    "+Rüstungen": "+Rüstungen",  # lunr syntax: lunr's own pipeline stems it
    '"Rüstungen Kampfrunden"': '"Rüstungen Kampfrunden"',
    "Rüstung~1": "Rüstung~1",
    "title:Rüstung": "title:Rüstung",
    "Rüstung*": "rustung*",
    "W20": "w20",
    "Angriff von hinten": "angriff hint",  # stop words: the index has none
    "Angriff und*": "angriff und*",  # … unless asked for as a prefix
    "über": "uber",  # a stop word alone stays
    # ae/oe/ue typed for ä/ö/ü (issue #30) – a word the index knows as typed stays
    "Ruestung": "rustung",
    "Wuerfel": "wurfel",
    "Ueberraschung": "uberrasch",
    "Gelaende": "geland",
    "Feuer": "feu",  # a real „ue“: „Feuer“, not „Feür“
    "neue": "neu",
    "Mauern": "mau",
    "Quelle": "quell",
}
# Without a German keyboard: ae/oe/ue for ä/ö/ü, ss for ß. Each spelling must find exactly
# what the umlaut spelling finds (the same pages, the same first hits, in the same order).
SPELLINGS = {
    "Ueberraschung": "Überraschung",
    "Ruestung": "Rüstung",
    "Wuerfel": "Würfel",
    "Strasse": "Straße",
    "Gelaende": "Gelände",
    "Ueberraschungsangriffe": "Überraschungsangriffe",  # a compound the text never uses
    "Schildstoesse": "Schildstöße",
}
# The system labels (mkdocs.yml, regelwerk-suche: systeme).
LABELS = search_labels()  # read: another group's system is covered without an edit
GENERAL = "Allgemein"
LABEL = '<span class="rw-suche-system">{}</span>'


def load_queries() -> list[dict[str, str]]:
    """The entries: ``suche`` (the query), ``seite`` (the expected first hit: a page, or with an
    anchor that section) and ``auf`` (the page the search starts on; the home page if absent)."""
    entries = yaml.safe_load(QUERIES.read_text(encoding="utf-8"))
    assert isinstance(entries, list)
    return [
        {"suche": str(e["suche"]), "seite": str(e["seite"]), "auf": str(e.get("auf", ""))}
        for e in entries
    ]


def entry_id(entry: dict[str, str]) -> str:
    return f"{entry['suche']} auf {entry['auf']}" if entry["auf"] else entry["suche"]


ENTRIES = load_queries()


def page_of(location: str) -> str:
    return location.split("#", 1)[0]


def label_of(location: str) -> str:
    return LABELS.get(location.split("/", 1)[0], GENERAL) if "/" in page_of(location) else GENERAL


@pytest.fixture(scope="module")
def node_search(built_site: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not installed (it comes with npm, which the build needs)")
    data = tmp_path_factory.mktemp("search") / "input.json"
    queries = [[entry["suche"], entry["auf"]] for entry in ENTRIES]
    queries += [[text, ""] for pair in SPELLINGS.items() for text in pair]
    data.write_text(json.dumps({"transforms": list(TRANSFORMS), "queries": queries}), "utf-8")
    proc = subprocess.run(
        [node, "-e", HARNESS, str(built_site), str(data)],
        capture_output=True,
        text=True,
        timeout=60,
        env={"SCRIPT": LANGUAGE_SCRIPT, "PATH": str(Path(node).parent)},
    )
    assert proc.returncode == 0, proc.stderr
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


def test_query_set_has_at_least_twenty_entries() -> None:
    entries = ENTRIES
    assert len(entries) >= 20
    assert len({(e["suche"], e["auf"]) for e in entries}) == len(entries)


def whole_index(site: Path) -> dict[str, Any]:
    """The index as the held search worker hands it to Material's: config and documents."""
    index: dict[str, Any] = json.loads((site / "search/search_index.json").read_text("utf-8"))
    assert index["docs"] == []  # a page loads only the config
    index["docs"] = json.loads((site / "search/search_docs.json").read_text("utf-8"))
    return index


def test_index_is_configured_for_german_stemming(built_site: Path) -> None:
    index = whole_index(built_site)
    config = index["config"]
    assert config["lang"] == ["de"]
    assert "stemmer" in config["pipeline"]
    assert "trimmer" not in config["pipeline"]  # it would strip digits: "W20" → "w"
    boosts = {
        d.get("boost") for d in index["docs"] if d["location"].startswith("fehlende-kapitel/")
    }
    assert boosts == {0.2}
    assert not any(d["location"].split("/")[1:2] == ["druck"] for d in index["docs"])


def test_page_script_wraps_materials_german_stemmer(built_site: Path) -> None:
    """The page lists the hook alone; the stemmer and the index's words are the script it
    loads when the reader searches (#46: a page loads only the code it uses)."""
    script = (built_site / LANGUAGE_SCRIPT).read_text("utf-8")
    assert "Lunr languages, `German` language" in script
    assert "var WOERTER = [" in script
    html = (built_site / "index.html").read_text("utf-8")
    assert SCRIPT in html
    assert LANGUAGE_SCRIPT.rsplit("/", 1)[1] not in html
    hook = (built_site / SCRIPT).read_text("utf-8")
    assert "WOERTER" not in hook and "Lunr languages" not in hook


def test_index_words_are_lowercase_words_without_markup() -> None:
    index = {"docs": [{"title": "Rüstung", "text": "<p>Die Kampfrunde, 2W6 & <b>Patzer</b></p>"}]}
    assert index_words(index) == ["kampfrunde", "patzer", "rüstung"]


@pytest.mark.parametrize(("text", "sent"), TRANSFORMS.items())
def test_query_transform(node_search: dict[str, Any], text: str, sent: str) -> None:
    assert node_search["transforms"][text] == sent


def test_system_labels_are_checked(tmp_path: Path) -> None:
    for folder in ("ryssea", "dsa"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "index.md").write_text("# x\n", "utf-8")
    (tmp_path / "bilder").mkdir()  # no pages: needs no label
    assert system_labels(tmp_path, {"ryssea": "Ryssea", "dsa": "DSA 4.1"}) == {
        "ryssea": "Ryssea",
        "dsa": "DSA 4.1",
    }
    with pytest.raises(PluginError, match="Label für \\['dsa'\\]"):
        system_labels(tmp_path, {"ryssea": "Ryssea"})
    with pytest.raises(PluginError, match="unbekannte Ordner \\['gurps'\\]"):
        system_labels(tmp_path, {"ryssea": "Ryssea", "dsa": "DSA", "gurps": "GURPS"})
    with pytest.raises(PluginError, match="leeres Label"):
        system_labels(tmp_path, {"ryssea": "Ryssea", "dsa": " "})


def test_script_knows_the_system_labels(built_site: Path) -> None:
    script = (built_site / LANGUAGE_SCRIPT).read_text("utf-8")
    assert f"var SYSTEME = {json.dumps(LABELS, ensure_ascii=False)};" in script
    assert 'var ALLGEMEIN = "Allgemein";' in script
    assert "var STOPWORDS = host.stopWords || [];" in script


def test_index_is_free_of_labels(built_site: Path) -> None:
    """The labels are added to the results, not to the index: they never match a query."""
    index = json.dumps(whole_index(built_site), ensure_ascii=False)
    assert "rw-suche-system" not in index


@pytest.mark.parametrize(("typed", "umlauts"), SPELLINGS.items())
def test_spelling_without_umlauts_finds_the_same(
    node_search: dict[str, Any], typed: str, umlauts: str
) -> None:
    """Issue #30: „Ueberraschung“ found nothing, „Überraschung“ five pages."""
    at = len(ENTRIES) + 2 * list(SPELLINGS).index(typed)
    found, expected = node_search["results"][at : at + 2]
    assert expected, f"{umlauts}: keine Treffer"
    assert [hit["first"] for hit in found] == [hit["first"] for hit in expected]


@pytest.mark.parametrize("entry", ENTRIES, ids=entry_id)
def test_first_hit(node_search: dict[str, Any], entry: dict[str, str]) -> None:
    hits = node_search["results"][ENTRIES.index(entry)]
    assert hits, f"{entry_id(entry)}: keine Treffer"
    first = hits[0]["first"] if "#" in entry["seite"] else page_of(hits[0]["first"])
    assert first == entry["seite"], f"{entry_id(entry)}: {[hit['first'] for hit in hits]}"


def test_every_result_shows_its_system(node_search: dict[str, Any]) -> None:
    seen = set()
    for results in node_search["results"]:
        for hit in results:
            label = label_of(hit["first"])
            assert hit["title"].startswith(LABEL.format(label)), hit
            assert hit["title"].count("rw-suche-system") == 1, hit
            seen.add(label)
    assert seen == {*LABELS.values(), GENERAL}


def test_scores_follow_the_order_shown(node_search: dict[str, Any]) -> None:
    """Material folds the items of a page that score below its first one and opens the result
    of highest score on Enter: the rewritten scores must follow the ranked order."""
    for results in node_search["results"]:
        tops = [hit["scores"][0] for hit in results]
        assert tops == sorted(tops, reverse=True)
        for hit in results:
            assert hit["scores"][0] == max(hit["scores"])
