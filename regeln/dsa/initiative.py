"""DSA 4.1 Hausregeln: the ``initiative`` action – INI, order of execution and phase list.

Owns Abschnitt "Ablauf einer Kampfrunde" (INI = INI-Basis + 1W6 + Modifikatoren, Festlegen vom
Langsamsten, Ausführen vom Schnellsten an, the second action in Initiativphase − 8), the INI
effect of Orientieren (Abschnitt "Mögliche Sonstige Aktionen") and of Ungezieltes Ausweichen
(Abschnitt "Mögliche Freie Aktionen..."), the tie rule (higher INI-Basis, then a roll-off;
Annahme) and ``first_chances``, the exact chance of each fighter to act first. The Taktik fields,
checks and notes come from ``taktik.py``.

The result carries ``turns``, the acting sequence of the round for the fight bar (every action
by Initiativphase: „Phase 15“, „Phase 7, 2. Aktion“). The fighters' rows have no ``subject``: the
list *is* the fight. Assumptions named in a result: the INI roll always; the tie rule only when a
tie was rolled (the chance to act first always counts ties by it), the roll-off die only when
one was needed, the actions below phase 1 only when there are some.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from engine import dice
from engine.display import Display, bars_fit
from engine.errors import EngineError
from engine.formatting import number, signed
from engine.ordering import (
    check_unique_names,
    counts_of,
    first_place_chances,
    order_groups,
    place_chances,
    roll_off,
    show_places,
)
from engine.params import BoolParam, IntParam, ListParam, TextParam
from regeln.dsa.common import (
    CITE_ABLAUF,
    CITE_FREIE,
    CITE_SONSTIGE,
    DATA,
    SYSTEM,
    assumptions_for,
    modifier_rows,
)
from regeln.dsa.fighter import Fighter
from regeln.dsa.taktik import (
    AFTER_SUCCESS,
    TAKTIK_PARAMS,
    taktik_changes,
    taktik_notes,
)

FIGHTER_FIELDS = (
    TextParam("name", "Name", help="Wie der Kämpfer in der Phasenliste heißt.", max_length=30),
    TextParam(
        "seite",
        "Seite",
        default="Helden",
        max_length=30,
        help="Wer auf derselben Seite steht, ist Mitstreiter (wichtig für Taktik).",
    ),
    IntParam("ini_basis", "INI-Basis", default=10, minimum=0, maximum=40, required=True),
    IntParam(
        "modifier",
        "INI-Modifikator",
        formerly=("modifikator",),
        default=0,
        minimum=-20,
        maximum=20,
        help=(
            "Wird zur INI addiert (z. B. Waffen-INI, Vorteile, Sonderfertigkeiten). "
            "Achtung: Hier ist + schneller, nicht erschwert."
        ),
    ),
    BoolParam(
        "orientieren",
        "Orientiert",
        help="Hat sich mit Orientieren (zwei Aktionen) einen Überblick verschafft: INI auf Maximum",
    ),
    IntParam(
        "ausweichen",
        "Ungezielt ausgewichen",
        default=0,
        minimum=0,
        maximum=10,
        help="Wie oft seit dem Wurf bzw. letzten Orientieren ungezielt ausgewichen (je −4 INI).",
    ),
    IntParam(
        "taktik_bonus",
        "Taktik-Bonus",
        default=0,
        minimum=0,
        maximum=30,
        help="TaP*, die der Taktiker diesem Mitstreiter als INI-Bonus zuteilt.",
        # a field of a row, shown only after a successful Kriegskunst-Probe (a field of the form)
        when=AFTER_SUCCESS,
    ),
)


def _ini_die() -> dice.Expression:
    return DATA.dice("initiative.wurf", "Initiativwurf")


def _rolloff_die() -> dice.Expression:
    return DATA.dice("initiative.stechen_wurf", "Stechen")


def _roll_off(group: list[Fighter], rng: random.Random) -> list[Fighter]:
    """Each rolls the Stechen die, higher first; those still equal roll again (Annahme)."""
    limit = DATA.integer("initiative.stechen_hoechstens", 1, 10_000)
    ordered, unresolved = roll_off(group, _rolloff_die(), rng, limit)
    if unresolved:
        raise EngineError(f"Stechen: nach {limit} Würfen noch unentschieden.", "fighters")
    return ordered


def _resolve_tie(group: list[Fighter], rng: random.Random) -> list[Fighter]:
    """Same INI: higher INI-Basis first; still tied: roll-off (Annahme)."""
    DATA.assume("initiative.gleichstand")  # a tie was rolled: the order rests on the tie rule

    def note(basis: int, fighter: Fighter) -> None:
        fighter.tie_note = f"INI-Basis {basis}"

    ordered, _ = order_groups(
        group,
        lambda f: f.ini_basis,
        lambda same: _roll_off(same, rng),
        descending=True,
        single=note,
    )
    return ordered


def first_chances(distributions: list[dict[int, Fraction]], ini_bases: list[int]) -> list[Fraction]:
    """Exact chance of each fighter to act first, before the INI roll.

    Each INI follows its own distribution (a point for an oriented fighter); a tie goes to the
    higher INI-Basis, and a full tie is a fair roll-off, so each of k tied fighters wins with 1/k.
    Computed with integer counts (one common denominator per fighter) and a single division at
    the end, so 20 fighters stay fast.
    """
    return first_place_chances([counts_of(d) for d in distributions], ini_bases)


def _validate_initiative(params: dict[str, Any]) -> dict[int, int]:
    """Cross-field checks; returns the INI change from Taktik for each fighter index."""
    rows: list[dict[str, Any]] = params["fighters"]
    check_unique_names(rows, "fighters", "Kämpfer")
    return taktik_changes(params)


def _ini_modifiers(
    row: dict[str, Any], die_max: int, evade_loss: int, taktik: int
) -> list[tuple[str, int]]:
    """INI-Basis and every change to it, as the roll line shows them."""
    modifiers: list[tuple[str, int]] = [("INI-Basis", row["ini_basis"])]
    if row["orientieren"]:
        modifiers.append(("Orientieren: Maximum des Würfels", die_max))
    if row["modifier"]:
        modifiers.append(("INI-Modifikator", row["modifier"]))
    if row["ausweichen"]:
        modifiers.append(
            (f"Ungezieltes Ausweichen × {row['ausweichen']}", -evade_loss * row["ausweichen"])
        )
    if taktik > 0:
        modifiers.append(("Taktik-Bonus (TaP*)", taktik))
    elif taktik < 0:
        modifiers.append(("Taktik gescheitert", taktik))
    return modifiers


def _roll_fighter(
    index: int,
    row: dict[str, Any],
    taktik: int,
    die: dice.Expression,
    die_max: int,
    evade_loss: int,
    rng: random.Random,
) -> Fighter:
    """One fighter's INI: rolled, or the die's maximum after Orientieren (no roll)."""
    oriented = row["orientieren"]
    rolled = None if oriented else dice.roll(die, rng)
    die_value = die_max if rolled is None else rolled.total
    fixed = row["modifier"] - evade_loss * row["ausweichen"] + taktik
    value = row["ini_basis"] + die_value + fixed
    return Fighter(
        index=index,
        name=row["name"],
        side=row["seite"],
        ini_basis=row["ini_basis"],
        modifier=row["modifier"],
        oriented=oriented,
        evasions=row["ausweichen"],
        roll=rolled,
        die_value=die_value,
        taktik=taktik,
        initiative=value,
        modifiers=_ini_modifiers(row, die_max, evade_loss, taktik),
    )


def _phase_list(order: list[Fighter], fighters: list[Fighter], step: int) -> list[dict[str, Any]]:
    """Both actions of every fighter by Initiativphase; the faster fighter first in a phase."""
    rank = {f.index: place for place, f in enumerate(order)}
    phases: list[dict[str, Any]] = []
    for fighter in order:
        phases.append({"phase": fighter.initiative, "name": fighter.name, "action": 1})
        phases.append({"phase": fighter.initiative - step, "name": fighter.name, "action": 2})
    index_of = {f.name: f.index for f in fighters}
    phases.sort(key=lambda p: (-p["phase"], rank[index_of[p["name"]]]))
    return phases


def _low_phases_take_place(phases: list[dict[str, Any]]) -> bool:
    """Whether an action whose Initiativphase falls below 1 still takes place (Annahme; read
    only when there is such an action)."""
    if any(p["phase"] < 1 for p in phases):
        return DATA.flag("initiative.phase_unter_eins")
    return True


def turns(phases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The acting sequence of one round for the fight bar: every action by Initiativphase,
    labelled „Phase 15“ or „Phase 7, 2. Aktion“ (an action below phase 1 only if it takes
    place). A second action carries the situation the page sets for that turn: „2
    Angriffsaktionen -> Die zweite Angriffsaktion ist um 4 erschwert“ (001 L1, „Auswahl von
    durchzuführenden Aktionen“) – the attack's box, ticked and shown, for the game master to
    untick when the first action was no attack."""
    keep_low = _low_phases_take_place(phases)
    out: list[dict[str, Any]] = []
    for p in phases:
        if not keep_low and p["phase"] < 1:
            continue
        turn: dict[str, Any] = {"name": p["name"], "label": f"Phase {number(p['phase'])}"}
        if p["action"] == 2:
            turn["label"] += ", 2. Aktion"
            turn["situation"] = {"zweite_angriffsaktion": True}
        out.append(turn)
    return out


