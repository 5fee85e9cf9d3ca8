"""What the Pathfinder ``attack`` action shows and answers: texts, tables, rolls, notes, odds.

Owns the outcome sentence, the table of Angriffsbonus and Schadensmodifikator, the roll sections
(attack, confirmation, each weapon damage roll, extra dice), the notes (natural 1 and 20,
confirmation, Mindestschaden L76, grip on ranged weapons), the chances and expected damage, and
the JSON answer of the action. It only reads the records of ``attack_roll.py``; it rolls nothing.
A hit continues with „Trefferpunkte nach Schaden“ (``follow_ups``): the damage total as a
constant, so the target's hit points drop by what was rolled here (a total below 1 is again the
1 point of nonlethal damage there). The chances list the hit first, then the critical hit.
"""

from __future__ import annotations

from typing import Any

from engine.display import Display, show_distribution
from engine.formatting import decimal, number, signed
from regeln.pathfinder.attack_roll import AttackOdds, AttackRolls, AttackSetup
from regeln.pathfinder.common import auto_hit, auto_miss


def _parts_text(parts: list[tuple[str, int]]) -> str:
    return " ".join(
        f"{signed(v)} {name}" if i else f"{number(v)} {name}" for i, (name, v) in enumerate(parts)
    )


def _outcome_text(setup: AttackSetup, rolls: AttackRolls) -> str:
    damage = rolls.damage
    if damage is None:
        if rolls.outcome_key == "fehlschlag_natuerliche_1":
            return "Fehlschlag: natürliche 1 – verfehlt immer."
        return f"Verfehlt: {number(rolls.total)} gegen RK {number(setup.armor_class)}."
    amount = (
        f"{number(damage['lethal'])} Schaden"
        if damage["lethal"]
        else f"{number(damage['nonlethal'])} Punkt nichttödlicher Schaden (Mindestschaden)"
    )
    if rolls.critical:
        return f"Kritischer Treffer (×{setup.crit_times}): {amount}."
    if rolls.threat:
        return f"Treffer, Bedrohung nicht bestätigt: {amount}."
    how = " (natürliche 20)" if rolls.natural == auto_hit() else ""
    return f"Treffer{how}: {amount}."


def attack_display(
    params: dict[str, Any], setup: AttackSetup, odds: AttackOdds, rolls: AttackRolls
) -> Display:
    display = Display(headline="Angriffswurf – Pathfinder", outcome=_outcome_text(setup, rolls))
    _show_bonus_table(display, params, setup)
    _show_rolls(display, setup, rolls)
    display.notes("Hinweise", _attack_notes(params, setup, rolls))
    _show_odds(display, odds)
    return display


def _show_bonus_table(display: Display, params: dict[str, Any], setup: AttackSetup) -> None:
    weapon_expr, bonus, st_damage = setup.weapon, setup.bonus, setup.st_damage
    kind = "Fernkampf" if params["weapon"] != "nahkampf" else "Nahkampf"
    display.table(
        "Angriffsbonus und Schadensmodifikator",
        ["Wert", "Rechnung", "Ergebnis"],
        [
            [f"Angriffsbonus ({kind})", _parts_text(bonus.parts), signed(bonus.total)],
            ["Stärke auf den Schaden", setup.st_note, signed(st_damage)],
            [
                "Schaden je Wurf",
                f"{weapon_expr.notation()} {signed(st_damage)} Stärke "
                f"{signed(setup.damage_other)} andere",
                f"{number(weapon_expr.minimum() + setup.per_roll_bonus)} bis "
                f"{number(weapon_expr.maximum() + setup.per_roll_bonus)}",
            ],
            [
                "Multiplikator",
                "normal / kritisch",
                f"×{setup.normal_times} / ×{setup.crit_times}",
            ],
        ],
    )


def _show_rolls(display: Display, setup: AttackSetup, rolls: AttackRolls) -> None:
    bonus = setup.bonus
    mods = [(name, v) for name, v in bonus.parts if v or name == "GAB"]
    display.roll("Angriffswurf", rolls.roll, mods, total=rolls.total)
    if rolls.confirm_roll is not None:
        display.roll(
            "Bestätigungswurf",
            rolls.confirm_roll,
            mods,
            total=rolls.confirm_roll.total + bonus.total,
            decision=_confirmation_decision(setup, rolls),
        )
    for index, rolled in enumerate(rolls.damage_rolls, start=1):
        label = "Schaden" if len(rolls.damage_rolls) == 1 else f"Schaden, Wurf {index}"
        damage_mods = [
            (n, v) for n, v in (("Stärke", setup.st_damage), ("andere", setup.damage_other)) if v
        ]
        display.roll(label, rolled, damage_mods, total=rolled.total + setup.per_roll_bonus)
    if rolls.extra_roll is not None:
        display.roll("Zusätzliche Schadenswürfel (nie vervielfacht)", rolls.extra_roll)


def _confirmation_decision(setup: AttackSetup, rolls: AttackRolls) -> str:
    """What the Bestätigungswurf decided (L10: „eine Bedrohung …, der ein möglicher kritischer
    Treffer folgen kann“): „gegen RK 15: bestätigt – kritischer Treffer“; a natural 1 or 20
    that decides against the totals is named."""
    assert rolls.confirm_roll is not None
    natural = rolls.confirm_roll.total
    reaches = natural + setup.bonus.total >= setup.armor_class
    why = ""
    if natural == auto_hit() and not reaches:
        why = " (natürliche 20)"
    elif natural == auto_miss() and reaches:
        why = " (natürliche 1)"
    verdict = (
        f"bestätigt{why} – kritischer Treffer (×{setup.crit_times})"
        if rolls.critical
        else f"nicht bestätigt{why} – normaler Treffer"
    )
    return f"gegen RK {number(setup.armor_class)}: {verdict}"


