"""DSA 4.1 Hausregeln: the ``defense`` action – Waffenparade, Schildparade, Gezieltes Ausweichen.

Owns Abschnitt "Mögliche Abwehraktionen..." (the three values: PA-Basis + Waffen-PA − eBE/2,
PA-Basis + Schild-PA + Bonus aus SF − eBE/2, PA-Basis + Bonus aus SF − BE and +3), the second
defense (+4, not for Schild- and Stabkämpfer; Abschnitt "Auswahl von durchzuführenden
Aktionen"), the half PA/AW after a lucky or critical attack and the defense outcomes of Abschnitt
"Crits und Patzer" (a critical defense costs no action), Finte and Meisterparade X (Abschnitt
"Geläufigste aktive Kampfsonderfertigkeiten").

Connected helpers – whose values these are: the defender's own values (Parade-Basis, Waffen-
and Schild-PA, Bonus aus SF, SF Ausweichen, eBE, BE, own wounds, Schild-/Stabkämpfer) are
``subject="target"``, not ``"actor"``. In these rules a defense is never an action in the
defender's own Initiativphase: „Ausnahmen sind hier Paraden und Ausweichen, die immer als
Reaktion erfolgen“ (Abschnitt "Ablauf einer Kampfrunde"). So when a game master rolls a
defense, the fighter „am Zug“ is the attacker and the defender is his target; the attack's
follow-up opens this helper for that target, and the target's wounds after „Schaden und
Wunden“ (the same field ``wunden``) arrive here too. The kind of defense stays the situation:
the fight keeps a fighter's values by name, and ``art`` is the attack's Attacke/Schuss there
(a defender's „Waffenparade“ would land in his next attack). The halved value after a
glücklicher/kritischer Angriff, the attacker's Finte, a failed manoeuvre's „nächste Probe“ and
the hit being parried (its TP, bonus TP, crit, Gezielter Stich – the attack's follow-up brings
them) are this roll's only (``per_roll``); the Erschwernisse and a Meisterparade are the
situation. Fields that count for one kind of defense only have a ``when`` (Waffen-PA:
Waffenparade; Schild-PA: Schildparade; Bonus aus SF: Schildparade and Ausweichen; eBE: the
parades; BE and SF Ausweichen: Ausweichen; Meisterparade: the parades; Schild-/Stabkämpfer: a
second defense; the crit of the hit: after a glücklicher or kritischer Angriff); the checks
still refuse them from the API. A failed defense (also an unglückliche or gepatzte) continues
with „Schaden und Wunden“ for the defender, with the hit it carried; a Patzer has no follow-up
of its own (the confirmation is rolled here; the house rules have no Patzer table).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine.display import Display
from engine.errors import EngineError
from engine.formatting import number, signed
from engine.params import BoolParam, ChoiceParam, DiceParam, IntParam
from regeln.dsa.common import (
    CITE_ABWEHR,
    CITE_AUSWAHL,
    CITE_CRITS,
    CITE_SF,
    DATA,
    GELUNGEN,
    GLUECKLICH,
    KRITISCH,
    MISSLUNGEN,
    PATZER,
    SYSTEM,
    UNGLUECKLICH,
    assumptions_for,
    combination,
    halve,
    modifier_rows,
    probe_chances,
    probe_roll_display,
    roll_probe,
    wound_penalty,
)

DEFENSE_KINDS = (
    ("waffenparade", "Waffenparade"),
    ("schildparade", "Schildparade"),
    ("ausweichen", "Gezieltes Ausweichen"),
)
DEFENSE_NAMES = dict(DEFENSE_KINDS)

DEFENSE_PARAMS = (
    ChoiceParam("kind", "Abwehraktion", formerly=("art",), choices=DEFENSE_KINDS, group="Abwehr"),
    IntParam(
        "pa_basis",
        "Parade-Basis",
        default=8,
        minimum=0,
        maximum=30,
        group="Abwehr",
        required=True,
        subject="target",
    ),
    IntParam(
        "waffe_pa",
        "Waffen-PA",
        default=0,
        minimum=-10,
        maximum=15,
        group="Abwehr",
        subject="target",
        when=(("kind", ("waffenparade",)),),
    ),
    IntParam(
        "schild_pa",
        "Schild-PA",
        default=0,
        minimum=-10,
        maximum=15,
        group="Abwehr",
        subject="target",
        when=(("kind", ("schildparade",)),),
    ),
    IntParam(
        "sf_bonus",
        "Bonus aus SF",
        default=0,
        minimum=0,
        maximum=15,
        help="Schildparade: Bonus aus Schild-SF; Gezieltes Ausweichen: Bonus aus Ausweichen I–III.",
        group="Abwehr",
        subject="target",
        when=(("kind", ("schildparade", "ausweichen")),),
    ),
    BoolParam(
        "sf_ausweichen",
        "SF Ausweichen I oder höher",
        help="Gezieltes Ausweichen ist nur damit möglich.",
        group="Abwehr",
        subject="target",
        when=(("kind", ("ausweichen",)),),
    ),
    IntParam(
        "ebe",
        "eBE der Waffe",
        default=0,
        minimum=0,
        maximum=20,
        help="Waffen- und Schildparade: − eBE/2 (auch bei der Schildparade die eBE der Waffe).",
        group="Abwehr",
        subject="target",
        when=(("kind", ("waffenparade", "schildparade")),),
    ),
    IntParam(
        "be",
        "BE",
        default=0,
        minimum=0,
        maximum=20,
        help="Gezieltes Ausweichen: − BE (volle BE).",
        group="Abwehr",
        subject="target",
        when=(("kind", ("ausweichen",)),),
    ),
    IntParam(
        "erschwernis",
        "Erschwernis",
        default=0,
        minimum=-20,
        maximum=30,
        help="Nach Meisterentscheid, + = schwerer (z. B. sehr großer Gegner), − = leichter.",
        group="Erschwernisse",
    ),
    IntParam(
        "wunden",
        "Eigene Wunden",
        default=0,
        minimum=0,
        maximum=10,
        help="Je +2.",
        group="Erschwernisse",
        subject="target",
    ),
    IntParam(
        "nachwirkung",
        "Erschwernis aus Fehlschlag",
        default=0,
        minimum=0,
        maximum=30,
        help="Aus einem misslungenen Manöver zuvor (z. B. Wuchtschlag, Meisterparade).",
        group="Erschwernisse",
        per_roll=True,
    ),
    BoolParam(
        "zweite_abwehr",
        "Zweite Abwehraktion in dieser KR",
        help="Die zweite Abwehraktion ist um 4 erschwert (Ausnahme Schild- und Stabkämpfer).",
        group="Erschwernisse",
        advanced=True,
    ),
    BoolParam(
        "schild_oder_stab",
        "Schild- oder Stabkämpfer",
        help="Keine Erschwernis für die zweite Abwehr.",
        group="Erschwernisse",
        advanced=True,
        subject="target",
        when=(("zweite_abwehr", (True,)),),
    ),
    BoolParam(
        "halbe_abwehr",
        "Angriff war glücklich oder kritisch",
        help="Der Verteidiger hat nur halbe PA/AW zur Reaktion.",
        group="Erschwernisse",
        per_roll=True,
    ),
    IntParam(
        "finte",
        "Finte des Angreifers (X)",
        default=0,
        minimum=0,
        maximum=20,
        help="Eine getroffene Finte erschwert die Reaktion um X.",
        group="Sonderfertigkeiten",
        advanced=True,
        per_roll=True,
    ),
    IntParam(
        "meisterparade",
        "Meisterparade (X)",
        default=0,
        minimum=0,
        maximum=20,
        help=(
            "Parade um X erschwert; gelingt sie, ist der nächste Angriff / die nächste Parade "
            "um X erleichtert, sonst die nächste Probe um X erschwert."
        ),
        group="Sonderfertigkeiten",
        advanced=True,
        when=(("kind", ("waffenparade", "schildparade")),),
    ),
    # the hit being parried, as the attack's follow-up brings it: a failed defense continues
    # with it to „Schaden und Wunden“ (the damage helper's fields of the same names)
    DiceParam(
        "damage",
        "TP des Angriffs",
        formerly=("tp",),
        default="1W6+4",
        help="Die Trefferpunkte des abzuwehrenden Angriffs; misslingt die Abwehr, zählen sie.",
        group="Treffer, falls die Abwehr misslingt",
        per_roll=True,
    ),
    IntParam(
        "zusatz",
        "Zusätzliche TP des Angriffs",
        default=0,
        minimum=-20,
        maximum=40,
        help="Z. B. Wuchtschlag X oder Sturmangriff 4 + GS/2.",
        group="Treffer, falls die Abwehr misslingt",
        per_roll=True,
    ),
    BoolParam(
        "kritisch",
        "Kritischer Angriff",
        help="Der Schaden verdoppelt sich.",
        group="Treffer, falls die Abwehr misslingt",
        when=(("halbe_abwehr", (True,)),),
        per_roll=True,
    ),
    BoolParam(
        "gezielter_stich",
        "Gezielter Stich",
        help="Ignoriert RS, richtet eine automatische Wunde an, Wundschwelle um 2 gesenkt.",
        group="Treffer, falls die Abwehr misslingt",
        per_roll=True,
    ),
)

DEFENSE_TEXT = {
    KRITISCH: "Kritische Abwehr (bestätigte 1): immer gelungen und verbraucht keine Aktion – es "
    "kann in dieser KR nochmals pariert/ausgewichen werden.",
    GLUECKLICH: "Glückliche Abwehr (unbestätigte 1): immer gelungen.",
    GELUNGEN: "Abwehr gelungen.",
    MISSLUNGEN: "Abwehr misslungen.",
    UNGLUECKLICH: "Unglückliche Abwehr (unbestätigte 20): immer misslungen.",
    PATZER: "Gepatzte Abwehr (bestätigte 20): immer misslungen – es kommt zu einem Missgeschick "
    "nach Meisterentscheid (keine Patzertabelle in den Hausregeln).",
}
DEFENSE_CHANCE_LABELS = (
    (KRITISCH, "kritisch (bestätigte 1, kostet keine Aktion)"),
    (GLUECKLICH, "glücklich (unbestätigte 1)"),
    (GELUNGEN, "gelungen"),
    (MISSLUNGEN, "misslungen"),
    (UNGLUECKLICH, "unglücklich (unbestätigte 20)"),
    (PATZER, "Patzer (bestätigte 20)"),
)
DEFENSE_SUCCESS = (KRITISCH, GLUECKLICH, GELUNGEN)


@dataclass
class DefenseSetup:
    base: list[tuple[str, int]]
    value: int
    halved: int | None
    modifiers: list[tuple[str, int]]
    target: int


def _defense_setup(params: dict[str, Any]) -> DefenseSetup:
    kind = params["kind"]
    if kind == "ausweichen" and not params["sf_ausweichen"]:
        raise EngineError(
            "SF Ausweichen I oder höher: Gezieltes Ausweichen ist nur mit dieser "
            "Sonderfertigkeit möglich (sonst ungezielt ausweichen).",
            "sf_ausweichen",
        )
    if kind != "schildparade" and params["schild_pa"]:
        raise EngineError("Schild-PA: zählt nur bei der Schildparade.", "schild_pa")
    if kind != "waffenparade" and params["waffe_pa"]:
        raise EngineError("Waffen-PA: zählt nur bei der Waffenparade.", "waffe_pa")
    if kind == "waffenparade" and params["sf_bonus"]:
        raise EngineError(
            "Bonus aus SF: zählt nur bei Schildparade und Gezieltem Ausweichen.", "sf_bonus"
        )
    if kind == "ausweichen" and params["meisterparade"]:
        raise EngineError("Meisterparade (X): gilt nur für Paraden.", "meisterparade")
    if kind == "ausweichen" and params["ebe"]:
        raise EngineError("eBE der Waffe: beim Gezielten Ausweichen zählt die BE (Feld BE).", "ebe")
    if kind != "ausweichen" and params["be"]:
        raise EngineError("BE: zählt nur beim Gezielten Ausweichen (sonst eBE der Waffe).", "be")
    if params["kritisch"] and not params["halbe_abwehr"]:
        raise EngineError(
            "Kritischer Angriff: nach einem kritischen Angriff hat der Verteidiger nur halbe "
            "PA/AW – bitte auch „Angriff war glücklich oder kritisch“ ankreuzen.",
            "kritisch",
        )

    base: list[tuple[str, int]] = [("Parade-Basis", params["pa_basis"])]
    if kind == "waffenparade":
        base.append(("Waffen-PA", params["waffe_pa"]))
        base.append((f"− eBE/2 (eBE {params['ebe']})", -halve(params["ebe"], "ebe")))
    elif kind == "schildparade":
        base.append(("Schild-PA", params["schild_pa"]))
        base.append(("Bonus aus SF", params["sf_bonus"]))
        base.append((f"− eBE/2 (eBE der Waffe {params['ebe']})", -halve(params["ebe"], "ebe")))
    else:
        base.append(("Bonus aus SF", params["sf_bonus"]))
        base.append(("− BE", -params["be"]))
    value = sum(v for _, v in base)
    halved: int | None = None
    if params["halbe_abwehr"]:
        halved = halve(value, "abwehr")
    mods: list[tuple[str, int]] = []
    if kind == "ausweichen":
        mods.append(("Gezieltes Ausweichen", DATA.integer("abwehr.ausweichen_erschwernis", 0, 20)))
    if params["erschwernis"]:
        mods.append(("Erschwernis nach Meisterentscheid", params["erschwernis"]))
    if params["wunden"]:
        mods.append((f"Wunden × {params['wunden']}", wound_penalty() * params["wunden"]))
    if params["nachwirkung"]:
        mods.append(("Fehlschlag eines Manövers zuvor", params["nachwirkung"]))
    if params["zweite_abwehr"] and params["schild_oder_stab"]:
        DATA.assume("abwehr.zweite_abwehr_ausnahme")  # who counts as Schild- or Stabkämpfer
    elif params["zweite_abwehr"]:
        mods.append(("Zweite Abwehraktion", combination("zwei_abwehr")))
    if params["finte"]:
        mods.append(("Finte des Angreifers", params["finte"]))
    if params["meisterparade"]:
        mods.append(("Meisterparade X", params["meisterparade"]))
    start = value if halved is None else halved
    target = start - sum(v for _, v in mods)
    return DefenseSetup(base, value, halved, mods, target)


def follow_ups(params: dict[str, Any], success: bool) -> list[dict[str, Any]]:
    """A failed defense: the hit lands on the defender – „Schaden und Wunden“ with the hit this
    defense carried (the attack's TP, bonus TP, crit, Gezielter Stich). The defender stays the
    target there (a defense is a reaction in the attacker's phase); his RS, KO, LeP and wounds
    are the fight's, so none of them is passed on. Nothing is left to decide – the hit that was
    not parried does its damage – so the follow-up is ``then``: a page that rolled this defense
    in one tap rolls the damage right after it, when it knows every value."""
    if success:
        return []
    hit = {key: params[key] for key in ("damage", "zusatz", "kritisch", "gezielter_stich")}
    return [{"action": "damage", "title": "Schaden am Verteidiger", "params": hit, "then": True}]


@SYSTEM.action(
    "defense",
    title="Parade oder Ausweichen",
    summary=(
        "Berechnet den Wert der Waffenparade (PA-Basis + Waffen-PA − eBE/2), der Schildparade "
        "(PA-Basis + Schild-PA + SF − eBE/2) oder des Gezielten Ausweichens (PA-Basis + SF − BE, "
        "erschwert um 3) und würfelt 1W20 darunter, mit Bestätigung einer 1 oder 20."
    ),
    source=f"{CITE_ABWEHR}; {CITE_AUSWAHL}; {CITE_CRITS}; {CITE_SF}",
    params=DEFENSE_PARAMS,
    result_formerly=(("kind", ("art",)),),
    assumptions=assumptions_for(
        "probe.bestaetigung", "halbieren.ebe", "halbieren.abwehr", "abwehr"
    ),
    what_if="finte",  # the attacker's Finte X: the defense's chances across it
    compare=("kind",),
)
def defense(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    setup = _defense_setup(params)
    probe = roll_probe(rng, setup.target)
    outcome = probe.outcome
    success = outcome in DEFENSE_SUCCESS
    chances = probe_chances(setup.target)
    p_success = sum((chances[k] for k in DEFENSE_SUCCESS), Fraction(0))
    kind_name = DEFENSE_NAMES[params["kind"]]
    x = params["meisterparade"]
    next_modifier = 0
    if x:
        next_modifier = -x if success else x

    display = Display(
        headline=f"{kind_name} – 1W20 gegen {number(setup.target)}",
        outcome=DEFENSE_TEXT[outcome],
    )
    rows = [[name, number(v) if i == 0 else signed(v)] for i, (name, v) in enumerate(setup.base)]
    rows.append([f"Abwehrwert ({kind_name})", number(setup.value)])
    if setup.halved is not None:
        rows.append(["Halbe PA/AW (glücklicher/kritischer Angriff)", number(setup.halved)])
    rows += [[name, f"{signed(v)} (Erschwernis)"] for name, v in setup.modifiers]
    rows.append(["Wert für die Probe", number(setup.target)])
    display.table("Abwehrwert (+ = Erschwernis)", ["Posten", "Wert"], rows)
    probe_roll_display(display, kind_name, probe, setup.target, "abwehr")
    notes = []
    if x:
        if success:
            notes.append(
                f"Meisterparade gelungen: der nächste Angriff / die nächste Parade ist um {x} "
                f"erleichtert ({signed(-x)})."
            )
        else:
            notes.append(
                f"Meisterparade misslungen: die nächste Probe ist um {signed(x)} erschwert."
            )
    display.notes("Hinweise", notes)
    items = [("Abwehr gelingt", p_success)]
    items += [(label, chances[key]) for key, label in DEFENSE_CHANCE_LABELS]
    display.chances("Wahrscheinlichkeiten", items, before=True)
    chance_out = {key: str(chances[key]) for key, _ in DEFENSE_CHANCE_LABELS}
    chance_out["abwehr_gelingt"] = str(p_success)
    return {
        "kind": params["kind"],
        "value_parts": modifier_rows(setup.base),
        "value": setup.value,
        "halved_value": setup.halved,
        "modifiers": modifier_rows(setup.modifiers),
        "erschwernis": sum(v for _, v in setup.modifiers),
        "target": setup.target,
        "roll": probe.first.to_dict(),
        "confirmation": None if probe.confirm is None else probe.confirm.to_dict(),
        "outcome": outcome,
        "success": success,
        "costs_action": outcome != KRITISCH,
        "next_probe_modifier": next_modifier,
        "chances": chance_out,
        "follow_ups": follow_ups(params, success),
        "display": display.to_dict(),
    }
