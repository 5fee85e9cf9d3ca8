"""The engine's JSON boundary: the CLI, the site build and the browser worker all call these.

- ``run(system, action, params, seed)`` rolls and explains; it returns a JSON-serialisable dict,
  ``{"ok": true, ...}`` or ``{"ok": false, "error": {"field", "message"}}`` for bad input.
- ``describe(system, action)`` returns the parameter schema the forms are generated from.
- ``catalog()`` lists every system and action.
- ``fight_contract(system)`` is the system's fight: the life values, the states they lead to
  and the conditions (:mod:`engine.fight_contract`); ``fight_state(system, values)`` the state
  of a fighter with these values – the one state function every result uses.
- ``what_if(system, action, params, field)`` and ``compare(…)`` are „Was wäre wenn“ and
  „Vergleichen“ (:mod:`engine.odds`): the odds before the roll across the opponent's value or
  across the choices of a field.
- ``run_json(request)`` is the string-in, string-out form the browser worker uses (also with
  ``"type": "describe"``, ``"fight"`` and ``"state"``).

Neither ``run`` nor ``run_json`` lets an exception escape: bad input gets a German message
naming the field; a request whose exact odds would be too expensive is refused within its
work budget (:mod:`engine.budget`); a malformed JSON request (invalid, not an object, too large,
nested too deeply, numbers too long, NaN/Infinity) gets a German message of its own. Only a
bug in the engine ends in the last-resort answer „Interner Fehler der Regel-Engine …“ (its
error carries a short ``detail`` with the kind of exception, for the bug report).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Mapping
from itertools import accumulate
from typing import Any

import engine.systems  # noqa: F401  (registers every system's actions)
from engine import odds
from engine.budget import request_budget
from engine.data_files import assumptions_used
from engine.errors import EngineError, echo
from engine.fight_contract import contract_of, state_of
from engine.formatting import number
from engine.params import validate_record
from engine.registry import SYSTEMS, Action

MAX_SEED = 2**53 - 1  # the largest integer JavaScript numbers carry exactly
MAX_REQUEST_CHARS = 1_000_000
"""Largest ``run_json`` request, in characters (about 1 MB; a full Tickleiste is below 20 kB)."""
MAX_DEPTH = 20
"""Deepest nesting of lists and objects in a ``run_json`` request (the forms need 4)."""
MAX_NUMBER_DIGITS = 100
"""Longest integer literal in a ``run_json`` request (the ranges end at a few digits)."""


def _name(value: Any, what: str, field: str) -> str:
    if not isinstance(value, str):
        raise EngineError(f"{what}: muss ein Text sein, nicht {echo(value)}.", field)
    return value


def _system(system: Any) -> str:
    name = _name(system, "System", "system")
    if name not in SYSTEMS:
        names = ", ".join(sorted(SYSTEMS))
        raise EngineError(f"System: „{echo(name)}“ ist unbekannt (bekannt: {names}).", "system")
    return name


def _action(system: Any, action: Any) -> Action:
    system = _system(system)
    action = _name(action, "Aktion", "action")
    actions = SYSTEMS[system].actions
    if action not in actions:
        names = ", ".join(sorted(actions))
        raise EngineError(
            f"Aktion: „{echo(action)}“ gibt es für {SYSTEMS[system].title} nicht "
            f"(vorhanden: {names}).",
            "action",
        )
    return actions[action]


def _seed(seed: Any) -> int:
    if seed is None or seed == "":
        return random.SystemRandom().randrange(2**32)
    if isinstance(seed, str) and re.fullmatch(r"[0-9]{1,16}", seed.strip()):
        seed = int(seed.strip())
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise EngineError(f"Seed: muss eine ganze Zahl von 0 bis {number(MAX_SEED)} sein.", "seed")
    return seed


def describe(system: str, action: str) -> dict[str, Any]:
    """Parameter schema of one action (raises EngineError for an unknown system/action)."""
    return _action(system, action).describe()


def fight_contract(system: Any) -> dict[str, Any]:
    """The fight contract of a system: ``{"system", "values", "reads", "states", "fit",
    "conditions", "note"}`` (:mod:`engine.fight_contract`; raises EngineError for an unknown
    system). Every system has one – without a fight, its lists are empty."""
    return contract_of(_system(system)).to_dict()


def fight_state(system: Any, values: Any) -> dict[str, Any] | None:
    """The state of a fighter with these ``values`` (the contract's names: life values and
    Kennwerte; a value left out, ``null`` or ``""`` is unknown, never 0), by the one state
    function :func:`engine.fight_contract.state_of`; ``None`` when nothing decides. Bad input
    raises EngineError naming the field (``values.lep``)."""
    name = _system(system)
    contract = contract_of(name)
    if values is None:
        values = {}
    if not isinstance(values, Mapping):
        raise EngineError(
            f"Werte: müssen ein Objekt sein (Name: Zahl), nicht {echo(values)}.", "values"
        )
    checked = validate_record(contract.params(), values, "values")
    return state_of(name, checked)


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


def _internal_error(error: BaseException) -> dict[str, str]:
    """Last resort, for a bug: German, short, with the exception's kind for the bug report."""
    return {
        "field": "",
        "message": "Interner Fehler der Regel-Engine – bitte melden (mit Eingaben und Seed).",
        "detail": echo(f"{type(error).__name__}: {str(error)[:200]}", 120),
    }


