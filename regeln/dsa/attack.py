"""DSA 4.1 Hausregeln: the ``attack`` action – Attacke or Schuss, then the damage.

Owns the attack probe: 1W20 under the AT- or Fernkampfwert after every Erschwernis (own
Erschwernis, Wunden, a failed manoeuvre's aftermath, the second attack and the Passierschlag of
Abschnitte "Auswahl von durchzuführenden Aktionen" and "Mögliche Freie Aktionen..."), the
outcome texts of Abschnitt "Crits und Patzer" (a crit doubles the damage), the damage roll and
the exact chances and expected damage. The manoeuvres come from ``manoeuvres.py``, distance,
Zielen and Kampfgetümmel from ``ranged.py``, the probe itself from ``common.py``.

Connected helpers: the attacker's own values are ``subject="actor"`` (Attacke or Schuss, AT/FK
value, own wounds, the weapon's TP, Stabkämpfer, GS for a Sturmangriff), the target's are
``"target"`` (RS, shield and Schild-PA); what counts for this one attack only is ``per_roll``
(a failed manoeuvre's „nächste Probe“, a Passierschlag, the actions spent aiming), the rest is
the situation – among it the second attack action (+4, the result cites the rule), which the
fight sets for an actor's second action. Every field that applies only in some case
has its ``when`` (manoeuvres and Passierschlag only for an Attacke, X only for Wuchtschlag and
Finte, GS only for a Sturmangriff, the shield only for a Gezielter Stich, distance, Zielen and
Kampfgetümmel only for a Schuss); the checks still refuse such a value from the API. A hit on
the target continues (``follow_ups``) with the target's defense (halved after a glücklicher or
kritischer Angriff, + X after a Finte, carrying the hit on to the damage should it fail) and
with „Schaden und Wunden“ (the rolled TP as a constant, the bonus TP, ``kritisch`` after a
confirmed 1). A shot into the Kampfgetümmel that hits another person instead (Abschnitt
"Fernkampfattacken ins Kampfgetümmel": „trifft er eine andere zufällige Person im
Kampfgetümmel“) does the weapon's TP to him; his RS the text cannot know, and the RS given is the
aimed target's: the damage line shows his TP (``damage_roll`` with ``damage_bonus``) and
``expected_damage_other`` is their mean, weighted with the chance of such a hit, before his RS
(until issue #43 it was SP after the target's RS); the result says that his RS still comes
off, ``sp`` stays the target's (None: the target took nothing), and „Schaden und Wunden“ is
offered for him with the TP and no RS (``"other_target": true`` – the page fills no fighter's
values into it). A Patzer has no follow-up: the
confirmation is rolled here already, and the house rules have no Patzer table to roll on (the
„Patzer“ helper *is* that confirmation, for a 20 rolled at the table).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine import dice
from engine.data_files import forecast
from engine.display import Counted, Display, bars_fit
from engine.errors import EngineError
from engine.formatting import decimal, number, signed
from engine.params import BoolParam, ChoiceParam, DiceParam, IntParam
from regeln.dsa.common import (
    ANDERE_PERSON,
    CITE_AUSWAHL,
    CITE_CRITS,
    CITE_FERNKAMPF,
    CITE_GETUEMMEL,
    CITE_SF,
    DAMAGE_LINE,
    DATA,
    GELUNGEN,
    GLUECKLICH,
    KRITISCH,
    MISSLUNGEN,
    PATZER,
    PROBE_DIE_SIDES,
    SYSTEM,
    UNGLUECKLICH,
    ProbeRoll,
    assumptions_for,
    combination,
    combination_row,
    critical_label,
    damage_points,
    modifier_rows,
    probe_chances,
    probe_roll_display,
    roll_probe,
    wound_penalty,
)
from regeln.dsa.manoeuvres import (
    MANOEUVRE_PARAMS,
    check_manoeuvre,
    manoeuvre_effect,
    manoeuvre_notes,
)
from regeln.dsa.ranged import (
    RANGED_PARAMS,
    check_melee_crowd,
    distance_and_aim,
    melee_crowd,
    roll_other_person,
)

ATTACK_PARAMS = (
    ChoiceParam(
        "kind",
        "Angriffsart",
        formerly=("art",),
        choices=(("nahkampf", "Attacke (Nahkampf)"), ("fernkampf", "Schuss (Fernkampf)")),
        group="Angriff",
        subject="actor",
    ),
    IntParam(
        "wert",
        "AT- bzw. Fernkampfwert",
        default=14,
        minimum=0,
        maximum=40,
        group="Angriff",
        required=True,
        subject="actor",
    ),
    IntParam(
        "erschwernis",
        "Erschwernis",
        default=0,
        minimum=-20,
        maximum=30,
        help="Nach Meisterentscheid, + = schwerer, − = leichter (z. B. flinker, großer Gegner).",
        group="Angriff",
    ),
    IntParam(
        "wunden",
        "Eigene Wunden",
        default=0,
        minimum=0,
        maximum=10,
        help="Pro Wunde sind alle Proben um 2 erschwert.",
        group="Angriff",
        subject="actor",
    ),
    IntParam(
        "nachwirkung",
        "Erschwernis aus Fehlschlag",
        default=0,
        minimum=0,
        maximum=30,
        help="Aus einem misslungenen Manöver zuvor: „seine nächste Probe ist um X erschwert“.",
        group="Angriff",
        per_roll=True,
    ),
    BoolParam(
        "zweite_angriffsaktion",
        "Zweite Angriffsaktion in dieser KR",
        help="Die zweite Angriffsaktion ist um 4 erschwert (Ausnahme Stabkämpfer).",
        group="Angriff",
    ),
    BoolParam(
        "stabkaempfer",
        "Stabkämpfer",
        help="Keine Erschwernis für die zweite Angriffsaktion.",
        group="Angriff",
        advanced=True,
        subject="actor",
        when=(("zweite_angriffsaktion", (True,)),),
    ),
    BoolParam(
        "passierschlag",
        "Passierschlag",
        help="Freie Aktion, ein um 4 erschwerter Angriff.",
        group="Angriff",
        advanced=True,
        when=(("kind", ("nahkampf",)),),
        per_roll=True,
    ),
    *MANOEUVRE_PARAMS,
    *RANGED_PARAMS,
    DiceParam(
        "damage",
        "Trefferpunkte (TP)",
        formerly=("schaden",),
        default="1W6+4",
        help="Trefferpunkte der Waffe, z. B. 1W6+4.",
        group="Schaden",
        required=True,
        subject="actor",
    ),
)


@dataclass
class AttackSetup:
    melee: bool
    value: int
    base: list[tuple[str, int]]
    modifiers: list[tuple[str, int]]
    target: int
    melee_free: int | None
    others: list[str]
    damage: dice.Expression
    bonus_damage: list[tuple[str, int]]
    rs: int
    next_penalty: int
    manoeuvre: str


@dataclass
class AttackRolls:
    """What the dice decided: the probe, whom a stray shot hits, the damage – the target's SP
    or the other person's TP (his RS unknown)."""

    probe: ProbeRoll
    other: dict[str, Any] | None
    other_roll: dice.RollResult | None
    damage_roll: dice.RollResult | None
    sp: int | None
    damage_other: int | None


