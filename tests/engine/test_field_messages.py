"""Every bad field of every form helper gets the engine's German message, naming that field.

The helpers' forms (tests/browser/test_helper_validation.py shows one field per kind of input
in the page) put the engine's answer at the field the answer names (``error.field``, the
field's data-path), so the engine must name the right field and say in German what is wrong:
for every field of every action whose schema is a plain form (the types a form can show), a
request with the form's values and one bad value – an integer that is no number („abc“) or
one beyond the maximum, a required text left empty, a dice expression with a one-sided die
(„2W0“) – is refused with ``error.field`` = the field's path and a message with the field's
label (a list's row as „<Zeile> 1 – <Feld>“) and the wording of that kind of fault. The same
request with the good value rolls (the form rolls again once the value is put back). A list
with fewer rows than its minimum is refused with the message at the list.

The systems and actions are read from the engine's catalogue; fields that apply only in a
situation (``when``) are checked in that situation when one switch reaches it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from engine import api
from tests.conftest import rule_systems

FORM_TYPES = {"int", "bool", "text", "choice", "dice", "list"}  # what a helper's form shows

# expected German wording of the engine's messages, per kind of bad input
WORDING = {
    "abc": "ist keine ganze Zahl",
    "max": "liegt außerhalb des erlaubten Bereichs",
    "empty": "darf nicht leer sein",
    "dice": "mindestens 2 Seiten",
}

Params = dict[str, Any]


def bad_inputs(field: dict[str, Any]) -> list[tuple[str, str]]:
    """(kind, value typed) for each bad value a user can type into this field."""
    kind = field["type"]
    if kind == "int":
        return [("abc", "abc"), ("max", str(field["max"] + 1))]
    if kind == "text" and field.get("required", True):
        return [("empty", "")]
    if kind == "dice":
        return [("dice", "2W0")]
    return []


def good_value(param: dict[str, Any], index: int = 0, row: str = "") -> Any:
    """The form's value: the default; a list's minimum rows (at least one); a required text
    without a default gets a name („Kämpfer 1“), unique per list and row."""
    if param["type"] == "list":
        rows = max(1, param.get("min_items", 1))
        return [
            {item["name"]: good_value(item, i, param["item_label"]) for item in param["item"]}
            for i in range(rows)
        ]
    if param["type"] == "text" and param.get("required", True) and not param.get("default"):
        return f"{row or param['label']} {index + 1}"
    return param.get("default")


def applies(param: dict[str, Any], values: Params) -> bool:
    return all(values.get(other) in allowed for other, allowed in param.get("when", {}).items())


def form_actions() -> Iterator[tuple[str, str]]:
    systems = {s["name"]: s for s in api.catalog()["systems"]}
    for system in rule_systems():
        for action in systems[system]["actions"]:
            params = api.describe(system, action["name"])["params"]
            if all(p["type"] in FORM_TYPES for p in params):
                yield system, action["name"]


Case = tuple[str, str, str, str, Callable[[Any], Params]]  # path, label, kind, bad, request


def cases(system: str, action: str, base: Params) -> Iterator[Case]:
    for param in api.describe(system, action)["params"]:
        name = param["name"]
        if param["type"] == "list":
            rows = base[name]
            for item in param["item"]:
                if not applies(item, rows[0]):
                    continue
                label = f"{param['item_label']} 1 – {item['label']}"

                def in_row(value: Any, name: str = name, key: str = item["name"]) -> Params:
                    return {**base, name: [{**base[name][0], key: value}, *base[name][1:]]}

                for kind, bad in bad_inputs(item):
                    yield f"{name}.0.{item['name']}", label, kind, bad, in_row
            continue
        # a field of a situation: checked in it when one switch per sibling reaches it
        situation = {} if applies(param, base) else {k: v[0] for k, v in param["when"].items()}
        if api.run(system, action, {**base, **situation}, seed=1)["ok"] is not True:
            continue  # the situation needs more than one switch (other values of it required)

        def top(value: Any, name: str = name, situation: Params = situation) -> Params:
            return {**base, **situation, name: value}

        for kind, bad in bad_inputs(param):
            yield name, param["label"], kind, bad, top


@pytest.mark.parametrize("system", rule_systems())
def test_every_bad_field_gets_a_german_message_naming_it(system: str) -> None:
    problems: list[str] = []
    checked = 0
    for sys_name, action in form_actions():
        if sys_name != system:
            continue
        params = api.describe(system, action)["params"]
        base = {p["name"]: good_value(p) for p in params}
        answer = api.run(system, action, base, seed=1)
        assert answer["ok"], (action, "the form's values", answer)
        for path, label, kind, bad, request in cases(system, action, base):
            checked += 1
            where = f"{system} {action} {path} ({kind}: {bad!r})"
            answer = api.run(system, action, request(bad), seed=1)
            if answer["ok"]:
                problems.append(f"{where}: rolled")
                continue
            error = answer["error"]
            message = error["message"]
            if error["field"] != path:
                problems.append(f"{where}: message at {error['field']!r}: {message}")
            elif label not in message or WORDING[kind] not in message:
                problems.append(f"{where}: unexpected message {message!r}")
        for param in params:
            if param["type"] != "list":
                continue
            answer = api.run(system, action, {**base, param["name"]: []}, seed=1)
            error = answer.get("error") or {}
            if error.get("field") != param["name"] or "mindestens" not in error["message"]:
                problems.append(f"{system} {action} {param['name']}: no rows – {answer}")
    assert checked > 0, f"{system}: no form field to check"
    assert problems == [], "\n".join(problems)