def _order_tables(
    display: Display, order: list[Fighter], phases: list[dict[str, Any]], step: int
) -> None:
    """Order of execution, the phase list and the order of declaring the actions."""
    table_rows = []
    for place, fighter in enumerate(order, start=1):
        table_rows.append(
            [
                str(place),
                fighter.name,
                fighter.side,
                number(fighter.initiative),
                number(fighter.initiative - step),
                fighter.tie_note,
            ]
        )
    display.table(
        "Reihenfolge der Ausführung (Schnellster zuerst)",
        [
            "Platz",
            "Kämpfer",
            "Seite",
            "INI = 1. Aktion",
            f"2. Aktion (INI − {step})",
            "Gleichstand",
        ],
        table_rows,
    )
    display.table(
        "Phasenliste: wer handelt in welcher Initiativphase",
        ["Initiativphase", "Kämpfer", "Aktion"],
        [[number(p["phase"]), p["name"], f"{p['action']}. Aktion"] for p in phases],
    )
    display.table(
        "Festlegen der Aktionen (Langsamster zuerst)",
        ["Reihenfolge", "Kämpfer"],
        [[str(i), f.name] for i, f in enumerate(reversed(order), start=1)],
    )


def _order_notes(
    fighters: list[Fighter],
    ties: list[dict[str, Any]],
    phases: list[dict[str, Any]],
    low_takes_place: bool,
) -> list[str]:
    """Notes on oriented fighters (no roll), on ties and on Initiativphasen below 1."""
    notes = []
    for fighter in fighters:
        if fighter.roll is None:
            parts = " ".join(f"{name} {signed(v)}" for name, v in fighter.modifiers[1:])
            notes.append(
                f"{fighter.name}: INI {fighter.ini_basis} {parts} = {number(fighter.initiative)} "
                f"(Orientieren: kein Wurf, die INI steigt auf das Maximum)."
            )
    for tie in ties:
        names = ", ".join(tie["names"])
        how = "Stechen mit W6" if tie["rolloff"] else "höhere INI-Basis"
        notes.append(f"Gleichstand bei INI {number(tie['initiative'])}: {names} ({how}).")
    low = [p for p in phases if p["phase"] < 1]
    if low:
        notes.append(
            "Initiativphase unter 1: "
            + ", ".join(f"{p['name']} ({p['action']}. Aktion, {number(p['phase'])})" for p in low)
            + (" – handelt nach allen anderen." if low_takes_place else " – entfällt.")
        )
    return notes