def _error_of(error: Exception) -> dict[str, str]:
    """The German error of a request that failed: the engine's own message naming the field,
    too deep or too big an input, or – a bug – the last-resort message."""
    if isinstance(error, EngineError):
        return error.to_dict()
    if isinstance(error, RecursionError):
        return {"field": "", "message": "Eingabe: zu tief verschachtelt."}
    if isinstance(error, MemoryError):
        return {"field": "", "message": "Eingabe: zu groß für den Speicher."}
    return _internal_error(error)


ASSUMED_CAPTION = "Für dieses Ergebnis angenommen"


def _name_assumptions(result: dict[str, Any], assumed: list[str]) -> None:
    """A result names the assumptions (gaps of the text, ``annahme`` in the data) that were
    used while computing it, as the last notes of its display."""
    display = result.get("display")
    if assumed and isinstance(display, dict) and isinstance(display.get("sections"), list):
        display["sections"].append({"kind": "notes", "caption": ASSUMED_CAPTION, "items": assumed})


def run(
    system: str, action: str, params: dict[str, Any] | None = None, seed: int | None = None
) -> dict[str, Any]:
    """Validate, roll with ``random.Random(seed)`` and explain. Never raises."""
    out: dict[str, Any] = {"ok": False, "system": system, "action": action}
    try:
        spec = _action(system, action)
        used_seed = _seed(seed)
        out["seed"] = used_seed
        values = validate_record(spec.params, {} if params is None else params)
        out["params"] = values
        with request_budget(), assumptions_used() as assumed:
            result = spec.func(values, random.Random(used_seed))
        _name_assumptions(result, assumed)
        out["result"] = result
        out["ok"] = True
    except Exception as error:  # bad input, or as a last resort a bug: said, never raised
        out["error"] = _error_of(error)
    if not out["ok"]:
        # an unusable system/action name is not echoed back in full
        for key in ("system", "action"):
            if not isinstance(out[key], str) or len(out[key]) > 40:
                out[key] = echo(out[key])
    return out


