"""DSA 4.1 Hausregeln: the ``damage`` action – Schadenspunkte, Wunden and LeP thresholds.

Owns the paragraph on wounds after Abschnitt "Crits und Patzer": SP = TP − RS (Annahme), the
Wundschwelle KO/2 and a wound above it (+2 on every probe), the LeP thresholds kampfunfähig,
lebensbedrohlich verletzt (dies within KO × W6 KR) and tot; a crit doubles the TP, a Gezielter
Stich ignores RS, causes an automatic wound and lowers the Wundschwelle by 2 (Abschnitt
"Geläufigste aktive Kampfsonderfertigkeiten"). ``damage_points`` itself is in ``common.py``.

Connected helpers: RS, KO, LeP and wounds are the target's, LeP and wounds its ``resource``s –
the result's ``target_update`` gives their new values (``lep``, ``wunden``). The TP, bonus TP,
crit and Gezielter Stich are this hit's (``per_roll``: the attack's or the failed defense's
follow-up brings the rolled TP; the page clears them after the roll, so neither a Wuchtschlag's
X nor the last hit's TP come back with the next hit – the weapon's TP stay the attacker's in the
attack helper). Assumptions are read only where they decide the rolled hit: the
Wundschwelle's missing rounding only for an odd KO when the SP sit exactly on the rounded
value, the number of wounds per hit only above twice the Wundschwelle, the RS rule only with
RS, the reading of „ab … LeP“ only when the LeP land exactly on a threshold.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine import dice
from engine.data_files import forecast
from engine.display import Display, bars_fit
from engine.errors import EngineError
from engine.fight_state import DEAD
from engine.formatting import decimal, fraction_text, number, signed
from engine.params import BoolParam, DiceParam, IntParam
from regeln.dsa.common import (
    CITE_CRITS,
    CITE_SF,
    CITE_WUNDEN,
    CONTRACT,
    DAMAGE_LINE,
    DATA,
    SYSTEM,
    assumptions_for,
    critical_label,
    damage_points,
    wound_penalty,
)


def lep_status(lep: int, ko: int) -> dict[str, Any]:
    """The state after the hit, by the fight contract's rules (``kampf.zustaende``: tot at
    −KO, lebensbedrohlich verletzt at 0, kampfunfähig at 5 LeP; the Annahme „ab“ = at or
    below is named when the LeP sit exactly on a threshold): the one state function
    (``engine.fight_contract``) every result and the page read."""
    state = CONTRACT.state({"lep": lep, "ko": ko})
    assert state is not None  # LeP and KO are known, and DSA has its rules
    return state


def status_ids() -> list[str]:
    """Each state's id, the fit one first, then the rules from the mildest (the order of the
    odds)."""
    return [CONTRACT.fit_id, *(rule.id for rule in reversed(CONTRACT.rules))]


def status_text(key: str) -> str:
    if key == CONTRACT.fit_id:
        return CONTRACT.fit_text
    return next(rule.text for rule in CONTRACT.rules if rule.id == key)


def wound_threshold(ko: int, aimed: bool) -> Fraction:
    """Wundschwelle KO/2 (not rounded, Annahme); Gezielter Stich lowers it by 2."""
    lowered = DATA.integer("wunden.gezielter_stich_wundschwelle", 0, 20) if aimed else 0
    return Fraction(ko, 2) - lowered


def wounds_from_damage(sp: int, threshold: Fraction) -> int:
    """Wounds one hit causes: SP > k × Wundschwelle for k = 1 … the data's maximum."""
    if sp <= 0:
        return 0
    if threshold > 0 and sp <= 2 * threshold:
        return 1 if sp > threshold else 0  # a second wound is out of reach: no assumption
    most = DATA.integer("wunden.hoechstens_pro_treffer", 1, 10)
    return sum(1 for k in range(1, most + 1) if sp > k * threshold)


