"""The browser code as the site serves it: ES modules bundled into classic scripts.

The sources are ES modules in ``site_plugins/assets/js/`` (the page) and
``site_plugins/laufzeit/js/`` (the runtime); ``bundle.mjs`` beside this file bundles them
with rollup (from npm, like everything the build runs in Node) into seven scripts:

- ``regelwerk.js``: the code of every page, the one script ``mkdocs.yml`` lists;
- ``regelwerk-helfer.js``: the helpers, the fight and „Meine Werte“, and
  ``regelwerk-spieler.js``: the player view – each loaded by ``regelwerk.js`` where a page has
  them (they take regelwerk.js's modules from it, not a copy);
- ``engine-start.js``: inlined into the ``<head>`` of online pages that boot the engine;
- ``worker.js``: the engine worker (online a module worker; the offline export splices
  Pyodide in front of it and starts it from a Blob);
- ``search-hold-worker.js``: Material's search worker wrapped so it waits for the boot;
- ``qr-decoder.js``: the QR decoder (jsQR), loaded by the page only when the game master
  opens the camera to scan a phone's answer code (players/scan.js).

Bundling takes a few seconds (rollup + terser), and a test run builds the site several times:
the result is kept in ``.cache/bundle/``, named by a hash of every input (the sources, the
bundler, ``package-lock.json``), so a change of any of them bundles afresh.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from functools import cache
from pathlib import Path

from site_plugins import project
from site_plugins.laufzeit.build_cache import keep_newest, write_atomically

HERE = Path(__file__).resolve().parent
SOURCES = (HERE.parent / "assets" / "js", HERE / "js")  # page code, runtime
BUNDLER = HERE / "bundle.mjs"
KEEP_CACHED = 4
BUNDLE_TIMEOUT_S = 120
OUTPUTS = (
    "regelwerk.js",
    "regelwerk-helfer.js",
    "regelwerk-spieler.js",
    "engine-start.js",
    "worker.js",
    "search-hold-worker.js",
    "qr-decoder.js",
)


class BundleError(Exception):
    """The browser code could not be bundled (the message is German)."""


def _inputs_key() -> str:
    digest = hashlib.sha256()
    for path in [*(p for folder in SOURCES for p in sorted(folder.rglob("*.js"))), BUNDLER]:
        digest.update(path.relative_to(HERE.parent).as_posix().encode())
        digest.update(path.read_bytes())
    lock = project.folder() / "package-lock.json"  # the npm packages bundled in (lean-qr)
    digest.update(lock.read_bytes() if lock.exists() else b"-")
    return digest.hexdigest()[:20]


def bundles() -> dict[str, str]:
    """Output name → the bundled script (see the module's docstring)."""
    return _bundles(_inputs_key())


@cache
def _bundles(key: str) -> dict[str, str]:
    cached = project.cache("bundle") / f"{key}.json"
    if cached.exists():
        return _checked(json.loads(cached.read_text(encoding="utf-8")))
    if shutil.which("node") is None:
        raise BundleError("Node.js fehlt (wird zum Bündeln des Browsercodes gebraucht)")
    try:
        proc = subprocess.run(
            ["node", str(BUNDLER)],
            cwd=project.folder(),  # the site's node_modules (bundle.mjs resolves from there)
            capture_output=True,
            text=True,
            timeout=BUNDLE_TIMEOUT_S,
        )
    except subprocess.TimeoutExpired as error:
        raise BundleError(f"Bündeln dauerte über {BUNDLE_TIMEOUT_S} s") from error
    if proc.returncode != 0:
        detail = (proc.stderr.strip() or proc.stdout.strip())[-2000:] or "unbekannter Fehler"
        raise BundleError(f"Browsercode nicht gebündelt (rollup): {detail}")
    result = _checked(json.loads(proc.stdout))
    _store(key, proc.stdout)
    return result


def _checked(result: object) -> dict[str, str]:
    if not isinstance(result, dict) or sorted(result) != sorted(OUTPUTS):
        raise BundleError(f"Bündel unvollständig: erwartet {', '.join(OUTPUTS)}")
    return {str(name): str(code) for name, code in result.items()}


def _store(key: str, text: str) -> None:
    """Write atomically (parallel builds share the cache) and keep the newest few."""
    write_atomically(project.cache("bundle"), f"{key}.json", text.encode("utf-8"))
    keep_newest(project.cache("bundle"), "*.json", KEEP_CACHED)
