"""Regelwerk engine: dice, exact odds and the combat rules of several role-playing systems.

Standard library only; runs unchanged on CPython >= 3.11 and in Pyodide.
The public door is :mod:`engine.api` (``run``, ``describe``, ``catalog``).
"""

from engine.api import catalog, describe, run, run_json
from engine.errors import EngineError

__all__ = ["EngineError", "catalog", "describe", "run", "run_json"]
