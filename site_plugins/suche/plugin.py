"""The ``regelwerk-suche`` MkDocs plugin: German stemming for Material's built-in search.

Material's search worker builds its lunr index in the browser from ``search_index.json``.
With ``search.pipeline: [stopWordFilter, stemmer]`` (documented Material configuration) it
stems every indexed word with lunr-languages' German Snowball stemmer, keeping the word
positions, so highlighting still works. Query terms, however, get a trailing wildcard and lunr
skips its pipeline for those: unstemmed queries miss stemmed terms. This plugin therefore
ships one classic script that stems the query with the *same* stemmer file (Material's own
``lunr.de.min.js``) before Material's page script posts it to the worker, drops German stop
words from queries of several words (the index has none), tries a word the index does not know
in its other German spelling (ae/oe/ue ↔ ä/ö/ü: „Ruestung“ finds what „Rüstung“ finds; ß and ss
are one stem already), and splits compound words the text never uses into parts it does. It
works unchanged from ``file://``: classic scripts, no fetch, no module. Every page loads only
the hook (``suche.js``, ≈ 2 KB gzipped); the stemmer, the index's words and the ranking
(``suche-deutsch.js``, ≈ 20 KB) follow when the reader opens the search field or sends a
query (issue #46: a page loads only the code it uses).

The search knows the systems (option ``systeme``: top folder of ``docs/`` → label; every
folder with pages needs one). The script ranks the worker's results again before Material
renders them – the index and the query stay as they are, so the label never matches and
highlighting is Material's own:

1. A page that holds more of the query's words (in any of its sections) comes before a page
   that holds fewer: "Deckung Fernkampf" finds the page with both words first, even if a page
   with only one of them in its title scores higher. Within a page, the section that holds
   more of the words comes first, so Material shows it instead of folding it behind
   "weitere Suchergebnisse".
2. Among pages that hold equally many of the words, a search started on a page of system X
   (the first folder of the page's URL, relative to the site) puts the pages of X first: a
   reader of Pathfinder searching "Patzer" gets Pathfinder's rule before Ryssea's table. A
   page of another system that holds more of the query's words still comes first (rule 1).
   On general pages (the home page, ``fehlende-kapitel``, …) this step does nothing.
3. Otherwise Material's order (its score, with its title boost and per-page ``search.boost``).

Every page result shows its system's label (option ``allgemein`` for general pages) before
its title. The rewritten scores follow this order, so Material's Enter key opens the first
result shown. Material's suggestions are dropped (they would be index stems).

How the script gets in between: it wraps ``Worker.prototype.postMessage`` (the query Material
sends) and the ``data`` of the search worker's message events (the answer, read by Material's
listener, which its bundle added before ``extra_javascript`` runs); both work the same for the
real worker online and the iframe-worker shim from ``file://``.

Documented MkDocs events only:
- ``on_config``: checks the search configuration and the system labels, adds the hook to
  ``extra_javascript`` and its stylesheet to ``extra_css``;
- ``on_files``: adds the hook and the stylesheet;
- ``on_page_markdown``: applies the configured per-page search boosts (Material's
  ``search.boost`` page setting);
- ``on_post_build`` (after Material's search plugin, before its offline plugin): writes
  ``suche-deutsch.js``, with the words of the finished search index for the compound splitter.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from mkdocs.config import config_options
from mkdocs.config.base import Config
from mkdocs.config.config_options import ExtraScriptValue
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.utils import get_theme_dir as mkdocs_theme_dir

ASSETS = Path(__file__).resolve().parent / "assets"
# Material's bundled lunr-languages files (the same files its search worker loads).
LUNR = Path(mkdocs_theme_dir("material")) / "assets/javascripts/lunr/min"
SCRIPT = "assets/regelwerk-suche/suche.js"  # the hook, on every page
LANGUAGE_SCRIPT = "assets/regelwerk-suche/suche-deutsch.js"  # loaded by the hook
STYLESHEET = "assets/regelwerk-suche/suche.css"
WORD = re.compile(r"[a-zäöüß]{4,}")
TAG = re.compile(r"<[^>]+>")

# The stemmer files define themselves on a `lunr` object; on the page there is none (Material
# keeps lunr inside its worker), so they get a minimal host that offers what they call; it
# keeps the German stop word list.
PROLOGUE = """\
var host = { lunr: {
  Pipeline: { registerFunction: function () {} },
  generateStopWordFilter: function (words) {
    host.stopWords = words;
    return function (token) { return token; };
  }
} };
"""


class SucheConfig(Config):  # type: ignore[no-untyped-call]
    # Page (source path) → Material's documented per-page search boost, e.g. to rank a page
    # that only lists what is missing below the pages that hold the rules.
    boost = config_options.Type(dict, default={})
    # Top folder of docs/ → the system's label in the search results; a search started on a
    # page of that folder ranks its pages first. Every folder with pages needs a label.
    systeme = config_options.Type(dict, default={})
    # The label of the pages outside the system folders (home page, missing chapters, …).
    allgemein = config_options.Type(str, default="Allgemein")


def index_words(index: dict[str, Any]) -> list[str]:
    """The lowercase words (4+ letters) of all titles and texts in a search index, sorted."""
    words: set[str] = set()
    for doc in index.get("docs", []):
        text = TAG.sub(" ", f"{doc.get('title', '')} {doc.get('text', '')}").lower()
        words.update(WORD.findall(text))
    return sorted(words)


def system_labels(docs_dir: Path, labels: dict[Any, Any]) -> dict[str, str]:
    """The configured labels, checked: each names a folder of ``docs_dir`` with pages, and
    every such folder has a non-empty label."""
    systems = {str(folder): str(label).strip() for folder, label in labels.items()}
    folders = {
        path.name for path in docs_dir.iterdir() if path.is_dir() and any(path.rglob("*.md"))
    }
    unknown = sorted(set(systems) - folders)
    if unknown:
        raise PluginError(f"regelwerk-suche: systeme für unbekannte Ordner {unknown}")
    missing = sorted(folders - set(systems))
    if missing:
        raise PluginError(f"regelwerk-suche: systeme braucht ein Label für {missing}")
    empty = sorted(folder for folder, label in systems.items() if not label)
    if empty:
        raise PluginError(f"regelwerk-suche: leeres Label für {empty}")
    return systems


def build_script(
    separator: str, words: list[str], systems: dict[str, str], general: str = "Allgemein"
) -> str:
    """Material's German stemmer files and our query language (``deutsch.js``), wrapped into
    one classic script (``LANGUAGE_SCRIPT``)."""
    parts = [
        "// Generated by site_plugins/suche/plugin.py – do not edit.",
        "(function () {",
        PROLOGUE,
    ]
    for name in ("lunr.stemmer.support.min.js", "lunr.de.min.js"):
        parts += ["(function () {", (LUNR / name).read_text(encoding="utf-8"), "}).call(host);"]
    parts += [
        "var stemmer = host.lunr.de.stemmer;",
        "var STOPWORDS = host.stopWords || [];",
        f"var SEPARATOR = new RegExp({json.dumps(separator)});",
        f"var WOERTER = {json.dumps(words, ensure_ascii=False)};",
        f"var SYSTEME = {json.dumps(systems, ensure_ascii=False)};",
        f"var ALLGEMEIN = {json.dumps(general, ensure_ascii=False)};",
        "(function () {",
        (ASSETS / "deutsch.js").read_text(encoding="utf-8"),
        "})();",
        "})();",
        "",
    ]
    return "\n".join(parts)


class GermanSearchPlugin(BasePlugin[SucheConfig]):  # type: ignore[no-untyped-call]
    def __init__(self) -> None:
        self.separator = ""
        self.systems: dict[str, str] = {}

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        for name in self.config.boost:
            if not (Path(config.docs_dir) / str(name)).is_file():
                raise PluginError(f"regelwerk-suche: boost für unbekannte Seite {name!r}")
        search = config.plugins.get("material/search") or config.plugins.get("search")
        if search is None:
            raise PluginError("regelwerk-suche: braucht Materials `search`-Plugin")
        options = search.config
        if list(options.lang or []) != ["de"] or "stemmer" not in (options.pipeline or []):
            raise PluginError(
                "regelwerk-suche: `search` braucht `lang: de` und `stemmer` in `pipeline`"
            )
        self.separator = str(options.separator)
        self.systems = system_labels(Path(config.docs_dir), self.config.systeme)
        if not any(str(script) == SCRIPT for script in config.extra_javascript):
            config.extra_javascript.append(ExtraScriptValue(SCRIPT))
        if STYLESHEET not in config.extra_css:
            config.extra_css.append(STYLESHEET)
        return config

    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> Files:
        files.append(File.generated(config, SCRIPT, abs_src_path=str(ASSETS / "suche.js")))
        files.append(File.generated(config, STYLESHEET, abs_src_path=str(ASSETS / "suche.css")))
        return files

    def on_page_markdown(
        self, markdown: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        boost = self.config.boost.get(page.file.src_uri)
        if boost is not None:
            search = page.meta.setdefault("search", {})
            if isinstance(search, dict):
                search.setdefault("boost", float(boost))
        return markdown

    @event_priority(-50)  # after Material's search plugin (0), before its offline plugin (-100)
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        path = Path(config.site_dir) / "search" / "search_index.json"
        if not path.exists():
            raise PluginError(f"regelwerk-suche: {path} fehlt")
        words = index_words(json.loads(path.read_text(encoding="utf-8")))
        target = Path(config.site_dir) / LANGUAGE_SCRIPT
        target.parent.mkdir(parents=True, exist_ok=True)
        script = build_script(self.separator, words, self.systems, self.config.allgemein)
        target.write_text(script, encoding="utf-8")
