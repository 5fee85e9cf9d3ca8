"""Ryssea Angriff: the ``attack`` action (Nahkampf, Fernkampf, Schildstoß).

Owns the attacker's fields, the whole parameter list (the groups of the other attack modules
concatenated in form order), the checks of field combinations, the weapon damage, and the
action itself: Aktive Abwehr (``defense``), attack probe, Erfolge spent (``manoeuvres``), damage
roll, in this seeded order; then the explanation and the exact chances (L47–L82, L184–L226,
L245–L253, L307–L380), built by ``attack_report``.

What follows from the result (``follow_ups``): a Patzer of the attack probe goes to the
Patzertabelle (``fumble``) unless the opponent's Aktive Abwehr brought it about (L406; when it
does is an Annahme, ``angriff.patzer_durch_aktive_abwehr``); a hit with damage lets a target
in a continuous action roll the ``interruption`` (L120, with the Störender Angriff, L192).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine import dice
from engine.display import Display
from engine.errors import EngineError
from engine.formatting import number
from engine.params import ChoiceParam, DiceParam, Param
from regeln.ryssea.attack_modifiers import MODIFIER_PARAMS, attack_modifiers
from regeln.ryssea.attack_report import (
    AttackRoll,
    attack_notes,
    attack_result,
    follow_ups_for,
    outcome_line,
    show_chances,
    show_erfolge,
)
from regeln.ryssea.common import (
    DATA,
    SOURCE,
    SYSTEM,
    ProbeInput,
    assumptions_for,
    probe_fields,
    probe_input,
    roll_probe,
)
from regeln.ryssea.defense import TARGET_PARAMS, Difficulty, roll_difficulty
from regeln.ryssea.manoeuvres import (
    MANOEUVRE_PARAMS,
    DamagePlan,
    allocate,
    attack_chances,
    damage_for,
    damage_plan,
)
from regeln.ryssea.ranged import RANGED_PARAMS, cover_erfolge, range_erfolge

ATTACK_KINDS = (
    ("nahkampf", "Nahkampfangriff"),
    ("fernkampf", "Fernkampfangriff"),
    ("schildstoss", "Schildstoß"),
)
ATTACK_LABELS = dict(ATTACK_KINDS)
MAX_DAMAGE_DICE = 10
MAX_DAMAGE_SIDES = 100

ATTACKER_PARAMS: tuple[Param, ...] = (
    ChoiceParam(
        "angriffsart",
        "Angriffsart",
        choices=ATTACK_KINDS,
        help="Schildstoß: 1W6+1 Schaden, keine Meisterschafts-Manöver.",
        group="Angreifer",
        # the attack kind goes with the fighter's weapon (its damage and range are actor values)
        subject="actor",
    ),
    *probe_fields(
        talent="Kampftalent; beim Schildstoß BW und KK",
        group="Angreifer",
        advanced=("wuerfel",),
        subject="actor",
    ),
    DiceParam(
        "damage",
        "Waffenschaden",
        formerly=("schaden",),
        default="1W6+3",
        help="Schaden der Waffe als Würfelausdruck, z. B. 1W10+2 (beim Schildstoß nicht genutzt).",
        group="Angreifer",
        required_when=("angriffsart", ("nahkampf", "fernkampf")),
        subject="actor",
        when=(("angriffsart", ("nahkampf", "fernkampf")),),
    ),
)
ATTACK_PARAMS: tuple[Param, ...] = (
    *ATTACKER_PARAMS,
    *TARGET_PARAMS,
    *MODIFIER_PARAMS,
    *RANGED_PARAMS,
    *MANOEUVRE_PARAMS,
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
            f"Unbewegliches Ziel: {what}.",  # L224
            "unbewegliches_ziel",
        )
    else:
        only_melee = "gilt nur für Nahkampfangriffe"
        _require(
            params["ueberzahl"] == 0, f"Überzählige Kämpfer: {only_melee}.", "ueberzahl"
        )  # L370
        _require(
            not params["betaeubungsschlag"],
            f"Betäubungsschlag: {only_melee}.",  # L190
            "betaeubungsschlag",
        )
        _require(
            not params["gelegenheitsangriff"],
            f"Gelegenheitsangriff: {only_melee}.",  # L86
            "gelegenheitsangriff",
        )
        factor = DATA.integer("angriff.reichweite_hoechstens_faktor", 1, 100)
        limit = factor * params["grundreichweite"]
        _require(
            params["distance"] <= limit,
            f"Entfernung (m): {number(params['distance'])} m liegt außerhalb der Reichweite; "
            f"höchstens das {factor}-fache der Grundreichweite, also {number(limit)} m.",  # L210
            "distance",
        )
    mastery = params["meisterschafts_manoever"]
    if mastery:
        _require(
            kind != "schildstoss",
            "Angesagte Meisterschafts-Manöver: beim Schildstoß nicht möglich.",  # L200
            "meisterschafts_manoever",
        )
        _require(
            not params["gelegenheitsangriff"],
            "Angesagte Meisterschafts-Manöver: nicht mit einem Gelegenheitsangriff.",  # L86
            "meisterschafts_manoever",
        )
    else:
        _require(
            params["manoever_schaden"] == "voll",
            "Schaden der Manöver: gilt nur für angesagte Meisterschafts-Manöver.",  # L73
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
        return DATA.dice("angriff.schildstoss_schaden", "Schildstoß")
    expression = dice.parse(params["damage"], "damage", "Waffenschaden")
    if expression.dice_count > MAX_DAMAGE_DICE or any(
        t.sides > MAX_DAMAGE_SIDES for t in expression.terms
    ):
        raise EngineError(
            f"Waffenschaden: höchstens {MAX_DAMAGE_DICE} Würfel mit je höchstens "
            f"{MAX_DAMAGE_SIDES} Seiten.",
            "damage",
        )
    return expression


def _roll_attack(
    params: dict[str, Any],
    attacker: ProbeInput,
    reaches: Callable[[int], bool],
    plan: DamagePlan,
    need_range: int,
    need_cover: int,
    damage: dice.Expression,
    rng: random.Random,
) -> AttackRoll:
    """Roll the attack probe, spend its Erfolge, then roll the damage (in this order)."""
    rolled = roll_probe(attacker, rng, ATTACK_LABELS[params["angriffsart"]])
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
    return AttackRoll(
        rolled,
        success,
        alloc,
        category,
        damage_roll,
        target_damage,
        attacker_stun,
        cover_damage,
        disturb,
        wucht,
    )


def _patzer_by_defense(hit: AttackRoll, target: Difficulty) -> bool:
    """L406: a Patzer that an opponent's Aktive Abwehr brought about does not go to the
    Patzertabelle. When an Aktive Abwehr brings one about, the text does not say; the data's
    Annahme (read only for a Patzer against an Aktive Abwehr): every Patzer of an attack that
    the target defends actively, since the Aktive Abwehr is then what the attack fails against
    (L247) and the text names no other effect of it on the attacker."""
    if hit.category != "patzer" or target.roll is None:
        return False
    return DATA.flag("angriff.patzer_durch_aktive_abwehr")


def _order_decided(
    params: dict[str, Any], hit: AttackRoll, plan: DamagePlan, need_range: int, need_cover: int
) -> bool:
    """Whether the order in which the Erfolge are spent (an Annahme) could change this result:
    two or more uses compete and the Erfolge do not cover them all."""
    if not hit.success:
        return False
    stun = params["betaeubungsschlag"]
    demands = [
        need_range,
        need_cover,
        plan.mastery * DATA.integer("angriff.meisterschaft_erfolge", 0, 10),
        DATA.integer("angriff.betaeubungsschlag_erfolge", 0, 10) if stun else 0,
    ]
    return sum(1 for d in demands if d > 0) >= 2 and hit.rolled.erfolge < sum(demands)


def _rounding_decided(hit: AttackRoll, plan: DamagePlan) -> bool:
    """Whether halving rounded an odd number or damage was held at 0 (an Annahme)."""
    if hit.damage_roll is None:
        return False
    points = hit.damage_roll.total + (hit.wucht if hit.category == "treffer" else 0)
    if points < 0:
        return True
    if hit.category == "deckung" or plan.restriction == "kein":
        return False
    if plan.restriction == "halb" and points % 2:
        return True
    if hit.category == "streiftreffer" and plan.graze == "schaden":
        kept = points // 2 if plan.restriction == "halb" else points
        return kept < plan.graze_cut * plan.mastery
    return False


def _use_assumptions(
    params: dict[str, Any], hit: AttackRoll, plan: DamagePlan, need_range: int, need_cover: int
) -> None:
    """Name the attack's assumptions that decided this result (the probe's own are named by
    the probe, the Aktive Abwehr's by the defense)."""
    if hit.category == "reichweite":
        DATA.assume("angriff.reichweite_fehlschlag")
    if _order_decided(params, hit, plan, need_range, need_cover):
        DATA.assume("angriff.erfolge_reihenfolge")
    if _rounding_decided(hit, plan):
        DATA.assume("angriff.schaden_rundung")
    if params["angriffsart"] == "schildstoss":
        DATA.assume("angriff.schildstoss_eigenschaften")


