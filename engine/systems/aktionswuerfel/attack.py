"""Aktionswürfel-System: the ``attack`` action, Angriffswurf and wound (L50–L54, L100–L110).

Owns the attack fields, the hit (an entered Angriffswurf against the Verteidigungswert,
Gewandtheit in melee, Präzision at range), the roll of the weapon's damage dice, the wound
(damage + Schadensbonus − Rüstung; above the Zähigkeit a critical wound, two criticals
kampfunfähig, Gesundheit 0 death: ``wound_from``) and the exact odds of each over the damage
dice (``wound_chances``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine import dice
from engine.display import Display
from engine.errors import EngineError
from engine.formatting import decimal, number, signed
from engine.params import BoolParam, ChoiceParam, DiceParam, IntParam
from engine.systems.aktionswuerfel.common import DATA, SOURCE, SYSTEM, assumptions_for

MAX_DAMAGE_DICE = 10
MAX_DAMAGE_SIDES = 20


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
            required_when=("ziel_verteidigt", (True,)),
        ),
        IntParam(
            "verteidigungswert",
            "Verteidigungswert",
            default=10,
            minimum=0,
            maximum=999,
            group="Angriff",
            required_when=("ziel_verteidigt", (True,)),
        ),
        DiceParam(
            "schadenswuerfel",
            "Schadenswürfel der Waffe",
            default="2W6",
            group="Schaden",
            required=True,
        ),
        IntParam(
            "schadensbonus", "Schadensbonus", default=0, minimum=-50, maximum=50, group="Schaden"
        ),
        IntParam(
            "ruestung",
            "Schutz der Rüstung",
            default=2,
            minimum=0,
            maximum=100,
            group="Ziel",
            required=True,
        ),
        IntParam(
            "zaehigkeit",
            "Zähigkeit des Ziels",
            default=6,
            minimum=0,
            maximum=100,
            group="Ziel",
            required=True,
        ),
        IntParam(
            "gesundheit",
            "Aktuelle Gesundheit des Ziels",
            default=20,
            minimum=1,
            maximum=999,
            group="Ziel",
            required=True,
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
    assumptions=assumptions_for("angriff"),
)
def attack(p: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    expression = _damage_expression(p)
    attribute = DATA.text(f"angriff.attribut_{p['angriffsart']}")
    hit = _is_hit(p)
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
        headline, outcome = _hit_text(p, result)
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
        _show_wound(display, p, rolled, result, notes)
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
        "wunde": _wound_dict(result),
        "chances": {k: str(v) for k, v in chances.items()},
        "display": display.to_dict(),
    }


def _damage_expression(p: dict[str, Any]) -> dice.Expression:
    """The weapon's damage dice, within the limits of the exact odds."""
    expression = dice.parse(p["schadenswuerfel"], "schadenswuerfel", "Schadenswürfel der Waffe")
    if expression.dice_count > MAX_DAMAGE_DICE or any(
        t.sides > MAX_DAMAGE_SIDES for t in expression.terms
    ):
        raise EngineError(
            f"Schadenswürfel der Waffe: höchstens {MAX_DAMAGE_DICE} Würfel mit je höchstens "
            f"{MAX_DAMAGE_SIDES} Seiten.",
            "schadenswuerfel",
        )
    return expression


def _is_hit(p: dict[str, Any]) -> bool:
    """L52: only a target that can defend needs the Angriffswurf against the
    Verteidigungswert (reaching it counts: Annahme angriff.erfolg_ab_gleichstand)."""
    ties_hit = DATA.flag("angriff.erfolg_ab_gleichstand")
    if not p["ziel_verteidigt"]:
        hit = True
    elif ties_hit:
        hit = p["angriffswurf"] >= p["verteidigungswert"]
    else:
        hit = p["angriffswurf"] > p["verteidigungswert"]
    return hit


def _hit_text(p: dict[str, Any], result: WoundResult) -> tuple[str, str]:
    """Headline and outcome of a hit (L102–L110)."""
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
                " Gesundheit 0: der Charakter stirbt, wenn kein Schicksalswürfel ihn rettet (L104)."
            )
    return headline, outcome


def _show_wound(
    display: Display,
    p: dict[str, Any],
    rolled: dice.RollResult,
    result: WoundResult,
    notes: list[str],
) -> None:
    """The damage roll and the target after the hit; a critical wound's note (L109)."""
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


def _wound_dict(result: WoundResult | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {
        "schadenswert": result.wound,
        "kritisch": result.critical,
        "kritische_wunden": result.criticals,
        "kampfunfaehig": result.incapacitated,
        "gesundheit": result.health,
        "tod": result.dies,
    }
