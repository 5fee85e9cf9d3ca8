"""Güte-System: the situations and Nahkampfoptionen and what they change on the probes.

Owns the fields for the special situations (L35–L113) and the Nahkampfoptionen (L123–L367),
and ``attack_modifiers``: every Erschwernis (+) and Erleichterung (−) they put on the
attacker's FP, on the target's FP(Abwehren) and on the second roll of a gezielter Hieb, each by
name and source line, from ``tabellen.situationen`` and ``tabellen.optionen`` in the data.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.params import BoolParam, ChoiceParam, IntParam, Param
from engine.systems.guete.common import SUITED_FOR_STUN, table_row, table_rows

SIGHT = (
    ("normal", "normal"),
    ("daemmerlicht", "Dämmerlicht"),
    ("dunkelheit", "vollständige Dunkelheit"),
)

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
        row = table_row("situationen", key)
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
    rows = [r for r in table_rows("optionen") if r.get("waehlbar")]
    return (
        ("keine", "keine (normaler Angriff)"),
        *((str(r["schluessel"]), str(r["option"])) for r in rows),
    )


# the situation and option fields: ATTACK_PARAMS (attack.py) ends with them
MODIFIER_PARAMS: tuple[Param, ...] = (
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
        maximum=int(table_row("optionen", "zweihaendige_hiebe")["hoechstens_stufen"]),
        help="Je Stufe +1 Erschwernis und +2 Schaden.",
        group="Nahkampfoption",
        required_when=("option", ("zweihaendige_hiebe",)),
    ),
    ChoiceParam(
        "gezielt_ziel",
        "Gezielter Hieb auf",
        choices=(("gliedmasse", "Gliedmaße (Arme, Beine)"), ("torso", "Torso")),
        group="Nahkampfoption",
        required_when=("option", ("gezielt",)),
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
        required_when=("option", ("sturzflug",)),
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


def attack_modifiers(p: dict[str, Any]) -> list[Modifier]:
    """Every Erschwernis (+) and Erleichterung (−) for the attacker's FP and the target's
    FP(Abwehren), by name, from tabellen.situationen and tabellen.optionen."""
    mods: list[Modifier] = []
    keys = [k for k in SITUATION_LABELS if p[k]]
    if p["sicht"] != "normal":
        keys.append(p["sicht"])
    for row in table_rows("situationen"):
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
        row = table_row("optionen", option)
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