DAMAGE_PARAMS = (
    DiceParam(
        "damage",
        "Trefferpunkte (TP)",
        formerly=("tp",),
        default="1W6+4",
        help="Trefferpunkte der Waffe, z. B. 1W6+4.",
        group="Treffer",
        required=True,
        per_roll=True,
    ),
    IntParam(
        "zusatz",
        "Zusätzliche TP",
        default=0,
        minimum=-20,
        maximum=40,
        help="Z. B. Wuchtschlag X oder Sturmangriff 4 + GS/2.",
        group="Treffer",
        per_roll=True,
    ),
    BoolParam(
        "kritisch",
        "Kritischer Angriff",
        help="Der Schaden verdoppelt sich.",
        group="Treffer",
        per_roll=True,
    ),
    BoolParam(
        "gezielter_stich",
        "Gezielter Stich",
        help="Ignoriert RS, richtet eine automatische Wunde an, Wundschwelle um 2 gesenkt.",
        group="Treffer",
        per_roll=True,
    ),
    IntParam(
        "rs",
        "RS des Getroffenen",
        default=0,
        minimum=0,
        maximum=20,
        group="Getroffener",
        subject="target",
    ),
    CONTRACT.field("ko", "KO des Getroffenen", default=12, group="Getroffener", required=True),
    CONTRACT.field("lep", "LeP vor dem Treffer", default=30, group="Getroffener", required=True),
    CONTRACT.field("wunden", "Wunden bisher", default=0, group="Getroffener"),
)


def _damage_outcome(
    tp: int, params: dict[str, Any], threshold: Fraction
) -> tuple[int, int, int, dict[str, Any]]:
    """SP, wounds of this hit, LeP after it and the state for a rolled TP total."""
    rs = 0 if params["gezielter_stich"] else params["rs"]
    sp = damage_points(tp, params["zusatz"], params["kritisch"], rs)
    wounds = wounds_from_damage(sp, threshold) + (1 if params["gezielter_stich"] else 0)
    lep = params["lep"] - sp
    return sp, wounds, lep, lep_status(lep, params["ko"])


@dataclass
class Hit:
    """The rolled hit: TP, SP, wounds, LeP left and state (``state_of``: ``id`` is the
    status), and the dying roll if any."""

    rolled: dice.RollResult
    sp: int
    wounds: int
    total_wounds: int
    penalty: int
    lep: int
    state: dict[str, Any]
    dying: dice.RollResult | None
    dying_kr: int | None


@dataclass
class DamageOdds:
    """Before the roll: chance of a wound, of each status, the expected SP and wounds and
    their distributions."""

    p_wound: Fraction
    expected_wounds: Fraction
    expected_sp: Fraction
    status_p: dict[str, Fraction]
    # the SP and the wounds of this hit, value → chance; None where the bars did not fit the
    # work budget
    sp_dist: dict[int, Fraction] | None = None
    wounds_dist: dict[int, Fraction] | None = None


def _roll_hit(
    params: dict[str, Any], expression: dice.Expression, threshold: Fraction, rng: random.Random
) -> Hit:
    """Roll the TP; if the hit leaves the target lebensbedrohlich verletzt, roll the W6 KR."""
    rolled = dice.roll(expression, rng)
    sp, wounds, lep, state = _damage_outcome(rolled.total, params, threshold)
    if threshold.denominator != 1 and sp == math.ceil(threshold):
        DATA.assume("wunden.wundschwelle")  # rounding KO/2 up would have spared this wound
    total_wounds = params["wunden"] + wounds
    penalty = wound_penalty() * total_wounds
    dying: dice.RollResult | None = None
    dying_kr: int | None = None
    if state["id"] == "lebensbedrohlich":
        dying = dice.roll(DATA.dice("wunden.sterben_wurf", "Sterben"), rng)
        dying_kr = params["ko"] * dying.total
    return Hit(rolled, sp, wounds, total_wounds, penalty, lep, state, dying, dying_kr)


TOTAL_WORK = 5_000
SP_CAPTION = "Schadenspunkte dieses Treffers (vor dem Schadenswurf)"
WOUNDS_CAPTION = "Wunden durch diesen Treffer (vor dem Schadenswurf)"
"""Work units of :func:`_damage_odds` per possible TP total (the outcome: SP, wounds, status)."""


