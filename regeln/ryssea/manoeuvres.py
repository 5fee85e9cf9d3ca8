"""Ryssea manoeuvres: how the Erfolge of an attack are spent and what damage follows.

Owns the „Manöver“ fields, ``allocate`` (Reichweite, Deckung, Meisterschafts-Manöver,
Betäubungsschlag, the rest for Wuchtangriff or Störender Angriff; L73–L82, L188–L194), the
damage rules (Streiftreffer −2 per manoeuvre or Betäubungsschaden for the attacker, halved or
no damage; L73, L81–L82) and ``attack_chances``, the exact chances of every outcome.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from engine import dice
from engine.budget import current as current_budget
from engine.data_files import DataError, forecast
from engine.params import BoolParam, ChoiceParam, IntParam, Param
from regeln.ryssea.common import (
    DATA,
    ProbeChances,
    ProbeInput,
    erfolge_distribution,
    expected_erfolge,
    probe_chances,
)

MAX_MASTERY = 5
MELEE = ("angriffsart", ("nahkampf", "schildstoss"))
# Meisterschafts-Manöver: not with a Schildstoß (L200); what follows from them only when some
# are announced – with the attack kind repeated, so that a hidden leftover count never shows them
WITH_MASTERY = (
    ("angriffsart", ("nahkampf", "fernkampf")),
    ("meisterschafts_manoever", tuple(range(1, MAX_MASTERY + 1))),
)

MANOEUVRE_PARAMS: tuple[Param, ...] = (
    IntParam(
        "meisterschafts_manoever",
        "Angesagte Meisterschafts-Manöver",
        default=0,
        minimum=0,
        maximum=MAX_MASTERY,
        help="Je 1 Erfolg; fehlen Erfolge, wird es ein Streiftreffer.",
        group="Manöver",
        when=(("angriffsart", ("nahkampf", "fernkampf")),),
    ),
    ChoiceParam(
        "manoever_schaden",
        "Schaden der Manöver",
        choices=(
            ("voll", "voller Schaden"),
            ("halb", "halber Schaden"),
            ("kein", "kein Schaden"),
        ),
        help="Wenn ein angesagtes Manöver den Schaden halbiert oder aufhebt.",
        group="Manöver",
        advanced=True,
        when=WITH_MASTERY,
    ),
    ChoiceParam(
        "streiftreffer_folge",
        "Streiftreffer",
        choices=(
            ("schaden", "Schaden −2 je Manöver"),
            ("betaeubung", "stattdessen 2 Betäubungsschaden je Manöver für mich"),
        ),
        help="Nachteil beim Streiftreffer.",
        group="Manöver",
        advanced=True,
        when=WITH_MASTERY,
    ),
    BoolParam(
        "betaeubungsschlag",
        "Betäubungsschlag",
        help="Nur Nahkampf: für 1 Erfolg wird der Schaden zu Betäubungsschaden.",
        group="Manöver",
        when=(MELEE,),
    ),
    ChoiceParam(
        "erfolge_rest",
        "Übrige Erfolge für",
        choices=(
            ("wuchtangriff", "Wuchtangriff (+1 Schaden je Erfolg)"),
            ("stoerender_angriff", "Störender Angriff (+3 auf die Unterbrechung je Erfolg)"),
            ("keine", "nicht verwenden"),
        ),
        help="Freie Manöver nach dem Wurf.",
        group="Manöver",
    ),
    BoolParam(
        "gelegenheitsangriff",
        "Gelegenheitsangriff",
        help="Nur Nahkampf; nicht mit Meisterschafts-Manövern kombinierbar.",
        group="Manöver",
        # (with a Schildstoß a hidden leftover count may hide it; it changes no number there)
        when=(MELEE, ("meisterschafts_manoever", (0,))),
        per_roll=True,
    ),
)


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
    # an Annahme; the attack names it only when it rounded or held damage at 0
    with forecast():
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
    # the damage to the target per attack, a miss (and a hit on the cover) as 0: value → its
    # chance as integer counts over ``damage_outcomes`` (empty when it is not worked out)
    damage_counts: dict[int, int] = field(default_factory=dict)
    damage_outcomes: int = 1

    def damage_distribution(self) -> dict[int, Fraction]:
        """The damage to the target per attack (a miss as 0), exact; sums to 1."""
        return {d: Fraction(c, self.damage_outcomes) for d, c in sorted(self.damage_counts.items())}


SPREAD_WORK = 300
"""Work units (:mod:`engine.budget`) of one step of the damage spread per attack: one damage
total of the weapon for one way of spending the Erfolge (a product and a sum of integers)."""


def attack_chances(
    attacker: ProbeInput,
    succeeds: Callable[[int], Fraction],
    need_range: int,
    need_cover: int,
    stun: bool,
    plan: DamagePlan,
    damage: dice.Expression,
    *,
    spread: bool = False,
) -> AttackChances:
    """The exact chances of every outcome and the expected damage; with ``spread`` also the
    damage to the target per attack (a miss as 0), if it fits into the request's work budget."""
    chances = probe_chances(attacker, succeeds)
    damage_dist = dice.distribution(damage, field="damage", label="Waffenschaden")
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
    out = AttackChances(
        probe=chances,
        hit=s * (full + graze),
        full_hit=s * full,
        graze=s * graze,
        cover=s * cover,
        out_of_range=s * out_of_range,
        expected_erfolge=expected_erfolge(attacker.taw),
        expected_damage=s * expected,
    )
    if not spread:
        return out
    allocs = [
        allocate(k, need_range, need_cover, plan.mastery, stun, plan.rest_mode != "keine")
        for k in range(attacker.taw + 1)
    ]
    kinds = {(a.category, a.rest) for a in allocs if a.category in ("treffer", "streiftreffer")}
    work = (len(kinds) + 1) * len(weights) * SPREAD_WORK
    budget = current_budget()
    if not budget.fits(work):
        return out
    budget.spend(work, "Waffenschaden: die Verteilung des Schadens wurde abgebrochen.", "damage")
    counts, outcomes = _damage_counts(
        allocs, erfolge_distribution(attacker.taw), s, weights, denominator, plan
    )
    return replace(out, damage_counts=counts, damage_outcomes=outcomes)


