"""Ryssea (source 000_5fbfd0ad384a0921.txt): the Tickleiste and its rolls."""

from __future__ import annotations

import functools
import math
import operator
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from engine import dice
from engine.data_files import DataError, load
from engine.display import Display
from engine.errors import EngineError
from engine.formatting import decimal, number, signed
from engine.ordering import check_unique_names, order_groups, roll_off
from engine.params import (
    BoolParam,
    ChoiceParam,
    DiceParam,
    IntParam,
    ListParam,
    Param,
    TextParam,
)
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

    def note(intuition: int, fighter: Fighter) -> None:
        fighter.tie_note = f"Intuition {intuition}"

    ordered, _ = order_groups(
        group,
        lambda f: f.intuition,
        lambda same: _roll_off(same, rng),
        descending=True,
        single=note,
    )
    return ordered


def _roll_off(group: list[Fighter], rng: random.Random) -> list[Fighter]:
    """Each rolls the Stechen die, higher first; those still equal roll again (Annahme)."""
    repeat = DATA.flag("initiative.wiederholung_bei_gleichstand")
    limit = DATA.integer("initiative.stechen_hoechstens", 1, 10_000)

    def record(fighter: Fighter, value: int) -> None:
        fighter.rolloff.append(value)
        fighter.tie_note = "Stechen " + " · ".join(str(v) for v in fighter.rolloff)

    ordered, unresolved = roll_off(group, _rolloff_die(), rng, record, limit if repeat else 1)
    if unresolved and repeat:
        raise EngineError(f"Stechen: nach {limit} Würfen noch unentschieden.", "fighters")
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


def roll_initiative(
    rows: list[dict[str, Any]], rng: random.Random
) -> tuple[list[Fighter], list[Fighter], list[dict[str, Any]]]:
    """Roll INI + 1W6 + Mods for everyone at combat start (L17–L25, L43).

    Returns the fighters in input order, in acting order, and the ties with how they were
    resolved.
    """
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
    order, tied = order_groups(
        fighters, lambda f: f.tick, lambda group: _resolve_tie(group, rng), descending=False
    )
    ties = [
        {
            "tick": tick,
            "names": [f.name for f in resolved],
            "rolloff": {f.name: list(f.rolloff) for f in resolved if f.rolloff},
        }
        for tick, resolved in tied
    ]
    return fighters, order, ties


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
    check_unique_names(rows)
    fighters, order, ties = roll_initiative(rows, rng)
    penalty = _surprise_ticks()

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


