"""One work budget per request: the hard limit on the engine's heavy arithmetic.

The browser runs every helper in one worker, so a single slow request blocks all the others.
Only the exact odds can get expensive (big dice expressions: long lists of big integers), and
they are guarded in two ways, both counted in the same *work units*:

1. **Up front**: before any heavy computation, :mod:`engine.dice` estimates its work with the
   same plan the computation follows (:func:`engine.dice.work`) and refuses the request with a
   German message naming the field — and saying what would fit — when the estimate does not
   fit into what is left of the budget (:meth:`Budget.fits`).
2. **As it goes** (the hard safety net): the heavy loops charge the work they are about to do
   to the budget, in chunks, from the sizes and bit lengths they actually meet
   (:meth:`Budget.spend`); if the total ever passes the limit, :class:`WorkLimitExceeded` (an
   :class:`~engine.errors.EngineError`) stops the request.

**One budget per request**, shared by every distribution the request computes: ``engine.api.run``
opens it with :func:`request_budget`, which puts it into a :class:`contextvars.ContextVar`;
:func:`current` finds it from anywhere below without passing it through every signature
(like the roll limit in the context object of avrae's d20). Code that is called outside a
request (tests, the CLI's ``roll``) gets a fresh budget of the same size per call.

**The unit** is about one nanosecond of CPython 3.11 on the reference machine (2 cores); the
cost model in :mod:`engine.dice` is calibrated on it (see ``scripts/worst_case.py``), and
:data:`MAX_WORK` keeps every request well under 0.25 s there (Pyodide is 1.5–2.5× slower, so
the browser still answers within about half a second).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from engine.errors import EngineError

__all__ = ["MAX_WORK", "Budget", "WorkLimitExceeded", "current", "request_budget"]

MAX_WORK = 150_000_000
"""Work units one request may spend on exact odds (≈ 0.15 s of CPython on the reference
machine; the estimates are upper bounds, so real requests stay below that)."""


class WorkLimitExceeded(EngineError):
    """The safety net fired: a computation used more work than its estimate allowed."""


@dataclass
class Budget:
    """Work units a request may still spend, and a cache of what it already computed."""

    limit: int = MAX_WORK
    spent: int = 0
    cache: dict[Any, Any] = field(default_factory=dict)
    """Results of exact computations within this request (e.g. the same damage dice needed for
    two figures), so that the second use costs nothing."""

    @property
    def left(self) -> int:
        return max(0, self.limit - self.spent)

    def fits(self, work: int) -> bool:
        """True when an estimated ``work`` fits into what is left."""
        return work <= self.left

    def spend(self, work: int, message: str, field: str) -> None:
        """Charge ``work`` units; past the limit, stop with ``message`` (German) for ``field``."""
        self.spent += work
        if self.spent > self.limit:
            raise WorkLimitExceeded(message, field)


_CURRENT: ContextVar[Budget | None] = ContextVar("regelwerk_budget", default=None)


def current() -> Budget:
    """The budget of the request being answered; outside a request a fresh one (not kept)."""
    budget = _CURRENT.get()
    return Budget() if budget is None else budget


@contextmanager
def request_budget(limit: int = MAX_WORK) -> Iterator[Budget]:
    """Open the budget of one request (``with request_budget(): …``)."""
    budget = Budget(limit)
    token = _CURRENT.set(budget)
    try:
        yield budget
    finally:
        _CURRENT.reset(token)
