"""The ``display`` part of a result: German, ready-formatted, rendered by the browser as is.

Every action returns ``{"display": {...}, ...}`` built with these helpers, so one generic
renderer shows every helper's dice, modifiers, outcome and odds, and the text a player sees
is produced once, in Python, identically in CPython and Pyodide.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, NamedTuple

from engine.budget import current as current_budget
from engine.dice import RollResult
from engine.formatting import decimal, fraction_text, number, percent, signed

MAX_BARS = 200
"""Most bars a distribution section carries (a wider one – 30W20, 571 values – is drawn in
ranges of values): two units of the chart's 400 wide picture a bar, and the bars of 60W324
formatted in ≈ 0,05 s."""


class Counted(NamedTuple):
    """A distribution as whole counts over one denominator (``engine.dice.Counts`` gives them):
    value → ways, and the number of all outcomes. Drawn without a Fraction per value – the
    cheap form for wide distributions (60W324: 19.381 values)."""

    counts: Mapping[int, int]
    outcomes: int


Distribution = Mapping[int, Fraction] | Counted


def _weights(dist: Distribution) -> tuple[list[int], list[int], int]:
    """Sorted values, their weights and the common denominator of a numeric distribution."""
    if isinstance(dist, Counted):
        values = sorted(v for v, c in dist.counts.items() if c)
        return values, [dist.counts[v] for v in values], dist.outcomes
    values = sorted(dist)
    common = math.lcm(*{p.denominator for p in dist.values()}) if values else 1
    return values, [dist[v].numerator * (common // dist[v].denominator) for v in values], common


MEANS_ONLY: ContextVar[bool] = ContextVar("regelwerk_means_only", default=False)
"""Set while „Was wäre wenn“/„Vergleichen“ (engine/odds.py) run an action again and again: they
read only the mean of a distribution, so its bars are not formatted (nor charged)."""

BAR_WORK = 60_000
"""Work units (:mod:`engine.budget`) of formatting one bar – its exact chance, „mindestens“ and
„höchstens“ as fractions and percentages (measured ≈ 0,1 ms a bar of 665-bit fractions, 100W100,
on the reference machine) – plus :data:`BAR_WORK_PER_BIT` per bit of the denominator."""
BAR_WORK_PER_BIT = 80


def _bars_work(size: int, bits: int) -> int:
    return min(size, MAX_BARS) * (BAR_WORK + BAR_WORK_PER_BIT * bits)


def bars_work(dist: Distribution) -> int:
    """The work of :func:`numeric_bars` for ``dist``: the bars kept, by their denominator."""
    if isinstance(dist, Counted):
        return _bars_work(len(dist.counts), dist.outcomes.bit_length())
    bits = max(p.denominator.bit_length() for p in dist.values()) if dist else 0
    return _bars_work(len(dist), bits)


def bars_fit(size: int, bits: int) -> bool:
    """Whether the bars of a distribution of ``size`` values (denominators of about ``bits``
    bits) still fit into the request's work budget – asked before an expensive distribution is
    computed at all; :meth:`Display.distribution` charges them when it draws."""
    return MEANS_ONLY.get() or current_budget().fits(_bars_work(size, bits))


def show_distribution(
    display: Display,
    caption: str,
    axis: str,
    make: Callable[[], Distribution],
    *,
    size: int,
    bits: int,
    mean_label: str = "",
) -> bool:
    """Add the distribution ``make()`` (``size`` values, denominators of at most ``bits`` bits)
    as odds before the roll – computed only if its bars fit into the work budget; False, and
    nothing drawn, when they do not (the result then says its range in words)."""
    if not bars_fit(size, bits):
        return False
    return display.distribution(caption, axis, make(), before=True, mean_label=mean_label)


def numeric_bars(dist: Distribution) -> dict[str, Any]:
    """The bars of a numeric distribution: each value with its exact chance and the chances of
    „mindestens“ and „höchstens“ that value (what a player asks at the table: 8 or more
    damage), and the exact mean. Values come sorted.

    A distribution spanning more than :data:`MAX_BARS` values is drawn in equal ranges of
    values (``width`` values a bar: 20W1000 in ranges of 100): each bar is then one range – its
    label „9.800–9.849“, ``value``/``to`` its ends, „mindestens“ its first value and
    „höchstens“ its last – so the whole range stays in the picture, exactly.

    The sums run over integers (every chance over one common denominator) and only the bars
    drawn are formatted, so a wide distribution costs little more than its bars."""
    values, weights, common = _weights(dist)
    if not values:
        raise ValueError("an empty distribution")
    if sum(weights) != common:
        raise ValueError(f"a distribution sums to {Fraction(sum(weights), common)}, not 1")
    mean = Fraction(sum(v * w for v, w in zip(values, weights, strict=True)), common)
    low, high = values[0], values[-1]
    width = -(-(high - low + 1) // MAX_BARS)  # values per bar: 1 up to MAX_BARS values
    binned: dict[int, int] = {}
    for value, weight in zip(values, weights, strict=True):
        start = low + (value - low) // width * width
        binned[start] = binned.get(start, 0) + weight
    bars = []
    below = 0  # the weight of the values before this bar
    for start in sorted(binned) if width == 1 else range(low, high + 1, width):
        weight = binned.get(start, 0)
        end = min(start + width - 1, high)
        p = Fraction(weight, common)
        at_least, at_most = Fraction(common - below, common), Fraction(below + weight, common)
        below += weight
        bar: dict[str, Any] = {
            "value": start,
            "label": number(start) if width == 1 else f"{number(start)}–{number(end)}",
            "fraction": fraction_text(p),
            "percent": percent(p),
            "at_least": fraction_text(at_least),
            "at_least_percent": percent(at_least),
            "at_most": fraction_text(at_most),
            "at_most_percent": percent(at_most),
        }
        if width > 1:
            bar.update(to=end, from_label=number(start), to_label=number(end))
        bars.append(bar)
    out: dict[str, Any] = {
        "numeric": True,
        "bars": bars,
        "mean": {"fraction": fraction_text(mean), "text": decimal(mean)},
    }
    if width > 1:
        out["width"] = width
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
        dist: Distribution | Sequence[tuple[str, Fraction]],
        *,
        before: bool = False,
        mean_label: str = "",
    ) -> bool:
        """A distribution the page draws as a bar chart (with the same numbers as a table).

        ``dist``: value → exact probability (damage, a total, a margin: a numeric axis, each bar
        with „mindestens“ and „höchstens“ this value; or the same as :class:`Counted`), or
        (label, probability) pairs for
        named outcomes (places in an order, table rows: no „mindestens“). ``axis`` names the
        values („Schaden“, „Platz“). A numeric one has a ``mean`` (exact and as text);
        ``mean_label`` names it where the mean is what a player compares („Erwarteter Schaden
        je Angriff“). ``before`` as for :meth:`chances`.

        The bars are charged to the request's work budget (:func:`bars_work`) before they are
        formatted; when they do not fit, nothing is added and the answer is False (the result
        then says its range in words, as before)."""
        section: dict[str, Any] = {"kind": "distribution", "caption": caption, "axis": axis}
        numeric = isinstance(dist, Counted | Mapping)
        if numeric and MEANS_ONLY.get():
            values, weights, common = _weights(dist)  # type: ignore[arg-type]
            mean = Fraction(sum(v * w for v, w in zip(values, weights, strict=True)), common)
            section.update(numeric=True, bars=[], mean={"fraction": fraction_text(mean)})
        elif isinstance(dist, Counted | Mapping):
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
