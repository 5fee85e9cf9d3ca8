"""The ``regelwerk-offline`` MkDocs plugin: the export that works from ``file://``.

Enabled only in ``mkdocs-offline.yml`` (``harness/offline_export.py`` builds with it). Opened
by double-click, Chromium refuses ``fetch`` of file URLs, module imports and
``new Worker(fileURL)``; classic ``<script>`` tags still load. So this plugin, using documented
MkDocs events only:

- ``on_config``: turns Material's instant navigation off (it loads pages with ``fetch``),
  checks that the export keeps every plugin of the online site (``INHERIT`` replaces lists)
  and that ``transport.js`` comes before the iframe-worker shim in ``extra.polyfills``;
- ``on_files``: replaces the online runtime (``assets/pyodide/*``, ``engine.zip``, the module
  ``worker.js``) with ``assets/offline/``: ``transport.js``, the vendored iframe-worker shim
  and shared ``runtime-NN.js`` scripts that carry, as string literals, the classic worker
  (Pyodide's code spliced in) and the wasm, the engine and the standard library cut for
  the plain boot (it holds what the snapshot boot loads too; gzip + base64) – the snapshot
  as its non-zero pages, gzipped (:func:`sparse_snapshot`);
- ``on_page_content``: the home page's download link becomes a note (this *is* the export);
- ``on_post_page``: when the build knows the published site (``site_url`` not on this
  computer: ``REGELWERK_SITE_URL`` in CI), every page names its published twin in
  ``<meta name="regelwerk-online">`` – share.js links a roll there, never to a ``file://``
  path (which names a folder on one computer and opens nowhere else); without it share.js
  copies the roll as text.

Every string rewritten in Pyodide's files is asserted to occur exactly once (see
:data:`REWRITES`), so an upgrade of the npm package fails the build with a clear message.
"""

from __future__ import annotations

import base64
import gzip
import ipaddress
import json
import re
from dataclasses import dataclass
from html import escape
from pathlib import Path
from urllib.parse import urlsplit

from mkdocs.config import config_options
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.utils.yaml import yaml_load

from site_plugins.laufzeit.bundle import BundleError, bundles
from site_plugins.laufzeit.snapshot import compressed_wasm, lock_file

ASSETS = Path(__file__).resolve().parent / "assets"
ENGINE_PREFIX = "assets/regelwerk/"
OFFLINE_PREFIX = "assets/offline"
TRANSPORT = f"{OFFLINE_PREFIX}/transport.js"
SHIM = f"{OFFLINE_PREFIX}/iframe-worker.js"
# Pyodide's indexURL inside the worker: a scheme of its own, answered by the worker's fetch
# wrapper; a request that slipped through could not reach any network.
VIRTUAL_INDEX = "regelwerk-offline:/pyodide/"
ASM_URL = VIRTUAL_INDEX + "pyodide.asm.mjs"
# Online files the export drops: they could not be loaded from file:// anyway.
ONLINE_ONLY = re.compile(
    r"assets/pyodide/|assets/regelwerk/(worker\.js|engine-[0-9a-f]+\.(zip|snap)"
    r"|python_stdlib(-plain)?-[0-9a-f]+\.zip)$"
)
PARTS_GLOBAL = "RegelwerkOfflineParts"


def bundled_worker() -> str:
    """The engine worker as the online site serves it (bundled from assets/js/worker.js)."""
    try:
        return bundles()["worker.js"]
    except BundleError as error:
        raise PluginError(f"regelwerk-offline: {error}") from error


DOWNLOAD_LINK = re.compile(
    r'<a\b[^>]*\bclass="[^"]*\brw-offline-download\b[^"]*"[^>]*>.*?</a>', re.S
)
DOWNLOAD_NOTE = (
    '<strong class="rw-offline-note">Dies ist bereits die Offline-Version: '
    "sie läuft ohne Internet, direkt aus dem entpackten Ordner.</strong>"
)


@dataclass(frozen=True)
class Rewrite:
    """One exact string replacement in a Pyodide file, with the reason for it."""

    file: str
    old: str
    new: str
    why: str


