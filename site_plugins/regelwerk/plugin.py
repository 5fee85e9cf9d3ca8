"""The ``regelwerk`` MkDocs plugin: the roll helpers on the pages.

Documented MkDocs events only:
- ``on_config``: the site's folder (:mod:`site_plugins.project`), its own rule folder
  (``regeln:``: YAML compiled to JSON, its systems registered with the engine – also under
  ``mkdocs serve`` before each build) and the fences ``helfer``, ``regeltabelle`` and
  ``meine-werte`` with pymdownx.superfences;
- ``on_files``: the tool pages every site has (``../pages/``: Meine Werte, Spieleransicht,
  Offline-Version – unless the site's docs have their own);
- ``on_nav``: where each helper's rule is (its link „Regel: …“);
- ``on_page_content``: a helper's heading fitted below its section, the fight contract on a
  Kampfhelfer page, dice expressions in the text as dice buttons;
- ``on_serve``: ``mkdocs serve`` also watches the rule data.

The browser runtime is ``regelwerk-laufzeit``, the abbreviations ``regelwerk-glossar``, the
policy ``regelwerk-csp``, the web app ``regelwerk-webapp`` (each a folder of its own).
"""

from __future__ import annotations

import json
import re
from functools import partial
from html import escape
from pathlib import Path
from typing import Any

import yaml
from markdown.extensions.toc import slugify as toc_slugify
from mkdocs.config import config_options
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.utils import get_relative_url

import engine
from engine import declarative, systems
from engine.data_files import DataError
from site_plugins import compile_data, project
from site_plugins.forms import render_helper, render_table
from site_plugins.inline_dice import link_dice

# The pages every site has (the package's): „Meine Werte“, „Spieleransicht“, „Offline-Version“;
# a site's own docs/ file of the same name replaces one
TOOL_PAGES = Path(__file__).resolve().parent.parent / "pages"
ENGINE_DIR = Path(engine.__file__).resolve().parent


class RegelwerkConfig(Config):  # type: ignore[no-untyped-call]
    # the site's own rule folder (YAML, compiled to JSON at each build): its systems join the
    # package's – a group's own site keeps its rules there (regelwerk-neue-seite)
    regeln = config_options.Type(str, default="")
    # systems whose dice buttons roll with Vorteil on Shift-click (Nachteil on Ctrl-click)
    vorteil_systeme = config_options.Type(list, default=[])


