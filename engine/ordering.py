"""Shared pieces of every initiative order: the fighter, unique names, roll-offs between tied
fighters, the acting order by place and the exact chance of each fighter to come first.

A system that orders fighters subclasses ``Fighter`` (or ``RolledFighter``, when every fighter
rolls his initiative) with its own fields only; ``roll_off`` records each roll-off die on the
fighter (``rolloff``, and ``tie_note`` for the order table's „Gleichstand“ column).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TypeVar

from engine import dice
from engine.budget import current as current_budget
from engine.display import Display
from engine.errors import EngineError, echo

T = TypeVar("T")


@dataclass
class Fighter:
    """One fighter of an initiative order: his row in the input (``index``), his name, the dice
    he rolled in roll-offs (``rolloff``, in order) and how a tie was decided for him
    (``tie_note``). A system adds its own fields in a subclass; the two kept here are keyword
    only, so its fields need no defaults."""

    index: int
    name: str
    rolloff: list[int] = field(default_factory=list, kw_only=True)
    tie_note: str = field(default="", kw_only=True)

    def record_rolloff(self, value: int) -> None:
        """One roll-off die: kept, and the tie note says „Stechen 4 · 2“."""
        self.rolloff.append(value)
        self.tie_note = f"Stechen {self.rolloff_text()}"

    def rolloff_text(self) -> str:
        """The roll-off dice in order, „4 · 2“ (empty without a roll-off)."""
        return " · ".join(str(value) for value in self.rolloff)


@dataclass
class RolledFighter(Fighter):
    """A fighter who rolled his initiative: the roll and the total it gave."""

    roll: dice.RollResult
    initiative: int

    def show_roll(self, display: Display, modifiers: list[tuple[str, int]]) -> None:
        """His initiative roll in the result, with what was added to it."""
        display.roll(f"{self.name}: Initiativwurf", self.roll, modifiers, total=self.initiative)


F = TypeVar("F", bound=Fighter)


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
    group: list[F],
    die: dice.Expression,
    rng: random.Random,
    rounds: int,
    rolled: Callable[[F, dice.RollResult], None] | None = None,
) -> tuple[list[F], list[list[F]]]:
    """Order a tied group: each rolls ``die``, higher first; those still equal roll again
    among themselves, depth first, until the order is clear or ``rounds`` rolls were used.

    Every roll is recorded on its fighter (``Fighter.record_rolloff``, for the explanation) and
    handed to ``rolled`` (a system whose roll-off dice are the only dice of its result shows
    them as rolls). Returns the order and the groups still tied when the rounds ran out; those
    stay in the order given.
    """
    pending = [group]
    ordered: list[F] = []
    unresolved: list[list[F]] = []
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
        results: dict[int, list[F]] = {}
        for member in current:
            roll = dice.roll(die, rng)
            member.record_rolloff(roll.total)
            if rolled is not None:
                rolled(member, roll)
            results.setdefault(roll.total, []).append(member)
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


def place_turns(order: Sequence[Fighter]) -> list[dict[str, str]]:
    """The acting order for the fight bar when a place is all it needs: „Platz 1“, „Platz 2“ …"""
    return [{"name": f.name, "label": f"Platz {place}"} for place, f in enumerate(order, start=1)]


def counts_of(distribution: Mapping[int, Fraction]) -> dict[int, int]:
    """A distribution as whole counts over one common denominator (for ``first_place_chances``)."""
    scale = math.lcm(*(p.denominator for p in distribution.values()))
    return {value: int(p * scale) for value, p in distribution.items()}


def first_place_chances(
    totals: Sequence[Mapping[int, int]], tie_keys: Sequence[Any], *, shared: bool = True
) -> list[Fraction]:
    """Exact chance of each fighter to come first, before anything is rolled.

    ``totals[i]`` counts the ways fighter i's total comes out (value → ways: the die's faces
    shifted by his base, or his own distribution as ``counts_of`` gives it). The highest total
    comes first, an equal total goes to the higher ``tie_keys`` entry, and fighters equal in both
    share the place: with ``shared`` by a fair roll-off (each of k tied wins with 1/k), without
    it they act together (each of them is first). Counted in integers (``shares`` keeps w / k
    whole) and divided once at the end, so 20 fighters stay fast."""
    shares = math.lcm(*range(1, len(totals) + 1))
    everyone = math.prod(sum(counts.values()) for counts in totals)
    chances = []
    for me, my_counts in enumerate(totals):
        total = 0
        for mine, my_ways in my_counts.items():
            weights = [1]  # weights[k]: ways every other is beaten or tied, k of them fully tied
            for other, other_counts in enumerate(totals):
                if other == me:
                    continue
                ahead = (tie_keys[me] > tie_keys[other]) - (tie_keys[me] < tie_keys[other])
                beaten = tied = 0
                for theirs, ways in other_counts.items():
                    if theirs < mine or (theirs == mine and ahead > 0):
                        beaten += ways
                    elif theirs == mine and ahead == 0:
                        tied += ways
                following = [0] * (len(weights) + 1)
                for k, w in enumerate(weights):
                    following[k] += w * beaten
                    following[k + 1] += w * tied
                weights = following
            total += my_ways * sum(
                w * (shares // (k + 1) if shared else shares) for k, w in enumerate(weights)
            )
        chances.append(Fraction(total, shares * everyone))
    return chances


# ---------------------------------------------------------------------------------------------
# Places before the roll (issue 44: a chart per fighter)
# ---------------------------------------------------------------------------------------------

PLACE_STEP_WORK = 400
"""Work units of one step of :func:`place_chances`: one state of its counting for one other
fighter (products and sums of integers, with the bookkeeping around them)."""


def _place_work(totals: Sequence[Mapping[int, int]], tie_keys: Sequence[Any]) -> int:
    """An upper bound of the work of :func:`place_chances`: per distinct fighter, per value of
    his total and per other fighter, the values of the other's total and at most (m + 1) × (g
    + 1) states (m others counted, g of them with his tie key: only they can be fully tied)."""
    n = len(totals)
    work = 0
    seen: set[Any] = set()
    for me, mine in enumerate(totals):
        key = (tuple(sorted(mine.items())), tie_keys[me])
        if key in seen:
            continue
        seen.add(key)
        alike = sum(1 for k in tie_keys if k == tie_keys[me]) - 1
        states = sum((m + 1) * (min(m, alike) + 1) for m in range(n))
        sizes = sum(len(t) for t in totals)
        work += len(mine) * (states + sizes)
    return work * PLACE_STEP_WORK


def place_chances(
    totals: Sequence[Mapping[int, int]], tie_keys: Sequence[Any], *, shared: bool = True
) -> list[list[Fraction]] | None:
    """``[i][k]``: the exact chance of fighter i to act at place k + 1.

    ``totals[i]`` counts the ways fighter i's total comes out (value → ways); the highest
    total comes first, an equal total goes to the higher ``tie_keys`` entry; fighters equal in
    both are ordered by a fair roll-off (``shared``: each of the t + 1 tied places equally
    likely) or act together at the first of those places (``shared=False``). None when the
    counting does not fit into the request's work budget."""
    n = len(totals)
    budget = current_budget()
    work = _place_work(totals, tie_keys)
    if not budget.fits(work):
        return None
    budget.spend(work, "Kämpfer: die Chancen der Plätze wurden abgebrochen.", "fighters")
    shares = math.lcm(*range(1, n + 1))
    everyone = math.prod(sum(t.values()) for t in totals)
    done: dict[Any, list[Fraction]] = {}
    out: list[list[Fraction]] = []
    for me, mine in enumerate(totals):
        key = (tuple(sorted(mine.items())), tie_keys[me])
        if key not in done:
            done[key] = _places_of(me, totals, tie_keys, shared, shares, everyone)
        out.append(done[key])
    return out


