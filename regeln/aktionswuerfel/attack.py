"""Aktionswürfel-System: the ``attack`` action, Angriffswurf and wound or Kampfmanöver
(L50–L80, L100–L110).

Owns the attack fields with their hints for connected helpers, the hit (an entered Angriffswurf
against the Verteidigungswert, Gewandtheit in melee, Präzision at range), the roll of the
weapon's damage dice, the wound (damage + Schadensbonus − Rüstung; above the Zähigkeit a
critical wound, two criticals kampfunfähig, Gesundheit 0 death: ``wound_from``), the target's
new Gesundheit and kritische Wunden (``target_update``), the exact odds of each over the damage
dice (``wound_chances``) and the Kampfmanöver (L56–L80: a Kampfmanöverwurf on Athletik, on
success Festhalten, Niederwerfen or Schieben; ``manoeuvre``), which does no direct damage.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine import dice
from engine.display import Display, show_distribution
from engine.errors import EngineError
from engine.formatting import decimal, number, signed
from engine.params import BoolParam, ChoiceParam, DiceParam, IntParam, Param
from regeln.aktionswuerfel.common import (
    CONTRACT,
    DATA,
    SOURCE,
    SYSTEM,
    assumptions_for,
    entered_roll,
    reaches,
    sacrifice,
)

MAX_DAMAGE_DICE = 10
MAX_DAMAGE_SIDES = 20
MAX_CRITICALS = CONTRACT.value("kritische_wunden").maximum
# the rules of the fight contract the result names one by one (regeln/aktionswuerfel.yaml)
DEAD_RULE, DOWN_RULE = "tot", "kampfunfaehig"


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
    kampfunfähig (L110); Gesundheit 0 → death, unless Schicksalswürfel (L104) – each by its rule
    of the fight contract (``kampf.zustaende``)."""
    wound = max(0, damage + p["schadensbonus"] - p["armor"])
    critical = wound > p["zaehigkeit"]
    criticals = p["kritische_wunden"] + (1 if critical else 0)
    health = p["gesundheit"] - wound
    down = bool(CONTRACT.holds(DOWN_RULE, {"kritische_wunden": criticals}))
    dies = bool(CONTRACT.holds(DEAD_RULE, {"gesundheit": health}))
    return WoundResult(wound, critical, criticals, down, health, dies)


def wound_chances(expression: dice.Expression, p: dict[str, Any]) -> dict[str, Fraction]:
    """Exact odds over the damage dice, given a hit."""
    dist = dice.distribution(expression, field="schadenswuerfel", label="Schadenswürfel")
    out = {"wunde": Fraction(0), "kritisch": Fraction(0), "kampfunfaehig": Fraction(0)}
    out["tot"] = Fraction(0)
    expected = Fraction(0)
    for total, chance in dist.items():
        result = wound_from(total, p)
        expected += chance * result.wound
        out["wunde"] += chance if result.wound > 0 else 0
        out["kritisch"] += chance if result.critical else 0
        out["kampfunfaehig"] += chance if result.incapacitated else 0
        out["tot"] += chance if result.dies else 0
    out["expected_wunde"] = expected
    return out


def wound_distribution(
    expression: dice.Expression, p: dict[str, Any], hit: bool
) -> dict[int, Fraction]:
    """The Schadenswert of the wound this attack deals, before the damage roll (L102: damage +
    Schadensbonus − Rüstung, 0 when the armour takes it all); 0 without a hit (L52). Its mean is
    ``expected_wunde`` for a hit."""
    if not hit:
        return {0: Fraction(1)}
    dist = dice.distribution(expression, field="schadenswuerfel", label="Schadenswürfel")
    out: dict[int, Fraction] = {}
    for total, chance in dist.items():
        wound = wound_from(total, p).wound
        out[wound] = out.get(wound, Fraction(0)) + chance
    return out


SUCCESS_CAPTION = "Angriff (beim eingegebenen Wurf)"
SUCCESS_LABEL = "Angriff erfolgreich"
PER_ATTACK_CAPTION = "Schaden je Angriff (Schadenswert der Wunde; 0 = keine Wunde)"
PER_ATTACK_AXIS = "Schadenswert"
PER_ATTACK_MEAN = "Erwarteter Schaden je Angriff"


