"""Ryssea's shared pieces: the system, its data and the probe machinery of every roll.

Owns ``SYSTEM`` and ``DATA`` (``regeln/ryssea.yaml``), the Annahmen lookup, and the
Einfache Probe that probe, attack, dodge_jump, interruption and teamwork all roll: the form
fields (``probe_fields``), Grundwert = (EIG1 + EIG2 + EIG3) / 2 + TaW, the talent dice with
Vorteil / Nachteil and their exact distributions, Kritischer Erfolg and Patzer with the
Bestätigungswurf, the Erfolgswürfel (TaW × W6), ``roll_probe`` (the seeded order: talent die,
confirmation, Erfolgswürfel) and ``probe_chances`` (draft chapter „Würfelsystem & Proben“,
ryssea-wiki commit 1489b4f; 000_5fbfd0ad384a0921.txt L186: reached or exceeded succeeds).
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine import dice, fight_contract
from engine.data_files import DataError, forecast, load
from engine.display import Display
from engine.formatting import number
from engine.params import ChoiceParam, IntParam, Param
from engine.registry import new_system

SOURCE = "000_5fbfd0ad384a0921.txt"
SYSTEM = new_system("ryssea", "Ryssea", SOURCE)
DATA = load("ryssea")
CONTRACT = fight_contract.declare("ryssea", DATA)  # the fight: life values, states, conditions


assumptions_for = DATA.assumptions_for

# ---------------------------------------------------------------------------------------------
# Proben (Würfelsystem & Proben – Entwurf; see regeln/ryssea.yaml `probe`)
# ---------------------------------------------------------------------------------------------

DIE_CHOICES = (
    ("normal", "W10"),
    ("unfaehig", "Unfähig: W8"),
    ("begabt", "Begabt: W12"),
    ("genie", "Genie: (W12 + W4) − 1"),
)
MODE_CHOICES = (
    ("normal", "normal"),
    ("vorteil", "Vorteil (besserer von zwei Würfeln)"),
    ("nachteil", "Nachteil (schlechterer von zwei Würfeln)"),
)
MODE_LABELS = dict(MODE_CHOICES)
DIE_LABELS = dict(DIE_CHOICES)
MAX_TAW = 30
MAX_EIGENSCHAFT = 40


def probe_fields(
    prefix: str = "",
    who: str = "",
    talent: str = "Talent",
    eig_default: int = 10,
    group: str = "",
    advanced: tuple[str, ...] = (),
    required_when: tuple[str, tuple[Any, ...]] | None = None,
    subject: str = "",
    when: tuple[tuple[str, tuple[Any, ...]], ...] = (),
) -> tuple[Param, ...]:
    """Eigenschaften, TaW, Talentwürfel and Vorteil/Nachteil of one probe (JSON keys prefixed).

    ``group`` and ``advanced`` (unprefixed field names) are the forms' presentation hints. The
    Eigenschaften and the TaW are required (or, with ``required_when``, required in that
    situation only); Talentwürfel and Vorteil/Nachteil default to the usual normal die.
    ``subject`` (whose values: "actor" or "target") applies to the Eigenschaften, the TaW and
    the Talentwürfel – the fighter's own values; Vorteil / Nachteil is the situation of the roll.
    ``when`` applies to every field.
    """
    lead = f"{who} – " if who else ""
    return (
        *(
            IntParam(
                f"{prefix}eig{i}",
                f"{lead}Eigenschaft {i}",
                default=eig_default,
                minimum=0,
                maximum=MAX_EIGENSCHAFT,
                help=f"Eine der drei Eigenschaften des Talents ({talent}).",
                group=group,
                advanced=f"eig{i}" in advanced,
                required=required_when is None,
                required_when=required_when,
                subject=subject,
                when=when,
            )
            for i in (1, 2, 3)
        ),
        IntParam(
            f"{prefix}taw",
            f"{lead}Talentwert (TaW)",
            default=5,
            minimum=0,
            maximum=MAX_TAW,
            help="Geht in den Grundwert ein und ist die Zahl der Erfolgswürfel (W6).",
            group=group,
            advanced="taw" in advanced,
            required=required_when is None,
            required_when=required_when,
            subject=subject,
            when=when,
        ),
        ChoiceParam(
            f"{prefix}wuerfel",
            f"{lead}Talentwürfel",
            choices=DIE_CHOICES,
            help="W10; Unfähig W8, Begabt W12, Genie (W12 + W4) − 1.",
            group=group,
            advanced="wuerfel" in advanced,
            subject=subject,
            when=when,
        ),
        ChoiceParam(
            f"{prefix}wurf_art",
            f"{lead}Vorteil / Nachteil",
            choices=MODE_CHOICES,
            help="Mit Vorteil oder Nachteil wird ein zweiter Talentwürfel geworfen.",
            group=group,
            advanced="wurf_art" in advanced,
            when=when,
        ),
    )


def grundwert(eig: tuple[int, int, int], taw: int) -> int:
    """(EIG1 + EIG2 + EIG3) / 2 + TaW, rounded as the data says (Annahme: down; read, and so
    named in the result, only when the sum does not divide evenly)."""
    divisor = DATA.integer("probe.grundwert_teiler", 1, 10)
    total = sum(eig)
    if total % divisor == 0:
        return total // divisor + taw
    rounding = DATA.text("probe.grundwert_rundung")
    if rounding == "abrunden":
        half = total // divisor
    elif rounding == "aufrunden":
        half = -(-total // divisor)
    else:
        raise DataError(DATA.file, "probe.grundwert_rundung", "abrunden oder aufrunden")
    return half + taw


def die_expression(kind: str) -> dice.Expression:
    return DATA.dice(f"probe.wuerfel.{kind}", "Talentwürfel")


@functools.cache
def die_distribution(kind: str, mode: str) -> dict[int, Fraction]:
    """Distribution of the kept talent die (Vorteil: better of two, Nachteil: worse of two)."""
    base = dice.distribution(die_expression(kind))
    if mode == "normal":
        return base
    values = sorted(base)
    out: dict[int, Fraction] = {}
    below = Fraction(0)
    for value in values:
        upto = below + base[value]
        if mode == "vorteil":
            out[value] = upto**2 - below**2
        else:
            out[value] = (1 - below) ** 2 - (1 - upto) ** 2
        below = upto
    return out


def _thresholds() -> tuple[int, int, int, int]:
    crit_from = DATA.integer("probe.kritisch_ausloeser_ab", -100, 100)
    fumble_to = DATA.integer("probe.patzer_ausloeser_bis", -100, 100)
    if fumble_to >= crit_from:
        raise DataError(
            DATA.file, "probe.patzer_ausloeser_bis", "muss kleiner als kritisch_ausloeser_ab sein"
        )
    return (
        crit_from,
        DATA.integer("probe.kritisch_summe_ab", -100, 200),
        fumble_to,
        DATA.integer("probe.patzer_summe_bis", -100, 200),
    )


def confirmation_due(value: int) -> bool:
    """Whether a talent die showing ``value`` calls for the Bestätigungswurf (9 or more for a
    Kritischer Erfolg, 2 or less for a Patzer)."""
    crit_from, _, fumble_to, _ = _thresholds()
    return value >= crit_from or value <= fumble_to


@functools.cache
def crit_given(value: int) -> Fraction:
    """Chance of a Kritischer Erfolg when the kept talent die shows ``value``."""
    crit_from, crit_sum, _, _ = _thresholds()
    if value < crit_from:
        return Fraction(0)
    confirm = DATA.dice("probe.bestaetigungswurf", "Bestätigungswurf")
    return dice.probability(confirm, lambda t: value + t >= crit_sum)


@functools.cache
def patzer_given(value: int) -> Fraction:
    """Chance of a Patzer when the kept talent die shows ``value``."""
    _, _, fumble_to, fumble_sum = _thresholds()
    if value > fumble_to:
        return Fraction(0)
    confirm = DATA.dice("probe.bestaetigungswurf", "Bestätigungswurf")
    return dice.probability(confirm, lambda t: value + t <= fumble_sum)


def _success_die() -> tuple[dice.Expression, int]:
    expression = DATA.dice("probe.erfolgswuerfel", "Erfolgswürfel")
    if len(expression.terms) != 1 or expression.terms[0].count != 1 or expression.constant:
        raise DataError(DATA.file, "probe.erfolgswuerfel", "muss ein einzelner Würfel sein")
    sides = expression.terms[0].sides
    return expression, sides


@functools.cache
def erfolge_distribution(taw: int) -> tuple[Fraction, ...]:
    """P(k Erfolge) for k = 0…TaW: each W6 showing 5 or 6 is one Erfolg (binomial)."""
    _, sides = _success_die()
    threshold = DATA.integer("probe.erfolg_ab", 1, sides)
    p = Fraction(sides - threshold + 1, sides)
    return tuple(math.comb(taw, k) * p**k * (1 - p) ** (taw - k) for k in range(taw + 1))


def expected_erfolge(taw: int) -> Fraction:
    return sum((k * p for k, p in enumerate(erfolge_distribution(taw))), Fraction(0))


@dataclass(frozen=True)
class ProbeInput:
    """One Einfache Probe: who rolls, with what, and the named modifiers (+ = bonus)."""

    eig: tuple[int, int, int]
    taw: int
    die: str
    mode: str
    modifiers: tuple[tuple[str, int], ...] = ()

    @property
    def grundwert(self) -> int:
        return grundwert(self.eig, self.taw)

    @property
    def modifier_total(self) -> int:
        return sum(v for _, v in self.modifiers)

    @property
    def base(self) -> int:
        return self.grundwert + self.modifier_total


def probe_input(
    params: dict[str, Any], prefix: str = "", modifiers: tuple[tuple[str, int], ...] = ()
) -> ProbeInput:
    return ProbeInput(
        eig=(params[f"{prefix}eig1"], params[f"{prefix}eig2"], params[f"{prefix}eig3"]),
        taw=params[f"{prefix}taw"],
        die=params[f"{prefix}wuerfel"],
        mode=params[f"{prefix}wurf_art"],
        modifiers=tuple((name, value) for name, value in modifiers if value),
    )


@dataclass(frozen=True)
class ProbeChances:
    success: Fraction
    critical: Fraction
    patzer: Fraction


def probe_chances(probe: ProbeInput, succeeds: Callable[[int], Fraction]) -> ProbeChances:
    """Exact chances of the probe; ``succeeds(total)`` is the chance that a total is enough."""
    with forecast():
        crit_wins = DATA.flag("probe.kritisch_gelingt")
        fumble_fails = DATA.flag("probe.patzer_misslingt")
    success = critical = patzer = Fraction(0)
    for value, p in die_distribution(probe.die, probe.mode).items():
        plain = succeeds(probe.base + value)
        crit = crit_given(value)
        fumble = patzer_given(value)
        success += p * (
            crit * (1 if crit_wins else plain)
            + fumble * (0 if fumble_fails else plain)
            + (1 - crit - fumble) * plain
        )
        critical += p * crit
        patzer += p * fumble
    return ProbeChances(success, critical, patzer)


@dataclass
class ProbeRoll:
    probe: ProbeInput
    label: str
    rolls: list[tuple[str, dice.RollResult]]
    value: int
    confirmation: dice.RollResult | None
    critical: bool
    patzer: bool
    pool: dice.RollResult | None
    erfolge: int

    @property
    def total(self) -> int:
        return self.probe.base + self.value

    def succeeded(self, reaches: bool) -> bool:
        """Reached or exceeded – unless a Kritischer Erfolg or a Patzer decides otherwise (the
        Annahmen are read, and named, only when they go against the value)."""
        if self.critical and not reaches:
            return DATA.flag("probe.kritisch_gelingt")
        if self.patzer and reaches:
            return not DATA.flag("probe.patzer_misslingt")
        return reaches

    def to_dict(self) -> dict[str, Any]:
        return {
            "grundwert": self.probe.grundwert,
            "talent_die": DIE_LABELS[self.probe.die],
            "mode": self.probe.mode,
            "die_value": self.value,
            "modifiers": [{"name": n, "value": v} for n, v in self.probe.modifiers],
            "total": self.total,
            "critical": self.critical,
            "patzer": self.patzer,
            "erfolge": self.erfolge,
            "rolls": [{"label": label, **r.to_dict()} for label, r in self.rolls],
            "confirmation": None if self.confirmation is None else self.confirmation.to_dict(),
            "erfolgswuerfel": None if self.pool is None else self.pool.to_dict(),
        }

    def show(self, display: Display) -> None:
        """Every die and every named modifier of this probe."""
        mods = [("Grundwert", self.probe.grundwert), *self.probe.modifiers]
        for index, (label, rolled) in enumerate(self.rolls):
            if index == len(self.rolls) - 1:
                display.roll(f"{self.label}: {label}", rolled, mods, total=self.total)
            else:
                display.roll(f"{self.label}: {label}", rolled)
        if self.confirmation is not None:
            crit_from, crit_sum, _, fumble_sum = _thresholds()
            if self.value >= crit_from:
                what, needed = "Kritischer Erfolg?", f"{number(crit_sum)} oder mehr"
                verdict = (
                    "bestätigt – Kritischer Erfolg"
                    if self.critical
                    else ("nicht bestätigt – kein Kritischer Erfolg")
                )
            else:
                what, needed = "Patzer?", f"{number(fumble_sum)} oder weniger"
                verdict = "bestätigt – Patzer" if self.patzer else "nicht bestätigt – kein Patzer"
            display.roll(
                f"{self.label}: Bestätigungswurf ({what})",
                self.confirmation,
                [("Talentwürfel", self.value)],
                total=self.value + self.confirmation.total,
                decision=f"(nötig: {needed}): {verdict}",
            )
        if self.pool is not None:
            threshold = DATA.integer("probe.erfolg_ab", 1, 100)
            display.roll(
                f"{self.label}: Erfolgswürfel (jede {threshold} oder mehr ist ein Erfolg)",
                self.pool,
                total=self.erfolge,
            )


def roll_probe(
    probe: ProbeInput,
    rng: random.Random,
    label: str,
    with_erfolge: bool = True,
    confirm: bool = True,
) -> ProbeRoll:
    """Roll the talent die (twice with Vorteil/Nachteil), the confirmation and the Erfolge.

    ``confirm=False``: no Bestätigungswurf (a probe whose Kritischer Erfolg or Patzer has no
    effect, e.g. the comparison of the Überraschung)."""
    expression = die_expression(probe.die)
    single = (
        len(expression.terms) == 1 and expression.terms[0].count == 1 and not expression.constant
    )
    rolls: list[tuple[str, dice.RollResult]] = []
    if probe.mode == "normal":
        rolled = dice.roll(expression, rng)
        rolls.append(("Talentwürfel", rolled))
        value = rolled.total
        shown = [value]
    elif single:
        keep = "kh1" if probe.mode == "vorteil" else "kl1"
        pair = dice.parse(f"2W{expression.terms[0].sides}{keep}", "wurf_art", "Vorteil / Nachteil")
        rolled = dice.roll(pair, rng)
        rolls.append((f"Talentwürfel ({MODE_LABELS[probe.mode]})", rolled))
        value = rolled.total
        shown = [d.value for d in rolled.dice]
    else:
        first = dice.roll(expression, rng)
        second = dice.roll(expression, rng)
        better = second.total > first.total
        keep_second = better if probe.mode == "vorteil" else second.total < first.total
        kept, dropped = (second, first) if keep_second else (first, second)
        rolls.append(("Talentwürfel (verworfen)", dropped))
        rolls.append((f"Talentwürfel ({MODE_LABELS[probe.mode]}, behalten)", kept))
        value = kept.total
        shown = [first.total, second.total]
    crit_from, crit_sum, fumble_to, fumble_sum = _thresholds()
    confirmation = None
    critical = patzer = False
    if confirm and (value >= crit_from or value <= fumble_to):
        confirmation = dice.roll(DATA.dice("probe.bestaetigungswurf", "Bestätigungswurf"), rng)
        critical = value >= crit_from and value + confirmation.total >= crit_sum
        patzer = value <= fumble_to and value + confirmation.total <= fumble_sum
        if probe.die != "normal":
            # the draft gives the thresholds for the W10 only
            DATA.assume("probe.andere_wuerfel")
    reached = any(v >= crit_from or v <= fumble_to for v in shown)
    if confirm and probe.mode != "normal" and reached:
        # one of the two dice reached a threshold: the kept one decides
        DATA.assume("probe.vorteil_behaltener_wuerfel")
    pool = None
    erfolge = 0
    if with_erfolge and probe.taw > 0:
        _, sides = _success_die()
        threshold = DATA.integer("probe.erfolg_ab", 1, sides)
        pool = dice.roll(dice.die(sides, probe.taw), rng)
        erfolge = sum(1 for d in pool.dice if d.value >= threshold)
    return ProbeRoll(probe, label, rolls, value, confirmation, critical, patzer, pool, erfolge)


def at_least(target: int) -> Callable[[int], Fraction]:
    return lambda total: Fraction(1 if total >= target else 0)


def probe_flags(roll: ProbeRoll) -> str:
    if roll.critical:
        return " Kritischer Erfolg!"
    if roll.patzer:
        return " Patzer!"
    return ""
