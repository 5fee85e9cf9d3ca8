"""Ryssea Angriff: the ``attack`` action (Nahkampf, Fernkampf, Schildstoß).

Owns the attacker's fields, the whole parameter list (the groups of the other attack modules
concatenated in form order), the checks of field combinations, the weapon damage, and the
action itself: Aktive Abwehr (``defence``), attack probe, Erfolge spent (``manoeuvres``), damage
roll, in this seeded order; then the explanation and the exact chances (L47–L82, L184–L226,
L245–L253, L307–L380).
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
        required_when=("angriffsart", ("nahkampf", "fernkampf")),
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


def _outcome(hit: AttackRoll, target_text: str) -> str:
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


def _attack_notes(params: dict[str, Any], hit: AttackRoll) -> list[str]:
    """The notes that follow from the outcome (after the one on the Aktive Abwehr)."""
    kind, category = params["angriffsart"], hit.category
    notes: list[str] = []
    if category == "streiftreffer":
        if hit.attacker_stun:
            notes.append(
                f"Streiftreffer: Die Effekte der Meisterschafts-Manöver bleiben aus, die Erfolge "
                f"verfallen, der Angreifer erleidet {hit.attacker_stun} Betäubungsschaden (L82)."
            )
        else:
            notes.append(
                "Streiftreffer: Die Effekte der Meisterschafts-Manöver bleiben aus, die Erfolge "
                "verfallen, der Schaden sinkt um 2 je angesagtem Manöver (L82)."
            )
    if category == "deckung":
        notes.append(
            f"Der Angriff trifft die Deckung und richtet dort eventuell {hit.cover_damage} Schaden "
            "an (L220)."
        )
    if category in ("verfehlt", "patzer") and params["kampfgetuemmel"]:
        notes.append("Kampfgetümmel: der Schuss geht ins Leere (L222).")
    if params["betaeubungsschlag"] and category == "treffer" and not hit.alloc.stun:
        notes.append("Betäubungsschlag: kein Erfolg mehr übrig – regulärer Schaden.")
    if hit.disturb:
        notes.append(
            f"Störender Angriff: die Selbstbeherrschung-Probe des Ziels gegen die Unterbrechung "
            f"ist um {hit.disturb} erschwert (L192)."
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
    if hit.rolled.critical:
        notes.append("Kritischer Erfolg: weitere Folgen legt der Text nicht fest.")
    return notes


def _show_chances(
    display: Display, chances: AttackChances, need_range: int, need_cover: int
) -> None:
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


def _attack_result(
    kind: str,
    hit: AttackRoll,
    target: Difficulty,
    need_range: int,
    need_cover: int,
    chances: AttackChances,
    display: Display,
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

    display.outcome = _outcome(hit, target.text)
    if target.roll is not None:
        target.roll.show(display)
    hit.rolled.show(display)
    if hit.damage_roll is not None:
        label = "Schaden" if hit.category != "deckung" else "Schaden an der Deckung"
        display.roll(label, hit.damage_roll)
    if hit.success:
        _show_erfolge(display, params, hit, plan, need_range, need_cover)
    notes.extend(_attack_notes(params, hit))

    chances = attack_chances(
        attacker, target.succeeds, need_range, need_cover, params["betaeubungsschlag"], plan, damage
    )
    _show_chances(display, chances, need_range, need_cover)
    display.notes("Hinweise", notes)
    return _attack_result(kind, hit, target, need_range, need_cover, chances, display)
