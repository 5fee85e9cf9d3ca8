"""Ryssea defense: what an attack has to beat (L186, L224–L231, L245–L249).

Owns the „Ziel und Abwehr“ fields and ``roll_difficulty``: the Verteidigung (reached or
exceeded hits), the Zielwert of an unbewegliches Ziel, or an Aktive Abwehr (probe + 2 × Erfolge;
a tie goes to the defender, L247) rolled before the attack, with its exact distribution. The
defender's own Patzer there is a Patzer „bei einer Probe auf ein Kampftalent“ (L406) when he
defends with a weapon, a Parierwaffe or a shield (a Nahkampftalent, L247), not when he evades on
Akrobatik (``abwehr_talent``); the attack offers him the Patzertabelle then.

Hints for connected helpers: the Verteidigung and the Aktive Abwehr's Eigenschaften, TaW and
Talentwürfel are the target's values; whether the target defends actively, its Vorteil /
Nachteil and modifier are the situation. The Unbewegliches Ziel applies only to a ranged attack
on a target that neither defends actively nor has a Kampfposition (the engine refuses those
combinations); it is the dependent field, so a hidden leftover never hides the others.
"""

from __future__ import annotations

import functools
import operator
import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine.data_files import forecast
from engine.formatting import number
from engine.params import BoolParam, ChoiceParam, IntParam, Param
from regeln.ryssea.common import (
    DATA,
    ProbeInput,
    ProbeRoll,
    at_least,
    die_distribution,
    erfolge_distribution,
    probe_fields,
    probe_input,
    roll_probe,
)
from regeln.ryssea.ranged import IMMOBILE, IMMOBILE_CHOICES

# L247: „eine Probe auf das Nahkampftalent der entsprechenden Waffe (für die Abwehr durch Waffen
# oder Parierwaffen), ein beliebiges Nahkampftalent (für die Abwehr mit einem Schild …) oder auf
# seine Akrobatik (für die Abwehr durch Ausweichen)“ – only the first two are Kampftalente (L406)
DEFENSE_TALENTS = (
    ("nahkampftalent", "Waffe, Parierwaffe oder Schild (Nahkampftalent)"),
    ("akrobatik", "Ausweichen (Akrobatik)"),
)

TARGET_PARAMS: tuple[Param, ...] = (
    IntParam(
        "verteidigung",
        "Verteidigung des Ziels",
        default=25,
        minimum=0,
        maximum=99,
        help="Schwierigkeit des Angriffs: Treffer, wenn erreicht oder übertroffen.",
        group="Ziel und Abwehr",
        required_when=("unbewegliches_ziel", ("nein",)),
        subject="target",
    ),
    ChoiceParam(
        "unbewegliches_ziel",
        "Unbewegliches Ziel",
        choices=IMMOBILE_CHOICES,
        help="Nur Fernkampf: der Zielwert der Tabelle Unbewegliche Ziele ersetzt die Verteidigung.",
        group="Ziel und Abwehr",
        advanced=True,
        # an unbewegliches Ziel neither defends actively nor takes a Kampfposition
        when=(
            ("angriffsart", ("fernkampf",)),
            ("aktive_abwehr", (False,)),
            ("position_ziel", ("stehend",)),
        ),
    ),
    BoolParam(
        "aktive_abwehr",
        "Aktive Abwehr des Ziels",
        help=(
            "Probe + 2 × Erfolge des Verteidigers wird zur Schwierigkeit; Gleichstand: Verteidiger."
        ),
        group="Ziel und Abwehr",
        per_roll=True,
    ),
    ChoiceParam(
        "abwehr_talent",
        "Abwehr – womit",
        choices=DEFENSE_TALENTS,
        help=(
            "Waffe, Parierwaffe oder Schild: Probe auf ein Nahkampftalent (ein Patzer führt den "
            "Verteidiger zur Patzertabelle); Ausweichen: Probe auf Akrobatik."
        ),
        group="Ziel und Abwehr",
        subject="target",
        when=(("aktive_abwehr", (True,)),),
    ),
    *probe_fields(
        "abwehr_",
        "Abwehr",
        talent="Nahkampftalent oder Akrobatik; Schild: IN + KK",
        group="Ziel und Abwehr",
        advanced=("wuerfel", "wurf_art"),
        required_when=("aktive_abwehr", (True,)),
        subject="target",
        when=(("aktive_abwehr", (True,)),),
    ),
    IntParam(
        "abwehr_modifier",
        "Abwehr – Modifikator",
        formerly=("abwehr_modifikator",),
        default=0,
        minimum=-30,
        maximum=30,
        help="Bonus (+) oder Malus (−) auf die Probe der Aktiven Abwehr.",
        group="Ziel und Abwehr",
        advanced=True,
        when=(("aktive_abwehr", (True,)),),
    ),
)


def defense_distribution(defender: ProbeInput) -> dict[int, Fraction]:
    """Value of an Aktive Abwehr: probe total + 2 × Erfolge (L247)."""
    factor = DATA.integer("angriff.abwehr_erfolg_faktor", 0, 10)
    out: dict[int, Fraction] = {}
    erfolge = erfolge_distribution(defender.taw)
    for value, p in die_distribution(defender.die, defender.mode).items():
        for k, q in enumerate(erfolge):
            total = defender.base + value + factor * k
            out[total] = out.get(total, Fraction(0)) + p * q
    return out


