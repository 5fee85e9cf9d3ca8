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

Exact odds: :func:`distribution` convolves integer counts per term and divides once at the
end; keep-highest/keep-lowest terms use a dynamic programme over the faces (no enumeration of
``sides ** count`` outcomes). Expressions whose exact distribution would cost more than
:data:`MAX_DISTRIBUTION_WORK` steps (see :func:`distribution_cost`) are refused with an
:class:`EngineError` ("zu groß für eine exakte Berechnung").
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from engine.errors import EngineError
from engine.formatting import number

__all__ = [
    "MAX_CONSTANT",
    "MAX_DICE",
    "MAX_DISTRIBUTION_WORK",
    "MAX_NOTATION_LENGTH",
    "MAX_SIDES",
    "MAX_TERMS",
    "DiceTerm",
    "DieRoll",
    "Expression",
    "RollResult",
    "TermRoll",
    "can_compute_distribution",
    "die",
    "distribution",
    "distribution_cost",
    "expected_value",
    "parse",
    "probability",
    "roll",
    "roll_die",
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
MAX_DISTRIBUTION_WORK = 1_500_000
"""Work bound for exact odds, in :func:`distribution_cost` units (at most ~0.5 s in CPython)."""
_RESULT_WEIGHT = 20
"""Work units per possible total (building one :class:`Fraction` costs about that much)."""

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
            raise EngineError(f"{DEFAULT_LABEL}: ungültiges Würfelglied {self!r}.")
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
            f"{label}: „{text.strip()}“ ist kein gültiger Würfelausdruck ({_EXAMPLES}).", field
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
                    f"{label}: „{text[count_token.start : count_token.end]}“ – Zahlen dürfen "
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
                raise EngineError(f"{label}: „{quoted}“ – {problem}", field)
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
# A distribution is held as (offset, counts): counts[i] is the number of equally likely
# outcomes with total offset + i. Work is estimated up front (distribution_cost) with the same
# plan the computation follows, so a refusal happens before any heavy arithmetic.
# ---------------------------------------------------------------------------------------------

_Counts = tuple[int, list[int]]


def _keep_highest_work(count: int, sides: int, keep: int) -> int:
    """Work of :func:`_keep_highest_counts`: state updates plus completion weights."""
    # Before face v (from the top, u = sides - v faces done) states with j dice placed have
    # at most j*u + 1 different sums; each state has (keep - j) transitions + 1 completion.
    spread = sides * (sides - 1) // 2  # sum of u over all faces
    work = 0
    for j in range(keep):
        transitions = keep - j + 1
        work += (j * spread + sides) * transitions
    return work + sides * keep * keep


def _keep_highest_counts(count: int, sides: int, keep: int) -> _Counts:
    """Counts of the sum of the ``keep`` highest of ``count`` dice with ``sides`` sides.

    Faces are visited from ``sides`` down to 1. A state (j, t) means: j dice (fewer than
    ``keep``) show faces above the current one, and their sum is t — all of them are kept.
    Choosing which c of the remaining dice show the current face multiplies by C(m, c). Once
    ``keep`` dice are placed the kept sum is fixed, and the remaining dice only need to show
    lower faces, so those cases are completed at once with a closed-form weight.
    """
    comb = math.comb
    result = [0] * (keep * sides + 1)
    states: list[dict[int, int]] = [{} for _ in range(keep)]
    states[0][0] = 1
    for face in range(sides, 0, -1):
        lower = face - 1
        new_states: list[dict[int, int]] = [{} for _ in range(keep)]
        for placed in range(keep):
            current = states[placed]
            if not current:
                continue
            remaining = count - placed
            need = keep - placed
            stay = [comb(remaining, c) for c in range(need)]
            # ways for the remaining dice to all show <= face with at least `need` at face
            done = face**remaining - sum(stay[c] * lower ** (remaining - c) for c in range(need))
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


def _dropping_term_counts(term: DiceTerm) -> _Counts:
    """Signed counts of a kh/kl term (kl via mirrored faces: v -> sides + 1 - v)."""
    offset, values = _keep_highest_counts(term.count, term.sides, term.keep_count)
    if term.keep == KEEP_LOWEST:
        values = values[::-1]
    return _signed(term, (offset, values))


def _support_size(term: DiceTerm) -> int:
    return term.keep_count * (term.sides - 1) + 1


def distribution_cost(expression: Expression) -> int:
    """Estimated work of :func:`distribution` (compare with :data:`MAX_DISTRIBUTION_WORK`)."""
    size = 1
    work = 0
    for term in expression.terms:
        if term.drops:
            work += _keep_highest_work(term.count, term.sides, term.keep_count)
            work += size * _support_size(term)
            size += _support_size(term) - 1
    for term in expression.terms:
        if not term.drops:
            for _ in range(term.count):
                work += size + term.sides
                size += term.sides - 1
    return work + _RESULT_WEIGHT * size


def can_compute_distribution(expression: Expression) -> bool:
    """True when :func:`distribution` will answer (within :data:`MAX_DISTRIBUTION_WORK`)."""
    return distribution_cost(expression) <= MAX_DISTRIBUTION_WORK


def _too_big(expression: Expression, field: str, label: str) -> EngineError:
    return EngineError(
        f"{label}: „{expression.notation()}“ ist zu groß für eine exakte Berechnung "
        "der Wahrscheinlichkeiten.",
        field,
    )


def _outcomes(expression: Expression) -> int:
    return math.prod(t.sides**t.count for t in expression.terms)


def _counts(expression: Expression, field: str, label: str) -> _Counts:
    if distribution_cost(expression) > MAX_DISTRIBUTION_WORK:
        raise _too_big(expression, field, label)
    offset, counts = expression.constant, [1]
    # dropping terms first (full convolution while the running support is small), then
    # every other die one at a time with the cheap sliding window
    for term in expression.terms:
        if term.drops:
            term_offset, term_counts = _dropping_term_counts(term)
            offset += term_offset
            counts = _convolve(counts, term_counts)
    for term in expression.terms:
        if not term.drops:
            for _ in range(term.count):
                counts = _add_die(counts, term.sides)
                offset += 1 if term.sign > 0 else -term.sides
    return offset, counts


def distribution(
    expression: Expression, *, field: str = DEFAULT_FIELD, label: str = DEFAULT_LABEL
) -> dict[int, Fraction]:
    """Exact probability of every possible total, sorted by total (zero-probability totals
    are left out); the values sum to 1. Raises :class:`EngineError` when too big to compute."""
    offset, counts = _counts(expression, field, label)
    outcomes = _outcomes(expression)
    return {offset + i: Fraction(c, outcomes) for i, c in enumerate(counts) if c}


def probability(
    expression: Expression,
    predicate: Callable[[int], bool],
    *,
    field: str = DEFAULT_FIELD,
    label: str = DEFAULT_LABEL,
) -> Fraction:
    """Exact probability that the total satisfies ``predicate``."""
    offset, counts = _counts(expression, field, label)
    hits = sum(c for i, c in enumerate(counts) if c and predicate(offset + i))
    return Fraction(hits, _outcomes(expression))


def expected_value(
    expression: Expression, *, field: str = DEFAULT_FIELD, label: str = DEFAULT_LABEL
) -> Fraction:
    """Exact mean of the total (by linearity: cheap even when the distribution is not)."""
    mean = Fraction(expression.constant)
    for term in expression.terms:
        if term.drops:
            if _keep_highest_work(term.count, term.sides, term.keep_count) > MAX_DISTRIBUTION_WORK:
                raise _too_big(expression, field, label)
            offset, values = _dropping_term_counts(term)
            weighted = sum((offset + i) * c for i, c in enumerate(values))
            mean += Fraction(weighted, term.sides**term.count)
        else:
            mean += Fraction(term.sign * term.count * (term.sides + 1), 2)
    return mean
