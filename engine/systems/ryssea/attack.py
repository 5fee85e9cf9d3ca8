"""Ryssea Angriff: the ``attack`` action (Nahkampf, Fernkampf, Schildstoß).

Owns the attacker's fields, the whole parameter list (the groups of the other attack modules
concatenated in form order), the checks of field combinations, the weapon damage, and the
action itself: Aktive Abwehr (``defence``), attack probe, Erfolge spent (``manoeuvres``), damage
roll, in this seeded order; then the explanation and the exact chances (L47–L82, L184–L226,
L245–L253, L307–L380).

What follows from the result (``follow_ups``): a Patzer of the attack probe goes to the
Patzertabelle (``fumble``) unless the opponent's Aktive Abwehr brought it about (L406; when it
does is an Annahme, ``angriff.patzer_durch_aktive_abwehr``); a hit with damage lets a target
in a continuous action roll the ``interruption`` (L120, with the Störender Angriff, L192).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine import dice
from engine.display import Display
from engine.errors import EngineError
from engine.formatting import decimal, number
from engine.params import ChoiceParam, DiceParam, Param
from engine.systems.ryssea.attack_modifiers import MODIFIER_PARAMS, attack_modifiers
from engine.systems.ryssea.common import (
    DATA,
    SOURCE,
    SYSTEM,
    ProbeInput,
    ProbeRoll,
    assumptions_for,
    data_dice,
    probe_fields,
    probe_flags,
    probe_input,
    roll_probe,
    use_assumption,
)
from engine.systems.ryssea.defence import TARGET_PARAMS, Difficulty, roll_difficulty
from engine.systems.ryssea.manoeuvres import (
    MANOEUVRE_PARAMS,
    Allocation,
    AttackChances,
    DamagePlan,
    allocate,
    attack_chances,
    damage_for,
    damage_plan,
)
from engine.systems.ryssea.ranged import RANGED_PARAMS, cover_erfolge, range_erfolge

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
        "schaden",
        "Waffenschaden",
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
            params["entfernung"] <= limit,
            f"Entfernung (m): {number(params['entfernung'])} m liegt außerhalb der Reichweite; "
            f"höchstens das {factor}-fache der Grundreichweite, also {number(limit)} m.",  # L210
            "entfernung",
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
        return data_dice("angriff.schildstoss_schaden", "Schildstoß")
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


@dataclass(frozen=True)
class AttackRoll:
    """The attack after the dice: the probe, how its Erfolge are spent, and the damage."""

    rolled: ProbeRoll
    success: bool
    alloc: Allocation
    category: str  # treffer / streiftreffer / deckung / reichweite / patzer / verfehlt
    damage_roll: dice.RollResult | None
    target_damage: int
    attacker_stun: int
    cover_damage: int
    disturb: int
    wucht: int

    @property
    def damage_kind(self) -> str:
        stun = self.category == "treffer" and self.alloc.stun
        return "Betäubungsschaden" if stun else "Schaden"


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


def _patzer_by_defence(hit: AttackRoll, target: Difficulty) -> bool:
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
    the probe, the Aktive Abwehr's by the defence)."""
    if hit.category == "reichweite":
        use_assumption("angriff.reichweite_fehlschlag")
    if _order_decided(params, hit, plan, need_range, need_cover):
        use_assumption("angriff.erfolge_reihenfolge")
    if _rounding_decided(hit, plan):
        use_assumption("angriff.schaden_rundung")
    if params["angriffsart"] == "schildstoss":
        use_assumption("angriff.schildstoss_eigenschaften")


def _follow_ups(hit: AttackRoll, plan: DamagePlan, by_defence: bool) -> list[dict[str, Any]]:
    """Where the rules go on: the Patzertabelle after a Patzer (L406), the Unterbrechung of a
    continuous action after damage (L120, with the Störender Angriff's Erfolge, L192)."""
    out: list[dict[str, Any]] = []
    if hit.category == "patzer" and not by_defence:
        out.append(
            {
                "action": "fumble",
                "title": "Patzertabelle würfeln",
                "params": {"ursache": "kampftalent"},
            }
        )
    if hit.target_damage > 0:
        disturbing = hit.category == "treffer" and plan.rest_mode == "stoerender_angriff"
        out.append(
            {
                "action": "interruption",
                "title": "Unterbrechung prüfen",
                "params": {
                    "schaden": hit.target_damage,
                    "stoerend": hit.alloc.rest if disturbing else 0,
                },
            }
        )
    return out


