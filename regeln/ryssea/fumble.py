"""Ryssea Patzertabelle: the ``fumble`` action (L404–L415).

Owns the table rows, the „unmöglich“ fields (a result impossible in the situation is re-rolled;
the 9–13 row is always possible, an Annahme, named in a result only when some row was marked
impossible), the exact chance of every row given the re-rolls, and the roll itself; no roll
after a Patzer caused by an opponent's Aktive Abwehr (L406). The attack helper sends its
Patzer here with the cause (``follow_ups``).
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from engine import dice
from engine.data_files import DataError, forecast
from engine.display import Display
from engine.errors import EngineError
from engine.params import BoolParam, ChoiceParam, Param
from regeln.ryssea.common import (
    DATA,
    SOURCE,
    SYSTEM,
    assumptions_for,
)

FUMBLE_ROWS = DATA.table(
    "tabellen.patzertabelle.zeilen", ("wurf", "von", "bis", "schwere", "wirkung")
)


def _always_possible() -> set[int]:
    value = DATA.raw("patzer.immer_moeglich")
    if not isinstance(value, list) or not all(isinstance(v, int) for v in value):
        raise DataError(DATA.file, "patzer.immer_moeglich", "muss eine Liste von Zahlen sein")
    return set(value)


def _impossible_field(row: dict[str, Any]) -> str:
    return f"unmoeglich_{row['von']}"


FUMBLE_PARAMS: tuple[Param, ...] = (
    ChoiceParam(
        "ursache",
        "Ursache des Patzers",
        choices=(
            ("kampftalent", "Patzer bei einer Probe auf ein Kampftalent"),
            ("aktive_abwehr", "durch eine gegnerische Aktive Abwehr herbeigeführt"),
        ),
        help="Nur ein Patzer auf ein Kampftalent, den keine gegnerische Aktive Abwehr "
        "herbeigeführt hat, führt zur Patzertabelle.",
    ),
    *(
        BoolParam(
            _impossible_field(row),
            f"Ergebnis {row['wurf']} unmöglich",
            help=f"{row['wirkung']} – ist das hier nicht möglich, wird neu gewürfelt.",
            group="Unmögliche Ergebnisse (es wird neu gewürfelt)",
            advanced=True,
            when=(("ursache", ("kampftalent",)),),
        )
        for row in FUMBLE_ROWS
        if int(row["von"]) not in _always_possible()
    ),
)


def fumble_chances(impossible: set[int]) -> list[Fraction]:
    """Exact chance of each row, given that impossible rows are re-rolled."""
    dist = dice.distribution(DATA.dice("patzer.wurf", "Patzerwurf"))
    raw = [
        sum((p for t, p in dist.items() if row["von"] <= t <= row["bis"]), Fraction(0))
        for row in FUMBLE_ROWS
    ]
    possible = sum(
        (p for row, p in zip(FUMBLE_ROWS, raw, strict=True) if row["von"] not in impossible),
        Fraction(0),
    )
    return [
        Fraction(0) if row["von"] in impossible else p / possible
        for row, p in zip(FUMBLE_ROWS, raw, strict=True)
    ]


def roll_fumble(
    impossible: set[int], rng: random.Random
) -> tuple[list[dice.RollResult], dict[str, Any]]:
    """Roll 2W10 until the row is possible here; every attempt and the chosen row."""
    expression = DATA.dice("patzer.wurf", "Patzerwurf")
    limit = DATA.integer("patzer.neu_wuerfeln_hoechstens", 1, 100_000)
    attempts: list[dice.RollResult] = []
    chosen: dict[str, Any] | None = None
    while chosen is None:
        if len(attempts) >= limit:
            raise EngineError(
                f"Patzertabelle: nach {limit} Würfen kein mögliches Ergebnis.", "ursache"
            )
        rolled = dice.roll(expression, rng)
        attempts.append(rolled)
        for row in FUMBLE_ROWS:
            if row["von"] <= rolled.total <= row["bis"]:
                if row["von"] not in impossible:
                    chosen = row
                break
        else:
            raise DataError(DATA.file, "tabellen.patzertabelle", f"kein Eintrag für {rolled.total}")
    return attempts, chosen


@SYSTEM.action(
    "fumble",
    title="Patzertabelle",
    summary=(
        "Bei einem Patzer auf ein Kampftalent 2W10 auf der Patzertabelle; ein Ergebnis, das in "
        "der Lage unmöglich ist, wird neu gewürfelt. Nicht bei einem Patzer, den eine "
        "gegnerische Aktive Abwehr herbeigeführt hat."
    ),
    source=f"{SOURCE} L404–L415",
    params=FUMBLE_PARAMS,
    assumptions=assumptions_for("patzer."),
)
def fumble(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    with forecast():
        always = _always_possible()
    impossible = {
        int(row["von"])
        for row in FUMBLE_ROWS
        if int(row["von"]) not in always and params[_impossible_field(row)]
    }
    chances = fumble_chances(impossible)
    display = Display(headline="Patzertabelle")
    chance_items = [
        (f"{row['wurf']} ({row['schwere']})", p)
        for row, p in zip(FUMBLE_ROWS, chances, strict=True)
    ]
    chance_out = {
        f"{row['von']}-{row['bis']}": str(p) for row, p in zip(FUMBLE_ROWS, chances, strict=True)
    }
    if params["ursache"] == "aktive_abwehr":
        display.outcome = (
            "Kein Wurf auf der Patzertabelle: der Patzer wurde durch eine gegnerische "
            "Aktive Abwehr herbeigeführt."
        )
        return {
            "rolled": False,
            "attempts": [],
            "row": None,
            "chances": chance_out,
            "display": display.to_dict(),
        }
    if impossible:
        # the re-rolling ends because one row always stays possible (an Annahme)
        DATA.assume("patzer.immer_moeglich")
    attempts, chosen = roll_fumble(impossible, rng)
    display.outcome = f"{chosen['wurf']} – {chosen['schwere']}: {chosen['wirkung']}"
    for index, rolled in enumerate(attempts, start=1):
        last = index == len(attempts)
        label = "Patzerwurf" if last else f"Patzerwurf {index} (unmöglich, neu würfeln)"
        if last and len(attempts) > 1:
            label = f"Patzerwurf {index}"
        display.roll(label, rolled)
    display.table(
        "Ergebnis",
        ["2W10", "Schwere", "Wirkung"],
        [[str(chosen["wurf"]), str(chosen["schwere"]), str(chosen["wirkung"])]],
    )
    display.chances("Chance jeder Zeile (mit Neuwürfeln)", chance_items, before=True)
    notes = []
    if impossible:
        names = ", ".join(str(r["wurf"]) for r in FUMBLE_ROWS if r["von"] in impossible)
        notes.append(f"Unmöglich in dieser Lage (wird neu gewürfelt): {names}.")
    notes.append(
        "Die Einträge sind Beispiele; Spielleitung und Spieler können eigene Auswirkungen "
        "vorschlagen, die Entscheidung liegt bei der Spielleitung."
    )
    display.notes("Hinweise", notes)
    return {
        "rolled": True,
        "attempts": [r.to_dict() for r in attempts],
        "total": attempts[-1].total,
        "row": {
            "wurf": chosen["wurf"],
            "von": chosen["von"],
            "bis": chosen["bis"],
            "schwere": chosen["schwere"],
            "wirkung": chosen["wirkung"],
        },
        "impossible": sorted(impossible),
        "chances": chance_out,
        "display": display.to_dict(),
    }