def _damage_counts(
    allocs: list[Allocation],
    erfolge: tuple[Fraction, ...],
    success: Fraction,
    weights: list[tuple[int, int]],
    denominator: int,
    plan: DamagePlan,
) -> tuple[dict[int, int], int]:
    """The damage to the target per attack as integer counts over one denominator: the probe
    succeeds (``success``), its Erfolge are spent (``allocs[k]`` with chance ``erfolge[k]``),
    the weapon's damage (``weights`` over ``denominator``) goes through :func:`damage_for`; a
    failed probe, a hit on the cover and Erfolge short of the range are 0."""
    per_k = math.lcm(*(p.denominator for p in erfolge))
    whole = success.denominator * per_k * denominator
    counts: dict[int, int] = {}
    by_key: dict[tuple[str, int], dict[int, int]] = {}
    zero = whole - success.numerator * per_k * denominator  # the probe fails
    for alloc, p_k in zip(allocs, erfolge, strict=True):
        k_ways = success.numerator * p_k.numerator * (per_k // p_k.denominator)
        if alloc.category not in ("treffer", "streiftreffer"):
            zero += k_ways * denominator
            continue
        key = (alloc.category, alloc.rest)
        if key not in by_key:
            spread: dict[int, int] = {}
            for d, w in weights:
                hurt = damage_for(d, alloc, plan)[0]
                spread[hurt] = spread.get(hurt, 0) + w
            by_key[key] = spread
        for hurt, w in by_key[key].items():
            counts[hurt] = counts.get(hurt, 0) + k_ways * w
    if zero:
        counts[0] = counts.get(0, 0) + zero
    divisor = math.gcd(whole, *counts.values())
    return {d: c // divisor for d, c in counts.items()}, whole // divisor