@dataclass
class AttackOdds:
    """Before the roll: every outcome's chance, the chance to hit, the expected SP on the
    target and the expected TP on another person in the Kampfgetümmel (before his RS), and
    their distributions."""

    chances: dict[str, Fraction]
    hit: Fraction
    expected_target: Fraction
    expected_other: Fraction
    # the SP on the target per attack (0: no hit or no SP) and the TP on another person per
    # shot into the Kampfgetümmel; None where the bars did not fit the work budget
    damage: Counted | None = None
    damage_other: Counted | None = None


def _check_attack(params: dict[str, Any]) -> None:
    melee = params["kind"] == "nahkampf"
    manoeuvre = params["manoever"]
    if params["passierschlag"] and params["zweite_angriffsaktion"]:
        raise EngineError(
            "Passierschlag: ist eine Freie Aktion, keine zweite Angriffsaktion – bitte nur eines "
            "von beiden wählen.",
            "passierschlag",
        )
    if melee:
        if params["distance"] != "nah":
            raise EngineError("Entfernung (Schuss): gilt nur für Schüsse.", "distance")
        if params["zielen"]:
            raise EngineError("Aktionen Zielen: gilt nur für Schüsse.", "zielen")
        if params["getuemmel"]:
            raise EngineError(
                "Personen im Kampfgetümmel: gilt nur für Schüsse ins Kampfgetümmel.", "getuemmel"
            )
    else:
        if params["passierschlag"]:
            raise EngineError("Passierschlag: ist ein Nahkampfangriff.", "passierschlag")
        if manoeuvre != "keins":
            raise EngineError(
                "Manöver (Sonderfertigkeit): Wuchtschlag, Finte, Sturmangriff und Gezielter Stich "
                "sind Nahkampfangriffe.",
                "manoever",
            )
    check_manoeuvre(params)
    check_melee_crowd(params)


