"""Ryssea's smaller rolls around combat: Ausweichsprung, Unterbrechung, Zusammenarbeit, Atemholen.

Owns the actions ``dodge_jump`` (Akrobatik against 15 lowers area damage, L253),
``interruption`` (Selbstbeherrschung against 10 + damage + 3 per Störender-Angriff-Erfolg,
L120–L122, L192), ``teamwork`` (each helper attacks the Verteidigung − 5 for +1 (+1 per Erfolg)
or −1, with the exact distribution of the sum, L307–L315) and ``catch_breath`` (heals
10 + Konstitution Betäubungsschaden, L261).

Hints for connected helpers: the Ausweichsprung and the Unterbrechung are rolled by the fighter
acted on (hit by an area effect, damaged in a continuous action), so their Eigenschaften, TaW
and Talentwürfel are ``target`` values – after a hit the attack offers the Unterbrechung with
the damage filled in; the Zusammenarbeit's Verteidigung is the opponent's (``target``) and its
result goes on to the main attacker's attack; Atemholen is the acting fighter's own
Konstitution. The helpers of a Zusammenarbeit are a list of other fighters (no hint).
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any

from engine.display import Display
from engine.formatting import decimal, number, signed
from engine.ordering import check_unique_names
from engine.params import IntParam, ListParam, Param, TextParam
from regeln.ryssea.common import (
    DATA,
    MAX_EIGENSCHAFT,
    MAX_TAW,
    SOURCE,
    SYSTEM,
    ProbeChances,
    ProbeInput,
    ProbeRoll,
    assumptions_for,
    at_least,
    erfolge_distribution,
    probe_chances,
    probe_fields,
    probe_flags,
    probe_input,
    roll_probe,
)

MAX_DAMAGE = 999
"""Most Schadenspunkte the Unterbrechung takes (the attack's damage is sent on as is)."""

MODIFIER_PARAM = IntParam(
    "modifier",
    "Modifikator",
    formerly=("modifikator",),
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
        *probe_fields(talent="Akrobatik", group="Probe", subject="target"),
        MODIFIER_PARAM,
        IntParam(
            "damage",
            "Erlittener Schaden",
            formerly=("schaden",),
            default=10,
            minimum=0,
            maximum=200,
            help="Der Schaden, den der Effekt eigentlich anrichtet.",
            group="Schaden",
            required=True,
            per_roll=True,
        ),
    ),
    assumptions=assumptions_for("probe."),
)
def dodge_jump(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    spec = probe_input(params, modifiers=(("Modifikator", params["modifier"]),))
    target = DATA.integer("ausweichsprung.schwierigkeit", 0, 100)
    base_cut = DATA.integer("ausweichsprung.grundabzug", 0, 20)
    per = DATA.integer("ausweichsprung.abzug_je_erfolg", 0, 20)
    incoming = params["damage"]
    rolled = roll_probe(spec, rng, "Akrobatik")
    success = rolled.succeeded(rolled.total >= target)
    cut = min(incoming, base_cut + per * rolled.erfolge) if success else 0
    remaining = incoming - cut
    chances = probe_chances(spec, at_least(target))
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
            f"{target}): {remaining} von {incoming} Schaden.{probe_flags(rolled)}"
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
        before=True,
    )
    display.table(
        "Erwartungswerte",
        ["Größe", "Wert"],
        [
            ["Abgewendeter Schaden", decimal(expected_cut)],
            ["Verbleibender Schaden", decimal(incoming - expected_cut)],
        ],
    )
    display.distribution(
        "Verbleibender Schaden (vor dem Wurf)",
        "Schaden",
        _remaining_damage(incoming, chances.success, spec.taw, base_cut, per),
        mean_label="Erwarteter verbleibender Schaden",
        before=True,
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


def _remaining_damage(
    incoming: int, success: Fraction, taw: int, base_cut: int, per: int
) -> dict[int, Fraction]:
    """L253: a successful Ausweichsprung lowers the damage by 1 and 1 more per Erfolg (never
    below 0); a failed one leaves it whole."""
    out: dict[int, Fraction] = {incoming: 1 - success}
    for k, p in enumerate(erfolge_distribution(taw)):
        left = incoming - min(incoming, base_cut + per * k)
        out[left] = out.get(left, Fraction(0)) + success * p
    return {d: p for d, p in sorted(out.items()) if p}


@SYSTEM.action(
    "interruption",
    title="Unterbrechung einer kontinuierlichen Aktion",
    summary=(
        "Selbstbeherrschung-Probe gegen 10 + erlittene Schadenspunkte (+3 je Erfolg eines "
        "Störenden Angriffs); misslingt sie, ist die Aktion unterbrochen."
    ),
    source=f"{SOURCE} L120–L122, L192",
    params=(
        *probe_fields(talent="Selbstbeherrschung", group="Probe", subject="target"),
        MODIFIER_PARAM,
        IntParam(
            "damage",
            "Erlittene Schadenspunkte",
            formerly=("schaden",),
            default=12,
            minimum=0,
            maximum=MAX_DAMAGE,
            group="Schaden",
            required=True,
            per_roll=True,
        ),
        IntParam(
            "stoerend",
            "Erfolge für Störenden Angriff",
            default=0,
            minimum=0,
            maximum=MAX_TAW,
            help="Vom Angreifer für den Störenden Angriff verwendete Erfolge: je +3.",
            group="Schaden",
            per_roll=True,
        ),
    ),
    assumptions=assumptions_for("probe."),
    what_if="damage",  # the chances across the damage suffered (L120: 10 + Schadenspunkte)
)
def interruption(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    spec = probe_input(params, modifiers=(("Modifikator", params["modifier"]),))
    base = DATA.integer("unterbrechung.schwierigkeit_grund", 0, 100)
    per = DATA.integer("angriff.stoerend_je_erfolg", 0, 20)
    target = base + params["damage"] + per * params["stoerend"]
    rolled = roll_probe(spec, rng, "Selbstbeherrschung", with_erfolge=False)
    success = rolled.succeeded(rolled.total >= target)
    chances = probe_chances(spec, at_least(target))
    display = Display(
        headline="Unterbrechung",
        outcome=(
            f"{'Die Aktion geht weiter' if success else 'Die Aktion ist unterbrochen'}: "
            f"{number(rolled.total)} gegen {target}.{probe_flags(rolled)}"
        ),
    )
    rolled.show(display)
    display.table(
        "Schwierigkeit",
        ["Teil", "Punkte"],
        [
            ["Grundschwierigkeit", str(base)],
            ["Erlittene Schadenspunkte", str(params["damage"])],
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
        before=True,
    )
    if not success:
        display.notes(
            "Hinweise",
            ["Der Unterbrochene nimmt wie ein Abwartender wieder am Kampf teil."],
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
    chances = probe_chances(spec, at_least(target))
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


def _helper_entry(
    name: str,
    rolled: ProbeRoll,
    success: bool,
    bonus: int,
    chances: ProbeChances,
    expected: Fraction,
) -> dict[str, Any]:
    """One helper's probe, bonus and chances in the answer."""
    return {
        "name": name,
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
            required=True,
            subject="target",
        ),
        ListParam(
            "helfer",
            "Helfer",
            item=HELPER_FIELDS,
            item_label="Helfer",
            min_items=1,
            max_items=6,
            default_items=({"name": "Bruna"},),
            required=True,
        ),
    ),
    assumptions=assumptions_for("probe."),
    what_if="verteidigung",  # the chances across the opponent's Verteidigung (L311)
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
        spec = probe_input(row, modifiers=(("Modifikator", row["modifier"]),))
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
        helpers_out.append(_helper_entry(row["name"], rolled, success, bonus, chances, expected))
    display.outcome = (
        f"Der Hauptangreifer erhält {signed(total)} auf seinen nächsten Nahkampfangriff "
        f"gegen diesen Gegner (Verteidigung {number(params['verteidigung'])} − {minus} = "
        f"{number(target)})."
    )
    display.table("Helfer", ["Helfer", "Probe", "Ergebnis", "Erfolge", "Bonus"], table_rows)
    p_positive = sum((p for t, p in total_dist.items() if t > 0), Fraction(0))
    chance_items.insert(0, ("Gesamt-Modifikator positiv", p_positive))
    display.chances("Chancen vor dem Wurf", chance_items, before=True)
    # L311–L313: the sum of the helpers' bonuses and maluses, before the roll
    if not display.distribution(
        "Gesamt-Modifikator für den Hauptangreifer (vor dem Wurf)",
        "Modifikator",
        total_dist,
        mean_label="Erwarteter Gesamt-Modifikator",
        before=True,
    ):
        display.table(
            "Erwartungswerte", ["Größe", "Wert"], [["Gesamt-Modifikator", decimal(expected_total)]]
        )
    notes = [
        "Jeder Helfer braucht 8 Ticks statt der Waffengeschwindigkeit und richtet keinen "
        "Schaden an. Zusammenarbeit und Überzahl gelten gleichzeitig.",  # L311, L315
    ]
    if any(h["probe"]["patzer"] for h in helpers_out):
        notes.append("Patzer bei einer Probe auf ein Kampftalent: 2W10 auf der Patzertabelle.")
    display.notes("Hinweise", notes)
    return {
        "difficulty": target,
        "helpers": helpers_out,
        "total": total,
        "follow_ups": _teamwork_follow_ups(helpers_out, total),
        "chances": {
            "positive": str(p_positive),
            "expected_total": str(expected_total),
            "total": {str(t): str(p) for t, p in sorted(total_dist.items())},
        },
        "display": display.to_dict(),
    }


def _teamwork_follow_ups(helpers: list[dict[str, Any]], total: int) -> list[dict[str, Any]]:
    """The main attacker's next melee attack with the bonus (L313); the Patzertabelle for each
    helper whose attack probe was a Patzer (L406: a Kampftalent, no Aktive Abwehr)."""
    out: list[dict[str, Any]] = [
        {
            "action": "attack",
            "title": "Angriff des Hauptangreifers",
            "params": {"angriffsart": "nahkampf", "zusammenarbeit": total},
        }
    ]
    out += [
        {
            "action": "fumble",
            "title": f"Patzertabelle für {helper['name']}",
            "params": {"ursache": "kampftalent"},
        }
        for helper in helpers
        if helper["probe"]["patzer"]
    ]
    return out


@SYSTEM.action(
    "catch_breath",
    title="Atemholen",
    summary=(
        "Am Ende der kontinuierlichen Aktion heilt der Kämpfer 10 + Konstitution Punkte "
        "Betäubungsschaden; danach erst wieder nach einer Verschnaufpause oder Ruhephase."
    ),
    source=f"{SOURCE} L261",
    params=(
        IntParam(
            "konstitution",
            "Konstitution",
            default=10,
            minimum=0,
            maximum=MAX_EIGENSCHAFT,
            required=True,
            subject="actor",
        ),
        IntParam(
            "betaeubungsschaden",
            "Erlittener Betäubungsschaden",
            default=15,
            minimum=0,
            maximum=500,
            help="Wie viel Betäubungsschaden der Kämpfer gerade hat.",
            required=True,
            subject="actor",
        ),
    ),
    rolls_dice=False,  # nothing is rolled: the form has no Wurfnummer
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
            "Verschnaufpause oder Ruhephase.",
        ],
    )
    return {
        "heal_max": heal_max,
        "healed": healed,
        "betaeubungsschaden": left,
        "display": display.to_dict(),
    }