def _guarded(key: str, compute: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """``{"ok": true, key: …}`` or ``{"ok": false, "error": …}`` – never raises."""
    try:
        return {"ok": True, key: compute()}
    except Exception as error:  # bad input, or as a last resort a bug: said, never raised
        return {"ok": False, "error": _error_of(error)}


def what_if(
    system: str, action: str, params: dict[str, Any] | None = None, field: str | None = None
) -> dict[str, Any]:
    """„Was wäre wenn“: the action's odds across the opponent's value (or ``field``), as
    ``{"ok": true, "what_if": {...}}`` (:func:`engine.odds.what_if`). Never raises."""
    return _guarded("what_if", lambda: odds.what_if(system, action, params, field))


def compare(
    system: str, action: str, params: dict[str, Any] | None = None, field: str | None = None
) -> dict[str, Any]:
    """„Vergleichen“: the action's odds for each choice of ``field`` (default: the first it
    names), as ``{"ok": true, "compare": {...}}`` (:func:`engine.odds.compare`). Never raises."""
    return _guarded("compare", lambda: odds.compare(system, action, params, field))


_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_BRACKET_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def _too_deep(text: str) -> bool:
    """True when the text opens more than :data:`MAX_DEPTH` lists/objects at once.

    Checked on the text, before ``json.loads``: the C parser recurses once per level, and in
    Pyodide a deep enough nesting overflows the WebAssembly stack (a fatal error that no
    ``except`` catches) before Python's recursion limit would stop it. Strings are removed
    first (their brackets do not nest); the rest is a running sum, in C loops."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return False
    skeleton = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text))
    return max(accumulate(map(_BRACKET_STEP.__getitem__, skeleton)), default=0) > MAX_DEPTH


def _parse_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_NUMBER_DIGITS:
        raise EngineError(
            f"Anfrage: eine Zahl mit {number(digits)} Stellen ist zu lang "
            f"(höchstens {MAX_NUMBER_DIGITS} Stellen).",
        )
    return int(text)


def _parse_constant(name: str) -> Any:
    raise EngineError(
        f"Anfrage: {name} ist keine gültige Zahl (NaN und Infinity gibt es in JSON nicht)."
    )


def _parse(request: Any) -> dict[str, Any]:
    """The request object, or a German EngineError saying what is wrong with the text."""
    if not isinstance(request, str):
        raise EngineError(f"Anfrage: muss ein JSON-Text sein, nicht {echo(request)}.")
    if len(request) > MAX_REQUEST_CHARS:
        raise EngineError(
            f"Anfrage: zu groß ({number(len(request))} Zeichen) – höchstens "
            f"{number(MAX_REQUEST_CHARS)} Zeichen (etwa 1 MB)."
        )
    if _too_deep(request):
        raise EngineError(f"Anfrage: zu tief verschachtelt (höchstens {MAX_DEPTH} Ebenen).")
    try:
        data = json.loads(request, parse_int=_parse_int, parse_constant=_parse_constant)
    except json.JSONDecodeError as error:
        raise EngineError(
            f"Anfrage: kein gültiges JSON (Zeile {error.lineno}, Spalte {error.colno})."
        ) from None
    except RecursionError:
        raise EngineError(
            f"Anfrage: zu tief verschachtelt (höchstens {MAX_DEPTH} Ebenen)."
        ) from None
    if not isinstance(data, dict):
        raise EngineError(f"Anfrage: muss ein JSON-Objekt sein, nicht {echo(data)}.")
    return data


def run_json(request: str) -> str:
    """String form of :func:`run` for the browser: ``{"system","action","params","seed"}``;
    with ``"type"``: ``"describe"`` (``{"system","action"}`` → ``describe``), ``"fight"``
    (``{"system"}`` → ``fight``: :func:`fight_contract`), ``"state"`` (``{"system","values"}``
    → ``state``: :func:`fight_state`, ``null`` when nothing decides), ``"what_if"`` or
    ``"compare"`` (``{"system","action","params","field"}`` → :func:`what_if`, :func:`compare`).

    Any failure, even an unexpected one, comes back as ``ok: false`` with a German message, so
    a widget never breaks on an engine error.
    """
    try:
        data = _parse(request)
        kind = data.get("type")
        if kind == "describe":
            body: dict[str, Any] = {
                "ok": True,
                "describe": describe(data.get("system", ""), data.get("action", "")),
            }
        elif kind == "fight":
            body = {"ok": True, "fight": fight_contract(data.get("system", ""))}
        elif kind in ("what_if", "compare"):
            ask = what_if if kind == "what_if" else compare
            where = (data.get("system", ""), data.get("action", ""))
            body = ask(*where, data.get("params"), data.get("field"))
        elif kind == "state":
            state = fight_state(data.get("system", ""), data.get("values"))
            body = {"ok": True, "state": state}
        else:
            body = run(
                data.get("system", ""),
                data.get("action", ""),
                data.get("params"),
                data.get("seed"),
            )
        return json.dumps(body, ensure_ascii=False, sort_keys=True)
    except EngineError as error:
        body = {"ok": False, "error": error.to_dict()}
    except RecursionError:
        body = {"ok": False, "error": {"field": "", "message": "Anfrage: zu tief verschachtelt."}}
    except Exception as error:  # last resort: a bug, never bad input
        body = {"ok": False, "error": _internal_error(error)}
    return json.dumps(body, ensure_ascii=False, sort_keys=True)