def _attack_setup(params: dict[str, Any]) -> AttackSetup:
    _check_attack(params)
    melee = params["kind"] == "nahkampf"
    manoeuvre = params["manoever"]
    mods: list[tuple[str, int]] = []
    if params["erschwernis"]:
        mods.append(("Erschwernis nach Meisterentscheid", params["erschwernis"]))
    if params["wunden"]:
        mods.append((f"Wunden × {params['wunden']}", wound_penalty() * params["wunden"]))
    if params["nachwirkung"]:
        mods.append(("Fehlschlag eines Manövers zuvor", params["nachwirkung"]))
    if params["zweite_angriffsaktion"] and not params["stabkaempfer"]:
        mods.append(("Zweite Angriffsaktion", combination("zwei_angriff")))
    if params["passierschlag"]:
        mods.append(("Passierschlag", DATA.integer("angriff.passierschlag", 0, 20)))
    effect = manoeuvre_effect(params)
    mods += effect.modifiers
    melee_free: int | None = None
    others: list[str] = []
    if not melee:
        mods += distance_and_aim(params)
    total = sum(v for _, v in mods)
    target = params["wert"] - total
    if not melee and params["getuemmel"]:
        surcharge, others = melee_crowd(params)
        mods.append(surcharge)
        melee_free = target
        target -= surcharge[1]
    damage = dice.parse(params["damage"], "damage", "Trefferpunkte (TP)")
    label = "AT-Wert" if melee else "Fernkampfwert"
    return AttackSetup(
        melee=melee,
        value=params["wert"],
        base=[(label, params["wert"])],
        modifiers=mods,
        target=target,
        melee_free=melee_free,
        others=others,
        damage=damage,
        bonus_damage=effect.bonus_damage,
        rs=effect.rs,
        next_penalty=effect.next_penalty,
        manoeuvre=manoeuvre,
    )


TOTAL_WORK = 2_000
"""Work units of :func:`_damage_counts` per possible TP total (its SP, plain and doubled; in
a Kampfgetümmel also its TP on another person, a third big-integer sum: ``big_ops``)."""


@dataclass
class DamageCounts:
    """The SP of one hit on the target, plain and critical (doubled), and the TP on another
    person in a Kampfgetümmel (before his own RS), each as integer counts per value out of
    ``outcomes`` equally likely rolls of the TP dice, with their exact means."""

    outcomes: int
    normal: dict[int, int]
    doubled: dict[int, int]
    other: dict[int, int]
    mean_normal: Fraction
    mean_doubled: Fraction
    mean_other: Fraction


def _damage_counts(setup: AttackSetup) -> DamageCounts:
    """SP over the TP distribution, plain and for a critical hit (doubled), and – in a
    Kampfgetümmel – the TP on another person before his own RS (never below 0), counted in
    integers in one pass (one Fraction per mean at the end)."""
    bonus = sum(v for _, v in setup.bonus_damage)
    crowd = setup.melee_free is not None
    use = dice.Use(per_total=TOTAL_WORK, big_ops=6 if crowd else 4)
    exact = dice.counts(setup.damage, field="damage", label="Trefferpunkte (TP)", use=use)
    normal: dict[int, int] = {}
    doubled: dict[int, int] = {}
    other: dict[int, int] = {}
    sums = [0, 0, 0]
    for tp, count in exact.items():
        plain = damage_points(tp, bonus, False, setup.rs)
        crit = damage_points(tp, bonus, True, setup.rs)
        normal[plain] = normal.get(plain, 0) + count
        doubled[crit] = doubled.get(crit, 0) + count
        sums[0] += count * plain
        sums[1] += count * crit
        if crowd:
            stray = damage_points(tp, bonus, False, 0)
            other[stray] = other.get(stray, 0) + count
            sums[2] += count * stray
    return DamageCounts(
        exact.outcomes,
        normal,
        doubled,
        other,
        *(exact.fraction(total) for total in sums),
    )


