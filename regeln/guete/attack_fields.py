"""Güte-System: the fields of the ``attack`` action, with their hints, and their checks.

Owns the attack's parameters (``ATTACK_PARAMS``: the attacker's probe and weapon, the target's
counter-attack, Abwehr and Parade, then the situations and options of ``modifiers.py``), whose
value each is for connected helpers (``subject``: the attacker's = actor, the target's =
target) and when each applies (``when``: no counter-attack, Abwehr or Parade against a wehrloses
Ziel, L103; no Parade while striking back, L279; the Güte only with a success), and
``check_attack``: the refusals in German for combinations the text rules out (options with the
wrong weapon or posture, L37–L65, L167–L363; kniend and liegend at once; a Parade in a
confrontation) – kept for callers that send a value the form would hide.
"""

from __future__ import annotations

from typing import Any

from engine import dice
from engine.errors import EngineError
from engine.params import BoolParam, ChoiceParam, DiceParam, IntParam, Param, TextParam
from regeln.guete.common import CONTRACT, DATA, LIFE_VALUES, table_row, table_rows
from regeln.guete.modifiers import MODIFIER_PARAMS, NOT_DEFENSELESS

GUETE_MIN, GUETE_MAX = -30, 30
MAX_DAMAGE_DICE = 10
MAX_DAMAGE_SIDES = 20

WEAPON_KINDS = (
    ("andere", "andere Nahkampfwaffe"),
    ("hammer", "1hand- oder 2hand-Hammer"),
    ("faustkampf", "Faustkampf"),
    ("stab", "Stab"),
    ("natuerlich", "Natürliche Waffen"),
    ("stangenwaffe", "Stangenwaffe"),
)
# when a field applies: a defenseless target neither strikes back nor parries (L103), who
# parries does not strike back (L279); each repeats the conditions of the field it depends on
CONFRONTATION = (("konfrontation", (True,)), *NOT_DEFENSELESS)
NO_CONFRONTATION = (("konfrontation", (False,)), *NOT_DEFENSELESS)
# held or holding, a fighter attacks only with a bite (L173, L175)
BITE_LABEL = "Angriff mit Natürliche Waffen - Biss"
COUNTER_BITE_LABEL = "Gegenangriff mit Natürliche Waffen - Biss"

