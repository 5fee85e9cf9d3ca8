"""Pathfinder Trefferpunkte nach Schaden (L69–L95): the ``hit_points`` action.

Owns the states after damage (L95: 0 kampfunfähig, from −1 sterbend, at the negative
Konstitutionswert tot – below it too, an Annahme), the minimum of 1 nonlethal point (L76) and the
action that applies one damage roll with the exact chance of each state.

Connected helpers: the hit points and Konstitutionswert are the target's (``subject="target"``),
the hit points its ``resource`` – ``target_update`` gives the new value (``hp``); the damage is
this hit's, usually carried over from the attack's follow-up as a constant. Annahmen named only
where they decide: „tot also below −KO“ when the hit points fall below it, „nonlethal damage
does not lower the hit points“ when the hit deals only the minimum.
"""

from __future__ import annotations

import random
from typing import Any

from engine import dice
from engine.data_files import forecast
from engine.display import Counted, Display, show_distribution
from engine.errors import EngineError
from engine.fight_state import DEAD
from engine.formatting import number
from engine.params import DiceParam
from regeln.pathfinder.common import (
    CONTRACT,
    DATA,
    SOURCE,
    SYSTEM,
    assumptions_for,
)

# ---------------------------------------------------------------------------------------------
# Action: hit_points (L69–L95)
# ---------------------------------------------------------------------------------------------

TOTAL_WORK = 1_000
"""Work units of :func:`hit_points` per possible damage total (the state after it)."""


def hp_state(hp: int, constitution: int) -> dict[str, Any]:
    """L95 by the fight contract's rules (``kampf.zustaende``): 0 kampfunfähig, from −1
    sterbend, at −KO tot (also below: an Annahme, read only there) – the one state function
    (``engine.fight_contract``) every result and the page read; ``id`` is the state's key."""
    state = CONTRACT.state({"hp": hp, "konstitution": constitution})
    assert state is not None  # both values are known, and the rules are there
    return state


def hp_state_is_dead(key: str) -> bool:
    """Whether the state with this id is „tot“ (the worst: no more damage changes it)."""
    return any(rule.id == key and rule.zustand == DEAD for rule in CONTRACT.rules)


def state_ids() -> list[str]:
    """Each state's id: fit first, then the rules from the mildest (the order of the odds)."""
    return [CONTRACT.fit_id, *(rule.id for rule in reversed(CONTRACT.rules))]


def state_text(key: str) -> str:
    if key == CONTRACT.fit_id:
        return CONTRACT.fit_text
    return next(rule.text for rule in CONTRACT.rules if rule.id == key)


def lethal_distribution(exact: dice.Counts, floor: int) -> Counted:
    """L76: the lethal damage of one roll – a total below the minimum deals 0 lethal (the 1
    point of nonlethal damage lowers no hit points, an Annahme); its mean is
    ``expected_lethal``."""
    out: dict[int, int] = {}
    for index, count in enumerate(exact.counts):
        if count:
            amount = exact.offset + index
            key = amount if amount >= floor else 0
            out[key] = out.get(key, 0) + count
    return Counted(out, exact.outcomes)


