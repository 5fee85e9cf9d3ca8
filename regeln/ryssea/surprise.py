"""Ryssea Überraschung: the ``surprise`` action (Hinterhalt und Überraschung, L41–L45).

Each attacker rolls an Anführen- or Heimlichkeit-Probe (the attacker's choice), each defender a
Sinnenschärfe-Probe, one by one (L41); „Das niedrigste Ergebnis der Angreifer wird mit dem
höchsten Ergebnis der Verteidiger verglichen.“ If the attackers win, each of them gets a
Taktischer Vorteil for the coming action (L41, L360: +3 on every Kampftalent) and every
defender is surprised: 10 ticks off his initiative (L41, L43, L45; the same data value the
initiative uses). A tie and Kritischer Erfolg / Patzer are not settled by the text: Annahmen
``ueberraschung.gleichstand`` and ``ueberraschung.kritisch_patzer``, named in a result only
when a tie or a die on a threshold occurred.

The exact chance that the ambush succeeds: P(min A > max D) over the independent totals
(Grundwert + talent die + modifier), summed over the value of the highest defender.

The result carries what the page needs to carry the outcome on: ``surprised`` (the defenders,
to be marked in the Tickleiste or the initiative), ``tactical_advantage`` (the attackers), and
``follow_ups`` to the attack with the Taktischer Vorteil.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from engine.data_files import DataError, forecast
from engine.display import Display
from engine.errors import EngineError, echo
from engine.formatting import number
from engine.ordering import check_unique_names
from engine.params import ChoiceParam, IntParam, ListParam, Param, TextParam
from regeln.ryssea.common import (
    DATA,
    SOURCE,
    SYSTEM,
    ProbeInput,
    ProbeRoll,
    assumptions_for,
    confirmation_due,
    die_distribution,
    probe_fields,
    probe_input,
    roll_probe,
)

TALENTS = (("heimlichkeit", "Heimlichkeit"), ("anfuehren", "Anführen"))
TALENT_LABELS = dict(TALENTS)
MAX_SIDE = 10

MODIFIER = IntParam(
    "modifier",
    "Modifikator",
    formerly=("modifikator",),
    default=0,
    minimum=-30,
    maximum=30,
    help="Bonus (+) oder Malus (−) auf die Probe.",
)

ATTACKER_FIELDS: tuple[Param, ...] = (
    TextParam("name", "Name", max_length=30),
    ChoiceParam(
        "talent",
        "Probe auf",
        choices=TALENTS,
        help="Nach Wahl des Angreifers: Anführen oder Heimlichkeit.",
    ),
    *probe_fields(talent="Anführen oder Heimlichkeit"),
    MODIFIER,
)
DEFENDER_FIELDS: tuple[Param, ...] = (
    TextParam("name", "Name", max_length=30),
    *probe_fields(talent="Sinnenschärfe"),
    MODIFIER,
)


def _totals(spec: ProbeInput) -> dict[int, Fraction]:
    """Distribution of one probe's result: Grundwert + kept talent die + modifier."""
    return {spec.base + v: p for v, p in die_distribution(spec.die, spec.mode).items()}


def _ties_to_attackers() -> bool:
    value = DATA.text("ueberraschung.gleichstand")
    if value not in ("verteidiger", "angreifer"):
        raise DataError(DATA.file, "ueberraschung.gleichstand", "verteidiger oder angreifer")
    return value == "angreifer"


def success_chance(
    attackers: list[ProbeInput], defenders: list[ProbeInput], ties_to_attackers: bool
) -> Fraction:
    """Exact chance that the lowest attacker result beats the highest defender result.

    Sum over t of P(highest defender = t) · P(every attacker above t) – or at t or above, when
    a tie goes to the attackers; the probes are independent."""
    attacker_dists = [_totals(a) for a in attackers]
    defender_dists = [_totals(d) for d in defenders]
    chance = Fraction(0)
    below = Fraction(0)  # P(highest defender < t)
    for t in sorted({v for dist in defender_dists for v in dist}):
        upto = Fraction(1)
        for dist in defender_dists:
            upto *= sum((p for v, p in dist.items() if v <= t), Fraction(0))
        beaten = Fraction(1)
        for dist in attacker_dists:
            beaten *= sum(
                (p for v, p in dist.items() if v > t or (ties_to_attackers and v == t)),
                Fraction(0),
            )
        chance += (upto - below) * beaten
        below = upto
    return chance