def _outcome(hit: AttackRoll, target_text: str, by_defence: bool) -> str:
    category = hit.category
    versus = f"{number(hit.rolled.total)} gegen {target_text}."
    if category == "treffer":
        outcome = f"Treffer: {hit.target_damage} {hit.damage_kind}. {versus}"
    elif category == "streiftreffer":
        outcome = f"Streiftreffer: {hit.target_damage} Schaden. {versus}"
    elif category == "deckung":
        outcome = f"Die Probe gelingt, aber der Angriff trifft die Deckung. {versus}"
    elif category == "reichweite":
        outcome = f"Die Probe gelingt, aber die Erfolge reichen nicht für die Reichweite. {versus}"
    elif category == "patzer" and by_defence:
        outcome = (
            "Patzer – verfehlt; die gegnerische Aktive Abwehr hat ihn herbeigeführt, kein Wurf "
            f"auf der Patzertabelle. {versus}"
        )
    elif category == "patzer":
        outcome = f"Patzer – verfehlt; 2W10 auf der Patzertabelle. {versus}"
    else:
        outcome = f"Verfehlt. {versus}"
    return outcome + probe_flags(hit.rolled).replace(" Patzer!", "")


def _show_erfolge(
    display: Display,
    params: dict[str, Any],
    hit: AttackRoll,
    plan: DamagePlan,
    need_range: int,
    need_cover: int,
) -> None:
    """What the Erfolge of a successful attack probe were spent on."""
    alloc, category, erfolge = hit.alloc, hit.category, hit.rolled.erfolge
    rows: list[list[str]] = []
    if need_range:
        rows.append(["Reichweite", str(need_range), str(alloc.for_range)])
    if need_cover:
        rows.append(["Deckung", str(need_cover), str(alloc.for_cover)])
    if plan.mastery:
        rows.append(["Meisterschafts-Manöver", str(plan.mastery), str(alloc.for_mastery)])
    if params["betaeubungsschlag"]:
        rows.append(["Betäubungsschlag", "1", "1" if alloc.stun else "0"])
    if plan.rest_mode == "wuchtangriff" and alloc.rest:
        rows.append(["Wuchtangriff", "–", f"{alloc.rest} (+{hit.wucht} Schaden)"])
    if plan.rest_mode == "stoerender_angriff" and alloc.rest:
        rows.append(["Störender Angriff", "–", f"{alloc.rest} (+{hit.disturb} Schwierigkeit)"])
    if category in ("streiftreffer", "deckung", "reichweite") and erfolge:
        rows.append(["verfallen", "–", str(erfolge - alloc.for_range - alloc.for_cover)])
    if rows:
        display.table(f"Erfolge ({erfolge})", ["Wofür", "nötig", "verwendet"], rows)


def _attack_notes(params: dict[str, Any], hit: AttackRoll, by_defence: bool) -> list[str]:
    """The notes that follow from the outcome (after the one on the Aktive Abwehr)."""
    kind, category = params["angriffsart"], hit.category
    notes: list[str] = []
    if category == "streiftreffer":
        if hit.attacker_stun:
            notes.append(
                f"Streiftreffer: Die Effekte der Meisterschafts-Manöver bleiben aus, die Erfolge "
                f"verfallen, der Angreifer erleidet {hit.attacker_stun} Betäubungsschaden."
            )
        else:
            notes.append(
                "Streiftreffer: Die Effekte der Meisterschafts-Manöver bleiben aus, die Erfolge "
                "verfallen, der Schaden sinkt um 2 je angesagtem Manöver."
            )
    if category == "deckung":
        notes.append(
            f"Der Angriff trifft die Deckung und richtet dort eventuell {hit.cover_damage} Schaden "
            "an."
        )
    if category in ("verfehlt", "patzer") and params["kampfgetuemmel"]:
        notes.append("Kampfgetümmel: der Schuss geht ins Leere.")
    if params["betaeubungsschlag"] and category == "treffer" and not hit.alloc.stun:
        notes.append("Betäubungsschlag: kein Erfolg mehr übrig – regulärer Schaden.")
    if hit.disturb:
        notes.append(
            f"Störender Angriff: die Selbstbeherrschung-Probe des Ziels gegen die Unterbrechung "
            f"ist um {hit.disturb} erschwert."
        )
    if category == "patzer" and by_defence:
        notes.append(
            "Ein Patzer, den eine gegnerische Aktive Abwehr herbeigeführt hat, führt nicht zur "
            "Patzertabelle."
        )
    elif category == "patzer":
        notes.append("Patzer bei einer Probe auf ein Kampftalent: 2W10 auf der Patzertabelle.")
    if kind == "schildstoss":
        notes.append(
            "Schildstoß: 1W6+1 Schaden; es gelten die Regeln für die falsche Hand "
            "(Waffengeschwindigkeit +2), außer mit Kampf mit zwei Waffen oder Starker Schildarm I."
        )
    if hit.rolled.critical:
        notes.append("Kritischer Erfolg: weitere Folgen legt der Text nicht fest.")
    return notes


