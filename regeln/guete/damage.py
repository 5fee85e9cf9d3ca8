"""Güte-System: the damage of a hit and what it costs the one who is hit.

Owns the dice rolled for a hit (the weapon, a Sturzflug or zweihändige Hiebe instead, the extra
fire or fall roll), the loss per resource for each defense outcome (failed defense → LE, halbe
Verteidigung → KE, L19–L29) and each Nahkampfoption (L123–L367), the effects an option names
instead of or beside the damage (``damage_and_effects``), and the exact expected loss per
resource (``expected_losses``) and the distribution of the target's loss of LE and KE per attack
(``target_damage``).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from engine import dice
from engine.display import bars_fit
from regeln.guete.common import (
    DATA,
    DICE,
    RESOURCES,
    SUITED_FOR_STUN,
    plus_constant,
    sturzflug_bonus,
    table_row,
)

NO_DAMAGE_OPTIONS = {"entwaffnen", "festhalten", "zu_fall", "zurueckdraengen"}


def expected_losses(
    losses: Callable[[tuple[int, ...]], dict[str, int]],
    rolls: list[tuple[str, dice.Expression]],
) -> dict[str, Fraction]:
    """Exact expected loss per resource. The losses add up roll by roll (the weapon roll, then
    at most one extra roll whose total is simply added), so by linearity the weapon roll is
    summed over its distribution and the extra roll contributes its own expectation."""
    out = dict.fromkeys(RESOURCES, Fraction(0))
    if not rolls:
        return out
    label, expression = rolls[0]
    base = dice.distribution(expression, label=label)
    extra = Fraction(0)
    if len(rolls) > 1:
        extra_label, extra_expr = rolls[1]
        extra_dist = dice.distribution(extra_expr, label=extra_label)
        extra = sum((q * max(0, v) for v, q in extra_dist.items()), Fraction(0))
        floor = min(extra_dist)
    for total, weight in base.items():
        # the extra roll with its minimum gives the share of the extra resource beyond
        # that minimum linearly, so evaluate with the minimum and add the rest once
        lost = losses((total, floor) if len(rolls) > 1 else (total,))
        for r in RESOURCES:
            out[r] += weight * lost.get(r, 0)
    if len(rolls) > 1:
        probe = losses((min(base), floor + 1))
        low = losses((min(base), floor))
        for r in RESOURCES:
            if probe.get(r, 0) != low.get(r, 0):
                out[r] += extra - max(0, floor)
    return out


PAIR_WORK = 3_000
"""Work units of :func:`target_damage` per pair of totals (weapon roll, extra roll): the loss
function and the sum of its LE and KE."""
TARGET_DAMAGE_CAPTION = "Schaden am Ziel je Angriff (Verlust an LE und KE, vor der Rüstung)"


def target_damage(
    losses: Callable[[tuple[int, ...]], dict[str, int]],
    rolls: list[tuple[str, dice.Expression]],
    hits_target: bool,
) -> dict[int, Fraction] | None:
    """The target's loss of LE and KE from this attack, value → exact chance, over every total
    of the damage roll and of the extra fire or fall roll (L19–L29 and each option); 0 for
    certain when the target is not hit (nobody hits, the counter-attack hits, a full defense or
    an option without damage). None when the bars do not fit the request's work budget."""
    if not hits_target or not rolls:
        return {0: Fraction(1)}
    label, expression = rolls[0]
    extra: dice.Counts | None = None
    if len(rolls) > 1:
        extra = dice.counts(rolls[1][1], label=rolls[1][0])
    extra_items = list(extra.items()) if extra is not None else [(0, 1)]
    use = dice.Use(per_total=PAIR_WORK * len(extra_items), big_ops=2 * len(extra_items))
    main = dice.counts(expression, field="damage", label=label, use=use)
    counts: dict[int, int] = {}
    for total, ways in main.items():
        for extra_total, extra_ways in extra_items:
            lost = losses((total, extra_total) if extra is not None else (total,))
            value = lost.get("LE", 0) + lost.get("KE", 0)
            counts[value] = counts.get(value, 0) + ways * extra_ways
    outcomes = main.outcomes * (extra.outcomes if extra is not None else 1)
    if not bars_fit(len(counts), outcomes.bit_length()):
        return None
    return {value: Fraction(count, outcomes) for value, count in sorted(counts.items())}


