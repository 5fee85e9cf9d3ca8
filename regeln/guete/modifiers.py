"""Güte-System: the situations and Nahkampfoptionen and what they change on the probes.

Owns the fields for the special situations (L35–L113), the conditions the options leave with
numbers of their own (betäubt L129, festgehalten L173, festhaltend L175, Rundumschlag L293) and
the Nahkampfoptionen (L123–L367), with the hints that hide a field outside its case (``when``),
and ``attack_modifiers``: every Erschwernis (+) and Erleichterung (−) they put on the attacker's
FP, on the target's FP(Abwehren), on the attacker's own Abwehr (Rundumschlag; betäubt or
festgehalten in a direct confrontation), on the target's counter-attack (betäubt) and on the
second roll of a gezielter Hieb, each by name and source line, from ``tabellen.situationen``,
``tabellen.zustaende`` and ``tabellen.optionen`` in the data.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.params import BoolParam, ChoiceParam, IntParam, Param
from regeln.guete.common import DATA, SUITED_FOR_STUN, table_row, table_rows

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
    "surprised": "Ziel ist überrascht (erste Kampfrunde)",
    "unsichtbarer_angreifer": "Angreifer ist unsichtbar",
    "ziel_zweihaendig": "Ziel führt eine zweihändige Waffe",
    "regen_nebel": "Starker Regen oder dichter Nebel",
}
# conditions left by the options, with numbers of their own (tabellen.zustaende)
CONDITION_LABELS = {
    "angreifer_betaeubt": "Angreifer ist betäubt",
    "angreifer_festgehalten": "Angreifer ist festgehalten",
    "angreifer_haelt_fest": "Angreifer hält einen Gegner fest",
    "ziel_betaeubt": "Ziel ist betäubt",
    "ziel_festgehalten": "Ziel ist festgehalten",
    "ziel_haelt_fest": "Ziel hält einen Gegner fest",
    "ziel_rundumschlag": "Ziel führt in dieser Runde einen Rundumschlag",
}
TARGET_FIELDS = {"ziel_zweihaendig"}  # a situation that is a value of the target (its weapon)
# situation fields renamed to the public vocabulary (CONTRIBUTING.md „Namen“): new → old names
FORMERLY = {"surprised": ("ueberrascht",)}

# When a field applies (``when``): each condition repeats those of the fields it depends on,
# since the form reads a hidden field's value as it stands.
NOT_DEFENSELESS: tuple[tuple[str, tuple[bool, ...]], ...] = (("wehrlos", (False,)),)
OPTION_FREE: tuple[tuple[str, tuple[bool, ...]], ...] = (
    ("falsche_hand", (False,)),  # L37
    ("unsichtbares_ziel", (False,)),  # L95
)
SITUATION_WHEN: dict[str, tuple[tuple[str, tuple[bool, ...]], ...]] = {
    "angreifer_liegend": (("angreifer_kniend", (False,)), ("waffe_zweihaendig", (False,))),
    "ziel_liegend": (("ziel_kniend", (False,)),),
}


def for_option(*keys: str) -> tuple[tuple[str, tuple[str | bool, ...]], ...]:
    """``when`` of a field that belongs to the options ``keys``."""
    return (("option", keys), *OPTION_FREE)


def _help(row: dict[str, Any]) -> str:
    """The row's numbers as a short German help: „Angriff: +2; Abwehr: –; …“."""
    parts = [f"{name}: {row[key]}" for key, name in (("angriff", "Angriff"), ("abwehr", "Abwehr"))]
    parts = [part for part in parts if not part.endswith("–")]
    if row.get("weiteres"):
        parts.append(str(row["weiteres"]))
    return "; ".join(parts) + "."


FIGHTER = {"angreifer": "actor", "ziel": "target"}


