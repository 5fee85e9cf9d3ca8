"""Dice notation → expression (AST) → roll with every die kept → exact distribution.

Notation (case-insensitive, spaces allowed between tokens), German ``W`` or English ``d``::

    W20   1W20   2W6+3   1W6-3   1W12+1W4-1   2d6+1d4+2   -1W4+2   W%  (= 1W100)
    2W20kh1  2W20kh  2W20h1  2W20h   (keep highest: Vorteil)
    2W10kl1  2W10kl  2W10l1  2W10l   (keep lowest: Nachteil)

``−`` (U+2212) and ``–`` (U+2013) are read as minus. A pure number (``5``) is a valid
expression without dice. Every bad input raises :class:`~engine.errors.EngineError` with a
German message that starts with the caller's label and carries the caller's field name.

Rolling: a die is always rolled with ``rng.randint(1, sides)`` (see :func:`roll_die`), dice in
the order they appear in the expression, so seeded results agree between CPython and Pyodide.

Exact odds: :func:`counts` convolves integer counts per term (one common denominator, the
number of outcomes); keep-highest/keep-lowest terms use a dynamic programme over the faces (no
enumeration of ``sides ** count`` outcomes); :func:`distribution` turns the counts into
Fractions. Every exact computation runs within the work budget of the request
(:mod:`engine.budget`): :func:`work` estimates it up front with the same plan, big-integer sizes
included, and an expression that does not fit is refused with an :class:`EngineError` ("zu groß
für eine exakte Berechnung", with an expression that would fit); the loops charge their work as
they go, as a safety net.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction

from engine.budget import MAX_WORK, Budget
from engine.budget import current as current_budget
from engine.errors import EngineError, echo
from engine.formatting import number

__all__ = [
    "MAX_CONSTANT",
    "MAX_DICE",
    "MAX_DISTRIBUTION_WORK",
    "MAX_NOTATION_LENGTH",
    "MAX_SIDES",
    "MAX_TERMS",
    "PAIR_BEST",
    "PAIR_WORST",
    "Counts",
    "DiceTerm",
    "DieRoll",
    "Expression",
    "RollResult",
    "TermRoll",
    "Use",
    "can_compute_distribution",
    "counts",
    "die",
    "distribution",
    "distribution_cost",
    "expected_value",
    "parse",
    "probability",
    "roll",
    "roll_die",
    "work",
]

MAX_DICE = 100
"""Most dice in one expression (sum of all counts, dropped dice included)."""
MAX_SIDES = 1000
"""Most sides of one die."""
MAX_TERMS = 20
"""Most terms in one expression: dice terms and constants, as written."""
MAX_NOTATION_LENGTH = 100
"""Most characters of the notation text (surrounding spaces included)."""
MAX_CONSTANT = 10_000
"""Largest absolute value of each constant as written, and of their sum (so that the
canonical notation, which merges the constants, always parses again)."""
MAX_DISTRIBUTION_WORK = MAX_WORK
"""Work bound of one request's exact odds, in :func:`work` units (see :mod:`engine.budget`)."""

KEEP_ALL = "all"
KEEP_HIGHEST = "highest"
KEEP_LOWEST = "lowest"
_KEEP_MODES = (KEEP_ALL, KEEP_HIGHEST, KEEP_LOWEST)

DEFAULT_FIELD = "notation"
DEFAULT_LABEL = "Würfelausdruck"
_EXAMPLES = "Beispiele: 1W20, 2W6+3, W10"
_MINUS_SIGNS = frozenset("-\u2212\u2013")
_DIGITS = frozenset("0123456789")


# ---------------------------------------------------------------------------------------------
# Expression (AST)
# ---------------------------------------------------------------------------------------------


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _term_problem(count: int, sides: int, keep: str, keep_count: int) -> str | None:
    """The German reason why a dice term is not allowed (without label and quote), or None."""
    if count < 1:
        return "es muss mindestens 1 Würfel geworfen werden."
    if sides < 2:
        return "ein Würfel braucht mindestens 2 Seiten."
    if sides > MAX_SIDES:
        return f"ein Würfel darf höchstens {number(MAX_SIDES)} Seiten haben."
    if count > MAX_DICE:
        return f"höchstens {MAX_DICE} Würfel auf einmal."
    if keep == KEEP_ALL:
        return None
    if keep_count < 1:
        return "es muss mindestens 1 Würfel behalten werden."
    if keep_count > count:
        if count == 1:
            return "es kann höchstens 1 Würfel behalten werden, weil nur 1 geworfen wird."
        return (
            f"es können höchstens {count} Würfel behalten werden, weil nur {count} geworfen werden."
        )
    return None


