"""The ``wurf`` action: plain dice rolls for the dice expressions in the rule texts.

Owns the clickable "1W6+1" of every page: one roll of the expression, or two rolls of which the
better (Vorteil) or worse (Nachteil) counts, each die shown, with the exact distribution of the
kept result (``combined``) and its odds.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from engine import dice
from engine.display import Counted, Display, show_distribution
from engine.formatting import decimal, number
from engine.params import ChoiceParam, DiceParam
from engine.systems.allgemein.common import SYSTEM

MODES = (("normal", "Normal"), ("vorteil", "Vorteil"), ("nachteil", "Nachteil"))
PAIRS = {"normal": "", "vorteil": dice.PAIR_BEST, "nachteil": dice.PAIR_WORST}
TOTAL_WORK = 200
"""Work units of :func:`roll`'s own loop per possible total (beyond the big-integer sums)."""


def odds(expression: dice.Expression, mode: str) -> dice.Counts:
    """Counts of one roll, or of the better / worse of two independent rolls, as :func:`roll`
    uses them (one pass: the sum of the totals at least as high and the weighted sum)."""
    use = dice.Use(pair=PAIRS[mode], per_total=TOTAL_WORK, big_ops=2)
    return dice.counts(expression, field="notation", label="Würfelausdruck", use=use)


def combined(expression: dice.Expression, mode: str) -> dict[int, Fraction]:
    """Distribution of one roll, or of the better / worse of two independent rolls."""
    exact = odds(expression, mode)
    return {total: Fraction(count, exact.outcomes) for total, count in exact.items()}


def _show_distribution(display: Display, exact: dice.Counts) -> bool:
    """The distribution of the result (the kept one with Vorteil / Nachteil) as a chart of the
    odds before the roll, its mean the expected value; False, and nothing drawn, when its bars
    do not fit into the request's work budget."""
    # one caption for every mode: „Vergleichen“ puts the modes' means in one column
    return show_distribution(
        display,
        "Verteilung des Ergebnisses",
        "Ergebnis",
        lambda: Counted(
            {exact.offset + index: count for index, count in enumerate(exact.counts)},
            exact.outcomes,
        ),
        size=len(exact.counts),
        bits=exact.outcomes.bit_length(),
        mean_label="Erwartungswert",
    )


@SYSTEM.action(
    "wurf",
    title="Würfelwurf",
    summary=(
        "Würfelt einen Ausdruck wie 1W6+1 oder 2W10 und zeigt jeden Würfel und die exakten "
        "Wahrscheinlichkeiten. Mit Vorteil (Nachteil) wird zweimal gewürfelt und das bessere "
        "(schlechtere) Ergebnis zählt."
    ),
    source="Würfelausdrücke in allen Regeltexten",
    params=(
        DiceParam(
            "notation",
            "Würfelausdruck",
            default="1W6",
            help="z. B. 1W20, 2W6+3, 1W6-3",
            required=True,
        ),
        ChoiceParam("mode", "Modus", choices=MODES, default="normal"),
    ),
    compare=("mode",),  # the expected result with Vorteil, Nachteil or neither
)
def roll(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    expression = dice.parse(params["notation"], "notation", "Würfelausdruck")
    mode: str = params["mode"]
    exact_counts = odds(expression, mode)
    rolls = [dice.roll(expression, rng) for _ in range(1 if mode == "normal" else 2)]
    totals = [r.total for r in rolls]
    kept = max(totals) if mode == "vorteil" else min(totals) if mode == "nachteil" else totals[0]
    kept_index = totals.index(kept)
    at_least_count = 0
    weighted = 0
    for total, count in exact_counts.items():
        weighted += total * count
        if total >= kept:
            at_least_count += count
    exact = exact_counts.fraction(exact_counts.count(kept))
    at_least = exact_counts.fraction(at_least_count)
    mean = exact_counts.fraction(weighted)
    label = dict(MODES)[mode]
    display = Display(
        headline=f"{expression.notation()}" + ("" if mode == "normal" else f" mit {label}"),
        outcome=f"Ergebnis: {number(kept)}",
    )
    for index, rolled in enumerate(rolls):
        name = "Wurf" if len(rolls) == 1 else f"Wurf {index + 1}"
        if len(rolls) > 1:
            name += " (zählt)" if index == kept_index else " (verworfen)"
        constant = expression.constant
        modifiers = [("Zuschlag" if constant > 0 else "Abzug", constant)] if constant else []
        display.roll(name, rolled, modifiers)
    display.chances(
        "Exakte Wahrscheinlichkeiten",
        [
            (f"genau {number(kept)}", exact),
            (f"{number(kept)} oder mehr", at_least),
        ],
    )
    drawn = expression.has_dice and _show_distribution(display, exact_counts)
    if not drawn:  # the chart shows the range and the mean; without it, they are said here
        display.notes(
            "Verteilung",
            [
                f"Spanne {number(exact_counts.minimum())} bis {number(exact_counts.maximum())}, "
                f"Erwartungswert {decimal(mean)}"
            ],
        )
    return {
        "notation": expression.notation(),
        "mode": mode,
        "rolls": [r.to_dict() for r in rolls],
        "total": kept,
        "chances": {"exact": str(exact), "at_least": str(at_least)},
        "expected": str(mean),
        "display": display.to_dict(),
    }