def _show_success(display: Display, success: bool) -> None:
    """L52: the entered Angriffswurf (or Kampfmanöverwurf) against the Verteidigungswert decides
    before any die of this helper is rolled – certain or impossible, but what „Was wäre wenn“
    shows across the Verteidigungswert."""
    display.chances(SUCCESS_CAPTION, [(SUCCESS_LABEL, Fraction(1 if success else 0))], before=True)


DAMAGE_KINDS = ("nahkampf", "fernkampf")
MANOEUVRES = (
    ("festhalten", "Festhalten"),
    ("niederwerfen", "Niederwerfen"),
    ("schieben", "Schieben"),
)
DEFENDS = (("ziel_verteidigt", (True,)),)
DAMAGES = (("angriffsart", DAMAGE_KINDS),)
MANOEUVRE = (("angriffsart", ("kampfmanoever",)),)
MAX_PUSH_SACRIFICE = DATA.integer("zug.aktionswuerfel", 1, 20) - 1  # the roll takes one (L22)


ATTACK_PARAMS: tuple[Param, ...] = (
    ChoiceParam(
        "angriffsart",
        "Angriff",
        choices=(
            ("nahkampf", "Nahkampf (Gewandtheit)"),
            ("fernkampf", "Fernkampf (Präzision)"),
            ("kampfmanoever", "Kampfmanöver (Athletik)"),
        ),
        help="Ein Kampfmanöver richtet keinen direkten Schaden an, es wirkt bei Erfolg.",
        group="Angriff",
    ),
    ChoiceParam(
        "manoever",
        "Kampfmanöver",
        choices=MANOEUVRES,
        group="Angriff",
        when=MANOEUVRE,
    ),
    IntParam(
        "schieben_opfer",
        "Schieben: weitere Aktionswürfel opfern",
        default=0,
        minimum=0,
        maximum=MAX_PUSH_SACRIFICE,
        help="Je geopfertem Aktionswürfel ein Feld weiter.",
        group="Angriff",
        when=(*MANOEUVRE, ("manoever", ("schieben",))),
    ),
    BoolParam(
        "ziel_verteidigt",
        "Ziel kann sich verteidigen",
        default=True,
        help="Nur dann braucht der Angriff einen Wurf gegen den Verteidigungswert.",
        group="Angriff",
    ),
    IntParam(
        "angriffswurf",
        "Angriffswurf",
        default=12,
        minimum=0,
        maximum=999,
        help="gewürfelt (beim Kampfmanöver: der Kampfmanöverwurf)",
        group="Angriff",
        required_when=("ziel_verteidigt", (True,)),
        when=DEFENDS,
        per_roll=True,
    ),
    IntParam(
        "verteidigungswert",
        "Verteidigungswert",
        default=10,
        minimum=0,
        maximum=999,
        group="Angriff",
        required_when=("ziel_verteidigt", (True,)),
        subject="target",
        when=DEFENDS,
    ),
    DiceParam(
        "schadenswuerfel",
        "Schadenswürfel der Waffe",
        default="2W6",
        group="Schaden",
        required_when=("angriffsart", DAMAGE_KINDS),
        subject="actor",
        when=DAMAGES,
    ),
    IntParam(
        "schadensbonus",
        "Schadensbonus",
        default=0,
        minimum=-50,
        maximum=50,
        group="Schaden",
        subject="actor",
        when=DAMAGES,
    ),
    IntParam(
        "armor",
        "Schutz der Rüstung",
        formerly=("ruestung",),
        default=2,
        minimum=0,
        maximum=100,
        group="Ziel",
        required_when=("angriffsart", DAMAGE_KINDS),
        subject="target",
        when=DAMAGES,
    ),
    IntParam(
        "zaehigkeit",
        "Zähigkeit des Ziels",
        default=6,
        minimum=0,
        maximum=100,
        group="Ziel",
        required_when=("angriffsart", DAMAGE_KINDS),
        subject="target",
        when=DAMAGES,
    ),
    CONTRACT.field(
        "gesundheit",
        "Aktuelle Gesundheit des Ziels",
        default=20,
        group="Ziel",
        required_when=("angriffsart", DAMAGE_KINDS),
        when=DAMAGES,
    ),
    CONTRACT.field(
        "kritische_wunden",
        "Bisherige kritische Wunden",
        default=0,
        help="Mit zwei kritischen Wunden ist das Ziel kampfunfähig.",
        group="Ziel",
        when=DAMAGES,
    ),
)


