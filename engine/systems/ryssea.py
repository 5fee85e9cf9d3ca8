"""Ryssea (source 000_5fbfd0ad384a0921.txt): the Tickleiste and its rolls."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from engine import dice
from engine.data_files import load
from engine.display import Display
from engine.errors import EngineError
from engine.formatting import number, signed
from engine.params import BoolParam, IntParam, ListParam, TextParam
from engine.registry import new_system

SOURCE = "000_5fbfd0ad384a0921.txt"
SYSTEM = new_system("ryssea", "Ryssea", SOURCE)
DATA = load("ryssea")

FIGHTER_FIELDS = (
    TextParam("name", "Name", help="Wie der Kämpfer auf der Tickleiste heißt.", max_length=30),
    IntParam("ini", "INI", default=10, minimum=0, maximum=99, help="Initiative-Wert"),
    IntParam(
        "intuition",
        "Intuition",
        default=3,
        minimum=0,
        maximum=99,
        help="Entscheidet bei gleichem Tickfeld zu Kampfbeginn (höhere zuerst).",
    ),
    IntParam(
        "modifier",
        "Modifikatoren",
        default=0,
        minimum=-99,
        maximum=99,
        help="Etwa aus Vorteilen, Magie, Meisterschaften oder Verletzungen.",
    ),
    BoolParam(
        "surprised",
        "Überrascht",
        help="Ein Überraschter verliert 10 Ticks (von der Initiative abgezogen).",
    ),
)


@dataclass
class Fighter:
    index: int
    name: str
    ini: int
    intuition: int
    modifier: int
    surprised: bool
    roll: dice.RollResult
    initiative: int
    rolloff: list[int] = field(default_factory=list)
    tie_note: str = ""

    @property
    def tick(self) -> int:
        return -self.initiative


def _surprise_ticks() -> int:
    return DATA.integer("initiative.ueberraschung_ticks", 0, 100)


def _initiative_die() -> dice.Expression:
    return dice.parse(DATA.text("initiative.wurf"), "initiative.wurf", "Initiativwurf")


def _rolloff_die() -> dice.Expression:
    return dice.parse(DATA.text("initiative.stechen_wurf"), "initiative.stechen_wurf", "Stechen")


def _resolve_tie(group: list[Fighter], rng: random.Random) -> list[Fighter]:
    """Same tick at combat start: higher Intuition first; still tied: W10 roll-off (L25)."""
    by_intuition: dict[int, list[Fighter]] = {}
    for fighter in group:
        by_intuition.setdefault(fighter.intuition, []).append(fighter)
    ordered: list[Fighter] = []
    for intuition in sorted(by_intuition, reverse=True):
        same = by_intuition[intuition]
        if len(same) > 1:
            ordered.extend(_roll_off(same, rng))
        else:
            if len(group) > 1:
                same[0].tie_note = f"Intuition {intuition}"
            ordered.extend(same)
    return ordered


def _roll_off(group: list[Fighter], rng: random.Random) -> list[Fighter]:
    """Each rolls the Stechen die, higher first; those still equal roll again (Annahme)."""
    die = _rolloff_die()
    repeat = DATA.flag("initiative.wiederholung_bei_gleichstand")
    limit = DATA.integer("initiative.stechen_hoechstens", 1, 10_000)
    pending = [group]
    ordered: list[Fighter] = []
    rounds = 0
    while pending:
        current = pending.pop(0)
        if len(current) == 1:
            ordered.append(current[0])
            continue
        rounds += 1
        if rounds > limit:
            raise EngineError(f"Stechen: nach {limit} Würfen noch unentschieden.", "fighters")
        results: dict[int, list[Fighter]] = {}
        for fighter in current:
            value = dice.roll(die, rng).total
            fighter.rolloff.append(value)
            fighter.tie_note = "Stechen " + " · ".join(str(v) for v in fighter.rolloff)
            results.setdefault(value, []).append(fighter)
        groups = [results[v] for v in sorted(results, reverse=True)]
        if repeat:
            pending = groups + pending
        else:
            ordered.extend(f for g in groups for f in g)
    return ordered


def first_chances(fighters: list[dict[str, Any]]) -> list[Fraction]:
    """Exact chance of each fighter to act first, before anything is rolled.

    Each initiative is uniform over the die's faces; a tie on the tick goes to the higher
    Intuition, and a tie on both is a fair roll-off, so each of k tied fighters wins with 1/k.
    """
    die = dice.distribution(_initiative_die())
    penalty = _surprise_ticks()
    bases = [f["ini"] + f["modifier"] - (penalty if f["surprised"] else 0) for f in fighters]
    chances = []
    for me, my_base in enumerate(bases):
        total = Fraction(0)
        for face, p_face in die.items():
            mine = my_base + face
            # weights[k]: probability that all others are beaten and k of them tie fully
            weights = [Fraction(1)]
            for other, other_base in enumerate(bases):
                if other == me:
                    continue
                beaten = Fraction(0)
                tied = Fraction(0)
                for other_face, p_other in die.items():
                    theirs = other_base + other_face
                    if theirs < mine:
                        beaten += p_other
                    elif theirs == mine:
                        mine_int = fighters[me]["intuition"]
                        other_int = fighters[other]["intuition"]
                        if other_int < mine_int:
                            beaten += p_other
                        elif other_int == mine_int:
                            tied += p_other
                nxt = [Fraction(0)] * (len(weights) + 1)
                for k, w in enumerate(weights):
                    nxt[k] += w * beaten
                    nxt[k + 1] += w * tied
                weights = nxt
            total += p_face * sum(w / (k + 1) for k, w in enumerate(weights))
        chances.append(total)
    return chances


def _tick_text(tick: int) -> str:
    return number(tick)


@SYSTEM.action(
    "initiative",
    title="Initiative und Startfelder",
    summary=(
        "Jeder Kämpfer würfelt INI + 1W6 + Modifikatoren; Überraschte verlieren 10 Ticks. "
        "Das Ergebnis ist das Startfeld vor der Position 0 auf der Tickleiste."
    ),
    source=f"{SOURCE} L17–L45",
    params=(
        ListParam(
            "fighters",
            "Kämpfer",
            item=FIGHTER_FIELDS,
            item_label="Kämpfer",
            min_items=1,
            max_items=20,
            default_items=(
                {"name": "Alrik", "ini": 12, "intuition": 4},
                {"name": "Bruna", "ini": 10, "intuition": 3},
            ),
        ),
    ),
    assumptions=tuple(a["text"] for a in DATA.assumptions() if a["key"].startswith("initiative")),
)
def initiative(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    rows: list[dict[str, Any]] = params["fighters"]
    seen: dict[str, int] = {}
    for index, row in enumerate(rows):
        key = row["name"].casefold()
        if key in seen:
            raise EngineError(
                f"Kämpfer {index + 1} – Name: „{row['name']}“ kommt schon bei Kämpfer "
                f"{seen[key] + 1} vor; jeder Name darf nur einmal vorkommen.",
                f"fighters.{index}.name",
            )
        seen[key] = index

    die = _initiative_die()
    penalty = _surprise_ticks()
    fighters: list[Fighter] = []
    for index, row in enumerate(rows):
        rolled = dice.roll(die, rng)
        initiative_value = (
            row["ini"] + rolled.total + row["modifier"] - (penalty if row["surprised"] else 0)
        )
        fighters.append(
            Fighter(
                index=index,
                name=row["name"],
                ini=row["ini"],
                intuition=row["intuition"],
                modifier=row["modifier"],
                surprised=row["surprised"],
                roll=rolled,
                initiative=initiative_value,
            )
        )

    # Lower tick acts first (start field −Initiative, L17); ties by L25.
    by_tick: dict[int, list[Fighter]] = {}
    for fighter in fighters:
        by_tick.setdefault(fighter.tick, []).append(fighter)
    order: list[Fighter] = []
    ties: list[dict[str, Any]] = []
    for tick in sorted(by_tick):
        group = by_tick[tick]
        if len(group) > 1:
            resolved = _resolve_tie(group, rng)
            ties.append(
                {
                    "tick": tick,
                    "names": [f.name for f in resolved],
                    "rolloff": {f.name: list(f.rolloff) for f in resolved if f.rolloff},
                }
            )
            order.extend(resolved)
        else:
            order.extend(group)

    chances = first_chances(rows)
    display = Display(
        headline="Initiative – Reihenfolge auf der Tickleiste",
        outcome=f"Zuerst handelt {order[0].name} auf Tick {_tick_text(order[0].tick)}.",
    )
    table_rows = []
    for place, fighter in enumerate(order, start=1):
        calc = f"{fighter.ini} + {fighter.roll.total}"
        if fighter.modifier:
            calc += f" {signed(fighter.modifier).replace('+', '+ ').replace('−', '− ')}"
        if fighter.surprised:
            calc += f" − {penalty} (überrascht)"
        table_rows.append(
            [
                str(place),
                fighter.name,
                calc,
                number(fighter.initiative),
                _tick_text(fighter.tick),
                fighter.tie_note,
            ]
        )
    display.table(
        "Reihenfolge (kleinster Tick zuerst)",
        ["Platz", "Kämpfer", "INI + W6 + Mods", "Initiative", "Starttick", "Gleichstand"],
        table_rows,
    )
    for fighter in fighters:
        modifiers = [("INI", fighter.ini)]
        if fighter.modifier:
            modifiers.append(("Modifikatoren", fighter.modifier))
        if fighter.surprised:
            modifiers.append(("Überrascht", -penalty))
        display.roll(
            f"{fighter.name}: Initiativwurf", fighter.roll, modifiers, total=fighter.initiative
        )
    notes = []
    for tie in ties:
        names = ", ".join(tie["names"])
        how = "Stechen mit W10" if tie["rolloff"] else "höhere Intuition"
        notes.append(f"Gleichstand auf Tick {_tick_text(tie['tick'])}: {names} ({how}).")
    display.notes("Gleichstände", notes)
    display.chances(
        "Chance, als Erste(r) zu handeln (vor dem Wurf)",
        [(f["name"], p) for f, p in zip(rows, chances, strict=True)],
    )
    return {
        "order": [
            {
                "place": place,
                "name": f.name,
                "ini": f.ini,
                "intuition": f.intuition,
                "modifier": f.modifier,
                "surprised": f.surprised,
                "roll": f.roll.to_dict(),
                "initiative": f.initiative,
                "tick": f.tick,
                "rolloff": f.rolloff,
            }
            for place, f in enumerate(order, start=1)
        ],
        "ties": ties,
        "first_chances": {f["name"]: str(p) for f, p in zip(rows, chances, strict=True)},
        "display": display.to_dict(),
    }