def _condition(row: dict[str, Any]) -> tuple[str, str] | tuple[()]:
    """A situation that is a condition of the attacker or the target (``bedingung`` in the
    data, one of kampf.bedingungen): an effect of that name on him ticks the field."""
    condition = row.get("bedingung")
    if not condition:
        return ()
    return (FIGHTER[condition["wer"]], str(condition["name"]))


def _situation_params() -> tuple[Param, ...]:
    out: list[Param] = []
    tables = (("situationen", SITUATION_LABELS), ("zustaende", CONDITION_LABELS))
    for table, labels in tables:
        for key, label in labels.items():
            row = table_row(table, key)
            out.append(
                BoolParam(
                    key,
                    label,
                    help=_help(row),
                    group="Besondere Situationen",
                    advanced=True,
                    subject="target" if key in TARGET_FIELDS else "",
                    when=SITUATION_WHEN.get(key, ()),
                    formerly=FORMERLY.get(key, ()),
                    condition=_condition(row),
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
    ChoiceParam(
        "option",
        "Nahkampfoption",
        choices=_option_choices(),
        group="Nahkampfoption",
        when=OPTION_FREE,
    ),
    IntParam(
        "hiebe_stufen",
        "Zweihändige Hiebe: Stufen",
        default=1,
        minimum=1,
        maximum=int(table_row("optionen", "zweihaendige_hiebe")["hoechstens_stufen"]),
        help="Je Stufe +1 Erschwernis und +2 Schaden.",
        group="Nahkampfoption",
        required_when=("option", ("zweihaendige_hiebe",)),
        when=for_option("zweihaendige_hiebe"),
    ),
    ChoiceParam(
        "gezielt_ziel",
        "Gezielter Hieb auf",
        choices=(("gliedmasse", "Gliedmaße (Arme, Beine)"), ("torso", "Torso")),
        group="Nahkampfoption",
        required_when=("option", ("gezielt",)),
        when=for_option("gezielt"),
    ),
    BoolParam(
        "gezielt_zweiter_wurf",
        "Gezielter Hieb: zweiter Angriffswurf gelungen",
        group="Nahkampfoption",
        when=for_option("gezielt"),
        per_roll=True,
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
        when=for_option("sturzflug"),
    ),
    BoolParam(
        "sturzflug_greifen",
        "Sturzflug: Opfer greifen und fallen lassen",
        group="Nahkampfoption",
        advanced=True,
        when=for_option("sturzflug"),
    ),
    BoolParam(
        "gefaehrliches_feld",
        "Zurückdrängen: Feld hinter dem Ziel ist gefährlich",
        group="Nahkampfoption",
        advanced=True,
        when=for_option("zurueckdraengen"),
    ),
    BoolParam(
        "angriff_kritisch",
        "Rundumschlag: kritischer Misserfolg",
        help="Der misslungene Angriff war ein kritischer Misserfolg: der Angreifer stürzt.",
        group="Nahkampfoption",
        when=(*for_option("rundumschlag"), ("angriff_gelungen", (False,))),
        per_roll=True,
    ),
    BoolParam(
        "feuerempfindlich",
        "Ziel ist feuerempfindlich",
        group="Nahkampfoption",
        advanced=True,
        subject="target",
        when=for_option("feuerangriff"),
    ),
)


ATTACK, DEFENSE, OWN_DEFENSE = "Angriff", "Abwehr", "Abwehr des Angreifers"
COUNTER = "Gegenangriff"  # the target's attack in a direct confrontation (L11–L13)


@dataclass
class Modifier:
    name: str
    # the Probe it counts on: ATTACK, DEFENSE, OWN_DEFENSE, COUNTER or "Zweiter Angriffswurf"
    applies_to: str
    value: int
    line: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "applies_to": self.applies_to,
            "value": self.value,
            "zeile": self.line,
        }


