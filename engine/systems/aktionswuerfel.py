"""Aktionswürfel-System (source 003_3ac4060591b07c19.txt, „Kampf“).

The text never says which dice a Wurf uses or how attributes and talents add to it, so the
actions take the rolled results as inputs (Willens-Wurf, Angriffswurf) and roll only what the
text defines: the weapon's damage dice (L102) and, for tied Willens-Würfe, the re-roll (L38)
with a configurable die (an Annahme in the data file).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from engine import dice
from engine.data_files import load
from engine.display import Display
from engine.errors import EngineError
from engine.formatting import decimal, number, signed
from engine.ordering import check_unique_names, order_groups, roll_off
from engine.params import BoolParam, ChoiceParam, DiceParam, IntParam, ListParam, TextParam
from engine.registry import new_system

SOURCE = "003_3ac4060591b07c19.txt"
SYSTEM = new_system("aktionswuerfel", "Aktionswürfel-System", SOURCE)
DATA = load("aktionswuerfel")

MAX_DAMAGE_DICE = 10
MAX_DAMAGE_SIDES = 20


def _assumptions(*prefixes: str) -> tuple[str, ...]:
    return tuple(
        a["text"] for a in DATA.assumptions() if a["key"] == "wurf" or a["key"].startswith(prefixes)
    )


# ---------------------------------------------------------------------------------------------
# Initiative
# ---------------------------------------------------------------------------------------------

FIGHTER_FIELDS = (
    TextParam("name", "Name", max_length=30),
    IntParam(
        "willenswurf",
        "Willens-Wurf",
        default=7,
        minimum=0,
        maximum=999,
        help="Die gewürfelte Augenzahl des Willens-Wurfs.",
    ),
    BoolParam(
        "zuerst",
        "Angeschlichen / greift unvermittelt an",
        help="Wer sich erfolgreich angeschlichen hat oder unvermittelt angreift, beginnt (L34).",
    ),
)


@dataclass
class Fighter:
    index: int
    name: str
    willenswurf: int
    zuerst: bool
    rerolls: list[int] = field(default_factory=list)


def _reroll_die() -> dice.Expression:
    return dice.parse(DATA.text("initiative.stechen"), "initiative.stechen", "Wiederholungswurf")


def _resolve(group: list[Fighter], rng: random.Random, notes: list[str]) -> list[Fighter]:
    """L38: the tied re-roll among themselves, higher first, until the order is clear."""
    limit = DATA.integer("initiative.stechen_hoechstens", 1, 1000)

    def record(fighter: Fighter, value: int) -> None:
        fighter.rerolls.append(value)

    ordered, unresolved = roll_off(group, _reroll_die(), rng, record, limit)
    for still in unresolved:  # extremely unlikely: keep the entry order, and say so
        notes.append(
            f"Nach {limit} Wiederholungen noch gleich: Reihenfolge der Eingabe für "
            + ", ".join(f.name for f in still)
            + "."
        )
    return ordered


def first_chances(rows: list[dict[str, Any]], reroll: bool) -> list[Fraction]:
    """Exact chance of each fighter to take the first turn, given the entered Willens-Würfe.

    The best group (those who strike first, then the highest Willens-Wurf) is fixed by the
    inputs. Among k tied fighters the re-roll uses the same die for everyone, so by symmetry
    each is first with 1/k; when the Spielleiter decides, the entry order stands.
    """
    keys = [(r["zuerst"], r["willenswurf"]) for r in rows]
    best = max(keys)
    tied = [i for i, k in enumerate(keys) if k == best]
    out = []
    for i in range(len(rows)):
        if i not in tied:
            out.append(Fraction(0))
        elif reroll:
            out.append(Fraction(1, len(tied)))
        else:
            out.append(Fraction(1 if i == tied[0] else 0))
    return out


@SYSTEM.action(
    "initiative",
    title="Initiative: Zugreihenfolge nach dem Willens-Wurf",
    summary=(
        "Wer gleichzeitig eingreift, macht einen Willens-Wurf; nach Augenzahl absteigend wird "
        "die Zugreihenfolge gebildet. Wer sich angeschlichen hat oder unvermittelt angreift, "
        "beginnt. Gleichstand: Wurf unter den Betroffenen wiederholen oder Spielleiter."
    ),
    source=f"{SOURCE} L30–L40",
    params=(
        ListParam(
            "fighters",
            "Charaktere",
            item=FIGHTER_FIELDS,
            item_label="Charakter",
            max_items=20,
            default_items=(
                {"name": "Alrik", "willenswurf": 9},
                {"name": "Bruna", "willenswurf": 7},
            ),
        ),
        ChoiceParam(
            "gleichstand",
            "Bei gleicher Augenzahl",
            choices=(
                ("wiederholen", "Wurf unter den Betroffenen wiederholen (Engine würfelt)"),
                ("spielleiter", "Spielleiter legt fest (vorerst Reihenfolge der Eingabe)"),
            ),
        ),
    ),
    assumptions=_assumptions("initiative"),
)
def initiative(p: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    rows: list[dict[str, Any]] = p["fighters"]
    check_unique_names(rows, "fighters", "Charakter")
    reroll = p["gleichstand"] == "wiederholen"
    fighters = [Fighter(i, r["name"], r["willenswurf"], r["zuerst"]) for i, r in enumerate(rows)]
    notes: list[str] = []
    order, tied = order_groups(
        fighters,
        lambda f: (f.zuerst, f.willenswurf),
        lambda group: _resolve(group, rng, notes) if reroll else group,
        descending=True,
    )
    ties = [
        {
            "willenswurf": key[1],
            "names": [f.name for f in resolved],
            "rerolls": {f.name: list(f.rerolls) for f in resolved if f.rerolls},
        }
        for key, resolved in tied
    ]
    chances = first_chances(rows, reroll)
    display = Display(
        headline="Initiative – Zugreihenfolge",
        outcome=f"Den ersten Zug hat {order[0].name}.",
    )
    display.table(
        "Zugreihenfolge (höchste Augenzahl zuerst)",
        ["Platz", "Charakter", "Willens-Wurf", "Beginnt (L34)", "Wiederholung"],
        [
            [
                str(place),
                f.name,
                number(f.willenswurf),
                "ja" if f.zuerst else "",
                " · ".join(str(v) for v in f.rerolls),
            ]
            for place, f in enumerate(order, start=1)
        ],
    )
    die_text = _reroll_die().notation()
    for tie in ties:
        names = ", ".join(tie["names"])
        how = f"wiederholt mit {die_text} (Annahme)" if reroll else "Spielleiter legt fest"
        notes.append(f"Gleiche Augenzahl {number(tie['willenswurf'])}: {names} – {how}.")
    if not reroll and ties:
        notes.append("Bis der Spielleiter entscheidet, gilt die Reihenfolge der Eingabe.")
    notes.append(
        "Der Initiativewurf ist nicht Teil eines Zuges; im ersten Zug stehen alle "
        f"{DATA.integer('zug.aktionswuerfel', 1, 20)} Aktionswürfel zur Verfügung (L18, L40)."
    )
    display.notes("Hinweise", notes)
    display.chances(
        "Chance, den ersten Zug zu haben (bei den eingegebenen Würfen)",
        [(r["name"], c) for r, c in zip(rows, chances, strict=True)],
    )
    return {
        "order": [
            {
                "place": place,
                "name": f.name,
                "willenswurf": f.willenswurf,
                "zuerst": f.zuerst,
                "rerolls": f.rerolls,
            }
            for place, f in enumerate(order, start=1)
        ],
        "ties": ties,
        "first_chances": {r["name"]: str(c) for r, c in zip(rows, chances, strict=True)},
        "display": display.to_dict(),
    }


# ---------------------------------------------------------------------------------------------
# Angriff und Wunden
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class WoundResult:
    wound: int
    critical: bool
    criticals: int
    incapacitated: bool
    health: int
    dies: bool


def wound_from(damage: int, p: dict[str, Any]) -> WoundResult:
    """L102–L110: damage + Schadensbonus − Rüstung; > Zähigkeit is critical; two criticals →
    kampfunfähig; Gesundheit 0 → death (unless Schicksalswürfel)."""
    wound = max(0, damage + p["schadensbonus"] - p["ruestung"])
    critical = wound > p["zaehigkeit"]
    criticals = p["kritische_wunden"] + (1 if critical else 0)
    health = p["gesundheit"] - wound
    limit = DATA.integer("wunden.kampfunfaehig_ab_kritischen", 1, 100)
    dead_at = DATA.integer("wunden.tod_ab_gesundheit", -1000, 1000)
    return WoundResult(wound, critical, criticals, criticals >= limit, health, health <= dead_at)


def wound_chances(expression: dice.Expression, p: dict[str, Any]) -> dict[str, Fraction]:
    """Exact odds over the damage dice, given a hit."""
    dist = dice.distribution(expression, field="schadenswuerfel", label="Schadenswürfel")
    out = {"wunde": Fraction(0), "kritisch": Fraction(0), "kampfunfaehig": Fraction(0)}
    out["tod"] = Fraction(0)
    expected = Fraction(0)
    for total, chance in dist.items():
        result = wound_from(total, p)
        expected += chance * result.wound
        out["wunde"] += chance if result.wound > 0 else 0
        out["kritisch"] += chance if result.critical else 0
        out["kampfunfaehig"] += chance if result.incapacitated else 0
        out["tod"] += chance if result.dies else 0
    out["erwartete_wunde"] = expected
    return out


@SYSTEM.action(
    "attack",
    title="Angriff und Wunde",
    summary=(
        "Angriffswurf (Gewandtheit im Nahkampf, Präzision im Fernkampf) gegen den "
        "Verteidigungswert; bei einem Treffer Schadenswürfel + Schadensbonus − Rüstung = Wunde, "
        "über der Zähigkeit eine kritische Wunde."
    ),
    source=f"{SOURCE} L50–L54, L100–L110",
    params=(
        ChoiceParam(
            "angriffsart",
            "Angriff",
            choices=(
                ("nahkampf", "Nahkampf (Gewandtheit)"),
                ("fernkampf", "Fernkampf (Präzision)"),
            ),
            group="Angriff",
        ),
        BoolParam(
            "ziel_verteidigt",
            "Ziel kann sich verteidigen",
            default=True,
            help="Nur dann braucht der Angriff einen Wurf gegen den Verteidigungswert (L52).",
            group="Angriff",
        ),
        IntParam(
            "angriffswurf",
            "Angriffswurf",
            default=12,
            minimum=0,
            maximum=999,
            help="gewürfelt",
            group="Angriff",
        ),
        IntParam(
            "verteidigungswert",
            "Verteidigungswert",
            default=10,
            minimum=0,
            maximum=999,
            group="Angriff",
        ),
        DiceParam("schadenswuerfel", "Schadenswürfel der Waffe", default="2W6", group="Schaden"),
        IntParam(
            "schadensbonus", "Schadensbonus", default=0, minimum=-50, maximum=50, group="Schaden"
        ),
        IntParam("ruestung", "Schutz der Rüstung", default=2, minimum=0, maximum=100, group="Ziel"),
        IntParam(
            "zaehigkeit", "Zähigkeit des Ziels", default=6, minimum=0, maximum=100, group="Ziel"
        ),
        IntParam(
            "gesundheit",
            "Aktuelle Gesundheit des Ziels",
            default=20,
            minimum=1,
            maximum=999,
            group="Ziel",
        ),
        IntParam(
            "kritische_wunden",
            "Bisherige kritische Wunden",
            default=0,
            minimum=0,
            maximum=1,
            help="Mit zwei kritischen Wunden ist das Ziel ohnehin kampfunfähig.",
            group="Ziel",
        ),
    ),
    assumptions=_assumptions("angriff"),
)
def attack(p: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    expression = dice.parse(p["schadenswuerfel"], "schadenswuerfel", "Schadenswürfel der Waffe")
    if expression.dice_count > MAX_DAMAGE_DICE or any(
        t.sides > MAX_DAMAGE_SIDES for t in expression.terms
    ):
        raise EngineError(
            f"Schadenswürfel der Waffe: höchstens {MAX_DAMAGE_DICE} Würfel mit je höchstens "
            f"{MAX_DAMAGE_SIDES} Seiten.",
            "schadenswuerfel",
        )
    attribute = DATA.text(f"angriff.attribut_{p['angriffsart']}")
    ties_hit = DATA.flag("angriff.erfolg_ab_gleichstand")
    if not p["ziel_verteidigt"]:
        hit = True
    elif ties_hit:
        hit = p["angriffswurf"] >= p["verteidigungswert"]
    else:
        hit = p["angriffswurf"] > p["verteidigungswert"]
    chances = wound_chances(expression, p)
    display_chances = [
        ("Wunde (Schaden über der Rüstung)", chances["wunde"]),
        ("kritische Wunde", chances["kritisch"]),
        ("danach kampfunfähig (zwei kritische Wunden)", chances["kampfunfaehig"]),
        ("Gesundheit sinkt auf 0 (Tod ohne Schicksalswürfel)", chances["tod"]),
    ]
    notes: list[str] = []
    rolled: dice.RollResult | None = None
    result: WoundResult | None = None
    if not hit:
        headline = "Kein Treffer"
        outcome = (
            f"Angriffswurf {number(p['angriffswurf'])} erreicht den Verteidigungswert "
            f"{number(p['verteidigungswert'])} nicht."
        )
    else:
        rolled = dice.roll(expression, rng)
        result = wound_from(rolled.total, p)
        if result.wound == 0:
            headline = "Treffer ohne Wunde"
            outcome = "Die Rüstung reduziert den Schaden auf 0 (L102)."
        else:
            headline = "Kritische Wunde" if result.critical else "Wunde"
            outcome = f"Wunde mit Schadenswert {number(result.wound)}"
            outcome += (
                f" – über der Zähigkeit {number(p['zaehigkeit'])}: kritische Wunde."
                if result.critical
                else "."
            )
            if result.incapacitated:
                outcome += " Zwei kritische Wunden: kampfunfähig (L110)."
            if result.dies:
                outcome += (
                    " Gesundheit 0: der Charakter stirbt, wenn kein Schicksalswürfel ihn "
                    "rettet (L104)."
                )
    display = Display(headline=headline, outcome=outcome)
    check = (
        "ohne Wurf (Ziel kann sich nicht verteidigen)"
        if not p["ziel_verteidigt"]
        else (f"{number(p['angriffswurf'])} gegen {number(p['verteidigungswert'])}")
    )
    display.table(
        "Angriffswurf (eingegeben)",
        ["Angriffs-Attribut", "Wurf gegen Verteidigungswert", "Ergebnis"],
        [[attribute, check, "Treffer" if hit else "kein Treffer"]],
    )
    if rolled is not None and result is not None:
        display.roll(
            "Schadenswurf",
            rolled,
            [("Schadensbonus", p["schadensbonus"]), ("Rüstung", -p["ruestung"])],
            total=rolled.total + p["schadensbonus"] - p["ruestung"],
        )
        display.table(
            "Ziel nach dem Treffer",
            ["Wunde", "kritisch", "kritische Wunden", "Gesundheit"],
            [
                [
                    number(result.wound),
                    "ja" if result.critical else "nein",
                    number(result.criticals),
                    number(result.health),
                ]
            ],
        )
        if result.critical:
            notes.append(
                "Mit einer kritischen Wunde muss der Charakter je Zug einen Aktionswürfel "
                "opfern, um irgendeine körperliche Aktivität durchzuführen (L109)."
            )
    display.chances("Bei einem Treffer (über die Schadenswürfel)", display_chances)
    notes.append(f"Erwartete Wunde bei einem Treffer: {decimal(chances['erwartete_wunde'])}.")
    notes.append(
        f"Modifikatoren auf den Schaden: Schadensbonus {signed(p['schadensbonus'])}, "
        f"Rüstung {signed(-p['ruestung'])}."
    )
    display.notes("Hinweise", notes)
    return {
        "treffer": hit,
        "angriffs_attribut": attribute,
        "schadenswurf": rolled.to_dict() if rolled is not None else None,
        "modifikatoren": [
            {"name": "Schadensbonus", "wert": p["schadensbonus"]},
            {"name": "Rüstung", "wert": -p["ruestung"]},
        ],
        "wunde": None
        if result is None
        else {
            "schadenswert": result.wound,
            "kritisch": result.critical,
            "kritische_wunden": result.criticals,
            "kampfunfaehig": result.incapacitated,
            "gesundheit": result.health,
            "tod": result.dies,
        },
        "chances": {k: str(v) for k, v in chances.items()},
        "display": display.to_dict(),
    }


@SYSTEM.action(
    "fumble",
    title="Patzer",
    summary="Der Text enthält keine Patzerregel.",
    source=f"{SOURCE} L1–L110",
    params=(),
)
def fumble(p: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    explanation = (
        "Das Kampfkapitel enthält keine Regel für Patzer oder kritische Fehlschläge; die Engine "
        "erfindet keine. Ein misslungener Angriffswurf richtet keinen Schaden an (L52)."
    )
    display = Display(headline="Keine Patzerregel im Text", outcome=explanation)
    return {"regel": None, "erklaerung": explanation, "display": display.to_dict()}
