"""The engine's JSON boundary: the CLI, the site build and the browser worker all call these.

- ``run(system, action, params, seed)`` rolls and explains; it returns a JSON-serialisable dict,
  ``{"ok": true, ...}`` or ``{"ok": false, "error": {"field", "message"}}`` for bad input.
- ``describe(system, action)`` returns the parameter schema the forms are generated from.
- ``catalog()`` lists every system and action.
- ``run_json(request)`` is the string-in, string-out form the browser worker uses.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import engine.systems  # noqa: F401  (registers every system's actions)
from engine.errors import EngineError
from engine.params import validate_record
from engine.registry import SYSTEMS, Action

MAX_SEED = 2**53 - 1  # the largest integer JavaScript numbers carry exactly


def _action(system: str, action: str) -> Action:
    if system not in SYSTEMS:
        names = ", ".join(sorted(SYSTEMS))
        raise EngineError(f"System: „{system}“ ist unbekannt (bekannt: {names}).", "system")
    actions = SYSTEMS[system].actions
    if action not in actions:
        names = ", ".join(sorted(actions))
        raise EngineError(
            f"Aktion: „{action}“ gibt es für {SYSTEMS[system].title} nicht (vorhanden: {names}).",
            "action",
        )
    return actions[action]


def _seed(seed: Any) -> int:
    if seed is None or seed == "":
        return random.SystemRandom().randrange(2**32)
    if isinstance(seed, str) and re.fullmatch(r"[0-9]{1,16}", seed.strip()):
        seed = int(seed.strip())
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise EngineError(f"Seed: muss eine ganze Zahl von 0 bis {MAX_SEED} sein.", "seed")
    return seed


def describe(system: str, action: str) -> dict[str, Any]:
    """Parameter schema of one action (raises EngineError for an unknown system/action)."""
    return _action(system, action).describe()


def catalog() -> dict[str, Any]:
    return {
        "systems": [
            {
                "name": s.name,
                "title": s.title,
                "source": s.source,
                "actions": [{"name": a.name, "title": a.title} for a in s.actions.values()],
            }
            for s in SYSTEMS.values()
        ]
    }


def run(
    system: str, action: str, params: dict[str, Any] | None = None, seed: int | None = None
) -> dict[str, Any]:
    """Validate, roll with ``random.Random(seed)`` and explain. Never raises for bad input."""
    out: dict[str, Any] = {"ok": False, "system": system, "action": action}
    try:
        spec = _action(system, action)
        used_seed = _seed(seed)
        out["seed"] = used_seed
        values = validate_record(spec.params, {} if params is None else params)
        out["params"] = values
        out["result"] = spec.func(values, random.Random(used_seed))
        out["ok"] = True
    except EngineError as error:
        out["error"] = error.to_dict()
    return out


def run_json(request: str) -> str:
    """String form of :func:`run` for the browser: ``{"system","action","params","seed"}``.

    Any failure, even an unexpected one, comes back as ``ok: false`` with a German message, so
    a widget never breaks on an engine error.
    """
    try:
        data = json.loads(request)
        if not isinstance(data, dict):
            raise EngineError("Anfrage: muss ein JSON-Objekt sein.")
        if data.get("type") == "describe":
            body: dict[str, Any] = {
                "ok": True,
                "describe": describe(str(data.get("system")), str(data.get("action"))),
            }
        else:
            body = run(
                str(data.get("system", "")),
                str(data.get("action", "")),
                data.get("params"),
                data.get("seed"),
            )
    except EngineError as error:
        body = {"ok": False, "error": error.to_dict()}
    except Exception as error:
        body = {
            "ok": False,
            "error": {"field": "", "message": f"Interner Fehler der Regel-Engine: {error!r}"},
        }
    return json.dumps(body, ensure_ascii=False, sort_keys=True)