class RegelwerkPlugin(BasePlugin[RegelwerkConfig]):  # type: ignore[no-untyped-call]
    def __init__(self) -> None:
        self.rule_dirs: tuple[Path, ...] = ()
        # where each helper's rule is: (system, action) → (page file, anchor, heading, page title)
        self.rule_places: dict[tuple[str, str], tuple[File, str, str, str]] = {}
        self.page: Page | None = None
        self.serve = False
        # superfences turns a fence whose formatter raises into plain text; collect the
        # errors here and fail the build in on_page_content instead.
        self.fence_errors: list[str] = []

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.serve = command == "serve"

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        project.set_folder(Path(config.config_file_path).parent)
        self.rule_dirs = (project.folder() / self.config.regeln,) if self.config.regeln else ()
        if self.serve or self.rule_dirs:
            self._compile_data()
        fences = config.mdx_configs.setdefault("pymdownx.superfences", {})
        custom = fences.setdefault("custom_fences", [])
        custom.append({"name": "helfer", "class": "helfer", "format": partial(_helper_fence, self)})
        custom.append(
            {"name": "regeltabelle", "class": "regeltabelle", "format": partial(_table_fence, self)}
        )
        custom.append({"name": "meine-werte", "class": "meine-werte", "format": _saved_fence})
        if "pymdownx.superfences" not in config.markdown_extensions:
            raise PluginError("regelwerk: pymdownx.superfences muss in markdown_extensions stehen")
        return config

    def _compile_data(self) -> None:
        """The rule data as edited (YAML → JSON) before each build – the site's own folder
        always, the package's under ``make serve`` –; declared actions are registered again,
        so their forms follow (Python systems read their data once: after editing one of their
        files, restart ``make serve``)."""
        package_data = ENGINE_DIR / "data"  # systems the engine itself ships (if any)
        own = [package_data] if self.serve and package_data.is_dir() else []
        folders = [*self.rule_dirs, *own]
        try:
            if not all(folder.is_dir() for folder in folders):
                missing = next(f for f in folders if not f.is_dir())
                raise OSError(f"Ordner {missing} fehlt (regelwerk: regeln)")
            changed = [name for f in folders for name in compile_data.compile_all(data_dir=f)]
        except (OSError, yaml.YAMLError, SystemExit) as error:
            raise PluginError(f"regelwerk: Regeldaten: {error}") from error
        try:
            for folder in self.rule_dirs:
                systems.use_rules(folder)
            if changed:
                declarative.reload()
        except DataError as error:
            raise PluginError(f"regelwerk: {error}") from error

    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> Files:
        for page in sorted(TOOL_PAGES.glob("*.md")):
            if files.get_file_from_path(page.name) is None:
                files.append(File.generated(config, page.name, abs_src_path=str(page)))
        return files

    def on_nav(self, nav: Any, /, *, config: MkDocsConfig, files: Files) -> Any:
        self.rule_places = _rule_places([page.file for page in nav.pages])
        return nav

    def on_page_markdown(
        self, markdown: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        self.page = page  # the page its helpers' rule links are relative to
        return markdown

    def on_page_content(
        self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        if self.fence_errors:
            errors, self.fence_errors = self.fence_errors, []
            raise PluginError(f"{page.file.src_uri}: " + "; ".join(errors))
        section = section_of(page)
        html = _fit_helper_headings(html) + _fight_contracts(html)
        return link_dice(html, section or "allgemein", section in self.config.vorteil_systeme)

    def on_serve(self, server: Any, /, *, config: MkDocsConfig, builder: Any) -> Any:
        for folder in ((ENGINE_DIR / "data"), *self.rule_dirs):
            for path in sorted(folder.glob("*.yaml")):
                server.watch(str(path))  # compiled to JSON in on_config before each rebuild
        return server

    def rule_link(self, system: str, action: str) -> tuple[str, str] | None:
        """The link to the rule a helper rolls, relative to the page being built, and its
        name in words („Aktive Abwehr – Nahkampf und Verteidigung“)."""
        place = self.rule_places.get((system, action))
        if place is None or self.page is None:
            return None
        file, anchor, heading, title = place
        href = get_relative_url(file.url, self.page.url) + (f"#{anchor}" if anchor else "")
        name = heading if heading == title else f"{heading} – {title}"
        return href, name


_HEADING = re.compile(r"^(#{1,4}) (.+?)(?:\s*\{[^}]*#([\w-]+)[^}]*\})?\s*$")


def _rule_places(pages: list[File]) -> dict[tuple[str, str], tuple[File, str, str, str]]:
    """For each helper, the rule it rolls: in the order of the site's navigation, the first
    rule page (not a Kampfhelfer page) holding it – preferring a helper without page presets
    (``vorgaben``), which serves a special case – and the heading it stands under."""
    places: dict[tuple[str, str], tuple[File, str, str, str]] = {}
    special: dict[tuple[str, str], tuple[File, str, str, str]] = {}
    for file in pages:
        if file.src_uri.endswith("kampfhelfer.md") or not file.abs_src_path:
            continue
        text = Path(file.abs_src_path).read_text(encoding="utf-8")
        title, heading, anchor = "", "", ""
        for match in re.finditer(r"^#{1,4} [^\n]*$|^```helfer\n.*?^```", text, re.M | re.S):
            block = match.group(0)
            head = _HEADING.match(block)
            if head and not block.startswith("```"):
                words = re.sub(r"[*_`]", "", head.group(2)).strip()
                if len(head.group(1)) == 1:
                    title = words
                heading, anchor = words, head.group(3) or toc_slugify(words, "-")
                continue
            spec = yaml.safe_load(block.split("\n", 1)[1].rsplit("```", 1)[0]) or {}
            key = (str(spec.get("system")), str(spec.get("aktion")))
            place = (file, "" if heading == title else anchor, heading, title)
            target = special if spec.get("vorgaben") else places
            if key not in target and heading:
                target[key] = place
    return special | places


_HELPER_SYSTEM = re.compile(r'<section class="rw-helper[^"]*"[^>]*\bdata-system="([a-z0-9_]+)"')


def _fight_contracts(html: str) -> str:
    """A Kampfhelfer page (``rw-workbench``) carries the fight contract of each system it has
    helpers of, as JSON the page reads (``fight/contract.js``): the overview's life values, the
    conditions, the states with their rules – what the engine says, never decided in the page.
    In a data attribute, not a ``<script>`` data block: Material's instant navigation recreates
    the scripts of a page it brings in, which the Content Security Policy then refuses."""
    if "rw-workbench" not in html:
        return ""
    out = []
    for system in sorted(set(_HELPER_SYSTEM.findall(html))):
        text = json.dumps(engine.api.fight_contract(system), ensure_ascii=False, sort_keys=True)
        out.append(
            f'\n<div class="rw-fight-contract" hidden data-system="{system}" '
            f'data-contract="{escape(text, quote=True)}"></div>'
        )
    return "".join(out)


def _fit_helper_headings(html: str) -> str:
    """A helper's heading one level below the heading it stands under (h2 → h3 …)."""
    level = 1
    out: list[str] = []
    last = 0
    for match in re.finditer(r'<h([1-6])( class="rw-title")?', html):
        if match.group(2):
            fitted = min(level + 1, 6)
            out.append(html[last : match.start()] + f'<h{fitted} class="rw-title"')
            end = html.index("</h3>", match.end())
            out.append(html[match.end() : end] + f"</h{fitted}>")
            last = end + len("</h3>")
        else:
            level = int(match.group(1))
    out.append(html[last:])
    return "".join(out)


def section_of(page: Page) -> str:
    """The system a page belongs to: its first folder (``ryssea/…`` → ``ryssea``)."""
    uri = page.file.src_uri
    return uri.split("/", 1)[0] if "/" in uri else ""


def _helper_fence(
    plugin: RegelwerkPlugin,
    source: str,
    language: str,
    css_class: str,
    options: dict[str, Any],
    md: Any,
    **kwargs: Any,
) -> str:
    """Format a ```helfer block: YAML with ``system``, ``aktion``, optional ``vorgaben``/``id``."""
    try:
        return _render_fence(plugin, source)
    except Exception as error:
        plugin.fence_errors.append(f"helfer-Block: {error}")
        raise


def _table_fence(
    plugin: RegelwerkPlugin,
    source: str,
    language: str,
    css_class: str,
    options: dict[str, Any],
    md: Any,
    **kwargs: Any,
) -> str:
    """Format a ```regeltabelle block (``system``, ``tabelle``) from the engine's rule data."""
    try:
        spec = yaml.safe_load(source) or {}
        if not isinstance(spec, dict) or "system" not in spec or "tabelle" not in spec:
            raise PluginError(f"braucht `system` und `tabelle`: {source!r}")
        return render_table(str(spec["system"]), str(spec["tabelle"]))
    except Exception as error:
        plugin.fence_errors.append(f"regeltabelle-Block: {error}")
        raise


def _saved_fence(
    source: str, language: str, css_class: str, options: dict[str, Any], md: Any, **kwargs: Any
) -> str:
    """The ```meine-werte block: where saved-page.js lists every saved set. It names every
    helper (``system.action`` → „System: Titel“) so the list can say what a set is for."""
    titles = {
        f"{system['name']}.{action['name']}": f"{system['title']}: {action['title']}"
        for system in engine.catalog()["systems"]
        for action in system["actions"]
    }
    # a labelled region with its heading (the list's groups below it are h3)
    return (
        '<section class="rw-werte-verwaltung" aria-labelledby="gespeicherte-werte" '
        "data-search-exclude "
        f'data-titles="{escape(json.dumps(titles, ensure_ascii=False), quote=True)}">'
        '<h2 id="gespeicherte-werte">Gespeicherte Werte</h2>'
        "<p>Die gespeicherten Werte erscheinen hier, sobald die Seite geladen ist.</p></section>"
    )


def _render_fence(plugin: RegelwerkPlugin, source: str) -> str:
    try:
        spec = yaml.safe_load(source) or {}
    except yaml.YAMLError as error:
        raise PluginError(f"kein gültiges YAML: {error}") from error
    if not isinstance(spec, dict) or "system" not in spec or "aktion" not in spec:
        raise PluginError(f"braucht `system` und `aktion`: {source!r}")
    system, action = str(spec["system"]), str(spec["aktion"])
    try:
        engine.describe(system, action)
    except engine.EngineError as error:
        raise PluginError(error.message) from error
    defaults = spec.get("vorgaben") or {}
    if not isinstance(defaults, dict):
        raise PluginError("`vorgaben` muss ein Objekt sein")
    helper_id = str(spec.get("id") or f"helfer-{system}-{action}")
    return render_helper(system, action, helper_id, defaults, plugin.rule_link(system, action))