def damage_and_effects(
    p: dict[str, Any], option: str, defense: str, hitter: str, notes: list[str]
) -> tuple[
    Callable[[tuple[int, ...]], dict[str, int]], list[str], list[tuple[str, dice.Expression]]
]:
    """Damage rolls and the loss per resource for the outcome (L19–L29 and each option)."""
    effects: list[str] = []
    rolls: list[tuple[str, dice.Expression]] = []
    if not hitter or defense in ("", "vollstaendig") or option in NO_DAMAGE_OPTIONS:
        _no_damage_effects(p, option, defense, hitter, effects, rolls)
        return (lambda t: {}), effects, rolls
    extra = _damage_rolls(p, option, hitter, rolls)
    losses = _loss_function(p, option, defense, extra)
    _option_effects(p, option, defense, effects, notes)
    return losses, effects, rolls


def _damage_rolls(
    p: dict[str, Any], option: str, hitter: str, rolls: list[tuple[str, dice.Expression]]
) -> str:
    """Append the damage roll (and an extra fire or fall roll) to ``rolls``; the resource the
    extra roll's total is lost from, or ""."""
    weapon = dice.parse(p["damage"] if hitter == "angreifer" else p["gegner_schaden"])
    if option == "sturzflug":
        weapon = plus_constant(
            DATA.dice(DICE["sturzflug"], "Sturzflug"),
            sturzflug_bonus(p["sturzflug_hoehe"]),
        )
        label = "Sturzflug-Schaden"
    elif option == "zweihaendige_hiebe":
        row = table_row("optionen", option)
        weapon = plus_constant(weapon, int(row["schaden_je_stufe"]) * p["hiebe_stufen"])
        label = "Schaden (zweihändige Hiebe)"
    else:
        label = "Schaden"
    rolls.append((label, weapon))
    extra = ""
    if option == "feuerangriff":
        rolls.append(("Feuerschaden", DATA.dice(DICE["feuer"], "Feuerschaden")))
        extra = "LE" if p["feuerempfindlich"] else "KE"
    elif option == "sturzflug" and p["sturzflug_greifen"]:
        rolls.append(("Sturz der Beute (KE)", DATA.dice(DICE["beute"], "Sturz")))
        extra = "KE"
    return extra


def _loss_function(
    p: dict[str, Any], option: str, defense: str, extra: str
) -> Callable[[tuple[int, ...]], dict[str, int]]:
    """The loss per resource as a function of the rolled totals (L19–L29 and each option)."""
    main = "LE" if defense == "misslungen" else "KE"

    def losses(totals: tuple[int, ...]) -> dict[str, int]:
        damage = max(0, totals[0]) if totals else 0
        out = {"LE": 0, "KE": 0, "AUS": 0}
        if option == "gedaempft":  # L203–L205
            if defense == "misslungen":
                out["KE"] += damage // 2
            else:
                out["AUS"] += damage
        elif option in ("betaeuben", "feuerangriff"):  # L127, L189
            out["KE"] += damage
        else:
            out[main] += damage
        if option == "gezielt" and p["gezielt_zweiter_wurf"]:  # L231
            out["KE"] += 2 * damage
        if extra and len(totals) > 1:
            out[extra] += max(0, totals[1])
        return out

    return losses


