"""The online site as an installable web app that works offline after the first visit.

Used by the ``regelwerk`` plugin (:mod:`site_plugins.regelwerk.plugin`), for the online build only:

- every page's ``<head>`` gets the manifest link, the apple-touch-icon, the theme colour and
  ``assets/pwa/pwa.js`` (registers ``sw.js`` on http(s) pages with workbox-window, shows how
  much is stored, „Offline bereit“, „Trotzdem offline speichern“ and „Neue Version – neu
  laden“) with its stylesheet;
- after the build (:func:`build`) ``manifest.webmanifest`` is written, and
  ``site_plugins/webapp/assets/build.mjs`` (Node, pinned npm packages) renders the icons from the
  project's logo, bundles ``site_plugins/webapp/assets/pwa.js`` (an ES module) with workbox-window
  into that classic script, and generates ``sw.js`` with Workbox: the precache list, the
  shell (what a visit needs first: start page, player view, search, scripts (pwa.js among
  them), styles), the runtime list (Pyodide, the cut standard libraries, the engine archive
  and snapshot: stored once a page with helpers was opened, or when the reader stores
  everything) and the list of every other page, fetched in the background (see
  ``site_plugins/webapp/assets/sw.js``).

Not in the offline export (``file://`` has no service workers) and not under ``mkdocs
serve``: there :func:`write_unregister` puts a ``sw.js`` that removes itself, so a browser
that once installed the built site's worker on the same address (127.0.0.1:8000, see
README) gets the live pages again instead of a stale cache.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

from site_plugins import project

HERE = Path(__file__).resolve().parent / "assets"
LOGO = Path(__file__).resolve().parent.parent / "assets" / "logo.svg"
PREFIX = "assets/pwa"
MANIFEST = "manifest.webmanifest"
SW_FILE = "sw.js"
BUILD_TIMEOUT_S = 300
# The engine's runtime (10.4 MB): not in the precache (a reader who never opens a page with
# helpers, e.g. a player with only the player view, never downloads it), stored by the
# service worker once a page with helpers asks for it (see pwa/sw.js). Pyodide's four files
# (site_plugins/regelwerk/plugin.py), the engine archive, the snapshot and the two cut standard
# libraries (site_plugins/laufzeit/snapshot.py): 8 files.
RUNTIME_PATTERNS = (
    "assets/pyodide/**/*",
    "assets/regelwerk/engine-*.{zip,snap}",
    "assets/regelwerk/python_stdlib*.zip",
)
# Shipped to the site as assets/pwa/<name>; the other files of pwa/ are build inputs.
PAGE_FILES = ("pwa.css",)
# The page script: assets/pwa.js here, bundled by build.mjs (after the pages are built).
PAGE_SCRIPT = f"{PREFIX}/pwa.js"

# the app's names come from the site (site_name, site_description): a group's own site is
# installed under its own name
SHORT_NAME_CHARS = 12  # what a home screen shows under an icon without cutting it
OFFLINE_NOTE = "nach dem ersten Besuch auch ohne Netz."
# Material's palette: primary "brown" (--md-primary-fg-color), the default scheme's background.
MATERIAL_PRIMARY = {"brown": "#795649"}
BACKGROUND = "#ffffff"


@dataclass(frozen=True)
class Icon:
    file: str
    size: int
    scale: float  # share of the square the logo's drawing takes
    background: str | None  # None: transparent
    purpose: str


def icons(theme_color: str) -> tuple[Icon, ...]:
    """The app icons. The mark's circumradius is 46 % of the logo's square, so at scale 0.8
    it stays inside the maskable safe zone (a circle of 40 % of the icon's size)."""
    return (
        Icon(f"{PREFIX}/icon-192.png", 192, 1.0, None, "any"),
        Icon(f"{PREFIX}/icon-512.png", 512, 1.0, None, "any"),
        Icon(f"{PREFIX}/icon-maskable-512.png", 512, 0.8, theme_color, "maskable"),
        Icon(f"{PREFIX}/apple-touch-icon.png", 180, 0.84, theme_color, "apple"),
    )


class PwaError(RuntimeError):
    """The web app part could not be built (the message says why)."""


def theme_color(config: MkDocsConfig) -> str:
    palette = config.theme.get("palette") or {}
    first = palette[0] if isinstance(palette, list) and palette else palette
    primary = str(first.get("primary", "")) if isinstance(first, dict) else ""
    if primary not in MATERIAL_PRIMARY:
        raise PwaError(f"Primärfarbe {primary!r} unbekannt – in webapp/pwa.py eintragen")
    return MATERIAL_PRIMARY[primary]


def manifest(config: MkDocsConfig) -> dict[str, Any]:
    """The web app manifest; its URLs are relative to itself (it lies in the site root)."""
    color = theme_color(config)
    return {
        "id": "./",
        "name": f"{config.site_name} – Hausregeln unserer Spielrunde",
        "short_name": short_name(config),
        "description": f"{(config.site_description or config.site_name).rstrip('.')} – "
        + OFFLINE_NOTE,
        "lang": "de",
        "dir": "ltr",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "theme_color": color,
        "background_color": BACKGROUND,
        "icons": [
            {
                "src": icon.file,
                "sizes": f"{icon.size}x{icon.size}",
                "type": "image/png",
                "purpose": icon.purpose,
            }
            for icon in icons(color)
            if icon.purpose != "apple"
        ],
    }


def add_files(files: Files, config: MkDocsConfig) -> None:
    """The page script's stylesheet (online build only; the script comes with :func:`build`)."""
    for name in PAGE_FILES:
        files.append(File.generated(config, f"{PREFIX}/{name}", abs_src_path=str(HERE / name)))


def short_name(config: MkDocsConfig) -> str:
    """The site's name, or its first word where the whole is too long for a home screen."""
    name = str(config.site_name)
    return name if len(name) <= SHORT_NAME_CHARS else name.split()[0][:SHORT_NAME_CHARS]


def head_tags(root: str, color: str, config: MkDocsConfig) -> str:
    """What every page of the online site gets in ``<head>``; ``root``: URL of the site root
    relative to the page (``../../``) or absolute (404.html, served at any depth)."""
    return "\n".join(
        (
            f'<link rel="manifest" href="{root}{MANIFEST}">',
            f'<meta name="theme-color" content="{color}">',
            f'<link rel="apple-touch-icon" href="{root}{PREFIX}/apple-touch-icon.png">',
            f'<meta name="apple-mobile-web-app-title" content="{escape(short_name(config))}">',
            f'<link rel="stylesheet" href="{root}{PREFIX}/pwa.css">',
            f'<script src="{root}{PAGE_SCRIPT}" defer></script>',
        )
    )


def page_root(page_url: str) -> str:
    """``ryssea/kampfhelfer/`` → ``../../``; ``index.html`` → ``""``."""
    return "../" * page_url.count("/")


def site_root(config: MkDocsConfig) -> str:
    """The site root as an absolute path (``/`` or ``/regelwerk/``), from ``site_url``."""
    path = urlsplit(config.site_url or "/").path or "/"
    return path if path.endswith("/") else path + "/"


def lunr_files(site_dir: Path) -> list[str]:
    """The lunr files Material's search worker imports for the index's languages."""
    index = json.loads((site_dir / "search" / "search_index.json").read_text("utf-8"))
    langs = index.get("config", {}).get("lang", ["en"])
    files = ["assets/javascripts/lunr/min/lunr.stemmer.support.min.js"]
    files += [f"assets/javascripts/lunr/min/lunr.{lang}.min.js" for lang in langs if lang != "en"]
    if len(langs) > 1:
        files.append("assets/javascripts/lunr/min/lunr.multi.min.js")
    if "ja" in langs:
        files.append("assets/javascripts/lunr/tinyseg.js")
    if {"th", "hi"} & set(langs):
        files.append("assets/javascripts/lunr/wordcut.js")
    return files


def unused_lunr_files(site_dir: Path) -> list[str]:
    """Material ships lunr for every language; the search here needs only a few of them."""
    needed = set(lunr_files(site_dir))
    folder = site_dir / "assets" / "javascripts" / "lunr"
    found = (p.relative_to(site_dir).as_posix() for p in folder.rglob("*") if p.is_file())
    return sorted(name for name in found if name not in needed)


def build_config(site_dir: Path, color: str) -> dict[str, Any]:
    """What build.mjs needs: the icons, and which files go into which list."""
    return {
        "site": str(site_dir),
        "logo": str(LOGO),
        "pageScript": {"source": str(HERE / "pwa.js"), "file": PAGE_SCRIPT},
        "swSource": str(HERE / "sw.js"),
        "swFile": SW_FILE,
        "icons": [
            {"file": i.file, "size": i.size, "scale": i.scale, "background": i.background}
            for i in icons(color)
        ],
        # files whose name already changes with their content: no revision needed
        "hashedNames": (
            r"\.[0-9a-f]{8}\.min\.(js|css)$|/engine-[0-9a-f]{16}\.(zip|snap)$"
            r"|/python_stdlib(-plain)?-[0-9a-f]{16}\.zip$"
        ),
        "maxFileBytes": 32 * 1024 * 1024,
        "runtime": {"patterns": list(RUNTIME_PATTERNS), "ignores": [], "minFiles": 8},
        "core": {
            "patterns": [
                "index.html",
                "404.html",
                # the player view: a phone that scanned the game master's code once opens
                # the next code in flight mode too (no engine needed, so it is small)
                "spieler/index.html",
                "sitemap.xml",
                MANIFEST,
                "search/search_index.json",
                "assets/**/*.{js,mjs,css,json,wasm,gz,zip,snap,svg,png}",
                *lunr_files(site_dir),
            ],
            "ignores": ["**/*.map", *RUNTIME_PATTERNS, *unused_lunr_files(site_dir)],
        },
        "pages": {
            # with the pages: the search index's documents (the core has only its config), which
            # a page fetches only when its reader searches (regelwerk-laufzeit, SEARCH_DOCS)
            "patterns": ["**/*.html", "search/search_docs.json"],
            "ignores": ["index.html", "404.html", "spieler/index.html"],
        },
    }


def build(site_dir: Path, config: MkDocsConfig) -> dict[str, Any]:
    """Manifest, icons, page script and service worker into the finished site; returns
    build.mjs' figures."""
    if shutil.which("node") is None:
        raise PwaError("Node.js fehlt (wird für Icons und Service Worker gebraucht)")
    color = theme_color(config)
    (site_dir / MANIFEST).write_text(
        json.dumps(manifest(config), ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )
    return write_worker(site_dir, color)


def write_worker(site_dir: Path, color: str) -> dict[str, Any]:
    """Icons, page script and service worker (build.mjs) for the pages now in ``site_dir``;
    returns build.mjs' figures. Also what a test runs on a copied build to make it the next
    deployment."""
    settings = build_config(site_dir, color)
    try:
        proc = subprocess.run(
            ["node", str(HERE / "build.mjs"), json.dumps(settings)],
            cwd=project.folder(),  # the site's node_modules (build.mjs resolves from there)
            capture_output=True,
            text=True,
            timeout=BUILD_TIMEOUT_S,
        )
    except subprocess.TimeoutExpired as error:
        raise PwaError(f"build.mjs dauerte über {BUILD_TIMEOUT_S} s") from error
    if proc.returncode != 0:
        raise PwaError((proc.stderr.strip() or proc.stdout.strip())[-2000:] or "unbekannt")
    figures: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return figures


def write_unregister(site_dir: Path) -> None:
    """``mkdocs serve``: a ``sw.js`` that removes itself (and nothing else of the web app)."""
    shutil.copyfile(HERE / "unregister-sw.js", site_dir / SW_FILE)
