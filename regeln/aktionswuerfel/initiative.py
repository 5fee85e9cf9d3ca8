"""Aktionswürfel-System: the ``initiative`` action, the turn order by the Willens-Wurf (L30–L40).

Owns the fighter fields, the order by pips (highest first; who sneaked up or strikes
unprovoked begins, L34), the re-roll among those tied (L38, die from the data: an Annahme) or
the Spielleiter's decision, and the exact chance of each fighter to take the first turn
(``first_chances``); ``turns`` is the order of one round for the Kampfhelfer page.

How several who begin (L34) follow one another the text does not say. The data's Annahme
``initiative.mehrere_zuerst`` (by their Willens-Wurf, like everyone) is the default of the field
``zuerst_order``; the other reading (``wiederholen``: they re-roll among themselves as L38 does
for equal pips, with the same die) is the field's other value. The Annahme is read – and so
named in the result – only when it decided something: two or more who begin.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine import dice, ordering
from engine.display import Display
from engine.formatting import number
from engine.ordering import check_unique_names, order_groups, place_turns, roll_off
from engine.params import BoolParam, ChoiceParam, IntParam, ListParam, TextParam
from regeln.aktionswuerfel.common import (
    DATA,
    SOURCE,
    SYSTEM,
    assumptions_for,
    entered_roll,
)

FIGHTER_FIELDS = (
    TextParam("name", "Name", max_length=30),
    IntParam(
        "willenswurf",
        "Willens-Wurf",
        default=7,
        minimum=0,
        maximum=999,
        help="Die gewürfelte Augenzahl des Willens-Wurfs.",
        required=True,
        per_roll=True,
    ),
    BoolParam(
        "zuerst",
        "Angeschlichen / greift unvermittelt an",
        help="Wer sich erfolgreich angeschlichen hat oder unvermittelt angreift, beginnt.",
    ),
)


BY_WILLENSWURF = "willenswurf"
REROLL = "wiederholen"
SEVERAL_FIRST_KEY = "initiative.mehrere_zuerst"
SEVERAL_FIRST_READINGS = (BY_WILLENSWURF, REROLL)
# read at import, outside a request: the field's default, named nowhere
SEVERAL_FIRST_DEFAULT = DATA.choice(SEVERAL_FIRST_KEY, SEVERAL_FIRST_READINGS)
SEVERAL_FIRST_LABEL = "Wenn mehrere beginnen"


@dataclass
class Fighter(ordering.Fighter):
    willenswurf: int
    zuerst: bool


def _reroll_first(chosen: str, beginners: int) -> bool:
    """Whether those who begin re-roll among themselves (L34 is silent, L38's re-roll) rather
    than follow their Willens-Wurf. The default reading is the data's Annahme: read (and so
    named) only when it decides something – two or more who begin."""
    if beginners < 2:
        return False
    if chosen == SEVERAL_FIRST_DEFAULT:
        return DATA.choice(SEVERAL_FIRST_KEY, SEVERAL_FIRST_READINGS) == REROLL
    return chosen == REROLL


def _reroll_die() -> dice.Expression:
    return DATA.dice("initiative.stechen", "Wiederholungswurf")


def _resolve(
    group: list[Fighter],
    rng: random.Random,
    notes: list[str],
    rolls: list[tuple[Fighter, dice.RollResult]],
) -> list[Fighter]:
    """L38: the tied re-roll among themselves, higher first, until the order is clear; each
    die goes to ``rolls`` (they are the only dice of the result: shown as rolls)."""
    limit = DATA.integer("initiative.stechen_hoechstens", 1, 1000)
    ordered, unresolved = roll_off(
        group, _reroll_die(), rng, limit, lambda f, roll: rolls.append((f, roll))
    )
    for still in unresolved:  # extremely unlikely: keep the entry order, and say so
        notes.append(
            f"Nach {limit} Wiederholungen noch gleich: Reihenfolge der Eingabe für "
            + ", ".join(f.name for f in still)
            + "."
        )
    return ordered


def first_chances(rows: list[dict[str, Any]], reroll: bool, reroll_first: bool) -> list[Fraction]:
    """Exact chance of each fighter to take the first turn, given the entered Willens-Würfe.

    The best group (those who strike first, then the highest Willens-Wurf) is fixed by the
    inputs. Among k tied fighters the re-roll uses the same die for everyone, so by symmetry
    each is first with 1/k; when the Spielleiter decides, the entry order stands. With
    ``reroll_first`` those who begin re-roll among themselves whatever their Willens-Würfe:
    each of them is first with 1/k.
    """
    if reroll_first:
        keys = [(r["zuerst"], 0 if r["zuerst"] else r["willenswurf"]) for r in rows]
    else:
        keys = [(r["zuerst"], r["willenswurf"]) for r in rows]
    best = max(keys)
    tied = [i for i, k in enumerate(keys) if k == best]
    out = []
    for i in range(len(rows)):
        if i not in tied:
            out.append(Fraction(0))
        elif reroll or (reroll_first and rows[i]["zuerst"]):
            out.append(Fraction(1, len(tied)))
        else:
            out.append(Fraction(1 if i == tied[0] else 0))
    return out


@SYSTEM.action(
    "initiative",
    title="Initiative: Zugreihenfolge nach dem Willens-Wurf",
    summary=(
        "Wer gleichzeitig eingreift, macht einen Willens-Wurf; nach Augenzahl absteigend wird "
        "die Zugreihenfolge gebildet. Wer sich angeschlichen hat oder unvermittelt angreift, "
        "beginnt. Gleichstand: Wurf unter den Betroffenen wiederholen oder Spielleiter."
    ),
    source=f"{SOURCE} L30–L40",
    params=(
        ListParam(
            "fighters",
            "Kämpfer",
            item=FIGHTER_FIELDS,
            item_label="Kämpfer",
            max_items=20,
            default_items=(
                {"name": "Alrik", "willenswurf": 9},
                {"name": "Bruna", "willenswurf": 7},
            ),
            required=True,
        ),
        ChoiceParam(
            "gleichstand",
            "Bei gleicher Augenzahl",
            choices=(
                ("wiederholen", "Wurf unter den Betroffenen wiederholen (hier gewürfelt)"),
                ("spielleiter", "Spielleiter legt fest (vorerst Reihenfolge der Eingabe)"),
            ),
        ),
        ChoiceParam(
            "zuerst_order",
            SEVERAL_FIRST_LABEL,
            choices=(
                (BY_WILLENSWURF, "nach ihrem Willens-Wurf (höhere Augenzahl zuerst)"),
                (REROLL, "Wurf unter ihnen wiederholen (hier gewürfelt)"),
            ),
            default=SEVERAL_FIRST_DEFAULT,
            help=(
                "Mehrere haben sich angeschlichen oder greifen unvermittelt an: in welcher "
                "Reihenfolge sie beginnen, sagt der Text nicht."
            ),
            advanced=True,
        ),
    ),
    assumptions=assumptions_for("initiative"),
)
def initiative(p: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    rows: list[dict[str, Any]] = p["fighters"]
    check_unique_names(rows, "fighters", "Kämpfer")
    entered_roll()  # the order rests on the entered Willens-Würfe
    reroll = p["gleichstand"] == "wiederholen"
    fighters = [Fighter(i, r["name"], r["willenswurf"], r["zuerst"]) for i, r in enumerate(rows)]
    notes: list[str] = []
    rolls: list[tuple[Fighter, dice.RollResult]] = []
    beginners = [f for f in fighters if f.zuerst]
    reroll_first = _reroll_first(p["zuerst_order"], len(beginners))
    first: list[Fighter] = []
    if reroll_first:  # L34 is silent: they re-roll among themselves as L38 does for equal pips
        first = _resolve(beginners, rng, notes, rolls)
    rest = [f for f in fighters if not (reroll_first and f.zuerst)]
    order, tied = order_groups(
        rest,
        lambda f: (f.zuerst, f.willenswurf),
        lambda group: _resolve(group, rng, notes, rolls) if reroll else group,
        descending=True,
    )
    order = first + order
    ties = [
        {
            "willenswurf": key[1],
            "names": [f.name for f in resolved],
            "rerolls": {f.name: list(f.rolloff) for f in resolved if f.rolloff},
        }
        for key, resolved in tied
    ]
    chances = first_chances(rows, reroll, reroll_first)
    display = Display(
        headline="Initiative – Zugreihenfolge",
        outcome=f"Den ersten Zug hat {order[0].name}.",
    )
    display.table(
        "Zugreihenfolge (höchste Augenzahl zuerst)",
        ["Platz", "Kämpfer", "Willens-Wurf", "Beginnt", "Wiederholung"],
        [
            [
                str(place),
                f.name,
                number(f.willenswurf),
                "ja" if f.zuerst else "",
                f.rolloff_text(),
            ]
            for place, f in enumerate(order, start=1)
        ],
    )
    rounds: dict[int, int] = {}
    for fighter, roll in rolls:  # the re-roll's dice, in the order rolled
        rounds[fighter.index] = rounds.get(fighter.index, 0) + 1
        display.roll(f"{fighter.name}: Wiederholung {rounds[fighter.index]}", roll)
    for tie in ties:
        names = ", ".join(tie["names"])
        how = (
            f"wiederholt mit {_reroll_die().notation()} (Annahme)"
            if reroll
            else "Spielleiter legt fest"
        )
        notes.append(f"Gleiche Augenzahl {number(tie['willenswurf'])}: {names} – {how}.")
    if not reroll and ties:
        notes.append("Bis der Spielleiter entscheidet, gilt die Reihenfolge der Eingabe.")
    if first:
        notes.append(
            f"Es beginnen {_names(first)}; sie haben den Wurf unter sich wiederholt "
            f"({_reroll_die().notation()}, Annahme)."
        )
    if len(beginners) > 1 and p["zuerst_order"] != SEVERAL_FIRST_DEFAULT:
        how = "wiederholt den Wurf unter sich" if first else "folgt einander nach dem Willens-Wurf"
        notes.append(f"Gewählte Lesart (der Text lässt sie offen): Wer beginnt, {how}.")
    notes.append(
        "Der Initiativewurf ist nicht Teil eines Zuges; im ersten Zug stehen alle "
        f"{DATA.integer('zug.aktionswuerfel', 1, 20)} Aktionswürfel zur Verfügung."
    )
    display.notes("Hinweise", notes)
    display.chances(
        "Chance, den ersten Zug zu haben (bei den eingegebenen Würfen)",
        [(r["name"], c) for r, c in zip(rows, chances, strict=True)],
        before=True,  # the entered Willens-Würfe decide it, not the re-roll's dice
    )
    return {
        "order": [
            {
                "place": place,
                "name": f.name,
                "willenswurf": f.willenswurf,
                "zuerst": f.zuerst,
                "rerolls": f.rolloff,
            }
            for place, f in enumerate(order, start=1)
        ],
        "ties": ties,
        "turns": place_turns(order),
        "first_chances": {r["name"]: str(c) for r, c in zip(rows, chances, strict=True)},
        "display": display.to_dict(),
    }


def _names(fighters: list[Fighter]) -> str:
    names = [f.name for f in fighters]
    return ", ".join(names[:-1]) + f" und {names[-1]}" if len(names) > 1 else names[0]