def _initiative_display(
    params: dict[str, Any],
    fighters: list[Fighter],
    order: list[Fighter],
    phases: list[dict[str, Any]],
    ties: list[dict[str, Any]],
    taktik_change: dict[int, int],
    chances: list[Fraction],
    places: list[list[Fraction]] | None,
    step: int,
) -> Display:
    """Headline, the order tables, every INI roll, the notes and the chance to act first."""
    display = Display(
        headline="Initiative – Reihenfolge und Phasenliste",
        outcome=(
            f"Zuerst handelt {order[0].name} in Initiativphase {number(order[0].initiative)}; "
            f"die Aktionen legt zuerst {order[-1].name} fest."
        ),
    )
    _order_tables(display, order, phases, step)
    for fighter in fighters:
        if fighter.roll is not None:
            display.roll(
                f"{fighter.name}: Initiativwurf",
                fighter.roll,
                [m for m in fighter.modifiers],
                total=fighter.initiative,
            )
    notes = _order_notes(fighters, ties, phases, _low_phases_take_place(phases))
    notes += taktik_notes(params, fighters, taktik_change)
    display.notes("Hinweise", notes)
    rows: list[dict[str, Any]] = params["fighters"]
    display.chances(
        "Chance, als Erste(r) zu handeln (vor dem Wurf)",
        [(f["name"], p) for f, p in zip(rows, chances, strict=True)],
        before=True,
    )
    show_places(display, [row["name"] for row in rows], places)
    return display


