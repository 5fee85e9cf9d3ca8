"""Güte-System: the ``initiative`` action, which orders the entered Initiativwerte (L89).

The text names an Initiativwurf but no rule for it, so each fighter's rolled value is an input
(Annahme: the higher value begins, ties keep the input order). Owns the fighter fields, the
order, the ambush (who springs from it wins the first round's initiative) and the surprised
(no actions in the first round), and ``turns``, the acting order of one round for the
Kampfhelfer page (its labels name the ambush and the surprised in the first round).
"""

from __future__ import annotations

import random
from typing import Any

from engine.display import Display
from engine.errors import EngineError
from engine.formatting import number
from engine.ordering import check_unique_names
from engine.params import BoolParam, IntParam, ListParam, TextParam
from regeln.guete.common import DATA, SOURCE, SYSTEM, assumptions_for

INITIATIVE_FIELDS = (
    TextParam("name", "Name", max_length=30),
    IntParam(
        "wert",
        "Initiativwert",
        default=10,
        minimum=-99,
        maximum=999,
        help="am Tisch gewürfelt",
        required=True,
        per_roll=True,
    ),
    BoolParam("hinterhalt", "Springt aus dem Hinterhalt", help="Erste Runde: handelt zuerst."),
    BoolParam(
        "surprised",
        "Überrascht",
        formerly=("ueberrascht",),
        help="Erste Runde: keine Aktionen, Abwehr +1.",
    ),
)


def _turn(place: int, row: dict[str, Any], first: bool) -> dict[str, str]:
    """One entry of the round's acting order; in the first round the label says who springs
    from the ambush and who, surprised, takes no action (L89)."""
    label = f"Platz {place}"
    if first and row["hinterhalt"]:
        label += " (Hinterhalt)"
    if first and row["surprised"]:
        label += " (überrascht: in Runde 1 keine Aktion)"
    return {"name": row["name"], "label": label}


@SYSTEM.action(
    "initiative",
    title="Initiative (eingegebene Werte ordnen)",
    summary=(
        "Der Text nennt einen Initiativwurf, enthält aber keine Regel dafür: Ihr gebt den "
        "gewürfelten Wert jedes Kämpfers ein, der Helfer ordnet. Wer aus dem Hinterhalt springt, "
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
            required=True,
        ),
        BoolParam("erste_runde", "Erste Kampfrunde", default=True),
    ),
    assumptions=assumptions_for("initiative"),
    result_formerly=(("surprised", ("ueberrascht",)),),
    rolls_dice=False,  # nothing is rolled: the form has no Wurfnummer
)
def initiative(p: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    rows: list[dict[str, Any]] = p["fighters"]
    check_unique_names(rows)
    for index, row in enumerate(rows):
        if row["hinterhalt"] and row["surprised"]:
            raise EngineError(
                f"Kämpfer {index + 1} – Überrascht: wer aus dem Hinterhalt springt, ist nicht "
                "überrascht.",
                f"fighters.{index}.surprised",
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
        if first and row["surprised"]:
            note.append("überrascht: keine Aktionen, Abwehr +1")
        table.append([str(place), row["name"], number(row["wert"]), "; ".join(note)])
    display.table("Reihenfolge", ["Platz", "Kämpfer", "Initiativwert", "Erste Runde"], table)
    notes = []
    if ties:
        DATA.text("initiative.gleichstand")
    notes += [f"Gleichstand: {', '.join(t)} – Reihenfolge der Eingabe (Annahme)." for t in ties]
    if first and any(r["hinterhalt"] for r in rows):
        notes.append("In der ersten Kampfrunde entfällt der Initiativwurf für den Hinterhalt.")
    display.notes("Hinweise", notes)
    return {
        "order": [
            {
                "place": place,
                "name": rows[i]["name"],
                "wert": rows[i]["wert"],
                "hinterhalt": rows[i]["hinterhalt"],
                "surprised": rows[i]["surprised"],
                "handelt_in_runde_1": not (first and rows[i]["surprised"]),
            }
            for place, i in enumerate(order, start=1)
        ],
        "ties": ties,
        "turns": [_turn(place, rows[i], first) for place, i in enumerate(order, start=1)],
        "display": display.to_dict(),
    }
