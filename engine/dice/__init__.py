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

The package re-exports its public names; callers use ``from engine import dice`` and
``dice.parse`` … as before. One module per concern:

- ``expression``: :class:`DiceTerm`, :class:`Expression`, the limits, :func:`parse`, :func:`die`.
- ``rolling``: :func:`roll_die`, :func:`roll` and the roll's result (:class:`RollResult`).
- ``cost``: the work model, :class:`Use`, the up-front estimate :func:`work`, the refusals.
- ``exact``: :class:`Counts`, :func:`counts`, :func:`distribution`, :func:`probability`,
  :func:`expected_value`.
"""

from engine.dice.cost import DISTRIBUTION_USE as DISTRIBUTION_USE
from engine.dice.cost import (
    MAX_DISTRIBUTION_WORK,
    PAIR_BEST,
    PAIR_WORST,
    Use,
    can_compute_distribution,
    distribution_cost,
    work,
)
from engine.dice.cost import PLAIN_USE as PLAIN_USE
from engine.dice.exact import Counts, counts, distribution, expected_value, probability
from engine.dice.expression import (
    MAX_CONSTANT,
    MAX_DICE,
    MAX_NOTATION_LENGTH,
    MAX_SIDES,
    MAX_TERMS,
    DiceTerm,
    Expression,
    die,
    parse,
)
from engine.dice.rolling import DieRoll, RollResult, TermRoll, roll, roll_die

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
