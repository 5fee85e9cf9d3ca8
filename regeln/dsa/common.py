"""DSA 4.1 Hausregeln: the pieces every action shares.

Owns the system object ``SYSTEM`` (source 001_240b8e52c108db7c.txt), the rule data ``DATA`` from
``regeln/dsa.yaml``, the section citations (``CITE_*``), the small data helpers several
actions use (``halve``, ``combination``, ``wound_penalty``, ``assumptions_for``) and the 1W20
probe with its confirmation roll (Abschnitt "Crits und Patzer"): the outcome keys,
``probe_outcome``, ``probe_chances`` and ``roll_probe``, shared by attack, defense and fumble.
``damage_points`` (TP → SP) is shared by attack and damage.

Assumptions (``annahme`` in the data) are read where they decide something, so a result names
only those its rolled outcome rests on (``engine.data_files``): ``halve`` reads its rounding
only for an odd value, the probe reads the confirmation rule only when it rolls a confirmation
and the „a 1 always hits“ rule only for a 1 against a value below 1, ``damage_points`` the RS
rule only when there is RS. The odds before the roll are computed under every assumption of
the helper (its „Annahmen“ box lists them); ``forecast`` (``engine.data_files``) keeps those
reads out of the result's list.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine import dice, fight_contract
from engine.data_files import DataError, forecast, load
from engine.display import Display
from engine.formatting import number
from engine.registry import new_system

SOURCE = "001_240b8e52c108db7c.txt"
SYSTEM = new_system("dsa", "DSA 4.1 Hausregeln", SOURCE)
DATA = load("dsa")
CONTRACT = fight_contract.declare("dsa", DATA)  # the fight: life values, states, conditions


def _cite(section: str, page: str) -> str:
    return f'{SOURCE}, Abschnitt "{section}" (docs/dsa/{page})'


CITE_ABLAUF = _cite("Ablauf einer Kampfrunde", "kampfrunde.md")
CITE_SONSTIGE = _cite("Mögliche Sonstige Aktionen", "aktionen.md")
CITE_FREIE = _cite("Mögliche Freie Aktionen...", "aktionen.md")
CITE_ABWEHR = _cite("Mögliche Abwehraktionen...", "aktionen.md")
CITE_AUSWAHL = _cite("Auswahl von durchzuführenden Aktionen", "kampfrunde.md")
CITE_CRITS = _cite("Crits und Patzer", "crits-und-wunden.md")
CITE_WUNDEN = (
    f'{SOURCE}, Abschnitt "Crits und Patzer", folgender Absatz „Ist ein Kämpfer stark '
    f"verwundet …“ (docs/dsa/crits-und-wunden.md#wunden)"
)
CITE_FERNKAMPF = _cite("Besonderheiten von Fernkampfwaffen", "waffen-und-fernkampf.md")
CITE_GETUEMMEL = _cite("Fernkampfattacken ins Kampfgetümmel", "waffen-und-fernkampf.md")
CITE_SF = _cite("Geläufigste aktive Kampfsonderfertigkeiten", "sonderfertigkeiten.md")

# ---------------------------------------------------------------------------------------------
# Rule data
# ---------------------------------------------------------------------------------------------

PROBE_DIE_SIDES = 20


def halve(value: int, key: str) -> int:
    """``value / 2`` rounded as ``halbieren.<key>`` in the data says (``auf`` or ``ab``); an even
    value needs no rounding (the assumption is not read)."""
    if value % 2 == 0:
        return value // 2
    mode = DATA.text(f"halbieren.{key}")
    if mode == "auf":
        return -((-value) // 2)
    if mode == "ab":
        return value // 2
    raise DataError(DATA.file, f"halbieren.{key}", f"muss „auf“ oder „ab“ sein, ist {mode!r}")


def combination_row(key: str) -> dict[str, Any]:
    """The row ``key`` of the table "Auswahl von … Aktionen" (its cells verbatim)."""
    rows = DATA.table(
        "tabellen.aktionskombinationen.zeilen",
        ("schluessel", "kombination", "einschraenkung", "ausnahme", "erschwernis"),
    )
    for row in rows:
        if row["schluessel"] == key:
            return row
    raise DataError(DATA.file, f"tabellen.aktionskombinationen.{key}", "fehlt")


def combination(key: str) -> int:
    """Erschwernis of the action combination ``key`` (table "Auswahl von … Aktionen")."""
    value = combination_row(key)["erschwernis"]
    if isinstance(value, bool) or not isinstance(value, int):
        raise DataError(DATA.file, "tabellen.aktionskombinationen", "erschwernis")
    return value


assumptions_for = DATA.assumptions_for


def probe_die() -> dice.Expression:
    return DATA.dice("probe.wurf", "Probenwurf")


def wound_penalty() -> int:
    return DATA.integer("probe.wunde_erschwernis", 0, 10)


# ---------------------------------------------------------------------------------------------
# The 1W20 probe with confirmation (Abschnitt "Crits und Patzer")
# ---------------------------------------------------------------------------------------------

# Outcome keys, shared by attack and defense.
KRITISCH = "kritisch"
GLUECKLICH = "gluecklich"
GELUNGEN = "gelungen"
ANDERE_PERSON = "andere_person"
MISSLUNGEN = "misslungen"
UNGLUECKLICH = "ungluecklich"
PATZER = "patzer"


def confirmation_succeeds(confirm: int, target: int) -> bool:
    """The confirmation W20 (Annahme): ≤ value succeeds; a 1 always succeeds, a 20 always fails."""
    if confirm == 1:
        return True
    if confirm == PROBE_DIE_SIDES:
        return False
    return confirm <= target


def probe_outcome(first: int, confirm: int | None, target: int, melee_free: int | None) -> str:
    """Outcome key of a W20 probe against ``target`` (the value after all Erschwernisse).

    ``melee_free`` is the value without the Kampfgetümmel surcharge (None: no Kampfgetümmel);
    a roll that fails only because of that surcharge hits another person (ANDERE_PERSON).
    ``confirm`` is the confirmation W20, needed exactly when ``first`` is 1 or 20.
    """
    if first == 1 and (target >= 1 or DATA.flag("probe.eins_gelingt")):
        if confirm is None:
            raise ValueError("a 1 needs a confirmation roll")
        return KRITISCH if confirmation_succeeds(confirm, target) else GLUECKLICH
    if first == PROBE_DIE_SIDES:
        if confirm is None:
            raise ValueError("a 20 needs a confirmation roll")
        return UNGLUECKLICH if confirmation_succeeds(confirm, target) else PATZER
    if first <= target:
        return GELUNGEN
    if melee_free is not None and first <= melee_free:
        return ANDERE_PERSON
    return MISSLUNGEN


def needs_confirmation(first: int, target: int) -> bool:
    if first == PROBE_DIE_SIDES:
        return True
    return first == 1 and (target >= 1 or DATA.flag("probe.eins_gelingt"))


def probe_chances(target: int, melee_free: int | None = None) -> dict[str, Fraction]:
    """Exact probability of every outcome key (first W20, then the confirmation W20)."""
    sides = PROBE_DIE_SIDES
    out = {
        k: Fraction(0)
        for k in (KRITISCH, GLUECKLICH, GELUNGEN, ANDERE_PERSON, MISSLUNGEN, UNGLUECKLICH, PATZER)
    }
    with forecast():
        for first in range(1, sides + 1):
            if needs_confirmation(first, target):
                for confirm in range(1, sides + 1):
                    key = probe_outcome(first, confirm, target, melee_free)
                    out[key] += Fraction(1, sides * sides)
            else:
                out[probe_outcome(first, None, target, melee_free)] += Fraction(1, sides)
    return out


@dataclass
class ProbeRoll:
    first: dice.RollResult
    confirm: dice.RollResult | None
    outcome: str


def roll_probe(rng: random.Random, target: int, melee_free: int | None = None) -> ProbeRoll:
    die = probe_die()
    first = dice.roll(die, rng)
    confirm = None
    if needs_confirmation(first.total, target):
        DATA.assume("probe.bestaetigung")  # the result rests on how a 1 or 20 is confirmed
        confirm = dice.roll(die, rng)
    outcome = probe_outcome(
        first.total, None if confirm is None else confirm.total, target, melee_free
    )
    return ProbeRoll(first, confirm, outcome)


def modifier_rows(modifiers: list[tuple[str, int]]) -> list[dict[str, Any]]:
    return [{"name": name, "value": value} for name, value in modifiers]


# What a confirmed or unconfirmed 1 or 20 is called (Abschnitt "Crits und Patzer": „Bei einem
# kritischen Angriff (bestätigte 1) …“, „Bei einer gepatzten Abwehr (bestätigte 20) …“).
CONFIRMED_NAMES = {
    "angriff": {
        KRITISCH: "kritischer Angriff",
        GLUECKLICH: "glücklicher Angriff",
        UNGLUECKLICH: "unglücklicher Angriff",
        PATZER: "gepatzter Angriff",
    },
    "abwehr": {
        KRITISCH: "kritische Abwehr",
        GLUECKLICH: "glückliche Abwehr",
        UNGLUECKLICH: "unglückliche Abwehr",
        PATZER: "gepatzte Abwehr",
    },
}


def confirmation_decision(first: int, confirm: int, target: int, kind: str) -> str:
    """What a Bestätigungswurf decided, in the text's words, naming what it confirms: „(gelungen):
    die 1 ist bestätigt – kritischer Angriff“, „(gelungen): die 20 ist nicht bestätigt –
    unglücklicher Angriff“ (a 1 is confirmed by a success, a 20 by a failure; Annahme) – the
    same words for the 1 and the 20, so a success that spares a 20 never reads „nicht
    bestätigt“ without saying of what."""
    succeeded = confirmation_succeeds(confirm, target)
    if first == 1:
        outcome = KRITISCH if succeeded else GLUECKLICH
    else:
        outcome = UNGLUECKLICH if succeeded else PATZER
    confirmed = outcome in (KRITISCH, PATZER)
    return (
        f"({'gelungen' if succeeded else 'misslungen'}): "
        f"die {first} ist {'bestätigt' if confirmed else 'nicht bestätigt'} – "
        f"{CONFIRMED_NAMES[kind][outcome]}"
    )


def probe_roll_display(
    display: Display, label: str, probe: ProbeRoll, target: int, kind: str
) -> None:
    """The W20 and, after a 1 or 20, the Bestätigungswurf with what it decided; ``kind`` is
    „angriff“ or „abwehr“ (the text's names differ)."""
    display.roll(f"{label} (W20 gegen {number(target)})", probe.first)
    if probe.confirm is not None:
        display.roll(
            f"Bestätigungswurf (W20 gegen {number(target)})",
            probe.confirm,
            decision=confirmation_decision(probe.first.total, probe.confirm.total, target, kind),
        )


# ---------------------------------------------------------------------------------------------
# Schadenspunkte (used by attack and damage)
# ---------------------------------------------------------------------------------------------


# One quantity, one word (the text's abbreviations: „SP -> Schadenspunkte“; its „Schaden“ is
# what the hit does, the SP): the attack and „Schaden und Wunden“ show the same line – the
# weapon's Trefferpunkte (TP), with bonus TP, crit and RS, giving the Schadenspunkte (SP).
DAMAGE_LINE = "Trefferpunkte (TP) → Schadenspunkte (SP)"


def critical_label(factor: int) -> str:
    """The crit's modifier on that line: the TP (with every bonus) are multiplied (Annahme)."""
    return f"kritisch: TP × {factor}"


def damage_points(tp: int, bonus: int, critical: bool, rs: int) -> int:
    """SP from rolled TP, bonus TP, crit (whole TP doubled) and RS (Annahme: SP = TP − RS ≥ 0)."""
    total = tp + bonus
    if critical:
        total *= DATA.integer("angriff.kritisch_faktor", 1, 10)
    if rs:
        DATA.assume("angriff.ruestungsschutz")  # without RS, SP = TP needs no assumption
    return max(0, total - rs)


# ---------------------------------------------------------------------------------------------
# Distributions before the roll (the page draws them as bar charts; engine/odds.py reads means)
# ---------------------------------------------------------------------------------------------
