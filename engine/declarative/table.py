"""Declared table roll (``art: tabelle``): roll the dice, find the row by its range, mark it.

```yaml
patzer:
  art: tabelle
  titel: Patzertabelle
  zusammenfassung: Bei einem Patzer 2W6 auf der Patzertabelle.
  quelle: L30–L36
  tabelle: patzertabelle        # tabellen.patzertabelle: spalten, zeilen with von/bis
  wurf: 2W6
  folgewurf: {spalte: dauer, titel: Dauer in Runden}   # optional: a row's dice in this column
```

The rows are those of ``tabellen.<tabelle>`` – the page shows the same rows (``regeltabelle``
block) and marks the rolled one (the result's ``row`` carries ``von``/``bis``). Every total the
dice can show must fall into exactly one row (checked at import). Exact odds: the chance of
every row from the dice's exact distribution.

Annahmen: ``wurf`` and ``tabelle`` decide every result, ``folgewurf`` one that rolls a row's
dice; a row marked as an Annahme (``annahme: true, text, quelle`` beside its cells – the
helper lists it) is named when it is rolled.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from engine import dice
from engine.data_files import DataError
from engine.declarative.spec import COMMON_KEYS, Spec
from engine.display import Display
from engine.errors import EngineError
from engine.formatting import number
from engine.params import Param
from engine.registry import ActionFunc

ALLOWED = COMMON_KEYS | {"tabelle", "folgewurf"}


def build(spec: Spec) -> tuple[tuple[Param, ...], ActionFunc]:
    name = spec.text("tabelle")
    key = f"tabellen.{name}"
    spec.listed.append(f"{key}.")
    columns = spec.data.table(f"{key}.spalten", ("feld", "titel"))
    fields = [str(c["feld"]) for c in columns]
    rows = spec.data.table(f"{key}.zeilen", (*fields, "von", "bis"))
    expression = spec.dice("wurf", "Wurf")
    _check_cover(spec, key, rows, expression)
    follow_column = ""
    follow_title = ""
    if spec.has("folgewurf"):
        follow = spec.mapping("folgewurf", {"spalte", "titel"})
        follow_column = str(follow.get("spalte", ""))
        follow_title = str(follow.get("titel", follow_column))
        if not any(follow_column in r for r in rows):
            raise spec.error("folgewurf.spalte", f"„{follow_column}“ ist keine Spalte der Tabelle")
    title = spec.text("titel")

    def chances() -> list[Fraction]:
        dist = dice.distribution(expression)
        return [
            sum((p for t, p in dist.items() if row["von"] <= t <= row["bis"]), Fraction(0))
            for row in rows
        ]

    def run(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        row_chances = chances()
        spec.use("wurf")
        spec.use("tabelle")
        rolled = dice.roll(expression, rng)
        index, chosen = next(
            (i, r) for i, r in enumerate(rows) if r["von"] <= rolled.total <= r["bis"]
        )
        if chosen.get("annahme") is True:
            spec.data.assume(f"{key}.zeilen.{index}")
        cells = [str(chosen[f]) for f in fields]
        display = Display(headline=title, outcome=" – ".join(cells))
        display.roll(title, rolled)
        out: dict[str, Any] = {
            "roll": rolled.to_dict(),
            "total": rolled.total,
            "row": {f: chosen[f] for f in (*fields, "von", "bis")},
        }
        if follow_column:
            cell = str(chosen.get(follow_column, "")).strip()
            follow_up = _dice_or_none(cell)
            if follow_up is not None:
                spec.use("folgewurf")
                follow_roll = dice.roll(follow_up, rng)
                display.roll(follow_title, follow_roll)
                out["follow_roll"] = follow_roll.to_dict()
                out["follow_total"] = follow_roll.total
                display.outcome += f" ({follow_title}: {follow_roll.total})"
                # the row's own die, its odds too – after the table's roll (no ``before``)
                display.distribution(
                    f"{follow_title} ({follow_up.notation()})",
                    follow_title,
                    dice.distribution(follow_up),
                    mean_label=f"{follow_title} im Mittel",
                )
        display.table(
            "Gewürfelte Zeile (auf der Seite markiert)",
            [str(c["titel"]) for c in columns],
            [cells],
        )
        display.chances(
            f"Chance jeder Zeile ({expression.notation()})",
            [
                (" – ".join(str(r[f]) for f in fields[:2]), p)
                for r, p in zip(rows, row_chances, strict=True)
            ],
            before=True,
        )
        display.distribution(
            f"Zeilen der Tabelle ({expression.notation()}, vor dem Wurf)",
            "Zeile",
            [(_range(r), p) for r, p in zip(rows, row_chances, strict=True)],
            before=True,
        )
        out["chances"] = {
            f"{r['von']}-{r['bis']}": str(p) for r, p in zip(rows, row_chances, strict=True)
        }
        out["display"] = display.to_dict()
        return out

    return (), run


def _range(row: dict[str, Any]) -> str:
    """A row by its range of totals: „1–2“, „5“."""
    low, high = int(row["von"]), int(row["bis"])
    return number(low) if low == high else f"{number(low)}–{number(high)}"


def _dice_or_none(text: str) -> dice.Expression | None:
    if not text:
        return None
    try:
        expression = dice.parse(text)
    except EngineError:
        return None
    return expression if expression.has_dice else None


def _check_cover(
    spec: Spec, key: str, rows: list[dict[str, Any]], expression: dice.Expression
) -> None:
    """Every total of the dice falls into exactly one row."""
    for index, row in enumerate(rows):
        for bound in ("von", "bis"):
            if isinstance(row[bound], bool) or not isinstance(row[bound], int):
                where = f"{key}.zeilen.{index}.{bound}"
                raise DataError(spec.data.file, where, "muss eine ganze Zahl sein")
    for total in range(expression.minimum(), expression.maximum() + 1):
        hits = [r for r in rows if r["von"] <= total <= r["bis"]]
        if len(hits) != 1:
            problem = "keine Zeile" if not hits else f"{len(hits)} Zeilen"
            raise spec.error("tabelle", f"für {total} ({expression.notation()}) gibt es {problem}")
