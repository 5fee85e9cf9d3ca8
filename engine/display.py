"""The ``display`` part of a result: German, ready-formatted, rendered by the browser as is.

Every action returns ``{"display": {...}, ...}`` built with these helpers, so one generic
renderer shows every helper's dice, modifiers, outcome and odds, and the text a player sees
is produced once, in Python, identically in CPython and Pyodide.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import accumulate
from typing import Any

from engine.budget import current as current_budget
from engine.dice import RollResult
from engine.formatting import decimal, fraction_text, number, percent, signed

MAX_BARS = 400
"""Most bars a distribution section carries (a wider one – 30W20 – is cut to its middle and
says so); a chart of 400 bars is still drawn in well under 16 ms."""


MEANS_ONLY: ContextVar[bool] = ContextVar("regelwerk_means_only", default=False)
"""Set while „Was wäre wenn“/„Vergleichen“ (engine/odds.py) run an action again and again: they
read only the mean of a distribution, so its bars are not formatted (nor charged)."""

BAR_WORK = 60_000
"""Work units (:mod:`engine.budget`) of formatting one bar – its exact chance, „mindestens“ and
„höchstens“ as fractions and percentages (measured ≈ 0,1 ms a bar of 665-bit fractions, 100W100,
on the reference machine) – plus :data:`BAR_WORK_PER_BIT` per bit of the denominator."""
BAR_WORK_PER_BIT = 80


def bars_work(dist: Mapping[int, Fraction]) -> int:
    """The work of :func:`numeric_bars` for ``dist``: the bars kept, by their denominator."""
    bits = max(p.denominator.bit_length() for p in dist.values()) if dist else 0
    return min(len(dist), MAX_BARS) * (BAR_WORK + BAR_WORK_PER_BIT * bits)


def numeric_bars(dist: Mapping[int, Fraction]) -> dict[str, Any]:
    """The bars of a numeric distribution: each value with its exact chance and the chances of
    „mindestens“ and „höchstens“ that value (what a player asks at the table: 8 or more
    damage), and the exact mean. Values come sorted; a distribution wider than
    :data:`MAX_BARS` keeps its most likely middle, the rest summed up into ``cut``.

    The sums run over integers (every chance over one common denominator) and only the bars
    kept are formatted, so a wide distribution costs little more than the bars drawn."""
    values = sorted(dist)
    if not values:
        raise ValueError("an empty distribution")
    common = math.lcm(*{p.denominator for p in dist.values()})
    weights = [dist[v].numerator * (common // dist[v].denominator) for v in values]
    below = [0, *accumulate(weights)]  # below[i]: the weight of the values before values[i]
    if below[-1] != common:
        raise ValueError(f"a distribution sums to {Fraction(below[-1], common)}, not 1")
    mean = Fraction(sum(v * w for v, w in zip(values, weights, strict=True)), common)
    start, stop = 0, len(values)
    if len(values) > MAX_BARS:
        peak = max(range(len(values)), key=weights.__getitem__)
        start = min(max(0, peak - MAX_BARS // 2), len(values) - MAX_BARS)
        stop = start + MAX_BARS
    bars = []
    for i in range(start, stop):
        p = Fraction(weights[i], common)
        at_least, at_most = Fraction(common - below[i], common), Fraction(below[i + 1], common)
        bars.append(
            {
                "value": values[i],
                "label": number(values[i]),
                "fraction": fraction_text(p),
                "percent": percent(p),
                "at_least": fraction_text(at_least),
                "at_least_percent": percent(at_least),
                "at_most": fraction_text(at_most),
                "at_most_percent": percent(at_most),
            }
        )
    out: dict[str, Any] = {
        "numeric": True,
        "bars": bars,
        "mean": {"fraction": fraction_text(mean), "text": decimal(mean)},
    }
    if stop - start < len(values):
        cut_below = Fraction(below[start], common)
        cut_above = Fraction(common - below[stop], common)
        out["cut"] = {
            "below": fraction_text(cut_below),
            "below_percent": percent(cut_below),
            "above": fraction_text(cut_above),
            "above_percent": percent(cut_above),
        }
    return out


@dataclass
class Display:
    headline: str
    outcome: str = ""
    sections: list[dict[str, Any]] = field(default_factory=list)

    def table(self, caption: str, columns: list[str], rows: list[list[str]]) -> None:
        self.sections.append(
            {"kind": "table", "caption": caption, "columns": columns, "rows": rows}
        )

    def roll(
        self,
        label: str,
        rolled: RollResult,
        modifiers: list[tuple[str, int]] | None = None,
        total: int | None = None,
        decision: str = "",
    ) -> None:
        """One roll: every die, the named modifiers and the total they give.

        ``decision``: what this roll decided, in the rules' words, shown after the total
        (a Bestätigungswurf says „gegen RK 15: bestätigt – kritischer Treffer“); only a roll
        that decides something on its own has one."""
        items = self._rolls()
        item: dict[str, Any] = {
            "label": label,
            "notation": rolled.expression.notation(),
            "dice": [
                {"sides": d.sides, "value": d.value, "kept": d.kept}
                for term in rolled.terms
                for d in term.dice
            ],
            "modifiers": [{"label": name, "value": signed(v)} for name, v in modifiers or []],
            "total": str(rolled.total if total is None else total).replace("-", "−"),
        }
        if decision:
            item["decision"] = decision
        items.append(item)

    def _rolls(self) -> list[dict[str, Any]]:
        if not self.sections or self.sections[-1]["kind"] != "rolls":
            self.sections.append({"kind": "rolls", "items": []})
        items: list[dict[str, Any]] = self.sections[-1]["items"]
        return items

    def chances(
        self, caption: str, items: list[tuple[str, Fraction]], *, before: bool = False
    ) -> None:
        """Exact chances. ``before``: they are the odds *before* the roll – they do not depend
        on the dice rolled, only on the inputs – so „Was wäre wenn“ and „Vergleichen“
        (:mod:`engine.odds`) read them across the values of a field."""
        section: dict[str, Any] = {
            "kind": "chances",
            "caption": caption,
            "items": [
                {"label": label, "fraction": fraction_text(p), "percent": percent(p)}
                for label, p in items
            ],
        }
        if before:
            section["before"] = True
        self.sections.append(section)

    def distribution(
        self,
        caption: str,
        axis: str,
        dist: Mapping[int, Fraction] | Sequence[tuple[str, Fraction]],
        *,
        before: bool = False,
        mean_label: str = "",
    ) -> bool:
        """A distribution the page draws as a bar chart (with the same numbers as a table).

        ``dist``: value → exact probability (damage, a total, a margin: a numeric axis, each bar
        with „mindestens“ and „höchstens“ this value), or (label, probability) pairs for
        named outcomes (places in an order, table rows: no „mindestens“). ``axis`` names the
        values („Schaden“, „Platz“). A numeric one has a ``mean`` (exact and as text);
        ``mean_label`` names it where the mean is what a player compares („Erwarteter Schaden
        je Angriff“). ``before`` as for :meth:`chances`.

        The bars are charged to the request's work budget (:func:`bars_work`) before they are
        formatted; when they do not fit, nothing is added and the answer is False (the result
        then says its range in words, as before)."""
        section: dict[str, Any] = {"kind": "distribution", "caption": caption, "axis": axis}
        if isinstance(dist, Mapping) and MEANS_ONLY.get():
            mean = sum((v * p for v, p in dist.items()), Fraction(0))
            section.update(numeric=True, bars=[], mean={"fraction": fraction_text(mean)})
        elif isinstance(dist, Mapping):
            work = bars_work(dist)
            budget = current_budget()
            if not budget.fits(work):
                return False
            budget.spend(work, f"{caption}: zu viele Werte für ein Diagramm.", "")
            section.update(numeric_bars(dist))
        else:
            section["numeric"] = False
            section["bars"] = [
                {"label": label, "fraction": fraction_text(p), "percent": percent(p)}
                for label, p in dist
            ]
        if mean_label and "mean" in section:
            section["mean"]["label"] = mean_label
        if before:
            section["before"] = True
        self.sections.append(section)
        return True

    def notes(self, caption: str, items: list[str], role: str = "") -> None:
        """A list of notes; ``role`` "history" marks a widget's own log of what happened (the
        Tickleiste's „Verlauf“), which a page that shows the fight's whole history leaves out."""
        if items:
            section: dict[str, Any] = {"kind": "notes", "caption": caption, "items": items}
            if role:
                section["role"] = role
            self.sections.append(section)

    def to_dict(self) -> dict[str, Any]:
        return {"headline": self.headline, "outcome": self.outcome, "sections": self.sections}