# pyodide.asm.mjs is an ES module; the worker is a classic script (module workers cannot be
# started from file://), so its two module-only constructs are replaced.
REWRITES: tuple[Rewrite, ...] = (
    Rewrite(
        "pyodide.asm.mjs",
        "export default _createPyodideModule;",
        "globalThis.__regelwerkCreatePyodideModule=_createPyodideModule;",
        "ES-Modul-Export → globale Funktion (an loadPyodide als createPyodideModule übergeben)",
    ),
    Rewrite(
        "pyodide.asm.mjs",
        "createRequire(import.meta.url)",
        f"createRequire({json.dumps(ASM_URL)})",
        "import.meta gibt es in klassischen Skripten nicht (Zweig nur für Node)",
    ),
    Rewrite(
        "pyodide.asm.mjs",
        "var _scriptName=import.meta.url;",
        f"var _scriptName={json.dumps(ASM_URL)};",
        "import.meta gibt es in klassischen Skripten nicht (Skriptname → virtuelle indexURL)",
    ),
    Rewrite(
        "pyodide.asm.mjs",
        'new URL("pyodide.asm.wasm",import.meta.url)',
        f'new URL("pyodide.asm.wasm",{json.dumps(ASM_URL)})',
        "import.meta gibt es in klassischen Skripten nicht (wasm-Adresse → virtuelle indexURL)",
    ),
)
# Not rewritten, but relied upon: the worker satisfies this classic-worker check by making
# importScripts throw. If Pyodide detects classic workers differently, look again.
REQUIRED: tuple[Rewrite, ...] = (
    Rewrite(
        "pyodide.js",
        'globalThis.importScripts("data:text/javascript,")',
        "",
        "Pyodides Erkennung klassischer Worker (der Offline-Worker lässt importScripts werfen)",
    ),
)
MANIFEST_MARKER = '"@regelwerk:manifest"'


def replace_once(text: str, old: str, new: str, where: str, why: str) -> str:
    """Replace ``old`` by ``new``; raise unless ``old`` occurs exactly once."""
    count = text.count(old)
    if count != 1:
        raise PluginError(
            f"regelwerk-offline: {where}: erwartet genau einmal {old!r} ({why}), "
            f"gefunden: {count}×. Hat sich die Pyodide-Version geändert? Dann die Änderungen "
            "in site_plugins/offline/plugin.py prüfen und anpassen."
        )
    return text.replace(old, new)


def classic_asm(source: str) -> str:
    """pyodide.asm.mjs as a classic script (asserts every rewrite)."""
    for rewrite in REWRITES:
        source = replace_once(source, rewrite.old, rewrite.new, rewrite.file, rewrite.why)
    if "import.meta" in source:
        raise PluginError(
            "regelwerk-offline: pyodide.asm.mjs: nach dem Umschreiben steht noch "
            "`import.meta` darin – ein klassisches Skript kann das nicht ausführen."
        )
    return source


def worker_source(worker: str, pyodide_js: str, asm_classic: str, lock_file: str) -> str:
    """The offline worker: Pyodide's classic code, then the one worker source of the site.

    ``worker`` is the bundled ``worker.js`` (:func:`bundled_worker`): it finds Pyodide
    already loaded and ``self.RegelwerkOfflineRuntime`` telling it where the files come from.
    """
    for rewrite in REQUIRED:  # relied upon, not changed: asserted all the same
        replace_once(pyodide_js, rewrite.old, rewrite.old, rewrite.file, rewrite.why)
    runtime = {"virtualIndex": VIRTUAL_INDEX, "lockFile": lock_file}
    return "\n".join(
        (
            "// Regelwerk offline worker, made by site_plugins/offline: Pyodide's own code,",
            "// then the site's worker.js. Pyodide refuses classic workers and detects them by",
            "// calling importScripts; nothing here needs it, so it throws.",
            "self.importScripts = function () {",
            '  throw new Error("importScripts ist im Offline-Worker abgeschaltet");',
            "};",
            pyodide_js,
            asm_classic,
            f"self.RegelwerkOfflineRuntime = Object.assign({json.dumps(runtime)}, "
            "{ createPyodideModule: globalThis.__regelwerkCreatePyodideModule });",
            worker,
        )
    )


