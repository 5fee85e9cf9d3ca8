"""Importing this package registers every rule system's actions.

The engine brings one system of its own (``allgemein``: the dice expressions of any text). The
others are a site's content, found in its rule folders (:func:`engine.data_files.rule_dirs`):
``<name>.json`` compiled from ``<name>.yaml``. A data file whose ``system`` names the system
(``system: ryssea``) belongs to a Python package of the same name beside it –
``regeln/<name>/`` of the site, imported as ``regeln.<name>`` (in the browser the archive holds
it at the same place); a data file with ``system: {titel, quelle}`` is a system declared in
YAML alone (:mod:`engine.declarative`). Systems register in name order.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from engine import data_files, declarative
from engine.registry import SYSTEMS

PACKAGE = "regeln"  # the Python packages of a site's systems: regeln.<name>


def _python_systems() -> list[str]:
    """The systems whose data file names a Python package (``system: <name>``); the site's
    folder, where its ``regeln`` package is, goes on ``sys.path``."""
    found = []
    for name in data_files.system_names():
        path = data_files.data_file(name)
        if path is None or data_files.load(name).content.get("system") != name:
            continue
        found.append(name)
        if (path.parent / name / "__init__.py").exists() and str(
            path.parent.parent
        ) not in sys.path:
            sys.path.append(str(path.parent.parent))
    return sorted(found)


def load_site_systems() -> None:
    """Register the systems of every rule folder: Python packages first, then the declared."""
    for name in _python_systems():
        importlib.import_module(f"{PACKAGE}.{name}")
    declarative.load_all()


def use_rules(folder: Path) -> list[str]:
    """Read a site's rule folder too and register its systems – its Python packages and
    those declared in YAML (the MkDocs plugin's ``regeln:``); returns their names."""
    before = set(SYSTEMS)
    data_files.add_rule_dir(folder)
    load_site_systems()
    return sorted(set(SYSTEMS) - before)


# a site's own rule folders for the command line (REGELWERK_REGELN, else ./regeln)
for _folder in data_files.rule_dirs_from_environment():
    data_files.add_rule_dir(_folder)
load_site_systems()

from engine.systems import allgemein  # noqa: E402  (after the site's: last in the catalog)

__all__ = ["allgemein", "load_site_systems", "use_rules"]
