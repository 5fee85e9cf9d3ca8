"""The ``regelwerk`` MkDocs plugin: roll helpers, glossary, and the browser runtime.

Documented MkDocs events only:
- ``on_startup``: notes whether this is ``mkdocs serve`` (no service worker while editing);
- ``on_config``: registers the ``helfer`` fence with pymdownx.superfences;
- ``on_page_markdown``: appends the page's abbreviations from ``glossary.yml``;
- ``on_files``: adds the tool pages every site has (``pages/``: Meine Werte, Spieleransicht,
  Offline-Version – unless the site's docs have their own), the browser code (ES modules bundled by :mod:`site_plugins.bundle`),
  Pyodide (from npm), the engine archive and the engine's memory snapshot (both named by the
  runtime key, see :mod:`site_plugins.snapshot`);
- ``on_serve``: ``mkdocs serve`` also watches the browser code and the rule data (YAML, compiled
  to JSON in ``on_config`` before each build);
- ``on_post_page`` / ``on_post_template``: names the runtime key in every page's ``<head>``
  (for the worker client), online starts the worker from there and points Material's search
  at the worker that holds it until the reader wants to search (``search-hold.js``), and
  prepares the Content Security Policy (:mod:`site_plugins.csp`);
- ``on_post_build``: writes the finished policy, with the hashes of every page's inline
  scripts, into every page; then, for the online build, the web app (:mod:`site_plugins.pwa`:
  manifest, icons, service worker).
"""

from __future__ import annotations

import io
import json
import re
import zipfile
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
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.utils import get_relative_url

import engine
from engine import declarative
from engine.data_files import DataError
from site_plugins import compile_data, csp, project, pwa
from site_plugins.bundle import BundleError, bundles
from site_plugins.forms import render_helper, render_table
from site_plugins.inline_dice import link_dice
from site_plugins.snapshot import (
    Snapshot,
    SnapshotError,
    build_snapshot,
    compressed_wasm,
    lock_file,
)

ASSETS = Path(__file__).resolve().parent / "assets"
# The pages every site has (the package's): „Meine Werte“, „Spieleransicht“, „Offline-Version“;
# a site's own docs/ file of the same name replaces one
TOOL_PAGES = Path(__file__).resolve().parent / "pages"
ENGINE_DIR = Path(engine.__file__).resolve().parent
ASSET_PREFIX = "assets/regelwerk"
PAGE_SCRIPT = "regelwerk.js"  # the bundle mkdocs.yml lists in extra_javascript
HEAD_START = "engine-start.js"  # inlined into the <head> of pages that boot the engine
WORKER = "worker.js"
# Material's search worker, and ours that holds it until the reader searches (search-hold.js),
# beside it (Material's worker loads lunr's languages from "../lunr", relative to its folder).
# Checked against mkdocs-material 9.8.2.
MATERIAL_SEARCH_WORKER = re.compile(r"assets/javascripts/workers/(search\.[0-9a-f]{8}\.min\.js)")
SEARCH_HOLD_WORKER = "assets/javascripts/workers/regelwerk-search.js"
SEARCH_HOLD_MARKER = "@regelwerk:material-search-worker"
PYODIDE_PREFIX = "assets/pyodide"
# a page whose helper scripts boot the engine at once (engine-client.js: .rw-helper, .rw-dice)
BOOTS_ENGINE = re.compile(r'class="rw-(?:helper|dice)\b')
OFFLINE_TRANSPORT = re.compile(r'<script src="[^"]*assets/offline/transport\.js"></script>')


# Pyodide's python_stdlib.zip is not among them: the site ships the two archives cut from it
# (site_plugins/snapshot.py), named by the runtime key like the snapshot; pyodide-lock.json
# is written without packages (snapshot.lock_file). Nor is pyodide.asm.wasm: the site ships
# it gzip-compressed as pyodide.asm.wasm.gz (9.6 MB → 3.5 MB also where the host does not
# compress; the worker inflates it while it downloads).
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
)
WASM_GZ = "pyodide.asm.wasm.gz"


def engine_archive(rule_dirs: tuple[Path, ...] = ()) -> bytes:
    """The engine package as a zip with fixed timestamps (same sources → same bytes), with the
    rule data of the site's own folders (``regeln:``) beside the package's in ``engine/data/``
    (in the browser the engine finds every system there)."""
    buffer = io.BytesIO()
    files = [
        (path, path.relative_to(ENGINE_DIR.parent).as_posix())
        for path in [
            *sorted(ENGINE_DIR.rglob("*.py")),
            *sorted((ENGINE_DIR / "data").glob("*.json")),
        ]
    ]
    shipped = {name for _, name in files}
    for folder in rule_dirs:
        for path in sorted(folder.glob("*.json")):
            name = f"engine/data/{path.name}"
            if name not in shipped:  # the first folder's file is the system's (as on the CLI)
                files.append((path, name))
                shipped.add(name)
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, name in files:
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    return buffer.getvalue()


