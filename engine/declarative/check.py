"""Declared check against a target (``art: probe``): dice + value + modifiers ≥ (or >) a target.

```yaml
angriff:
  art: probe
  titel: Angriff
  zusammenfassung: 2W6 + Angriffswert gegen die Verteidigung des Ziels.
  quelle: L12–L20
  wurf: 2W6
  wert: {name: angriff, label: Angriffswert, wer: handelnder, pflicht: true, vorgabe: 4}
  modifikatoren:                     # optional, each added
    - {name: modifier, label: Modifikator, min: -10, max: 10}
  ziel: {name: verteidigung, label: Verteidigung, wer: ziel, vorgabe: 10}
  # … or a fixed threshold instead of the field:  zielwert: 12
  gelingt: ab                         # ab: total ≥ target (default); ueber: total > target
  kritisch: {pasch: true, bestaetigen: false}   # augen: [12] | pasch: true | marge: 5
  patzer: {augen: [2], immer: true}             # immer: the faces decide alone
  worte: {erfolg: Treffer, misserfolg: Verfehlt, kritisch: Kritischer Treffer, patzer: Patzer}
  folgen: {erfolg: schaden, patzer: patzertabelle}   # the next helpers of this system
```

Critical and fumble: ``augen`` are totals of ``wurf`` alone, ``pasch`` means every die shows
the same face (one kind of die, no keep), ``marge`` counts from the target (a critical at
total − target ≥ marge, a fumble at target − total ≥ marge). Without ``immer`` a critical needs
a success and a fumble a failure; with it the faces decide (a critical succeeds, a fumble
fails). ``bestaetigen: true``: the same roll again confirms – a critical if it succeeds, a
fumble if it fails; unconfirmed, the roll stays an ordinary success or failure.

Exact odds: over the faces of ``wurf`` (with the share of doubles per total), the confirmation
independent of the first roll. Follow-ups: a success offers ``folgen.erfolg`` (with this hit's
``kritisch``, true or false, when that helper has the field), a fumble ``folgen.patzer``.

Annahmen: ``wurf``, ``wert`` and ``ziel`` or ``zielwert`` decide every result, a modifier one in
which it is not 0, ``gelingt`` one whose total equals the target (only there ≥ and > differ),
``kritisch`` / ``patzer`` one that is critical / a fumble.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine import dice
from engine.data_files import forecast
from engine.declarative.spec import COMMON_KEYS, Spec
from engine.display import Display
from engine.formatting import number
from engine.params import Param
from engine.registry import ActionFunc

ALLOWED = COMMON_KEYS | {
    "wert",
    "modifikatoren",
    "ziel",
    "zielwert",
    "gelingt",
    "kritisch",
    "patzer",
    "worte",
    "folgen",
}
SPECIAL_KEYS = {"augen", "pasch", "marge", "immer", "bestaetigen"}
WORDS = {
    "erfolg": "Erfolg",
    "misserfolg": "Misserfolg",
    "kritisch": "Kritischer Erfolg",
    "patzer": "Patzer",
}


@dataclass(frozen=True)
class Special:
    """A critical or a fumble as declared: when it happens and whether it is confirmed."""

    faces: frozenset[int] = frozenset()
    doubles: bool = False
    margin: int | None = None
    always: bool = False
    confirm: bool = False

    @property
    def declared(self) -> bool:
        return bool(self.faces) or self.doubles or self.margin is not None


def _special(spec: Spec, key: str, expression: dice.Expression) -> Special:
    if not spec.has(key):
        return Special()
    entry = spec.mapping(key, SPECIAL_KEYS)
    faces = entry.get("augen", [])
    if not isinstance(faces, list) or not all(
        isinstance(f, int) and not isinstance(f, bool) for f in faces
    ):
        raise spec.error(f"{key}.augen", "muss eine Liste ganzer Zahlen sein")
    doubles = bool(entry.get("pasch", False))
    if doubles:
        terms = expression.terms
        if len(terms) != 1 or terms[0].count < 2 or terms[0].drops or terms[0].sign < 0:
            raise spec.error(
                f"{key}.pasch", "gilt nur für einen Wurf mit mehreren gleichen Würfeln (z. B. 2W6)"
            )
    margin = entry.get("marge")
    if margin is not None and (
        isinstance(margin, bool) or not isinstance(margin, int) or margin < 0
    ):
        raise spec.error(f"{key}.marge", "muss eine ganze Zahl ab 0 sein")
    special = Special(
        frozenset(faces),
        doubles,
        margin,
        bool(entry.get("immer", False)),
        bool(entry.get("bestaetigen", False)),
    )
    if not special.declared:
        raise spec.error(key, "braucht augen, pasch oder marge")
    if special.always and not special.faces:
        raise spec.error(f"{key}.immer", "gilt nur mit augen")
    return special


def _doubles(expression: dice.Expression) -> dict[int, int]:
    """Ways per total of ``expression`` in which every die shows the same face."""
    term = expression.terms[0]
    return {term.count * face + expression.constant: 1 for face in range(1, term.sides + 1)}


def build(spec: Spec) -> tuple[tuple[Param, ...], ActionFunc]:
    expression = spec.dice("wurf", "Wurf")
    value = spec.field("wert")
    modifiers = spec.fields("modifikatoren")
    target: Param | None = None
    fixed_target = 0
    if spec.has("ziel") == spec.has("zielwert"):
        raise spec.error("ziel", "entweder ziel (ein Feld) oder zielwert (eine feste Zahl)")
    if spec.has("ziel"):
        target = spec.field("ziel")
    else:
        fixed_target = spec.integer("zielwert")
    over = spec.text("gelingt", "ab")
    if over not in ("ab", "ueber"):
        raise spec.error("gelingt", "muss ab (≥) oder ueber (>) sein")
    critical = _special(spec, "kritisch", expression)
    fumble = _special(spec, "patzer", expression)
    if critical.faces & fumble.faces:
        raise spec.error("patzer.augen", "dieselben Augen können nicht kritisch und Patzer sein")
    words = dict(WORDS)
    if spec.has("worte"):
        words.update({k: str(v) for k, v in spec.mapping("worte", set(WORDS)).items()})
    follow = spec.mapping("folgen", {"erfolg", "patzer"}) if spec.has("folgen") else {}
    title = spec.text("titel")
    doubles = _doubles(expression) if critical.doubles or fumble.doubles else {}
    params = (value, *modifiers, *((target,) if target else ()))

    def succeeds(total: int, goal: int) -> bool:
        if total != goal:
            return total > goal
        spec.use("gelingt")  # only an equal total depends on ab (≥) or ueber (>)
        return over != "ueber"

    def outcome(natural: int, double: bool, bonus: int, goal: int) -> tuple[bool, bool, bool]:
        """(success, critical chance, fumble chance) of one first roll."""
        total = natural + bonus
        if critical.always and natural in critical.faces:
            return True, True, False
        if fumble.always and natural in fumble.faces:
            return False, False, True
        hit = succeeds(total, goal)
        crit = hit and _meets(critical, natural, double, total - goal)
        fum = not hit and _meets(fumble, natural, double, goal - total)
        return hit, crit, fum

    def chances(bonus: int, goal: int) -> dict[str, Fraction]:
        counts = dice.counts(expression, use=dice.DISTRIBUTION_USE)
        scale = Fraction(1, counts.outcomes)
        hit = crit = fum = Fraction(0)
        for natural, ways in counts.items():
            for double, n in (
                (True, doubles.get(natural, 0)),
                (False, ways - doubles.get(natural, 0)),
            ):
                if not n:
                    continue
                h, c, f = outcome(natural, double, bonus, goal)
                hit += n * scale if h else 0
                crit += n * scale if c else 0
                fum += n * scale if f else 0
        confirm_hit = hit  # a confirmation is the same roll again, independent of the first
        out = {"hit": hit, "critical_chance": crit, "fumble_chance": fum}
        out["critical"] = crit * confirm_hit if critical.confirm else crit
        out["fumble"] = fum * (1 - confirm_hit) if fumble.confirm else fum
        return out

    def margin_distribution(bonus: int, goal: int) -> dict[int, Fraction]:
        """Total − target of the first roll: its exact chance per value (from 0 on it succeeds
        with ``ab``, from 1 on with ``ueber``; a ``marge`` counts from here)."""
        counts = dice.counts(expression, use=dice.DISTRIBUTION_USE)
        return {
            natural + bonus - goal: Fraction(ways, counts.outcomes)
            for natural, ways in counts.items()
        }

    def run(params_in: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        parts = [(value.label, params_in[value.name])] + [
            (m.label, params_in[m.name]) for m in modifiers if params_in[m.name]
        ]
        bonus = sum(v for _, v in parts)
        goal = params_in[target.name] if target else fixed_target
        goal_label = target.label if target else "Zielwert"
        with forecast():
            odds = chances(bonus, goal)
        spec.use("wurf")
        spec.use("wert")
        spec.use("ziel" if target else "zielwert")
        for index, modifier in enumerate(modifiers):
            if params_in[modifier.name]:
                spec.use(f"modifikatoren.{index}")
        rolled = dice.roll(expression, rng)
        double = len({d.value for d in rolled.dice}) == 1 and len(rolled.dice) > 1
        hit, crit, fum = outcome(rolled.total, double, bonus, goal)
        total = rolled.total + bonus
        sign = ">" if over == "ueber" else "≥"
        display = Display(headline=title)
        display.roll(title, rolled, parts, total=total)
        confirmation = None
        if crit or fum:
            spec.use("kritisch" if crit else "patzer")
        if (crit and critical.confirm) or (fum and fumble.confirm):
            again = dice.roll(expression, rng)
            again_double = len({d.value for d in again.dice}) == 1 and len(again.dice) > 1
            again_hit = outcome(again.total, again_double, bonus, goal)[0]
            word = words["kritisch"] if crit else words["patzer"]
            confirmed = again_hit if crit else not again_hit
            decision = (
                f"gegen {goal_label} {number(goal)}: "
                + ("bestätigt – " if confirmed else "nicht bestätigt – ")
                + (word if confirmed else words["erfolg" if crit else "misserfolg"])
            )
            display.roll(
                "Bestätigungswurf", again, parts, total=again.total + bonus, decision=decision
            )
            confirmation = {
                "roll": again.to_dict(),
                "total": again.total + bonus,
                "confirmed": confirmed,
            }
            crit, fum = crit and confirmed, fum and confirmed
        key = "kritisch" if crit else "patzer" if fum else "erfolg" if hit else "misserfolg"
        display.outcome = (
            f"{words[key]}: {number(total)} gegen {goal_label} {number(goal)} "
            f"(gelingt bei {sign} {number(goal)})."
        )
        if (critical.always and rolled.total in critical.faces) or (
            fumble.always and rolled.total in fumble.faces
        ):
            display.outcome = (
                f"{words[key]}: {number(rolled.total)} gewürfelt – das entscheidet allein "
                f"({number(total)} gegen {goal_label} {number(goal)})."
            )
        chance_items = [(words["erfolg"], odds["hit"])]
        if critical.declared:
            chance_items.append((words["kritisch"], odds["critical"]))
        if fumble.declared:
            chance_items.append((words["patzer"], odds["fumble"]))
        # the captions name no input value: „Was wäre wenn“ and „Vergleichen“ line the chances
        # of different values up by caption and label
        display.chances("Chancen vor dem Wurf", chance_items, before=True)
        display.distribution(
            f"Abstand zu {goal_label} (Ergebnis − {goal_label}, vor dem Wurf)",
            "Abstand",
            margin_distribution(bonus, goal),
            mean_label="Mittlerer Abstand",
            before=True,
        )
        follow_ups = []
        if hit and "erfolg" in follow:
            follow_ups.append(_follow_up(spec, str(follow["erfolg"]), words[key], crit))
        if fum and "patzer" in follow:
            follow_ups.append(_follow_up(spec, str(follow["patzer"]), words[key], False))
        return {
            "roll": rolled.to_dict(),
            "natural": rolled.total,
            "total": total,
            "target": goal,
            "outcome": {
                "kritisch": "critical",
                "patzer": "fumble",
                "erfolg": "hit",
                "misserfolg": "miss",
            }[key],
            "hit": hit,
            "critical": crit,
            "fumble": fum,
            "confirmation": confirmation,
            "chances": {k: str(v) for k, v in odds.items()},
            "follow_ups": follow_ups,
            "display": display.to_dict(),
        }

    return params, run


def _meets(special: Special, natural: int, double: bool, margin: int) -> bool:
    if natural in special.faces or (special.doubles and double):
        return True
    return special.margin is not None and margin >= special.margin


def _follow_up(spec: Spec, action: str, word: str, critical: bool) -> dict[str, Any]:
    """The next helper of the system; where it has the field ``kritisch`` (a value of this one
    roll), the follow-up sets it either way – this hit's, not one left in the form."""
    target = spec.system.actions[action]
    params: dict[str, Any] = {}
    if any(p.name == "kritisch" for p in target.params):
        params["kritisch"] = critical
    return {"action": action, "title": f"{word}: {target.title}", "params": params}