def _places_of(
    me: int,
    totals: Sequence[Mapping[int, int]],
    tie_keys: Sequence[Any],
    shared: bool,
    shares: int,
    everyone: int,
) -> list[Fraction]:
    n = len(totals)
    places = [0] * n
    for value, my_ways in totals[me].items():
        states = {(0, 0): 1}  # (others ahead, others fully tied) → ways
        for other, theirs in enumerate(totals):
            if other == me:
                continue
            order = (tie_keys[me] > tie_keys[other]) - (tie_keys[me] < tie_keys[other])
            behind = ahead = tied = 0
            for total, ways in theirs.items():
                if total < value or (total == value and order > 0):
                    behind += ways
                elif total > value or order < 0:
                    ahead += ways
                else:
                    tied += ways
            following: dict[tuple[int, int], int] = {}
            for (a, t), w in states.items():
                if behind:
                    following[a, t] = following.get((a, t), 0) + w * behind
                if ahead:
                    following[a + 1, t] = following.get((a + 1, t), 0) + w * ahead
                if tied:
                    following[a, t + 1] = following.get((a, t + 1), 0) + w * tied
            states = following
        for (a, t), w in states.items():
            if shared:
                share = my_ways * w * (shares // (t + 1))
                for place in range(a, a + t + 1):
                    places[place] += share
            else:
                places[a] += my_ways * w * shares
    return [Fraction(count, shares * everyone) for count in places]


def show_places(
    display: Display, names: Sequence[str], places: Sequence[Sequence[Fraction]] | None
) -> None:
    """A chart per fighter of the odds before the roll: the chance of each place („Platz 1“,
    „Platz 2“ … – every place, so the charts of all fighters share their axis); nothing when
    the places were not counted (one fighter, or over the work budget: ``None``)."""
    for name, chances in zip(names, places or [], strict=False):
        bars = [(f"Platz {k}", p) for k, p in enumerate(chances, start=1)]
        display.distribution(f"Platz von {name} (vor dem Wurf)", "Platz", bars, before=True)