def _damage_odds(
    params: dict[str, Any], expression: dice.Expression, threshold: Fraction
) -> DamageOdds:
    """Counted in integers over the TP distribution's outcomes; Fractions only at the end."""
    use = dice.Use(per_total=TOTAL_WORK, big_ops=6)
    exact = dice.counts(expression, field="damage", label="Trefferpunkte (TP)", use=use)
    wound_count = 0
    wounds_sum = 0
    sp_sum = 0
    status_count = dict.fromkeys(status_ids(), 0)
    sp_count: dict[int, int] = {}
    wounds_count: dict[int, int] = {}
    for tp, count in exact.items():
        e_sp, e_wounds, _, e_status = _damage_outcome(tp, params, threshold)
        sp_sum += count * e_sp
        wounds_sum += count * e_wounds
        if e_wounds:
            wound_count += count
        status_count[e_status["id"]] += count
        sp_count[e_sp] = sp_count.get(e_sp, 0) + count
        wounds_count[e_wounds] = wounds_count.get(e_wounds, 0) + count
    bits = exact.outcomes.bit_length()
    sp_dist = wounds_dist = None
    if bars_fit(len(sp_count), bits):
        sp_dist = {sp: exact.fraction(c) for sp, c in sorted(sp_count.items())}
    if bars_fit(len(wounds_count), bits):
        wounds_dist = {w: exact.fraction(c) for w, c in sorted(wounds_count.items())}
    return DamageOdds(
        exact.fraction(wound_count),
        exact.fraction(wounds_sum),
        exact.fraction(sp_sum),
        {key: exact.fraction(value) for key, value in status_count.items()},
        sp_dist,
        wounds_dist,
    )


def _damage_rolls_display(display: Display, params: dict[str, Any], hit: Hit) -> None:
    """TP → SP (bonus TP, crit, RS) and, if lebensbedrohlich, the KO × W6 KR roll."""
    factor = DATA.integer("angriff.kritisch_faktor", 1, 10)
    mods: list[tuple[str, int]] = []
    if params["zusatz"]:
        mods.append(("zusätzliche TP", params["zusatz"]))
    if params["kritisch"]:
        mods.append((critical_label(factor), (hit.rolled.total + params["zusatz"]) * (factor - 1)))
    if params["rs"] and not params["gezielter_stich"]:
        mods.append(("RS", -params["rs"]))
    display.roll(DAMAGE_LINE, hit.rolled, mods, total=hit.sp)
    if hit.dying is not None and hit.dying_kr is not None:
        display.roll(
            f"Stirbt innerhalb von KO × W6 KR (KO {params['ko']})",
            hit.dying,
            [(f"× KO {params['ko']} (Zuschlag)", hit.dying_kr - hit.dying.total)],
            total=hit.dying_kr,
        )


def _wound_rows(params: dict[str, Any], hit: Hit, threshold: Fraction) -> list[list[str]]:
    rows = [
        ["Wundschwelle (KO/2)", decimal(Fraction(params["ko"], 2))],
    ]
    if params["gezielter_stich"]:
        rows.append(["Wundschwelle, Gezielter Stich (− 2)", decimal(threshold)])
        rows.append(["Automatische Wunde (Gezielter Stich)", "1"])
    rows += [
        ["Wunden durch diesen Treffer", str(hit.wounds)],
        ["Wunden insgesamt", str(hit.total_wounds)],
        ["Erschwernis auf alle Proben", signed(hit.penalty)],
        ["LeP", f"{number(params['lep'])} − {number(hit.sp)} = {number(hit.lep)}"],
        ["Zustand", hit.state["text"]],
    ]
    return rows


