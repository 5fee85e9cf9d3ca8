"""Güte-System (source 002_51e59e824768e9e9.txt, „Kampfregeln - Nahkampf“).

The text never says how a Fertigkeitsprobe (FP) is rolled or how its Güte follows, so the
actions take the results rolled at the table as inputs (gelungen ja/nein, Güte) and roll only
the dice the text does define: damage, Aufwachen, Entwaffnen, Erdrücken, Sturzflug, Feuer.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine import dice
from engine.data_files import load
from engine.display import Display
from engine.errors import EngineError
from engine.formatting import decimal, number, signed
from engine.ordering import check_unique_names
from engine.params import BoolParam, ChoiceParam, DiceParam, IntParam, ListParam, Param, TextParam
from engine.registry import new_system

SOURCE = "002_51e59e824768e9e9.txt"
SYSTEM = new_system("guete", "Güte-System", SOURCE)
DATA = load("guete")

GUETE_MIN, GUETE_MAX = -30, 30
MAX_DAMAGE_DICE = 10
MAX_DAMAGE_SIDES = 20
MAX_LISTED = 40  # most damage totals listed one by one in the display

RESOURCES = ("LE", "KE", "AUS")
RESOURCE_NAMES = {"LE": "Lebensenergie", "KE": "körperliche Energie", "AUS": "Ausdauer"}


def _assumptions(*prefixes: str) -> tuple[str, ...]:
    return tuple(
        a["text"]
        for a in DATA.assumptions()
        if a["key"].startswith(prefixes) or a["key"] == "fp_wurf"
    )


def _rows(name: str) -> list[dict[str, Any]]:
    return DATA.table(f"tabellen.{name}.zeilen", ("schluessel",))


def _row(name: str, key: str) -> dict[str, Any]:
    for row in _rows(name):
        if row["schluessel"] == key:
            return row
    raise EngineError(f"Regeldaten: „{key}“ fehlt in tabellen.{name}.", "")


def _expr(key: str, label: str) -> dice.Expression:
    return dice.parse(DATA.text(key), key, label)


def _plus(expression: dice.Expression, constant: int) -> dice.Expression:
    return dice.Expression(expression.terms, expression.constant + constant)


def _chances_dict(dist: dict[int, Fraction]) -> dict[str, str]:
    return {str(total): str(p) for total, p in dist.items()}


def _distribution_items(label: str, dist: dict[int, Fraction]) -> list[tuple[str, Fraction]]:
    if len(dist) <= MAX_LISTED:
        return [(f"{label} {number(total)}", p) for total, p in dist.items()]
    return []


# ---------------------------------------------------------------------------------------------
# Angriff
# ---------------------------------------------------------------------------------------------

WEAPON_KINDS = (
    ("andere", "andere Nahkampfwaffe"),
    ("hammer", "1hand- oder 2hand-Hammer"),
    ("faustkampf", "Faustkampf"),
    ("stab", "Stab"),
    ("natuerlich", "Natürliche Waffen"),
    ("stangenwaffe", "Stangenwaffe"),
)
SUITED_FOR_STUN = {"hammer", "faustkampf", "stab"}  # L125
SIGHT = (
    ("normal", "normal"),
    ("daemmerlicht", "Dämmerlicht"),
    ("dunkelheit", "vollständige Dunkelheit"),
)
NO_DAMAGE_OPTIONS = {"entwaffnen", "festhalten", "zu_fall", "zurueckdraengen"}
# options whose losses differ from the plain table (L19–L29): outcome names the losses instead
SPECIAL_ALLOCATION = NO_DAMAGE_OPTIONS | {"betaeuben", "feuerangriff", "gedaempft", "gezielt"}
SPECIAL_ALLOCATION |= {"sturzflug"}
DEFENCE_LABELS = {
    "misslungen": "Abwehr misslungen",
    "halb": "halbe Verteidigung",
    "vollstaendig": "vollständige Verteidigung, kein Schaden",
}

SITUATION_LABELS = {
    "falsche_hand": "Angreifer greift mit der falschen Hand an",
    "uebermacht": "Angreifer ist Teil der Übermacht (Ziel in die Ecke gedrängt)",
    "angreifer_kniend": "Angreifer kniet",
    "angreifer_liegend": "Angreifer liegt",
    "unsichtbares_ziel": "Ziel ist unsichtbar",
    "wehrlos": "Ziel ist wehrlos (verteidigt sich nicht)",
    "gesichtsfeld": "Angriff aus dem Gesichtsfeld",
    "aufwachen": "Ziel wacht gerade auf",
    "ecke": "Ziel ist in die Ecke gedrängt",
    "ziel_kniend": "Ziel kniet",
    "ziel_liegend": "Ziel liegt",
    "ueberrascht": "Ziel ist überrascht (erste Kampfrunde)",
    "unsichtbarer_angreifer": "Angreifer ist unsichtbar",
    "ziel_zweihaendig": "Ziel führt eine zweihändige Waffe",
    "regen_nebel": "Starker Regen oder dichter Nebel",
}


def _situation_params() -> tuple[Param, ...]:
    out: list[Param] = []
    for key, label in SITUATION_LABELS.items():
        row = _row("situationen", key)
        out.append(
            BoolParam(
                key,
                label,
                help=f"Quelle {row['zeile']}: {row['situation']}.",
                group="Besondere Situationen",
                advanced=True,
            )
        )
    return tuple(out)


def _option_choices() -> tuple[tuple[str, str], ...]:
    rows = [r for r in _rows("optionen") if r.get("waehlbar")]
    return (
        ("keine", "keine (normaler Angriff)"),
        *((str(r["schluessel"]), str(r["option"])) for r in rows),
    )


ATTACK_PARAMS: tuple[Param, ...] = (
    TextParam(
        "angreifer", "Angreifer", default="Angreifer", max_length=30, group="Angriff", advanced=True
    ),
    TextParam("ziel", "Ziel", default="Ziel", max_length=30, group="Angriff", advanced=True),
    BoolParam(
        "konfrontation",
        "Direkte Konfrontation",
        help="Beide greifen sich gleichzeitig an: die höhere Güte trifft, gleiche prallen ab.",
        group="Angriff",
    ),
    BoolParam(
        "angriff_gelungen",
        "Angriff gelungen",
        default=True,
        help="FP auf die Waffenkategorie",
        group="Angriff",
    ),
    IntParam(
        "angriff_guete",
        "Güte des Angriffs",
        default=3,
        minimum=GUETE_MIN,
        maximum=GUETE_MAX,
        group="Angriff",
    ),
    DiceParam("schaden", "Schaden der Waffe", default="1W6+2", help="z. B. 1W6+2", group="Angriff"),
    BoolParam(
        "waffe_zweihaendig",
        "Angreifer führt eine zweihändige Waffe",
        group="Angriff",
        advanced=True,
    ),
    ChoiceParam(
        "waffenart",
        "Waffenart des Angreifers",
        choices=WEAPON_KINDS,
        group="Angriff",
        advanced=True,
    ),
    BoolParam(
        "gegner_gelungen",
        "Gegenangriff gelungen",
        default=True,
        help="Nur bei direkter Konfrontation: der gleichzeitige Angriff des Ziels.",
        group="Gegenangriff (direkte Konfrontation)",
    ),
    IntParam(
        "gegner_guete",
        "Güte des Gegenangriffs",
        default=2,
        minimum=GUETE_MIN,
        maximum=GUETE_MAX,
        group="Gegenangriff (direkte Konfrontation)",
    ),
    DiceParam(
        "gegner_schaden",
        "Schaden der Waffe des Ziels",
        default="1W6+2",
        group="Gegenangriff (direkte Konfrontation)",
    ),
    BoolParam(
        "abwehr_gelungen",
        "Abwehr gelungen",
        help="FP(Abwehren) dessen, der getroffen wird.",
        group="Abwehr des Ziels",
    ),
    IntParam(
        "abwehr_guete",
        "Güte der Abwehr",
        default=0,
        minimum=GUETE_MIN,
        maximum=GUETE_MAX,
        group="Abwehr des Ziels",
    ),
    BoolParam("parade", "Ziel nutzt die Option Parade", group="Abwehr des Ziels"),
    IntParam(
        "parade_guete",
        "Güte der Paradeprobe (vor +5)",
        default=0,
        minimum=GUETE_MIN,
        maximum=GUETE_MAX,
        help="Die Güte der zu Rundenbeginn gewürfelten Angriffsprobe; die Engine rechnet +5.",
        group="Abwehr des Ziels",
    ),
    *_situation_params(),
    ChoiceParam(
        "sicht", "Sichtverhältnisse", choices=SIGHT, group="Besondere Situationen", advanced=True
    ),
    ChoiceParam("option", "Nahkampfoption", choices=_option_choices(), group="Nahkampfoption"),
    IntParam(
        "hiebe_stufen",
        "Zweihändige Hiebe: Stufen",
        default=1,
        minimum=1,
        maximum=int(_row("optionen", "zweihaendige_hiebe")["hoechstens_stufen"]),
        help="Je Stufe +1 Erschwernis und +2 Schaden.",
        group="Nahkampfoption",
    ),
    ChoiceParam(
        "gezielt_ziel",
        "Gezielter Hieb auf",
        choices=(("gliedmasse", "Gliedmaße (Arme, Beine)"), ("torso", "Torso")),
        group="Nahkampfoption",
    ),
    BoolParam(
        "gezielt_zweiter_wurf",
        "Gezielter Hieb: zweiter Angriffswurf gelungen",
        group="Nahkampfoption",
    ),
    IntParam(
        "sturzflug_hoehe",
        "Sturzflug: Höhe in Metern",
        default=5,
        minimum=5,
        maximum=200,
        group="Nahkampfoption",
        advanced=True,
    ),
    BoolParam(
        "sturzflug_greifen",
        "Sturzflug: Opfer greifen und fallen lassen",
        group="Nahkampfoption",
        advanced=True,
    ),
    BoolParam(
        "gefaehrliches_feld",
        "Zurückdrängen: Feld hinter dem Ziel ist gefährlich",
        group="Nahkampfoption",
        advanced=True,
    ),
    BoolParam(
        "feuerempfindlich", "Ziel ist feuerempfindlich", group="Nahkampfoption", advanced=True
    ),
)


@dataclass
class Modifier:
    name: str
    probe: str  # "Angriff", "Abwehr" or "Zweiter Angriffswurf"
    value: int
    line: str

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "probe": self.probe, "wert": self.value, "zeile": self.line}


def _error(message: str, path: str) -> EngineError:
    label = next((p.label for p in ATTACK_PARAMS if p.name == path), path)
    return EngineError(f"{label}: {message}", path)


def _check_attack(p: dict[str, Any]) -> None:
    option = p["option"]
    for key in ("falsche_hand", "unsichtbares_ziel"):
        if p[key] and option != "keine":
            row = _row("situationen", key)
            raise _error(f"„{row['situation']}“ erlaubt keine Option ({row['zeile']}).", "option")
    for key in ("angreifer_kniend", "angreifer_liegend"):
        allowed = _row("situationen", key).get("nur_optionen", [])
        if p[key] and option not in ("keine", *allowed):
            raise _error(
                "kniend und liegend sind nur Feuerangriff und improvisierte Waffen möglich (L65).",
                "option",
            )
    if p["angreifer_kniend"] and p["angreifer_liegend"]:
        raise _error("der Angreifer kann nicht zugleich knien und liegen.", "angreifer_liegend")
    if p["ziel_kniend"] and p["ziel_liegend"]:
        raise _error("das Ziel kann nicht zugleich knien und liegen.", "ziel_liegend")
    if p["angreifer_liegend"] and p["waffe_zweihaendig"]:
        raise _error("liegend kann man nur einhändige Waffen nutzen (L63).", "waffe_zweihaendig")
    if p["wehrlos"] and (p["parade"] or p["konfrontation"]):
        raise _error("ein wehrloses Ziel pariert nicht und schlägt nicht zurück (L103).", "wehrlos")
    if p["parade"] and p["konfrontation"]:
        raise _error(
            "wer pariert, kann keinen Schaden anrichten, also nicht zurückschlagen (L279).",
            "parade",
        )
    two_handed, kind = p["waffe_zweihaendig"], p["waffenart"]
    rules: dict[str, tuple[bool, str]] = {
        "gedaempft": (
            two_handed and kind != "stab",
            "gedämpfte Schläge nur mit einhändig geführten Waffen oder Stäben (L209).",
        ),
        "rundumschlag": (
            not two_handed and kind != "stangenwaffe",
            "Rundumschlag nur mit 2hand- und Stangenwaffen (L285).",
        ),
        "zweihaendige_hiebe": (two_handed, "zweihändige Hiebe nur mit 1hand-Waffen (L363)."),
        "zwei_waffen": (two_handed, "Kampf mit zwei Waffen nur mit einhändigen Waffen (L259)."),
        "festhalten": (
            kind not in ("faustkampf", "natuerlich"),
            "Festhalten nur mit Faustkampf oder Natürliche Waffen - Klauen (L167).",
        ),
        "stachelwirbel": (
            kind != "natuerlich",
            "Stachelwirbel ist eine Probe auf Natürliche Waffen (L317).",
        ),
        "sturzflug": (kind != "natuerlich", "Sturzflug ist eine FP(Natürliche Waffen) (L325)."),
    }
    if option in rules and rules[option][0]:
        raise _error(rules[option][1], "option")
    for key in ("schaden", "gegner_schaden"):
        expression = dice.parse(p[key], key, key)
        if expression.dice_count > MAX_DAMAGE_DICE or any(
            t.sides > MAX_DAMAGE_SIDES for t in expression.terms
        ):
            raise _error(
                f"höchstens {MAX_DAMAGE_DICE} Würfel mit je höchstens {MAX_DAMAGE_SIDES} Seiten.",
                key,
            )


def attack_modifiers(p: dict[str, Any]) -> list[Modifier]:
    """Every Erschwernis (+) and Erleichterung (−) for the attacker's FP and the target's
    FP(Abwehren), by name, from tabellen.situationen and tabellen.optionen."""
    mods: list[Modifier] = []
    keys = [k for k in SITUATION_LABELS if p[k]]
    if p["sicht"] != "normal":
        keys.append(p["sicht"])
    for row in _rows("situationen"):
        if row["schluessel"] not in keys:
            continue
        name = str(row["situation"])
        attack = row.get("angriff_mod")
        if row["schluessel"] == "angreifer_kniend" and p["waffe_zweihaendig"]:
            attack = row["angriff_mod_zweihaendig"]
        if attack is not None:
            mods.append(Modifier(name, "Angriff", int(attack), str(row["zeile"])))
        if row.get("abwehr_mod") is not None and not (p["wehrlos"]):
            mods.append(Modifier(name, "Abwehr", int(row["abwehr_mod"]), str(row["zeile"])))
    option = p["option"]
    if option != "keine":
        row = _row("optionen", option)
        name, line = str(row["option"]), str(row["zeile"])
        if option == "betaeuben" and p["waffenart"] in SUITED_FOR_STUN:
            mods.append(Modifier(name, "Angriff", int(row["angriff_mod_geeignet"]), line))
        elif option == "zweihaendige_hiebe":
            value = int(row["angriff_mod"]) * p["hiebe_stufen"]
            mods.append(Modifier(f"{name} ({p['hiebe_stufen']} Stufen)", "Angriff", value, line))
        elif option == "sturzflug" and p["sturzflug_greifen"]:
            mods.append(
                Modifier(f"{name}, Greifen", "Angriff", int(row["angriff_mod_greifen"]), line)
            )
        elif int(row["angriff_mod"]):
            mods.append(Modifier(name, "Angriff", int(row["angriff_mod"]), line))
        if option == "zurueckdraengen" and p["gefaehrliches_feld"]:
            mods.append(
                Modifier(
                    f"{name}: gefährliches Feld", "Abwehr", int(row["abwehr_mod_gefahr"]), line
                )
            )
        if option == "gezielt":
            key = f"zweiter_wurf_{p['gezielt_ziel']}"
            where = "Gliedmaße" if p["gezielt_ziel"] == "gliedmasse" else "Torso"
            mods.append(Modifier(f"{name}: {where}", "Zweiter Angriffswurf", int(row[key]), line))
    return mods


def _sturzflug_bonus(height: int) -> int:
    """L325: +1 je 2 volle Meter über 5 m, höchstens +5."""
    base = DATA.integer("wuerfe.sturzflug.mindesthoehe", 0, 1000)
    per = DATA.integer("wuerfe.sturzflug.meter_je_punkt", 1, 1000)
    cap = DATA.integer("wuerfe.sturzflug.hoechstens", 0, 1000)
    return min(cap, max(0, height - base) // per)


def _defence_outcome(p: dict[str, Any], effective: int, defenceless: bool) -> str:
    """L19–L29: misslungen → LE, Güte ≤ Angreifer → halb (KE), Güte > Angreifer → vollständig."""
    if defenceless:
        return "misslungen"
    if not p["abwehr_gelungen"]:
        return "misslungen"
    return "vollstaendig" if p["abwehr_guete"] > effective else "halb"


def _expected_losses(
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


@SYSTEM.action(
    "attack",
    title="Nahkampfangriff: Treffer, Abwehr und Schaden",
    summary=(
        "Ihr gebt die gewürfelten Proben ein (gelungen, Güte); die Engine entscheidet, wer trifft, "
        "wertet die Abwehr aus (voller Schaden an LE, halbe oder vollständige Verteidigung), "
        "würfelt den Schaden und nennt alle Erschwernisse aus Situationen und Optionen."
    ),
    source=f"{SOURCE} L9–L29, L35–L113, L123–L367",
    params=ATTACK_PARAMS,
    assumptions=_assumptions("angriff", "sicht"),
)
def attack(p: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    _check_attack(p)
    mods = attack_modifiers(p)
    option = p["option"] if p["option"] != "keine" else ""
    option_row = _row("optionen", option) if option else None
    notes: list[str] = []
    attacker, target = p["angreifer"], p["ziel"]

    # 1. Who hits (L11–L17)
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
                notes.append("Gleiche Güten: die Waffen prallen wirkungslos aneinander ab (L15).")
        elif a_ok:
            hitter = "angreifer"
        elif g_ok:
            hitter = "gegner"
    elif p["angriff_gelungen"]:
        hitter = "angreifer"

    hit_guete = p["angriff_guete"] if hitter == "angreifer" else p["gegner_guete"]
    effective = hit_guete
    parade: dict[str, Any] = {}
    outcome = "kein_treffer"
    defence = ""
    if hitter == "angreifer" and p["parade"]:
        bonus = DATA.integer("parade.bonus", 0, 100)
        value = p["parade_guete"] + bonus
        usable = value >= DATA.integer("parade.mindestens", -100, 100)
        parade = {"guete": value, "nutzbar": usable, "abgefangen": False}
        if not usable:
            notes.append(f"Parade misslungen: Güte {number(value)} ist negativ (L271).")
        elif p["gesichtsfeld"]:
            parade["nutzbar"] = False
            notes.append("Eine Parade wirkt nicht gegen Angriffe aus dem Gesichtsfeld (L275).")
        elif hit_guete <= value:
            parade["abgefangen"] = True
            outcome = "pariert"
            aus = DATA.integer("parade.ausdauer", 0, 100)
            notes.append(
                f"Die Parade (Güte {number(value)}) fängt den Angriff ab; {target} zahlt nur "
                f"{aus} AUS (L273, L277)."
            )
        else:
            effective = hit_guete - value
            notes.append(
                f"Durch die Parade (Güte {number(value)}): {target} verteidigt sich gegen den "
                f"Restbetrag {number(effective)} (L273)."
            )
    if hitter and outcome != "pariert":
        defence = _defence_outcome(p, effective, hitter == "angreifer" and p["wehrlos"])
        outcome = "treffer"

    # 2. Damage and effects
    hit_name, hit_target = (attacker, target) if hitter != "gegner" else (target, attacker)
    active = option if hitter == "angreifer" else ""
    losses, effects, rolls_used = _effects(p, active, defence, hitter, notes)
    rolled: list[tuple[str, dice.RollResult]] = []
    totals: list[int] = []
    for label, expression in rolls_used:
        result = dice.roll(expression, rng)
        rolled.append((label, result))
        totals.append(result.total)
    loss = losses(tuple(totals)) if rolls_used else losses(())
    if active == "entwaffnen" and totals:  # L141
        effects.append(
            "Die Waffe landet direkt zu Füßen des Opfers (L141)."
            if totals[0] <= 0
            else f"Die Waffe fliegt {totals[0]} m weit (L141)."
        )
    expected = _expected_losses(losses, rolls_used)
    main_dist = dice.distribution(rolls_used[0][1]) if rolls_used else {}

    # 3. Display
    attack_total = sum(m.value for m in mods if m.probe == "Angriff")
    defence_total = sum(m.value for m in mods if m.probe == "Abwehr")
    verteidigung = {r["schluessel"]: r for r in _rows("verteidigung")}
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
            text = f"{hit_target}: {DEFENCE_LABELS[defence]}" + (
                f" – verliert {lost}." if lost else "."
            )
        else:
            text = f"{hit_target}: {verteidigung[defence]['folge']}."
        if effects:
            text += " " + " ".join(effects)
    display = Display(headline=headline, outcome=text)
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
    display.table("Eingegebene Proben", ["Probe", "Ergebnis"], probe_rows)
    display.table(
        "Modifikationen („+“ erschwert, „−“ erleichtert)",
        ["Modifikation", "Probe", "Wert", "Quelle"],
        [[m.name, m.probe, signed(m.value), m.line] for m in mods]
        + [
            ["Summe Angriff", "Angriff", signed(attack_total), ""],
            ["Summe Abwehr", "Abwehr", signed(defence_total), ""],
        ],
    )
    for label, result in rolled:
        display.roll(label, result)
    if rolled or any(loss.values()):
        display.table(
            "Verlust",
            ["Wert", "gewürfelt", "Erwartungswert"],
            [[RESOURCE_NAMES[r], number(loss.get(r, 0)), decimal(expected[r])] for r in RESOURCES],
        )
    if main_dist and len(main_dist) <= MAX_LISTED:
        display.chances(
            f"{rolls_used[0][0]} {rolls_used[0][1].notation()}: Wahrscheinlichkeit jeder Summe",
            _distribution_items("Summe", main_dist),
        )
    grundwert = [
        r["situation"]
        for r in _rows("situationen")
        if r.get("grundwert") and (p.get(r["schluessel"]) or p["sicht"] == r["schluessel"])
    ]
    if option_row is not None and option_row.get("grundwert"):
        grundwert.append(str(option_row["option"]))
    if grundwert:
        notes.append("Probe gegen den Grundwert der Waffenkategorie: " + ", ".join(grundwert) + ".")
    if p["konfrontation"] and mods:
        notes.append(
            "Die Modifikationen gelten für den Angriff von "
            f"{attacker} und die Abwehr von {target}; für den Gegenangriff rechnet sie gesondert."
        )
    if option_row is not None:
        notes.append(f"Ausdauer für {option_row['option']}: {option_row['ausdauer']}.")
    if defence == "vollstaendig":
        notes.append(
            "Vollständige Verteidigung: Ausdauer für die Ausweich- oder Paradebewegung zahlen "
            "(L27); die Kostentabelle fehlt im Text."
        )
    notes.append("Schaden vor Abzug der Rüstung (die Rüstungsregeln fehlen im Text).")
    display.notes("Hinweise", notes)

    return {
        "treffer": hitter,
        "ergebnis": outcome,
        "abwehr": defence,
        "effektive_guete": effective if hitter else None,
        "parade": parade,
        "option": option,
        "modifikatoren": [m.to_dict() for m in mods],
        "erschwernis_angriff": attack_total,
        "erschwernis_abwehr": defence_total,
        "wuerfe": [{"label": label, **r.to_dict()} for label, r in rolled],
        "verlust": {r: loss.get(r, 0) for r in RESOURCES},
        "wirkungen": effects,
        "chances": {
            "erwartung": {r: str(expected[r]) for r in RESOURCES},
            "schaden": _chances_dict(main_dist),
        },
        "display": display.to_dict(),
    }


def _probe_text(ok: bool, guete: int) -> str:
    return f"gelungen, Güte {number(guete)}" if ok else "misslungen"


def _effects(
    p: dict[str, Any], option: str, defence: str, hitter: str, notes: list[str]
) -> tuple[
    Callable[[tuple[int, ...]], dict[str, int]], list[str], list[tuple[str, dice.Expression]]
]:
    """Damage rolls and the loss per resource for the outcome (L19–L29 and each option)."""
    effects: list[str] = []
    rolls: list[tuple[str, dice.Expression]] = []
    if not hitter or defence in ("", "vollstaendig") or option in NO_DAMAGE_OPTIONS:
        _no_damage_effects(p, option, defence, hitter, effects, rolls)
        return (lambda t: {}), effects, rolls
    weapon = dice.parse(p["schaden"] if hitter == "angreifer" else p["gegner_schaden"])
    if option == "sturzflug":
        weapon = _plus(
            _expr("wuerfe.sturzflug.wurf", "Sturzflug"), _sturzflug_bonus(p["sturzflug_hoehe"])
        )
        label = "Sturzflug-Schaden"
    elif option == "zweihaendige_hiebe":
        row = _row("optionen", option)
        weapon = _plus(weapon, int(row["schaden_je_stufe"]) * p["hiebe_stufen"])
        label = "Schaden (zweihändige Hiebe)"
    else:
        label = "Schaden"
    rolls.append((label, weapon))
    extra = ""
    if option == "feuerangriff":
        rolls.append(("Feuerschaden", _expr("wuerfe.feuerangriff.wurf", "Feuerschaden")))
        extra = "LE" if p["feuerempfindlich"] else "KE"
    elif option == "sturzflug" and p["sturzflug_greifen"]:
        rolls.append(("Sturz der Beute (KE)", _expr("wuerfe.sturzflug.beute_wurf", "Sturz")))
        extra = "KE"
    main = "LE" if defence == "misslungen" else "KE"

    def losses(totals: tuple[int, ...]) -> dict[str, int]:
        damage = max(0, totals[0]) if totals else 0
        out = {"LE": 0, "KE": 0, "AUS": 0}
        if option == "gedaempft":  # L203–L205
            if defence == "misslungen":
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

    if option == "betaeuben":
        row = _row("optionen", option)
        rounds = int(row["runden_zweihaendig" if p["waffe_zweihaendig"] else "runden_einhaendig"])
        if p["waffenart"] in SUITED_FOR_STUN:
            rounds += int(row["runden_geeignet_zusaetzlich"])
        if defence == "misslungen":
            effects.append(
                f"Das Opfer muss eine FP(Widerstand) ablegen; misslingt sie, ist es {rounds} "
                f"Runde{'n' if rounds != 1 else ''} benommen (L127)."
            )
        notes.append("Betäubt: Angriff +2, Abwehr +1, kein Angriffsbereich (L129).")
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
            "Runde (L233); Torso: innere Verletzungen, wenn der zusätzliche KE-Schaden die "
            "Hälfte des KE-Maximums erreicht (L235)."
        )
    if option == "gedaempft" and defence == "misslungen":
        effects.append("Gedämpfte Schläge: halber Schaden (abgerundet) an KE (L203).")
    if option == "gedaempft" and defence == "halb":
        effects.append("Gedämpfte Schläge: die Ausdauer sinkt um den Schaden, keine KE (L205).")
    if option == "feuerangriff":
        effects.append(
            "Fackel: immer Schaden an KE (L189); Feuerschaden "
            + ("als LE (feuerempfindlich, L191)." if p["feuerempfindlich"] else "an KE (L191).")
        )
    if option == "stachelwirbel":
        notes.append("Stachelwirbel: Schaden aller drei natürlichen Waffen als Summe (L319).")
    return losses, effects, rolls


def _no_damage_effects(
    p: dict[str, Any],
    option: str,
    defence: str,
    hitter: str,
    effects: list[str],
    rolls: list[tuple[str, dice.Expression]],
) -> None:
    if hitter != "angreifer" or not defence:
        return
    if option == "entwaffnen":  # L137–L143
        if defence == "vollstaendig":
            effects.append("Das Ziel entzieht sich und behält seine Waffe (L139).")
        else:
            rolls.append(("Weite (Meter)", _expr("wuerfe.entwaffnen.wurf", "Entwaffnen")))
            effects.append("Entwaffnet, kein Schaden (L137).")
            target_guete = p["abwehr_guete"] if defence == "halb" else None
            if target_guete is None or p["angriff_guete"] >= 2 * target_guete:
                effects.append("Der Angreifer bestimmt die Richtung (L143).")
            else:
                effects.append("Die Richtung bestimmt der Spielleiter zufällig (L141).")
    elif option == "festhalten":  # L171–L173
        if defence == "misslungen":
            effects.append("Gegriffen: Abwehr nur mit +2, nur Befreien oder Biss möglich (L173).")
        else:
            effects.append("Nicht festgehalten; kein Schaden (L171).")
    elif option == "zu_fall":  # L335–L341
        falls = defence == "misslungen" or (defence == "halb" and p["waffe_zweihaendig"])
        effects.append(
            "Das Ziel stürzt (s. Sturz), kein Schaden (L335–L343)."
            if falls
            else "Das Ziel bleibt auf den Beinen, kein Schaden (L337–L341)."
        )
    elif option == "zurueckdraengen":  # L355
        effects.append(
            "Das Ziel weicht einen Schritt zurück, kein Schaden (L355)."
            if defence == "misslungen"
            else "Das Ziel hält stand, kein Schaden (L355)."
        )


# ---------------------------------------------------------------------------------------------
# Initiative and fumble
# ---------------------------------------------------------------------------------------------

INITIATIVE_FIELDS = (
    TextParam("name", "Name", max_length=30),
    IntParam(
        "wert", "Initiativwert", default=10, minimum=-99, maximum=999, help="am Tisch gewürfelt"
    ),
    BoolParam(
        "hinterhalt", "Springt aus dem Hinterhalt", help="Erste Runde: handelt zuerst (L89)."
    ),
    BoolParam("ueberrascht", "Überrascht", help="Erste Runde: keine Aktionen, Abwehr +1 (L89)."),
)


@SYSTEM.action(
    "initiative",
    title="Initiative (eingegebene Werte ordnen)",
    summary=(
        "Der Text nennt einen Initiativwurf, enthält aber keine Regel dafür: Ihr gebt den "
        "gewürfelten Wert jedes Kämpfers ein, die Engine ordnet. Wer aus dem Hinterhalt springt, "
        "gewinnt die Initiative der ersten Runde automatisch."
    ),
    source=f"{SOURCE} L89",
    params=(
        ListParam(
            "fighters",
            "Kämpfer",
            item=INITIATIVE_FIELDS,
            item_label="Kämpfer",
            max_items=20,
            default_items=({"name": "Alrik", "wert": 12}, {"name": "Bruna", "wert": 9}),
        ),
        BoolParam("erste_runde", "Erste Kampfrunde", default=True),
    ),
    assumptions=_assumptions("initiative"),
)
def initiative(p: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    rows: list[dict[str, Any]] = p["fighters"]
    check_unique_names(rows)
    for index, row in enumerate(rows):
        if row["hinterhalt"] and row["ueberrascht"]:
            raise EngineError(
                f"Kämpfer {index + 1} – Überrascht: wer aus dem Hinterhalt springt, ist nicht "
                "überrascht.",
                f"fighters.{index}.ueberrascht",
            )
    first = p["erste_runde"]
    sign = -1 if DATA.flag("initiative.hoeher_zuerst") else 1
    order = sorted(
        range(len(rows)),
        key=lambda i: (0 if first and rows[i]["hinterhalt"] else 1, sign * rows[i]["wert"], i),
    )
    ties: list[list[str]] = []
    by_value: dict[tuple[bool, int], list[str]] = {}
    for i in order:
        by_value.setdefault((first and rows[i]["hinterhalt"], rows[i]["wert"]), []).append(
            rows[i]["name"]
        )
    ties = [names for names in by_value.values() if len(names) > 1]
    display = Display(
        headline="Initiative – Reihenfolge",
        outcome=f"Zuerst handelt {rows[order[0]]['name']}.",
    )
    table = []
    for place, i in enumerate(order, start=1):
        row = rows[i]
        note = []
        if first and row["hinterhalt"]:
            note.append("Hinterhalt: gewinnt die Initiative")
        if first and row["ueberrascht"]:
            note.append("überrascht: keine Aktionen, Abwehr +1")
        table.append([str(place), row["name"], number(row["wert"]), "; ".join(note)])
    display.table("Reihenfolge", ["Platz", "Kämpfer", "Initiativwert", "Erste Runde"], table)
    notes = [
        "Der Text nennt einen Initiativwurf, enthält aber keine Regel dafür, wie er gewürfelt "
        "wird; deshalb gebt ihr die Werte ein (Annahme: der höhere Wert beginnt).",
    ]
    notes += [f"Gleichstand: {', '.join(t)} – Reihenfolge der Eingabe (Annahme)." for t in ties]
    if first and any(r["hinterhalt"] for r in rows):
        notes.append(
            "In der ersten Kampfrunde entfällt der Initiativwurf für den Hinterhalt (L89)."
        )
    display.notes("Hinweise", notes)
    return {
        "order": [
            {
                "place": place,
                "name": rows[i]["name"],
                "wert": rows[i]["wert"],
                "hinterhalt": rows[i]["hinterhalt"],
                "ueberrascht": rows[i]["ueberrascht"],
                "handelt_in_runde_1": not (first and rows[i]["ueberrascht"]),
            }
            for place, i in enumerate(order, start=1)
        ],
        "ties": ties,
        "display": display.to_dict(),
    }


@SYSTEM.action(
    "fumble",
    title="Patzer / besondere Würfelergebnisse",
    summary="Der Text hat keine Patzerregel: die „besonderen Würfelergebnisse“ fehlen.",
    source=f"{SOURCE} L229, L269, L289",
    params=(),
)
def fumble(p: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    explanation = (
        "Der Text enthält keine Regel für Patzer: Er verweist auf „Besondere Würfelergebnisse im "
        "Kampf“ (L289), doch dieses Kapitel fehlt. Die Engine erfindet keine Tabelle."
    )
    display = Display(headline="Keine Patzerregel im Text", outcome=explanation)
    display.notes(
        "Was der Text dazu sagt",
        [
            "Rundumschlag: ein kritischer Misserfolg führt automatisch zum Sturz des "
            "Angreifers (L289).",
            "Gezielte Hiebe (zweiter Wurf) und Parade: besondere Würfelergebnisse werden "
            "ignoriert (L229, L269).",
            "Sturz nach einem kritischen Fehler: FP(Gaukeleien) (L79–L83).",
        ],
    )
    return {"regel": None, "erklaerung": explanation, "display": display.to_dict()}


# ---------------------------------------------------------------------------------------------
# Further rolls the text defines
# ---------------------------------------------------------------------------------------------


def _single_roll(
    rng: random.Random,
    headline: str,
    label: str,
    expression: dice.Expression,
    modifiers: list[tuple[str, int]],
    describe: Callable[[int], str],
    events: list[tuple[str, Callable[[int], bool]]],
    notes: list[str],
) -> dict[str, Any]:
    """Roll ``expression`` (+ named modifiers), describe the total, exact odds of ``events``."""
    shift = sum(v for _, v in modifiers)
    rolled = dice.roll(expression, rng)
    total = rolled.total + shift
    full = _plus(expression, shift)
    dist = dice.distribution(full)
    chances = [(name, dice.probability(full, test)) for name, test in events]
    display = Display(headline=headline, outcome=describe(total))
    display.roll(label, rolled, modifiers, total=total)
    display.chances("Wahrscheinlichkeiten", chances)
    display.chances("Verteilung", _distribution_items("Ergebnis", dist))
    display.notes("Hinweise", [*notes, f"Erwartungswert: {decimal(dice.expected_value(full))}."])
    return {
        "wurf": rolled.to_dict(),
        "modifikatoren": [{"name": n, "wert": v} for n, v in modifiers],
        "ergebnis": total,
        "chances": {
            **{name: str(p) for name, p in chances},
            "verteilung": _chances_dict(dist),
            "erwartung": str(dice.expected_value(full)),
        },
        "display": display.to_dict(),
    }


@SYSTEM.action(
    "aufwachen",
    title="Aufwachen: Runden bis man handeln kann",
    summary="2W6 − GW(Widerstand); 0 oder weniger: sofort hellwach, sonst so viele Runden.",
    source=f"{SOURCE} L47",
    params=(IntParam("gw_widerstand", "GW Widerstand", default=4, minimum=0, maximum=30),),
)
def aufwachen(p: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    def text(total: int) -> str:
        if total <= 0:
            return "Sofort hellwach."
        return (
            f"{total} Runde{'n' if total != 1 else ''} bis zum Handeln; so lange Abwehr nur mit +2."
        )

    return _single_roll(
        rng,
        "Aufwachen",
        "Aufwachen 2W6",
        _expr("wuerfe.aufwachen.wurf", "Aufwachen"),
        [("GW Widerstand", -p["gw_widerstand"])],
        text,
        [("sofort hellwach", lambda t: t <= 0)],
        ["Quelle L47: Ergebnis 0 oder negativ – sofort hellwach."],
    )


@SYSTEM.action(
    "entwaffnen",
    title="Entwaffnen: wie weit fliegt die Waffe?",
    summary="1W6 − 3 Meter; 0 oder weniger: die Waffe landet auf dem Feld des Opfers.",
    source=f"{SOURCE} L141–L143",
    params=(),
)
def entwaffnen(p: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    def text(total: int) -> str:
        if total <= 0:
            return "Die Waffe landet direkt zu Füßen des Opfers."
        return f"Die Waffe fliegt {total} m weit."

    return _single_roll(
        rng,
        "Entwaffnen",
        "Weite 1W6-3",
        _expr("wuerfe.entwaffnen.wurf", "Entwaffnen"),
        [],
        text,
        [("landet zu Füßen des Opfers", lambda t: t <= 0)],
        [
            "Richtung: zufällig durch den Spielleiter; bei doppelter Güte wählt der "
            "Angreifer (L143)."
        ],
    )


@SYSTEM.action(
    "erdruecken",
    title="Erdrücken (nur Brutas): Schaden",
    summary="Misslingt dem Opfer das Ausweichen: 2W6 + Körpergewicht des Brutas in kg / 50.",
    source=f"{SOURCE} L153–L161",
    params=(
        IntParam("gewicht", "Körpergewicht des Brutas (kg)", default=200, minimum=1, maximum=2000),
    ),
    assumptions=_assumptions("wuerfe.erdruecken"),
)
def erdruecken(p: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    per = DATA.integer("wuerfe.erdruecken.kg_je_punkt", 1, 1000)
    bonus = p["gewicht"] // per
    return _single_roll(
        rng,
        "Erdrücken",
        "Schaden 2W6",
        _expr("wuerfe.erdruecken.wurf", "Erdrücken"),
        [(f"Körpergewicht {p['gewicht']} kg / {per} (abgerundet, Annahme)", bonus)],
        lambda t: f"{t} Schaden.",
        [],
        ["Danach gilt der Bruta als gestürzt, ohne FP(Gaukeleien) (L161)."],
    )


@SYSTEM.action(
    "sturzflug",
    title="Sturzflug (nur Ceglags): Schaden",
    summary="1W6 + 1 je 2 volle Meter über 5 m, höchstens 1W6+5; Beute fallen lassen: 1W6+2 KE.",
    source=f"{SOURCE} L325–L327",
    params=(
        IntParam("hoehe", "Höhe in Metern", default=9, minimum=5, maximum=200),
        BoolParam("greifen", "Opfer greifen und fallen lassen"),
    ),
)
def sturzflug(p: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    bonus = _sturzflug_bonus(p["hoehe"])
    result = _single_roll(
        rng,
        "Sturzflug",
        "Krallenschaden 1W6",
        _expr("wuerfe.sturzflug.wurf", "Sturzflug"),
        [(f"Höhe {p['hoehe']} m (+1 je 2 volle Meter über 5 m, höchstens +5)", bonus)],
        lambda t: f"{t} Schaden, wenn das Opfer nicht vollständig abwehrt.",
        [],
        [],
    )
    if p["greifen"]:
        fall = _expr("wuerfe.sturzflug.beute_wurf", "Sturz")
        rolled = dice.roll(fall, rng)
        result["sturz"] = rolled.to_dict()
        result["chances"]["sturz_erwartung"] = str(dice.expected_value(fall))
        display = result["display"]
        display["outcome"] += f" Dazu {rolled.total} KE durch den Sturz."
        extra = Display("")
        extra.roll("Sturz der Beute 1W6+2 (KE)", rolled)
        extra.notes(
            "Greifen",
            [
                "Angriffsprobe +1, doppelte Ausdauer; Sturzschaden nicht durch Fallen "
                f"abzumildern (L327). Erwartungswert Sturz: {decimal(dice.expected_value(fall))}."
            ],
        )
        display["sections"].extend(extra.sections)
    return result


@SYSTEM.action(
    "feuerschaden",
    title="Feuerangriff: Feuerschaden",
    summary="Zusätzlich zum Keulenschaden 1W6+2 Feuerschaden an KE (feuerempfindlich: LE).",
    source=f"{SOURCE} L187–L193",
    params=(BoolParam("feuerempfindlich", "Ziel ist feuerempfindlich"),),
)
def feuerschaden(p: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    where = "LE" if p["feuerempfindlich"] else "KE"
    return _single_roll(
        rng,
        "Feuerschaden",
        "Feuerschaden 1W6+2",
        _expr("wuerfe.feuerangriff.wurf", "Feuerschaden"),
        [],
        lambda t: f"{t} Feuerschaden als Verlust von {where}.",
        [],
        ["Natürliche Rüstung schützt nicht gegen Feuerschaden (L193)."],
    )


__all__ = ["SYSTEM", "attack", "attack_modifiers"]