@SYSTEM.action(
    "attack",
    title="Angriff: Nahkampf, Fernkampf, Schildstoß",
    summary=(
        "Probe auf das Kampftalent gegen die Verteidigung (oder die Aktive Abwehr), Treffer ab "
        "Gleichstand; Erfolge für Reichweite, Deckung, Meisterschafts- und freie Manöver; "
        "Waffenschaden bei einem Treffer."
    ),
    source=f"{SOURCE} L47–L82, L184–L226, L245–L253, L307–L380, L406",
    params=ATTACK_PARAMS,
    assumptions=assumptions_for("probe.", "angriff."),
    result_formerly=(("defense", ("defence",)), ("deckung", ("cover",))),
    what_if="verteidigung",  # the chances across the target's Verteidigung (L186)
    # the choices that change the roll or what its Erfolge make of it: the free manoeuvres
    # (L192–L194), the Betäubungsschlag (L190), the attack kind (L200, L210), what announced
    # Meisterschafts-Manöver do to the damage (L73–L82), the Kampfposition (L335–L340) and
    # Vorteil / Nachteil (draft chapter)
    compare=(
        "erfolge_rest",
        "betaeubungsschlag",
        "angriffsart",
        "manoever_schaden",
        "streiftreffer_folge",
        "position_eigen",
        "wurf_art",
    ),
)
def attack(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    _check_attack(params)
    kind = params["angriffsart"]
    ranged = kind == "fernkampf"
    damage = _damage_expression(params)
    attacker = probe_input(params, modifiers=attack_modifiers(params))
    plan = damage_plan(params)
    need_range = range_erfolge(params["distance"], params["grundreichweite"]) if ranged else 0
    need_cover = cover_erfolge(params["deckung"]) if ranged else 0
    display = Display(headline=ATTACK_LABELS[kind])
    notes: list[str] = []

    # Aktive Abwehr first, then the attack probe, then the damage: the seeded order
    target = roll_difficulty(params, rng, ranged, notes)
    hit = _roll_attack(params, attacker, target.reaches, plan, need_range, need_cover, damage, rng)

    by_defense = _patzer_by_defense(hit, target)
    _use_assumptions(params, hit, plan, need_range, need_cover)
    display.outcome = outcome_line(hit, target.against(hit.rolled.total), by_defense)
    if target.roll is not None:
        target.roll.show(display)
    hit.rolled.show(display)
    if hit.damage_roll is not None:
        # the weapon's Schaden as rolled (L186: „den bei der Waffe aufgeführten Schaden“); the
        # outcome's „Schaden“ is what reaches the target after the Erfolge (L194) and limits
        label = (
            "Schaden an der Deckung"
            if hit.category == "deckung"
            else "Schaden des Schilds"
            if kind == "schildstoss"
            else "Waffenschaden"
        )
        display.roll(label, hit.damage_roll)
    if hit.success:
        show_erfolge(display, params, hit, plan, need_range, need_cover)
    notes.extend(attack_notes(params, hit, by_defense))

    chances = attack_chances(
        attacker,
        target.succeeds,
        need_range,
        need_cover,
        params["betaeubungsschlag"],
        plan,
        damage,
        spread=True,
    )
    show_chances(display, chances, need_range, need_cover)
    display.notes("Hinweise", notes)
    follow_ups = follow_ups_for(hit, plan, by_defense, target)
    return attack_result(
        kind, hit, target, need_range, need_cover, chances, display, by_defense, follow_ups
    )
