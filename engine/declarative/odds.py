"""Seeing the odds for the declared kinds (issue 44): distributions as bar charts, places.

Every declared kind shows what it computes exactly before the roll as a distribution section
(:meth:`engine.display.Display.distribution`, ``before``): the damage of a ``schaden``, the
margin of a ``probe``, the row of a ``tabelle``, the places of an ``initiative``. The display
charges the bars to the request's work budget (:mod:`engine.budget`); a distribution that does
not fit is left out (its chances and mean stay in the result), never cut short.

:func:`place_chances` is the exact chance of each fighter to act at each place of an
initiative order (used by the declared ``initiative`` and by Ryssea's): highest total first, an
equal total goes to the higher tie key, equal in both either a fair roll-off (each of the tied
places equally likely) or the same place for all (``gleichzeitig``). Counted in integers, with
fighters of the same values computed once; ``None`` when it does not fit the budget.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from engine.budget import current as current_budget
from engine.display import Display

PLACE_STEP_WORK = 400
"""Work units of one step of :func:`place_chances`: one state of its counting for one other
fighter (products and sums of integers, with the bookkeeping around them)."""


def show_distribution(
    display: Display,
    caption: str,
    axis: str,
    dist: Mapping[int, Fraction] | Sequence[tuple[str, Fraction]],
    *,
    mean_label: str = "",
) -> bool:
    """Add ``dist`` as a distribution of the odds before the roll (``before``: it depends on
    the inputs only). Its bars are charged to the request's work budget by
    :meth:`~engine.display.Display.distribution`; False, and nothing shown, when they do not
    fit (the result keeps its chances and expected values)."""
    return display.distribution(caption, axis, dist, before=True, mean_label=mean_label)


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


def place_bars(chances: Sequence[Fraction]) -> list[tuple[str, Fraction]]:
    """The bars of one fighter's places: „Platz 1“, „Platz 2“ … (every place, so the charts of
    all fighters share their axis)."""
    return [(f"Platz {k}", p) for k, p in enumerate(chances, start=1)]