ATTACK_PARAMS: tuple[Param, ...] = (
    TextParam(
        "angreifer",
        "Angreifer",
        default="Angreifer",
        max_length=30,
        group="Angriff",
        advanced=True,
        subject="actor",
    ),
    TextParam(
        "ziel",
        "Ziel",
        default="Ziel",
        max_length=30,
        group="Angriff",
        advanced=True,
        subject="target",
    ),
    BoolParam(
        "konfrontation",
        "Direkte Konfrontation",
        help="Beide greifen sich gleichzeitig an: die höhere Güte trifft, gleiche prallen ab.",
        group="Angriff",
        when=NOT_DEFENSELESS,
    ),
    BoolParam(
        "angriff_gelungen",
        "Angriff gelungen",
        default=True,
        help="FP auf die Waffenkategorie",
        group="Angriff",
        required=True,
        per_roll=True,
    ),
    IntParam(
        "angriff_guete",
        "Güte des Angriffs",
        default=3,
        minimum=GUETE_MIN,
        maximum=GUETE_MAX,
        group="Angriff",
        required_when=("angriff_gelungen", (True,)),
        when=(("angriff_gelungen", (True,)),),
        per_roll=True,
    ),
    DiceParam(
        "damage",
        "Schaden der Waffe",
        formerly=("schaden",),
        default="1W6+2",
        help="z. B. 1W6+2",
        group="Angriff",
        required=True,
        subject="actor",
    ),
    BoolParam(
        "waffe_zweihaendig",
        "Angreifer führt eine zweihändige Waffe",
        group="Angriff",
        advanced=True,
        subject="actor",
    ),
    ChoiceParam(
        "waffenart",
        "Waffenart des Angreifers",
        choices=WEAPON_KINDS,
        group="Angriff",
        advanced=True,
        subject="actor",
    ),
    BoolParam(
        "angriff_biss",
        BITE_LABEL,
        help="Wer festgehalten wird oder festhält, kann nur beißen.",
        group="Angriff",
        advanced=True,
    ),
    BoolParam(
        "gegner_gelungen",
        "Gegenangriff gelungen",
        default=True,
        help="Der gleichzeitige Angriff des Ziels.",
        group="Gegenangriff (direkte Konfrontation)",
        required_when=("konfrontation", (True,)),
        when=CONFRONTATION,
        per_roll=True,
    ),
    IntParam(
        "gegner_guete",
        "Güte des Gegenangriffs",
        default=2,
        minimum=GUETE_MIN,
        maximum=GUETE_MAX,
        group="Gegenangriff (direkte Konfrontation)",
        required_when=("konfrontation", (True,)),
        when=CONFRONTATION,
        per_roll=True,
    ),
    DiceParam(
        "gegner_schaden",
        "Schaden der Waffe des Ziels",
        default="1W6+2",
        group="Gegenangriff (direkte Konfrontation)",
        required_when=("konfrontation", (True,)),
        subject="target",
        when=CONFRONTATION,
    ),
    BoolParam(
        "gegner_biss",
        COUNTER_BITE_LABEL,
        help="Wer festgehalten wird oder festhält, kann nur beißen.",
        group="Gegenangriff (direkte Konfrontation)",
        advanced=True,
        when=CONFRONTATION,
    ),
    BoolParam(
        "abwehr_gelungen",
        "Abwehr gelungen",
        help="FP(Abwehren) dessen, der getroffen wird.",
        group="Abwehr des Ziels",
        when=NOT_DEFENSELESS,
        per_roll=True,
    ),
    IntParam(
        "abwehr_guete",
        "Güte der Abwehr",
        default=0,
        minimum=GUETE_MIN,
        maximum=GUETE_MAX,
        group="Abwehr des Ziels",
        required_when=("abwehr_gelungen", (True,)),
        when=(("abwehr_gelungen", (True,)), *NOT_DEFENSELESS),
        per_roll=True,
    ),
    BoolParam(
        "parade",
        "Ziel nutzt die Option Parade",
        group="Abwehr des Ziels",
        subject="target",
        when=NO_CONFRONTATION,
    ),
    IntParam(
        "parade_guete",
        "Güte der Paradeprobe (vor +5)",
        default=0,
        minimum=GUETE_MIN,
        maximum=GUETE_MAX,
        help="Die Güte der zu Rundenbeginn gewürfelten Angriffsprobe; der Helfer rechnet +5.",
        group="Abwehr des Ziels",
        required_when=("parade", (True,)),
        subject="target",
        when=(("parade", (True,)), *NO_CONFRONTATION),
    ),
    # the target's life values (the fight contract, kampf.werte: L21–L29): blank when unknown,
    # never 0 – the result writes only the known ones
    *(
        CONTRACT.field(
            name,
            f"{title} des Ziels",
            default=None,
            blank=True,
            help="Leer lassen, wenn unbekannt: dann wird dafür nichts eingetragen.",
            group="Lebenswerte des Ziels",
        )
        for name, title in LIFE_VALUES
    ),
    *MODIFIER_PARAMS,
)


def _error(message: str, path: str) -> EngineError:
    label = next((p.label for p in ATTACK_PARAMS if p.name == path), path)
    return EngineError(f"{label}: {message}", path)


def _check_only_bite(p: dict[str, Any]) -> None:
    """Held (L173) or holding (L175): no attack but Natürliche Waffen - Biss – the attacker's
    attack, or the target's counter-attack in a direct confrontation; refused in the rule's
    words, with the way out."""
    for row in table_rows("zustaende"):
        key = str(row["schluessel"])
        if not row.get("nur_biss") or not p[key]:
            continue
        rule = " ".join(str(row["regel"]).split())
        way_out = f"; {row['ausweg']}" if row.get("ausweg") else ""
        if row["wer"] == "angreifer" and not p["angriff_biss"]:
            raise _error(f"„{rule}“ – nur als Biss („{BITE_LABEL}“){way_out}.", key)
        # a bite with a Nahkampfoption: the text does not say (Annahme, read only here)
        option_bite = row["wer"] == "angreifer" and p["option"] != "keine"
        if option_bite and not DATA.flag("angriff.biss_mit_option"):
            raise _error(f"„{rule}“ – nur ein einfacher Biss, ohne Option.", "option")
        if row["wer"] == "ziel" and p["konfrontation"] and not p["gegner_biss"]:
            raise _error(
                f"„{rule}“ – Gegenangriff nur als Biss („{COUNTER_BITE_LABEL}“), sonst keine "
                "direkte Konfrontation.",
                key,
            )