@dataclass(frozen=True)
class DiceTerm:
    """``count`` dice with ``sides`` sides, added (``sign`` +1) or subtracted (-1).

    ``keep`` is ``"all"``, ``"highest"`` or ``"lowest"``; ``keep_count`` dice are kept
    (``== count`` when ``keep == "all"``).
    """

    count: int
    sides: int
    sign: int = 1
    keep: str = KEEP_ALL
    keep_count: int = -1

    def __post_init__(self) -> None:
        if self.keep_count == -1 and self.keep == KEEP_ALL and _is_int(self.count):
            object.__setattr__(self, "keep_count", self.count)
        values = (self.count, self.sides, self.sign, self.keep_count)
        if not all(_is_int(v) for v in values) or self.keep not in _KEEP_MODES:
            raise EngineError(f"{DEFAULT_LABEL}: ungültiges Würfelglied.")
        if self.sign not in (1, -1):
            raise EngineError(f"{DEFAULT_LABEL}: Vorzeichen muss +1 oder -1 sein.")
        if self.keep == KEEP_ALL and self.keep_count != self.count:
            raise EngineError(f"{DEFAULT_LABEL}: ohne kh/kl werden alle Würfel behalten.")
        problem = _term_problem(self.count, self.sides, self.keep, self.keep_count)
        if problem is not None:
            raise EngineError(f"{DEFAULT_LABEL}: {problem}")

    def notation(self) -> str:
        """Canonical German text without sign: ``"2W20kh1"``, ``"1W6"``."""
        text = f"{self.count}W{self.sides}"
        if self.keep == KEEP_HIGHEST:
            text += f"kh{self.keep_count}"
        elif self.keep == KEEP_LOWEST:
            text += f"kl{self.keep_count}"
        return text

    @property
    def drops(self) -> bool:
        """True when some rolled dice are not counted (kh/kl with fewer kept than rolled)."""
        return self.keep != KEEP_ALL and self.keep_count < self.count

    def minimum(self) -> int:
        """Smallest signed contribution."""
        return self.keep_count if self.sign > 0 else -self.keep_count * self.sides

    def maximum(self) -> int:
        """Largest signed contribution."""
        return self.keep_count * self.sides if self.sign > 0 else -self.keep_count


@dataclass(frozen=True)
class Expression:
    """A sum of dice terms plus one (signed) constant."""

    terms: tuple[DiceTerm, ...]
    constant: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.terms, tuple) or not all(
            isinstance(t, DiceTerm) for t in self.terms
        ):
            raise EngineError(f"{DEFAULT_LABEL}: ungültige Würfelglieder.")
        if not _is_int(self.constant):
            raise EngineError(f"{DEFAULT_LABEL}: die Zahl muss eine ganze Zahl sein.")
        if len(self.terms) > MAX_TERMS:
            raise EngineError(_too_many_terms(DEFAULT_LABEL))
        if self.dice_count > MAX_DICE:
            raise EngineError(f"{DEFAULT_LABEL}: höchstens {MAX_DICE} Würfel auf einmal.")
        if abs(self.constant) > MAX_CONSTANT:
            raise EngineError(_constant_too_big(DEFAULT_LABEL, self.constant))

    @property
    def dice_count(self) -> int:
        """Number of dice rolled (dropped dice included)."""
        return sum(t.count for t in self.terms)

    @property
    def has_dice(self) -> bool:
        return bool(self.terms)

    def notation(self) -> str:
        """Canonical German text: ``"2W6+3"``, ``"1W6-3"``, ``"1W12+1W4-1"``, ``"2W20kh1+5"``."""
        parts: list[str] = []
        for i, term in enumerate(self.terms):
            if term.sign < 0:
                parts.append("-")
            elif i:
                parts.append("+")
            parts.append(term.notation())
        if self.constant or not self.terms:
            if self.constant < 0:
                parts.append("-")
            elif self.terms:
                parts.append("+")
            parts.append(str(abs(self.constant)))
        return "".join(parts)

    def minimum(self) -> int:
        return self.constant + sum(t.minimum() for t in self.terms)

    def maximum(self) -> int:
        return self.constant + sum(t.maximum() for t in self.terms)


def _constant_too_big(label: str, constant: int) -> str:
    return (
        f"{label}: die Zahlen ergeben zusammen {number(constant)} – "
        f"höchstens {number(MAX_CONSTANT)} (oder {number(-MAX_CONSTANT)})."
    )


def _too_many_terms(label: str) -> str:
    return f"{label}: höchstens {MAX_TERMS} Glieder (Würfel und Zahlen) in einem Ausdruck."


# ---------------------------------------------------------------------------------------------
# Parser
# ---------------------------------------------------------------------------------------------