def _damage_display(
    params: dict[str, Any], hit: Hit, threshold: Fraction, odds: DamageOdds
) -> Display:
    display = Display(
        headline=f"Schaden – {number(hit.sp)} SP",
        outcome=(
            f"{number(hit.sp)} SP, {hit.wounds} {'Wunde' if hit.wounds == 1 else 'Wunden'}; "
            f"{number(hit.lep)} LeP übrig: {hit.state['text']}."
        ),
    )
    _damage_rolls_display(display, params, hit)
    display.table(
        "Wunden und Lebensenergie", ["Posten", "Wert"], _wound_rows(params, hit, threshold)
    )
    display.chances(
        "Wahrscheinlichkeiten (vor dem Schadenswurf)",
        [
            ("mindestens eine Wunde", odds.p_wound),
            *((f"danach {status_text(key)}", p) for key, p in odds.status_p.items()),
        ],
        before=True,
    )
    if odds.sp_dist is not None:
        display.distribution(
            SP_CAPTION, "SP", odds.sp_dist, before=True, mean_label="Erwarteter Schaden (SP)"
        )
    if odds.wounds_dist is not None:
        display.distribution(
            WOUNDS_CAPTION,
            "Wunden",
            odds.wounds_dist,
            before=True,
            mean_label="Erwartete Wunden durch diesen Treffer",
        )
    display.notes(
        "Erwartungswerte",
        [
            f"Schaden: {decimal(odds.expected_sp)} SP",
            f"Wunden durch diesen Treffer: {decimal(odds.expected_wounds)}",
        ],
    )
    return display


@SYSTEM.action(
    "damage",
    title="Schaden und Wunden",
    summary=(
        "Würfelt die TP, zieht den RS ab und prüft die Wundschwelle (KO/2): Schaden darüber "
        "bringt eine Wunde (je +2 auf alle Proben). Zeigt, ob der Getroffene kampfunfähig "
        "(ab 5 LeP), lebensbedrohlich verletzt (ab 0 LeP, stirbt in KO × W6 KR) oder tot ist."
    ),
    source=f"{CITE_WUNDEN}; {CITE_CRITS}; {CITE_SF}",
    params=DAMAGE_PARAMS,
    assumptions=assumptions_for("wunden", "angriff.ruestungsschutz"),
    result_formerly=(
        ("wunden", ("wounds",)),
        ("wunden_total", ("wounds_total",)),
        ("expected_wunden", ("expected_wounds",)),
        ("wundschwelle", ("wound_threshold",)),
    ),
    what_if="rs",  # the RS of the one hit: SP, wounds and state across it
)
def damage(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    with forecast():  # the state before the hit: its Annahme is not this result's
        before = lep_status(params["lep"], params["ko"])
    if before["zustand"] == DEAD:
        raise EngineError(
            f"LeP vor dem Treffer: bei {params['lep']} LeP (KO {params['ko']}) ist der Kämpfer "
            f"schon tot.",
            "lep",
        )
    expression = dice.parse(params["damage"], "damage", "Trefferpunkte (TP)")
    threshold = wound_threshold(params["ko"], params["gezielter_stich"])
    hit = _roll_hit(params, expression, threshold, rng)
    with forecast():
        odds = _damage_odds(params, expression, threshold)
    display = _damage_display(params, hit, threshold, odds)
    return {
        "roll": hit.rolled.to_dict(),
        "sp": hit.sp,
        "wundschwelle": fraction_text(threshold).replace("\u2212", "-"),
        "wunden": hit.wounds,
        "wunden_total": hit.total_wounds,
        "probe_penalty": hit.penalty,
        "lep": hit.lep,
        "status": hit.state["id"],
        "dying_roll": None if hit.dying is None else hit.dying.to_dict(),
        "dying_within_kr": hit.dying_kr,
        "chances": {
            "wunde": str(odds.p_wound),
            **{key: str(p) for key, p in odds.status_p.items()},
        },
        "expected_sp": str(odds.expected_sp),
        "expected_wunden": str(odds.expected_wounds),
        "target_update": {"lep": hit.lep, "wunden": hit.total_wounds},
        "target_state": hit.state,
        "display": display.to_dict(),
    }
