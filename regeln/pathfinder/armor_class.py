"""Pathfinder Rüstungsklasse (L25–L66): the ``armor_class`` action.

Owns the RK formula (L33: 10 + Rüstung + Schild + GE + andere Modifikatoren), the armour's cap
on the GE bonus (L35), the variants without GE bonus (L38, L48), touch AC (L66) and AC against
incorporeal touch attacks (L66), and the action that shows them with an attacker's hit chance
against each (``attack_chances`` from ``attack_roll.py``).

Whose values these are: the helper computes a fighter's own RK, and in a fight an RK matters when
that fighter is attacked – so its parts (armour, shield, GE, size, natural armour, deflection,
dodge, force armour, other modifiers) are ``subject="target"``, the values of the fighter being
acted on, like the attack's „RK des Ziels“; the attacker's bonus used for the chances is
``"actor"``; cover depends on where the fighters stand and is the situation. To know one's own RK
outside an attack, choose oneself as the target. The result continues with the attack against
this RK (``follow_ups``). The text leaves nothing of the RK open: no Annahme is read here.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from engine.display import Display
from engine.formatting import number, signed
from engine.params import BoolParam, IntParam
from regeln.pathfinder.attack_roll import attack_chances
from regeln.pathfinder.common import DATA, SIZE_PARAM, SOURCE, SYSTEM, size_modifier

MAX_ATTACK_AC = 80
"""Largest „RK des Ziels“ the attack takes; a follow-up never offers it more."""

# ---------------------------------------------------------------------------------------------
# Action: armor_class (L25–L66)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ArmorClass:
    normal: int
    touch: int
    no_dex: int
    touch_no_dex: int
    incorporeal: int
    dex_used: int


def armor_class_values(params: dict[str, Any]) -> ArmorClass:
    """L33: 10 + Rüstung + Schild + GE + andere; L35 GE capped; L38/L48 without GE bonus (and
    dodge); L66 touch drops armour, shield and natural armour; incorporeal touch also cover,
    but keeps armour bonuses from force effects."""
    base = DATA.integer("ruestungsklasse.grundwert", 0, 100)
    dex = params["geschicklichkeitsmodifikator"]
    dex_used = min(dex, params["max_geschicklichkeitsbonus"]) if dex > 0 else dex
    size = size_modifier(params["size"])
    rest = size + params["ablenkungsbonus"] + params["other"]
    armour = params["armor"] + params["schildbonus"] + params["natuerliche_ruestung"]
    cover = params["deckung"]
    with_dex = dex_used + params["ausweichbonus"]
    without_dex = min(dex_used, 0)
    normal = base + armour + with_dex + rest + cover
    touch = base + with_dex + rest + cover
    force = params["armor"] if params["force_armor"] else 0
    return ArmorClass(
        normal=normal,
        touch=touch,
        no_dex=base + armour + without_dex + rest + cover,
        touch_no_dex=base + without_dex + rest + cover,
        incorporeal=touch - cover + force,
        dex_used=dex_used,
    )


@SYSTEM.action(
    "armor_class",
    title="Rüstungsklasse (RK)",
    summary=(
        "RK = 10 + Rüstungsbonus + Schildbonus + Geschicklichkeitsmodifikator + andere "
        "Modifikatoren (Größe, natürliche Rüstung, Ablenkung, Ausweichen …); dazu Berührungs-RK, "
        "RK ohne GE-Bonus und die Trefferchance eines Angreifers."
    ),
    source=f"{SOURCE} L25–L66",
    result_formerly=(("geschicklichkeitsbonus", ("dexterity_used",)),),
    params=(
        IntParam(
            "armor",
            "Rüstungsbonus",
            default=4,
            minimum=0,
            maximum=30,
            help="Der Rüstung, samt Verbesserungsbonus.",
            group="Rüstungsklasse",
            required=True,
            subject="target",
        ),
        IntParam(
            "schildbonus",
            "Schildbonus",
            formerly=("shield",),
            default=0,
            minimum=0,
            maximum=20,
            group="Rüstungsklasse",
            subject="target",
        ),
        IntParam(
            "geschicklichkeitsmodifikator",
            "Geschicklichkeitsmodifikator",
            formerly=("dexterity",),
            default=2,
            minimum=-5,
            maximum=20,
            group="Rüstungsklasse",
            required=True,
            subject="target",
        ),
        IntParam(
            "max_geschicklichkeitsbonus",
            "Max. GE-Bonus der Rüstung",
            formerly=("max_dex",),
            default=99,
            minimum=0,
            maximum=99,
            help="Die Rüstung kann den GE-Bonus begrenzen; 99 = keine Grenze.",
            group="Rüstungsklasse",
            advanced=True,
            subject="target",
        ),
        replace(SIZE_PARAM, subject="target"),
        IntParam(
            "natuerliche_ruestung",
            "Natürliche Rüstung",
            formerly=("natural_armor",),
            default=0,
            minimum=0,
            maximum=30,
            group="Andere Modifikatoren",
            subject="target",
        ),
        IntParam(
            "ablenkungsbonus",
            "Ablenkungsbonus",
            formerly=("deflection",),
            default=0,
            minimum=0,
            maximum=20,
            group="Andere Modifikatoren",
            subject="target",
        ),
        IntParam(
            "ausweichbonus",
            "Ausweichboni",
            formerly=("dodge",),
            default=0,
            minimum=0,
            maximum=20,
            help="Summe aller Ausweichboni (sie dürfen addiert werden).",
            group="Andere Modifikatoren",
            subject="target",
        ),
        IntParam(
            "deckung",
            "Deckungsbonus",
            formerly=("cover",),
            default=0,
            minimum=0,
            maximum=20,
            help="Zählt nicht gegen körperlose Berührungsangriffe.",
            group="Andere Modifikatoren",
        ),
        BoolParam(
            "force_armor",
            "Rüstungsbonus aus Krafteffekt",
            help="Z. B. Magierrüstung: gilt gegen körperlose Berührungsangriffe weiter.",
            group="Andere Modifikatoren",
            advanced=True,
            subject="target",
        ),
        IntParam(
            "other",
            "Andere Modifikatoren",
            default=0,
            minimum=-20,
            maximum=20,
            help="Weitere Boni (+) und Mali (−) auf die RK.",
            group="Andere Modifikatoren",
            subject="target",
        ),
        IntParam(
            "attacker_bonus",
            "Angriffsbonus eines Angreifers",
            default=5,
            minimum=-10,
            maximum=50,
            help="Nur für die Trefferchancen.",
            group="Vergleich mit einem Angriff",
            required=True,
            subject="actor",
        ),
    ),
    rolls_dice=False,  # nothing is rolled: the form has no Wurfnummer
    what_if="attacker_bonus",  # the hit chances across the attacker's bonus
)
def armor_class(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    ac = armor_class_values(params)
    size = size_modifier(params["size"])
    values = {
        "normal": ac.normal,
        "touch": ac.touch,
        "flat": ac.no_dex,
        "touch_flat": ac.touch_no_dex,
        "incorporeal_touch": ac.incorporeal,
    }
    labels = {
        "normal": "RK",
        "touch": "Berührungs-RK",
        "flat": "RK ohne GE-Bonus",
        "touch_flat": "Berührungs-RK ohne GE-Bonus",
        "incorporeal_touch": "RK gegen körperlose Berührungsangriffe",
    }
    rules = {
        "normal": "10 + Rüstung + Schild + GE + andere",
        "touch": "ohne Rüstung, Schild, natürliche Rüstung",
        "flat": "ohne GE-Bonus und Ausweichboni",
        "touch_flat": "beides",
        "incorporeal_touch": "Berührung, ohne Deckung, Kraft-Rüstung zählt",
    }
    bonus = params["attacker_bonus"]
    hit_chances = {key: attack_chances(bonus, value, 20)["hit"] for key, value in values.items()}
    parts = [
        ("Grundwert", DATA.integer("ruestungsklasse.grundwert", 0, 100)),
        ("Rüstungsbonus", params["armor"]),
        ("Schildbonus", params["schildbonus"]),
        ("Geschicklichkeit", ac.dex_used),
        ("Größe", size),
        ("Natürliche Rüstung", params["natuerliche_ruestung"]),
        ("Ablenkung", params["ablenkungsbonus"]),
        ("Ausweichen", params["ausweichbonus"]),
        ("Deckung", params["deckung"]),
        ("andere", params["other"]),
    ]
    display = Display(
        headline="Rüstungsklasse – Pathfinder",
        outcome=f"RK {number(ac.normal)}, Berührung {number(ac.touch)}, "
        f"ohne GE-Bonus {number(ac.no_dex)}.",
    )
    display.table(
        "Zusammensetzung der RK",
        ["Bestandteil", "Wert"],
        [[name, signed(v) if i else number(v)] for i, (name, v) in enumerate(parts)]
        + [["RK", number(ac.normal)]],
    )
    display.table(
        "Varianten",
        ["RK-Art", "Wert", "Regel"],
        [[labels[k], number(v), rules[k]] for k, v in values.items()],
    )
    notes = []
    cap = params["max_geschicklichkeitsbonus"]
    if params["geschicklichkeitsmodifikator"] > cap:
        notes.append(f"Die Rüstung begrenzt den GE-Bonus auf {signed(cap)}.")
    if params["geschicklichkeitsmodifikator"] < 0:
        notes.append("Ein GE-Malus zählt immer, auch ohne GE-Bonus.")
    display.notes("Hinweise", notes)
    display.chances(
        # the caption stays the same for every bonus: „Was wäre wenn“ reads it across them
        "Trefferchance eines Angreifers (1W20 + sein Angriffsbonus, natürliche 1/20)",
        [(labels[k], p) for k, p in hit_chances.items()],
        before=True,
    )
    return {
        "armor_class": values,
        "geschicklichkeitsbonus": ac.dex_used,
        "size_modifier": size,
        "parts": [{"label": n, "value": v} for n, v in parts],
        "chances": {f"hit_{k}": str(p) for k, p in hit_chances.items()},
        "follow_ups": [
            {
                "action": "attack",
                "title": f"Angriff gegen RK {number(ac.normal)}",
                "params": {"armor_class": ac.normal},
            }
        ]
        if 0 <= ac.normal <= MAX_ATTACK_AC
        else [],
        "display": display.to_dict(),
    }
