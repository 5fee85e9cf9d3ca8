"""Rule data: YAML in a site's ``regeln/`` is the source; the engine reads the JSON compiled
from it.

The engine stays standard-library only (it runs in Pyodide without PyYAML), so
``python -m site_plugins.compile_data`` turns every ``*.yaml`` into ``*.json`` and a test
checks both are in step. Values are validated when read: a bad entry raises
:class:`DataError` naming the file and the key.

Every system reads its data through one :class:`RuleData`: typed values, dice expressions
(``dice``), a choice the code knows (``choice``), the Annahmen an action lists
(``assumptions_for``) and the Annahme the rule code relied on (``assume``). The odds before the
roll are computed inside ``forecast()``: the Annahmen read there are not named in the result.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

from engine.dice import Expression
from engine.dice import parse as parse_dice

DATA_DIR = Path(__file__).resolve().parent / "data"
# A site's own rule folders (its ``regeln/``), after the package's: the MkDocs plugin adds the
# folder its config names (``regeln:``), the command line the folders in this variable (or
# ``./regeln`` when it is unset and exists – a site's folder, where its commands run).
RULES_VARIABLE = "REGELWERK_REGELN"
_SITE_DIRS: list[Path] = []


def rule_dirs() -> list[Path]:
    """Every folder of rule data, the package's first: a system's data is its ``<name>.json``
    in the first folder that has one."""
    return [DATA_DIR, *_SITE_DIRS]


def add_rule_dir(folder: Path) -> bool:
    """Read rule data from ``folder`` too (False: it was already read)."""
    folder = folder.resolve()
    if folder in rule_dirs():
        return False
    _SITE_DIRS.append(folder)
    load.cache_clear()
    return True


def rule_dirs_from_environment() -> list[Path]:
    """The folders ``REGELWERK_REGELN`` names (separated like ``PATH``), else ``./regeln``
    if there is one: where a site's command line finds the site's rules."""
    named = os.environ.get(RULES_VARIABLE, "")
    if named:
        return [Path(part) for part in named.split(os.pathsep) if part]
    here = Path.cwd() / "regeln"
    return [here] if here.is_dir() else []


def system_names() -> list[str]:
    """Every system with a data file, in folder order and name order within a folder (the
    first folder's file is the system's)."""
    names: list[str] = []
    for folder in rule_dirs():
        names += [p.stem for p in sorted(folder.glob("*.json")) if p.stem not in names]
    return names


def data_file(system: str) -> Path | None:
    """``<system>.json`` in the first rule folder that has it."""
    for folder in rule_dirs():
        path = folder / f"{system}.json"
        if path.exists():
            return path
    return None


def _label(path: Path) -> str:
    """How a message names the data file: ``engine/data/x.yaml`` or ``regeln/x.yaml``."""
    folder = "engine/data" if path.parent == DATA_DIR else path.parent.name
    return f"{folder}/{path.with_suffix('.yaml').name}"


class DataError(Exception):
    """A rule data file is missing a key or has a value of the wrong kind."""

    def __init__(self, file: str, key: str, problem: str) -> None:
        super().__init__(f"{file}: Schlüssel „{key}“: {problem}")
        self.file = file
        self.key = key


class RuleData:
    """Typed, validated access to one system's data by dotted keys ("initiative.wurf")."""

    def __init__(self, file: str, content: dict[str, Any], stale: bool = False) -> None:
        self.file = file
        self.content = content
        # the YAML was edited after the JSON was compiled: a key it has may be missing here
        self.hint = " – die JSON-Datei ist älter als die YAML-Datei: make data" if stale else ""

    def _node(self, key: str) -> Any:
        node: Any = self.content
        for part in key.split("."):
            if isinstance(node, dict) and part in node:
                node = node[part]
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                raise DataError(self.file, key, "fehlt" + self.hint)
        return node

    def raw(self, key: str) -> Any:
        node = self._node(key)
        # An assumption is written as {wert: …, annahme: true, text: …}
        if isinstance(node, dict) and "annahme" in node and "wert" in node:
            if node.get("annahme") is True and isinstance(node.get("text"), str):
                note_assumption(node["text"])
            return node["wert"]
        return node

    def assume(self, key: str) -> None:
        """Name the Annahme at ``key`` in this result without reading its value: the rule code
        has just relied on it (how a tie was broken, how a 20 is confirmed, a table row marked as
        one that was rolled). ``key`` must be an Annahme ({wert, annahme: true, text}, or a row
        or mapping with annahme: true and text) – a plain value here would be a silent no-op."""
        node = self._node(key)
        if not (
            isinstance(node, dict)
            and node.get("annahme") is True
            and isinstance(node.get("text"), str)
        ):
            raise DataError(self.file, key, "ist keine Annahme (annahme: true, text)")
        note_assumption(node["text"])

    def integer(self, key: str, minimum: int | None = None, maximum: int | None = None) -> int:
        value = self.raw(key)
        if isinstance(value, bool) or not isinstance(value, int):
            raise DataError(self.file, key, f"muss eine ganze Zahl sein, ist {value!r}")
        if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
            raise DataError(self.file, key, f"{value} liegt außerhalb von {minimum}…{maximum}")
        return value

    def text(self, key: str) -> str:
        value = self.raw(key)
        if not isinstance(value, str) or not value:
            raise DataError(self.file, key, f"muss ein nicht leerer Text sein, ist {value!r}")
        return value

    def dice(self, key: str, label: str) -> Expression:
        """The dice expression at ``key`` („1W20“); a bad one names ``key`` and ``label``."""
        return parse_dice(self.text(key), key, label)

    def choice(self, key: str, allowed: tuple[str, ...]) -> str:
        """The text at ``key``, which must be one of ``allowed`` (the ways the code knows)."""
        value = self.text(key)
        if value not in allowed:
            raise DataError(
                self.file, key, f"muss eine von {', '.join(allowed)} sein, ist {value!r}"
            )
        return value

    def flag(self, key: str) -> bool:
        value = self.raw(key)
        if not isinstance(value, bool):
            raise DataError(self.file, key, f"muss true oder false sein, ist {value!r}")
        return value

    def table(self, key: str, columns: tuple[str, ...]) -> list[dict[str, Any]]:
        rows = self.raw(key)
        if not isinstance(rows, list) or not rows:
            raise DataError(self.file, key, "muss eine nicht leere Liste sein")
        for index, row in enumerate(rows):
            if not isinstance(row, dict):
                raise DataError(self.file, f"{key}.{index}", "muss ein Objekt sein")
            for column in columns:
                if column not in row:
                    raise DataError(self.file, f"{key}.{index}.{column}", "fehlt")
        return rows

    def assumptions(self) -> list[dict[str, str]]:
        """Every entry marked ``annahme: true``, with its dotted key and German text."""
        found: list[dict[str, str]] = []

        def walk(node: Any, prefix: str) -> None:
            if isinstance(node, dict):
                if node.get("annahme") is True:
                    text = node.get("text")
                    if not isinstance(text, str) or not text:
                        raise DataError(self.file, prefix, "Annahme ohne Text")
                    found.append({"key": prefix, "text": " ".join(text.split())})
                    return
                for key, value in node.items():
                    walk(value, f"{prefix}.{key}" if prefix else str(key))
            elif isinstance(node, list):
                for index, value in enumerate(node):
                    walk(value, f"{prefix}.{index}")

        walk(self.content, "")
        return found

    def assumptions_for(self, *prefixes: str, always: tuple[str, ...] = ()) -> tuple[str, ...]:
        """The texts of the Annahmen whose keys start with one of ``prefixes`` (what an action
        lists in its „Annahmen“ box), and of those at the keys ``always`` (a system's Annahme
        that every action rests on), in the file's order."""
        return tuple(
            a["text"]
            for a in self.assumptions()
            if a["key"].startswith(prefixes) or a["key"] in always
        )


