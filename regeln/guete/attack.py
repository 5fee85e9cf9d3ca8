"""Güte-System: the ``attack`` action, a melee attack from the entered probes to the losses.

The text never says how a Fertigkeitsprobe (FP) is rolled or how its Güte follows, so the
probes rolled at the table are inputs (gelungen ja/nein, Güte). Owns who hits (the higher Güte
in a direct confrontation, L11–L17), the Parade (Güte + 5, L269–L279), the three defense
outcomes (failed → full damage to LE, Güte ≤ the attacker's → halbe Verteidigung to KE, higher →
vollständige Verteidigung, L19–L29), the damage roll and the display. The fields and their
checks are in ``attack_fields.py``, the modifiers in ``modifiers.py``, the damage and the option
effects in ``damage.py``. The target's LE, KE and AUS are fields of their own (blank when
unknown): a hit on the target gives its known values after it (``target_update``) and the state
the fight contract gives for them (``target_state``; Güte has no rule: null); ``loss_of`` says
whose values ``verlust`` is – the target's, or the attacker's when the counter-attack hits.
``effect_offers``: what the fight may put on a fighter – who falls (a Rundumschlag failing
critically, L289; Zu Fall bringen, L343) lies, for as long as his FP(Gaukeleien) says (L79–L83).
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from engine import dice
from engine.data_files import DataError
from engine.display import Display
from engine.formatting import decimal, number, signed
from regeln.guete.attack_fields import ATTACK_PARAMS, check_attack
from regeln.guete.common import (
    CONTRACT,
    DATA,
    LIFE_VALUES,
    RESOURCE_NAMES,
    RESOURCES,
    SOURCE,
    SYSTEM,
    assumptions_for,
    chances_dict,
    table_row,
    table_rows,
)
from regeln.guete.damage import (
    NO_DAMAGE_OPTIONS,
    TARGET_DAMAGE_CAPTION,
    damage_and_effects,
    expected_losses,
    target_damage,
    target_falls,
)
from regeln.guete.modifiers import (
    ATTACK,
    COUNTER,
    DEFENSE,
    OWN_DEFENSE,
    Modifier,
    attack_modifiers,
)

# options whose losses differ from the plain table (L19–L29): outcome names the losses instead
SPECIAL_ALLOCATION = NO_DAMAGE_OPTIONS | {"betaeuben", "feuerangriff", "gedaempft", "gezielt"}
SPECIAL_ALLOCATION |= {"sturzflug"}
DEFENSE_LABELS = {
    "misslungen": "Abwehr misslungen",
    "halb": "halbe Verteidigung",
    "vollstaendig": "vollständige Verteidigung, kein Schaden",
}


def _defense_outcome(p: dict[str, Any], effective: int, defenseless: bool) -> str:
    """L19–L29: misslungen → LE, Güte ≤ Angreifer → halb (KE), Güte > Angreifer → vollständig."""
    if defenseless:
        DATA.text("angriff.wehrlos_ohne_abwehr")
        return "misslungen"
    if not p["abwehr_gelungen"]:
        return "misslungen"
    return "vollstaendig" if p["abwehr_guete"] > effective else "halb"


@SYSTEM.action(
    "attack",
    title="Nahkampfangriff: Treffer, Abwehr und Schaden",
    summary=(
        "Ihr gebt die gewürfelten Proben ein (gelungen, Güte); der Helfer entscheidet, wer trifft, "
        "wertet die Abwehr aus (voller Schaden an LE, halbe oder vollständige Verteidigung), "
        "würfelt den Schaden und nennt alle Erschwernisse aus Situationen und Optionen."
    ),
    source=f"{SOURCE} L9–L29, L35–L113, L123–L367",
    params=ATTACK_PARAMS,
    result_formerly=(
        ("rolls", ("wuerfe",)),
        ("damage", ("schaden",)),
        ("expected", ("erwartung",)),
        ("modifiers", ("modifikatoren",)),
        ("value", ("wert",)),
        ("outcome", ("ergebnis",)),
        ("hitter", ("treffer",)),
        ("applies_to", ("probe",)),
    ),
    assumptions=assumptions_for("angriff", "sicht"),
    # the Güte of the target's Abwehr against the attacker's (L19–L29): halbe or vollständige
    what_if="abwehr_guete",
    compare=("option", "waffenart"),
)
def attack(p: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    check_attack(p)
    DATA.text("fp_wurf")  # the probes are entered as rolled at the table
    mods = attack_modifiers(p)
    option = p["option"] if p["option"] != "keine" else ""
    option_row = table_row("optionen", option) if option else None
    if option:
        DATA.flag("angriff.eine_option_je_angriff")
    notes: list[str] = []
    attacker, target = p["angreifer"], p["ziel"]

    # 1. Who hits (L11–L17), the Parade (L269–L279), the defense (L19–L29)
    hitter = _who_hits(p, notes)
    hit_guete = p["angriff_guete"] if hitter == "angreifer" else p["gegner_guete"]
    effective = hit_guete
    parade: dict[str, Any] = {}
    outcome = "kein_treffer"
    defense = ""
    if hitter == "angreifer" and p["parade"]:
        parade, effective, outcome = _parade(p, hit_guete, target, notes)
    if hitter and outcome != "pariert":
        defense = _defense_outcome(p, effective, hitter == "angreifer" and p["wehrlos"])
        outcome = "treffer"

    # 2. Damage and effects
    hit_name, hit_target = (attacker, target) if hitter != "gegner" else (target, attacker)
    active = option if hitter == "angreifer" else ""
    losses, effects, rolls_used = damage_and_effects(p, active, defense, hitter, notes)
    rolled = [(label, dice.roll(expression, rng)) for label, expression in rolls_used]
    totals = [result.total for _, result in rolled]
    loss = losses(tuple(totals))
    if active == "entwaffnen" and totals:  # L141
        effects.append(
            "Die Waffe landet direkt zu Füßen des Opfers."
            if totals[0] <= 0
            else f"Die Waffe fliegt {totals[0]} m weit."
        )
    expected = expected_losses(losses, rolls_used)
    main_dist = dice.distribution(rolls_used[0][1]) if rolls_used else {}
    per_attack = target_damage(losses, rolls_used, hitter == "angreifer")

    # 3. Display
    attack_total = sum(m.value for m in mods if m.applies_to == ATTACK)
    defense_total = sum(m.value for m in mods if m.applies_to == DEFENSE)
    headline, text = _outcome_text(p, outcome, defense, active, loss, effects, hit_name, hit_target)
    fall = bool(p["angriff_kritisch"])  # check_attack: only a failed Rundumschlag
    if fall:  # L289, with the Sturz of L79–L83
        headline = f"{headline} – {attacker} stürzt"
        text += (
            f" Kritischer Misserfolg beim Rundumschlag: {attacker} stürzt. Er darf eine "
            "FP(Gaukeleien) machen: gelungen – er kann in der nächsten Bewegungsphase wieder "
            "aufstehen; misslungen – er braucht die ganze nächste Runde und gilt bis dahin als "
            "liegende Figur."
        )
        notes.append(
            "Kritischer Misserfolg: weitere Folgen („zusätzlich zu eventuellen anderen "
            "Ereignissen“) stehen im fehlenden Kapitel „Besondere Würfelergebnisse im Kampf“."
        )
    display = Display(headline=headline, outcome=text)
    display.table(
        "Eingegebene Proben",
        ["Probe", "Ergebnis"],
        _probe_rows(p, parade, hitter, outcome, hit_target),
    )
    display.table(
        "Modifikationen („+“ erschwert, „−“ erleichtert)",
        ["Modifikation", "Probe", "Wert"],
        _modifier_rows(mods, attack_total, defense_total),
    )
    _show_damage(display, rolled, loss, expected, rolls_used, main_dist, per_attack)
    _closing_notes(p, mods, option_row, defense, bool(rolls_used) and active != "entwaffnen", notes)
    loss_of = {"angreifer": "target", "gegner": "actor"}.get(hitter, "")
    update = _target_update(p, loss, loss_of, notes)
    display.notes("Hinweise", notes)

    result: dict[str, Any] = {
        "hitter": hitter,
        "outcome": outcome,
        "abwehr": defense,
        "effektive_guete": effective if hitter else None,
        "parade": parade,
        "option": option,
        "modifiers": [m.to_dict() for m in mods],
        "erschwernis_angriff": attack_total,
        "erschwernis_abwehr": defense_total,
        "erschwernis_abwehr_angreifer": sum(m.value for m in mods if m.applies_to == OWN_DEFENSE),
        "rolls": [{"label": label, **r.to_dict()} for label, r in rolled],
        "verlust": {r: loss.get(r, 0) for r in RESOURCES},
        "wirkungen": effects,
        "chances": {
            "expected": {r: str(expected[r]) for r in RESOURCES},
            "damage": chances_dict(main_dist),
        },
        "display": display.to_dict(),
    }
    # what the fight may put on a fighter: the one who falls lies (L79–L83)
    offers = []
    if fall:
        offers.append(fall_offer("actor", attacker, "Sturz"))  # L289
    if target_falls(p, active, defense, hitter):
        offers.append(fall_offer("target", target, "Zu Fall gebracht"))  # L343
    result["effect_offers"] = offers
    result["loss_of"] = loss_of  # whose LE, KE and AUS ``verlust`` is: "target", "actor", ""
    if update:  # the target was hit and lost something: its known values after the hit
        result["target_update"] = update
        result["target_state"] = CONTRACT.state(update)
    if fall:
        # the consequence for the fight: who falls, and the rule's line
        result["sturz"] = {"wer": "angreifer", "name": attacker, "zeile": "L289"}
    return result


def _target_update(
    p: dict[str, Any], loss: dict[str, int], loss_of: str, notes: list[str]
) -> dict[str, int]:
    """The target's known life values after the hit (L21–L29) – only when the target was hit
    and lost something; an unknown value (blank) is never 0, so its loss is named, not written.
    When the counter-attack hit the attacker (L11–L13), no target value changes: the result
    says so."""
    lost = {r: loss.get(r, 0) for r in RESOURCES if loss.get(r, 0)}
    if not lost:
        return {}
    if loss_of == "actor":
        notes.append(
            f"Getroffen ist {p['angreifer']}: seine LE, KE und AUS werden hier nicht eingetragen "
            "(der Helfer führt die Werte des Ziels) – im Überblick von Hand abziehen."
        )
        return {}
    update: dict[str, int] = {}
    shown: list[str] = []
    for resource, (name, title) in zip(RESOURCES, LIFE_VALUES, strict=True):
        before = p[name]
        if before is None:
            if resource in lost:
                notes.append(
                    f"{title} von {p['ziel']} unbekannt: {signed(-lost[resource])} nicht "
                    "eingetragen."
                )
            continue
        after = before - lost.get(resource, 0)
        update[name] = after
        changed = f" → {number(after)}" if resource in lost else ""
        shown.append(f"{title} {number(before)}{changed}")
    if shown:
        notes.append(f"{p['ziel']}: {', '.join(shown)}.")
    return update


def fall_offer(fighter: str, name: str, cause: str) -> dict[str, Any]:
    """A fall (L77–L83) as an offer to the fight: the effect (``sturz.wirkung``, a condition of
    the contract) for the fighter who falls, one choice per outcome of his FP(Gaukeleien) with
    its duration – ``runden``: with an acting order the effect ends when round (now + N)
    begins; ``zuege``: without one, after N turns of that fighter (``sturz.ausgaenge``).
    ``cause`` names why he lies, in the players' words (the effect's note: „Sturz“)."""
    effect = DATA.text("sturz.wirkung")
    if effect not in CONTRACT.condition_names():
        raise DataError(DATA.file, "sturz.wirkung", "ist keine Bedingung unter kampf.bedingungen")
    choices = []
    for index in range(len(DATA.table("sturz.ausgaenge", ("label", "bedeutung")))):
        key = f"sturz.ausgaenge.{index}"
        choices.append(
            {
                "label": DATA.text(f"{key}.label"),
                "meaning": DATA.text(f"{key}.bedeutung"),
                "duration": {
                    "runden": DATA.integer(f"{key}.runden", 1, 100),
                    "zuege": DATA.integer(f"{key}.zuege", 1, 100),
                },
            }
        )
    return {
        "fighter": fighter,
        "effect": effect,
        "ref": cause,
        "question": f"{name} stürzt – seine {DATA.text('sturz.probe')}:",
        "choices": choices,
    }


def _who_hits(p: dict[str, Any], notes: list[str]) -> str:
    """L11–L17: "angreifer", "gegner" (the target's counter-attack hits) or "" (nobody)."""
    hitter = ""
    if p["konfrontation"]:
        a_ok, g_ok = p["angriff_gelungen"], p["gegner_gelungen"]
        a_g, g_g = p["angriff_guete"], p["gegner_guete"]
        if a_ok and g_ok:
            if a_g > g_g:
                hitter = "angreifer"
            elif g_g > a_g:
                hitter = "gegner"
            else:
                notes.append("Gleiche Güten: die Waffen prallen wirkungslos aneinander ab.")
        else:  # one or both failed: Annahme angriff.konfrontation_fehlschlag
            DATA.text("angriff.konfrontation_fehlschlag")
            hitter = "angreifer" if a_ok else "gegner" if g_ok else ""
    elif p["angriff_gelungen"]:
        hitter = "angreifer"
    return hitter


def _parade(
    p: dict[str, Any], hit_guete: int, target: str, notes: list[str]
) -> tuple[dict[str, Any], int, str]:
    """L269–L279: the target's Parade (Güte + 5) against the attacker's hit; returns the
    parade's answer, the Güte left to defend against and the outcome so far."""
    effective = hit_guete
    outcome = "kein_treffer"
    bonus = DATA.integer("parade.bonus", 0, 100)
    value = p["parade_guete"] + bonus
    usable = value >= DATA.integer("parade.mindestens", -100, 100)
    parade: dict[str, Any] = {"guete": value, "nutzbar": usable, "abgefangen": False}
    if not usable:
        notes.append(f"Parade misslungen: Güte {number(value)} ist negativ.")
    elif p["gesichtsfeld"]:
        parade["nutzbar"] = False
        notes.append("Eine Parade wirkt nicht gegen Angriffe aus dem Gesichtsfeld.")
    elif hit_guete <= value:
        parade["abgefangen"] = True
        outcome = "pariert"
        aus = DATA.integer("parade.ausdauer", 0, 100)
        notes.append(
            f"Die Parade (Güte {number(value)}) fängt den Angriff ab; {target} zahlt nur {aus} AUS."
        )
    else:
        effective = hit_guete - value
        notes.append(
            f"Durch die Parade (Güte {number(value)}): {target} verteidigt sich gegen den "
            f"Restbetrag {number(effective)}."
        )
    return parade, effective, outcome


def _outcome_text(
    p: dict[str, Any],
    outcome: str,
    defense: str,
    active: str,
    loss: dict[str, int],
    effects: list[str],
    hit_name: str,
    hit_target: str,
) -> tuple[str, str]:
    """Headline and outcome text: who hits whom, the defense and the losses or effects."""
    attacker, target = p["angreifer"], p["ziel"]
    verteidigung = {r["schluessel"]: r for r in table_rows("verteidigung")}
    if outcome == "kein_treffer":
        headline = "Kein Treffer"
        text = "Niemand wird getroffen." if p["konfrontation"] else f"{attacker} verfehlt."
    elif outcome == "pariert":
        headline = "Von der Parade abgefangen"
        text = f"{target} fängt den Angriff mit der Parade ab."
    else:
        headline = f"{hit_name} trifft {hit_target}"
        if active in SPECIAL_ALLOCATION:
            lost = ", ".join(f"{number(loss[r])} {r}" for r in RESOURCES if loss.get(r))
            text = f"{hit_target}: {DEFENSE_LABELS[defense]}" + (
                f" – verliert {lost}." if lost else "."
            )
        else:
            text = f"{hit_target}: {verteidigung[defense]['folge']}."
        if effects:
            text += " " + " ".join(effects)
    return headline, text


def _probe_rows(
    p: dict[str, Any], parade: dict[str, Any], hitter: str, outcome: str, hit_target: str
) -> list[list[str]]:
    """The entered probes: attack, counter-attack, Parade and the defense of the one hit."""
    attacker, target = p["angreifer"], p["ziel"]
    probe_rows = [[f"Angriff {attacker}", _probe_text(p["angriff_gelungen"], p["angriff_guete"])]]
    if p["konfrontation"]:
        probe_rows.append(
            [f"Gegenangriff {target}", _probe_text(p["gegner_gelungen"], p["gegner_guete"])]
        )
    if parade:
        probe_rows.append([f"Parade {target} (Güte + 5)", number(parade["guete"])])
    if hitter and outcome != "pariert":
        who = hit_target
        probe_rows.append(
            [
                f"Abwehr {who}",
                "keine (wehrlos)"
                if p["wehrlos"] and hitter == "angreifer"
                else _probe_text(p["abwehr_gelungen"], p["abwehr_guete"]),
            ]
        )
    return probe_rows


def _modifier_rows(mods: list[Modifier], attack_total: int, defense_total: int) -> list[list[str]]:
    """Every modifier by name, then the sums for attack and defense (and, where a modifier names
    them, the attacker's own Abwehr and the target's counter-attack)."""
    rows = [[m.name, m.applies_to, signed(m.value)] for m in mods] + [
        ["Summe Angriff", ATTACK, signed(attack_total)],
        ["Summe Abwehr", DEFENSE, signed(defense_total)],
    ]
    for probe in (OWN_DEFENSE, COUNTER):
        values = [m.value for m in mods if m.applies_to == probe]
        if values:
            rows.append([f"Summe {probe}", probe, signed(sum(values))])
    return rows


def _probe_text(ok: bool, guete: int) -> str:
    return f"gelungen, Güte {number(guete)}" if ok else "misslungen"


def _show_damage(
    display: Display,
    rolled: list[tuple[str, dice.RollResult]],
    loss: dict[str, int],
    expected: dict[str, Fraction],
    rolls_used: list[tuple[str, dice.Expression]],
    main_dist: dict[int, Fraction],
    per_attack: dict[int, Fraction] | None,
) -> None:
    """The rolls, the loss per resource with its expectation, the target's damage per attack
    (before the roll: what „Vergleichen“ and „Was wäre wenn“ read) and the roll's own
    distribution where it differs from that."""
    for label, result in rolled:
        display.roll(label, result)
    if rolled or any(loss.values()):
        display.table(
            "Verlust",
            ["Wert", "gewürfelt", "Erwartungswert"],
            [[RESOURCE_NAMES[r], number(loss.get(r, 0)), decimal(expected[r])] for r in RESOURCES],
        )
    if per_attack is not None:
        display.distribution(
            TARGET_DAMAGE_CAPTION,
            "Schaden",
            per_attack,
            before=True,
            mean_label="Erwarteter Schaden je Angriff",
        )
    if main_dist and main_dist != per_attack:
        display.distribution(
            f"{rolls_used[0][0]} {rolls_used[0][1].notation()}: Wahrscheinlichkeit jeder Summe",
            "Summe",
            main_dist,
        )


def _closing_notes(
    p: dict[str, Any],
    mods: list[Modifier],
    option_row: dict[str, Any] | None,
    defense: str,
    damage_rolled: bool,
    notes: list[str],
) -> None:
    """Notes on the Grundwert probes, the counter-attack, the option's Ausdauer, the costs of
    a full defense and the missing armour rules (Annahme angriff.ruestung, when damage was
    rolled)."""
    attacker, target = p["angreifer"], p["ziel"]
    grundwert = [
        r["situation"]
        for r in table_rows("situationen")
        if r.get("grundwert") and (p.get(r["schluessel"]) or p["sicht"] == r["schluessel"])
    ]
    if option_row is not None and option_row.get("grundwert"):
        grundwert.append(str(option_row["option"]))
    if grundwert:
        notes.append("Probe gegen den Grundwert der Waffenkategorie: " + ", ".join(grundwert) + ".")
    if p["konfrontation"] and any(m.applies_to == COUNTER for m in mods):
        notes.append(
            "Die Modifikationen gelten für den Angriff von "
            f"{attacker} und die Abwehr von {target}, die mit „{COUNTER}“ für den Gegenangriff "
            f"von {target}; dessen übrige Modifikationen rechnet sie gesondert."
        )
    elif p["konfrontation"] and mods:
        notes.append(
            "Die Modifikationen gelten für den Angriff von "
            f"{attacker} und die Abwehr von {target}; für den Gegenangriff rechnet sie gesondert."
        )
    for key, biss, who in (
        ("angreifer", "angriff_biss", attacker),
        ("ziel", "gegner_biss", target),
    ):
        held = [
            str(r["situation"])
            for r in table_rows("zustaende")
            if r.get("nur_biss") and r["wer"] == key and p[str(r["schluessel"])]
        ]
        if held and p[biss] and (key == "angreifer" or p["konfrontation"]):
            notes.append(f"{', '.join(held)}: {who} greift nur mit Natürliche Waffen - Biss an.")
    if option_row is not None:
        notes.append(f"Ausdauer für {option_row['option']}: {option_row['ausdauer']}.")
    if defense == "vollstaendig":
        notes.append(
            "Vollständige Verteidigung: Ausdauer für die Ausweich- oder Paradebewegung zahlen; "
            "die Kostentabelle fehlt im Text."
        )
    if damage_rolled:
        DATA.text("angriff.ruestung")
        notes.append("Schaden vor Abzug der Rüstung (die Rüstungsregeln fehlen im Text).")