@SYSTEM.action(
    "hit_points",
    title="Trefferpunkte nach Schaden",
    summary=(
        "Schaden senkt die Trefferpunkte: bei 0 kampfunfähig, ab −1 sterbend, beim negativen "
        "Konstitutionswert tot. Weniger als 1 Schaden wird 1 Punkt nichttödlicher Schaden."
    ),
    source=f"{SOURCE} L69–L95",
    params=(
        CONTRACT.field("hp", "Aktuelle Trefferpunkte", default=12, required=True),
        CONTRACT.field(
            "konstitution",
            "Konstitutionswert",
            formerly=("constitution",),
            default=12,
            help="Der Wert, nicht der Modifikator: bei −KO Trefferpunkten ist man tot.",
            required=True,
        ),
        DiceParam(
            "damage",
            "Schaden",
            default="1W8+2",
            help="Schadenswurf samt Modifikatoren, z. B. 2W6+3, oder eine feste Zahl.",
            required=True,
            per_roll=True,
        ),
    ),
    assumptions=assumptions_for("trefferpunkte", "schaden.mindestschaden_je_treffer"),
    what_if="hp",  # the states across the target's hit points
)
def hit_points(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    hp = params["hp"]
    con = params["konstitution"]
    with forecast():  # the state before the hit: its Annahme is not this result's
        before = hp_state(hp, con)
    if before["zustand"] == DEAD:
        raise EngineError(
            f"Aktuelle Trefferpunkte: Bei {number(hp)} TP und Konstitution {con} ist der "
            "Kämpfer schon tot.",
            "hp",
        )
    expression = dice.parse(params["damage"], "damage", "Schaden")
    floor = DATA.integer("schaden.mindestschaden", 1, 1)
    with forecast():
        exact = dice.counts(
            expression,
            field="damage",
            label="Schaden",
            use=dice.Use(per_total=TOTAL_WORK, big_ops=3),
        )
    rolled = dice.roll(expression, rng)
    raw = rolled.total
    lethal, nonlethal = (raw, 0) if raw >= floor else (0, floor)
    new_hp = hp - lethal
    state = hp_state(new_hp, con)
    # counted in integers over the outcomes of the damage roll; Fractions only at the end
    state_counts = dict.fromkeys(state_ids(), 0)
    minimum_count = 0
    lethal_sum = 0
    with forecast():
        dead = ""  # once a total kills, every larger one does (damage only lowers the TP)
        for amount, count in exact.items():  # the totals in rising order
            key = dead or hp_state(hp - (amount if amount >= floor else 0), con)["id"]
            if hp_state_is_dead(key):
                dead = key
            state_counts[key] += count
            if amount < floor:
                minimum_count += count
            else:
                lethal_sum += amount * count
    chances = {key: exact.fraction(value) for key, value in state_counts.items()}
    p_minimum = exact.fraction(minimum_count)
    amount_text = (
        f"{number(lethal)} Schaden" if lethal else "1 Punkt nichttödlicher Schaden (Mindestschaden)"
    )
    display = Display(
        headline="Trefferpunkte – Pathfinder",
        outcome=f"{amount_text}: {number(hp)} → {number(new_hp)} TP – {state['text']}.",
    )
    display.roll("Schaden", rolled)
    dying = "–" if con == 1 else number(-1) if con == 2 else f"{number(-1)} bis {number(-con + 1)}"
    display.table(
        "Schwellen",
        ["Trefferpunkte", "Zustand"],
        [
            ["über 0", state_text("bei_kraeften")],
            ["0", state_text("kampfunfaehig")],
            [dying, state_text("sterbend")],
            [f"{number(-con)} oder weniger", state_text("tot")],
        ],
    )
    notes = []
    if nonlethal:
        DATA.assume("trefferpunkte.nichttoedlich")  # the hit points stay: an Annahme
        notes.append("Nichttödlicher Schaden senkt die Trefferpunkte hier nicht.")
    display.notes("Hinweise", notes)
    display.chances(
        "Zustand nach dem Schaden (vor dem Wurf)",
        [(state_text(k), p) for k, p in chances.items()]
        + [("nur Mindestschaden (1 nichttödlich)", p_minimum)],
        before=True,
    )
    if expression.has_dice:  # a fixed amount (an attack's follow-up) has nothing to draw
        show_distribution(
            display,
            "Schaden (vor dem Wurf; 0 = nur Mindestschaden, 1 nichttödlich)",
            "Schaden",
            lambda: lethal_distribution(exact, floor),
            size=len(exact.counts),
            bits=exact.outcomes.bit_length(),
            mean_label="Erwarteter Schaden",
        )
    return {
        "hp_before": hp,
        "roll": rolled.to_dict(),
        "raw_damage": raw,
        "lethal": lethal,
        "nonlethal": nonlethal,
        "hp_after": new_hp,
        "state": state["id"],
        "chances": {k: str(p) for k, p in chances.items()} | {"minimum": str(p_minimum)},
        "expected_lethal": str(exact.fraction(lethal_sum)),
        "target_update": {"hp": new_hp},
        "target_state": state,
        "display": display.to_dict(),
    }
