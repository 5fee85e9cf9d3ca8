"""One Pathfinder attack roll (L6–L23): hit, threat, confirmation, odds and the dice in order.

Owns the hit rule (1W20 + Angriffsbonus ≥ RK; a natural 1 always misses, a natural 20 always hits
and threatens, L8–L10), the threat range and the confirmation of a threat (Annahmen), the exact
chances of one attack by enumerating the W20 (``armor_class.py`` reuses them), the Angriffsbonus
for melee and ranged attacks (L15–L23), and the records the ``attack`` action passes along: what
is known before the dice fall (``AttackSetup``), its exact odds (``attack_odds``) and the dice in
their fixed order – attack roll, confirmation roll, weapon damage, extra dice (``roll_attack``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from engine import dice
from engine.data_files import forecast
from engine.errors import EngineError
from regeln.pathfinder.common import (
    DATA,
    auto_hit,
    auto_miss,
    size_modifier,
)
from regeln.pathfinder.damage import DamageOdds, damage_expression, damage_odds

# ---------------------------------------------------------------------------------------------
# Attack roll, threat, confirmation (L8–L10)
# ---------------------------------------------------------------------------------------------


def attack_hits(natural: int, bonus: int, armor_class: int) -> bool:
    """L8, L10: 1W20 + Angriffsbonus ≥ RK hits; a natural 1 always misses, a natural 20 hits."""
    if natural == auto_miss():
        return False
    if natural == auto_hit():
        return True
    return natural + bonus >= armor_class


def attack_result(
    natural: int, bonus: int, armor_class: int, threat_from: int
) -> tuple[bool, bool]:
    """(hit, threat) of one attack roll; threat range ``threat_from``–20 (Annahme beyond 20)."""
    hit = attack_hits(natural, bonus, armor_class)
    if natural == auto_hit():
        return True, True  # L10: always a hit and a threat
    if natural >= threat_from and natural != auto_miss():
        # a roll in the threat range that hits threatens either way; the Annahme decides a miss
        if not hit and DATA.flag("angriff.bedrohungsbereich_nur_bei_treffer"):
            return False, False
        return True, True
    return hit, False


def _confirmation_mode() -> str:
    return DATA.choice("angriff.bestaetigung", ("zweiter_angriffswurf", "automatisch"))


def attack_chances(bonus: int, armor_class: int, threat_from: int) -> dict[str, Fraction]:
    """Exact chances of one attack (with confirmation), by enumerating the W20 faces."""
    with forecast():
        return _attack_chances(bonus, armor_class, threat_from)


def _attack_chances(bonus: int, armor_class: int, threat_from: int) -> dict[str, Fraction]:
    die = dice.distribution(DATA.dice("angriff.wurf", "Angriffswurf"))
    hit = threat = Fraction(0)
    for face, p in die.items():
        is_hit, is_threat = attack_result(face, bonus, armor_class, threat_from)
        hit += p if is_hit else 0
        threat += p if is_threat else 0
    if _confirmation_mode() == "automatisch":
        confirm = Fraction(1)
    else:
        confirm = sum(
            (p for face, p in die.items() if attack_hits(face, bonus, armor_class)), Fraction(0)
        )
    natural_1 = die.get(auto_miss(), Fraction(0))
    return {
        "hit": hit,
        "threat": threat,
        "confirm": confirm,
        "critical": threat * confirm,
        "natural_1": natural_1,
        "natural_20": die.get(auto_hit(), Fraction(0)),
    }


# ---------------------------------------------------------------------------------------------
# Angriffsbonus (L15–L23)
# ---------------------------------------------------------------------------------------------


@dataclass
class AttackBonus:
    total: int
    parts: list[tuple[str, int]]
    notes: list[str] = field(default_factory=list)


def attack_bonus(params: dict[str, Any]) -> AttackBonus:
    """L15–L23: melee GAB + ST + Größe; ranged GAB + GE + Größe + Entfernungsmalus.

    Plus „andere Modifikatoren, falls vorhanden“ (L8)."""
    ranged = params["weapon"] != "nahkampf"
    parts: list[tuple[str, int]] = [("GAB", params["gab"])]
    notes: list[str] = []
    if ranged:
        parts.append(("GE", params["geschicklichkeitsmodifikator"]))
    else:
        parts.append(("ST", params["staerkemodifikator"]))
    parts.append(("Größe", size_modifier(params["size"])))
    steps = params["range_increment"]
    if ranged:
        limit_key = (
            "angriff.hoechstens_schritte_wurfwaffe"
            if params["weapon"] == "wurfwaffe"
            else "angriff.hoechstens_schritte_geschoss"
        )
        limit = DATA.integer(limit_key, 1, 100)
        if steps > limit:
            kind = "Wurfwaffen" if params["weapon"] == "wurfwaffe" else "Geschosswaffen"
            raise EngineError(
                f"Entfernung (Grundreichweiten): {kind} reichen höchstens {limit} "
                f"Grundreichweiten weit (Annahme), nicht {steps}.",
                "range_increment",
            )
        if steps > 1:  # within the first Grundreichweite there is no malus to assume
            per_step = DATA.integer("angriff.entfernungsmalus_je_schritt", -20, 0)
            parts.append(("Entfernungsmalus", per_step * (steps - 1)))
        else:
            parts.append(("Entfernungsmalus", 0))
    elif steps > 1:
        notes.append("Die Entfernung zählt nur im Fernkampf; sie wurde hier nicht genutzt.")
    if params["attack_other"]:
        parts.append(("andere Modifikatoren", params["attack_other"]))
    return AttackBonus(sum(v for _, v in parts), parts, notes)


# ---------------------------------------------------------------------------------------------
# One attack of the action: before the dice, exact odds, the dice in order
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AttackSetup:
    """Everything the attack needs before the dice fall: dice, bonus, multipliers, Strength."""

    weapon: dice.Expression
    extra: dice.Expression
    bonus: AttackBonus
    armor_class: int
    threat_from: int
    normal_times: int
    crit_times: int
    st_damage: int
    st_note: str
    damage_other: int
    per_roll_bonus: int
    floor: int


@dataclass(frozen=True)
class AttackOdds:
    """Exact odds of the attack before rolling (chances of ``attack_chances`` and damage)."""

    chances: dict[str, Fraction]
    critical: Fraction
    normal_hit: DamageOdds
    critical_hit: DamageOdds
    expected_lethal: Fraction
    expected_nonlethal: Fraction

    def per_attack(self) -> dict[int, Fraction]:
        """Lethal damage of one attack, before the roll: a miss and a hit that deals only the
        minimum (1 nonlethal, L76) count 0; a confirmed critical the multiplied damage (L84);
        its mean is ``expected_lethal``."""
        p_normal = self.chances["hit"] - self.critical
        out = {0: 1 - self.chances["hit"]}
        for p_kind, kind in ((p_normal, self.normal_hit), (self.critical, self.critical_hit)):
            if p_kind:
                for value, p in kind.distribution.items():
                    out[value] = out.get(value, Fraction(0)) + p_kind * p
        return {value: p for value, p in sorted(out.items()) if p}

    def per_attack_size(self) -> tuple[int, int]:
        """(values, bits) bounding :meth:`per_attack` before it is built (its work)."""
        normal, critical = self.normal_hit, self.critical_hit
        values = [*normal.distribution, *critical.distribution]
        size = min(len(values), max(values) - min(values) + 1) + 1  # the values and a miss
        # the critical hit's outcomes are a multiple of the normal hit's; a W20 chance ≤ 1/400
        return size, max(normal.bits, critical.bits) + 10


def attack_odds(setup: AttackSetup) -> AttackOdds:
    with forecast():
        return _attack_odds(setup)


def _attack_odds(setup: AttackSetup) -> AttackOdds:
    odds = attack_chances(setup.bonus.total, setup.armor_class, setup.threat_from)
    p_critical = odds["critical"]
    p_normal = odds["hit"] - p_critical
    normal_odds = damage_odds(
        damage_expression(setup.weapon, setup.per_roll_bonus, setup.normal_times, setup.extra)
    )
    crit_odds = damage_odds(
        damage_expression(setup.weapon, setup.per_roll_bonus, setup.crit_times, setup.extra)
    )
    expected_lethal = p_normal * normal_odds.lethal + p_critical * crit_odds.lethal
    expected_nonlethal = p_normal * normal_odds.minimum + p_critical * crit_odds.minimum
    return AttackOdds(odds, p_critical, normal_odds, crit_odds, expected_lethal, expected_nonlethal)


@dataclass
class AttackRolls:
    """What the dice showed: attack roll, confirmation, damage rolls and the outcome."""

    roll: dice.RollResult
    natural: int
    total: int
    hit: bool
    threat: bool
    critical: bool = False
    confirmation: dict[str, Any] | None = None
    confirm_roll: dice.RollResult | None = None
    damage_rolls: list[dice.RollResult] = field(default_factory=list)
    extra_roll: dice.RollResult | None = None
    damage: dict[str, Any] | None = None
    outcome_key: str = ""


def roll_attack(setup: AttackSetup, rng: random.Random) -> AttackRolls:
    """The dice in their fixed order: attack roll, confirmation roll, damage, extra dice."""
    d20 = DATA.dice("angriff.wurf", "Angriffswurf")
    attack_roll = dice.roll(d20, rng)
    natural = attack_roll.total
    total = natural + setup.bonus.total
    hit, threat = attack_result(natural, setup.bonus.total, setup.armor_class, setup.threat_from)
    rolls = AttackRolls(attack_roll, natural, total, hit, threat)
    if threat:
        _confirm_threat(rolls, setup, d20, rng)
    if hit:
        _roll_damage(rolls, setup, rng)
    rolls.outcome_key = _outcome_key(rolls)
    return rolls


def _confirm_threat(
    rolls: AttackRolls, setup: AttackSetup, d20: dice.Expression, rng: random.Random
) -> None:
    if _confirmation_mode() == "automatisch":
        rolls.critical = True
        rolls.confirmation = {"mode": "automatisch", "confirmed": True}
    else:
        confirm_roll = dice.roll(d20, rng)
        rolls.confirm_roll = confirm_roll
        rolls.critical = attack_hits(confirm_roll.total, setup.bonus.total, setup.armor_class)
        rolls.confirmation = {
            "mode": "zweiter_angriffswurf",
            "roll": confirm_roll.to_dict(),
            "natural": confirm_roll.total,
            "total": confirm_roll.total + setup.bonus.total,
            "confirmed": rolls.critical,
        }


def _roll_damage(rolls: AttackRolls, setup: AttackSetup, rng: random.Random) -> None:
    times = setup.crit_times if rolls.critical else setup.normal_times
    damage_rolls = [dice.roll(setup.weapon, rng) for _ in range(times)]
    extra_roll: dice.RollResult | None = None
    if setup.extra.has_dice or setup.extra.constant:
        extra_roll = dice.roll(setup.extra, rng)
    parts = [r.total + setup.per_roll_bonus for r in damage_rolls]
    parts += [extra_roll.total] if extra_roll else []
    raw = sum(parts)
    if len(parts) > 1 and min(parts) < setup.floor:
        DATA.assume("schaden.mindestschaden_je_treffer")  # a floor per roll would give more
    lethal, nonlethal = (raw, 0) if raw >= setup.floor else (0, setup.floor)
    rolls.damage_rolls = damage_rolls
    rolls.extra_roll = extra_roll
    rolls.damage = {
        "times": times,
        "rolls": [r.to_dict() for r in damage_rolls],
        "modifiers_per_roll": [
            {"label": "Stärke", "value": setup.st_damage, "rule": setup.st_note},
            {"label": "andere Schadensmodifikatoren", "value": setup.damage_other},
        ],
        "extra": extra_roll.to_dict() if extra_roll else None,
        "raw_total": raw,
        "lethal": lethal,
        "nonlethal": nonlethal,
    }


def _outcome_key(rolls: AttackRolls) -> str:
    if rolls.natural == auto_miss():
        return "fehlschlag_natuerliche_1"
    if not rolls.hit:
        return "verfehlt"
    if rolls.critical:
        return "kritischer_treffer"
    return "treffer"
