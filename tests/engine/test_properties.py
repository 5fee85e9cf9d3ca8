"""Property tests over every action behind the JSON boundary (``engine.api.run``).

For ≥ 10,000 generated requests across all actions — valid ones and broken ones — the engine
answers with a result or with its own error: a German message that names the field. Never any
other exception, never a request slower than a second.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import api

ACTIONS = [(s["name"], a["name"]) for s in api.catalog()["systems"] for a in s["actions"]]
TOTAL_EXAMPLES = 10_000
PER_ACTION = -(-TOTAL_EXAMPLES // len(ACTIONS))

GARBAGE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**12), max_value=10**12),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)
DICE_TEXT = st.one_of(
    st.from_regex(r"\A[+-]?\d{0,3}[WwDd]\d{1,4}([kK][hHlL]\d?)?([+-−]\d{1,5})?\Z"),
    st.text(alphabet="0123456789WwdDkhl+-− %", max_size=20),
)


def value_strategy(field: dict[str, Any], broken: bool) -> st.SearchStrategy[Any]:
    kind = field["type"]
    if kind == "int":
        valid = st.integers(field["min"], field["max"])
        near = st.integers(field["min"] - 5, field["max"] + 5)
        return st.one_of(valid, near.map(str), GARBAGE) if broken else valid
    if kind == "bool":
        return st.one_of(st.booleans(), GARBAGE) if broken else st.booleans()
    if kind == "choice":
        valid = st.sampled_from([c["value"] for c in field["choices"]])
        return st.one_of(valid, GARBAGE) if broken else valid
    if kind == "dice":
        return st.one_of(DICE_TEXT, GARBAGE) if broken else DICE_TEXT
    if kind == "text":
        valid = st.text(min_size=1, max_size=field.get("max_length", 40)).filter(str.strip)
        return st.one_of(valid, GARBAGE) if broken else valid
    if kind == "state":
        valid_state = st.just({})
        return (
            st.one_of(valid_state, st.dictionaries(st.text(max_size=8), GARBAGE), GARBAGE)
            if broken
            else valid_state
        )
    if kind == "list":
        row = record_strategy(field["item"], broken)
        low = 0 if broken else field["min_items"]
        high = field["max_items"] + (2 if broken else 0)
        valid_rows = st.lists(row, min_size=low, max_size=min(high, 8))
        return st.one_of(valid_rows, GARBAGE) if broken else valid_rows
    raise AssertionError(f"unknown field type {kind}")


def record_strategy(fields: list[dict[str, Any]], broken: bool) -> st.SearchStrategy[Any]:
    entries = {f["name"]: value_strategy(f, broken) for f in fields}
    return st.fixed_dictionaries({}, optional=entries)


def labels_on_path(fields: list[dict[str, Any]], path: str) -> list[str]:
    """German labels of the schema fields along a dotted error path ("fighters.1.ini")."""
    labels: list[str] = []
    current = fields
    parent: dict[str, Any] | None = None
    for part in path.split("."):
        if part.isdigit():
            if parent is not None:  # an entry of a list is named by its item label
                labels.append(parent.get("item_label", parent["label"]))
            continue
        match = next((f for f in current if f["name"] == part), None)
        if match is None:
            break
        labels.append(match["label"])
        parent = match
        current = match.get("item", [])
    return labels


@pytest.mark.parametrize(("system", "action"), ACTIONS)
def test_every_request_gets_a_result_or_a_german_field_error(system: str, action: str) -> None:
    spec = api.describe(system, action)
    fields = spec["params"]
    params = st.one_of(record_strategy(fields, broken=False), record_strategy(fields, True))
    seeds = st.one_of(st.integers(0, 2**53 - 1), st.none(), GARBAGE)

    @settings(
        max_examples=PER_ACTION,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(params=params, seed=seeds)
    def check(params: dict[str, Any], seed: Any) -> None:
        started = time.perf_counter()
        answer = api.run(system, action, params, seed)
        elapsed = time.perf_counter() - started
        assert elapsed < 1.0, f"{system}.{action} took {elapsed:.2f} s for {params!r}"
        json.dumps(answer)  # everything is JSON-serialisable
        if answer["ok"]:
            display = answer["result"]["display"]
            assert display["headline"] and display["outcome"]
            assert isinstance(display["sections"], list)
            return
        error = answer["error"]
        assert error["message"].strip(), answer
        assert error["field"], f"error without a field: {error}"
        top = error["field"].split(".")[0]
        assert top in {f["name"] for f in fields} | {"seed"}, error
        if top == "seed":
            assert error["message"].startswith("Seed"), error
        else:
            labels = labels_on_path(fields, error["field"])
            assert labels, error
            assert labels[-1] in error["message"], (error, labels)

    check()
