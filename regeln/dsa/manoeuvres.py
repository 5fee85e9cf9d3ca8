"""DSA 4.1 Hausregeln: the manoeuvres of the ``attack`` action.

Owns the Sonderfertigkeiten of Abschnitt "Geläufigste aktive Kampfsonderfertigkeiten" that change
an attack: Wuchtschlag (+X, X Zusatzschaden), Finte (+X, the target's defense +X), Sturmangriff
(+4, Schaden + 4 + GS/2) and Gezielter Stich (+4 + RS/2, with a shield + Schild-PA, ignores RS),
each with the Erschwernis its failure leaves for the next probe. Holds their parameter fields,
their checks, their effect on the attack and their notes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.errors import EngineError
from engine.formatting import signed
from engine.params import BoolParam, ChoiceParam, IntParam
from regeln.dsa.common import DATA, halve

MANOEUVRES = (
    ("keins", "kein Manöver"),
    ("wuchtschlag", "Wuchtschlag (+X, X Zusatzschaden)"),
    ("finte", "Finte (+X, Abwehr des Ziels +X)"),
    ("sturmangriff", "Sturmangriff (+4, Schaden + 4 + GS/2)"),
    ("gezielter_stich", "Gezielter Stich (+4 + RS/2, mit Schild + Schild-PA)"),
)
MANOEUVRE_NAMES = {
    "wuchtschlag": "Wuchtschlag",
    "finte": "Finte",
    "sturmangriff": "Sturmangriff",
    "gezielter_stich": "Gezielter Stich",
}

MELEE = ("kind", ("nahkampf",))
STICH = (MELEE, ("manoever", ("gezielter_stich",)))

MANOEUVRE_PARAMS = (
    ChoiceParam(
        "manoever",
        "Manöver (Sonderfertigkeit)",
        choices=MANOEUVRES,
        group="Manöver (Sonderfertigkeit)",
        when=(MELEE,),
    ),
    IntParam(
        "manoever_x",
        "X bei Wuchtschlag/Finte",
        default=0,
        minimum=0,
        maximum=20,
        help="Um X erschwert; Wuchtschlag: X Zusatzschaden; Finte: Abwehr des Ziels um X erschwert",
        group="Manöver (Sonderfertigkeit)",
        required_when=("manoever", ("wuchtschlag", "finte")),
        when=(MELEE, ("manoever", ("wuchtschlag", "finte"))),
    ),
    IntParam(
        "gs",
        "GS (Sturmangriff)",
        default=8,
        minimum=0,
        maximum=20,
        group="Manöver (Sonderfertigkeit)",
        advanced=True,
        required_when=("manoever", ("sturmangriff",)),
        subject="actor",
        when=(MELEE, ("manoever", ("sturmangriff",))),
    ),
    IntParam(
        "ziel_rs",
        "RS des Ziels",
        default=0,
        minimum=0,
        maximum=20,
        help="Rüstungsschutz: wird von den TP abgezogen; Gezielter Stich: erschwert um RS/2.",
        group="Manöver (Sonderfertigkeit)",
        advanced=True,
        subject="target",
    ),
    BoolParam(
        "ziel_schild",
        "Ziel hat einen Schild",
        help="Gezielter Stich: + Schild-PA.",
        group="Manöver (Sonderfertigkeit)",
        advanced=True,
        subject="target",
        when=STICH,
    ),
    IntParam(
        "ziel_schild_pa",
        "Schild-PA des Ziels",
        default=0,
        minimum=0,
        maximum=15,
        group="Manöver (Sonderfertigkeit)",
        advanced=True,
        subject="target",
        when=(*STICH, ("ziel_schild", (True,))),
    ),
)


@dataclass
class ManoeuvreEffect:
    """What a manoeuvre adds: Erschwernisse, bonus damage, the penalty after a miss, the RS."""

    modifiers: list[tuple[str, int]]
    bonus_damage: list[tuple[str, int]]
    next_penalty: int
    rs: int


def check_manoeuvre(params: dict[str, Any]) -> None:
    """X only for Wuchtschlag and Finte (then at least 1); Sturmangriff needs both actions."""
    manoeuvre = params["manoever"]
    if manoeuvre in ("wuchtschlag", "finte") and params["manoever_x"] < 1:
        raise EngineError(
            f"X bei Wuchtschlag/Finte: für {MANOEUVRE_NAMES[manoeuvre]} mindestens 1.", "manoever_x"
        )
    if manoeuvre not in ("wuchtschlag", "finte") and params["manoever_x"]:
        raise EngineError(
            "X bei Wuchtschlag/Finte: gilt nur für Wuchtschlag oder Finte.", "manoever_x"
        )
    if manoeuvre == "sturmangriff" and (params["zweite_angriffsaktion"] or params["passierschlag"]):
        raise EngineError(
            "Manöver (Sonderfertigkeit): Ein Sturmangriff benötigt zwei Aktionen und kann weder "
            "zweite Angriffsaktion noch Passierschlag sein.",
            "manoever",
        )
    if params["ziel_schild_pa"] and not params["ziel_schild"]:
        raise EngineError(
            "Schild-PA des Ziels: nur wenn das Ziel einen Schild hat.", "ziel_schild_pa"
        )


def manoeuvre_effect(params: dict[str, Any]) -> ManoeuvreEffect:
    """The chosen manoeuvre's Erschwernisse (+ = harder), bonus damage, penalty and RS."""
    manoeuvre = params["manoever"]
    mods: list[tuple[str, int]] = []
    bonus_damage: list[tuple[str, int]] = []
    next_penalty = 0
    rs = params["ziel_rs"]
    x = params["manoever_x"]
    if manoeuvre == "wuchtschlag":
        mods.append(("Wuchtschlag X", x))
        bonus_damage.append(("Wuchtschlag", x))
        next_penalty = x
    elif manoeuvre == "finte":
        mods.append(("Finte X", x))
        next_penalty = x
    elif manoeuvre == "sturmangriff":
        mods.append(("Sturmangriff", DATA.integer("angriff.sturmangriff_erschwernis", 0, 20)))
        extra = DATA.integer("angriff.sturmangriff_schaden", 0, 20) + halve(params["gs"], "gs")
        bonus_damage.append((f"Sturmangriff 4 + GS/2 (GS {params['gs']})", extra))
        next_penalty = DATA.integer("angriff.fehlschlag_sturmangriff", 0, 20)
    elif manoeuvre == "gezielter_stich":
        base = DATA.integer("angriff.gezielter_stich_erschwernis", 0, 20)
        mods.append(("Gezielter Stich 4", base))
        mods.append((f"Gezielter Stich RS/2 (RS {rs})", halve(rs, "rs")))
        if params["ziel_schild"]:
            mods.append(("Gezielter Stich Schild-PA", params["ziel_schild_pa"]))
        next_penalty = DATA.integer("angriff.fehlschlag_gezielter_stich", 0, 20)
        rs = 0  # „Attacke ignoriert RS“
    return ManoeuvreEffect(mods, bonus_damage, next_penalty, rs)


def manoeuvre_notes(manoeuvre: str, next_penalty: int, missed: bool, x: int) -> list[str]:
    """The penalty after a failed manoeuvre; what a Finte or Gezielter Stich that hit does."""
    notes = []
    if next_penalty:
        notes.append(
            f"{MANOEUVRE_NAMES[manoeuvre]} misslungen: die nächste Probe ist um "
            f"{signed(next_penalty)} erschwert (egal was es für eine ist)."
        )
    if manoeuvre == "finte" and not missed:
        notes.append(
            f"Finte: die Reaktion des Ziels (Parade/Ausweichen) ist um {signed(x)} erschwert."
        )
    if manoeuvre == "gezielter_stich" and not missed:
        notes.append(
            "Gezielter Stich: ignoriert RS und richtet eine automatische Wunde an; für weitere "
            "Wunden ist die Wundschwelle des Gegners um 2 gesenkt (Aktion „Schaden und Wunden“)."
        )
    return notes