def _defense_succeeds(dist: dict[int, Fraction], verteidigung: int) -> Callable[[int], Fraction]:
    """Chance that an attack total beats a random Aktive Abwehr value."""
    with forecast():
        floor = DATA.text("angriff.abwehr_gegen_verteidigung") == "hoeherer"
    cache: dict[int, Fraction] = {}

    def succeeds(total: int) -> Fraction:
        if total not in cache:
            if floor and total < verteidigung:
                cache[total] = Fraction(0)
            else:
                cache[total] = sum((p for t, p in dist.items() if total > t), Fraction(0))
        return cache[total]

    return succeeds


def _beats_defense(total: int, defense: int, verteidigung: int) -> bool:
    """Tie → the defender wins (L247); optionally the Verteidigung stays a floor (Annahme, read
    only when the Aktive Abwehr came out below the Verteidigung: otherwise both agree)."""
    if defense >= verteidigung:
        return total > defense
    if DATA.text("angriff.abwehr_gegen_verteidigung") == "hoeherer":
        return total > defense and total >= verteidigung
    return total > defense


@dataclass(frozen=True)
class Difficulty:
    """What the attack probe has to beat, and how it is shown."""

    roll: ProbeRoll | None  # the Aktive Abwehr, if the target defends actively
    info: dict[str, Any]
    text: str
    succeeds: Callable[[int], Fraction]  # chance that an attack total is enough
    reaches: Callable[[int], bool]  # whether a rolled attack total is enough
    tie: str = ""  # said only when the attack total equals the value (the Aktive Abwehr's rule)
    # the defender's own Patzer on a Nahkampftalent: he rolls on the Patzertabelle (L406, L247)
    defender_fumble: bool = False

    def against(self, total: int) -> str:
        """What the attack total was against: „Aktive Abwehr 36“, and the tie rule only when
        there is a tie („… 36 – Gleichstand: der Verteidiger gewinnt“)."""
        if self.tie and total == self.info["value"]:
            return f"{self.text} – {self.tie}"
        return self.text


def roll_difficulty(
    params: dict[str, Any], rng: random.Random, ranged: bool, notes: list[str]
) -> Difficulty:
    """Schwierigkeit: Verteidigung, Zielwert eines unbeweglichen Ziels, oder Aktive Abwehr.

    The Aktive Abwehr is rolled here, before the attack probe (the seeded order relies on it).
    """
    verteidigung = params["verteidigung"]
    target_info: dict[str, Any]
    if params["aktive_abwehr"]:
        defender = probe_input(
            params, "abwehr_", modifiers=(("Modifikator", params["abwehr_modifier"]),)
        )
        defense_roll = roll_probe(defender, rng, "Aktive Abwehr")
        if defense_roll.critical or defense_roll.patzer:
            # shown, but without effect on the value (L247 names none)
            DATA.assume("angriff.abwehr_kritisch_patzer")
        defender_fumble = defense_roll.patzer and params["abwehr_talent"] == "nahkampftalent"
        if defense_roll.patzer:
            notes.append(
                "Patzer bei der Aktiven Abwehr, einer Probe auf ein Nahkampftalent (einem "
                "Kampftalent): der Verteidiger würfelt 2W10 auf der Patzertabelle."
                if defender_fumble
                else "Patzer bei der Aktiven Abwehr durch Ausweichen: Akrobatik ist kein "
                "Kampftalent, keine Patzertabelle."
            )
        factor = DATA.integer("angriff.abwehr_erfolg_faktor", 0, 10)
        defense_value = defense_roll.total + factor * defense_roll.erfolge
        succeeds = _defense_succeeds(defense_distribution(defender), verteidigung)
        reaches = functools.partial(
            _beats_defense, defense=defense_value, verteidigung=verteidigung
        )
        target_info = {
            "kind": "aktive_abwehr",
            "value": defense_value,
            "verteidigung": verteidigung,
            "defense": defense_roll.to_dict(),
        }
        target_text = f"Aktive Abwehr {number(defense_value)}"
        if ranged:
            notes.append(
                "Gegen Fernkampfangriffe ist eine Aktive Abwehr nur durch Ausweichen "
                "(Akrobatik) oder mit einem Schild möglich."
            )
        # L247: „Bei Gleichstand gewinnt der Verteidiger.“
        tie = "Gleichstand: der Verteidiger gewinnt"
        return Difficulty(
            defense_roll, target_info, target_text, succeeds, reaches, tie, defender_fumble
        )
    if params["unbewegliches_ziel"] != "nein":
        row = IMMOBILE[params["unbewegliches_ziel"]]
        value = int(row["zielwert"])
        target_info = {"kind": "unbewegliches_ziel", "value": value, "size": row["zielgroesse"]}
        target_text = f"Zielwert {value} ({row['zielgroesse']})"
    else:
        value = verteidigung
        target_info = {"kind": "verteidigung", "value": value}
        target_text = f"Verteidigung {number(value)}"
    return Difficulty(
        None, target_info, target_text, at_least(value), functools.partial(operator.le, value)
    )