SNAPSHOT_PAGE = 4096


# gzip level of the snapshot's pages in the export, made at every export build: level 6
# takes ≈ 0.5 s for the 11.8 MB, level 9 several seconds for 1 % fewer bytes
SNAPSHOT_LEVEL = 6


def sparse_snapshot(compressed: bytes) -> tuple[bytes, dict[str, object]]:
    """The engine snapshot for the export: its 4 KiB pages that are not all zeros, back to
    back, and their layout ``{"length": …, "runs": [[offset, length], …]}`` (``unsparse`` in
    snapshot-codec.js puts them back). Of the 31.5 MB, 11.8 MB in 89 runs; the export ships
    them gzipped (:data:`SNAPSHOT_LEVEL`), so every page of the export loads, hands over and
    decodes 6 MB of base64 text for them instead of 16 MB, and the worker inflates only the
    pages, not the zeros (the whole gzipped snapshot took it 0.12–0.18 s)."""
    memory = gzip.decompress(compressed)
    zero = bytes(SNAPSHOT_PAGE)
    runs: list[list[int]] = []
    payload = bytearray()
    for offset in range(0, len(memory), SNAPSHOT_PAGE):
        page = memory[offset : offset + SNAPSHOT_PAGE]
        if page == zero[: len(page)]:
            continue
        if runs and runs[-1][0] + runs[-1][1] == offset:
            runs[-1][1] += len(page)
        else:
            runs.append([offset, len(page)])
        payload += page
    return bytes(payload), {"length": len(memory), "runs": runs}


def gzip_base64(data: bytes, level: int = 9) -> str:
    """gzip (fixed mtime: same input → same bytes) and base64, for a JS string literal."""
    return base64.b64encode(gzip.compress(data, compresslevel=level, mtime=0)).decode("ascii")


def runtime_scripts(parts: dict[str, str], chunk_chars: int) -> tuple[dict[str, int], list[str]]:
    """Split the parts into scripts of at most ``chunk_chars`` characters of payload each.

    Every script pushes ``[part, index, text]`` tuples onto ``self.RegelwerkOfflineParts``;
    several small parts share a script. Returns the chunk count per part and the scripts.
    """
    counts: dict[str, int] = {}
    chunks: list[tuple[str, int, str]] = []
    for name, text in parts.items():
        pieces = [text[i : i + chunk_chars] for i in range(0, len(text), chunk_chars)] or [""]
        counts[name] = len(pieces)
        chunks += [(name, index, piece) for index, piece in enumerate(pieces)]
    scripts: list[list[tuple[str, int, str]]] = [[]]
    size = 0
    for chunk in chunks:
        if scripts[-1] and size + len(chunk[2]) > chunk_chars:
            scripts.append([])
            size = 0
        scripts[-1].append(chunk)
        size += len(chunk[2])
    header = f"(self.{PARTS_GLOBAL}=self.{PARTS_GLOBAL}||[]).push(\n"
    out = [
        header + ",\n".join(f"[{json.dumps(n)},{i},{json.dumps(t)}]" for n, i, t in script) + ");\n"
        for script in scripts
    ]
    return counts, out


def _generated(files: Files, name: str) -> bytes:
    """A file that the ``regelwerk-laufzeit`` plugin added, named by the runtime key: ``name`` with
    ``*`` for the key (``engine-*.snap``)."""
    prefix, suffix = name.split("*")
    pattern = re.compile(re.escape(ENGINE_PREFIX + prefix) + "[0-9a-f]+" + re.escape(suffix))
    for file in files:
        if pattern.fullmatch(file.src_uri):
            return file.content_bytes
    raise PluginError(
        f"regelwerk-offline: {ENGINE_PREFIX}{name} fehlt – das Plugin "
        "`regelwerk-laufzeit` muss in plugins: vor `regelwerk-offline` stehen"
    )