def check_attack(p: dict[str, Any]) -> None:
    option = p["option"]
    for key in ("falsche_hand", "unsichtbares_ziel"):
        if p[key] and option != "keine":
            row = table_row("situationen", key)
            raise _error(f"„{row['situation']}“ erlaubt keine Option.", "option")
    for key in ("angreifer_kniend", "angreifer_liegend"):
        allowed = table_row("situationen", key).get("nur_optionen", [])
        if p[key] and option not in ("keine", *allowed):
            raise _error(
                "kniend und liegend sind nur Feuerangriff und improvisierte Waffen möglich.",
                "option",
            )
    if p["angreifer_kniend"] and p["angreifer_liegend"]:
        raise _error("der Angreifer kann nicht zugleich knien und liegen.", "angreifer_liegend")
    if p["ziel_kniend"] and p["ziel_liegend"]:
        raise _error("das Ziel kann nicht zugleich knien und liegen.", "ziel_liegend")
    if p["angreifer_liegend"] and p["waffe_zweihaendig"]:
        raise _error("liegend kann man nur einhändige Waffen nutzen.", "waffe_zweihaendig")
    if p["wehrlos"] and (p["parade"] or p["konfrontation"]):
        raise _error("ein wehrloses Ziel pariert nicht und schlägt nicht zurück.", "wehrlos")
    if p["parade"] and p["konfrontation"]:
        raise _error(
            "wer pariert, kann keinen Schaden anrichten, also nicht zurückschlagen.",
            "parade",
        )
    two_handed, kind = p["waffe_zweihaendig"], p["waffenart"]
    rules: dict[str, tuple[bool, str]] = {
        "gedaempft": (
            two_handed and kind != "stab",
            "gedämpfte Schläge nur mit einhändig geführten Waffen oder Stäben.",
        ),
        "rundumschlag": (
            not two_handed and kind != "stangenwaffe",
            "Rundumschlag nur mit 2hand- und Stangenwaffen.",
        ),
        "zweihaendige_hiebe": (two_handed, "zweihändige Hiebe nur mit 1hand-Waffen."),
        "zwei_waffen": (two_handed, "Kampf mit zwei Waffen nur mit einhändigen Waffen."),
        "festhalten": (
            kind not in ("faustkampf", "natuerlich"),
            "Festhalten nur mit Faustkampf oder Natürliche Waffen - Klauen.",
        ),
        "stachelwirbel": (
            kind != "natuerlich",
            "Stachelwirbel ist eine Probe auf Natürliche Waffen.",
        ),
        "sturzflug": (kind != "natuerlich", "Sturzflug ist eine FP(Natürliche Waffen)."),
    }
    if option in rules and rules[option][0]:
        raise _error(rules[option][1], "option")
    for key in ("damage", "gegner_schaden"):
        expression = dice.parse(p[key], key, key)
        if expression.dice_count > MAX_DAMAGE_DICE or any(
            t.sides > MAX_DAMAGE_SIDES for t in expression.terms
        ):
            raise _error(
                f"höchstens {MAX_DAMAGE_DICE} Würfel mit je höchstens {MAX_DAMAGE_SIDES} Seiten.",
                key,
            )
    _check_only_bite(p)
    if p["angriff_kritisch"]:
        if p["option"] != "rundumschlag":
            raise _error("gilt nur für den Rundumschlag.", "angriff_kritisch")
        if p["angriff_gelungen"]:
            raise _error(
                "ein kritischer Misserfolg ist ein misslungener Angriff – „Angriff gelungen“ "
                "abwählen.",
                "angriff_kritisch",
            )
