"""Allgemein: the system object that the plain dice rolls register with.

There is no rule text and no data file behind it: the rolls apply to the dice expressions of
every rule text (the clickable "1W6+1"), so this module holds only ``SYSTEM``.
"""

from __future__ import annotations

from engine.registry import new_system

SYSTEM = new_system("allgemein", "Allgemein", "alle Regeltexte")
