"""Damage of a Pathfinder attack (L69–L88): how often the weapon is rolled and what Strength adds.

Owns the multipliers' sum (L86: ×2 and ×2 make ×3), the Stärkemodifikator on damage by weapon
and grip (L78–L82, with the rounding Annahme), the limits on damage dice, the one dice
expression for ``times`` weapon rolls plus extra dice that are never multiplied (L84, L88), and
the exact expected damage with the minimum of 1 nonlethal point (L76). The ``attack`` action in
``attack.py`` uses all of it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from engine import dice
from engine.errors import EngineError
from engine.formatting import number, signed
from regeln.pathfinder.common import DATA

# Damage expressions are multiplied up to ×(4 + 3 − 1) = ×6 (L84–L86); these bounds keep the
# exact distribution small and the combined expression within the dice limits.
MAX_WEAPON_DICE = 12
MAX_EXTRA_DICE = 16
MAX_DAMAGE_SIDES = 20
MAX_DAMAGE_CONSTANT = 100
MAX_DAMAGE_TERMS = 4


def combined_multiplier(multipliers: list[int]) -> int:
    """L86: every multiplier applies to the original damage, so ×2 and ×2 make ×3."""
    return 1 + sum(m - 1 for m in multipliers)


def _half(value: int) -> int:
    if value % 2 == 0:  # nothing to round: the Annahme is not read
        return value // 2
    if DATA.choice("schaden.rundung", ("abrunden", "aufrunden")) == "abrunden":
        return value // 2
    return -(-value // 2)


def _one_and_half(value: int) -> int:
    if value % 2 == 0:
        return 3 * value // 2
    if DATA.choice("schaden.rundung", ("abrunden", "aufrunden")) == "abrunden":
        return (3 * value) // 2
    return -(-3 * value // 2)


def strength_damage(
    weapon: str, grip: str, light: bool, strength: int, composite_rating: int
) -> tuple[int, str]:
    """Stärkemodifikator on damage (L78–L82) and a German explanation (L78 Nahkampf- and
    Wurfwaffen, Bogen; L80 Zweithandwaffe; L82 zweihändig)."""
    if weapon in ("nahkampf", "wurfwaffe"):
        if strength < 0:
            if grip == "zweithand":
                return strength, "Stärkemalus voll (Zweithandwaffe)"
            if grip == "zweihaendig":
                return strength, "Stärkemalus nicht vervielfacht (zweihändig)"
            return strength, "Stärkemalus"
        if grip == "zweithand":
            return _half(strength), "halber Stärkebonus (Zweithandwaffe)"
        if grip == "zweihaendig" and not light:
            return _one_and_half(strength), "anderthalbfacher Stärkebonus (zweihändig)"
        if grip == "zweihaendig":
            return strength, "einfacher Stärkebonus (leichte Waffe zweihändig)"
        return strength, "Stärkemodifikator"
    if weapon == "bogen":
        if strength < 0:
            return strength, "Stärkemalus zählt beim Bogen"
        return 0, "kein Stärkebonus beim Bogen"
    if weapon == "kompositbogen":
        DATA.choice("schaden.kompositbogen", ("bonus_bis_zugstaerke",))
        if strength < 0:
            return strength, "Stärkemalus (Kompositbogen, Annahme)"
        return min(strength, composite_rating), (
            f"Stärkebonus bis Zugstärke {signed(composite_rating)} (Kompositbogen, Annahme)"
        )
    DATA.choice("schaden.andere_fernkampfwaffen", ("kein_staerkemodifikator",))
    return 0, "kein Stärkemodifikator (andere Fernkampfwaffe, Annahme)"


def check_damage_dice(
    expression: dice.Expression, field_name: str, label: str, max_dice: int
) -> None:
    for term in expression.terms:
        if term.keep != "all":
            raise EngineError(
                f"{label}: Behalten (kh/kl) ist bei Schadenswürfen nicht vorgesehen.", field_name
            )
        if term.sides > MAX_DAMAGE_SIDES:
            raise EngineError(
                f"{label}: höchstens W{MAX_DAMAGE_SIDES} (Schadenswürfel).", field_name
            )
    if len(expression.terms) > MAX_DAMAGE_TERMS:
        raise EngineError(
            f"{label}: höchstens {MAX_DAMAGE_TERMS} Würfelglieder (z. B. 1W6+1W4).", field_name
        )
    if expression.dice_count > max_dice:
        raise EngineError(f"{label}: höchstens {max_dice} Würfel.", field_name)
    if abs(expression.constant) > MAX_DAMAGE_CONSTANT:
        raise EngineError(
            f"{label}: die Zahl darf höchstens {MAX_DAMAGE_CONSTANT} (oder "
            f"{number(-MAX_DAMAGE_CONSTANT)}) betragen.",
            field_name,
        )


def damage_expression(
    weapon: dice.Expression, per_roll_bonus: int, times: int, extra: dice.Expression
) -> dice.Expression:
    """Total of ``times`` weapon rolls (each with its modifiers, L84) plus the extra dice once
    (L88), as one expression for the exact distribution."""
    counts: Counter[tuple[int, int]] = Counter()
    for term in weapon.terms:
        counts[(term.sides, term.sign)] += term.count * times
    for term in extra.terms:
        counts[(term.sides, term.sign)] += term.count
    terms = tuple(
        dice.DiceTerm(count, sides, sign) for (sides, sign), count in sorted(counts.items())
    )
    constant = times * (weapon.constant + per_roll_bonus) + extra.constant
    return dice.Expression(terms, constant)


@dataclass(frozen=True)
class DamageOdds:
    """Expected lethal damage and chance of the minimum (1 nonlethal) for one kind of hit, and
    the distribution of its lethal damage (a total below the minimum deals 0 lethal)."""

    lethal: Fraction
    minimum: Fraction
    distribution: dict[int, Fraction]
    bits: int  # of the distribution's common denominator (the number of outcomes)


def damage_odds(expression: dice.Expression) -> DamageOdds:
    """L76: a total below 1 deals 1 point of nonlethal damage instead (Annahme: per hit)."""
    floor = DATA.integer("schaden.mindestschaden", 1, 1)
    dist = dice.distribution(expression, field="damage", label="Waffenschaden")
    lethal = sum((t * p for t, p in dist.items() if t >= floor), Fraction(0))
    minimum = sum((p for t, p in dist.items() if t < floor), Fraction(0))
    by_lethal = {t: p for t, p in dist.items() if t >= floor}
    if minimum:
        by_lethal[0] = minimum
    bits = max(p.denominator for p in dist.values()).bit_length()
    return DamageOdds(lethal, minimum, by_lethal, bits)