# The assumptions read while one request is computed (api.run opens the scope): a result names
# the ones that decided it. Outside a request nothing is recorded.
_USED: ContextVar[list[str] | None] = ContextVar("regelwerk_assumptions_used", default=None)


def note_assumption(text: str) -> None:
    """Record that the current result rests on this assumption (its German text). Rule code
    calls it itself where it uses an assumption that is not a ``wert`` read through ``raw``
    (e.g. a table row marked ``annahme``)."""
    used = _USED.get()
    clean = " ".join(text.split())
    if used is not None and clean not in used:
        used.append(clean)


@contextmanager
def assumptions_used() -> Iterator[list[str]]:
    """Collect the assumptions noted while the block runs (one request)."""
    used: list[str] = []
    token = _USED.set(used)
    try:
        yield used
    finally:
        _USED.reset(token)


@contextmanager
def forecast() -> Iterator[None]:
    """Compute odds before the roll: the Annahmen read inside are not named in the result (they
    hold for every odds figure of the helper; its „Annahmen“ box lists them)."""
    with assumptions_used():
        yield


@cache
def load(system: str) -> RuleData:
    file = f"{system}.json"
    path = data_file(system) or DATA_DIR / file
    try:
        content = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as error:
        raise DataError(file, "", "Datei fehlt (make data)") from error
    except json.JSONDecodeError as error:
        raise DataError(file, "", f"kein gültiges JSON: {error}") from error
    if not isinstance(content, dict):
        raise DataError(file, "", "muss ein Objekt sein")
    source = path.with_suffix(".yaml")  # beside it in a checkout; not in the browser's archive
    stale = source.exists() and source.stat().st_mtime > path.stat().st_mtime
    return RuleData(_label(path), content, stale)