# token kinds
_NUM = "num"  # value = the number
_DIE = "die"  # "W"/"d"
_PCT = "pct"  # "%" as sides (W% = W100)
_KEEP = "keep"  # value = 1 highest, 0 lowest
_OP = "op"  # value = +1 / -1


@dataclass(frozen=True)
class _Token:
    kind: str
    value: int
    start: int
    end: int


class _Invalid(Exception):
    """Internal: the text is not a dice expression (turned into the generic message)."""


def _tokenize(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
        elif ch in _DIGITS:
            j = i
            while j < n and text[j] in _DIGITS:
                j += 1
            tokens.append(_Token(_NUM, int(text[i:j]), i, j))
            i = j
        elif ch in "wWdD":
            tokens.append(_Token(_DIE, 0, i, i + 1))
            i += 1
        elif ch == "%":
            tokens.append(_Token(_PCT, 100, i, i + 1))
            i += 1
        elif ch in "kK" and i + 1 < n and text[i + 1] in "hHlL":
            tokens.append(_Token(_KEEP, int(text[i + 1] in "hH"), i, i + 2))
            i += 2
        elif ch in "hHlL":
            tokens.append(_Token(_KEEP, int(ch in "hH"), i, i + 1))
            i += 1
        elif ch == "+":
            tokens.append(_Token(_OP, 1, i, i + 1))
            i += 1
        elif ch in _MINUS_SIGNS:
            tokens.append(_Token(_OP, -1, i, i + 1))
            i += 1
        else:
            raise _Invalid
    return tokens


def parse(text: str, field: str = DEFAULT_FIELD, label: str = DEFAULT_LABEL) -> Expression:
    """Parse dice notation; raise :class:`EngineError` (``field``, German, ``label: …``) if bad."""
    if not isinstance(text, str):
        raise EngineError(f"{label}: erwartet wird ein Text wie „2W6+3“.", field)
    if len(text) > MAX_NOTATION_LENGTH:
        raise EngineError(f"{label}: höchstens {MAX_NOTATION_LENGTH} Zeichen.", field)
    if not text.strip():
        raise EngineError(f"{label}: Bitte einen Würfelausdruck angeben ({_EXAMPLES}).", field)
    try:
        return _parse_tokens(text, _tokenize(text), field, label)
    except _Invalid:
        raise EngineError(
            f"{label}: „{echo(text.strip())}“ ist kein gültiger Würfelausdruck ({_EXAMPLES}).",
            field,
        ) from None


def _parse_tokens(text: str, tokens: list[_Token], field: str, label: str) -> Expression:
    terms: list[DiceTerm] = []
    constant = 0
    written_terms = 0
    dice_total = 0
    pos = 0

    def peek(kind: str) -> _Token | None:
        if pos < len(tokens) and tokens[pos].kind == kind:
            return tokens[pos]
        return None

    sign = 1
    lead = peek(_OP)
    if lead is not None:
        sign = lead.value
        pos += 1
    while True:
        first = pos
        count_token = peek(_NUM)
        if count_token is not None:
            pos += 1
        if peek(_DIE) is None:
            if count_token is None:
                raise _Invalid
            if count_token.value > MAX_CONSTANT:
                raise EngineError(
                    f"{label}: „{echo(text[count_token.start : count_token.end])}“ – Zahlen dürfen "
                    f"höchstens {number(MAX_CONSTANT)} betragen.",
                    field,
                )
            constant += sign * count_token.value
        else:
            pos += 1
            sides_token = peek(_NUM) or peek(_PCT)
            if sides_token is None:
                raise _Invalid
            pos += 1
            keep, keep_count = KEEP_ALL, -1
            keep_token = peek(_KEEP)
            if keep_token is not None:
                pos += 1
                keep = KEEP_HIGHEST if keep_token.value else KEEP_LOWEST
                keep_number = peek(_NUM)
                keep_count = 1
                if keep_number is not None:
                    keep_count = keep_number.value
                    pos += 1
            count = 1 if count_token is None else count_token.value
            if keep == KEEP_ALL:
                keep_count = count
            quoted = text[tokens[first].start : tokens[pos - 1].end]
            problem = _term_problem(count, sides_token.value, keep, keep_count)
            if problem is not None:
                raise EngineError(f"{label}: „{echo(quoted)}“ – {problem}", field)
            dice_total += count
            if dice_total > MAX_DICE:
                raise EngineError(f"{label}: höchstens {MAX_DICE} Würfel auf einmal.", field)
            terms.append(DiceTerm(count, sides_token.value, sign, keep, keep_count))
        written_terms += 1
        if written_terms > MAX_TERMS:
            raise EngineError(_too_many_terms(label), field)
        if pos == len(tokens):
            break
        op = peek(_OP)
        if op is None:
            raise _Invalid
        sign = op.value
        pos += 1
    if abs(constant) > MAX_CONSTANT:
        raise EngineError(_constant_too_big(label, constant), field)
    return Expression(tuple(terms), constant)


def die(
    sides: int,
    count: int = 1,
    *,
    field: str = DEFAULT_FIELD,
    label: str = DEFAULT_LABEL,
) -> Expression:
    """The expression ``{count}W{sides}`` (validated like parsed notation)."""
    if not _is_int(sides) or not _is_int(count):
        raise EngineError(f"{label}: Anzahl und Seitenzahl müssen ganze Zahlen sein.", field)
    problem = _term_problem(count, sides, KEEP_ALL, count)
    if problem is not None:
        raise EngineError(f"{label}: „{count}W{sides}“ – {problem}", field)
    return Expression((DiceTerm(count, sides),))


# ---------------------------------------------------------------------------------------------
# Rolling
# ---------------------------------------------------------------------------------------------


def roll_die(rng: random.Random, sides: int) -> int:
    """Roll one die. The only place the engine draws dice from a random generator."""
    return rng.randint(1, sides)


@dataclass(frozen=True)
class DieRoll:
    sides: int
    value: int
    kept: bool

    def to_dict(self) -> dict[str, object]:
        return {"sides": self.sides, "value": self.value, "kept": self.kept}


@dataclass(frozen=True)
class TermRoll:
    term: DiceTerm
    dice: tuple[DieRoll, ...]
    """Every die of the term in the order rolled, dropped ones with ``kept=False``."""
    subtotal: int
    """Signed sum of the kept dice."""

    def to_dict(self) -> dict[str, object]:
        return {
            "notation": self.term.notation(),
            "sign": self.term.sign,
            "subtotal": self.subtotal,
            "dice": [d.to_dict() for d in self.dice],
        }


@dataclass(frozen=True)
class RollResult:
    expression: Expression
    terms: tuple[TermRoll, ...]
    constant: int
    total: int

    @property
    def dice(self) -> tuple[DieRoll, ...]:
        """All dice of all terms, in the order rolled."""
        return tuple(d for t in self.terms for d in t.dice)

    def to_dict(self) -> dict[str, object]:
        """JSON-serialisable form (notation, total, constant, terms with every die)."""
        return {
            "notation": self.expression.notation(),
            "total": self.total,
            "constant": self.constant,
            "terms": [t.to_dict() for t in self.terms],
        }


def _kept_indices(values: list[int], keep: str, keep_count: int) -> set[int]:
    """Indices of the kept dice; among equal values the earlier die is kept."""
    if keep == KEEP_ALL:
        return set(range(len(values)))
    if keep == KEEP_HIGHEST:
        order = sorted(range(len(values)), key=lambda i: (-values[i], i))
    else:
        order = sorted(range(len(values)), key=lambda i: (values[i], i))
    return set(order[:keep_count])


def roll(expression: Expression, rng: random.Random) -> RollResult:
    """Roll every die of ``expression`` (terms left to right, dice in order) with ``rng``."""
    term_rolls: list[TermRoll] = []
    for term in expression.terms:
        values = [roll_die(rng, term.sides) for _ in range(term.count)]
        kept = _kept_indices(values, term.keep, term.keep_count)
        rolled = tuple(DieRoll(term.sides, v, i in kept) for i, v in enumerate(values))
        subtotal = term.sign * sum(d.value for d in rolled if d.kept)
        term_rolls.append(TermRoll(term, rolled, subtotal))
    total = expression.constant + sum(t.subtotal for t in term_rolls)
    return RollResult(expression, tuple(term_rolls), expression.constant, total)


# ---------------------------------------------------------------------------------------------
# Exact distribution
#
# A distribution is held as integer counts (:class:`Counts`): ``counts[i]`` of the ``outcomes``
# equally likely outcomes give the total ``offset + i``; Fractions are built only for the figures
# shown. Before any heavy arithmetic, :func:`work` estimates the cost with the same plan the
# computation follows, in the work units of :mod:`engine.budget` (about 1 ns of CPython on the
# reference machine), big-integer sizes included; what does not fit into the request's budget
# is refused with a German message saying what would fit. While computing, the loops charge the
# work they are about to do, from the sizes and bit lengths they meet (the safety net).
# ---------------------------------------------------------------------------------------------

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


def _convolve_work(size_a: int, bits_a: int, size_b: int, bits_b: int) -> int:
    return size_a * (_STEP + size_b * (_STEP + _mul_work(bits_a, bits_b) + _add_work(bits_a)))


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
