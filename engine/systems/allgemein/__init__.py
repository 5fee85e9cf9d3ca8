"""Allgemein: plain dice rolls for the dice expressions in all rule texts (the clickable "1W6+1").

Map for a newcomer:

- ``common.py`` – ``SYSTEM`` (no rule text of its own, no data file).
- ``wurf.py`` – the action ``wurf``: one roll of a dice expression, or the better / worse of
  two (Vorteil / Nachteil), with exact odds (``combined``).

Tests: ``tests/engine/allgemein/``.
"""

from engine.systems.allgemein import wurf
from engine.systems.allgemein.common import SYSTEM

__all__ = ["SYSTEM", "wurf"]
