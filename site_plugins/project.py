"""The site being built: its folder (where ``mkdocs.yml`` is), its npm packages and its cache.

The plugins come from the installed ``regelwerk`` package; the site that uses them is a folder
of its own (this repository, or a group's own site made by ``regelwerk-neue-seite``). Whatever
belongs to that site is found here, never beside the package: its ``node_modules`` (Pyodide,
rollup, Workbox – installed by the site's ``npm ci`` from the package's own pins,
:mod:`site_plugins.npm`), its build cache ``.cache/`` and its rule data (``regeln:`` of the
``regelwerk`` plugin). The plugin sets the folder in ``on_config``; before that (scripts,
tests) it is the working directory.
"""

from __future__ import annotations

from pathlib import Path

_FOLDER: list[Path] = []


def set_folder(path: Path) -> None:
    """The site's folder from now on (the folder of the ``mkdocs.yml`` being built)."""
    _FOLDER[:] = [path.resolve()]


def folder() -> Path:
    return _FOLDER[0] if _FOLDER else Path.cwd().resolve()


def cache(kind: str) -> Path:
    """``.cache/<kind>`` of the site (bundles, snapshots, the compressed wasm)."""
    return folder() / ".cache" / kind


def node_modules() -> Path:
    return folder() / "node_modules"
