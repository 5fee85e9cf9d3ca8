"""Güte-System: the further rolls the text defines, each an action of its own.

``aufwachen`` (2W6 − GW Widerstand rounds, L47), ``entwaffnen`` (how far the weapon flies,
L141–L143), ``erdruecken`` (a Bruta's damage, L153–L161), ``sturzflug`` (a Ceglag's damage
and the dropped prey, L325–L327) and ``feuerschaden`` (the fire of a Feuerangriff,
L187–L193). All share ``_single_roll``: roll the dice of the data file plus named modifiers,
describe the total and give the exact odds.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine import dice
from engine.display import Display
from engine.formatting import decimal
from engine.params import BoolParam, IntParam
from engine.systems.guete.common import (
    DATA,
    SOURCE,
    SYSTEM,
    assumptions_for,
    chances_dict,
    plus_constant,
    sturzflug_bonus,
)


def _single_roll(
    rng: random.Random,
    headline: str,
    label: str,
    expression: dice.Expression,
    modifiers: list[tuple[str, int]],
    describe: Callable[[int], str],
    events: list[tuple[str, Callable[[int], bool]]],
    notes: list[str],
    axis: str = "Ergebnis",
    mean_label: str = "Erwartungswert",
) -> dict[str, Any]:
    """Roll ``expression`` (+ named modifiers), describe the total, exact odds of ``events``
    and the distribution of the total (``axis``: what the total counts), all before the roll."""
    shift = sum(v for _, v in modifiers)
    rolled = dice.roll(expression, rng)
    total = rolled.total + shift
    full = plus_constant(expression, shift)
    dist = dice.distribution(full)
    chances = [(name, dice.probability(full, test)) for name, test in events]
    display = Display(headline=headline, outcome=describe(total))
    display.roll(label, rolled, modifiers, total=total)
    if chances:
        display.chances("Wahrscheinlichkeiten", chances, before=True)
    display.distribution("Verteilung", axis, dist, before=True, mean_label=mean_label)
    display.notes("Hinweise", [*notes, f"Erwartungswert: {decimal(dice.expected_value(full))}."])
    return {
        "roll": rolled.to_dict(),
        "modifiers": [{"name": n, "value": v} for n, v in modifiers],
        "total": total,
        "chances": {
            **{name: str(p) for name, p in chances},
            "exact": chances_dict(dist),
            "expected": str(dice.expected_value(full)),
        },
        "display": display.to_dict(),
    }


RESULT_FORMERLY = (
    ("roll", ("wurf",)),
    ("total", ("ergebnis",)),
    ("exact", ("verteilung",)),
    ("expected", ("erwartung",)),
    ("modifiers", ("modifikatoren",)),
    ("value", ("wert",)),
)
"""Result keys renamed to the public vocabulary (CONTRIBUTING.md „Namen“)."""


@SYSTEM.action(
    "aufwachen",
    title="Aufwachen: Runden bis man handeln kann",
    summary="2W6 − GW(Widerstand); 0 oder weniger: sofort hellwach, sonst so viele Runden.",
    result_formerly=RESULT_FORMERLY,
    source=f"{SOURCE} L47",
    params=(
        IntParam(
            "gw_widerstand",
            "GW Widerstand",
            default=4,
            minimum=0,
            maximum=30,
            required=True,
            subject="actor",
        ),
    ),
)
def aufwachen(p: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    def text(total: int) -> str:
        if total <= 0:
            return "Sofort hellwach."
        return (
            f"{total} Runde{'n' if total != 1 else ''} bis zum Handeln; so lange Abwehr nur mit +2."
        )

    return _single_roll(
        rng,
        "Aufwachen",
        "Aufwachen 2W6",
        DATA.dice("wuerfe.aufwachen.wurf", "Aufwachen"),
        [("GW Widerstand", -p["gw_widerstand"])],
        text,
        [("sofort hellwach", lambda t: t <= 0)],
        ["Ergebnis 0 oder negativ: sofort hellwach."],
        mean_label="Erwartungswert des Ergebnisses (0 oder weniger: sofort hellwach)",
    )


@SYSTEM.action(
    "entwaffnen",
    title="Entwaffnen: wie weit fliegt die Waffe?",
    summary="1W6 − 3 Meter; 0 oder weniger: die Waffe landet auf dem Feld des Opfers.",
    result_formerly=RESULT_FORMERLY,
    source=f"{SOURCE} L141–L143",
    params=(),
)
def entwaffnen(p: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    def text(total: int) -> str:
        if total <= 0:
            return "Die Waffe landet direkt zu Füßen des Opfers."
        return f"Die Waffe fliegt {total} m weit."

    return _single_roll(
        rng,
        "Entwaffnen",
        "Weite 1W6-3",
        DATA.dice("wuerfe.entwaffnen.wurf", "Entwaffnen"),
        [],
        text,
        [("landet zu Füßen des Opfers", lambda t: t <= 0)],
        ["Richtung: zufällig durch den Spielleiter; bei doppelter Güte wählt der Angreifer."],
        axis="Meter",
        mean_label="Erwartungswert der Weite (0 oder weniger: zu Füßen des Opfers)",
    )


@SYSTEM.action(
    "erdruecken",
    title="Erdrücken (nur Brutas): Schaden",
    summary="Misslingt dem Opfer das Ausweichen: 2W6 + Körpergewicht des Brutas in kg / 50.",
    result_formerly=RESULT_FORMERLY,
    source=f"{SOURCE} L153–L161",
    params=(
        IntParam(
            "gewicht",
            "Körpergewicht des Brutas (kg)",
            default=200,
            minimum=1,
            maximum=2000,
            required=True,
            subject="actor",
        ),
    ),
    assumptions=assumptions_for("wuerfe.erdruecken"),
)
def erdruecken(p: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    per = DATA.integer("wuerfe.erdruecken.kg_je_punkt", 1, 1000)
    bonus = p["gewicht"] // per
    how = ""
    if p["gewicht"] % per:  # only a remainder needs the rounding (Annahme)
        DATA.text("wuerfe.erdruecken.rundung")
        how = " (abgerundet)"
    return _single_roll(
        rng,
        "Erdrücken",
        "Schaden 2W6",
        DATA.dice("wuerfe.erdruecken.wurf", "Erdrücken"),
        [(f"Körpergewicht {p['gewicht']} kg / {per}{how}", bonus)],
        lambda t: f"{t} Schaden.",
        [],
        ["Danach gilt der Bruta als gestürzt, ohne FP(Gaukeleien)."],
        axis="Schaden",
        mean_label="Erwarteter Schaden",
    )


@SYSTEM.action(
    "sturzflug",
    title="Sturzflug (nur Ceglags): Schaden",
    summary="1W6 + 1 je 2 volle Meter über 5 m, höchstens 1W6+5; Beute fallen lassen: 1W6+2 KE.",
    result_formerly=(*RESULT_FORMERLY, ("expected_sturz", ("sturz_erwartung",))),
    source=f"{SOURCE} L325–L327",
    params=(
        IntParam("hoehe", "Höhe in Metern", default=9, minimum=5, maximum=200, required=True),
        BoolParam("greifen", "Opfer greifen und fallen lassen"),
    ),
)
def sturzflug(p: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    bonus = sturzflug_bonus(p["hoehe"])
    result = _single_roll(
        rng,
        "Sturzflug",
        "Krallenschaden 1W6",
        DATA.dice("wuerfe.sturzflug.wurf", "Sturzflug"),
        [(f"Höhe {p['hoehe']} m (+1 je 2 volle Meter über 5 m, höchstens +5)", bonus)],
        lambda t: f"{t} Schaden, wenn das Opfer nicht vollständig abwehrt.",
        [],
        [],
        axis="Schaden",
        mean_label="Erwarteter Schaden",
    )
    if p["greifen"]:
        fall = DATA.dice("wuerfe.sturzflug.beute_wurf", "Sturz")
        rolled = dice.roll(fall, rng)
        result["sturz"] = rolled.to_dict()
        result["chances"]["expected_sturz"] = str(dice.expected_value(fall))
        display = result["display"]
        display["outcome"] += f" Dazu {rolled.total} KE durch den Sturz."
        extra = Display("")
        extra.roll("Sturz der Beute 1W6+2 (KE)", rolled)
        extra.notes(
            "Greifen",
            [
                "Angriffsprobe +1, doppelte Ausdauer; Sturzschaden nicht durch Fallen "
                f"abzumildern. Erwartungswert Sturz: {decimal(dice.expected_value(fall))}."
            ],
        )
        display["sections"].extend(extra.sections)
    return result


@SYSTEM.action(
    "feuerschaden",
    title="Feuerangriff: Feuerschaden",
    summary="Zusätzlich zum Keulenschaden 1W6+2 Feuerschaden an KE (feuerempfindlich: LE).",
    result_formerly=RESULT_FORMERLY,
    source=f"{SOURCE} L187–L193",
    params=(BoolParam("feuerempfindlich", "Ziel ist feuerempfindlich", subject="target"),),
)
def feuerschaden(p: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    where = "LE" if p["feuerempfindlich"] else "KE"
    return _single_roll(
        rng,
        "Feuerschaden",
        "Feuerschaden 1W6+2",
        DATA.dice("wuerfe.feuerangriff.wurf", "Feuerschaden"),
        [],
        lambda t: f"{t} Feuerschaden als Verlust von {where}.",
        [],
        ["Natürliche Rüstung schützt nicht gegen Feuerschaden."],
        axis="Schaden",
        mean_label="Erwarteter Schaden",
    )
