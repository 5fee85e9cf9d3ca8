"""The work model of exact odds: what a computation costs, estimated before it runs.

Owns the cost constants (work units of :mod:`engine.budget`, about 1 ns of CPython on the
reference machine, big-integer sizes included), :class:`Use` (how a caller uses the counts:
the better / worse of two rolls, its own work per total), the up-front estimate :func:`work`
with the same plan the computation in :mod:`engine.dice.exact` follows, and the German
messages of a refusal: "zu groß für eine exakte Berechnung" with an expression that would fit
(:func:`_too_big`), "abgebrochen" when the safety net stops the loops (:func:`_stopped`).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.budget import MAX_WORK
from engine.dice.expression import KEEP_ALL, DiceTerm, Expression
from engine.errors import EngineError, echo

MAX_DISTRIBUTION_WORK = MAX_WORK
"""Work bound of one request's exact odds, in :func:`work` units (see :mod:`engine.budget`)."""

_STEP = 80
"""One step of a Python loop on small integers (read, add, store: measured 65–85 ns)."""
_BITS_PER_UNIT = 8
"""Adding big integers costs one more unit per this many bits (measured 0.12 ns per bit)."""
_DIGIT_BITS = 30
"""CPython stores big integers in 30-bit digits; schoolbook multiplication costs about one unit
per pair of digits (measured; Karatsuba, above 70 digits, is cheaper, so this is an upper
bound)."""
_FRACTION_WORK = 700
"""Building one Fraction from a count (gcd, two divisions): this plus one unit per bit."""
_FRACTION_USE = 3
"""Fraction operations a caller of :func:`distribution` may do per total (sums, products)."""
_CHUNK = 256
"""Totals a caller's loop gets between two charges (:meth:`Counts.items`)."""


def _add_work(bits: int) -> int:
    return _STEP + bits // _BITS_PER_UNIT