@SYSTEM.action(
    "initiative",
    title="Initiative und Phasenliste",
    summary=(
        "Jeder Kämpfer hat INI = INI-Basis + 1W6 + Modifikatoren (Annahme); Orientieren hebt sie "
        "aufs Maximum, Ungezieltes Ausweichen kostet je 4, Taktik verteilt TaP* als Bonus. "
        "Festlegen der Aktionen vom Langsamsten, Ausführen vom Schnellsten an; die zweite Aktion "
        "kommt in Initiativphase − 8."
    ),
    source=f"{CITE_ABLAUF}; {CITE_SONSTIGE}; {CITE_FREIE}",
    params=(
        ListParam(
            "fighters",
            "Kämpfer",
            item=FIGHTER_FIELDS,
            item_label="Kämpfer",
            min_items=1,
            max_items=20,
            default_items=(
                {"name": "Alrik", "ini_basis": 12},
                {"name": "Bruna", "ini_basis": 10},
                {"name": "Ork", "seite": "Gegner", "ini_basis": 9},
            ),
            required=True,
        ),
        *TAKTIK_PARAMS,
    ),
    assumptions=assumptions_for("initiative"),
)
def initiative(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    rows: list[dict[str, Any]] = params["fighters"]
    taktik_change = _validate_initiative(params)
    die = _ini_die()
    die_dist = dice.distribution(die, field="initiative.wurf", label="Initiativwurf")
    die_max = max(die_dist)
    evade_loss = DATA.integer("initiative.ausweichen_verlust", 0, 20)
    step = DATA.integer("initiative.zweite_aktion_abstand", 1, 40)

    fighters: list[Fighter] = []
    distributions: list[dict[int, Fraction]] = []
    for index, row in enumerate(rows):
        taktik = taktik_change.get(index, 0)
        fighter = _roll_fighter(index, row, taktik, die, die_max, evade_loss, rng)
        fighters.append(fighter)
        base = fighter.initiative - fighter.die_value
        distributions.append(
            {base + die_max: Fraction(1)}
            if fighter.oriented
            else {base + face: p for face, p in die_dist.items()}
        )

    order, tied = order_groups(
        fighters, lambda f: f.initiative, lambda group: _resolve_tie(group, rng), descending=True
    )
    ties = [
        {
            "initiative": value,
            "names": [f.name for f in resolved],
            "rolloff": {f.name: list(f.rolloff) for f in resolved if f.rolloff},
        }
        for value, resolved in tied
    ]
    phases = _phase_list(order, fighters, step)
    ini_bases = [f.ini_basis for f in fighters]
    chances = first_chances(distributions, ini_bases)
    places = None
    if len(fighters) > 1 and bars_fit(len(fighters) ** 2, 64):
        places = place_chances([counts_of(d) for d in distributions], ini_bases)
    display = _initiative_display(
        params, fighters, order, phases, ties, taktik_change, chances, places, step
    )
    return {
        "order": [
            {
                "place": place,
                "name": f.name,
                "side": f.side,
                "ini_basis": f.ini_basis,
                "roll": None if f.roll is None else f.roll.to_dict(),
                "die_value": f.die_value,
                "oriented": f.oriented,
                "modifiers": modifier_rows(f.modifiers),
                "initiative": f.initiative,
                "second_action_phase": f.initiative - step,
                "rolloff": f.rolloff,
            }
            for place, f in enumerate(order, start=1)
        ],
        "declaration_order": [f.name for f in reversed(order)],
        "phases": phases,
        "turns": turns(phases),
        "ties": ties,
        "taktik": {
            "probe": params["taktik_probe"],
            "taktiker": params["taktiker"],
            "taktiker_mitstreiter": params["taktiker_mitstreiter"],
            "erschwernis": DATA.integer("initiative.taktik_ueberzahl_faktor", 0, 10)
            * params["ueberzahl"],
            "changes": {rows[i]["name"]: v for i, v in sorted(taktik_change.items())},
        },
        "first_chances": {f["name"]: str(p) for f, p in zip(rows, chances, strict=True)},
        "display": display.to_dict(),
    }
