"""Shared pieces of every initiative order: unique names and roll-offs between tied fighters."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from engine import dice
from engine.errors import EngineError, echo

T = TypeVar("T")


def check_unique_names(
    rows: Sequence[Mapping[str, Any]], path: str = "fighters", item_label: str = "Kämpfer"
) -> None:
    """Every fighter needs a name of its own (case-insensitive): results refer to names."""
    seen: dict[str, int] = {}
    for index, row in enumerate(rows):
        key = str(row["name"]).casefold()
        if key in seen:
            raise EngineError(
                f"{item_label} {index + 1} – Name: „{echo(row['name'])}“ kommt schon bei "
                f"{item_label} {seen[key] + 1} vor; jeder Name darf nur einmal vorkommen.",
                f"{path}.{index}.name",
            )
        seen[key] = index


def roll_off(
    group: list[T],
    die: dice.Expression,
    rng: random.Random,
    record: Callable[[T, int], None],
    rounds: int,
) -> tuple[list[T], list[list[T]]]:
    """Order a tied group: each rolls ``die``, higher first; those still equal roll again
    among themselves, depth first, until the order is clear or ``rounds`` rolls were used.

    ``record(member, value)`` is told every roll (for the explanation). Returns the order
    and the groups still tied when the rounds ran out; those stay in the order given.
    """
    pending = [group]
    ordered: list[T] = []
    unresolved: list[list[T]] = []
    used = 0
    while pending:
        current = pending.pop(0)
        if len(current) == 1:
            ordered.append(current[0])
            continue
        used += 1
        if used > rounds:
            unresolved.append(current)
            ordered.extend(current)
            continue
        results: dict[int, list[T]] = {}
        for member in current:
            value = dice.roll(die, rng).total
            record(member, value)
            results.setdefault(value, []).append(member)
        pending = [results[v] for v in sorted(results, reverse=True)] + pending
    return ordered, unresolved


def order_groups(
    items: Sequence[T],
    key: Callable[[T], Any],
    resolve: Callable[[list[T]], list[T]],
    *,
    descending: bool,
    single: Callable[[Any, T], None] | None = None,
) -> tuple[list[T], list[tuple[Any, list[T]]]]:
    """Order ``items`` by ``key``; members with the same key are ordered by ``resolve``.

    ``resolve`` is called only for groups of two or more, in key order (so seeded roll-offs
    happen in a fixed sequence); ``single(key, item)`` is told about every item alone on its
    key. Returns the order and every tie as ``(key, resolved group)``.
    """
    groups: dict[Any, list[T]] = {}
    for item in items:
        groups.setdefault(key(item), []).append(item)
    order: list[T] = []
    ties: list[tuple[Any, list[T]]] = []
    for value in sorted(groups, reverse=descending):
        group = groups[value]
        if len(group) > 1:
            resolved = resolve(group)
            ties.append((value, resolved))
            order.extend(resolved)
        else:
            if single is not None:
                single(value, group[0])
            order.extend(group)
    return order, ties
