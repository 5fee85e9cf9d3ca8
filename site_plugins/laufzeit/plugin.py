"""The ``regelwerk-laufzeit`` MkDocs plugin: the browser runtime – the page code, the engine in
Pyodide and its memory snapshot. Everything that boots the engine lives in this folder
(``UPGRADE.md`` says how to take a new Pyodide):

- ``bundle.py`` / ``bundle.mjs``: the browser code (ES modules in ``../assets/js/`` and the
  runtime's own in ``js/``) bundled by rollup from the site's npm packages;
- ``snapshot.py`` / ``make_snapshot.mjs``: the engine archive's memory snapshot, made and proven
  (the parity check: the snapshot boot answers the probe requests as CPython does) at build
  time, named by the runtime key;
- ``js/``: the worker client, the worker and its boot (snapshot restore, wasm streaming),
  ``engine-start.js`` (inlined into the ``<head>``), Material's search held during the boot.

Documented MkDocs events only:
- ``on_config``: the engine archive (the package's engine with the rule data of the site's own
  folders, :func:`engine.data_files.rule_dirs`);
- ``on_files``: the bundled code, the page assets (stylesheet, logo), Pyodide (from npm), the
  engine archive, the snapshot and its cut standard libraries; online Material's search worker
  wrapped so it waits for the engine's boot;
- ``on_post_build`` (online): the search index's documents into a file of their own, fetched
  by the held search worker when the reader searches (``search_index.json`` keeps its config);
- ``on_serve``: ``mkdocs serve`` also watches the browser code;
- ``on_post_page`` / ``on_post_template``: names the runtime key in every page's ``<head>``,
  starts the worker there on pages with helpers and (online) points Material's search at the
  holding worker.

``offline: true`` (``mkdocs-offline.yml``) builds for ``file://``: no search hold, the start
script after the offline transport (``regelwerk-offline`` inlines the runtime).
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path
from typing import Any

from mkdocs.config import config_options
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

import engine
from engine.data_files import DATA_DIR, rule_dirs
from engine.systems import PACKAGE
from site_plugins.csp import policy as csp
from site_plugins.laufzeit.bundle import BundleError, bundles
from site_plugins.laufzeit.snapshot import (
    Snapshot,
    SnapshotError,
    build_snapshot,
    compressed_wasm,
    lock_file,
)
from site_plugins.webapp import pwa

ASSETS = Path(__file__).resolve().parent.parent / "assets"
RUNTIME_JS = Path(__file__).resolve().parent / "js"
ENGINE_DIR = Path(engine.__file__).resolve().parent
ASSET_PREFIX = "assets/regelwerk"
PAGE_SCRIPT = "regelwerk.js"  # the bundle mkdocs.yml lists in extra_javascript
# loaded by regelwerk.js where a page has helpers (a fight, „Meine Werte“), the player view
PARTS = ("regelwerk-helfer.js", "regelwerk-spieler.js")
HEAD_START = "engine-start.js"  # inlined into the <head> of pages that boot the engine
WORKER = "worker.js"
QR_DECODER = "qr-decoder.js"  # loaded by the page when the game master opens the camera
# Material's search worker, and ours that holds it until the reader searches (search-hold.js),
# beside it (Material's worker loads lunr's languages from "../lunr", relative to its folder).
# Checked against mkdocs-material 9.8.2.
MATERIAL_SEARCH_WORKER = re.compile(r"assets/javascripts/workers/(search\.[0-9a-f]{8}\.min\.js)")
SEARCH_HOLD_WORKER = "assets/javascripts/workers/regelwerk-search.js"
SEARCH_HOLD_MARKER = "@regelwerk:material-search-worker"
# Online, Material's page script fetches search/search_index.json on every page load: there it
# keeps only the index's config (what the page needs: the highlighting's separator); the
# documents (≈ 200 KB) go into SEARCH_DOCS, which the held worker fetches once the reader
# searches (search-hold-worker.js). Written after regelwerk-suche has read the whole index.
SEARCH_INDEX = "search/search_index.json"
SEARCH_DOCS = "search/search_docs.json"
SEARCH_DOCS_MARKER = "@regelwerk:search-docs"
PYODIDE_PREFIX = "assets/pyodide"
# a page whose helper scripts boot the engine at once (engine-client.js: .rw-helper, .rw-dice)
BOOTS_ENGINE = re.compile(r'class="rw-(?:helper|dice)\b')
OFFLINE_TRANSPORT = re.compile(r'<script src="[^"]*assets/offline/transport\.js"></script>')


# Pyodide's python_stdlib.zip is not among them: the site ships the two archives cut from it
# (snapshot.py), named by the runtime key like the snapshot; pyodide-lock.json is written
# without packages (snapshot.lock_file). Nor is pyodide.asm.wasm: the site ships it
# gzip-compressed as pyodide.asm.wasm.gz (9.6 MB → 3.5 MB also where the host does not
# compress; the worker inflates it while it downloads).
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
)
WASM_GZ = "pyodide.asm.wasm.gz"


def engine_archive(rule_dirs: tuple[Path, ...] | None = None) -> bytes:
    """The engine package as a zip with fixed timestamps (same sources → same bytes), with the
    rule data of the site's own folders (``regeln:``) beside the package's in ``engine/data/``
    (in the browser the engine finds every system there) and their systems' Python packages
    as ``regeln/<name>/`` – by default the folders the engine reads now."""
    if rule_dirs is None:
        rule_dirs = site_rule_dirs()
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
        # its systems' Python packages (engine.systems imports regeln.<name>) at the root
        code = [folder / "__init__.py", *sorted(folder.glob("*/**/*.py"))]
        for path in code:
            name = f"{PACKAGE}/{path.relative_to(folder).as_posix()}"
            if path.exists() and "__pycache__" not in path.parts and name not in shipped:
                files.append((path, name))
                shipped.add(name)
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, name in files:
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    return buffer.getvalue()


def site_rule_dirs() -> tuple[Path, ...]:
    """The site's own rule folders the engine reads (``regelwerk: regeln:``, the command
    line's ``REGELWERK_REGELN`` or ``./regeln``), not the package's."""
    return tuple(folder for folder in rule_dirs() if folder != DATA_DIR)


class RuntimeConfig(Config):  # type: ignore[no-untyped-call]
    pyodide_dir = config_options.Type(str, default="node_modules/pyodide")
    # the offline export (mkdocs-offline.yml): built for file://
    offline = config_options.Type(bool, default=False)


class RuntimePlugin(BasePlugin[RuntimeConfig]):  # type: ignore[no-untyped-call]
    def __init__(self) -> None:
        self.archive = b""
        self.snapshot: Snapshot | None = None
        self.head_start = ""  # engine-start.js as inlined, see on_files
        self.search_hold = False  # Material's search waits for the reader (online, see on_files)

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        # the site's own rule folders (``regelwerk: regeln:``, registered by that plugin)
        self.archive = engine_archive(site_rule_dirs())
        return config

    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> Files:
        try:
            scripts = bundles()
        except BundleError as error:
            raise PluginError(f"regelwerk-laufzeit: {error}") from error
        self.head_start = scripts[HEAD_START]
        for name in (PAGE_SCRIPT, *PARTS, WORKER, QR_DECODER):
            files.append(File.generated(config, f"{ASSET_PREFIX}/{name}", content=scripts[name]))
        for path in sorted(ASSETS.iterdir()):
            if path.is_file():  # the stylesheet and the logo; the code is bundled (js/)
                files.append(
                    File.generated(config, f"{ASSET_PREFIX}/{path.name}", abs_src_path=str(path))
                )
        self.search_hold = not self.config.offline
        if self.search_hold:
            files.append(self._search_hold_worker(files, config, scripts["search-hold-worker.js"]))
        pyodide_dir = Path(config.config_file_path).parent / self.config.pyodide_dir
        try:
            self.snapshot = build_snapshot(self.archive, pyodide_dir)
        except SnapshotError as error:
            raise PluginError(f"regelwerk-laufzeit: Schnellstart-Abbild: {error}") from error
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
                    f"regelwerk-laufzeit: {source} fehlt – bitte zuerst `npm ci` ausführen "
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
            raise PluginError(f"regelwerk-laufzeit: {error}") from error
        files.append(File.generated(config, f"{PYODIDE_PREFIX}/{WASM_GZ}", content=wasm))
        return files

    def _search_hold_worker(self, files: Files, config: MkDocsConfig, code: str) -> File:
        """Our search worker, beside Material's, naming it (see search-hold.js)."""
        found = [m.group(1) for f in files if (m := MATERIAL_SEARCH_WORKER.fullmatch(f.src_uri))]
        if len(found) != 1 or code.count(SEARCH_HOLD_MARKER) != 1:
            raise PluginError(
                "regelwerk-laufzeit: Materials Such-Worker "
                "(assets/javascripts/workers/search.*.min.js) "
                f"nicht eindeutig gefunden ({len(found)}): search-hold.js ist für "
                "mkdocs-material 9.8.2 geschrieben – bitte gegen die neue Version prüfen."
            )
        # the documents' file as seen from the worker's folder
        docs = "../" * SEARCH_HOLD_WORKER.count("/") + SEARCH_DOCS
        if code.count(SEARCH_DOCS_MARKER) != 1:
            raise PluginError("regelwerk-laufzeit: search-hold-worker.js ohne Dokumente-Marke")
        content = code.replace(SEARCH_HOLD_MARKER, found[0]).replace(SEARCH_DOCS_MARKER, docs)
        return File.generated(config, SEARCH_HOLD_WORKER, content=content)

    # after regelwerk-suche (-50) has read the whole index, before the web app (-110) lists it
    @event_priority(-60)
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        if self.search_hold:
            split_search_index(Path(config.site_dir))

    def on_serve(self, server: Any, /, *, config: MkDocsConfig, builder: Any) -> Any:
        server.watch(str(ASSETS))
        server.watch(str(RUNTIME_JS))
        return server

    def on_post_page(self, output: str, /, *, page: Page, config: MkDocsConfig) -> str:
        return self._head(output, pwa.page_root(page.url))

    def on_post_template(
        self, output_content: str, /, *, template_name: str, config: MkDocsConfig
    ) -> str:
        if not template_name.endswith(".html"):
            return output_content
        return self._head(output_content, pwa.site_root(config))

    def _head(self, html: str, root: str) -> str:
        """The runtime key for the worker client, the start script on pages with helpers and
        (online) the held search; ``root``: the site root as seen from the page."""
        if "</head>" not in html:
            return html
        if self.snapshot is not None:
            meta = f'<meta name="regelwerk-engine" content="{self.snapshot.key}"'
            if BOOTS_ENGINE.search(html):
                # starts the worker while the page is parsed: engine-start.js, inline, first
                # in the <head> after the policy (regelwerk-csp puts it before this) – before
                # the stylesheets, which a script after them waits for (a file, even from the
                # cache, ran ≈ 100 ms after the page arrived on a warm reload); the same text
                # on every page, so one hash in the policy. Offline right after transport.js,
                # which makes the worker there.
                meta += f' data-assets="{root}{ASSET_PREFIX}/">\n<script>{self.head_start}</script>'
                html = (
                    _after_transport(html, meta)
                    if self.config.offline
                    else csp.first_in_head(html, meta)
                )
            else:
                html = html.replace("</head>", f"{meta}>\n</head>", 1)
        if self.search_hold and csp.search_worker_url(html):
            html = _hold_search(html)
        return html