def _check_names(attackers: list[dict[str, Any]], defenders: list[dict[str, Any]]) -> None:
    check_unique_names(attackers, "angreifer", "Angreifer")
    check_unique_names(defenders, "verteidiger", "Verteidiger")
    names = {str(a["name"]).casefold() for a in attackers}
    for index, row in enumerate(defenders):
        if str(row["name"]).casefold() in names:
            raise EngineError(
                f"Verteidiger {index + 1} – Name: „{echo(row['name'])}“ steht schon bei den "
                "Angreifern; niemand kann beides sein.",
                f"verteidiger.{index}.name",
            )


def _roll_side(
    rows: list[dict[str, Any]], rng: random.Random, talent: str | None
) -> list[tuple[dict[str, Any], ProbeInput, ProbeRoll]]:
    out = []
    for row in rows:
        spec = probe_input(row, modifiers=(("Modifikator", row["modifier"]),))
        label = f"{row['name']} ({TALENT_LABELS[row['talent']] if talent is None else talent})"
        out.append((row, spec, roll_probe(spec, rng, label, with_erfolge=False, confirm=False)))
    return out


def _person(row: dict[str, Any], rolled: ProbeRoll, talent: str) -> dict[str, Any]:
    return {"name": row["name"], "talent": talent, "total": rolled.total, "probe": rolled.to_dict()}


def _outcome(
    success: bool, tie: bool, low: tuple[str, int], high: tuple[str, int], ticks: int
) -> str:
    versus = (
        f"niedrigstes Ergebnis der Angreifer {number(low[1])} ({low[0]}) gegen höchstes der "
        f"Verteidiger {number(high[1])} ({high[0]})"
    )
    if success:
        return (
            f"Die Überraschung gelingt: {versus}. Die Angreifer erhalten einen Taktischen "
            f"Vorteil, jeder Verteidiger verliert {ticks} Ticks."
        )
    if tie:
        return f"Die Überraschung misslingt: {versus} – Gleichstand, die Verteidiger gewinnen."
    return f"Die Überraschung misslingt: {versus}."


def _comparison_rows(
    attackers: list[tuple[dict[str, Any], ProbeInput, ProbeRoll]],
    defenders: list[tuple[dict[str, Any], ProbeInput, ProbeRoll]],
    low_row: dict[str, Any],
    high_row: dict[str, Any],
) -> list[list[str]]:
    """The rows of the „Vergleich“ table: every attacker, then every defender, and which
    result counts (the lowest attacker's, the highest defender's)."""
    return [
        [
            "Angreifer",
            str(row["name"]),
            TALENT_LABELS[row["talent"]],
            number(rolled.total),
            "niedrigstes" if row is low_row else "",
        ]
        for row, _, rolled in attackers
    ] + [
        [
            "Verteidiger",
            str(row["name"]),
            "Sinnenschärfe",
            number(rolled.total),
            "höchstes" if row is high_row else "",
        ]
        for row, _, rolled in defenders
    ]


def _notes(success: bool, favoured: list[str], surprised: list[str], ticks: int) -> list[str]:
    """The notes: after a successful ambush who gains and who loses what (L41–L45), and the
    preparation of an ambush."""
    notes = []
    if success:
        notes.append(
            f"Jeder Angreifer erhält für die kommende Aktion einen Taktischen Vorteil "
            f"(+3 auf alle Kampftalente): {', '.join(favoured)}."
        )
        notes.append(
            f"Überrascht: {', '.join(surprised)} – jeder verliert {ticks} Ticks zur Orientierung; "
            "sie werden von seiner normal ausgewürfelten Initiative abgezogen."
        )
    notes.append(
        "Das Vorbereiten eines Hinterhalts dauert 5 Minuten. Ein Anführer kann seine Verbündeten "
        "dabei koordinieren; einen Wert dafür nennt der Text nicht (gegebenenfalls als "
        "Modifikator eintragen)."
    )
    return notes


def _follow_ups(success: bool, advantages: int) -> list[dict[str, Any]]:
    """After a successful ambush: the attack with the Taktischer Vorteil."""
    return (
        [
            {
                "action": "attack",
                "title": "Angriff mit Taktischem Vorteil",
                "params": {"taktischer_vorteil": advantages},
            }
        ]
        if success
        else []
    )


