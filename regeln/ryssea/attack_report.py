"""Ryssea Angriff, after the dice: the rolled attack and how it is explained and answered.

Owns :class:`AttackRoll` (the attack probe, how its Erfolge were spent, the damage) and what
the ``attack`` action builds from it: the outcome line, the table of the Erfolge spent, the
notes that follow from the outcome, the chances before the roll, where the rules go on
(``follow_ups``: the Patzertabelle after a Patzer, L406; the Unterbrechung after damage, L120,
L192) and the JSON result. The action itself and the rolling are in
:mod:`regeln.ryssea.attack`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import dice
from engine.display import Display
from engine.formatting import decimal, number
from regeln.ryssea.common import DATA, ProbeRoll, probe_flags
from regeln.ryssea.defense import Difficulty
from regeln.ryssea.manoeuvres import Allocation, AttackChances, DamagePlan


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


def follow_ups_for(
    hit: AttackRoll, plan: DamagePlan, by_defense: bool, target: Difficulty
) -> list[dict[str, Any]]:
    """Where the rules go on: the Patzertabelle after a Patzer (L406), the Unterbrechung of a
    continuous action after damage (L120, with the Störender Angriff's Erfolge, L192), and the
    defender's Aktive Abwehr on the Tickleiste: „eine sofortige Reaktion und kostet 4 Ticks“
    (L245) – offered as a step for the target (``fighter: "target"``), never made by itself –
    and his own Patzertabelle after a Patzer of that Aktive Abwehr on a Nahkampftalent (L406,
    L247), a helper of its own (its button says it is the defender's roll)."""
    out: list[dict[str, Any]] = []
    if target.roll is not None:
        out.append(active_defense_step())
    if target.defender_fumble:
        out.append(
            {
                "action": "fumble",
                "title": "Patzertabelle für den Verteidiger würfeln",
                "params": {"ursache": "kampftalent"},
            }
        )
    if hit.category == "patzer" and not by_defense:
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
                    "damage": hit.target_damage,
                    "stoerend": hit.alloc.rest if disturbing else 0,
                },
            }
        )
    return out


def active_defense_step() -> dict[str, Any]:
    """The Tickleiste's „Handlung ausführen“ with the Aktive Abwehr's duration from its table."""
    rows = DATA.table("tabellen.handlungsdauern.zeilen", ("schluessel", "dauer"))
    row = next(r for r in rows if r["schluessel"] == "aktive_abwehr")
    return {
        "action": "tickleiste",
        "title": f"Aktive Abwehr auf die Tickleiste ({row['dauer']} Ticks)",
        "params": {"command": "handeln", "action": "aktive_abwehr"},
        "fighter": "target",
    }


def outcome_line(hit: AttackRoll, target_text: str, by_defense: bool) -> str:
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
    elif category == "patzer" and by_defense:
        outcome = (
            "Patzer – verfehlt; die gegnerische Aktive Abwehr hat ihn herbeigeführt, kein Wurf "
            f"auf der Patzertabelle. {versus}"
        )
    elif category == "patzer":
        outcome = f"Patzer – verfehlt; 2W10 auf der Patzertabelle. {versus}"
    else:
        outcome = f"Verfehlt. {versus}"
    return outcome + probe_flags(hit.rolled).replace(" Patzer!", "")


def show_erfolge(
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


def attack_notes(params: dict[str, Any], hit: AttackRoll, by_defense: bool) -> list[str]:
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
    if category == "patzer" and by_defense:
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


def show_chances(
    display: Display, chances: AttackChances, need_range: int, need_cover: int
) -> None:
    """The chances before the roll, the expected values and the damage per attack as a
    distribution."""
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
    # the odds before the roll: the same whatever the dice show („Was wäre wenn“ reads them)
    display.chances("Chancen vor dem Wurf", items, before=True)
    display.table(
        "Erwartungswerte",
        ["Größe", "Wert"],
        [
            ["Erfolge", decimal(chances.expected_erfolge)],
            ["Schaden am Ziel", decimal(chances.expected_damage)],
        ],
    )
    if chances.damage_counts:
        # L186 the weapon's damage on a hit, L73–L82 and L190–L194 what the Erfolge make of
        # it (Betäubungsschaden after a Betäubungsschlag counts as damage to the target); a
        # miss, a hit on the cover (L220) and Erfolge short of the range (L210) are 0. The
        # caption stays the same for every choice: „Vergleichen“ lines the means up by it.
        display.distribution(
            "Schaden am Ziel je Angriff (vor dem Wurf)",
            "Schaden",
            chances.damage_distribution(),
            mean_label="Erwarteter Schaden je Angriff",
            before=True,
        )


def attack_result(
    kind: str,
    hit: AttackRoll,
    target: Difficulty,
    need_range: int,
    need_cover: int,
    chances: AttackChances,
    display: Display,
    by_defense: bool,
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
            "deckung": hit.cover_damage,
        },
        "fumble_table": category == "patzer" and not by_defense,
        "patzer_cause": (
            None if category != "patzer" else "aktive_abwehr" if by_defense else "kampftalent"
        ),
        "chances": {
            "success": str(chances.probe.success),
            "hit": str(chances.hit),
            "full_hit": str(chances.full_hit),
            "streiftreffer": str(chances.graze),
            "deckung": str(chances.cover),
            "out_of_range": str(chances.out_of_range),
            "critical": str(chances.probe.critical),
            "patzer": str(chances.probe.patzer),
            "expected_erfolge": str(chances.expected_erfolge),
            "expected_damage": str(chances.expected_damage),
        },
        "follow_ups": follow_ups,
        "display": display.to_dict(),
    }
