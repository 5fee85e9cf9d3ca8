"""The Pathfinder ``attack`` action (L6–L23, L69–L88): its parameters and the order of its steps.

Owns the choices and parameters of the attack (weapon, grip, threat range, multipliers, damage
dice) and the action itself: ``_attack_setup`` reads the parameters (damage dice checked, then
Angriffsbonus, multipliers, Strength on damage), then the exact odds, the dice
(``attack_roll.py``), the display and the answer (``attack_display.py``). The rules live in
``attack_roll.py`` (hit, threat, confirmation, Angriffsbonus) and ``damage.py`` (L69–L88).

Connected helpers: the attacker's own values are ``subject="actor"`` (weapon, GAB, ST, GE, size,
threat range, multiplier, weapon damage, grip, Zugstärke, the weapon's other damage modifiers);
the target's RK is ``"target"``; the rest (other attack modifiers, range, extra dice such as a
hinterhältiger Angriff, a further multiplier) is this attack's situation. ``when``: ST only for
weapons where it counts (not for „andere Fernkampfwaffen“), GE and the range only for ranged
weapons, the grip only for melee and thrown weapons (light weapon: only two-handed), the
Zugstärke only for a Kompositbogen.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from engine import dice
from engine.params import BoolParam, ChoiceParam, DiceParam, IntParam
from regeln.pathfinder.attack_display import attack_answer, attack_display
from regeln.pathfinder.attack_roll import (
    AttackSetup,
    attack_bonus,
    attack_odds,
    roll_attack,
)
from regeln.pathfinder.common import DATA, SIZE_PARAM, SOURCE, SYSTEM, assumptions_for
from regeln.pathfinder.damage import (
    MAX_EXTRA_DICE,
    MAX_WEAPON_DICE,
    check_damage_dice,
    combined_multiplier,
    strength_damage,
)

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
RANGED = ("wurfwaffe", "bogen", "kompositbogen", "fernkampf")
GRIPPED = ("nahkampf", "wurfwaffe")  # the grip counts for Strength on damage (L78–L82)
MULTIPLIER_CHOICES = (("2", "×2"), ("3", "×3"), ("4", "×4"))
OTHER_MULTIPLIER_CHOICES = (("1", "keiner"), ("2", "×2"), ("3", "×3"))


def _attack_setup(params: dict[str, Any]) -> AttackSetup:
    weapon_expr = dice.parse(params["damage"], "damage", "Waffenschaden")
    check_damage_dice(weapon_expr, "damage", "Waffenschaden", MAX_WEAPON_DICE)
    extra_expr = dice.parse(params["extra_dice"], "extra_dice", "Zusätzliche Schadenswürfel")
    check_damage_dice(extra_expr, "extra_dice", "Zusätzliche Schadenswürfel", MAX_EXTRA_DICE)

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
        params["staerkemodifikator"],
        params["composite_rating"],
    )
    per_roll_bonus = st_damage + params["damage_other"]
    floor = DATA.integer("schaden.mindestschaden", 1, 1)
    return AttackSetup(
        weapon=weapon_expr,
        extra=extra_expr,
        bonus=bonus,
        armor_class=ac,
        threat_from=threat_from,
        normal_times=normal_times,
        crit_times=crit_times,
        st_damage=st_damage,
        st_note=st_note,
        damage_other=params["damage_other"],
        per_roll_bonus=per_roll_bonus,
        floor=floor,
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
    result_formerly=(("staerkebonus", ("strength_damage",)),),
    what_if="armor_class",
    compare=("grip", "weapon"),
    params=(
        ChoiceParam(
            "weapon",
            "Waffe",
            help="Nahkampf: GAB + ST + Größe; sonst GAB + GE + Größe + Entfernungsmalus.",
            choices=WEAPON_CHOICES,
            default="nahkampf",
            group="Angriffswurf",
            subject="actor",
        ),
        IntParam(
            "gab",
            "Grund-Angriffsbonus (GAB)",
            formerly=("bab",),
            default=3,
            minimum=0,
            maximum=30,
            group="Angriffswurf",
            required=True,
            subject="actor",
        ),
        IntParam(
            "staerkemodifikator",
            "Stärkemodifikator",
            formerly=("strength",),
            default=2,
            minimum=-5,
            maximum=20,
            help="Zählt beim Nahkampf-Angriff und beim Schaden (Bonus +, Malus −).",
            group="Angriffswurf",
            required_when=("weapon", ("nahkampf", "wurfwaffe", "bogen", "kompositbogen")),
            subject="actor",
            when=(("weapon", ("nahkampf", "wurfwaffe", "bogen", "kompositbogen")),),
        ),
        IntParam(
            "geschicklichkeitsmodifikator",
            "Geschicklichkeitsmodifikator",
            formerly=("dexterity",),
            default=1,
            minimum=-5,
            maximum=20,
            help="Zählt beim Fernkampf-Angriff (auch Wurfwaffen).",
            group="Angriffswurf",
            required_when=("weapon", ("wurfwaffe", "bogen", "kompositbogen", "fernkampf")),
            subject="actor",
            when=(("weapon", RANGED),),
        ),
        replace(SIZE_PARAM, subject="actor"),
        IntParam(
            "range_increment",
            "Entfernung (Grundreichweiten)",
            default=1,
            minimum=1,
            maximum=10,
            help="1 = innerhalb der ersten Grundreichweite (kein Malus).",
            group="Angriffswurf",
            when=(("weapon", RANGED),),
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
            "armor_class",
            "RK des Ziels",
            default=15,
            minimum=0,
            maximum=80,
            group="Angriffswurf",
            required=True,
            subject="target",
        ),
        ChoiceParam(
            "threat_range",
            "Bedrohungsbereich",
            help="Natürliche Würfe, die eine Bedrohung sein können (Waffe).",
            choices=THREAT_CHOICES,
            default="20",
            group="Kritischer Treffer",
            subject="actor",
        ),
        ChoiceParam(
            "multiplier",
            "Kritischer Multiplikator",
            choices=MULTIPLIER_CHOICES,
            default="2",
            group="Kritischer Treffer",
            subject="actor",
        ),
        DiceParam(
            "damage",
            "Waffenschaden",
            default="1W8",
            help="Würfel der Waffe, z. B. 1W8 oder 2W6+1 (wird bei Vervielfachung mehrfach "
            "ausgewürfelt).",
            group="Schaden",
            required=True,
            subject="actor",
        ),
        ChoiceParam(
            "grip",
            "Führung",
            help="Zweithand: halber Stärkebonus; zweihändig: anderthalbfacher Stärkebonus.",
            choices=GRIP_CHOICES,
            default="haupthand",
            group="Schaden",
            subject="actor",
            when=(("weapon", GRIPPED),),
        ),
        BoolParam(
            "light_weapon",
            "Leichte Waffe",
            help="Eine leichte Waffe zweihändig geführt gibt keinen anderthalbfachen Bonus.",
            group="Schaden",
            advanced=True,
            subject="actor",
            when=(("weapon", GRIPPED), ("grip", ("zweihaendig",))),
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
            subject="actor",
            when=(("weapon", ("kompositbogen",)),),
        ),
        IntParam(
            "damage_other",
            "Andere Schadensmodifikatoren",
            default=0,
            minimum=-20,
            maximum=40,
            help="Werden bei Vervielfachung mit ausgewürfelt (z. B. Verbesserungsbonus).",
            group="Schaden",
            subject="actor",
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
    assumptions=assumptions_for("angriff", "schaden"),
)
def attack(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Read and check the parameters, compute the exact odds, roll, then show and answer."""
    setup = _attack_setup(params)
    odds = attack_odds(setup)
    rolls = roll_attack(setup, rng)
    display = attack_display(params, setup, odds, rolls)
    return attack_answer(setup, odds, rolls, display)