def _plugin_entries(entries: object) -> list[tuple[str, object]]:
    """``plugins:`` (a list of names / one-key mappings, or a mapping) as (name, options)."""
    if isinstance(entries, dict):
        return [(str(k), v or {}) for k, v in entries.items()]
    out: list[tuple[str, object]] = []
    for entry in entries if isinstance(entries, list) else []:
        if isinstance(entry, dict):
            out += [(str(k), v or {}) for k, v in entry.items()]
        else:
            out.append((str(entry), {}))
    return out


ONLINE_META = "regelwerk-online"
ONLINE_ROOT_META = "regelwerk-online-root"  # the published site's root


def published_root(site_url: str | None) -> str | None:
    """The published site's root from ``site_url``, or None when it names no site another
    computer could open: none, not http(s), or this computer (``localhost``, a loopback address
    – mkdocs.yml's default for ``make serve``)."""
    parts = urlsplit(site_url or "")
    host = parts.hostname or ""
    if parts.scheme not in ("http", "https") or not host:
        return None
    if host == "localhost" or host.endswith(".localhost"):
        return None
    try:
        if ipaddress.ip_address(host).is_loopback:
            return None
    except ValueError:
        pass  # a name, not an address
    root = str(site_url)
    return root if root.endswith("/") else root + "/"


def published_page(root: str, src_uri: str) -> str:
    """The address of a page (its Markdown file ``src_uri``) on the published site, which has
    directory URLs (``dsa/kampfhelfer.md`` → ``<root>dsa/kampfhelfer/``)."""
    url = File(src_uri, None, "", use_directory_urls=True).url
    return root + ("" if url == "./" else url)


class OfflineConfig(Config):  # type: ignore[no-untyped-call]
    pyodide_dir = config_options.Type(str, default="node_modules/pyodide")
    shim = config_options.Type(str, default="node_modules/iframe-worker/shim/index.js")
    # payload characters per runtime script: each script is parsed and run as one main-thread
    # task, so smaller scripts keep the page responsive while the runtime loads
    chunk_chars = config_options.Type(int, default=500_000)


