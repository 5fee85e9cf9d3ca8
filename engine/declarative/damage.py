"""Declared damage (``art: schaden``): dice + bonus − armour, at least a minimum, off a resource.

```yaml
schaden:
  art: schaden
  titel: Schaden
  zusammenfassung: Waffenschaden + Stärkebonus − Rüstung, mindestens 0, von den LeP.
  quelle: L22–L28
  wurf: {name: waffe, label: Waffenschaden, art: wuerfel, vorgabe: 1W6, wer: handelnder}
  # … or fixed dice:  wurf: 1W6
  bonus: [{name: staerke, label: Stärkebonus, wer: handelnder}]   # optional, each added
  ruestung: {name: armor, label: Rüstung, wer: ziel}             # optional, subtracted
  minimum: 0
  kritisch: {verdoppeln: true}        # or {zusatzwurf: 1W6}: on a critical hit
  ressource: {name: lep, label: LeP vor dem Treffer, ressource: LeP, vorgabe: 20, min: -50}
  zustand:                            # optional: the target's state by its new value
    - {bis: -5, zustand: tot, text: tot}
    - {bis: 0, zustand: kampfunfähig, text: bewusstlos}
```

``verdoppeln: true`` (or ``vor_ruestung``) doubles dice and bonus before the armour,
``verdoppeln: nach_ruestung`` what is left after it (dice + bonus − armour, doubled); the
``minimum`` comes last either way. ``zusatzwurf`` adds its dice (before armour and minimum). A
critical is the per-roll field ``kritisch`` (a check's follow-up fills it); where the text
leaves open how a critical works, ``kritisch`` (or ``verdoppeln`` / ``zusatzwurf``) is an
Annahme, named in a result that applied it. The other Annahmen: ``wurf`` decides every result,
a bonus and ``ruestung`` one in which they are not 0, ``minimum`` one it raised, ``ressource``
and ``zustand`` every one that changes the resource. The resource is the
target's (``subject: target``, ``resource``): the result gives its new value
(``target_update``) and the ``target_state`` the system's fight contract gives for it
(:func:`engine.fight_contract.state_of`; ``zustand`` here is the contract's short form, the most
severe first, kampffähig otherwise – with ``kampf:`` in the file the rules stand there, the
resource is one of its ``werte``, and any Kennwert the rules read is taken from a field of the
same name). Exact odds: the damage distribution from the dice's, its mean and the chance of each
state rule with a numeric bound on the resource.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from engine import dice, fight_contract
from engine.declarative.spec import COMMON_KEYS, Spec
from engine.display import Display
from engine.errors import EngineError
from engine.formatting import decimal, number
from engine.params import BoolParam, Param
from engine.registry import ActionFunc

ALLOWED = COMMON_KEYS | {"bonus", "ruestung", "minimum", "kritisch", "ressource", "zustand"}
# ``kritisch.verdoppeln``: whether the doubling comes after the armour (True) or before it
DOUBLING: dict[bool | str, bool] = {True: False, "vor_ruestung": False, "nach_ruestung": True}


def build(spec: Spec) -> tuple[tuple[Param, ...], ActionFunc]:
    fixed_dice: dice.Expression | None = None
    dice_field: Param | None = None
    if isinstance(spec.raw("wurf"), str):
        fixed_dice = spec.dice("wurf", "Schadenswurf")
    else:
        dice_field = spec.field("wurf")
        if dice_field.kind != "dice":
            raise spec.error("wurf.art", "muss wuerfel sein")
    bonuses = spec.fields("bonus")
    armour = spec.field("ruestung") if spec.has("ruestung") else None
    minimum = spec.integer("minimum", 0)
    double = False
    after_armour = False
    extra = None
    if spec.has("kritisch"):
        crit = spec.mapping("kritisch", {"verdoppeln", "zusatzwurf"})
        if ("verdoppeln" in crit) == ("zusatzwurf" in crit) or (
            "verdoppeln" in crit and spec.raw("kritisch.verdoppeln") is False
        ):
            raise spec.error(
                "kritisch",
                "entweder verdoppeln: true (vor_ruestung, nach_ruestung) oder zusatzwurf: <Würfel>",
            )
        double = "verdoppeln" in crit
        if double:
            order = spec.raw("kritisch.verdoppeln")
            if not (order is True or (isinstance(order, str) and order in DOUBLING)):
                raise spec.error(
                    "kritisch.verdoppeln",
                    f"muss true, vor_ruestung oder nach_ruestung sein, ist {order!r}",
                )
            after_armour = DOUBLING[order]
        if "zusatzwurf" in crit:
            extra = spec.dice("kritisch.zusatzwurf", "Zusatzwurf")
    critical_key = "kritisch.verdoppeln" if double else "kritisch.zusatzwurf"
    resource = None
    if spec.has("ressource"):
        resource = spec.field("ressource", subject="target", resource=True)
        if not resource.resource_name:
            raise spec.error("ressource.ressource", "fehlt (der kurze Name, z. B. LeP)")
    # the system's fight: ``kampf:`` or the short form of its damage actions (checked here)
    contract = fight_contract.declare(spec.system.name, spec.data)
    params: list[Param] = [*((dice_field,) if dice_field else ()), *bonuses]
    if armour:
        params.append(armour)
    if spec.has("kritisch"):
        params.append(
            BoolParam(
                "kritisch",
                "Kritischer Treffer",
                help=(
                    (
                        "Verdoppelt den Schaden nach der Rüstung."
                        if after_armour
                        else "Verdoppelt den Schaden."
                    )
                    if double
                    else f"Dazu {_notation(extra)}."
                ),
                per_roll=True,
            )
        )
    if resource:
        params.append(resource)
    title = spec.text("titel")

    def unclamped(rolled: int, bonus: int, reduce: int, critical: bool) -> int:
        """The damage before the minimum: doubled before or after the armour."""
        if not (critical and double):
            return rolled + bonus - reduce
        if after_armour:
            return 2 * (rolled + bonus - reduce)
        return 2 * (rolled + bonus) - reduce

    def damage_of(rolled: int, bonus: int, reduce: int, critical: bool) -> int:
        return max(minimum, unclamped(rolled, bonus, reduce, critical))

    def run(values: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        expression = (
            fixed_dice
            if fixed_dice is not None
            else dice.parse(values[dice_field.name], dice_field.name, dice_field.label)  # type: ignore[union-attr]
        )
        critical = bool(values.get("kritisch", False))
        parts = [(b.label, values[b.name]) for b in bonuses if values[b.name]]
        bonus = sum(v for _, v in parts)
        reduce = values[armour.name] if armour else 0
        whole = expression
        if critical and extra is not None:
            try:
                whole = dice.Expression(
                    expression.terms + extra.terms, expression.constant + extra.constant
                )
            except EngineError as error:  # too many dice with the critical's own
                where = dice_field.name if dice_field else "kritisch"
                label = dice_field.label if dice_field else "Kritischer Treffer"
                problem = error.message.split(": ", 1)[-1]
                raise EngineError(f"{label}: mit {_notation(extra)} {problem}", where) from None
        counts = dice.counts(
            whole,
            field=dice_field.name if dice_field else "",
            label=dice_field.label if dice_field else "Schaden",
            use=dice.DISTRIBUTION_USE,
        )
        spread: dict[int, Fraction] = {}
        for total, ways in counts.items():
            hurt = damage_of(total, bonus, reduce, critical)
            spread[hurt] = spread.get(hurt, Fraction(0)) + Fraction(ways, counts.outcomes)
        mean = sum((d * p for d, p in spread.items()), Fraction(0))
        spec.use("wurf")
        if critical and (double or extra is not None):
            spec.use(critical_key)  # how a critical works: an Annahme where the text is silent
        for index, field in enumerate(bonuses):
            if values[field.name]:
                spec.use(f"bonus.{index}")
        if reduce:
            spec.use("ruestung")
        rolled = dice.roll(expression, rng)
        extra_roll = dice.roll(extra, rng) if critical and extra is not None else None
        rolled_total = rolled.total + (extra_roll.total if extra_roll else 0)
        hurt = damage_of(rolled_total, bonus, reduce, critical)
        if unclamped(rolled_total, bonus, reduce, critical) < minimum:
            spec.use("minimum")
        display = Display(headline=title)
        display.roll(title, rolled, parts, total=rolled.total + bonus)
        if extra_roll is not None:
            display.roll("Kritischer Treffer", extra_roll)
        # a damage without dice („6“) is a value: nothing rolled, nothing to draw, no minimum
        # that could be rolled (issue 47)
        fixed = not whole.has_dice
        steps = [f"{number(rolled_total)} {'fest' if fixed else 'gewürfelt'}"]
        if bonus:
            steps.append(f"{number(bonus)} Bonus")
        if critical and double and not after_armour:
            steps.append("verdoppelt")
        if armour and reduce:
            steps.append(f"− {number(reduce)} {armour.label}")
        if critical and double and after_armour:
            steps.append("nach der Rüstung verdoppelt")
        display.outcome = (
            f"{number(hurt)} Schaden ({', '.join(steps)}; mindestens {number(minimum)})."
        )
        out: dict[str, Any] = {
            "roll": rolled.to_dict(),
            "extra_roll": extra_roll.to_dict() if extra_roll else None,
            "damage": hurt,
            "critical": critical,
            "chances": {"expected_damage": str(mean)},
        }
        chance_items = (
            []
            if fixed
            else [(f"höchstens {number(minimum)} Schaden", spread.get(minimum, Fraction(0)))]
        )
        if resource:
            spec.use("ressource")
            before = values[resource.name]
            after = before - hurt
            out["target_update"] = {resource.name: after}
            fighter = {n: values[n] for n in contract.names() if n in values}
            state = contract.state({**fighter, resource.name: after})
            out["target_state"] = state
            if state is not None:
                spec.use("zustand")  # the short form's rules, where they are an Annahme
            for rule in contract.rules:
                if rule.value != resource.name or rule.read:
                    continue
                sign = "≤" if rule.at_most else "≥"
                p = sum(
                    (
                        q
                        for d, q in spread.items()
                        if (
                            before - d <= rule.number if rule.at_most else before - d >= rule.number
                        )
                    ),
                    Fraction(0),
                )
                chance_items.append(
                    (f"{rule.text} ({resource.resource_name} {sign} {number(rule.number)})", p)
                )
                out["chances"][f"state_{rule.text}"] = str(p)
            change = f" {resource.resource_name}: {number(before)} → {number(after)}"
            display.outcome += f"{change} – {state['text']}." if state else f"{change}."
        # the damage after bonus, armour, minimum and critical, before the roll
        if not fixed and not display.distribution(
            "Schaden (vor dem Wurf)",
            "Schaden",
            dict(sorted(spread.items())),
            mean_label="Erwarteter Schaden",
            before=True,
        ):
            display.table("Schaden im Mittel", ["Mittelwert"], [[decimal(mean)]])
        if chance_items:
            display.chances("Chancen (vor dem Wurf)", chance_items, before=True)
        out["display"] = display.to_dict()
        return out

    return tuple(params), run


def _notation(expression: dice.Expression | None) -> str:
    return expression.notation() if expression else ""
