"""A fighter's state after a roll, in the one vocabulary every Kampfhelfer page reads.

Systems name the states of a hit fighter in their own words (DSA: kampfunfähig, lebensbedrohlich,
tot; Pathfinder: kampfunfähig, sterbend, tot). A result that changes its target's resources
also gives ``target_state``: ``{"zustand": …, "text": …}`` with ``zustand`` one of
:data:`STATES` – whether the fighter can still act – and ``text`` the system's own word. The
page marks such a fighter and „Weiter“ passes over one who cannot act (the game master can
still choose him).
"""

from __future__ import annotations

FIT = "kampffähig"
DOWN = "kampfunfähig"  # cannot act: down, dying, unconscious
DEAD = "tot"
STATES = (FIT, DOWN, DEAD)


def target_state(zustand: str, text: str) -> dict[str, str]:
    """The ``target_state`` of a result (see the module's docstring)."""
    if zustand not in STATES:
        raise ValueError(f"unbekannter Zustand {zustand!r}")
    return {"zustand": zustand, "text": text}