def _after_transport(html: str, tags: str) -> str:
    """``tags`` right after the offline export's transport.js (the polyfill that makes the
    engine worker from file://, see site_plugins/offline/plugin.py)."""
    found = OFFLINE_TRANSPORT.search(html)
    if not found:
        raise PluginError(
            "regelwerk-laufzeit: Offline-Export: <script src=…assets/offline/transport.js> "
            "fehlt im "
            "<head> (extra.polyfills in mkdocs-offline.yml)"
        )
    return html[: found.end()] + "\n" + tags + html[found.end() :]


def split_search_index(site_dir: Path) -> None:
    """``search_index.json`` keeps its config, its documents go into ``SEARCH_DOCS``."""
    path = site_dir / SEARCH_INDEX
    try:
        index = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError) as error:
        raise PluginError(f"regelwerk-laufzeit: {SEARCH_INDEX} nicht lesbar: {error}") from error
    if not isinstance(index, dict) or not isinstance(index.get("docs"), list):
        raise PluginError(f"regelwerk-laufzeit: {SEARCH_INDEX} ohne docs (Materials Format?)")
    for target, content in ((site_dir / SEARCH_DOCS, index["docs"]), (path, {**index, "docs": []})):
        target.write_text(json.dumps(content, ensure_ascii=False, separators=(",", ":")), "utf-8")


def _hold_search(html: str) -> str:
    """Material's search on this page starts as our worker, which waits for the reader."""
    found = csp.search_worker_url(html)
    if not found or not MATERIAL_SEARCH_WORKER.search(found):
        raise PluginError(
            "regelwerk-laufzeit: Materials Such-Worker fehlt im __config der Seite: "
            "search-hold.js ist "
            "für mkdocs-material 9.8.2 geschrieben – bitte gegen die neue Version prüfen."
        )
    held = MATERIAL_SEARCH_WORKER.sub(SEARCH_HOLD_WORKER, found)
    return html.replace(f'"search": "{found}"', f'"search": "{held}"', 1)