def _mul_work(a_bits: int, b_bits: int) -> int:
    return _STEP + (a_bits // _DIGIT_BITS + 1) * (b_bits // _DIGIT_BITS + 1)


def _pow_work(result_bits: int, exponent: int) -> int:
    """``base ** exponent`` by squaring: the squarings add up to about one full-size product."""
    return _STEP * (exponent.bit_length() + 1) + _mul_work(result_bits, result_bits)


def _fraction_work(bits: int) -> int:
    return _FRACTION_WORK + bits


PAIR_BEST = "best"
PAIR_WORST = "worst"
_PAIR_TEXT = {"": "", PAIR_BEST: " mit Vorteil", PAIR_WORST: " mit Nachteil"}


@dataclass(frozen=True)
class Use:
    """How a caller uses the counts, so that the estimate covers its work too.

    ``pair``: ``"best"`` / ``"worst"`` for the better / worse of two independent rolls (counts
    out of ``outcomes²``). ``per_total``: the caller's own work per possible total (work units);
    ``big_ops``: big-integer operations per total on numbers as large as the counts;
    ``fractions``: Fractions built per total (by :func:`distribution`).
    """

    pair: str = ""
    per_total: int = 0
    big_ops: int = 1
    fractions: int = 0

    def __post_init__(self) -> None:
        if self.pair not in _PAIR_TEXT:
            raise ValueError(f"unknown pair {self.pair!r}")

    def total_work(self, bits: int) -> int:
        """Work of the caller for one total whose count has ``bits`` bits."""
        return (
            _STEP
            + self.per_total
            + self.big_ops * _add_work(bits)
            + self.fractions * (_fraction_work(bits) + _FRACTION_USE * 2 * _fraction_work(bits))
        )


PLAIN_USE = Use()
DISTRIBUTION_USE = Use(fractions=1)


def _bits(sides: int, count: int) -> int:
    """Bits of ``sides ** count`` (the number of outcomes of ``count`` dice)."""
    outcomes: int = sides**count
    return outcomes.bit_length()


def _ways_bits(count: int, sides: int, placed: int) -> int:
    """Bits of the number of ways of a keep-highest state with ``placed`` dice placed: which
    of the ``count`` dice (at most ``count ** placed``) and their faces for the given sum (at
    most ``sides ** (placed - 1)``), and never more than all outcomes."""
    bound: int = count**placed * sides ** max(0, placed - 1)
    return min(bound.bit_length(), _bits(sides, count))


def _keep_highest_costs(count: int, sides: int, keep: int) -> list[tuple[int, int]]:
    """Per number of placed dice j < keep: (work per state, its keep - j transitions included;
    work per face), the costs of the loops of :func:`_keep_highest_counts`."""
    outcomes_bits = _bits(sides, count)
    costs = []
    for placed in range(keep):
        need = keep - placed
        ways = _ways_bits(count, sides, placed)
        # a transition: dict update with ways × C(m, c) (below 2 ** count)
        transition = _STEP + _mul_work(ways, count) + _add_work(ways + count)
        # the completion: ways × (a count of at most sides ** count) added to the result
        completion = _STEP + _mul_work(ways, outcomes_bits) + _add_work(outcomes_bits)
        # per face: the new state dicts, the binomials, the powers of the completion weight
        per_face = (
            _STEP * 8
            + _pow_work(outcomes_bits, count)
            + need * (_STEP * 3 + _mul_work(outcomes_bits, count) + _mul_work(outcomes_bits, 16))
        )
        costs.append((need * transition + completion, per_face))
    return costs


def _keep_highest_work(count: int, sides: int, keep: int) -> int:
    """Work of :func:`_keep_highest_counts`, by the loops it runs (an upper bound).

    Before face v (from the top, u = sides - v faces done) the states with j dice placed have
    at most j*u + 1 different sums; each has (keep - j) transitions and one completion; per
    face and j the binomials and the powers of the completion weight
    (:func:`_keep_highest_costs`)."""
    spread = sides * (sides - 1) // 2  # sum of u over all faces
    work = 0
    for placed, (per_state, per_face) in enumerate(_keep_highest_costs(count, sides, keep)):
        states = placed * spread + sides
        work += states * per_state + sides * per_face
    return work


def _convolve_work(size_a: int, bits_a: int, size_b: int, bits_b: int) -> int:
    return size_a * (_STEP + size_b * (_STEP + _mul_work(bits_a, bits_b) + _add_work(bits_a)))


def _support_size(term: DiceTerm) -> int:
    return term.keep_count * (term.sides - 1) + 1


def _sum_work(expression: Expression) -> tuple[int, int, int]:
    """Work of the counts of ``expression`` (the plan of :func:`_compute`), the number of
    totals and the bits of the number of outcomes."""
    size, bits, work = 1, 0, 0
    for term in expression.terms:
        if term.drops:
            term_bits = _bits(term.sides, term.count)
            work += _keep_highest_work(term.count, term.sides, term.keep_count)
            work += _convolve_work(size, bits, _support_size(term), term_bits)
            size += _support_size(term) - 1
            bits += term_bits
    outcomes = 1 << bits
    for term in expression.terms:
        if not term.drops:
            for _ in range(term.count):
                outcomes *= term.sides
                size += term.sides - 1
                work += size * _add_work(outcomes.bit_length())
    return work, size, outcomes.bit_length()


def _pair_work(size: int, bits: int) -> int:
    """Work of :func:`_pair`: per total a running sum, one square and a difference."""
    return size * (2 * _STEP + _add_work(bits) + _mul_work(bits, bits) + _add_work(2 * bits))


def work(expression: Expression, use: Use = PLAIN_USE) -> int:
    """Estimated work (units of :mod:`engine.budget`) of :func:`counts` for ``expression``
    used as ``use`` says: the counts, the better / worse of two, the caller's loop."""
    total, size, bits = _sum_work(expression)
    if use.pair:
        total += _pair_work(size, bits)
        bits *= 2
    return total + size * use.total_work(bits)


def distribution_cost(expression: Expression) -> int:
    """Estimated work of :func:`distribution` (compare with :data:`MAX_DISTRIBUTION_WORK`)."""
    return work(expression, DISTRIBUTION_USE)


def can_compute_distribution(expression: Expression) -> bool:
    """True when :func:`distribution` fits into a request's whole budget."""
    return distribution_cost(expression) <= MAX_DISTRIBUTION_WORK


def _stopped(label: str) -> str:
    return (
        f"{label}: die exakte Berechnung der Wahrscheinlichkeiten wurde abgebrochen, weil sie "
        "zu aufwendig wurde – bitte einen kleineren Würfelausdruck wählen."
    )


def _smaller(expression: Expression, index: int, count: int) -> Expression:
    """``expression`` with term ``index`` reduced to ``count`` dice (keeping at most as many)."""
    term = expression.terms[index]
    keep_count = count if term.keep == KEEP_ALL else min(term.keep_count, count)
    smaller = DiceTerm(count, term.sides, term.sign, term.keep, keep_count)
    terms = (*expression.terms[:index], smaller, *expression.terms[index + 1 :])
    return Expression(terms, expression.constant)


def _largest_fitting(expression: Expression, index: int, use: Use, left: int) -> int:
    """Most dice term ``index`` may have (others unchanged) within ``left`` work; 0 if none."""
    low, high = 0, expression.terms[index].count - 1
    while low < high:
        middle = (low + high + 1) // 2
        if work(_smaller(expression, index, middle), use) <= left:
            low = middle
        else:
            high = middle - 1
    return low


def _what_fits(expression: Expression, use: Use, left: int) -> str:
    """German: a concrete expression that would fit (the term with the most sides smaller)."""
    pair = _PAIR_TEXT[use.pair]
    index = max(range(len(expression.terms)), key=lambda i: expression.terms[i].sides)
    most = _largest_fitting(expression, index, use, left)
    if most:
        smaller = _smaller(expression, index, most)
        return f"möglich ist etwa „{echo(smaller.notation())}“{pair}"
    term = expression.terms[index]
    alone = Expression((term,))
    most = _largest_fitting(alone, 0, use, left)
    if most:
        smaller = _smaller(alone, 0, most)
        return f"möglich ist etwa „{echo(smaller.notation())}“{pair} allein"
    return "der Rechenaufwand dieser Anfrage ist schon ausgeschöpft"


def _too_big(expression: Expression, use: Use, left: int, field: str, label: str) -> EngineError:
    return EngineError(
        f"{label}: „{echo(expression.notation())}“{_PAIR_TEXT[use.pair]} ist zu groß für eine "
        f"exakte Berechnung der Wahrscheinlichkeiten – {_what_fits(expression, use, left)}.",
        field,
    )
