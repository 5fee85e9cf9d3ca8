"""DSA 4.1 Hausregeln: shots in the ``attack`` action – distance, Zielen, Kampfgetümmel.

Owns Abschnitt "Besonderheiten von Fernkampfwaffen" (the distance classes sehr nah … extrem weit,
a table in the data), Zielen (Abschnitt "Mögliche Sonstige Aktionen": 1 Erleichterung per 2
Aktionen, at most 4) and Abschnitt "Fernkampfattacken ins Kampfgetümmel" (+2 per person in the
melee; a shot that fails only because of that surcharge hits a random other person, chosen with
1W(others)). Holds their parameter fields, their checks and the roll of the other person.
"""

from __future__ import annotations

import random
from typing import Any

from engine import dice
from engine.errors import EngineError
from engine.formatting import signed
from engine.params import ChoiceParam, IntParam, TextParam
from regeln.dsa.common import DATA

MAX_MELEE = 10


def _distance_rows() -> list[dict[str, Any]]:
    return DATA.table("tabellen.entfernungen.zeilen", ("schluessel", "entfernung", "wert"))


def _distance_choices() -> tuple[tuple[str, str], ...]:
    return tuple(
        (str(row["schluessel"]), f"{row['entfernung']} ({signed(int(row['wert']))})")
        for row in _distance_rows()
    )


RANGED = ("kind", ("fernkampf",))

RANGED_PARAMS = (
    ChoiceParam(
        "distance",
        "Entfernung (Schuss)",
        formerly=("entfernung",),
        choices=_distance_choices(),
        default="nah",
        help="Je nach Waffe: sehr nah −2, nah ±0, mittel +4, weit +8, extrem weit +12.",
        group="Fernkampf",
        required_when=("kind", ("fernkampf",)),
        when=(RANGED,),
    ),
    IntParam(
        "zielen",
        "Aktionen Zielen",
        default=0,
        minimum=0,
        maximum=20,
        help="Pro 2 Aktionen Zielen 1 Erleichterung, höchstens 4.",
        group="Fernkampf",
        when=(RANGED,),
        per_roll=True,
    ),
    IntParam(
        "getuemmel",
        "Personen im Kampfgetümmel",
        default=0,
        minimum=0,
        maximum=MAX_MELEE,
        help="Schuss ins Kampfgetümmel: alle Beteiligten samt Ziel (je +2); 0 = kein Getümmel.",
        group="Fernkampf",
        when=(RANGED,),
    ),
    TextParam(
        "getuemmel_namen",
        "Andere im Kampfgetümmel",
        required=False,
        max_length=300,
        help="Namen der übrigen Beteiligten, durch Komma getrennt (leer: Person 1, 2, …).",
        group="Fernkampf",
        advanced=True,
        when=(RANGED, ("getuemmel", tuple(range(2, MAX_MELEE + 1)))),
    ),
)


def check_melee_crowd(params: dict[str, Any]) -> None:
    """Kampfgetümmel: at least 2 people; names of the others only with it, one per other."""
    melee_count = params["getuemmel"]
    if melee_count == 1:
        raise EngineError(
            "Personen im Kampfgetümmel: mindestens 2 (das Ziel und wer mit ihm kämpft), "
            "oder 0 ohne Getümmel.",
            "getuemmel",
        )
    names = [n.strip() for n in params["getuemmel_namen"].split(",") if n.strip()]
    if names and not melee_count:
        raise EngineError(
            "Andere im Kampfgetümmel: nur bei einem Schuss ins Kampfgetümmel.", "getuemmel_namen"
        )
    if names and len(names) != melee_count - 1:
        raise EngineError(
            f"Andere im Kampfgetümmel: bei {melee_count} Personen samt Ziel sind es "
            f"{melee_count - 1} andere, genannt sind {len(names)}.",
            "getuemmel_namen",
        )


def distance_and_aim(params: dict[str, Any]) -> list[tuple[str, int]]:
    """Erschwernis of the distance class and the Erleichterung from Zielen (+ = harder)."""
    mods: list[tuple[str, int]] = []
    row = next(r for r in _distance_rows() if r["schluessel"] == params["distance"])
    if row["wert"]:
        mods.append((f"Entfernung {row['entfernung']}", int(row["wert"])))
    per = DATA.integer("angriff.zielen_aktionen_je_punkt", 1, 10)
    cap = DATA.integer("angriff.zielen_hoechstens", 0, 20)
    aim = min(params["zielen"] // per, cap)
    if aim:
        mods.append((f"Zielen ({params['zielen']} Aktionen)", -aim))
    return mods


def melee_crowd(params: dict[str, Any]) -> tuple[tuple[str, int], list[str]]:
    """The Kampfgetümmel surcharge (+2 per person, target included) and the other people."""
    surcharge = DATA.integer("angriff.getuemmel_je_person", 0, 10) * params["getuemmel"]
    modifier = (f"Kampfgetümmel ({params['getuemmel']} Personen)", surcharge)
    names = [n.strip() for n in params["getuemmel_namen"].split(",") if n.strip()]
    others = names or [f"Person {i}" for i in range(1, params["getuemmel"])]
    return modifier, others


def roll_other_person(
    others: list[str], rng: random.Random
) -> tuple[dict[str, Any], dice.RollResult | None]:
    """Who a shot into the Kampfgetümmel hits instead: 1W(others), no roll for a single one."""
    if len(others) == 1:
        return {"index": 1, "name": others[0]}, None
    other_roll = dice.roll(dice.die(len(others)), rng)
    return {"index": other_roll.total, "name": others[other_roll.total - 1]}, other_roll
