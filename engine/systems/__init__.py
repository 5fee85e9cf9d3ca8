"""Importing this package registers every rule system's actions."""

from engine.systems import ryssea

# isort: split
from engine.systems import dsa

# isort: split
from engine.systems import guete

# isort: split
from engine.systems import aktionswuerfel

# isort: split
from engine.systems import pathfinder

# isort: split
from engine import data_files, declarative

# a site's own rule folders for the command line (REGELWERK_REGELN, else ./regeln)
for _folder in data_files.rule_dirs_from_environment():
    data_files.add_rule_dir(_folder)
declarative.load_all()  # systems and actions declared in the rule data (aktionen:)

# isort: split
from engine.systems import allgemein  # noqa: E402

__all__ = [
    "aktionswuerfel",
    "allgemein",
    "dsa",
    "guete",
    "pathfinder",
    "ryssea",
]