# =============================================================================================
# Proben (Würfelsystem & Proben – Entwurf; see engine/data/ryssea.yaml `probe`)
# =============================================================================================

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
) -> tuple[Param, ...]:
    """Eigenschaften, TaW, Talentwürfel and Vorteil/Nachteil of one probe (JSON keys prefixed).

    ``group`` and ``advanced`` (unprefixed field names) are the forms' presentation hints.
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
        ),
        ChoiceParam(
            f"{prefix}wuerfel",
            f"{lead}Talentwürfel",
            choices=DIE_CHOICES,
            help="W10; Unfähig W8, Begabt W12, Genie (W12 + W4) − 1.",
            group=group,
            advanced="wuerfel" in advanced,
        ),
        ChoiceParam(
            f"{prefix}wurf_art",
            f"{lead}Vorteil / Nachteil",
            choices=MODE_CHOICES,
            help="Mit Vorteil oder Nachteil wird ein zweiter Talentwürfel geworfen.",
            group=group,
            advanced="wurf_art" in advanced,
        ),
    )


def _assumptions(*prefixes: str) -> tuple[str, ...]:
    return tuple(
        a["text"] for a in DATA.assumptions() if any(a["key"].startswith(p) for p in prefixes)
    )


def grundwert(eig: tuple[int, int, int], taw: int) -> int:
    """(EIG1 + EIG2 + EIG3) / 2 + TaW, rounded as the data says (Annahme: down)."""
    divisor = DATA.integer("probe.grundwert_teiler", 1, 10)
    rounding = DATA.text("probe.grundwert_rundung")
    total = sum(eig)
    if rounding == "abrunden":
        half = total // divisor
    elif rounding == "aufrunden":
        half = -(-total // divisor)
    else:
        raise DataError(DATA.file, "probe.grundwert_rundung", "abrunden oder aufrunden")
    return half + taw


def _data_dice(key: str, label: str) -> dice.Expression:
    return dice.parse(DATA.text(key), key, label)


def die_expression(kind: str) -> dice.Expression:
    return _data_dice(f"probe.wuerfel.{kind}", "Talentwürfel")


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


@functools.cache
def crit_given(value: int) -> Fraction:
    """Chance of a Kritischer Erfolg when the kept talent die shows ``value``."""
    crit_from, crit_sum, _, _ = _thresholds()
    if value < crit_from:
        return Fraction(0)
    confirm = _data_dice("probe.bestaetigungswurf", "Bestätigungswurf")
    return dice.probability(confirm, lambda t: value + t >= crit_sum)


@functools.cache
def patzer_given(value: int) -> Fraction:
    """Chance of a Patzer when the kept talent die shows ``value``."""
    _, _, fumble_to, fumble_sum = _thresholds()
    if value > fumble_to:
        return Fraction(0)
    confirm = _data_dice("probe.bestaetigungswurf", "Bestätigungswurf")
    return dice.probability(confirm, lambda t: value + t <= fumble_sum)


def _success_die() -> tuple[dice.Expression, int]:
    expression = _data_dice("probe.erfolgswuerfel", "Erfolgswürfel")
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
        if self.critical and DATA.flag("probe.kritisch_gelingt"):
            return True
        if self.patzer and DATA.flag("probe.patzer_misslingt"):
            return False
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
            what = "Kritischer Erfolg?" if self.value >= _thresholds()[0] else "Patzer?"
            display.roll(
                f"{self.label}: Bestätigungswurf ({what})",
                self.confirmation,
                [("Talentwürfel", self.value)],
                total=self.value + self.confirmation.total,
            )
        if self.pool is not None:
            threshold = DATA.integer("probe.erfolg_ab", 1, 100)
            display.roll(
                f"{self.label}: Erfolgswürfel (jede {threshold} oder mehr ist ein Erfolg)",
                self.pool,
                total=self.erfolge,
            )


def roll_probe(
    probe: ProbeInput, rng: random.Random, label: str, with_erfolge: bool = True
) -> ProbeRoll:
    """Roll the talent die (twice with Vorteil/Nachteil), the confirmation and the Erfolge."""
    expression = die_expression(probe.die)
    single = (
        len(expression.terms) == 1 and expression.terms[0].count == 1 and not expression.constant
    )
    rolls: list[tuple[str, dice.RollResult]] = []
    if probe.mode == "normal":
        rolled = dice.roll(expression, rng)
        rolls.append(("Talentwürfel", rolled))
        value = rolled.total
    elif single:
        keep = "kh1" if probe.mode == "vorteil" else "kl1"
        pair = dice.parse(f"2W{expression.terms[0].sides}{keep}", "wurf_art", "Vorteil / Nachteil")
        rolled = dice.roll(pair, rng)
        rolls.append((f"Talentwürfel ({MODE_LABELS[probe.mode]})", rolled))
        value = rolled.total
    else:
        first = dice.roll(expression, rng)
        second = dice.roll(expression, rng)
        better = second.total > first.total
        keep_second = better if probe.mode == "vorteil" else second.total < first.total
        kept, dropped = (second, first) if keep_second else (first, second)
        rolls.append(("Talentwürfel (verworfen)", dropped))
        rolls.append((f"Talentwürfel ({MODE_LABELS[probe.mode]}, behalten)", kept))
        value = kept.total
    crit_from, crit_sum, fumble_to, fumble_sum = _thresholds()
    confirmation = None
    critical = patzer = False
    if value >= crit_from or value <= fumble_to:
        confirmation = dice.roll(_data_dice("probe.bestaetigungswurf", "Bestätigungswurf"), rng)
        critical = value >= crit_from and value + confirmation.total >= crit_sum
        patzer = value <= fumble_to and value + confirmation.total <= fumble_sum
    pool = None
    erfolge = 0
    if with_erfolge and probe.taw > 0:
        _, sides = _success_die()
        threshold = DATA.integer("probe.erfolg_ab", 1, sides)
        pool = dice.roll(dice.die(sides, probe.taw), rng)
        erfolge = sum(1 for d in pool.dice if d.value >= threshold)
    return ProbeRoll(probe, label, rolls, value, confirmation, critical, patzer, pool, erfolge)


def _at_least(target: int) -> Callable[[int], Fraction]:
    return lambda total: Fraction(1 if total >= target else 0)


def _probe_flags(roll: ProbeRoll) -> str:
    if roll.critical:
        return " Kritischer Erfolg!"
    if roll.patzer:
        return " Patzer!"
    return ""


def _erfolge_chances(taw: int) -> list[tuple[str, Fraction]]:
    return [
        (f"{k} {'Erfolg' if k == 1 else 'Erfolge'}", p)
        for k, p in enumerate(erfolge_distribution(taw))
    ]


# ---------------------------------------------------------------------------------------------
# Einfache Probe
# ---------------------------------------------------------------------------------------------


@SYSTEM.action(
    "probe",
    title="Einfache Probe mit Erfolgswürfeln",
    summary=(
        "Grundwert + Talentwürfel (W10; Unfähig W8, Begabt W12, Genie (W12 + W4) − 1) gegen eine "
        "Schwierigkeit, gelungen ab Gleichstand; dazu TaW × W6, jede 5 oder 6 ist ein Erfolg."
    ),
    source=(
        "Entwurf „Würfelsystem & Proben“ (ryssea-wiki, Commit 1489b4f); "
        f"{SOURCE} L186 (Erreicht oder übertrifft)"
    ),
    params=(
        *probe_fields(group="Talent"),
        IntParam(
            "schwierigkeit",
            "Schwierigkeit",
            default=25,
            minimum=0,
            maximum=99,
            help="Gelungen, wenn Grundwert + Würfel + Modifikator sie erreicht oder übertrifft.",
            group="Probe",
        ),
        IntParam(
            "modifikator",
            "Modifikator",
            default=0,
            minimum=-30,
            maximum=30,
            help="Bonus (+) oder Malus (−) auf die Probe.",
            group="Probe",
        ),
        BoolParam(
            "erfolgsprobe",
            "Erfolgswürfel werfen",
            default=True,
            help="TaW × W6 für Meisterschaften und Manöver.",
            group="Probe",
        ),
    ),
    assumptions=_assumptions("probe."),
)
def probe(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    spec = probe_input(params, modifiers=(("Modifikator", params["modifikator"]),))
    target = params["schwierigkeit"]
    rolled = roll_probe(spec, rng, "Probe", with_erfolge=params["erfolgsprobe"])
    success = rolled.succeeded(rolled.total >= target)
    chances = probe_chances(spec, _at_least(target))
    outcome = (
        f"{'Gelungen' if success else 'Misslungen'}: {number(rolled.total)} gegen "
        f"Schwierigkeit {number(target)}.{_probe_flags(rolled)}"
    )
    if params["erfolgsprobe"]:
        outcome += f" {rolled.erfolge} {'Erfolg' if rolled.erfolge == 1 else 'Erfolge'}."
    display = Display(headline="Einfache Probe", outcome=outcome)
    rolled.show(display)
    display.chances(
        "Chancen vor dem Wurf",
        [
            ("Probe gelingt", chances.success),
            ("Kritischer Erfolg", chances.critical),
            ("Patzer", chances.patzer),
        ],
    )
    result: dict[str, Any] = {
        "probe": rolled.to_dict(),
        "difficulty": target,
        "success": success,
        "chances": {
            "success": str(chances.success),
            "critical": str(chances.critical),
            "patzer": str(chances.patzer),
        },
    }
    if params["erfolgsprobe"]:
        display.chances(
            f"Erfolge aus {spec.taw} W6 (Erwartung {decimal(expected_erfolge(spec.taw))})",
            _erfolge_chances(spec.taw),
        )
        result["chances"]["erfolge"] = {
            str(k): str(p) for k, p in enumerate(erfolge_distribution(spec.taw))
        }
        result["chances"]["expected_erfolge"] = str(expected_erfolge(spec.taw))
    notes = [f"Grundwert = ({' + '.join(map(str, spec.eig))}) / 2 + {spec.taw}"]
    if rolled.patzer:
        notes.append(
            "Patzer bei einer Probe auf ein Kampftalent: 2W10 auf der Patzertabelle (L406)."
        )
    display.notes("Hinweise", notes)
    result["display"] = display.to_dict()
    return result


# =============================================================================================
# Angriff: Nahkampf, Fernkampf, Schildstoß (L47–L82, L184–L226, L245–L253, L307–L380)
# =============================================================================================

POSITION_ROWS = DATA.table(
    "tabellen.kampfpositionen.zeilen",
    (
        "schluessel",
        "position",
        "wert_eigen_nah",
        "wert_eigen_fern",
        "wert_gegner_nah",
        "wert_gegner_fern",
    ),
)
POSITIONS = {str(row["schluessel"]): row for row in POSITION_ROWS}
POSITION_CHOICES = tuple((str(r["schluessel"]), str(r["position"])) for r in POSITION_ROWS)
IMMOBILE_ROWS = DATA.table(
    "tabellen.unbewegliche_ziele.zeilen", ("schluessel", "zielgroesse", "beispiel", "zielwert")
)
IMMOBILE = {str(row["schluessel"]): row for row in IMMOBILE_ROWS}
IMMOBILE_CHOICES = (
    ("nein", "nein – bewegliches Ziel (Verteidigung)"),
    *(
        (str(r["schluessel"]), f"{r['zielgroesse']} ({r['beispiel']}): {r['zielwert']}")
        for r in IMMOBILE_ROWS
    ),
)
ATTACK_KINDS = (
    ("nahkampf", "Nahkampfangriff"),
    ("fernkampf", "Fernkampfangriff"),
    ("schildstoss", "Schildstoß"),
)
ATTACK_LABELS = dict(ATTACK_KINDS)
MAX_DAMAGE_DICE = 10
MAX_DAMAGE_SIDES = 100

ATTACK_PARAMS: tuple[Param, ...] = (
    ChoiceParam(
        "angriffsart",
        "Angriffsart",
        choices=ATTACK_KINDS,
        help="Schildstoß: 1W6+1 Schaden, keine Meisterschafts-Manöver (L200).",
        group="Angreifer",
    ),
    *probe_fields(
        talent="Kampftalent; beim Schildstoß BW und KK, L200",
        group="Angreifer",
        advanced=("wuerfel",),
    ),
    DiceParam(
        "schaden",
        "Waffenschaden",
        default="1W6+3",
        help="Schaden der Waffe als Würfelausdruck, z. B. 1W10+2 (beim Schildstoß nicht genutzt).",
        group="Angreifer",
    ),
    IntParam(
        "verteidigung",
        "Verteidigung des Ziels",
        default=25,
        minimum=0,
        maximum=99,
        help="Schwierigkeit des Angriffs: Treffer, wenn erreicht oder übertroffen (L186).",
        group="Ziel und Abwehr",
    ),
    ChoiceParam(
        "unbewegliches_ziel",
        "Unbewegliches Ziel",
        choices=IMMOBILE_CHOICES,
        help="Nur Fernkampf: der Zielwert der Tabelle Unbewegliche Ziele ersetzt die Verteidigung.",
        group="Ziel und Abwehr",
        advanced=True,
    ),
    BoolParam(
        "aktive_abwehr",
        "Aktive Abwehr des Ziels",
        help=(
            "Probe + 2 × Erfolge des Verteidigers wird zur Schwierigkeit; Gleichstand: Verteidiger."
        ),
        group="Ziel und Abwehr",
    ),
    *probe_fields(
        "abwehr_",
        "Abwehr",
        talent="Nahkampftalent oder Akrobatik; Schild: IN + KK",
        group="Ziel und Abwehr",
        advanced=("wuerfel", "wurf_art"),
    ),
    IntParam(
        "abwehr_modifikator",
        "Abwehr – Modifikator",
        default=0,
        minimum=-30,
        maximum=30,
        help="Bonus (+) oder Malus (−) auf die Probe der Aktiven Abwehr.",
        group="Ziel und Abwehr",
        advanced=True,
    ),
    IntParam(
        "taktischer_vorteil",
        "Taktische Vorteile",
        default=0,
        minimum=0,
        maximum=5,
        help="Je Taktischem Vorteil +3; mehrere zählen zusammen (L360).",
        group="Modifikatoren",
    ),
    IntParam(
        "ueberzahl",
        "Überzählige Kämpfer",
        default=0,
        minimum=0,
        maximum=20,
        help=(
            "Nur Nahkampf: +1 je überzähligem Kämpfer, höchstens +3; ein Koloss zählt seine Stufe."
        ),
        group="Modifikatoren",
    ),
    ChoiceParam(
        "position_eigen",
        "Eigene Kampfposition",
        choices=POSITION_CHOICES,
        help="Tabelle Kampfpositionen: eigene Nah- bzw. Fernkampf-Angriffe.",
        group="Modifikatoren",
        advanced=True,
    ),
    ChoiceParam(
        "position_ziel",
        "Kampfposition des Ziels",
        choices=POSITION_CHOICES,
        help="Tabelle Kampfpositionen: gegnerische Angriffe auf das Ziel.",
        group="Modifikatoren",
        advanced=True,
    ),
    IntParam(
        "licht",
        "Lichtverhältnisse",
        default=0,
        minimum=-20,
        maximum=0,
        help="Malus durch schlechte Sicht auf das Ziel, z. B. −3 für leichten Nebel im Tageslicht.",
        group="Modifikatoren",
        advanced=True,
    ),
    ChoiceParam(
        "wasser",
        "Wasser",
        choices=(
            ("keins", "kein Wasser"),
            ("hueft", "hüfthohes Wasser (−3)"),
            ("unter", "unter Wasser (−6)"),
        ),
        help="Für Handlungen, in die KK, KO oder BW eingehen (L346).",
        group="Modifikatoren",
        advanced=True,
    ),
    IntParam(
        "vorbereitung_ticks",
        "Lücke suchen / Zielen (Ticks)",
        default=0,
        minimum=0,
        maximum=60,
        help="Je 2 Ticks +1, höchstens +3 (Lücke suchen im Nahkampf, Zielen im Fernkampf).",
        group="Modifikatoren",
    ),
    IntParam(
        "zusammenarbeit",
        "Zusammenarbeit",
        default=0,
        minimum=-20,
        maximum=40,
        help="Gesammelter Bonus oder Malus der Helfer (Aktion Zusammenarbeit).",
        group="Modifikatoren",
        advanced=True,
    ),
    IntParam(
        "modifikator",
        "Sonstige Modifikatoren",
        default=0,
        minimum=-30,
        maximum=30,
        help="Weitere Boni (+) oder Mali (−), etwa aus Meisterschaften.",
        group="Modifikatoren",
    ),
    BoolParam(
        "kampfgetuemmel",
        "Ziel im Kampfgetümmel",
        help="Nur Fernkampf: −6; misslingt die Probe, geht der Schuss ins Leere (L222).",
        group="Fernkampf",
        advanced=True,
    ),
    IntParam(
        "grundreichweite",
        "Grundreichweite (m)",
        default=20,
        minimum=1,
        maximum=1000,
        help="Nur Fernkampf: Reichweite laut Waffenbeschreibung.",
        group="Fernkampf",
    ),
    IntParam(
        "entfernung",
        "Entfernung (m)",
        default=10,
        minimum=0,
        maximum=6000,
        help="Nur Fernkampf: je angefangene Grundreichweite darüber 1 Erfolg, höchstens 6-fach.",
        group="Fernkampf",
    ),
    ChoiceParam(
        "deckung",
        "Deckung des Ziels",
        choices=(
            ("keine", "keine"),
            ("leicht", "Leichte Deckung (1 Erfolg)"),
            ("schwer", "Schwere Deckung (2 Erfolge)"),
        ),
        help="Nur Fernkampf: fehlen die Erfolge, trifft der Angriff die Deckung (L220).",
        group="Fernkampf",
        advanced=True,
    ),
    IntParam(
        "meisterschafts_manoever",
        "Angesagte Meisterschafts-Manöver",
        default=0,
        minimum=0,
        maximum=5,
        help="Je 1 Erfolg; fehlen Erfolge, wird es ein Streiftreffer (L73–L82).",
        group="Manöver",
    ),
    ChoiceParam(
        "manoever_schaden",
        "Schaden der Manöver",
        choices=(
            ("voll", "voller Schaden"),
            ("halb", "halber Schaden"),
            ("kein", "kein Schaden"),
        ),
        help="Wenn ein angesagtes Manöver den Schaden halbiert oder aufhebt (L73, L81).",
        group="Manöver",
        advanced=True,
    ),
    ChoiceParam(
        "streiftreffer_folge",
        "Streiftreffer",
        choices=(
            ("schaden", "Schaden −2 je Manöver"),
            ("betaeubung", "stattdessen 2 Betäubungsschaden je Manöver für mich"),
        ),
        help="Nachteil beim Streiftreffer (L82).",
        group="Manöver",
        advanced=True,
    ),
    BoolParam(
        "betaeubungsschlag",
        "Betäubungsschlag",
        help="Nur Nahkampf: für 1 Erfolg wird der Schaden zu Betäubungsschaden (L190).",
        group="Manöver",
    ),
    ChoiceParam(
        "erfolge_rest",
        "Übrige Erfolge für",
        choices=(
            ("wuchtangriff", "Wuchtangriff (+1 Schaden je Erfolg)"),
            ("stoerender_angriff", "Störender Angriff (+3 auf die Unterbrechung je Erfolg)"),
            ("keine", "nicht verwenden"),
        ),
        help="Freie Manöver nach dem Wurf (L188–L194).",
        group="Manöver",
    ),
    BoolParam(
        "gelegenheitsangriff",
        "Gelegenheitsangriff",
        help="Nur Nahkampf; nicht mit Meisterschafts-Manövern kombinierbar (L86).",
        group="Manöver",
    ),
)


def _require(condition: bool, message: str, field_name: str) -> None:
    if not condition:
        raise EngineError(message, field_name)


def _check_attack(params: dict[str, Any]) -> None:
    kind = params["angriffsart"]
    ranged = kind == "fernkampf"
    if not ranged:
        what = f"gilt nur für Fernkampfangriffe, nicht für {ATTACK_LABELS[kind]}"
        _require(not params["kampfgetuemmel"], f"Ziel im Kampfgetümmel: {what}.", "kampfgetuemmel")
        _require(params["deckung"] == "keine", f"Deckung des Ziels: {what}.", "deckung")
        _require(
            params["unbewegliches_ziel"] == "nein",
            f"Unbewegliches Ziel: {what} (L224).",
            "unbewegliches_ziel",
        )
    else:
        only_melee = "gilt nur für Nahkampfangriffe"
        _require(
            params["ueberzahl"] == 0, f"Überzählige Kämpfer: {only_melee} (L370).", "ueberzahl"
        )
        _require(
            not params["betaeubungsschlag"],
            f"Betäubungsschlag: {only_melee} (L190).",
            "betaeubungsschlag",
        )
        _require(
            not params["gelegenheitsangriff"],
            f"Gelegenheitsangriff: {only_melee} (L86).",
            "gelegenheitsangriff",
        )
        factor = DATA.integer("angriff.reichweite_hoechstens_faktor", 1, 100)
        limit = factor * params["grundreichweite"]
        _require(
            params["entfernung"] <= limit,
            f"Entfernung (m): {number(params['entfernung'])} m liegt außerhalb der Reichweite; "
            f"höchstens das {factor}-fache der Grundreichweite, also {number(limit)} m (L210).",
            "entfernung",
        )
    mastery = params["meisterschafts_manoever"]
    if mastery:
        _require(
            kind != "schildstoss",
            "Angesagte Meisterschafts-Manöver: beim Schildstoß nicht möglich (L200).",
            "meisterschafts_manoever",
        )
        _require(
            not params["gelegenheitsangriff"],
            "Angesagte Meisterschafts-Manöver: nicht mit einem Gelegenheitsangriff (L86).",
            "meisterschafts_manoever",
        )
    else:
        _require(
            params["manoever_schaden"] == "voll",
            "Schaden der Manöver: gilt nur für angesagte Meisterschafts-Manöver (L73).",
            "manoever_schaden",
        )
    if params["unbewegliches_ziel"] != "nein":
        _require(
            not params["aktive_abwehr"],
            "Aktive Abwehr des Ziels: ein unbewegliches Ziel wehrt nicht ab.",
            "aktive_abwehr",
        )
        _require(
            params["position_ziel"] == "stehend",
            "Kampfposition des Ziels: gilt nicht für unbewegliche Ziele.",
            "position_ziel",
        )


def _damage_expression(params: dict[str, Any]) -> dice.Expression:
    if params["angriffsart"] == "schildstoss":
        return _data_dice("angriff.schildstoss_schaden", "Schildstoß")
    expression = dice.parse(params["schaden"], "schaden", "Waffenschaden")
    if expression.dice_count > MAX_DAMAGE_DICE or any(
        t.sides > MAX_DAMAGE_SIDES for t in expression.terms
    ):
        raise EngineError(
            f"Waffenschaden: höchstens {MAX_DAMAGE_DICE} Würfel mit je höchstens "
            f"{MAX_DAMAGE_SIDES} Seiten.",
            "schaden",
        )
    return expression


def attack_modifiers(params: dict[str, Any]) -> tuple[tuple[str, int], ...]:
    """Every modifier of the attack probe by its German name (+ = bonus, Ryssea convention)."""
    ranged = params["angriffsart"] == "fernkampf"
    mods: list[tuple[str, int]] = []
    advantages = params["taktischer_vorteil"]
    if advantages:
        bonus = DATA.integer("angriff.taktischer_vorteil_bonus", 0, 20)
        mods.append((f"Taktischer Vorteil × {advantages}", advantages * bonus))
    if params["ueberzahl"]:
        per = DATA.integer("angriff.ueberzahl_je_kaempfer", 0, 10)
        cap = DATA.integer("angriff.ueberzahl_hoechstens", 0, 20)
        mods.append(
            (f"Überzahl ({params['ueberzahl']} überzählig)", min(params["ueberzahl"] * per, cap))
        )
    own = POSITIONS[params["position_eigen"]]
    mods.append(
        (
            f"Eigene Kampfposition {own['position']}",
            int(own["wert_eigen_fern" if ranged else "wert_eigen_nah"]),
        )
    )
    target = POSITIONS[params["position_ziel"]]
    mods.append(
        (
            f"Kampfposition des Ziels {target['position']}",
            int(target["wert_gegner_fern" if ranged else "wert_gegner_nah"]),
        )
    )
    mods.append(("Lichtverhältnisse", params["licht"]))
    if params["wasser"] == "hueft":
        mods.append(("Hüfthohes Wasser", DATA.integer("angriff.wasser_hueft", -30, 0)))
    elif params["wasser"] == "unter":
        mods.append(("Unter Wasser", DATA.integer("angriff.wasser_unter", -30, 0)))
    ticks = params["vorbereitung_ticks"]
    if ticks:
        per = DATA.integer("angriff.vorbereitung_ticks_je_punkt", 1, 20)
        cap = DATA.integer("angriff.vorbereitung_hoechstens", 0, 20)
        name = "Zielen" if ranged else "Lücke suchen"
        mods.append((f"{name} ({ticks} Ticks)", min(ticks // per, cap)))
    mods.append(("Zusammenarbeit", params["zusammenarbeit"]))
    if params["kampfgetuemmel"]:
        mods.append(("Kampfgetümmel", DATA.integer("angriff.kampfgetuemmel", -30, 0)))
    mods.append(("Sonstige Modifikatoren", params["modifikator"]))
    return tuple((name, value) for name, value in mods if value)


def range_erfolge(distance: int, base_range: int) -> int:
    """1 Erfolg per started base range beyond the first (L210)."""
    if distance <= base_range:
        return 0
    return -(-distance // base_range) - 1


@dataclass(frozen=True)
class Allocation:
    """How the Erfolge of a successful attack probe are spent."""

    category: str  # treffer / streiftreffer / deckung / reichweite
    erfolge: int
    for_range: int
    for_cover: int
    for_mastery: int
    stun: bool
    rest: int

    @property
    def forfeited(self) -> int:
        return (
            self.erfolge
            - self.for_range
            - self.for_cover
            - self.for_mastery
            - self.stun
            - self.rest
        )


def allocate(
    erfolge: int, need_range: int, need_cover: int, mastery: int, stun: bool, rest_used: bool
) -> Allocation:
    """Spend Erfolge: Reichweite, Deckung, Meisterschafts-Manöver, Betäubungsschlag, Rest."""
    if erfolge < need_range:
        return Allocation("reichweite", erfolge, 0, 0, 0, False, 0)
    left = erfolge - need_range
    if left < need_cover:
        return Allocation("deckung", erfolge, need_range, 0, 0, False, 0)
    left -= need_cover
    per_mastery = DATA.integer("angriff.meisterschaft_erfolge", 0, 10)
    if left < mastery * per_mastery:
        return Allocation("streiftreffer", erfolge, need_range, need_cover, 0, False, 0)
    left -= mastery * per_mastery
    stun_cost = DATA.integer("angriff.betaeubungsschlag_erfolge", 0, 10)
    paid_stun = stun and left >= stun_cost
    if paid_stun:
        left -= stun_cost
    return Allocation(
        "treffer",
        erfolge,
        need_range,
        need_cover,
        mastery * per_mastery,
        paid_stun,
        left if rest_used else 0,
    )


@dataclass(frozen=True)
class DamagePlan:
    """The damage rules of one attack, with the data values read once."""

    mastery: int
    restriction: str  # voll / halb / kein
    graze: str  # schaden / betaeubung
    rest_mode: str  # wuchtangriff / stoerender_angriff / keine
    wucht_per: int = 1
    graze_cut: int = 2
    graze_stun: int = 2
    round_up: bool = False


def damage_plan(params: dict[str, Any]) -> DamagePlan:
    rounding = DATA.text("angriff.schaden_rundung")
    if rounding not in ("abrunden", "aufrunden"):
        raise DataError(DATA.file, "angriff.schaden_rundung", "abrunden oder aufrunden")
    return DamagePlan(
        mastery=params["meisterschafts_manoever"],
        restriction=params["manoever_schaden"],
        graze=params["streiftreffer_folge"],
        rest_mode=params["erfolge_rest"],
        wucht_per=DATA.integer("angriff.wucht_je_erfolg", 0, 10),
        graze_cut=DATA.integer("angriff.streiftreffer_abzug_je_manoever", 0, 20),
        graze_stun=DATA.integer("angriff.streiftreffer_betaeubung_je_manoever", 0, 20),
        round_up=rounding == "aufrunden",
    )


def _restricted(points: int, plan: DamagePlan) -> int:
    points = max(0, points)
    if plan.restriction == "kein":
        return 0
    if plan.restriction == "halb":
        return -(-points // 2) if plan.round_up else points // 2
    return points


def damage_for(rolled: int, alloc: Allocation, plan: DamagePlan) -> tuple[int, int]:
    """(damage to the target, Betäubungsschaden to the attacker) for one damage roll."""
    if alloc.category in ("reichweite", "deckung"):
        return 0, 0
    if alloc.category == "streiftreffer":
        points = _restricted(rolled, plan)
        if plan.graze == "betaeubung" or plan.restriction == "kein":
            return points, plan.graze_stun * plan.mastery
        return max(0, points - plan.graze_cut * plan.mastery), 0
    bonus = alloc.rest * plan.wucht_per if plan.rest_mode == "wuchtangriff" else 0
    return _restricted(rolled + bonus, plan), 0


def defence_distribution(defender: ProbeInput) -> dict[int, Fraction]:
    """Value of an Aktive Abwehr: probe total + 2 × Erfolge (L247)."""
    factor = DATA.integer("angriff.abwehr_erfolg_faktor", 0, 10)
    out: dict[int, Fraction] = {}
    erfolge = erfolge_distribution(defender.taw)
    for value, p in die_distribution(defender.die, defender.mode).items():
        for k, q in enumerate(erfolge):
            total = defender.base + value + factor * k
            out[total] = out.get(total, Fraction(0)) + p * q
    return out


def _defence_succeeds(dist: dict[int, Fraction], verteidigung: int) -> Callable[[int], Fraction]:
    """Chance that an attack total beats a random Aktive Abwehr value."""
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


def _beats_defence(total: int, defence: int, verteidigung: int) -> bool:
    """Tie → the defender wins (L247); optionally the Verteidigung stays a floor (Annahme)."""
    if DATA.text("angriff.abwehr_gegen_verteidigung") == "hoeherer":
        return total > defence and total >= verteidigung
    return total > defence


@dataclass(frozen=True)
class AttackChances:
    probe: ProbeChances
    hit: Fraction
    full_hit: Fraction
    graze: Fraction
    cover: Fraction
    out_of_range: Fraction
    expected_erfolge: Fraction
    expected_damage: Fraction


def attack_chances(
    attacker: ProbeInput,
    succeeds: Callable[[int], Fraction],
    need_range: int,
    need_cover: int,
    stun: bool,
    plan: DamagePlan,
    damage: dice.Expression,
) -> AttackChances:
    chances = probe_chances(attacker, succeeds)
    damage_dist = dice.distribution(damage, field="schaden", label="Waffenschaden")
    # integer weights over a common denominator: exact and fast for large damage dice
    denominator = math.lcm(*(p.denominator for p in damage_dist.values()))
    weights = [(d, p.numerator * (denominator // p.denominator)) for d, p in damage_dist.items()]
    by_key: dict[tuple[str, int], Fraction] = {}

    def mean_damage(alloc: Allocation) -> Fraction:
        key = (alloc.category, alloc.rest)
        if key not in by_key:
            total = sum(w * damage_for(d, alloc, plan)[0] for d, w in weights)
            by_key[key] = Fraction(total, denominator)
        return by_key[key]

    full = graze = cover = out_of_range = Fraction(0)
    expected = Fraction(0)
    for k, p_k in enumerate(erfolge_distribution(attacker.taw)):
        alloc = allocate(k, need_range, need_cover, plan.mastery, stun, plan.rest_mode != "keine")
        if alloc.category == "treffer":
            full += p_k
        elif alloc.category == "streiftreffer":
            graze += p_k
        elif alloc.category == "deckung":
            cover += p_k
        else:
            out_of_range += p_k
        if alloc.category in ("treffer", "streiftreffer"):
            expected += p_k * mean_damage(alloc)
    s = chances.success
    return AttackChances(
        probe=chances,
        hit=s * (full + graze),
        full_hit=s * full,
        graze=s * graze,
        cover=s * cover,
        out_of_range=s * out_of_range,
        expected_erfolge=expected_erfolge(attacker.taw),
        expected_damage=s * expected,
    )


@SYSTEM.action(
    "attack",
    title="Angriff: Nahkampf, Fernkampf, Schildstoß",
    summary=(
        "Probe auf das Kampftalent gegen die Verteidigung (oder die Aktive Abwehr), Treffer ab "
        "Gleichstand; Erfolge für Reichweite, Deckung, Meisterschafts- und freie Manöver; "
        "Waffenschaden bei einem Treffer."
    ),
    source=f"{SOURCE} L47–L82, L184–L226, L245–L253, L307–L380",
    params=ATTACK_PARAMS,
    assumptions=_assumptions("probe.", "angriff."),
)
def attack(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    _check_attack(params)
    kind = params["angriffsart"]
    ranged = kind == "fernkampf"
    damage = _damage_expression(params)
    attacker = probe_input(params, modifiers=attack_modifiers(params))
    verteidigung = params["verteidigung"]
    plan = damage_plan(params)
    need_range = range_erfolge(params["entfernung"], params["grundreichweite"]) if ranged else 0
    need_cover = (
        DATA.integer(f"angriff.deckung_{params['deckung']}_erfolge", 0, 10)
        if ranged and params["deckung"] != "keine"
        else 0
    )
    display = Display(headline=ATTACK_LABELS[kind])
    notes: list[str] = []

    # Schwierigkeit: Verteidigung, Zielwert eines unbeweglichen Ziels, oder Aktive Abwehr
    defence_roll: ProbeRoll | None = None
    target_info: dict[str, Any]
    succeeds: Callable[[int], Fraction]
    reaches: Callable[[int], bool]
    if params["aktive_abwehr"]:
        defender = probe_input(
            params, "abwehr_", modifiers=(("Modifikator", params["abwehr_modifikator"]),)
        )
        defence_roll = roll_probe(defender, rng, "Aktive Abwehr")
        factor = DATA.integer("angriff.abwehr_erfolg_faktor", 0, 10)
        defence_value = defence_roll.total + factor * defence_roll.erfolge
        succeeds = _defence_succeeds(defence_distribution(defender), verteidigung)
        reaches = functools.partial(
            _beats_defence, defence=defence_value, verteidigung=verteidigung
        )
        target_info = {
            "kind": "aktive_abwehr",
            "value": defence_value,
            "verteidigung": verteidigung,
            "defence": defence_roll.to_dict(),
        }
        target_text = f"Aktive Abwehr {number(defence_value)} (Gleichstand: Verteidiger)"
        if ranged:
            notes.append(
                "Gegen Fernkampfangriffe ist eine Aktive Abwehr nur durch Ausweichen "
                "(Akrobatik) oder mit einem Schild möglich (L249)."
            )
    else:
        if params["unbewegliches_ziel"] != "nein":
            row = IMMOBILE[params["unbewegliches_ziel"]]
            value = int(row["zielwert"])
            target_info = {"kind": "unbewegliches_ziel", "value": value, "size": row["zielgroesse"]}
            target_text = f"Zielwert {value} ({row['zielgroesse']})"
        else:
            value = verteidigung
            target_info = {"kind": "verteidigung", "value": value}
            target_text = f"Verteidigung {number(value)}"
        succeeds = _at_least(value)
        reaches = functools.partial(operator.le, value)

    rolled = roll_probe(attacker, rng, ATTACK_LABELS[kind])
    success = rolled.succeeded(reaches(rolled.total))
    alloc = allocate(
        rolled.erfolge,
        need_range,
        need_cover,
        plan.mastery,
        params["betaeubungsschlag"],
        plan.rest_mode != "keine",
    )
    category = alloc.category if success else ("patzer" if rolled.patzer else "verfehlt")
    damage_roll: dice.RollResult | None = None
    target_damage = attacker_stun = cover_damage = 0
    if category in ("treffer", "streiftreffer", "deckung"):
        damage_roll = dice.roll(damage, rng)
        target_damage, attacker_stun = damage_for(damage_roll.total, alloc, plan)
        if category == "deckung":
            cover_damage = max(0, damage_roll.total)
    stun = category == "treffer" and alloc.stun
    damage_kind = "Betäubungsschaden" if stun else "Schaden"
    disturb = (
        alloc.rest * DATA.integer("angriff.stoerend_je_erfolg", 0, 20)
        if category == "treffer" and plan.rest_mode == "stoerender_angriff"
        else 0
    )
    wucht = (
        alloc.rest * DATA.integer("angriff.wucht_je_erfolg", 0, 10)
        if category == "treffer" and plan.rest_mode == "wuchtangriff"
        else 0
    )

    versus = f"{number(rolled.total)} gegen {target_text}."
    if category == "treffer":
        outcome = f"Treffer: {target_damage} {damage_kind}. {versus}"
    elif category == "streiftreffer":
        outcome = f"Streiftreffer: {target_damage} Schaden. {versus}"
    elif category == "deckung":
        outcome = f"Die Probe gelingt, aber der Angriff trifft die Deckung. {versus}"
    elif category == "reichweite":
        outcome = f"Die Probe gelingt, aber die Erfolge reichen nicht für die Reichweite. {versus}"
    elif category == "patzer":
        outcome = f"Patzer – verfehlt; 2W10 auf der Patzertabelle. {versus}"
    else:
        outcome = f"Verfehlt. {versus}"
    display.outcome = outcome + _probe_flags(rolled).replace(" Patzer!", "")
    if defence_roll is not None:
        defence_roll.show(display)
    rolled.show(display)
    if damage_roll is not None:
        display.roll("Schaden" if category != "deckung" else "Schaden an der Deckung", damage_roll)

    # Erfolge
    rows: list[list[str]] = []
    if success:
        if need_range:
            rows.append(["Reichweite", str(need_range), str(alloc.for_range)])
        if need_cover:
            rows.append(["Deckung", str(need_cover), str(alloc.for_cover)])
        if plan.mastery:
            rows.append(["Meisterschafts-Manöver", str(plan.mastery), str(alloc.for_mastery)])
        if params["betaeubungsschlag"]:
            rows.append(["Betäubungsschlag", "1", "1" if alloc.stun else "0"])
        if plan.rest_mode == "wuchtangriff" and alloc.rest:
            rows.append(["Wuchtangriff", "–", f"{alloc.rest} (+{wucht} Schaden)"])
        if plan.rest_mode == "stoerender_angriff" and alloc.rest:
            rows.append(["Störender Angriff", "–", f"{alloc.rest} (+{disturb} Schwierigkeit)"])
        if category in ("streiftreffer", "deckung", "reichweite") and rolled.erfolge:
            rows.append(["verfallen", "–", str(rolled.erfolge - alloc.for_range - alloc.for_cover)])
        if rows:
            display.table(f"Erfolge ({rolled.erfolge})", ["Wofür", "nötig", "verwendet"], rows)

    if category == "streiftreffer":
        if attacker_stun:
            notes.append(
                f"Streiftreffer: Die Effekte der Meisterschafts-Manöver bleiben aus, die Erfolge "
                f"verfallen, der Angreifer erleidet {attacker_stun} Betäubungsschaden (L82)."
            )
        else:
            notes.append(
                "Streiftreffer: Die Effekte der Meisterschafts-Manöver bleiben aus, die Erfolge "
                "verfallen, der Schaden sinkt um 2 je angesagtem Manöver (L82)."
            )
    if category == "deckung":
        notes.append(
            f"Der Angriff trifft die Deckung und richtet dort eventuell {cover_damage} Schaden "
            "an (L220)."
        )
    if category in ("verfehlt", "patzer") and params["kampfgetuemmel"]:
        notes.append("Kampfgetümmel: der Schuss geht ins Leere (L222).")
    if params["betaeubungsschlag"] and category == "treffer" and not alloc.stun:
        notes.append("Betäubungsschlag: kein Erfolg mehr übrig – regulärer Schaden.")
    if disturb:
        notes.append(
            f"Störender Angriff: die Selbstbeherrschung-Probe des Ziels gegen die Unterbrechung "
            f"ist um {disturb} erschwert (L192)."
        )
    if category == "patzer":
        notes.append(
            "Patzer bei einer Probe auf ein Kampftalent: 2W10 auf der Patzertabelle (L406)."
        )
    if kind == "schildstoss":
        notes.append(
            "Schildstoß: 1W6+1 Schaden; es gelten die Regeln für die falsche Hand "
            "(Waffengeschwindigkeit +2), außer mit Kampf mit zwei Waffen oder Starker Schildarm I "
            "(L200)."
        )
    if rolled.critical:
        notes.append("Kritischer Erfolg: weitere Folgen legt der Text nicht fest.")

    chances = attack_chances(
        attacker, succeeds, need_range, need_cover, params["betaeubungsschlag"], plan, damage
    )
    items = [
        ("Probe gelingt", chances.probe.success),
        ("Ziel getroffen (auch Streiftreffer)", chances.hit),
        ("Voller Treffer", chances.full_hit),
        ("Streiftreffer", chances.graze),
    ]
    if need_cover:
        items.append(("Trifft die Deckung", chances.cover))
    if need_range:
        items.append(("Erfolge reichen nicht für die Reichweite", chances.out_of_range))
    items += [
        ("Kritischer Erfolg", chances.probe.critical),
        ("Patzer", chances.probe.patzer),
    ]
    display.chances("Chancen vor dem Wurf", items)
    display.table(
        "Erwartungswerte",
        ["Größe", "Wert"],
        [
            ["Erfolge", decimal(chances.expected_erfolge)],
            ["Schaden am Ziel", decimal(chances.expected_damage)],
        ],
    )
    display.notes("Hinweise", notes)
    return {
        "kind": kind,
        "attack": rolled.to_dict(),
        "target": target_info,
        "probe_success": success,
        "outcome": category,
        "hit": category in ("treffer", "streiftreffer"),
        "erfolge": {
            "total": rolled.erfolge,
            "reichweite_noetig": need_range,
            "deckung_noetig": need_cover,
            "reichweite": alloc.for_range if success else 0,
            "deckung": alloc.for_cover if success else 0,
            "meisterschafts_manoever": alloc.for_mastery if success else 0,
            "betaeubungsschlag": bool(success and alloc.stun),
            "wuchtangriff": wucht,
            "stoerender_angriff": disturb,
        },
        "damage": {
            "roll": None if damage_roll is None else damage_roll.to_dict(),
            "target": target_damage,
            "kind": damage_kind,
            "attacker_betaeubung": attacker_stun,
            "cover": cover_damage,
        },
        "fumble_table": category == "patzer",
        "chances": {
            "success": str(chances.probe.success),
            "hit": str(chances.hit),
            "full_hit": str(chances.full_hit),
            "streiftreffer": str(chances.graze),
            "cover": str(chances.cover),
            "out_of_range": str(chances.out_of_range),
            "critical": str(chances.probe.critical),
            "patzer": str(chances.probe.patzer),
            "expected_erfolge": str(chances.expected_erfolge),
            "expected_damage": str(chances.expected_damage),
        },
        "display": display.to_dict(),
    }


# =============================================================================================
# Patzertabelle (L404–L415)
# =============================================================================================

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
        "herbeigeführt hat, führt zur Patzertabelle (L406).",
    ),
    *(
        BoolParam(
            _impossible_field(row),
            f"Ergebnis {row['wurf']} unmöglich",
            help=f"{row['wirkung']} – ist das hier nicht möglich, wird neu gewürfelt.",
            group="Unmögliche Ergebnisse (es wird neu gewürfelt)",
            advanced=True,
        )
        for row in FUMBLE_ROWS
        if int(row["von"]) not in _always_possible()
    ),
)


def fumble_chances(impossible: set[int]) -> list[Fraction]:
    """Exact chance of each row, given that impossible rows are re-rolled."""
    dist = dice.distribution(_data_dice("patzer.wurf", "Patzerwurf"))
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
    assumptions=_assumptions("patzer."),
)
def fumble(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
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
            "Aktive Abwehr herbeigeführt (L406)."
        )
        return {
            "rolled": False,
            "attempts": [],
            "row": None,
            "chances": chance_out,
            "display": display.to_dict(),
        }
    expression = _data_dice("patzer.wurf", "Patzerwurf")
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
    display.chances("Chance jeder Zeile (mit Neuwürfeln)", chance_items)
    notes = []
    if impossible:
        names = ", ".join(str(r["wurf"]) for r in FUMBLE_ROWS if r["von"] in impossible)
        notes.append(f"Unmöglich in dieser Lage (wird neu gewürfelt): {names}.")
    notes.append(
        "Die Einträge sind Beispiele; Spielleitung und Spieler können eigene Auswirkungen "
        "vorschlagen, die Entscheidung liegt bei der Spielleitung (L406)."
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


# =============================================================================================
# Weitere Würfe: Ausweichsprung, Unterbrechung, Zusammenarbeit, Atemholen
# =============================================================================================

MODIFIER_PARAM = IntParam(
    "modifikator",
    "Modifikator",
    default=0,
    minimum=-30,
    maximum=30,
    help="Bonus (+) oder Malus (−) auf die Probe.",
    group="Probe",
)


def _simple_probe_result(
    rolled: ProbeRoll, chances: ProbeChances, target: int, success: bool
) -> dict[str, Any]:
    return {
        "probe": rolled.to_dict(),
        "difficulty": target,
        "success": success,
        "chances": {
            "success": str(chances.success),
            "critical": str(chances.critical),
            "patzer": str(chances.patzer),
        },
    }


@SYSTEM.action(
    "dodge_jump",
    title="Ausweichsprung",
    summary=(
        "Akrobatik-Probe gegen 15: gelingt sie, sinkt der Schaden eines Flächeneffekts um 1 "
        "und um 1 mehr je Erfolg."
    ),
    source=f"{SOURCE} L253",
    params=(
        *probe_fields(talent="Akrobatik", group="Probe"),
        MODIFIER_PARAM,
        IntParam(
            "schaden",
            "Erlittener Schaden",
            default=10,
            minimum=0,
            maximum=200,
            help="Der Schaden, den der Effekt eigentlich anrichtet.",
            group="Schaden",
        ),
    ),
    assumptions=_assumptions("probe."),
)
def dodge_jump(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    spec = probe_input(params, modifiers=(("Modifikator", params["modifikator"]),))
    target = DATA.integer("ausweichsprung.schwierigkeit", 0, 100)
    base_cut = DATA.integer("ausweichsprung.grundabzug", 0, 20)
    per = DATA.integer("ausweichsprung.abzug_je_erfolg", 0, 20)
    incoming = params["schaden"]
    rolled = roll_probe(spec, rng, "Akrobatik")
    success = rolled.succeeded(rolled.total >= target)
    cut = min(incoming, base_cut + per * rolled.erfolge) if success else 0
    remaining = incoming - cut
    chances = probe_chances(spec, _at_least(target))
    expected_cut = chances.success * sum(
        (
            p * min(incoming, base_cut + per * k)
            for k, p in enumerate(erfolge_distribution(spec.taw))
        ),
        Fraction(0),
    )
    display = Display(
        headline="Ausweichsprung",
        outcome=(
            f"{'Gelungen' if success else 'Misslungen'} ({number(rolled.total)} gegen "
            f"{target}): {remaining} von {incoming} Schaden.{_probe_flags(rolled)}"
        ),
    )
    rolled.show(display)
    display.chances(
        "Chancen vor dem Wurf",
        [
            ("Ausweichsprung gelingt", chances.success),
            ("Kritischer Erfolg", chances.critical),
            ("Patzer", chances.patzer),
        ],
    )
    display.table(
        "Erwartungswerte",
        ["Größe", "Wert"],
        [
            ["Abgewendeter Schaden", decimal(expected_cut)],
            ["Verbleibender Schaden", decimal(incoming - expected_cut)],
        ],
    )
    result = _simple_probe_result(rolled, chances, target, success)
    result.update(
        damage_in=incoming,
        reduction=cut,
        damage_out=remaining,
        display=display.to_dict(),
    )
    result["chances"]["expected_reduction"] = str(expected_cut)
    result["chances"]["expected_damage"] = str(incoming - expected_cut)
    return result


@SYSTEM.action(
    "interruption",
    title="Unterbrechung einer kontinuierlichen Aktion",
    summary=(
        "Selbstbeherrschung-Probe gegen 10 + erlittene Schadenspunkte (+3 je Erfolg eines "
        "Störenden Angriffs); misslingt sie, ist die Aktion unterbrochen."
    ),
    source=f"{SOURCE} L120–L122, L192",
    params=(
        *probe_fields(talent="Selbstbeherrschung", group="Probe"),
        MODIFIER_PARAM,
        IntParam(
            "schaden",
            "Erlittene Schadenspunkte",
            default=12,
            minimum=0,
            maximum=200,
            group="Schaden",
        ),
        IntParam(
            "stoerend",
            "Erfolge für Störenden Angriff",
            default=0,
            minimum=0,
            maximum=MAX_TAW,
            help="Vom Angreifer für den Störenden Angriff verwendete Erfolge: je +3.",
            group="Schaden",
        ),
    ),
    assumptions=_assumptions("probe."),
)
def interruption(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    spec = probe_input(params, modifiers=(("Modifikator", params["modifikator"]),))
    base = DATA.integer("unterbrechung.schwierigkeit_grund", 0, 100)
    per = DATA.integer("angriff.stoerend_je_erfolg", 0, 20)
    target = base + params["schaden"] + per * params["stoerend"]
    rolled = roll_probe(spec, rng, "Selbstbeherrschung", with_erfolge=False)
    success = rolled.succeeded(rolled.total >= target)
    chances = probe_chances(spec, _at_least(target))
    display = Display(
        headline="Unterbrechung",
        outcome=(
            f"{'Die Aktion geht weiter' if success else 'Die Aktion ist unterbrochen'}: "
            f"{number(rolled.total)} gegen {target}.{_probe_flags(rolled)}"
        ),
    )
    rolled.show(display)
    display.table(
        "Schwierigkeit",
        ["Teil", "Punkte"],
        [
            ["Grundschwierigkeit", str(base)],
            ["Erlittene Schadenspunkte", str(params["schaden"])],
            [f"Störender Angriff ({params['stoerend']} Erfolge)", str(per * params["stoerend"])],
            ["Summe", str(target)],
        ],
    )
    display.chances(
        "Chancen vor dem Wurf",
        [
            ("Aktion geht weiter", chances.success),
            ("Aktion unterbrochen", 1 - chances.success),
            ("Kritischer Erfolg", chances.critical),
            ("Patzer", chances.patzer),
        ],
    )
    if not success:
        display.notes(
            "Hinweise",
            ["Der Unterbrochene nimmt wie ein Abwartender wieder am Kampf teil (L120)."],
        )
    result = _simple_probe_result(rolled, chances, target, success)
    result.update(interrupted=not success, display=display.to_dict())
    result["chances"]["interrupted"] = str(1 - chances.success)
    return result


HELPER_FIELDS: tuple[Param, ...] = (
    TextParam("name", "Name", max_length=30),
    *probe_fields(talent="Kampftalent"),
    MODIFIER_PARAM,
)


def helper_distribution(spec: ProbeInput, target: int) -> tuple[ProbeChances, dict[int, Fraction]]:
    """Chances of one helper and the distribution of the bonus it hands on (L311–L313)."""
    grund = DATA.integer("zusammenarbeit.bonus_grund", 0, 20)
    per = DATA.integer("zusammenarbeit.bonus_je_erfolg", 0, 20)
    malus = DATA.integer("zusammenarbeit.malus_fehlschlag", -20, 0)
    chances = probe_chances(spec, _at_least(target))
    out: dict[int, Fraction] = {malus: 1 - chances.success}
    for k, p in enumerate(erfolge_distribution(spec.taw)):
        bonus = grund + per * k
        out[bonus] = out.get(bonus, Fraction(0)) + chances.success * p
    return chances, out


def _convolve_exact(a: dict[int, Fraction], b: dict[int, Fraction]) -> dict[int, Fraction]:
    """Distribution of the sum of two independent values (integer arithmetic inside)."""
    den_a = math.lcm(*(p.denominator for p in a.values()))
    den_b = math.lcm(*(p.denominator for p in b.values()))
    ints_a = [(x, p.numerator * (den_a // p.denominator)) for x, p in a.items()]
    ints_b = [(y, q.numerator * (den_b // q.denominator)) for y, q in b.items()]
    counts: dict[int, int] = {}
    for x, wa in ints_a:
        for y, wb in ints_b:
            counts[x + y] = counts.get(x + y, 0) + wa * wb
    denominator = den_a * den_b
    return {t: Fraction(c, denominator) for t, c in sorted(counts.items()) if c}


@SYSTEM.action(
    "teamwork",
    title="Zusammenarbeit im Kampf",
    summary=(
        "Jeder Helfer greift gegen die um 5 gesenkte Verteidigung an: gelingt es, erhält der "
        "Hauptangreifer +1 und +1 je Erfolg, sonst −1 auf seinen nächsten Nahkampfangriff."
    ),
    source=f"{SOURCE} L307–L315",
    params=(
        IntParam(
            "verteidigung",
            "Verteidigung des Gegners",
            default=25,
            minimum=0,
            maximum=99,
            help="Für die Helfer gilt sie als um 5 Punkte reduziert.",
        ),
        ListParam(
            "helfer",
            "Helfer",
            item=HELPER_FIELDS,
            item_label="Helfer",
            min_items=1,
            max_items=6,
            default_items=({"name": "Bruna"},),
        ),
    ),
    assumptions=_assumptions("probe."),
)
def teamwork(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    rows: list[dict[str, Any]] = params["helfer"]
    check_unique_names(rows, "helfer", "Helfer")
    minus = DATA.integer("zusammenarbeit.verteidigung_minus", 0, 50)
    target = params["verteidigung"] - minus
    grund = DATA.integer("zusammenarbeit.bonus_grund", 0, 20)
    per = DATA.integer("zusammenarbeit.bonus_je_erfolg", 0, 20)
    malus = DATA.integer("zusammenarbeit.malus_fehlschlag", -20, 0)
    display = Display(headline="Zusammenarbeit im Kampf")
    total = 0
    helpers_out = []
    table_rows = []
    total_dist: dict[int, Fraction] = {0: Fraction(1)}
    chance_items: list[tuple[str, Fraction]] = []
    expected_total = Fraction(0)
    for row in rows:
        spec = probe_input(row, modifiers=(("Modifikator", row["modifikator"]),))
        rolled = roll_probe(spec, rng, row["name"])
        success = rolled.succeeded(rolled.total >= target)
        bonus = grund + per * rolled.erfolge if success else malus
        total += bonus
        chances, dist = helper_distribution(spec, target)
        expected = sum((b * p for b, p in dist.items()), Fraction(0))
        expected_total += expected
        total_dist = _convolve_exact(total_dist, dist)
        rolled.show(display)
        chance_items.append((f"{row['name']}: Angriff gelingt", chances.success))
        chance_items.append((f"{row['name']}: Patzer", chances.patzer))
        table_rows.append(
            [
                row["name"],
                number(rolled.total),
                "gelungen" if success else "misslungen",
                str(rolled.erfolge) if success else "–",
                signed(bonus),
            ]
        )
        helpers_out.append(
            {
                "name": row["name"],
                "probe": rolled.to_dict(),
                "success": success,
                "bonus": bonus,
                "chances": {
                    "success": str(chances.success),
                    "critical": str(chances.critical),
                    "patzer": str(chances.patzer),
                    "expected_bonus": str(expected),
                },
            }
        )
    display.outcome = (
        f"Der Hauptangreifer erhält {signed(total)} auf seinen nächsten Nahkampfangriff "
        f"gegen diesen Gegner (Verteidigung {number(params['verteidigung'])} − {minus} = "
        f"{number(target)})."
    )
    display.table("Helfer", ["Helfer", "Probe", "Ergebnis", "Erfolge", "Bonus"], table_rows)
    p_positive = sum((p for t, p in total_dist.items() if t > 0), Fraction(0))
    chance_items.append(("Gesamt-Modifikator positiv", p_positive))
    display.chances("Chancen vor dem Wurf", chance_items)
    display.table(
        "Erwartungswerte", ["Größe", "Wert"], [["Gesamt-Modifikator", decimal(expected_total)]]
    )
    notes = [
        "Jeder Helfer braucht 8 Ticks statt der Waffengeschwindigkeit und richtet keinen "
        "Schaden an (L311). Zusammenarbeit und Überzahl gelten gleichzeitig (L315).",
    ]
    if any(h["probe"]["patzer"] for h in helpers_out):
        notes.append("Patzer bei einer Probe auf ein Kampftalent: 2W10 auf der Patzertabelle.")
    display.notes("Hinweise", notes)
    return {
        "difficulty": target,
        "helpers": helpers_out,
        "total": total,
        "chances": {
            "positive": str(p_positive),
            "expected_total": str(expected_total),
            "total": {str(t): str(p) for t, p in sorted(total_dist.items())},
        },
        "display": display.to_dict(),
    }


@SYSTEM.action(
    "catch_breath",
    title="Atemholen",
    summary=(
        "Am Ende der kontinuierlichen Aktion heilt der Kämpfer 10 + Konstitution Punkte "
        "Betäubungsschaden; danach erst wieder nach einer Verschnaufpause oder Ruhephase."
    ),
    source=f"{SOURCE} L261",
    params=(
        IntParam("konstitution", "Konstitution", default=10, minimum=0, maximum=MAX_EIGENSCHAFT),
        IntParam(
            "betaeubungsschaden",
            "Erlittener Betäubungsschaden",
            default=15,
            minimum=0,
            maximum=500,
            help="Wie viel Betäubungsschaden der Kämpfer gerade hat.",
        ),
    ),
)
def catch_breath(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    base = DATA.integer("atemholen.heilung_grund", 0, 100)
    heal_max = base + params["konstitution"]
    healed = min(heal_max, params["betaeubungsschaden"])
    left = params["betaeubungsschaden"] - healed
    display = Display(
        headline="Atemholen",
        outcome=f"{healed} Betäubungsschaden geheilt, {left} bleiben.",
    )
    display.table(
        "Heilung",
        ["Teil", "Punkte"],
        [
            ["Grundwert", str(base)],
            ["Konstitution", str(params["konstitution"])],
            ["Höchstens geheilt", str(heal_max)],
            ["Geheilt", str(healed)],
        ],
    )
    display.notes(
        "Hinweise",
        [
            "Kein Wurf nötig. Nach einem erfolgreichen Atemholen erst wieder nach einer "
            "Verschnaufpause oder Ruhephase (L261).",
        ],
    )
    return {
        "heal_max": heal_max,
        "healed": healed,
        "betaeubungsschaden": left,
        "display": display.to_dict(),
    }
