"""Test support every system's engine tests share, bound to a system by ``SystemTests``.

A system's ``tests/engine/<system>/helpers.py`` keeps only what is its own – the source name,
the sample values its tests start from (``SAMPLE``), the independent models of its rules – and
binds the rest::

    TESTS = SystemTests("dsa", SAMPLE)
    run, error, fields, annahme = TESTS.run, TESTS.error, TESTS.fields, TESTS.annahme

``run`` and ``error`` call the engine through its JSON boundary (``engine.api.run``), with the
sample values under the test's own. The helpers that need no system (``assumed``, ``notes``,
``applies``, ``seed_for`` …) are imported from here directly.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import api
from engine.data_files import load

# what a player must not read: source lines, file names, the machinery's words
NOT_FOR_PLAYERS = re.compile(r"\bL[0-9]+\b|Engine|Seed|JSON|\.txt|[0-9]{3}_[0-9a-f]{16}")


@dataclass(frozen=True)
class SystemTests:
    """The helpers of one system's tests: ``system`` as ``engine.catalog()`` names it, and the
    sample situation its tests start from per action (given explicitly: the engine fills in no
    required field; a test's own params override it)."""

    system: str
    sample: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def with_sample(self, action: str, params: Any) -> Any:
        """The sample values of ``action`` under ``params`` (anything but a dict unchanged: a
        test of bad input sends it as it is)."""
        if not isinstance(params, dict):
            return params
        return {**self.sample.get(action, {}), **params}

    def run(
        self, action: str, params: dict[str, Any] | None = None, seed: int = 1
    ) -> dict[str, Any]:
        """The result of ``action``; the answer must be ok, survive a JSON round trip and have a
        headline and an outcome."""
        answer = api.run(self.system, action, self.with_sample(action, params or {}), seed)
        assert answer["ok"], answer.get("error")
        assert json.loads(json.dumps(answer)) == answer  # JSON round trip
        result: dict[str, Any] = answer["result"]
        assert result["display"]["headline"] and result["display"]["outcome"]
        return result

    def error(self, action: str, params: dict[str, Any]) -> dict[str, str]:
        """The error ``action`` answers (``message`` and ``field``); it must not succeed."""
        answer = api.run(self.system, action, self.with_sample(action, params), 1)
        assert not answer["ok"], answer
        error: dict[str, str] = answer["error"]
        return error

    def fields(self, action: str) -> dict[str, dict[str, Any]]:
        """The schema of an action's fields by name, as ``describe`` gives it."""
        return {f["name"]: f for f in api.describe(self.system, action)["params"]}

    def form_params(self, action: str, params: dict[str, Any]) -> dict[str, Any]:
        """What the form sends: every field's pre-filled value under ``params``, without the
        fields whose ``when`` does not hold (read from the values as they stand, like
        forms.js)."""
        schema = self.fields(action)
        values = {name: f["default"] for name, f in schema.items()} | self.with_sample(
            action, params
        )
        return {name: value for name, value in values.items() if applies(schema[name], values)}

    def send(self, action: str, params: dict[str, Any], seed: int = 1) -> dict[str, Any]:
        """The engine's answer to what the form sends (``form_params``)."""
        return api.run(self.system, action, self.form_params(action, params), seed)

    def annahme(self, key: str) -> str:
        """The player-facing text of the Annahme at ``key`` in the system's data, as a result
        names it."""
        node: Any = load(self.system).content
        for part in key.split("."):
            node = node[int(part)] if isinstance(node, list) else node[part]
        assert node.get("annahme") is True, f"{key} ist keine Annahme"
        return " ".join(str(node["text"]).split())

    def seek(
        self,
        action: str,
        params: dict[str, Any],
        wanted: Callable[[dict[str, Any]], bool],
        seeds: int = 2000,
    ) -> dict[str, Any]:
        """The result of the first seed whose result satisfies ``wanted`` (the engine is
        seeded, so the search is deterministic)."""
        for seed in range(seeds):
            result = self.run(action, params, seed)
            if wanted(result):
                return result
        raise AssertionError(f"{action}: no seed below {seeds} gives the wanted result")


# ---------------------------------------------------------------------------------------------
# What a result shows
# ---------------------------------------------------------------------------------------------


def assumed(result: dict[str, Any]) -> list[str]:
    """The assumptions a result names (its notes „Für dieses Ergebnis angenommen“), or []."""
    return notes(result, api.ASSUMED_CAPTION)


def notes(result: dict[str, Any], caption: str = "Hinweise") -> list[str]:
    """The items of the display's notes section ``caption``, or []."""
    for section in result["display"]["sections"]:
        if section["kind"] == "notes" and section["caption"] == caption:
            items: list[str] = section["items"]
            return items
    return []


def roll_line(result: dict[str, Any], prefix: str) -> dict[str, Any]:
    """The rolled line of the result's display whose label begins with ``prefix``."""
    return next(
        item
        for section in result["display"]["sections"]
        if section["kind"] == "rolls"
        for item in section["items"]
        if item["label"].startswith(prefix)
    )


def chance_labels(result: dict[str, Any]) -> list[str]:
    """The labels of the result's (first) odds, in the order shown."""
    section = next(s for s in result["display"]["sections"] if s["kind"] == "chances")
    return [item["label"] for item in section["items"]]


def player_texts(value: Any) -> list[str]:
    """Every string in a display or a describe answer (the action's ``source`` excluded)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for k, v in value.items() if k != "source" for t in player_texts(v)]
    if isinstance(value, list):
        return [t for v in value for t in player_texts(v)]
    return []


def applies(field: dict[str, Any], values: dict[str, Any]) -> bool:
    """Whether the form shows (and sends) ``field`` for these values, as forms.js decides it."""
    return all(values.get(other) in allowed for other, allowed in field.get("when", {}).items())


# ---------------------------------------------------------------------------------------------
# Seeds: the engine rolls with random.Random(seed), so a test replays the same draws
# ---------------------------------------------------------------------------------------------


def draws(seed: int, sides: list[int]) -> list[int]:
    """The first dice ``random.Random(seed)`` rolls, one per entry of ``sides``."""
    rng = random.Random(seed)
    return [rng.randint(1, s) for s in sides]


def seed_for(faces: list[int], sides: int = 20, limit: int = 200_000) -> int:
    """The first seed whose first dice (all with ``sides`` sides) show ``faces``."""
    for seed in range(limit):
        rng = random.Random(seed)
        if all(rng.randint(1, sides) == face for face in faces):
            return seed
    raise AssertionError(f"no seed for {faces}")


def seed_where(predicate: Callable[[random.Random], bool], limit: int = 20_000) -> int:
    """The first seed whose generator satisfies ``predicate``."""
    for seed in range(limit):
        if predicate(random.Random(seed)):
            return seed
    raise AssertionError("no seed found")
