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
from engine import declarative

declarative.load_all()  # systems and actions declared in engine/data/*.yaml (aktionen:)

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