ATTACK_TEXT = {
    KRITISCH: "Kritischer {noun} (bestätigte 1): Treffer – der Verteidiger hat nur halbe PA/AW "
    "zur Reaktion und der Schaden verdoppelt sich.",
    GLUECKLICH: "Glücklicher {noun} (unbestätigte 1): Treffer – der Verteidiger hat nur halbe "
    "PA/AW zur Reaktion.",
    GELUNGEN: "Treffer – der Verteidiger darf noch parieren oder ausweichen.",
    ANDERE_PERSON: "Fehlschuss nur wegen des Kampfgetümmels: trifft zufällig {other}.",
    MISSLUNGEN: "Verfehlt.",
    UNGLUECKLICH: "Unglücklicher {noun} (unbestätigte 20): trifft nicht, unabhängig vom Wert.",
    PATZER: "Gepatzter {noun} (bestätigte 20): trifft nicht – es kommt zu einem Missgeschick "
    "nach Meisterentscheid (keine Patzertabelle in den Hausregeln).",
}
ATTACK_CHANCE_LABELS = (
    (KRITISCH, "kritisch (bestätigte 1)"),
    (GLUECKLICH, "glücklich (unbestätigte 1)"),
    (GELUNGEN, "normaler Treffer"),
    (ANDERE_PERSON, "trifft zufällig eine andere Person im Getümmel"),
    (MISSLUNGEN, "verfehlt"),
    (UNGLUECKLICH, "unglücklich (unbestätigte 20)"),
    (PATZER, "Patzer (bestätigte 20)"),
)
HITS_TARGET = (KRITISCH, GLUECKLICH, GELUNGEN)


def _roll_attack(setup: AttackSetup, rng: random.Random) -> AttackRolls:
    """The probe (and its confirmation), the other person in the Getümmel, then the damage."""
    probe = roll_probe(rng, setup.target, setup.melee_free)
    outcome = probe.outcome
    other: dict[str, Any] | None = None
    other_roll: dice.RollResult | None = None
    if outcome == ANDERE_PERSON:
        other, other_roll = roll_other_person(setup.others, rng)
    damage_roll: dice.RollResult | None = None
    sp: int | None = None
    damage_other: int | None = None
    bonus = sum(v for _, v in setup.bonus_damage)
    if outcome in HITS_TARGET:
        damage_roll = dice.roll(setup.damage, rng)
        sp = damage_points(damage_roll.total, bonus, outcome == KRITISCH, setup.rs)
    elif outcome == ANDERE_PERSON:
        # the target's RS is the target's: his own RS, which the text cannot know, comes off
        # in „Schaden und Wunden“
        damage_roll = dice.roll(setup.damage, rng)
        damage_other = damage_points(damage_roll.total, bonus, False, 0)
    return AttackRolls(probe, other, other_roll, damage_roll, sp, damage_other)


DAMAGE_CAPTION = "Schaden am Ziel je Angriff (SP nach RS, ohne Abwehr des Ziels)"
OTHER_CAPTION = "Schaden an einer anderen Person je Schuss (TP, vor ihrem RS)"