@SYSTEM.action(
    "surprise",
    title="Überraschung (Hinterhalt)",
    summary=(
        "Jeder Angreifer würfelt eine Anführen- oder Heimlichkeit-Probe, jeder Verteidiger eine "
        "Sinnenschärfe-Probe; das niedrigste Ergebnis der Angreifer gegen das höchste der "
        "Verteidiger. Gewinnen die Angreifer: Taktischer Vorteil für sie, −10 Ticks für jeden "
        "Überraschten."
    ),
    source=f"{SOURCE} L41–L45",
    params=(
        ListParam(
            "angreifer",
            "Angreifer",
            item=ATTACKER_FIELDS,
            item_label="Angreifer",
            min_items=1,
            max_items=MAX_SIDE,
            default_items=({"name": "Alrik"},),
            required=True,
        ),
        ListParam(
            "verteidiger",
            "Verteidiger",
            item=DEFENDER_FIELDS,
            item_label="Verteidiger",
            min_items=1,
            max_items=MAX_SIDE,
            default_items=({"name": "Räuberbaron"},),
            required=True,
        ),
    ),
    assumptions=assumptions_for("probe.grundwert", "ueberraschung."),
)
def surprise(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    attacker_rows: list[dict[str, Any]] = params["angreifer"]
    defender_rows: list[dict[str, Any]] = params["verteidiger"]
    _check_names(attacker_rows, defender_rows)
    ticks = DATA.integer("initiative.ueberraschung_ticks", 0, 100)
    advantages = DATA.integer("ueberraschung.taktische_vorteile", 0, 5)

    # every attacker, then every defender, each his own probe (L41)
    attackers = _roll_side(attacker_rows, rng, None)
    defenders = _roll_side(defender_rows, rng, "Sinnenschärfe")
    low_row, _, low_roll = min(attackers, key=lambda item: item[2].total)
    high_row, _, high_roll = max(defenders, key=lambda item: item[2].total)
    tie = low_roll.total == high_roll.total
    success = low_roll.total > high_roll.total or (tie and _ties_to_attackers())
    every_roll = [rolled for _, _, rolled in (*attackers, *defenders)]
    on_threshold = any(confirmation_due(rolled.value) for rolled in every_roll)
    # a die on 9+ or 2−: neither Kritischer Erfolg nor Patzer counts here (an Annahme)
    if on_threshold and DATA.text("ueberraschung.kritisch_patzer") != "ohne_wirkung":
        raise DataError(DATA.file, "ueberraschung.kritisch_patzer", "nur ohne_wirkung")
    with forecast():
        chance = success_chance(
            [spec for _, spec, _ in attackers],
            [spec for _, spec, _ in defenders],
            _ties_to_attackers(),
        )

    low = (str(low_row["name"]), low_roll.total)
    high = (str(high_row["name"]), high_roll.total)
    display = Display(
        headline="Überraschung (Hinterhalt)", outcome=_outcome(success, tie, low, high, ticks)
    )
    for rolled in every_roll:
        rolled.show(display)
    rows = _comparison_rows(attackers, defenders, low_row, high_row)
    display.table("Vergleich", ["Seite", "Name", "Probe", "Ergebnis", "zählt"], rows)
    display.chances(
        "Chancen vor dem Wurf",
        [("Überraschung gelingt", chance), ("Überraschung misslingt", 1 - chance)],
        before=True,
    )
    surprised = [str(row["name"]) for row in defender_rows] if success else []
    favoured = [str(row["name"]) for row in attacker_rows] if success else []
    display.notes("Hinweise", _notes(success, favoured, surprised, ticks))
    follow_ups = _follow_ups(success, advantages)
    return {
        "success": success,
        "tie": tie,
        "attackers": [_person(r, rolled, r["talent"]) for r, _, rolled in attackers],
        "defenders": [_person(r, rolled, "sinnenschaerfe") for r, _, rolled in defenders],
        "lowest_attacker": {"name": low[0], "total": low[1]},
        "highest_defender": {"name": high[0], "total": high[1]},
        "surprised": surprised,
        "tactical_advantage": favoured,
        "tick_loss": ticks,
        "chances": {"success": str(chance)},
        "follow_ups": follow_ups,
        "display": display.to_dict(),
    }