class OfflinePlugin(BasePlugin[OfflineConfig]):  # type: ignore[no-untyped-call]
    def __init__(self) -> None:
        self.base = Path.cwd()
        self.stats: dict[str, int] = {}

    # -- configuration -------------------------------------------------------------------
    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        self.base = Path(config.config_file_path).parent
        features = config.theme.get("features") or []
        config.theme["features"] = [
            f for f in features if not str(f).startswith("navigation.instant")
        ]
        self._check_inherited_plugins(config)
        polyfills = [str(p) for p in config.extra.get("polyfills", [])]
        shims = [i for i, p in enumerate(polyfills) if "iframe-worker" in p]
        if TRANSPORT not in polyfills or SHIM not in polyfills:
            raise PluginError(
                f"regelwerk-offline: extra.polyfills braucht {TRANSPORT} und {SHIM} "
                "(siehe mkdocs-offline.yml)"
            )
        if polyfills.index(TRANSPORT) > min(shims):
            raise PluginError(
                f"regelwerk-offline: {TRANSPORT} muss in extra.polyfills vor dem "
                "iframe-worker-Shim stehen (er merkt sich den echten Worker, bevor der Shim "
                "ihn auf file:// ersetzt)"
            )
        return config

    def _check_inherited_plugins(self, config: MkDocsConfig) -> None:
        """The export must keep every plugin of the online site.

        With ``plugins:`` as mappings (as in mkdocs.yml), ``INHERIT`` merges them. With lists
        it replaces them: then mkdocs-offline.yml must repeat mkdocs.yml's list (same options,
        same order) followed by the offline plugins; anything else fails with what to copy.
        """
        path = Path(config.config_file_path)
        own = yaml_load(path.read_text(encoding="utf-8"))  # a str: INHERIT is not followed
        inherit = own.get("INHERIT")
        if not inherit:
            return
        parent_path = (path.parent / str(inherit)).resolve()
        with parent_path.open("rb") as handle:
            parent_plugins = yaml_load(handle).get("plugins", [])
        if isinstance(parent_plugins, dict) and isinstance(own.get("plugins"), dict):
            return  # mappings: INHERIT merges them, every parent plugin stays
        parent = _plugin_entries(parent_plugins)
        child = _plugin_entries(own.get("plugins", []))
        if child[: len(parent)] != parent:
            wanted = [name for name, _ in parent]
            raise PluginError(
                f"regelwerk-offline: `plugins:` in {path.name} muss mit denen aus "
                f"{parent_path.name} beginnen, mit denselben Optionen ({', '.join(wanted)}), "
                "danach offline und regelwerk-offline. INHERIT ersetzt Listen, statt sie "
                f"zusammenzuführen: bitte {path.name} an {parent_path.name} angleichen."
            )

    # -- files ---------------------------------------------------------------------------
    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> Files:
        engine_zip = _generated(files, "engine-*.zip")
        snapshot = _generated(files, "engine-*.snap")
        # one archive for both boots: what the plain boot loads (more than the snapshot's)
        stdlib = _generated(files, "python_stdlib-plain-*.zip")
        for file in list(files):
            if ONLINE_ONLY.match(file.src_uri):
                files.remove(file)

        pyodide_dir = self.base / self.config.pyodide_dir
        shim = self.base / self.config.shim
        for needed in (pyodide_dir / "pyodide.js", shim):
            if not needed.exists():
                raise PluginError(f"regelwerk-offline: {needed} fehlt – bitte `npm ci` ausführen")

        def read(name: str) -> str:
            return (pyodide_dir / name).read_text(encoding="utf-8")

        version = json.loads(read("package.json"))["version"]
        worker = worker_source(
            bundled_worker(),
            read("pyodide.js"),
            classic_asm(read("pyodide.asm.mjs")),
            lock_file(pyodide_dir),
        )
        # handed to the worker in this order: it inflates (and starts compiling) the wasm,
        # then puts the snapshot together, as soon as each is complete, while the rest comes
        payload, layout = sparse_snapshot(snapshot)
        parts = {
            "worker": worker,
            # the same gzip bytes the online site ships, cached (compressing takes seconds)
            "wasm": base64.b64encode(compressed_wasm(pyodide_dir)).decode("ascii"),
            "snapshotLayout": json.dumps(layout, separators=(",", ":")),
            "snapshot": gzip_base64(payload, SNAPSHOT_LEVEL),
            "stdlib": gzip_base64(stdlib),
            "engine": gzip_base64(engine_zip),
        }
        counts, scripts = runtime_scripts(parts, self.config.chunk_chars)
        names = [f"runtime-{index:02d}.js" for index in range(len(scripts))]
        manifest = {"pyodide": version, "scripts": names, "parts": counts}
        transport = replace_once(
            (ASSETS / "transport.js").read_text(encoding="utf-8"),
            MANIFEST_MARKER,
            json.dumps(manifest),
            "offline/assets/transport.js",
            "Marke",
        )
        files.append(File.generated(config, TRANSPORT, content=transport))
        files.append(File.generated(config, SHIM, abs_src_path=str(shim)))
        for name, script in zip(names, scripts, strict=True):
            files.append(File.generated(config, f"{OFFLINE_PREFIX}/{name}", content=script))
        self.stats = {name: len(text) for name, text in parts.items()}
        return files

    # -- pages ---------------------------------------------------------------------------
    def on_page_content(
        self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        return DOWNLOAD_LINK.sub(DOWNLOAD_NOTE, html)

    def on_post_page(self, output: str, /, *, page: Page, config: MkDocsConfig) -> str:
        root = published_root(config.site_url)
        if root is None:
            return output
        address = escape(published_page(root, page.file.src_uri), quote=True)
        home = escape(root, quote=True)  # the players' link leads there (players/show.js)
        tags = (
            f'<meta name="{ONLINE_META}" content="{address}">\n'
            f'<meta name="{ONLINE_ROOT_META}" content="{home}">\n'
        )
        return output.replace("</head>", f"{tags}</head>", 1)
