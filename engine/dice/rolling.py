"""Rolling a dice expression with every die kept (:func:`roll`, :class:`RollResult`).

Owns the one place the engine draws dice from a random generator (:func:`roll_die`,
``rng.randint(1, sides)``), and the roll's result: every die in the order rolled, dropped ones
(``kh``/``kl``) marked, each term's signed subtotal and the total. Dice are rolled in the order
they appear in the expression, so seeded results agree between CPython and Pyodide.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.dice.expression import KEEP_ALL, KEEP_HIGHEST, DiceTerm, Expression


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
