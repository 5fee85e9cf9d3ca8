"""Dice expressions: the terms (:class:`DiceTerm`), the sum (:class:`Expression`), the parser.

Owns the notation's limits (``MAX_DICE``, ``MAX_SIDES``, ``MAX_TERMS``, ``MAX_NOTATION_LENGTH``,
``MAX_CONSTANT``), the keep modes (``kh``/``kl``), the German messages for bad input, and the
two ways to make an expression: :func:`parse` (notation text) and :func:`die` (``{count}W{sides}``).
Rolling is in :mod:`engine.dice.rolling`, exact odds in :mod:`engine.dice.cost` and
:mod:`engine.dice.exact`; the notation itself is described in :mod:`engine.dice`.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import EngineError, echo
from engine.formatting import number

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
