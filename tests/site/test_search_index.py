"""German search without a browser: Material's real search worker runs in Node.

The built ``search/search_index.json`` is handed to Material's own worker script
(``assets/javascripts/workers/search.*.min.js``, which builds the lunr index with the German
stemmer), queries go through our page script (``assets/regelwerk-suche/suche.js``) first,
exactly as in the browser. Fast (about a second) and independent of Chromium.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from site_plugins.search_de import SCRIPT, index_words

QUERIES = Path(__file__).with_name("search_queries.yml")

# Node: Material's worker in one VM context (with a synchronous importScripts), our page script
# in another; prints {"transforms": {text: sent}, "results": {query: [first locations]}}.
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
async function ask(message) {
  await onMessage({ data: message });
  return replies.pop();
}
(async () => {
  const setup = { config: index.config, docs: index.docs, options: { suggest: false } };
  await ask({ type: 0, data: setup });
  const out = { transforms: {}, results: {} };
  for (const text of transforms) out.transforms[text] = page.regelwerkSuche.transform(text);
  for (const query of queries) {
    const reply = await ask({ type: 2, data: page.regelwerkSuche.transform(query) });
    out.results[query] = reply.data.items.slice(0, 5).map((group) => group[0].location);
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
}


def load_queries() -> list[dict[str, str]]:
    entries = yaml.safe_load(QUERIES.read_text(encoding="utf-8"))
    assert isinstance(entries, list)
    return [{"suche": str(e["suche"]), "seite": str(e["seite"])} for e in entries]


def page_of(location: str) -> str:
    return location.split("#", 1)[0]


@pytest.fixture(scope="module")
def node_search(built_site: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not installed (it comes with npm, which the build needs)")
    data = tmp_path_factory.mktemp("search") / "input.json"
    queries = [entry["suche"] for entry in load_queries()]
    data.write_text(json.dumps({"transforms": list(TRANSFORMS), "queries": queries}), "utf-8")
    proc = subprocess.run(
        [node, "-e", HARNESS, str(built_site), str(data)],
        capture_output=True,
        text=True,
        timeout=60,
        env={"SCRIPT": SCRIPT, "PATH": str(Path(node).parent)},
    )
    assert proc.returncode == 0, proc.stderr
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


def test_query_set_has_at_least_twenty_entries() -> None:
    entries = load_queries()
    assert len(entries) >= 20
    assert len({e["suche"] for e in entries}) == len(entries)


def test_index_is_configured_for_german_stemming(built_site: Path) -> None:
    index = json.loads((built_site / "search/search_index.json").read_text("utf-8"))
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
    script = (built_site / SCRIPT).read_text("utf-8")
    assert "Lunr languages, `German` language" in script
    assert "var WOERTER = [" in script
    html = (built_site / "index.html").read_text("utf-8")
    assert SCRIPT in html


def test_index_words_are_lowercase_words_without_markup() -> None:
    index = {"docs": [{"title": "Rüstung", "text": "<p>Die Kampfrunde, 2W6 & <b>Patzer</b></p>"}]}
    assert index_words(index) == ["kampfrunde", "patzer", "rüstung"]


@pytest.mark.parametrize(("text", "sent"), TRANSFORMS.items())
def test_query_transform(node_search: dict[str, Any], text: str, sent: str) -> None:
    assert node_search["transforms"][text] == sent


@pytest.mark.parametrize("entry", load_queries(), ids=lambda e: e["suche"])
def test_first_hit(node_search: dict[str, Any], entry: dict[str, str]) -> None:
    hits = node_search["results"][entry["suche"]]
    assert hits, f"{entry['suche']}: keine Treffer"
    assert page_of(hits[0]) == entry["seite"], f"{entry['suche']}: {hits}"