def _show_chances(
    display: Display, chances: AttackChances, need_range: int, need_cover: int
) -> None:
    # what decides at the table first: does the attack hit?
    items = [
        ("Ziel getroffen (auch Streiftreffer)", chances.hit),
        ("Voller Treffer", chances.full_hit),
        ("Streiftreffer", chances.graze),
    ]
    if need_cover:
        items.append(("Trifft die Deckung", chances.cover))
    if need_range:
        items.append(("Erfolge reichen nicht für die Reichweite", chances.out_of_range))
    items += [
        ("Probe gelingt", chances.probe.success),
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


def _attack_result(
    kind: str,
    hit: AttackRoll,
    target: Difficulty,
    need_range: int,
    need_cover: int,
    chances: AttackChances,
    display: Display,
    by_defence: bool,
    follow_ups: list[dict[str, Any]],
) -> dict[str, Any]:
    rolled, success, alloc, category = hit.rolled, hit.success, hit.alloc, hit.category
    return {
        "kind": kind,
        "attack": rolled.to_dict(),
        "target": target.info,
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
            "wuchtangriff": hit.wucht,
            "stoerender_angriff": hit.disturb,
        },
        "damage": {
            "roll": None if hit.damage_roll is None else hit.damage_roll.to_dict(),
            "target": hit.target_damage,
            "kind": hit.damage_kind,
            "attacker_betaeubung": hit.attacker_stun,
            "cover": hit.cover_damage,
        },
        "fumble_table": category == "patzer" and not by_defence,
        "patzer_cause": (
            None if category != "patzer" else "aktive_abwehr" if by_defence else "kampftalent"
        ),
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
        "follow_ups": follow_ups,
        "display": display.to_dict(),
    }


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
    assumptions=assumptions_for("probe.", "angriff."),
)
def attack(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    _check_attack(params)
    kind = params["angriffsart"]
    ranged = kind == "fernkampf"
    damage = _damage_expression(params)
    attacker = probe_input(params, modifiers=attack_modifiers(params))
    plan = damage_plan(params)
    need_range = range_erfolge(params["entfernung"], params["grundreichweite"]) if ranged else 0
    need_cover = cover_erfolge(params["deckung"]) if ranged else 0
    display = Display(headline=ATTACK_LABELS[kind])
    notes: list[str] = []

    # Aktive Abwehr first, then the attack probe, then the damage: the seeded order
    target = roll_difficulty(params, rng, ranged, notes)
    hit = _roll_attack(params, attacker, target.reaches, plan, need_range, need_cover, damage, rng)

    by_defence = _patzer_by_defence(hit, target)
    _use_assumptions(params, hit, plan, need_range, need_cover)
    display.outcome = _outcome(hit, target.text, by_defence)
    if target.roll is not None:
        target.roll.show(display)
    hit.rolled.show(display)
    if hit.damage_roll is not None:
        label = "Schaden" if hit.category != "deckung" else "Schaden an der Deckung"
        display.roll(label, hit.damage_roll)
    if hit.success:
        _show_erfolge(display, params, hit, plan, need_range, need_cover)
    notes.extend(_attack_notes(params, hit, by_defence))

    chances = attack_chances(
        attacker, target.succeeds, need_range, need_cover, params["betaeubungsschlag"], plan, damage
    )
    _show_chances(display, chances, need_range, need_cover)
    display.notes("Hinweise", notes)
    follow_ups = _follow_ups(hit, plan, by_defence)
    return _attack_result(
        kind, hit, target, need_range, need_cover, chances, display, by_defence, follow_ups
    )