def _option_effects(
    p: dict[str, Any], option: str, defense: str, effects: list[str], notes: list[str]
) -> None:
    """What Betäuben, gezielte Hiebe, gedämpfte Schläge, Feuerangriff and Stachelwirbel do
    beside the damage."""
    if option == "betaeuben":
        row = table_row("optionen", option)
        rounds = int(row["runden_zweihaendig" if p["waffe_zweihaendig"] else "runden_einhaendig"])
        if p["waffenart"] in SUITED_FOR_STUN:
            rounds += int(row["runden_geeignet_zusaetzlich"])
        if defense == "misslungen":
            effects.append(
                f"Das Opfer muss eine FP(Widerstand) ablegen; misslingt sie, ist es {rounds} "
                f"Runde{'n' if rounds != 1 else ''} benommen."
            )
        notes.append(
            "Betäubt: Angriff +2, Abwehr +1, kein Angriffsbereich – im Helfer als „Angreifer "
            "ist betäubt“ bzw. „Ziel ist betäubt“ wählbar."
        )
    if option == "gezielt":
        where = "Gliedmaße" if p["gezielt_ziel"] == "gliedmasse" else "Torso"
        if p["gezielt_zweiter_wurf"]:
            effects.append(
                f"Zweiter Angriffswurf gelungen: doppelter Schaden zusätzlich an KE ({where})."
            )
        else:
            effects.append("Zweiter Angriffswurf misslungen: kein Zusatzschaden.")
        notes.append(
            "Gezielter Hieb: Gliedmaße unbrauchbar ab einem Viertel des KE-Maximums in einer "
            "Runde; Torso: innere Verletzungen, wenn der zusätzliche KE-Schaden die "
            "Hälfte des KE-Maximums erreicht."
        )
    if option == "gedaempft" and defense == "misslungen":
        effects.append("Gedämpfte Schläge: halber Schaden (abgerundet) an KE.")
    if option == "gedaempft" and defense == "halb":
        effects.append("Gedämpfte Schläge: die Ausdauer sinkt um den Schaden, keine KE.")
    if option == "feuerangriff":
        effects.append(
            "Fackel: immer Schaden an KE; Feuerschaden "
            + ("als LE (feuerempfindlich)." if p["feuerempfindlich"] else "an KE.")
        )
    if option == "stachelwirbel":
        notes.append("Stachelwirbel: Schaden aller drei natürlichen Waffen als Summe.")


def target_falls(p: dict[str, Any], option: str, defense: str, hitter: str) -> bool:
    """L335–L343, Zu Fall bringen: the target falls when its Abwehr fails completely – with a
    two-handed weapon also after a halbe Abwehr; then „gilt er als gestürzt (s. Sturz)“."""
    if option != "zu_fall" or hitter != "angreifer":
        return False
    return defense == "misslungen" or (defense == "halb" and p["waffe_zweihaendig"])


def _no_damage_effects(
    p: dict[str, Any],
    option: str,
    defense: str,
    hitter: str,
    effects: list[str],
    rolls: list[tuple[str, dice.Expression]],
) -> None:
    if hitter != "angreifer" or not defense:
        return
    if option == "entwaffnen":  # L137–L143
        if defense == "vollstaendig":
            effects.append("Das Ziel entzieht sich und behält seine Waffe.")
        else:
            rolls.append(("Weite (Meter)", DATA.dice(DICE["entwaffnen"], "Entwaffnen")))
            effects.append("Entwaffnet, kein Schaden.")
            DATA.text("angriff.entwaffnen_guete_ziel")  # which Güte of the target (L143)
            target_guete = p["abwehr_guete"] if defense == "halb" else None
            if target_guete is None or p["angriff_guete"] >= 2 * target_guete:
                effects.append("Der Angreifer bestimmt die Richtung.")
            else:
                effects.append("Die Richtung bestimmt der Spielleiter zufällig.")
    elif option == "festhalten":  # L171–L173
        if defense == "misslungen":
            effects.append(
                "Gegriffen: Abwehr nur mit +2, nur Befreien oder Biss möglich – im Helfer als "
                "„Ziel ist festgehalten“ wählbar."
            )
        else:
            effects.append("Nicht festgehalten; kein Schaden.")
    elif option == "zu_fall":  # L335–L341
        falls = target_falls(p, option, defense, hitter)
        effects.append(
            "Das Ziel stürzt (s. Sturz), kein Schaden."
            if falls
            else "Das Ziel bleibt auf den Beinen, kein Schaden."
        )
    elif option == "zurueckdraengen":  # L355
        effects.append(
            "Das Ziel weicht einen Schritt zurück, kein Schaden."
            if defense == "misslungen"
            else "Das Ziel hält stand, kein Schaden."
        )
