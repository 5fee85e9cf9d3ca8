"""The ``display`` part of a result: German, ready-formatted, rendered by the browser as is.

Every action returns ``{"display": {...}, ...}`` built with these helpers, so one generic
renderer shows every helper's dice, modifiers, outcome and odds, and the text a player sees
is produced once, in Python, identically in CPython and Pyodide.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from engine.dice import RollResult
from engine.formatting import fraction_text, percent, signed


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

    def chances(self, caption: str, items: list[tuple[str, Fraction]]) -> None:
        self.sections.append(
            {
                "kind": "chances",
                "caption": caption,
                "items": [
                    {"label": label, "fraction": fraction_text(p), "percent": percent(p)}
                    for label, p in items
                ],
            }
        )

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