@SYSTEM.action(
    "attack",
    title="Angriff und Wunde",
    summary=(
        "Angriffswurf (Gewandtheit im Nahkampf, Präzision im Fernkampf) gegen den "
        "Verteidigungswert; bei einem Treffer Schadenswürfel + Schadensbonus − Rüstung = Wunde, "
        "über der Zähigkeit eine kritische Wunde. Oder ein Kampfmanöver (Athletik): Festhalten, "
        "Niederwerfen, Schieben."
    ),
    source=f"{SOURCE} L50–L80, L100–L110",
    params=ATTACK_PARAMS,
    assumptions=assumptions_for("angriff", "kampfmanoever"),
    what_if="verteidigungswert",
    compare=("angriffsart", "manoever"),
    result_formerly=(
        ("modifiers", ("modifikatoren",)),
        ("value", ("wert",)),
        ("hit", ("treffer",)),
        ("damage_roll", ("schadenswurf",)),
        ("kind", ("art",)),
        ("success", ("erfolg",)),
        ("tot", ("tod",)),
        ("expected_wunde", ("erwartete_wunde",)),
    ),
)
def attack(p: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    if p["angriffsart"] == "kampfmanoever":
        return manoeuvre(p)
    if CONTRACT.holds(DEAD_RULE, {"gesundheit": p["gesundheit"]}):
        raise EngineError(
            f"Aktuelle Gesundheit des Ziels: bei {number(p['gesundheit'])} ist das Ziel bereits "
            "tot – es sei denn, ein Schicksalswürfel rettet es.",
            "gesundheit",
        )
    expression = _damage_expression(p)
    attribute = DATA.text(f"angriff.attribut_{p['angriffsart']}")
    hit = _is_hit(p, "angriff.erfolg_ab_gleichstand")
    chances = wound_chances(expression, p)
    display_chances = [
        ("Wunde (Schaden über der Rüstung)", chances["wunde"]),
        ("kritische Wunde", chances["kritisch"]),
        ("danach kampfunfähig (zwei kritische Wunden)", chances["kampfunfaehig"]),
        ("Gesundheit sinkt auf 0 (Tod ohne Schicksalswürfel)", chances["tot"]),
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
    display.table(
        "Angriffswurf (eingegeben)",
        ["Angriffs-Attribut", "Wurf gegen Verteidigungswert", "Ergebnis"],
        [[attribute, _check_text(p), "Treffer" if hit else "kein Treffer"]],
    )
    if rolled is not None and result is not None:
        _show_wound(display, p, rolled, result, notes)
    _show_success(display, hit)
    display.chances("Bei einem Treffer (über die Schadenswürfel)", display_chances, before=True)
    show_distribution(
        display,
        PER_ATTACK_CAPTION,
        PER_ATTACK_AXIS,
        lambda: wound_distribution(expression, p, hit),
        size=_wound_size(expression, p) if hit else 1,
        bits=_outcome_bits(expression),
        mean_label=PER_ATTACK_MEAN,
    )
    notes.append(f"Erwartete Wunde bei einem Treffer: {decimal(chances['expected_wunde'])}.")
    notes.append(
        f"Modifikatoren auf den Schaden: Schadensbonus {signed(p['schadensbonus'])}, "
        f"Rüstung {signed(-p['armor'])}."
    )
    if CONTRACT.holds(DOWN_RULE, {"kritische_wunden": p["kritische_wunden"]}):
        notes.append(
            "Das Ziel ist mit zwei kritischen Wunden schon vor diesem Angriff kampfunfähig."
        )
    display.notes("Hinweise", notes)
    out: dict[str, Any] = {
        "hit": hit,
        "angriffs_attribut": attribute,
        "kampfmanoever": None,
        "damage_roll": rolled.to_dict() if rolled is not None else None,
        "modifiers": [
            {"name": "Schadensbonus", "value": p["schadensbonus"]},
            {"name": "Rüstung", "value": -p["armor"]},
        ],
        "wunde": _wound_dict(result),
        "chances": {k: str(v) for k, v in chances.items()},
        "display": display.to_dict(),
    }
    if result is not None:  # the target's Gesundheit and kritische Wunden after the hit
        out["target_update"] = {
            "gesundheit": result.health,
            "kritische_wunden": min(result.criticals, MAX_CRITICALS),
        }
        # the state after the hit, by the one state function (L104, L110)
        out["target_state"] = CONTRACT.state(out["target_update"])
    return out


def _check_text(p: dict[str, Any]) -> str:
    if not p["ziel_verteidigt"]:
        return "ohne Wurf (Ziel kann sich nicht verteidigen)"
    return f"{number(p['angriffswurf'])} gegen {number(p['verteidigungswert'])}"


def manoeuvre(p: dict[str, Any]) -> dict[str, Any]:
    """L56–L80: a Kampfmanöver – a special attack without direct damage, a Kampfmanöverwurf on
    Athletik (L61); on success Festhalten (L65–L71), Niederwerfen (L75–L76) or Schieben (L80)
    take effect. Against what it succeeds the text leaves open (Annahme
    kampfmanoever.gegen_verteidigungswert: like the Angriffswurf, L52)."""
    DATA.flag("kampfmanoever.gegen_verteidigungswert")
    attribute = DATA.text("angriff.attribut_kampfmanoever")
    name = dict(MANOEUVRES)[p["manoever"]]
    success = _is_hit(p, "angriff.erfolg_ab_gleichstand")
    fields = 0
    if success:
        headline = f"{name} gelungen"
        outcome, notes, fields = _manoeuvre_effect(p)
    else:
        headline = f"{name} misslungen"
        outcome = (
            f"Kampfmanöverwurf {number(p['angriffswurf'])} erreicht den Verteidigungswert "
            f"{number(p['verteidigungswert'])} nicht: die Effekte treten nicht in Kraft."
        )
        notes = []
        if p["manoever"] == "schieben" and p["schieben_opfer"]:
            notes.append(
                "Ohne Erfolg werden keine weiteren Aktionswürfel für das Schieben geopfert."
            )
    notes.append("Ein Kampfmanöver richtet keinen direkten Schaden an.")
    display = Display(headline=headline, outcome=outcome)
    display.table(
        "Kampfmanöverwurf (eingegeben)",
        ["Kampfmanöver", "Attribut", "Wurf gegen Verteidigungswert", "Ergebnis"],
        [[name, attribute, _check_text(p), "Erfolg" if success else "kein Erfolg"]],
    )
    display.notes("Hinweise", notes)
    _show_success(display, success)
    show_distribution(  # L58: no direct damage – 0, for „Vergleichen“ beside the attacks
        display,
        PER_ATTACK_CAPTION,
        PER_ATTACK_AXIS,
        lambda: {0: Fraction(1)},
        size=1,
        bits=1,
        mean_label=PER_ATTACK_MEAN,
    )
    return {
        "hit": success,
        "angriffs_attribut": attribute,
        "kampfmanoever": {
            "kind": p["manoever"],
            "success": success,
            "felder": fields if p["manoever"] == "schieben" and success else None,
            "geopferte_aktionswuerfel": p["schieben_opfer"]
            if p["manoever"] == "schieben" and success
            else 0,
        },
        "damage_roll": None,
        "modifiers": [],
        "wunde": None,
        "chances": {},
        "display": display.to_dict(),
    }


def _manoeuvre_effect(p: dict[str, Any]) -> tuple[str, list[str], int]:
    """What a successful manoeuvre does: outcome text, notes and (Schieben) the fields moved."""
    kind = p["manoever"]
    if kind == "festhalten":  # L65–L71
        both = sacrifice("festhalten")
        return (
            "Das Ziel gilt als festgehalten: es kann sich nicht normal bewegen.",
            [
                "Gelingt dem Festgehaltenen ein Stärke-Wurf gegen den Angreifer, kann er "
                "verbleibende Aktionswürfel verwenden, um sich zu bewegen; der Angreifer wird "
                "dabei um dieselbe Anzahl Felder in dieselbe Richtung bewegt.",
                "Gelingt ihm ein Athletik-Wurf, befreit er sich; der Angreifer kann seine "
                "Reaktion nutzen, um den Befreiungsversuch zu verhindern.",
                f"Solange das Ziel festgehalten wird, opfern beide je Zug {number(both)} "
                "Aktionswürfel, um Aktionen gegen Unbeteiligte durchzuführen.",
            ],
            0,
        )
    if kind == "niederwerfen":  # L75–L76, standing up: L48
        return (
            "Der Gegner liegt.",
            [
                f"Vom Liegen wieder ins Stehen: {number(sacrifice('liegen'))} Aktionswürfel "
                "opfern (über die Hocke je einer)."
            ],
            0,
        )
    # Schieben, L80
    fields = DATA.integer("kampfmanoever.schieben_felder", 0, 20)
    fields += DATA.integer("kampfmanoever.schieben_felder_je_opfer", 0, 20) * p["schieben_opfer"]
    notes = []
    if p["schieben_opfer"]:
        dice_text = (
            "einen weiteren Aktionswürfel"
            if p["schieben_opfer"] == 1
            else f"{number(p['schieben_opfer'])} weitere Aktionswürfel"
        )
        notes.append(f"Dafür opfert der Angreifer {dice_text} (je einer ein Feld).")
    field_word = "Feld" if fields == 1 else "Felder"
    return (
        f"Der Gegner wird {number(fields)} {field_word} weit in Angriffsrichtung bewegt.",
        notes,
        fields,
    )


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


def _wound_size(expression: dice.Expression, p: dict[str, Any]) -> int:
    """How many values the wound can take at most (for the work of its chart)."""
    top: int = expression.maximum() + p["schadensbonus"] - p["armor"]
    return max(1, min(top + 1, expression.maximum() - expression.minimum() + 1))


def _outcome_bits(expression: dice.Expression) -> int:
    outcomes: int = 1
    for term in expression.terms:
        outcomes *= term.sides**term.count
    return outcomes.bit_length()


def _is_hit(p: dict[str, Any], tie_key: str) -> bool:
    """L52: only a target that can defend needs the entered roll against the
    Verteidigungswert (a tie: Annahme ``tie_key``)."""
    if not p["ziel_verteidigt"]:
        return True
    entered_roll()
    return reaches(p["angriffswurf"], p["verteidigungswert"], tie_key)


def _hit_text(p: dict[str, Any], result: WoundResult) -> tuple[str, str]:
    """Headline and outcome of a hit (L102–L110)."""
    if result.wound == 0:
        headline = "Treffer ohne Wunde"
        outcome = "Die Rüstung reduziert den Schaden auf 0."
    else:
        headline = "Kritische Wunde" if result.critical else "Wunde"
        outcome = f"Wunde mit Schadenswert {number(result.wound)}"
        outcome += (
            f" – über der Zähigkeit {number(p['zaehigkeit'])}: kritische Wunde."
            if result.critical
            else "."
        )
        if result.incapacitated:
            outcome += " Zwei kritische Wunden: kampfunfähig."
        if result.dies:
            outcome += " Gesundheit 0: der Kämpfer stirbt, wenn kein Schicksalswürfel ihn rettet."
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
        [("Schadensbonus", p["schadensbonus"]), ("Rüstung", -p["armor"])],
        total=rolled.total + p["schadensbonus"] - p["armor"],
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
            "Mit einer kritischen Wunde muss der Kämpfer je Zug einen Aktionswürfel "
            "opfern, um irgendeine körperliche Aktivität durchzuführen."
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
        "tot": result.dies,
    }