class RegelwerkConfig(Config):  # type: ignore[no-untyped-call]
    pyodide_dir = config_options.Type(str, default="node_modules/pyodide")
    glossary = config_options.Type(str, default="glossary.yml")
    # the site's own rule folder (YAML, compiled to JSON at each build): its systems join the
    # package's – a group's own site keeps its rules there (regelwerk-neue-seite)
    regeln = config_options.Type(str, default="")
    # systems whose dice buttons roll with Vorteil on Shift-click (Nachteil on Ctrl-click)
    vorteil_systeme = config_options.Type(list, default=["ryssea"])


class RegelwerkPlugin(BasePlugin[RegelwerkConfig]):  # type: ignore[no-untyped-call]
    def __init__(self) -> None:
        self.archive = b""
        self.rule_dirs: tuple[Path, ...] = ()
        self.snapshot: Snapshot | None = None
        self.script_hashes: set[str] = set()
        # where each helper's rule is: (system, action) → (page file, anchor, heading, page title)
        self.rule_places: dict[tuple[str, str], tuple[File, str, str, str]] = {}
        self.page: Page | None = None
        self.offline = False
        self.serve = False
        self.theme_color = ""
        self.pwa_figures: dict[str, Any] = {}
        self.shim_source = ""
        self.head_start = ""  # engine-start.js as inlined, see on_files
        self.search_hold = False  # Material's search waits for the reader (online, see on_files)
        self.glossary: dict[str, dict[str, str]] = {}
        # superfences turns a fence whose formatter raises into plain text; collect the
        # errors here and fail the build in on_page_content instead.
        self.fence_errors: list[str] = []

    # -- configuration -------------------------------------------------------------------
    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.serve = command == "serve"

    @property
    def web_app(self) -> bool:
        """Manifest and service worker: the online build only (not file://, not serve)."""
        return not self.offline and not self.serve

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        project.set_folder(Path(config.config_file_path).parent)
        self.rule_dirs = (project.folder() / self.config.regeln,) if self.config.regeln else ()
        if self.serve or self.rule_dirs:
            self._compile_data()
        self.archive = engine_archive(self.rule_dirs)
        self.script_hashes = set()
        # the offline export (mkdocs-offline.yml) adds its plugin; the policy differs there
        self.offline = "regelwerk-offline" in config.plugins
        if self.offline:
            shim = (
                Path(config.config_file_path).parent
                / config.plugins["regelwerk-offline"].config.shim
            )
            self.shim_source = shim.read_text(encoding="utf-8") if shim.exists() else ""
        self.glossary = self._load_glossary(Path(config.config_file_path).parent)
        if self.web_app:
            try:
                self.theme_color = pwa.theme_color(config)
            except pwa.PwaError as error:
                raise PluginError(f"regelwerk: Web-App: {error}") from error
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

    def _load_glossary(self, base: Path) -> dict[str, dict[str, str]]:
        path = base / self.config.glossary
        if not path.exists():
            return {}
        content = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        if not isinstance(content, dict):
            raise PluginError(f"{path}: erwartet ein Objekt je System")
        out: dict[str, dict[str, str]] = {}
        for system, terms in content.items():
            if not isinstance(terms, dict):
                raise PluginError(f"{path}: „{system}“ muss Abkürzung: Bedeutung enthalten")
            out[str(system)] = {str(k): " ".join(str(v).split()) for k, v in terms.items()}
        return out

    # -- pages ---------------------------------------------------------------------------
    def on_page_markdown(
        self, markdown: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        self.page = page
        section = _section(page)
        terms = dict(self.glossary.get("alle", {}))
        terms.update(self.glossary.get(section, {}))
        if not terms:
            return markdown
        lines = [f"*[{abbr}]: {meaning}" for abbr, meaning in sorted(terms.items())]
        return markdown.rstrip("\n") + "\n\n" + "\n".join(lines) + "\n"

    def on_page_content(
        self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        if self.fence_errors:
            errors, self.fence_errors = self.fence_errors, []
            raise PluginError(f"{page.file.src_uri}: " + "; ".join(errors))
        section = _section(page)
        html = _fit_helper_headings(html) + _fight_contracts(html)
        return link_dice(html, section or "allgemein", section in self.config.vorteil_systeme)

    # -- files ---------------------------------------------------------------------------
    def on_nav(self, nav: Any, /, *, config: MkDocsConfig, files: Files) -> Any:
        self.rule_places = _rule_places([page.file for page in nav.pages])
        return nav

    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> Files:
        for page in sorted(TOOL_PAGES.glob("*.md")):
            if files.get_file_from_path(page.name) is None:
                files.append(File.generated(config, page.name, abs_src_path=str(page)))
        try:
            scripts = bundles()
        except BundleError as error:
            raise PluginError(f"regelwerk: {error}") from error
        self.head_start = scripts[HEAD_START]
        for name in (PAGE_SCRIPT, WORKER):
            files.append(File.generated(config, f"{ASSET_PREFIX}/{name}", content=scripts[name]))
        for path in sorted(ASSETS.iterdir()):
            if path.is_file():  # the stylesheet and the logo; the code is bundled (js/)
                files.append(
                    File.generated(config, f"{ASSET_PREFIX}/{path.name}", abs_src_path=str(path))
                )
        self.search_hold = not self.offline
        if self.search_hold:
            files.append(self._search_hold_worker(files, config, scripts["search-hold-worker.js"]))
        pyodide_dir = Path(config.config_file_path).parent / self.config.pyodide_dir
        try:
            self.snapshot = build_snapshot(self.archive, pyodide_dir)
        except SnapshotError as error:
            raise PluginError(f"regelwerk: Schnellstart-Abbild der Engine: {error}") from error
        for name, content in (
            (self.snapshot.archive_name, self.archive),
            (self.snapshot.snapshot_name, self.snapshot.compressed),
            (self.snapshot.restore_stdlib_name, self.snapshot.restore_stdlib),
            (self.snapshot.plain_stdlib_name, self.snapshot.plain_stdlib),
        ):
            files.append(File.generated(config, f"{ASSET_PREFIX}/{name}", content=content))
        for name in PYODIDE_FILES:
            source = pyodide_dir / name
            if not source.exists():
                raise PluginError(
                    f"regelwerk: {source} fehlt – bitte zuerst `npm ci` ausführen "
                    "(Pyodide kommt aus dem npm-Paket, nie aus einem CDN)."
                )
            files.append(
                File.generated(config, f"{PYODIDE_PREFIX}/{name}", abs_src_path=str(source))
            )
        files.append(
            File.generated(
                config, f"{PYODIDE_PREFIX}/pyodide-lock.json", content=lock_file(pyodide_dir)
            )
        )
        try:
            wasm = compressed_wasm(pyodide_dir)
        except SnapshotError as error:
            raise PluginError(f"regelwerk: {error}") from error
        files.append(File.generated(config, f"{PYODIDE_PREFIX}/{WASM_GZ}", content=wasm))
        if self.web_app:
            pwa.add_files(files, config)
        return files

    def _search_hold_worker(self, files: Files, config: MkDocsConfig, code: str) -> File:
        """Our search worker, beside Material's, naming it (see search-hold.js)."""
        found = [m.group(1) for f in files if (m := MATERIAL_SEARCH_WORKER.fullmatch(f.src_uri))]
        if len(found) != 1 or code.count(SEARCH_HOLD_MARKER) != 1:
            raise PluginError(
                "regelwerk: Materials Such-Worker (assets/javascripts/workers/search.*.min.js) "
                f"nicht eindeutig gefunden ({len(found)}): search-hold.js ist für "
                "mkdocs-material 9.8.2 geschrieben – bitte gegen die neue Version prüfen."
            )
        content = code.replace(SEARCH_HOLD_MARKER, found[0])
        return File.generated(config, SEARCH_HOLD_WORKER, content=content)

    def on_serve(self, server: Any, /, *, config: MkDocsConfig, builder: Any) -> Any:
        server.watch(str(ASSETS))
        for folder in ((ENGINE_DIR / "data"), *self.rule_dirs):
            for path in sorted(folder.glob("*.yaml")):
                server.watch(str(path))  # compiled to JSON in on_config before each rebuild
        return server

    def _compile_data(self) -> None:
        """The rule data as edited (YAML → JSON) before each build – the site's own folder
        always, the package's under ``make serve`` –; declared actions are registered again,
        so their forms follow (Python systems read their data once: after editing one of their
        files, restart ``make serve``)."""
        folders = [*self.rule_dirs, *([ENGINE_DIR / "data"] if self.serve else [])]
        try:
            if not all(folder.is_dir() for folder in folders):
                missing = next(f for f in folders if not f.is_dir())
                raise OSError(f"Ordner {missing} fehlt (regelwerk: regeln)")
            changed = [name for f in folders for name in compile_data.compile_all(data_dir=f)]
        except (OSError, yaml.YAMLError, SystemExit) as error:
            raise PluginError(f"regelwerk: Regeldaten: {error}") from error
        try:
            for folder in self.rule_dirs:
                declarative.use_rules(folder)
            if changed:
                declarative.reload()
        except DataError as error:
            raise PluginError(f"regelwerk: {error}") from error

    def on_post_page(self, output: str, /, *, page: Page, config: MkDocsConfig) -> str:
        return self._head(output, pwa.page_root(page.url))

    def on_post_template(
        self, output_content: str, /, *, template_name: str, config: MkDocsConfig
    ) -> str:
        if not template_name.endswith(".html"):
            return output_content
        return self._head(output_content, pwa.site_root(config))

    def _head(self, html: str, root: str) -> str:
        """The runtime key for the worker client, the policy's placeholder and (online) the
        web app's tags; ``root``: the site root as seen from the page."""
        if "</head>" not in html:
            return html
        try:
            self.script_hashes |= csp.inline_script_hashes(html)
            worker = csp.search_worker_url(html)
            if self.offline and worker:
                self.script_hashes.add(csp.shim_script_hash(self.shim_source, worker))
            html = csp.with_placeholder(html)
        except csp.CspError as error:
            raise PluginError(f"regelwerk: Content Security Policy: {error}") from error
        if self.snapshot is not None:
            meta = f'<meta name="regelwerk-engine" content="{self.snapshot.key}"'
            if BOOTS_ENGINE.search(html):
                # starts the worker while the page is parsed: engine-start.js, inline, right
                # after the policy – before the stylesheets, which a script after them waits
                # for (a file, even from the cache, ran ≈ 100 ms after the page arrived on a
                # warm reload); the same text on every page, so one hash in the policy.
                # Offline right after transport.js, which makes the worker there.
                self.script_hashes.add(csp.sha256_source(self.head_start))
                meta += f' data-assets="{root}{ASSET_PREFIX}/">\n<script>{self.head_start}</script>'
                html = (
                    _after_transport(html, meta)
                    if self.offline
                    else html.replace(csp.META, f"{csp.META}\n{meta}", 1)
                )
            else:
                html = html.replace("</head>", f"{meta}>\n</head>", 1)
        if self.search_hold and worker:
            html = _hold_search(html)
        if self.web_app:
            html = html.replace("</head>", f"{pwa.head_tags(root, self.theme_color)}\n</head>", 1)
        return html

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

    @event_priority(-100)  # last: after every other plugin has written its pages
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        text = csp.policy(self.script_hashes, offline=self.offline)
        csp.write_policy(Path(config.site_dir), text)
        if self.serve:
            pwa.write_unregister(Path(config.site_dir))
        elif self.web_app:
            try:
                self.pwa_figures = pwa.build(Path(config.site_dir), config)
            except pwa.PwaError as error:
                raise PluginError(f"regelwerk: Web-App (Service Worker, Icons): {error}") from error


def _after_transport(html: str, tags: str) -> str:
    """``tags`` right after the offline export's transport.js (the polyfill that makes the
    engine worker from file://, see site_plugins/offline.py)."""
    found = OFFLINE_TRANSPORT.search(html)
    if not found:
        raise PluginError(
            "regelwerk: Offline-Export: <script src=…assets/offline/transport.js> fehlt im "
            "<head> (extra.polyfills in mkdocs-offline.yml)"
        )
    return html[: found.end()] + "\n" + tags + html[found.end() :]


def _hold_search(html: str) -> str:
    """Material's search on this page starts as our worker, which waits for the reader."""
    found = csp.search_worker_url(html)
    if not found or not MATERIAL_SEARCH_WORKER.search(found):
        raise PluginError(
            "regelwerk: Materials Such-Worker fehlt im __config der Seite: search-hold.js ist "
            "für mkdocs-material 9.8.2 geschrieben – bitte gegen die neue Version prüfen."
        )
    held = MATERIAL_SEARCH_WORKER.sub(SEARCH_HOLD_WORKER, found)
    return html.replace(f'"search": "{found}"', f'"search": "{held}"', 1)


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


def _section(page: Page) -> str:
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