def attack_modifiers(p: dict[str, Any]) -> list[Modifier]:
    """Every Erschwernis (+) and Erleichterung (−) for the attacker's FP, the target's
    FP(Abwehren) and the attacker's own Abwehr, by name, from tabellen.situationen,
    tabellen.zustaende and tabellen.optionen."""
    mods = _situation_modifiers(p)
    option = p["option"]
    if option == "keine":
        return mods
    row = table_row("optionen", option)
    name, line = str(row["option"]), str(row["zeile"])
    if option == "betaeuben" and p["waffenart"] in SUITED_FOR_STUN:
        mods.append(Modifier(name, ATTACK, int(row["angriff_mod_geeignet"]), line))
    elif option == "zweihaendige_hiebe":
        value = int(row["angriff_mod"]) * p["hiebe_stufen"]
        mods.append(Modifier(f"{name} ({p['hiebe_stufen']} Stufen)", ATTACK, value, line))
    elif option == "sturzflug" and p["sturzflug_greifen"]:
        mods.append(Modifier(f"{name}, Greifen", ATTACK, int(row["angriff_mod_greifen"]), line))
    elif int(row["angriff_mod"]):
        mods.append(Modifier(name, ATTACK, int(row["angriff_mod"]), line))
    if option == "zurueckdraengen" and p["gefaehrliches_feld"]:
        value = int(row["abwehr_mod_gefahr"])
        mods.append(Modifier(f"{name}: gefährliches Feld", DEFENSE, value, line))
    if option == "rundumschlag":  # L293: own defense +2, not on top of the two-handed +1
        value = int(row["abwehr_mod_selbst"])
        mods.append(
            Modifier(
                f"{name}: eigene Abwehr (ohne die +1 der zweihändigen Waffe)",
                OWN_DEFENSE,
                value,
                "L293",
            )
        )
    if option == "gezielt":
        key = f"zweiter_wurf_{p['gezielt_ziel']}"
        where = "Gliedmaße" if p["gezielt_ziel"] == "gliedmasse" else "Torso"
        mods.append(Modifier(f"{name}: {where}", "Zweiter Angriffswurf", int(row[key]), line))
    return mods


def _situation_modifiers(p: dict[str, Any]) -> list[Modifier]:
    """The ticked situations and conditions (and the Sichtverhältnisse), in table order; a
    condition's ``ersetzt`` drops the situations it replaces (L293). In a direct confrontation
    the target attacks too and the attacker can be hit (L11–L13): a condition's
    ``gegenangriff_mod`` goes on the target's counter-attack, its ``abwehr_mod_selbst`` on the
    attacker's own Abwehr (betäubt L129, festgehalten L173)."""
    keys = [k for k in (*SITUATION_LABELS, *CONDITION_LABELS) if p[k]]
    if p["sicht"] != "normal":
        keys.append(p["sicht"])
        if p["regen_nebel"] and not DATA.flag("sicht.zusammen_mit_regen"):
            keys.remove("regen_nebel")
    rows = [r for t in ("situationen", "zustaende") for r in table_rows(t)]
    chosen = [r for r in rows if r["schluessel"] in keys]
    replaced = {str(k) for r in chosen for k in r.get("ersetzt", [])}
    mods: list[Modifier] = []
    for row in chosen:
        if row["schluessel"] in replaced:
            continue
        name = str(row["situation"])
        attack = row.get("angriff_mod")
        if row["schluessel"] == "angreifer_kniend" and p["waffe_zweihaendig"]:
            attack = row["angriff_mod_zweihaendig"]
        if attack is not None:
            mods.append(Modifier(name, ATTACK, int(attack), str(row["zeile"])))
        if row.get("abwehr_mod") is not None and not p["wehrlos"]:
            mods.append(Modifier(name, DEFENSE, int(row["abwehr_mod"]), str(row["zeile"])))
        if p["konfrontation"]:
            for key, probe in (("gegenangriff_mod", COUNTER), ("abwehr_mod_selbst", OWN_DEFENSE)):
                if row.get(key) is not None:
                    mods.append(Modifier(name, probe, int(row[key]), str(row["zeile"])))
    return mods