def _per_attack(
    weighted: list[tuple[Fraction, dict[int, int]]], outcomes: int, caption: str
) -> Counted | None:
    """The damage of one attack: each outcome's chance times the counts of its damage, the
    rest of the chance (no damage) at 0 – counted in integers over one denominator (the
    chances' and the damage's), or None when its bars do not fit the work budget."""
    values = {0, *(v for _, counts in weighted for v in counts)}
    bits = outcomes.bit_length() + 2 * PROBE_DIE_SIDES.bit_length()
    if not bars_fit(len(values), bits):
        return None
    chances = math.lcm(*(chance.denominator for chance, _ in weighted))
    ways: dict[int, int] = {}
    for chance, counts in weighted:
        factor = chance.numerator * (chances // chance.denominator)
        for value, count in counts.items():
            ways[value] = ways.get(value, 0) + factor * count
    total = chances * outcomes
    ways[0] = ways.get(0, 0) + total - sum(ways.values())  # no hit: no damage
    return Counted(ways, total)


def _attack_odds(setup: AttackSetup) -> AttackOdds:
    chances = probe_chances(setup.target, setup.melee_free)
    hit = sum((chances[k] for k in HITS_TARGET), Fraction(0))
    plain = chances[GLUECKLICH] + chances[GELUNGEN]
    with forecast():
        damage = _damage_counts(setup)
    expected_target = plain * damage.mean_normal + chances[KRITISCH] * damage.mean_doubled
    expected_other = chances[ANDERE_PERSON] * damage.mean_other
    target_dist = _per_attack(
        [(plain, damage.normal), (chances[KRITISCH], damage.doubled)],
        damage.outcomes,
        DAMAGE_CAPTION,
    )
    other_dist = None
    if setup.melee_free is not None:
        other_dist = _per_attack(
            [(chances[ANDERE_PERSON], damage.other)], damage.outcomes, OTHER_CAPTION
        )
    return AttackOdds(chances, hit, expected_target, expected_other, target_dist, other_dist)


def _value_table(
    display: Display, caption: str, base: list[tuple[str, int]], mods: list[tuple[str, int]]
) -> None:
    """The value and every Erschwernis (+ = harder) as a table."""
    rows = [[name, number(value)] for name, value in base]
    rows += [[name, f"{signed(value)} (Erschwernis)"] for name, value in mods]
    display.table(caption, ["Posten", "Wert"], rows)


def _damage_roll_display(display: Display, setup: AttackSetup, rolls: AttackRolls) -> None:
    """The damage roll with bonus TP, the crit factor and the target's RS – or, on another
    person in the Kampfgetümmel, his TP with the bonus TP (his RS is not known here)."""
    if rolls.damage_roll is not None and rolls.damage_other is not None and rolls.other:
        display.roll(
            f"Trefferpunkte (TP) an {rolls.other['name']}",
            rolls.damage_roll,
            list(setup.bonus_damage),
            total=rolls.damage_other,
        )
    if rolls.damage_roll is not None and rolls.sp is not None:
        bonus = sum(v for _, v in setup.bonus_damage)
        mods = list(setup.bonus_damage)
        if rolls.probe.outcome == KRITISCH:
            factor = DATA.integer("angriff.kritisch_faktor", 1, 10)
            mods.append((critical_label(factor), (rolls.damage_roll.total + bonus) * (factor - 1)))
        if setup.rs:
            mods.append(("RS des Ziels", -setup.rs))
        display.roll(DAMAGE_LINE, rolls.damage_roll, mods, total=rolls.sp)


def _second_attack_note(staff_fighter: bool) -> str:
    """The rule behind the second attack action's Erschwernis, in the table's words (Abschnitt
    "Auswahl von durchzuführenden Aktionen": „2 Angriffsaktionen -> Die zweite Angriffsaktion
    ist um 4 erschwert ** Ausnahme Stabkämpfer“)."""
    row = combination_row("zwei_angriff")
    if staff_fighter:
        return f"Zweite Angriffsaktion: keine Erschwernis – „{row['ausnahme']}“."
    return (
        f"Zweite Angriffsaktion: „{row['einschraenkung']}“ ({signed(combination('zwei_angriff'))})."
    )


def _attack_notes(
    params: dict[str, Any], setup: AttackSetup, rolls: AttackRolls, next_penalty: int
) -> list[str]:
    outcome = rolls.probe.outcome
    missed = outcome not in HITS_TARGET
    notes = []
    if params["zweite_angriffsaktion"]:
        notes.append(_second_attack_note(params["stabkaempfer"]))
    if setup.melee_free is not None:
        notes.append(
            f"Kampfgetümmel: bis {number(setup.target)} trifft das Ziel, "
            f"{number(max(setup.target + 1, 2))} bis {number(setup.melee_free)} eine zufällige "
            f"andere Person, darüber nichts (eine 20 trifft nie)."
        )
    notes += manoeuvre_notes(setup.manoeuvre, next_penalty, missed, params["manoever_x"])
    if rolls.damage_other is not None and rolls.other:
        notes.append(
            f"Von den {number(rolls.damage_other)} TP geht noch der RS von "
            f"{rolls.other['name']} ab. Den kennt dieser Helfer nicht; „{OTHER_DAMAGE_TITLE}“ "
            "zieht ihn ab."
        )
    return notes


def _chance_items(setup: AttackSetup, odds: AttackOdds) -> list[tuple[str, Fraction]]:
    chance_items = [
        (label, odds.chances[key])
        for key, label in ATTACK_CHANCE_LABELS
        if key != ANDERE_PERSON or setup.melee_free is not None
    ]
    chance_items.insert(0, ("trifft das Ziel (ohne Abwehr)", odds.hit))
    if setup.next_penalty:
        chance_items.append(("nächste Probe erschwert (Manöver misslungen)", 1 - odds.hit))
    return chance_items


def _attack_display(
    params: dict[str, Any],
    setup: AttackSetup,
    rolls: AttackRolls,
    odds: AttackOdds,
    next_penalty: int,
) -> Display:
    outcome = rolls.probe.outcome
    other = rolls.other
    noun = "Angriff"
    display = Display(
        headline=("Attacke" if setup.melee else "Schuss") + f" – 1W20 gegen {number(setup.target)}",
        outcome=ATTACK_TEXT[outcome].format(
            noun=noun, other=other["name"] if other else "jemand anderen"
        ),
    )
    _value_table(display, "Probenwert (+ = Erschwernis)", setup.base, setup.modifiers)
    display.sections[-1]["rows"].append(["Wert für die Probe", number(setup.target)])
    probe_roll_display(
        display, "Attacke" if setup.melee else "Schuss", rolls.probe, setup.target, "angriff"
    )
    if rolls.other_roll is not None:
        display.roll(
            f"Wen trifft der Schuss? (1W{len(setup.others)}: {', '.join(setup.others)})",
            rolls.other_roll,
        )
    _damage_roll_display(display, setup, rolls)
    display.notes("Hinweise", _attack_notes(params, setup, rolls, next_penalty))
    display.chances("Wahrscheinlichkeiten", _chance_items(setup, odds), before=True)
    if odds.damage is not None:
        display.distribution(
            DAMAGE_CAPTION,
            "SP",
            odds.damage,
            before=True,
            mean_label="Erwarteter Schaden je Angriff",
        )
    if odds.damage_other is not None:
        display.distribution(
            OTHER_CAPTION,
            "TP",
            odds.damage_other,
            before=True,
            mean_label="Erwarteter Schaden an einer anderen Person je Schuss (TP)",
        )
    display.notes(
        "Erwarteter Schaden (ohne Abwehr)",
        [
            f"am Ziel: {decimal(odds.expected_target)} SP",
            *(
                [
                    f"an einer anderen Person: {decimal(odds.expected_other)} TP – davon geht "
                    "noch ihr RS ab"
                ]
                if setup.melee_free is not None
                else []
            ),
        ],
    )
    return display


OTHER_DAMAGE_TITLE = "Schaden an der anderen Person"


def follow_ups(
    params: dict[str, Any], setup: AttackSetup, rolls: AttackRolls
) -> list[dict[str, Any]]:
    """A hit on the target: its defense (halved after a glücklicher/kritischer Angriff, the
    Finte's X) and the damage (the rolled TP as a constant, bonus TP, crit, Gezielter Stich).
    A hit on another person in the Kampfgetümmel: his damage, with the TP and no RS – the page
    fills in no fighter of the fight and leaves his RS empty (``other_target``)."""
    outcome = rolls.probe.outcome
    if rolls.damage_roll is None:
        return []
    hit = {
        "damage": str(rolls.damage_roll.total),
        "zusatz": sum(v for _, v in setup.bonus_damage),
        "kritisch": outcome == KRITISCH,
        "gezielter_stich": setup.manoeuvre == "gezielter_stich",
    }
    if rolls.damage_other is not None:
        return [
            {"action": "damage", "title": OTHER_DAMAGE_TITLE, "params": hit, "other_target": True}
        ]
    if outcome not in HITS_TARGET:
        return []
    # the defense carries the hit on: a failed defense continues with this very damage
    defense = {
        "halbe_abwehr": outcome in (KRITISCH, GLUECKLICH),
        "finte": params["manoever_x"] if setup.manoeuvre == "finte" else 0,
        **hit,
    }
    # the target's RS only where it was given here (the field sits collapsed): a default 0
    # would stand in for an armour nobody typed, over the one the damage helper knows
    damage = {**hit, **({"rs": params["ziel_rs"]} if params["ziel_rs"] else {})}
    return [
        {"action": "defense", "title": "Abwehr des Ziels würfeln", "params": defense},
        {"action": "damage", "title": "Schaden, falls nicht abgewehrt", "params": damage},
    ]


@SYSTEM.action(
    "attack",
    title="Attacke oder Schuss",
    summary=(
        "1W20 gegen den AT- bzw. Fernkampfwert, jede Erschwernis (+) zieht ab. Eine 1 wird "
        "bestätigt (kritisch) oder bleibt glücklich, eine 20 bestätigt (Patzer) oder unglücklich. "
        "Mit Manövern, Entfernung, Zielen und Schüssen ins Kampfgetümmel; würfelt den Schaden."
    ),
    source=f"{CITE_CRITS}; {CITE_AUSWAHL}; {CITE_FERNKAMPF}; {CITE_GETUEMMEL}; {CITE_SF}",
    params=ATTACK_PARAMS,
    assumptions=assumptions_for("probe", "halbieren.rs", "halbieren.gs", "angriff"),
    result_formerly=(("next_probe_modifier", ("next_probe_penalty",)), ("kind", ("art",))),
    what_if="ziel_rs",  # the target's RS: SP per hit, and the Gezielter Stich's RS/2
    compare=("manoever", "distance"),
)
def attack(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    setup = _attack_setup(params)
    rolls = _roll_attack(setup, rng)
    odds = _attack_odds(setup)
    probe = rolls.probe
    outcome = probe.outcome
    missed = outcome not in HITS_TARGET
    if setup.next_penalty:
        DATA.assume("probe.fehlschlag_manoever")  # when the manoeuvre's penalty arises
    next_penalty = setup.next_penalty if missed else 0
    display = _attack_display(params, setup, rolls, odds, next_penalty)
    chance_out = {key: str(odds.chances[key]) for key, _ in ATTACK_CHANCE_LABELS}
    chance_out["trifft_ziel"] = str(odds.hit)
    chance_out["naechste_probe_erschwert"] = str(
        1 - odds.hit if setup.next_penalty else Fraction(0)
    )
    return {
        "kind": params["kind"],
        "value": setup.value,
        "modifiers": modifier_rows(setup.modifiers),
        "erschwernis": sum(v for _, v in setup.modifiers),
        "target": setup.target,
        "target_without_melee": setup.melee_free,
        "roll": probe.first.to_dict(),
        "confirmation": None if probe.confirm is None else probe.confirm.to_dict(),
        "outcome": outcome,
        "hits_target": outcome in HITS_TARGET,
        "other_person": rolls.other,
        "other_roll": None if rolls.other_roll is None else rolls.other_roll.to_dict(),
        "damage_roll": None if rolls.damage_roll is None else rolls.damage_roll.to_dict(),
        "damage_bonus": modifier_rows(setup.bonus_damage),
        "sp": rolls.sp,
        "next_probe_modifier": next_penalty,
        "chances": chance_out,
        "expected_damage": str(odds.expected_target),
        "expected_damage_other": str(odds.expected_other),
        "follow_ups": follow_ups(params, setup, rolls),
        "display": display.to_dict(),
    }