def _attack_notes(params: dict[str, Any], setup: AttackSetup, rolls: AttackRolls) -> list[str]:
    natural, critical = rolls.natural, rolls.critical
    confirmation, damage = rolls.confirmation, rolls.damage
    notes = list(setup.bonus.notes)
    if natural == auto_hit():
        notes.append("Natürliche 20: immer ein Treffer und eine Bedrohung.")
    if natural == auto_miss():
        notes.append("Natürliche 1: immer ein Fehlschlag, gleich wie hoch der Angriffsbonus ist.")
        # L10 ends there: no fumble rule to follow up with (issue 26: none is invented)
        notes.append("Weitere Folgen nennt der Text nicht – es gibt keine Patzerregel.")
    if rolls.threat and confirmation is not None and confirmation["mode"] == "zweiter_angriffswurf":
        notes.append(
            "Bestätigung (Annahme): zweiter Angriffswurf mit demselben Bonus gegen dieselbe RK – "
            + ("getroffen, also kritisch." if critical else "verfehlt, also normaler Treffer.")
        )
    if damage is not None and damage["nonlethal"]:
        notes.append(
            f"Mindestschaden: Die Würfe ergaben {number(damage['raw_total'])}; der Treffer "
            "verursacht dennoch 1 Punkt nichttödlichen Schaden."
        )
    if (
        params["weapon"] in ("bogen", "kompositbogen", "fernkampf")
        and params["grip"] != "haupthand"
    ):
        notes.append("Die Führung (Zweithand/zweihändig) zählt nur bei Nahkampf- und Wurfwaffen.")
    return notes


def _show_odds(display: Display, odds: AttackOdds) -> None:
    chances, normal_odds, crit_odds = odds.chances, odds.normal_hit, odds.critical_hit
    display.chances(
        "Chancen dieses Angriffs (vor dem Wurf)",
        [
            ("Treffer", chances["hit"]),
            ("Kritischer Treffer (bestätigt)", odds.critical),
            ("Bedrohung", chances["threat"]),
            ("natürliche 1: verfehlt immer", chances["natural_1"]),
            ("Nur Mindestschaden (1 nichttödlich)", odds.expected_nonlethal),
        ],
        before=True,
    )
    size, bits = odds.per_attack_size()
    drawn = show_distribution(
        display,
        "Schaden je Angriff (vor dem Wurf; 0 = verfehlt oder nur Mindestschaden)",
        "Schaden",
        odds.per_attack,
        size=size,
        bits=bits,
        mean_label="Erwarteter Schaden je Angriff",
    )
    if not drawn:
        display.notes(
            "Schaden je Angriff",
            [
                "Die Verteilung hat zu viele Werte für ein Diagramm; die Erwartungswerte "
                "stehen unten."
            ],
        )
    display.table(
        "Erwarteter Schaden je Angriff (exakt)",
        ["Erwartungswert", "Schaden"],
        [
            ["tödlicher Schaden", decimal(odds.expected_lethal)],
            ["nichttödlicher Mindestschaden", decimal(odds.expected_nonlethal)],
            ["je Treffer (ohne kritisch)", decimal(normal_odds.lethal + normal_odds.minimum)],
            ["je kritischem Treffer", decimal(crit_odds.lethal + crit_odds.minimum)],
        ],
    )


def attack_answer(
    setup: AttackSetup, odds: AttackOdds, rolls: AttackRolls, display: Display
) -> dict[str, Any]:
    bonus, chances = setup.bonus, odds.chances
    follow_ups = []
    if rolls.damage is not None:
        follow_ups.append(
            {
                "action": "hit_points",
                "title": "Trefferpunkte des Ziels abziehen",
                "params": {"damage": str(rolls.damage["raw_total"])},
            }
        )
    return {
        "attack_bonus": bonus.total,
        "attack_bonus_parts": [{"label": n, "value": v} for n, v in bonus.parts],
        "roll": rolls.roll.to_dict(),
        "natural": rolls.natural,
        "total": rolls.total,
        "armor_class": setup.armor_class,
        "hit": rolls.hit,
        "threat": rolls.threat,
        "confirmation": rolls.confirmation,
        "critical": rolls.critical,
        "outcome": rolls.outcome_key,
        "multiplier": {"normal": setup.normal_times, "critical": setup.crit_times},
        "staerkebonus": setup.st_damage,
        "damage": rolls.damage,
        "chances": {
            "hit": str(chances["hit"]),
            "threat": str(chances["threat"]),
            "confirm": str(chances["confirm"]),
            "critical": str(odds.critical),
            "natural_1": str(chances["natural_1"]),
            "expected_damage": str(odds.expected_lethal),
            "expected_nonlethal": str(odds.expected_nonlethal),
            "expected_damage_normal_hit": str(odds.normal_hit.lethal),
            "expected_damage_critical_hit": str(odds.critical_hit.lethal),
        },
        "follow_ups": follow_ups,
        "display": display.to_dict(),
    }
