"""Exact odds of a dice expression: integer counts, then Fractions only where shown.

A distribution is held as integer counts (:class:`Counts`): ``counts[i]`` of the ``outcomes``
equally likely outcomes give the total ``offset + i``; Fractions are built only for the figures
shown. :func:`counts` convolves integer counts per term (one common denominator, the number of
outcomes); keep-highest/keep-lowest terms use a dynamic programme over the faces (no
enumeration of ``sides ** count`` outcomes); :func:`distribution`, :func:`probability` and
:func:`expected_value` build on it. Before any heavy arithmetic, :func:`~engine.dice.cost.work`
estimates the cost with the same plan the computation follows (:mod:`engine.dice.cost`); what
does not fit into the request's budget is refused with a German message saying what would fit.
While computing, the loops charge the work they are about to do, from the sizes and bit lengths
they meet (the safety net).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction

from engine.budget import Budget
from engine.budget import current as current_budget
from engine.dice.cost import (
    _CHUNK,
    _STEP,
    DISTRIBUTION_USE,
    PAIR_BEST,
    PLAIN_USE,
    Use,
    _add_work,
    _bits,
    _convolve_work,
    _fraction_work,
    _keep_highest_costs,
    _keep_highest_work,
    _mul_work,
    _pair_work,
    _stopped,
    _support_size,
    _too_big,
    work,
)
from engine.dice.expression import DEFAULT_FIELD, DEFAULT_LABEL, KEEP_LOWEST, DiceTerm, Expression


@dataclass(frozen=True)
class Counts:
    """An exact distribution in integers: ``counts[i]`` of ``outcomes`` equally likely outcomes
    give the total ``offset + i`` (zero counts included). Made by :func:`counts`."""

    offset: int
    counts: tuple[int, ...]
    outcomes: int
    use: Use
    budget: Budget
    field: str
    label: str

    def items(self) -> Iterator[tuple[int, int]]:
        """``(total, count)`` for every total with a count above zero, in order; charges the
        caller's work (:attr:`use`) to the request's budget as it goes."""
        per_total = self.use.total_work(self.outcomes.bit_length())
        message = _stopped(self.label)
        offset = self.offset
        for start in range(0, len(self.counts), _CHUNK):
            chunk = self.counts[start : start + _CHUNK]
            self.budget.spend(len(chunk) * per_total, message, self.field)
            for index, count in enumerate(chunk, start):
                if count:
                    yield offset + index, count

    def minimum(self) -> int:
        """Smallest total with a count above zero."""
        return self.offset + next(i for i, c in enumerate(self.counts) if c)

    def maximum(self) -> int:
        """Largest total with a count above zero."""
        last = len(self.counts) - 1
        return self.offset + next(last - i for i, c in enumerate(reversed(self.counts)) if c)

    def count(self, total: int) -> int:
        index = total - self.offset
        return self.counts[index] if 0 <= index < len(self.counts) else 0

    def fraction(self, count: int) -> Fraction:
        """``count / outcomes`` as a Fraction (charged to the budget)."""
        self.budget.spend(
            _fraction_work(self.outcomes.bit_length()), _stopped(self.label), self.field
        )
        return Fraction(count, self.outcomes)


_Counts = tuple[int, list[int]]


def _keep_highest_counts(
    count: int, sides: int, keep: int, spend: Callable[[int], None]
) -> _Counts:
    """Counts of the sum of the ``keep`` highest of ``count`` dice with ``sides`` sides.

    Faces are visited from ``sides`` down to 1. A state (j, t) means: j dice (fewer than
    ``keep``) show faces above the current one, and their sum is t — all of them are kept.
    Choosing which c of the remaining dice show the current face multiplies by C(m, c). Once
    ``keep`` dice are placed the kept sum is fixed, and the remaining dice only need to show
    lower faces, so those cases are completed at once with a closed-form weight. ``spend`` is
    charged per face with the work about to be done (the states met × the costs of
    :func:`_keep_highest_costs`).
    """
    comb = math.comb
    costs = _keep_highest_costs(count, sides, keep)
    result = [0] * (keep * sides + 1)
    states: list[dict[int, int]] = [{} for _ in range(keep)]
    states[0][0] = 1
    for face in range(sides, 0, -1):
        lower = face - 1
        spend(
            sum(
                len(states[placed]) * per_state + per_face
                for placed, (per_state, per_face) in enumerate(costs)
            )
        )
        new_states: list[dict[int, int]] = [{} for _ in range(keep)]
        for placed in range(keep):
            current = states[placed]
            if not current:
                continue
            remaining = count - placed
            need = keep - placed
            stay = [comb(remaining, c) for c in range(need)]
            # ways for the remaining dice to all show <= face with at least `need` at face:
            # face**remaining minus the cases with fewer than `need` at face; the powers of
            # `lower` are built from the smallest one up (one small product each)
            power = lower ** (remaining - need + 1)
            fewer = 0
            for c in range(need - 1, -1, -1):
                fewer += stay[c] * power
                power *= lower
            done = face**remaining - fewer
            done_add = face * need
            for total, ways in current.items():
                for c in range(need):
                    target = new_states[placed + c]
                    key = total + face * c
                    target[key] = target.get(key, 0) + ways * stay[c]
                result[total + done_add] += ways * done
        states = new_states
    return keep, result[keep:]


def _add_die(counts: list[int], sides: int) -> list[int]:
    """Convolve with one die (all faces equally likely): a sliding window sum."""
    size = len(counts)
    out = [0] * (size + sides - 1)
    window = 0
    for i in range(size + sides - 1):
        if i < size:
            window += counts[i]
        if i >= sides:
            window -= counts[i - sides]
        out[i] = window
    return out


def _convolve(a: list[int], b: list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def _signed(term: DiceTerm, counts: _Counts) -> _Counts:
    offset, values = counts
    if term.sign > 0:
        return counts
    return -(offset + len(values) - 1), values[::-1]


def _dropping_term_counts(term: DiceTerm, spend: Callable[[int], None]) -> _Counts:
    """Signed counts of a kh/kl term (kl via mirrored faces: v -> sides + 1 - v)."""
    offset, values = _keep_highest_counts(term.count, term.sides, term.keep_count, spend)
    if term.keep == KEEP_LOWEST:
        values = values[::-1]
    return _signed(term, (offset, values))


def _outcomes(expression: Expression) -> int:
    return math.prod(t.sides**t.count for t in expression.terms)


def _compute(expression: Expression, spend: Callable[[int], None]) -> _Counts:
    """The counts of ``expression``, by the plan that :func:`_sum_work` estimates."""
    offset, counts = expression.constant, [1]
    outcomes = 1
    # dropping terms first (full convolution while the running support is small), then
    # every other die one at a time with the cheap sliding window
    for term in expression.terms:
        if term.drops:
            term_offset, term_counts = _dropping_term_counts(term, spend)
            term_outcomes = term.sides**term.count
            spend(
                _convolve_work(
                    len(counts),
                    outcomes.bit_length() - 1,
                    len(term_counts),
                    term_outcomes.bit_length(),
                )
            )
            offset += term_offset
            counts = _convolve(counts, term_counts)
            outcomes *= term_outcomes
    for term in expression.terms:
        if not term.drops:
            for _ in range(term.count):
                outcomes *= term.sides
                spend((len(counts) + term.sides - 1) * _add_work(outcomes.bit_length()))
                counts = _add_die(counts, term.sides)
                offset += 1 if term.sign > 0 else -term.sides
    return offset, counts


def _pair(counts: list[int], outcomes: int, pair: str) -> list[int]:
    """Counts (out of ``outcomes²``) of the better (``best``) or worse of two rolls.

    P(max = t) = P(X ≤ t)² − P(X < t)² and P(min = t) = P(X ≥ t)² − P(X > t)², in counts."""
    out = []
    if pair == PAIR_BEST:
        below_sq = 0
        at_most = 0
        for count in counts:
            at_most += count
            square = at_most * at_most
            out.append(square - below_sq)
            below_sq = square
    else:
        at_least = outcomes
        for count in counts:
            above = at_least - count
            out.append(at_least * at_least - above * above)
            at_least = above
    return out


def counts(
    expression: Expression,
    *,
    field: str = DEFAULT_FIELD,
    label: str = DEFAULT_LABEL,
    use: Use = PLAIN_USE,
) -> Counts:
    """Exact distribution of ``expression`` (or of the better / worse of two rolls, ``use.pair``)
    as integer counts, within the request's work budget.

    Refuses up front (German :class:`EngineError` naming ``field``, with an expression that
    would fit) when :func:`work` does not fit into what is left of the budget; the loops charge
    the work as they go, and stop with :class:`~engine.budget.WorkLimitExceeded` should it ever
    exceed the limit. A request computes the same expression only once (cached in its budget).
    """
    budget = current_budget()
    key = (expression, use.pair)
    cached: tuple[int, list[int], int] | None = budget.cache.get(key)
    if cached is None:
        estimate = work(expression, use)
    else:
        size = len(cached[1])
        estimate = size * use.total_work(cached[2].bit_length())
    if not budget.fits(estimate):
        raise _too_big(expression, use, budget.left, field, label)
    if cached is None:
        message = _stopped(label)

        def spend(units: int) -> None:
            budget.spend(units, message, field)

        offset, values = _compute(expression, spend)
        outcomes = _outcomes(expression)
        if use.pair:
            spend(_pair_work(len(values), outcomes.bit_length()))
            values = _pair(values, outcomes, use.pair)
            outcomes *= outcomes
        cached = (offset, values, outcomes)
        budget.cache[key] = cached
    offset, values, outcomes = cached
    return Counts(offset, tuple(values), outcomes, use, budget, field, label)


def distribution(
    expression: Expression, *, field: str = DEFAULT_FIELD, label: str = DEFAULT_LABEL
) -> dict[int, Fraction]:
    """Exact probability of every possible total, sorted by total (zero-probability totals
    are left out); the values sum to 1. Raises :class:`EngineError` when too big to compute.

    The estimate allows the caller a few Fraction operations per total; callers with large
    expressions use :func:`counts` (integers) instead."""
    exact = counts(expression, field=field, label=label, use=DISTRIBUTION_USE)
    outcomes = exact.outcomes
    return {total: Fraction(count, outcomes) for total, count in exact.items()}


def probability(
    expression: Expression,
    predicate: Callable[[int], bool],
    *,
    field: str = DEFAULT_FIELD,
    label: str = DEFAULT_LABEL,
) -> Fraction:
    """Exact probability that the total satisfies ``predicate``."""
    exact = counts(expression, field=field, label=label, use=Use(per_total=_STEP * 3))
    hits = sum(count for total, count in exact.items() if predicate(total))
    return exact.fraction(hits)


def expected_value(
    expression: Expression, *, field: str = DEFAULT_FIELD, label: str = DEFAULT_LABEL
) -> Fraction:
    """Exact mean of the total (by linearity: cheap even when the distribution is not)."""
    budget = current_budget()
    message = _stopped(label)

    def spend(units: int) -> None:
        budget.spend(units, message, field)

    mean = Fraction(expression.constant)
    for term in expression.terms:
        if term.drops:
            term_work = _keep_highest_work(term.count, term.sides, term.keep_count)
            term_work += _support_size(term) * _mul_work(_bits(term.sides, term.count), 16)
            if not budget.fits(term_work):
                raise _too_big(Expression((term,)), PLAIN_USE, budget.left, field, label)
            offset, values = _dropping_term_counts(term, spend)
            spend(len(values) * _mul_work(_bits(term.sides, term.count), 16))
            weighted = sum((offset + i) * c for i, c in enumerate(values))
            mean += Fraction(weighted, term.sides**term.count)
        else:
            mean += Fraction(term.sign * term.count * (term.sides + 1), 2)
    return mean
