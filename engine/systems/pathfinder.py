"""Pathfinder 1 (source 004_019b513a861ec26f.txt, „Die Grundregeln des Kampfes“).

Sign convention: in Pathfinder ``+N`` is a bonus and ``−N`` a malus (penalty).

Actions: ``attack`` (Angriffswurf with Angriffsbonus, Bedrohung, Bestätigung, Schaden),
``armor_class`` (RK, Berührungs-RK, RK ohne GE-Bonus), ``saving_throw`` (Rettungswurf),
``initiative`` (not in the text: the published rule as an Annahme), ``hit_points``
(Trefferpunkte after damage) and ``fumble`` (the text has no Patzer rule beyond the natural 1).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from engine import dice
from engine.data_files import DataError, load
from engine.display import Display
from engine.errors import EngineError
from engine.formatting import decimal, number, signed
from engine.ordering import check_unique_names, order_groups, roll_off
from engine.params import BoolParam, ChoiceParam, DiceParam, IntParam, ListParam, TextParam
from engine.registry import new_system

SOURCE = "004_019b513a861ec26f.txt"
SYSTEM = new_system("pathfinder", "Pathfinder 1", SOURCE)
DATA = load("pathfinder")

SIZE_TABLE = "tabellen.groessenmodifikatoren"

# Damage expressions are multiplied up to ×(4 + 3 − 1) = ×6 (L84–L86); these bounds keep the
# exact distribution small and the combined expression within the dice limits.
MAX_WEAPON_DICE = 12
MAX_EXTRA_DICE = 16
MAX_DAMAGE_SIDES = 20
MAX_DAMAGE_CONSTANT = 100
MAX_DAMAGE_TERMS = 4


def _assumptions(*prefixes: str) -> tuple[str, ...]:
    return tuple(a["text"] for a in DATA.assumptions() if a["key"].startswith(prefixes))


# ---------------------------------------------------------------------------------------------
# Data
# ---------------------------------------------------------------------------------------------


def _size_rows() -> list[dict[str, Any]]:
    rows = DATA.table(f"{SIZE_TABLE}.zeilen", ("schluessel", "groesse", "modifikator", "wert"))
    for index in range(len(rows)):
        DATA.integer(f"{SIZE_TABLE}.zeilen.{index}.wert", -20, 20)
    return rows


SIZE_CHOICES = tuple(
    (str(row["schluessel"]), f"{row['groesse']} ({row['modifikator']})") for row in _size_rows()
)


def size_modifier(key: str) -> int:
    """Größenmodifikator from Tabelle: Größenmodifikatoren (L50–L64)."""
    for row in _size_rows():
        if row["schluessel"] == key:
            return int(row["wert"])
    raise EngineError(f"Größe: „{key}“ steht nicht in der Tabelle Größenmodifikatoren.", "size")


def _size_name(key: str) -> str:
    for row in _size_rows():
        if row["schluessel"] == key:
            return str(row["groesse"])
    return key


def _d20(key: str, label: str) -> dice.Expression:
    return dice.parse(DATA.text(key), key, label)


def _auto_miss() -> int:
    return DATA.integer("angriff.automatischer_fehlschlag", 1, 20)


def _auto_hit() -> int:
    return DATA.integer("angriff.automatischer_treffer", 1, 20)


def _choice(key: str, allowed: tuple[str, ...]) -> str:
    value = DATA.text(key)
    if value not in allowed:
        raise DataError(DATA.file, key, f"muss eine von {', '.join(allowed)} sein, ist {value!r}")
    return value


# ---------------------------------------------------------------------------------------------
# Attack roll, threat, confirmation (L8–L10)
# ---------------------------------------------------------------------------------------------


def attack_hits(natural: int, bonus: int, armor_class: int) -> bool:
    """L8, L10: 1W20 + Angriffsbonus ≥ RK hits; a natural 1 always misses, a natural 20 hits."""
    if natural == _auto_miss():
        return False
    if natural == _auto_hit():
        return True
    return natural + bonus >= armor_class


def attack_result(
    natural: int, bonus: int, armor_class: int, threat_from: int
) -> tuple[bool, bool]:
    """(hit, threat) of one attack roll; threat range ``threat_from``–20 (Annahme beyond 20)."""
    hit = attack_hits(natural, bonus, armor_class)
    if natural == _auto_hit():
        return True, True  # L10: always a hit and a threat
    if natural >= threat_from and natural != _auto_miss():
        if DATA.flag("angriff.bedrohungsbereich_nur_bei_treffer"):
            return hit, hit
        return True, True
    return hit, False


def _confirmation_mode() -> str:
    return _choice("angriff.bestaetigung", ("zweiter_angriffswurf", "automatisch"))


def attack_chances(bonus: int, armor_class: int, threat_from: int) -> dict[str, Fraction]:
    """Exact chances of one attack (with confirmation), by enumerating the W20 faces."""
    die = dice.distribution(_d20("angriff.wurf", "Angriffswurf"))
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
    natural_1 = die.get(_auto_miss(), Fraction(0))
    return {
        "hit": hit,
        "threat": threat,
        "confirm": confirm,
        "critical": threat * confirm,
        "natural_1": natural_1,
        "natural_20": die.get(_auto_hit(), Fraction(0)),
    }


# ---------------------------------------------------------------------------------------------
# Damage (L69–L88)
# ---------------------------------------------------------------------------------------------


def combined_multiplier(multipliers: list[int]) -> int:
    """L86: every multiplier applies to the original damage, so ×2 and ×2 make ×3."""
    return 1 + sum(m - 1 for m in multipliers)


def _half(value: int) -> int:
    if _choice("schaden.rundung", ("abrunden", "aufrunden")) == "abrunden":
        return value // 2
    return -(-value // 2)


def _one_and_half(value: int) -> int:
    if _choice("schaden.rundung", ("abrunden", "aufrunden")) == "abrunden":
        return (3 * value) // 2
    return -(-3 * value // 2)


def strength_damage(
    weapon: str, grip: str, light: bool, strength: int, composite_rating: int
) -> tuple[int, str]:
    """Stärkemodifikator on damage (L78–L82) and a German explanation."""
    if weapon in ("nahkampf", "wurfwaffe"):
        if strength < 0:
            if grip == "zweithand":
                return strength, "Stärkemalus voll (Zweithandwaffe, L80)"
            if grip == "zweihaendig":
                return strength, "Stärkemalus nicht vervielfacht (zweihändig, L82)"
            return strength, "Stärkemalus (L78)"
        if grip == "zweithand":
            return _half(strength), "halber Stärkebonus (Zweithandwaffe, L80)"
        if grip == "zweihaendig" and not light:
            return _one_and_half(strength), "anderthalbfacher Stärkebonus (zweihändig, L82)"
        if grip == "zweihaendig":
            return strength, "einfacher Stärkebonus (leichte Waffe zweihändig, L82)"
        return strength, "Stärkemodifikator (L78)"
    if weapon == "bogen":
        if strength < 0:
            return strength, "Stärkemalus zählt beim Bogen (L78)"
        return 0, "kein Stärkebonus beim Bogen (L78)"
    if weapon == "kompositbogen":
        _choice("schaden.kompositbogen", ("bonus_bis_zugstaerke",))
        if strength < 0:
            return strength, "Stärkemalus (Kompositbogen, Annahme)"
        return min(strength, composite_rating), (
            f"Stärkebonus bis Zugstärke {signed(composite_rating)} (Kompositbogen, Annahme)"
        )
    _choice("schaden.andere_fernkampfwaffen", ("kein_staerkemodifikator",))
    return 0, "kein Stärkemodifikator (andere Fernkampfwaffe, Annahme)"


def _check_damage_dice(
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
    """Expected lethal damage and chance of the minimum (1 nonlethal) for one kind of hit."""

    lethal: Fraction
    minimum: Fraction


def damage_odds(expression: dice.Expression) -> DamageOdds:
    """L76: a total below 1 deals 1 point of nonlethal damage instead (Annahme: per hit)."""
    floor = DATA.integer("schaden.mindestschaden", 1, 1)
    dist = dice.distribution(expression, field="damage", label="Waffenschaden")
    lethal = sum((t * p for t, p in dist.items() if t >= floor), Fraction(0))
    minimum = sum((p for t, p in dist.items() if t < floor), Fraction(0))
    return DamageOdds(lethal, minimum)


# ---------------------------------------------------------------------------------------------
# Action: attack
# ---------------------------------------------------------------------------------------------

WEAPON_CHOICES = (
    ("nahkampf", "Nahkampfwaffe"),
    ("wurfwaffe", "Wurfwaffe (auch Schleuder)"),
    ("bogen", "Bogen (kein Kompositbogen)"),
    ("kompositbogen", "Kompositbogen"),
    ("fernkampf", "andere Fernkampfwaffe (z. B. Armbrust)"),
)
GRIP_CHOICES = (
    ("haupthand", "Haupthand (einhändig)"),
    ("zweithand", "Zweithand"),
    ("zweihaendig", "zweihändig"),
)
THREAT_CHOICES = tuple(
    (str(n), "nur 20" if n == 20 else f"{n}–20") for n in (20, 19, 18, 17, 16, 15)
)
MULTIPLIER_CHOICES = (("2", "×2"), ("3", "×3"), ("4", "×4"))
OTHER_MULTIPLIER_CHOICES = (("1", "keiner"), ("2", "×2"), ("3", "×3"))

SIZE_PARAM = ChoiceParam(
    "size",
    "Größe",
    help="Größenmodifikator nach Tabelle: Größenmodifikatoren (L50–L61).",
    choices=SIZE_CHOICES,
    default="mittelgross",
    group="Größe",
    advanced=True,
)


@dataclass
class AttackBonus:
    total: int
    parts: list[tuple[str, int]]
    notes: list[str] = field(default_factory=list)


def attack_bonus(params: dict[str, Any]) -> AttackBonus:
    """L15–L23: melee GAB + ST + Größe; ranged GAB + GE + Größe + Entfernungsmalus.

    Plus „andere Modifikatoren, falls vorhanden“ (L8)."""
    ranged = params["weapon"] != "nahkampf"
    parts: list[tuple[str, int]] = [("GAB", params["bab"])]
    notes: list[str] = []
    if ranged:
        parts.append(("GE", params["dexterity"]))
    else:
        parts.append(("ST", params["strength"]))
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
        per_step = DATA.integer("angriff.entfernungsmalus_je_schritt", -20, 0)
        parts.append(("Entfernungsmalus", per_step * (steps - 1)))
    elif steps > 1:
        notes.append("Die Entfernung zählt nur im Fernkampf (L23); sie wurde hier nicht genutzt.")
    if params["attack_other"]:
        parts.append(("andere Modifikatoren", params["attack_other"]))
    return AttackBonus(sum(v for _, v in parts), parts, notes)


def _parts_text(parts: list[tuple[str, int]]) -> str:
    return " ".join(
        f"{signed(v)} {name}" if i else f"{number(v)} {name}" for i, (name, v) in enumerate(parts)
    )


@SYSTEM.action(
    "attack",
    title="Angriffswurf mit Schaden",
    summary=(
        "1W20 + Angriffsbonus gegen die RK des Ziels: natürliche 1 verfehlt immer, natürliche 20 "
        "trifft immer und bedroht. Bei bestätigter Bedrohung wird der Schaden mehrfach "
        "ausgewürfelt; zusätzliche Schadenswürfel nie. Mit exakten Chancen und erwartetem Schaden."
    ),
    source=f"{SOURCE} L6–L23, L69–L88",
    params=(
        ChoiceParam(
            "weapon",
            "Waffe",
            help="Nahkampf: GAB + ST + Größe; sonst GAB + GE + Größe + Entfernungsmalus.",
            choices=WEAPON_CHOICES,
            default="nahkampf",
            group="Angriffswurf",
        ),
        IntParam(
            "bab",
            "Grund-Angriffsbonus (GAB)",
            default=3,
            minimum=0,
            maximum=30,
            group="Angriffswurf",
        ),
        IntParam(
            "strength",
            "Stärkemodifikator",
            default=2,
            minimum=-5,
            maximum=20,
            help="Zählt beim Nahkampf-Angriff und beim Schaden (Bonus +, Malus −).",
            group="Angriffswurf",
        ),
        IntParam(
            "dexterity",
            "Geschicklichkeitsmodifikator",
            default=1,
            minimum=-5,
            maximum=20,
            help="Zählt beim Fernkampf-Angriff (auch Wurfwaffen).",
            group="Angriffswurf",
        ),
        SIZE_PARAM,
        IntParam(
            "range_increment",
            "Entfernung (Grundreichweiten)",
            default=1,
            minimum=1,
            maximum=10,
            help="1 = innerhalb der ersten Grundreichweite (kein Malus); nur Fernkampf.",
            group="Angriffswurf",
        ),
        IntParam(
            "attack_other",
            "Andere Modifikatoren (Angriff)",
            default=0,
            minimum=-30,
            maximum=30,
            help="Weitere Boni (+) und Mali (−) auf den Angriffswurf.",
            group="Angriffswurf",
        ),
        IntParam(
            "armor_class", "RK des Ziels", default=15, minimum=0, maximum=80, group="Angriffswurf"
        ),
        ChoiceParam(
            "threat_range",
            "Bedrohungsbereich",
            help="Natürliche Würfe, die eine Bedrohung sein können (Waffe).",
            choices=THREAT_CHOICES,
            default="20",
            group="Kritischer Treffer",
        ),
        ChoiceParam(
            "multiplier",
            "Kritischer Multiplikator",
            choices=MULTIPLIER_CHOICES,
            default="2",
            group="Kritischer Treffer",
        ),
        DiceParam(
            "damage",
            "Waffenschaden",
            default="1W8",
            help="Würfel der Waffe, z. B. 1W8 oder 2W6+1 (wird bei Vervielfachung mehrfach "
            "ausgewürfelt).",
            group="Schaden",
        ),
        ChoiceParam(
            "grip",
            "Führung",
            help="Zweithand: halber Stärkebonus; zweihändig: anderthalbfacher Stärkebonus.",
            choices=GRIP_CHOICES,
            default="haupthand",
            group="Schaden",
        ),
        BoolParam(
            "light_weapon",
            "Leichte Waffe",
            help="Eine leichte Waffe zweihändig geführt gibt keinen anderthalbfachen Bonus.",
            group="Schaden",
            advanced=True,
        ),
        IntParam(
            "composite_rating",
            "Zugstärke (Kompositbogen)",
            default=0,
            minimum=0,
            maximum=10,
            help="Höchster Stärkebonus, den der Kompositbogen auf den Schaden gibt (Annahme).",
            group="Schaden",
            advanced=True,
        ),
        IntParam(
            "damage_other",
            "Andere Schadensmodifikatoren",
            default=0,
            minimum=-20,
            maximum=40,
            help="Werden bei Vervielfachung mit ausgewürfelt (z. B. Verbesserungsbonus).",
            group="Schaden",
        ),
        DiceParam(
            "extra_dice",
            "Zusätzliche Schadenswürfel",
            default="0",
            help="Z. B. hinterhältiger Angriff 2W6; wird nie vervielfacht (0 = keine).",
            group="Schaden",
            advanced=True,
        ),
        ChoiceParam(
            "other_multiplier",
            "Weiterer Schadensmultiplikator",
            help="Gilt bei jedem Treffer; mit dem kritischen Multiplikator zusammen zählt "
            "jeder nur auf den ursprünglichen Schaden (×2 und ×2 = ×3).",
            choices=OTHER_MULTIPLIER_CHOICES,
            default="1",
            group="Schaden",
            advanced=True,
        ),
    ),
    assumptions=_assumptions("angriff", "schaden"),
)
def attack(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    weapon_expr = dice.parse(params["damage"], "damage", "Waffenschaden")
    _check_damage_dice(weapon_expr, "damage", "Waffenschaden", MAX_WEAPON_DICE)
    extra_expr = dice.parse(params["extra_dice"], "extra_dice", "Zusätzliche Schadenswürfel")
    _check_damage_dice(extra_expr, "extra_dice", "Zusätzliche Schadenswürfel", MAX_EXTRA_DICE)

    bonus = attack_bonus(params)
    ac = params["armor_class"]
    threat_from = int(params["threat_range"])
    crit_multiplier = int(params["multiplier"])
    other_multiplier = int(params["other_multiplier"])
    normal_times = combined_multiplier([other_multiplier])
    crit_times = combined_multiplier([crit_multiplier, other_multiplier])
    st_damage, st_note = strength_damage(
        params["weapon"],
        params["grip"],
        params["light_weapon"],
        params["strength"],
        params["composite_rating"],
    )
    per_roll_bonus = st_damage + params["damage_other"]
    floor = DATA.integer("schaden.mindestschaden", 1, 1)

    # --- exact odds (before rolling) ---
    odds = attack_chances(bonus.total, ac, threat_from)
    p_critical = odds["critical"]
    p_normal = odds["hit"] - p_critical
    normal_odds = damage_odds(
        damage_expression(weapon_expr, per_roll_bonus, normal_times, extra_expr)
    )
    crit_odds = damage_odds(damage_expression(weapon_expr, per_roll_bonus, crit_times, extra_expr))
    expected_lethal = p_normal * normal_odds.lethal + p_critical * crit_odds.lethal
    expected_nonlethal = p_normal * normal_odds.minimum + p_critical * crit_odds.minimum

    # --- the rolls ---
    d20 = _d20("angriff.wurf", "Angriffswurf")
    attack_roll = dice.roll(d20, rng)
    natural = attack_roll.total
    total = natural + bonus.total
    hit, threat = attack_result(natural, bonus.total, ac, threat_from)
    confirmation: dict[str, Any] | None = None
    critical = False
    confirm_roll: dice.RollResult | None = None
    if threat:
        if _confirmation_mode() == "automatisch":
            critical = True
            confirmation = {"mode": "automatisch", "confirmed": True}
        else:
            confirm_roll = dice.roll(d20, rng)
            critical = attack_hits(confirm_roll.total, bonus.total, ac)
            confirmation = {
                "mode": "zweiter_angriffswurf",
                "roll": confirm_roll.to_dict(),
                "natural": confirm_roll.total,
                "total": confirm_roll.total + bonus.total,
                "confirmed": critical,
            }

    damage_rolls: list[dice.RollResult] = []
    extra_roll: dice.RollResult | None = None
    damage: dict[str, Any] | None = None
    if hit:
        times = crit_times if critical else normal_times
        damage_rolls = [dice.roll(weapon_expr, rng) for _ in range(times)]
        if extra_expr.has_dice or extra_expr.constant:
            extra_roll = dice.roll(extra_expr, rng)
        raw = sum(r.total + per_roll_bonus for r in damage_rolls) + (
            extra_roll.total if extra_roll else 0
        )
        lethal, nonlethal = (raw, 0) if raw >= floor else (0, floor)
        damage = {
            "times": times,
            "rolls": [r.to_dict() for r in damage_rolls],
            "modifiers_per_roll": [
                {"label": "Stärke", "value": st_damage, "rule": st_note},
                {"label": "andere Schadensmodifikatoren", "value": params["damage_other"]},
            ],
            "extra": extra_roll.to_dict() if extra_roll else None,
            "raw_total": raw,
            "lethal": lethal,
            "nonlethal": nonlethal,
        }

    if natural == _auto_miss():
        outcome_key = "fehlschlag_natuerliche_1"
    elif not hit:
        outcome_key = "verfehlt"
    elif critical:
        outcome_key = "kritischer_treffer"
    else:
        outcome_key = "treffer"

    # --- display ---
    if damage is None:
        if outcome_key == "fehlschlag_natuerliche_1":
            outcome = "Fehlschlag: natürliche 1 – verfehlt immer."
        else:
            outcome = f"Verfehlt: {number(total)} gegen RK {number(ac)}."
    else:
        amount = (
            f"{number(damage['lethal'])} Schaden"
            if damage["lethal"]
            else f"{number(damage['nonlethal'])} Punkt nichttödlicher Schaden (Mindestschaden)"
        )
        if critical:
            outcome = f"Kritischer Treffer (×{crit_times}): {amount}."
        elif threat:
            outcome = f"Treffer, Bedrohung nicht bestätigt: {amount}."
        else:
            how = " (natürliche 20)" if natural == _auto_hit() else ""
            outcome = f"Treffer{how}: {amount}."
    display = Display(headline="Angriffswurf – Pathfinder", outcome=outcome)
    kind = "Fernkampf" if params["weapon"] != "nahkampf" else "Nahkampf"
    display.table(
        "Angriffsbonus und Schadensmodifikator",
        ["Wert", "Rechnung", "Ergebnis"],
        [
            [f"Angriffsbonus ({kind})", _parts_text(bonus.parts), signed(bonus.total)],
            ["Stärke auf den Schaden", st_note, signed(st_damage)],
            [
                "Schaden je Wurf",
                f"{weapon_expr.notation()} {signed(st_damage)} Stärke "
                f"{signed(params['damage_other'])} andere",
                f"{number(weapon_expr.minimum() + per_roll_bonus)} bis "
                f"{number(weapon_expr.maximum() + per_roll_bonus)}",
            ],
            ["Multiplikator", "normal / kritisch (L84–L86)", f"×{normal_times} / ×{crit_times}"],
        ],
    )
    mods = [(name, v) for name, v in bonus.parts if v or name == "GAB"]
    display.roll("Angriffswurf", attack_roll, mods, total=total)
    if confirm_roll is not None:
        display.roll("Bestätigungswurf", confirm_roll, mods, total=confirm_roll.total + bonus.total)
    for index, rolled in enumerate(damage_rolls, start=1):
        label = "Schaden" if len(damage_rolls) == 1 else f"Schaden, Wurf {index}"
        damage_mods = [
            (n, v) for n, v in (("Stärke", st_damage), ("andere", params["damage_other"])) if v
        ]
        display.roll(label, rolled, damage_mods, total=rolled.total + per_roll_bonus)
    if extra_roll is not None:
        display.roll("Zusätzliche Schadenswürfel (nie vervielfacht)", extra_roll)
    notes = list(bonus.notes)
    if natural == _auto_hit():
        notes.append("Natürliche 20: immer ein Treffer und eine Bedrohung (L10).")
    if natural == _auto_miss():
        notes.append(
            "Natürliche 1: immer ein Fehlschlag, gleich wie hoch der Angriffsbonus ist (L10)."
        )
    if threat and confirmation is not None and confirmation["mode"] == "zweiter_angriffswurf":
        notes.append(
            "Bestätigung (Annahme): zweiter Angriffswurf mit demselben Bonus gegen dieselbe RK – "
            + ("getroffen, also kritisch." if critical else "verfehlt, also normaler Treffer.")
        )
    if damage is not None and damage["nonlethal"]:
        notes.append(
            f"Mindestschaden (L76): Die Würfe ergaben {number(damage['raw_total'])}; der Treffer "
            "verursacht dennoch 1 Punkt nichttödlichen Schaden."
        )
    if (
        params["weapon"] in ("bogen", "kompositbogen", "fernkampf")
        and params["grip"] != "haupthand"
    ):
        notes.append("Die Führung (Zweithand/zweihändig) zählt nur bei Nahkampf- und Wurfwaffen.")
    display.notes("Hinweise", notes)
    display.chances(
        "Chancen dieses Angriffs (vor dem Wurf)",
        [
            ("Treffer", odds["hit"]),
            ("Bedrohung", odds["threat"]),
            ("Kritischer Treffer (bestätigt)", p_critical),
            ("Natürliche 1 (Fehlschlag)", odds["natural_1"]),
            ("Nur Mindestschaden (1 nichttödlich)", expected_nonlethal),
        ],
    )
    display.table(
        "Erwarteter Schaden je Angriff (exakt)",
        ["Erwartungswert", "Schaden"],
        [
            ["tödlicher Schaden", decimal(expected_lethal)],
            ["nichttödlicher Mindestschaden", decimal(expected_nonlethal)],
            ["je Treffer (ohne kritisch)", decimal(normal_odds.lethal + normal_odds.minimum)],
            ["je kritischem Treffer", decimal(crit_odds.lethal + crit_odds.minimum)],
        ],
    )
    return {
        "attack_bonus": bonus.total,
        "attack_bonus_parts": [{"label": n, "value": v} for n, v in bonus.parts],
        "roll": attack_roll.to_dict(),
        "natural": natural,
        "total": total,
        "armor_class": ac,
        "hit": hit,
        "threat": threat,
        "confirmation": confirmation,
        "critical": critical,
        "outcome": outcome_key,
        "multiplier": {"normal": normal_times, "critical": crit_times},
        "strength_damage": st_damage,
        "damage": damage,
        "chances": {
            "hit": str(odds["hit"]),
            "threat": str(odds["threat"]),
            "confirm": str(odds["confirm"]),
            "critical": str(p_critical),
            "natural_1": str(odds["natural_1"]),
            "expected_damage": str(expected_lethal),
            "expected_nonlethal": str(expected_nonlethal),
            "expected_damage_normal_hit": str(normal_odds.lethal),
            "expected_damage_critical_hit": str(crit_odds.lethal),
        },
        "display": display.to_dict(),
    }


# ---------------------------------------------------------------------------------------------
# Action: armor_class (L25–L66)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ArmorClass:
    normal: int
    touch: int
    no_dex: int
    touch_no_dex: int
    incorporeal: int
    dex_used: int


def armor_class_values(params: dict[str, Any]) -> ArmorClass:
    """L33: 10 + Rüstung + Schild + GE + andere; L35 GE capped; L38/L48 without GE bonus (and
    dodge); L66 touch drops armour, shield and natural armour; incorporeal touch also cover,
    but keeps armour bonuses from force effects."""
    base = DATA.integer("ruestungsklasse.grundwert", 0, 100)
    dex = params["dexterity"]
    dex_used = min(dex, params["max_dex"]) if dex > 0 else dex
    size = size_modifier(params["size"])
    rest = size + params["deflection"] + params["other"]
    armour = params["armor"] + params["shield"] + params["natural_armor"]
    cover = params["cover"]
    with_dex = dex_used + params["dodge"]
    without_dex = min(dex_used, 0)
    normal = base + armour + with_dex + rest + cover
    touch = base + with_dex + rest + cover
    force = params["armor"] if params["force_armor"] else 0
    return ArmorClass(
        normal=normal,
        touch=touch,
        no_dex=base + armour + without_dex + rest + cover,
        touch_no_dex=base + without_dex + rest + cover,
        incorporeal=touch - cover + force,
        dex_used=dex_used,
    )


@SYSTEM.action(
    "armor_class",
    title="Rüstungsklasse (RK)",
    summary=(
        "RK = 10 + Rüstungsbonus + Schildbonus + Geschicklichkeitsmodifikator + andere "
        "Modifikatoren (Größe, natürliche Rüstung, Ablenkung, Ausweichen …); dazu Berührungs-RK, "
        "RK ohne GE-Bonus und die Trefferchance eines Angreifers."
    ),
    source=f"{SOURCE} L25–L66",
    params=(
        IntParam(
            "armor",
            "Rüstungsbonus",
            default=4,
            minimum=0,
            maximum=30,
            help="Der Rüstung, samt Verbesserungsbonus (L42).",
            group="Rüstungsklasse",
        ),
        IntParam("shield", "Schildbonus", default=0, minimum=0, maximum=20, group="Rüstungsklasse"),
        IntParam(
            "dexterity",
            "Geschicklichkeitsmodifikator",
            default=2,
            minimum=-5,
            maximum=20,
            group="Rüstungsklasse",
        ),
        IntParam(
            "max_dex",
            "Max. GE-Bonus der Rüstung",
            default=99,
            minimum=0,
            maximum=99,
            help="Die Rüstung kann den GE-Bonus begrenzen (L35); 99 = keine Grenze.",
            group="Rüstungsklasse",
            advanced=True,
        ),
        SIZE_PARAM,
        IntParam(
            "natural_armor",
            "Natürliche Rüstung",
            default=0,
            minimum=0,
            maximum=30,
            group="Andere Modifikatoren",
        ),
        IntParam(
            "deflection",
            "Ablenkungsbonus",
            default=0,
            minimum=0,
            maximum=20,
            group="Andere Modifikatoren",
        ),
        IntParam(
            "dodge",
            "Ausweichboni",
            default=0,
            minimum=0,
            maximum=20,
            help="Summe aller Ausweichboni (sie dürfen addiert werden, L48).",
            group="Andere Modifikatoren",
        ),
        IntParam(
            "cover",
            "Deckungsbonus",
            default=0,
            minimum=0,
            maximum=20,
            help="Zählt nicht gegen körperlose Berührungsangriffe (L66).",
            group="Andere Modifikatoren",
        ),
        BoolParam(
            "force_armor",
            "Rüstungsbonus aus Krafteffekt",
            help="Z. B. Magierrüstung: gilt gegen körperlose Berührungsangriffe weiter (L66).",
            group="Andere Modifikatoren",
            advanced=True,
        ),
        IntParam(
            "other",
            "Andere Modifikatoren",
            default=0,
            minimum=-20,
            maximum=20,
            help="Weitere Boni (+) und Mali (−) auf die RK.",
            group="Andere Modifikatoren",
        ),
        IntParam(
            "attacker_bonus",
            "Angriffsbonus eines Angreifers",
            default=5,
            minimum=-10,
            maximum=50,
            help="Nur für die Trefferchancen.",
            group="Vergleich mit einem Angriff",
        ),
    ),
)
def armor_class(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    ac = armor_class_values(params)
    size = size_modifier(params["size"])
    values = {
        "normal": ac.normal,
        "touch": ac.touch,
        "flat": ac.no_dex,
        "touch_flat": ac.touch_no_dex,
        "incorporeal_touch": ac.incorporeal,
    }
    labels = {
        "normal": "RK",
        "touch": "Berührungs-RK",
        "flat": "RK ohne GE-Bonus",
        "touch_flat": "Berührungs-RK ohne GE-Bonus",
        "incorporeal_touch": "RK gegen körperlose Berührungsangriffe",
    }
    rules = {
        "normal": "L33",
        "touch": "ohne Rüstung, Schild, natürliche Rüstung (L66)",
        "flat": "ohne GE-Bonus und Ausweichboni (L38, L48)",
        "touch_flat": "beides (L38, L48, L66)",
        "incorporeal_touch": "Berührung, ohne Deckung, Kraft-Rüstung zählt (L66)",
    }
    bonus = params["attacker_bonus"]
    hit_chances = {key: attack_chances(bonus, value, 20)["hit"] for key, value in values.items()}
    parts = [
        ("Grundwert", DATA.integer("ruestungsklasse.grundwert", 0, 100)),
        ("Rüstungsbonus", params["armor"]),
        ("Schildbonus", params["shield"]),
        ("Geschicklichkeit", ac.dex_used),
        ("Größe", size),
        ("Natürliche Rüstung", params["natural_armor"]),
        ("Ablenkung", params["deflection"]),
        ("Ausweichen", params["dodge"]),
        ("Deckung", params["cover"]),
        ("andere", params["other"]),
    ]
    display = Display(
        headline="Rüstungsklasse – Pathfinder",
        outcome=f"RK {number(ac.normal)}, Berührung {number(ac.touch)}, "
        f"ohne GE-Bonus {number(ac.no_dex)}.",
    )
    display.table(
        "Zusammensetzung der RK (L33)",
        ["Bestandteil", "Wert"],
        [[name, signed(v) if i else number(v)] for i, (name, v) in enumerate(parts)]
        + [["RK", number(ac.normal)]],
    )
    display.table(
        "Varianten",
        ["RK-Art", "Wert", "Regel"],
        [[labels[k], number(v), rules[k]] for k, v in values.items()],
    )
    notes = []
    if params["dexterity"] > params["max_dex"]:
        notes.append(f"Die Rüstung begrenzt den GE-Bonus auf {signed(params['max_dex'])} (L35).")
    if params["dexterity"] < 0:
        notes.append("Ein GE-Malus zählt immer, auch ohne GE-Bonus (L38).")
    display.notes("Hinweise", notes)
    display.chances(
        f"Trefferchance eines Angreifers mit {signed(bonus)} (1W20, natürliche 1/20, L10)",
        [(labels[k], p) for k, p in hit_chances.items()],
    )
    return {
        "armor_class": values,
        "dexterity_used": ac.dex_used,
        "size_modifier": size,
        "parts": [{"label": n, "value": v} for n, v in parts],
        "chances": {f"hit_{k}": str(p) for k, p in hit_chances.items()},
        "display": display.to_dict(),
    }


# ---------------------------------------------------------------------------------------------
# Action: saving_throw (L144–L162)
# ---------------------------------------------------------------------------------------------

SAVE_CHOICES = (
    ("reflex", "Reflex (Geschicklichkeit)"),
    ("willen", "Willen (Weisheit)"),
    ("zaehigkeit", "Zähigkeit (Konstitution)"),
)
SAVE_ATTRIBUTE = {
    "reflex": "Geschicklichkeitsmodifikator",
    "willen": "Weisheitsmodifikator",
    "zaehigkeit": "Konstitutionsmodifikator",
}


def save_succeeds(natural: int, bonus: int, dc: int) -> bool:
    """L162: natural 1 always fails (Patzer), natural 20 always succeeds; otherwise ≥ SG."""
    if natural == DATA.integer("rettungswurf.automatischer_fehlschlag", 1, 20):
        return False
    if natural == DATA.integer("rettungswurf.automatischer_erfolg", 1, 20):
        return True
    _choice("rettungswurf.vergleich", ("erreicht_oder_uebertrifft",))
    return natural + bonus >= dc


@SYSTEM.action(
    "saving_throw",
    title="Rettungswurf",
    summary=(
        "1W20 + Grundbonus auf RW + Attributsmodifikator (+ andere) gegen den SG; eine "
        "natürliche 1 ist immer ein Patzer, eine natürliche 20 immer ein Erfolg."
    ),
    source=f"{SOURCE} L144–L162",
    params=(
        ChoiceParam("kind", "Art", choices=SAVE_CHOICES, default="reflex"),
        IntParam("base", "Grundbonus auf RW", default=2, minimum=0, maximum=30),
        IntParam(
            "attribute",
            "Attributsmodifikator",
            default=1,
            minimum=-5,
            maximum=20,
            help="Reflex: GE, Willen: WE, Zähigkeit: KO (L154–L158).",
        ),
        IntParam(
            "other",
            "Andere Modifikatoren",
            default=0,
            minimum=-20,
            maximum=20,
            help="Weitere Boni (+) und Mali (−).",
        ),
        IntParam("dc", "Schwierigkeitsgrad (SG)", default=15, minimum=1, maximum=80),
    ),
    assumptions=_assumptions("rettungswurf"),
)
def saving_throw(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    die = _d20("rettungswurf.wurf", "Rettungswurf")
    kind = params["kind"]
    parts = [("Grundbonus", params["base"]), (SAVE_ATTRIBUTE[kind], params["attribute"])]
    if params["other"]:
        parts.append(("andere", params["other"]))
    bonus = sum(v for _, v in parts)
    dc = params["dc"]
    rolled = dice.roll(die, rng)
    natural = rolled.total
    total = natural + bonus
    success = save_succeeds(natural, bonus, dc)
    auto_fail = DATA.integer("rettungswurf.automatischer_fehlschlag", 1, 20)
    auto_success = DATA.integer("rettungswurf.automatischer_erfolg", 1, 20)
    dist = dice.distribution(die)
    p_success = sum((p for f, p in dist.items() if save_succeeds(f, bonus, dc)), Fraction(0))
    p_patzer = dist.get(auto_fail, Fraction(0))
    if natural == auto_fail:
        outcome_key, outcome = "patzer", "Patzer: natürliche 1 – misslingt immer."
    elif success:
        outcome_key = "erfolg"
        outcome = (
            "Erfolg: natürliche 20 – gelingt immer."
            if natural == auto_success
            else f"Erfolg: {number(total)} gegen SG {number(dc)}."
        )
    else:
        outcome_key, outcome = "misserfolg", f"Misserfolg: {number(total)} gegen SG {number(dc)}."
    title = dict(SAVE_CHOICES)[kind].split(" ")[0]
    display = Display(headline=f"Rettungswurf ({title}) – Pathfinder", outcome=outcome)
    display.roll(f"{title}wurf", rolled, parts, total=total)
    notes = []
    if natural == auto_fail:
        notes.append(
            "Eine natürliche 1 ist immer ein Patzer und kann Gegenstände beschädigen, die der "
            "Wirkung ausgesetzt sind (L162)."
        )
    display.notes("Hinweise", notes)
    display.chances(
        "Chancen (vor dem Wurf)",
        [("Erfolg", p_success), ("Misserfolg", 1 - p_success), ("Patzer (natürliche 1)", p_patzer)],
    )
    return {
        "kind": kind,
        "bonus": bonus,
        "parts": [{"label": n, "value": v} for n, v in parts],
        "roll": rolled.to_dict(),
        "natural": natural,
        "total": total,
        "dc": dc,
        "success": success,
        "outcome": outcome_key,
        "chances": {
            "success": str(p_success),
            "failure": str(1 - p_success),
            "patzer": str(p_patzer),
        },
        "display": display.to_dict(),
    }


# ---------------------------------------------------------------------------------------------
# Action: initiative (NOT in the text: Annahme from the published rules)
# ---------------------------------------------------------------------------------------------

FIGHTER_FIELDS = (
    TextParam("name", "Name", max_length=30),
    IntParam("dexterity", "Geschicklichkeitsmodifikator", default=1, minimum=-5, maximum=20),
    IntParam(
        "other",
        "Andere Modifikatoren",
        default=0,
        minimum=-20,
        maximum=40,
        help="Z. B. Talent Verbesserte Initiative +4.",
    ),
)


@dataclass
class Fighter:
    index: int
    name: str
    modifier: int
    roll: dice.RollResult
    total: int
    rolloff: list[int] = field(default_factory=list)


def _initiative_die() -> dice.Expression:
    return _d20("initiative.wurf", "Initiativwurf")


def initiative_first_chances(modifiers: list[int]) -> list[Fraction]:
    """Exact chance of each fighter to act first: highest total; equal totals go to the higher
    modifier, equal totals and modifiers to a fair roll-off (1/k each of k tied).

    Counted in integers (each face weighted by its count out of ``scale``), divided once."""
    _choice("initiative.gleichstand", ("hoeherer_modifikator_dann_stechen",))
    die = dice.distribution(_initiative_die())
    scale = math.lcm(*(p.denominator for p in die.values()))
    faces = [(face, int(p * scale)) for face, p in die.items()]
    out = []
    for me, mine_mod in enumerate(modifiers):
        total = Fraction(0)
        for face, face_count in faces:
            mine = mine_mod + face
            # weights[k]: ways that every other fighter is beaten and k of them tie fully
            weights = [1]
            for other, other_mod in enumerate(modifiers):
                if other == me:
                    continue
                beaten = tied = 0
                for other_face, count in faces:
                    theirs = other_mod + other_face
                    if theirs < mine or (theirs == mine and other_mod < mine_mod):
                        beaten += count
                    elif theirs == mine and other_mod == mine_mod:
                        tied += count
                nxt = [0] * (len(weights) + 1)
                for k, w in enumerate(weights):
                    if w:
                        nxt[k] += w * beaten
                        nxt[k + 1] += w * tied
                weights = nxt
            total += face_count * sum(
                (Fraction(w, k + 1) for k, w in enumerate(weights) if w), Fraction(0)
            )
        out.append(total / scale ** len(modifiers))
    return out


def _roll_off(group: list[Fighter], rng: random.Random) -> list[Fighter]:
    limit = DATA.integer("initiative.stechen_hoechstens", 1, 10_000)

    def record(fighter: Fighter, value: int) -> None:
        fighter.rolloff.append(value)

    ordered, unresolved = roll_off(
        group, _d20("initiative.stechen_wurf", "Stechen"), rng, record, limit
    )
    if unresolved:
        raise EngineError(f"Kämpfer: Stechen nach {limit} Würfen noch unentschieden.", "fighters")
    return ordered


@SYSTEM.action(
    "initiative",
    title="Initiative",
    summary=(
        "Nicht im Text geregelt (Annahme nach den veröffentlichten Grundregeln): jeder würfelt "
        "1W20 + Geschicklichkeitsmodifikator + andere Modifikatoren, das höchste Ergebnis "
        "handelt zuerst."
    ),
    source=f"{SOURCE} (nicht im Text; L8 setzt eine Reihenfolge voraus)",
    params=(
        ListParam(
            "fighters",
            "Kämpfer",
            item=FIGHTER_FIELDS,
            item_label="Kämpfer",
            min_items=1,
            max_items=12,
            default_items=(
                {"name": "Valeros", "dexterity": 2, "other": 0},
                {"name": "Goblin", "dexterity": 3, "other": 0},
            ),
        ),
    ),
    assumptions=_assumptions("initiative"),
)
def initiative(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    rows: list[dict[str, Any]] = params["fighters"]
    check_unique_names(rows, "fighters", "Kämpfer")
    modifiers = [row["dexterity"] + row["other"] for row in rows]
    chances = initiative_first_chances(modifiers)
    die = _initiative_die()
    fighters = []
    for index, (row, modifier) in enumerate(zip(rows, modifiers, strict=True)):
        rolled = dice.roll(die, rng)
        fighters.append(Fighter(index, row["name"], modifier, rolled, rolled.total + modifier))
    order, _ = order_groups(
        fighters,
        lambda f: (f.total, f.modifier),
        lambda group: _roll_off(group, rng),
        descending=True,
    )
    display = Display(
        headline="Initiative – Pathfinder (Annahme)",
        outcome=f"Zuerst handelt {order[0].name} mit {number(order[0].total)}.",
    )
    totals = Counter(f.total for f in fighters)
    rows_out = []
    for place, fighter in enumerate(order, start=1):
        tie = ""
        if fighter.rolloff:
            tie = "Stechen " + " · ".join(str(v) for v in fighter.rolloff)
        elif totals[fighter.total] > 1:
            tie = f"Modifikator {signed(fighter.modifier)}"
        rows_out.append(
            [
                str(place),
                fighter.name,
                f"{fighter.roll.total} {signed(fighter.modifier)}",
                number(fighter.total),
                tie,
            ]
        )
    display.table(
        "Reihenfolge (höchstes Ergebnis zuerst)",
        ["Platz", "Kämpfer", "W20 + Mod.", "Initiative", "Gleichstand"],
        rows_out,
    )
    for fighter, row in zip(fighters, rows, strict=True):
        mods = [("GE", row["dexterity"])]
        if row["other"]:
            mods.append(("andere", row["other"]))
        display.roll(f"{fighter.name}: Initiativwurf", fighter.roll, mods, total=fighter.total)
    display.notes(
        "Hinweise",
        [
            "Die Initiative steht nicht im Quelltext; hier gilt die Regel der veröffentlichten "
            "Grundregeln (Annahme, in den Regeldaten änderbar)."
        ],
    )
    display.chances(
        "Chance, als Erste(r) zu handeln (vor dem Wurf)",
        [(row["name"], p) for row, p in zip(rows, chances, strict=True)],
    )
    return {
        "order": [
            {
                "place": place,
                "name": f.name,
                "modifier": f.modifier,
                "roll": f.roll.to_dict(),
                "initiative": f.total,
                "rolloff": f.rolloff,
            }
            for place, f in enumerate(order, start=1)
        ],
        "first_chances": {row["name"]: str(p) for row, p in zip(rows, chances, strict=True)},
        "display": display.to_dict(),
    }


# ---------------------------------------------------------------------------------------------
# Action: hit_points (L69–L95)
# ---------------------------------------------------------------------------------------------

HP_STATES = {
    "bei_kraeften": "über 0 Trefferpunkte",
    "kampfunfaehig": "kampfunfähig",
    "sterbend": "sterbend",
    "tot": "tot",
}


def hp_state(hp: int, constitution: int) -> str:
    """L95: 0 kampfunfähig, from −1 sterbend, at −KO tot (Annahme: also below)."""
    dead_at = -constitution
    dead = hp <= dead_at if DATA.flag("trefferpunkte.tot_darunter") else hp == dead_at
    if dead:
        return "tot"
    if hp <= DATA.integer("trefferpunkte.sterbend_ab", -1, -1):
        return "sterbend"
    if hp == DATA.integer("trefferpunkte.kampfunfaehig_bei", 0, 0):
        return "kampfunfaehig"
    return "bei_kraeften"


@SYSTEM.action(
    "hit_points",
    title="Trefferpunkte nach Schaden",
    summary=(
        "Schaden senkt die Trefferpunkte: bei 0 kampfunfähig, ab −1 sterbend, beim negativen "
        "Konstitutionswert tot. Weniger als 1 Schaden wird 1 Punkt nichttödlicher Schaden."
    ),
    source=f"{SOURCE} L69–L95",
    params=(
        IntParam("hp", "Aktuelle Trefferpunkte", default=12, minimum=-50, maximum=999),
        IntParam(
            "constitution",
            "Konstitutionswert",
            default=12,
            minimum=1,
            maximum=50,
            help="Der Wert, nicht der Modifikator: bei −KO Trefferpunkten ist man tot (L95).",
        ),
        DiceParam(
            "damage",
            "Schaden",
            default="1W8+2",
            help="Schadenswurf samt Modifikatoren, z. B. 2W6+3, oder eine feste Zahl.",
        ),
    ),
    assumptions=_assumptions("trefferpunkte", "schaden.mindestschaden_je_treffer"),
)
def hit_points(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    hp = params["hp"]
    con = params["constitution"]
    if hp_state(hp, con) == "tot":
        raise EngineError(
            f"Aktuelle Trefferpunkte: Bei {number(hp)} TP und Konstitution {con} ist der "
            "Charakter schon tot (L95).",
            "hp",
        )
    expression = dice.parse(params["damage"], "damage", "Schaden")
    floor = DATA.integer("schaden.mindestschaden", 1, 1)
    dist = dice.distribution(expression, field="damage", label="Schaden")
    rolled = dice.roll(expression, rng)
    raw = rolled.total
    lethal, nonlethal = (raw, 0) if raw >= floor else (0, floor)
    new_hp = hp - lethal
    state = hp_state(new_hp, con)
    chances: dict[str, Fraction] = {key: Fraction(0) for key in HP_STATES}
    for amount, p in dist.items():
        chances[hp_state(hp - (amount if amount >= floor else 0), con)] += p
    p_minimum = sum((p for amount, p in dist.items() if amount < floor), Fraction(0))
    amount_text = (
        f"{number(lethal)} Schaden"
        if lethal
        else "1 Punkt nichttödlicher Schaden (Mindestschaden, L76)"
    )
    display = Display(
        headline="Trefferpunkte – Pathfinder",
        outcome=f"{amount_text}: {number(hp)} → {number(new_hp)} TP – {HP_STATES[state]}.",
    )
    display.roll("Schaden", rolled)
    dying = "–" if con == 1 else number(-1) if con == 2 else f"{number(-1)} bis {number(-con + 1)}"
    display.table(
        "Schwellen (L95)",
        ["Trefferpunkte", "Zustand"],
        [
            ["über 0", HP_STATES["bei_kraeften"]],
            ["0", HP_STATES["kampfunfaehig"]],
            [dying, HP_STATES["sterbend"]],
            [f"{number(-con)} oder weniger", HP_STATES["tot"]],
        ],
    )
    notes = []
    if nonlethal:
        notes.append(
            "Nichttödlicher Schaden senkt die Trefferpunkte hier nicht (Annahme); er wird nur "
            "ausgewiesen."
        )
    display.notes("Hinweise", notes)
    display.chances(
        "Zustand nach dem Schaden (vor dem Wurf)",
        [(HP_STATES[k], p) for k, p in chances.items()]
        + [("nur Mindestschaden (1 nichttödlich)", p_minimum)],
    )
    return {
        "hp_before": hp,
        "roll": rolled.to_dict(),
        "raw_damage": raw,
        "lethal": lethal,
        "nonlethal": nonlethal,
        "hp_after": new_hp,
        "state": state,
        "chances": {k: str(p) for k, p in chances.items()} | {"minimum": str(p_minimum)},
        "expected_lethal": str(sum((a * p for a, p in dist.items() if a >= floor), Fraction(0))),
        "display": display.to_dict(),
    }


# ---------------------------------------------------------------------------------------------
# Action: fumble (L10, L162): no Patzer rule beyond the natural 1
# ---------------------------------------------------------------------------------------------

FUMBLE_CHOICES = (("angriff", "Angriffswurf"), ("rettungswurf", "Rettungswurf"))
FUMBLE_MEANING = {
    "angriff": (
        "Bei einem Angriffswurf wird eine natürliche 1 immer als Fehlschlag gewertet (L10), "
        "auch wenn 1 + Angriffsbonus die RK erreichen würde. Weitere Folgen nennt der Text nicht."
    ),
    "rettungswurf": (
        "Eine natürliche 1 bei einem Rettungswurf ist immer ein Patzer: Der Rettungswurf "
        "misslingt und kann Gegenstände beschädigen, die der Wirkung ausgesetzt sind (L162; "
        "die Einzelheiten stehen im fehlenden Abschnitt „Schaden an Gegenständen nach einem "
        "Rettungswurf“)."
    ),
}


@SYSTEM.action(
    "fumble",
    title="Patzer (natürliche 1)",
    summary=(
        "Pathfinder kennt in diesem Text keine Patzertabelle: Eine natürliche 1 ist beim "
        "Angriffswurf immer ein Fehlschlag und beim Rettungswurf immer ein Patzer. Diese Aktion "
        "würfelt 1W20 und sagt, ob es eine natürliche 1 ist und was sie bedeutet."
    ),
    source=f"{SOURCE} L10, L162",
    params=(ChoiceParam("kind", "Wurf", choices=FUMBLE_CHOICES, default="angriff"),),
)
def fumble(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    die = _d20("patzer.wurf", "Wurf")
    natural_1 = DATA.integer("patzer.natuerliche_1", 1, 20)
    rolled = dice.roll(die, rng)
    is_one = rolled.total == natural_1
    p_one = dice.probability(die, lambda t: t == natural_1)
    kind = params["kind"]
    what = dict(FUMBLE_CHOICES)[kind]
    if is_one:
        outcome = "Natürliche 1: Fehlschlag." if kind == "angriff" else "Natürliche 1: Patzer."
    else:
        outcome = f"Keine natürliche 1 ({rolled.total}): kein Patzer."
    display = Display(headline=f"Patzer beim {what} – Pathfinder", outcome=outcome)
    display.roll(what, rolled)
    display.notes(
        "Was eine natürliche 1 bedeutet",
        [
            FUMBLE_MEANING[kind],
            "Eine eigene Patzerregel oder -tabelle enthält der Text darüber hinaus nicht.",
        ],
    )
    display.chances("Chance", [("Natürliche 1", p_one)])
    return {
        "kind": kind,
        "roll": rolled.to_dict(),
        "natural": rolled.total,
        "natural_1": is_one,
        "meaning": FUMBLE_MEANING[kind],
        "rule": "keine Patzerregel außer der natürlichen 1",
        "chances": {"natural_1": str(p_one)},
        "display": display.to_dict(),
    }
