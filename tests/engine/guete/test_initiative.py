"""Güte-System: the ``initiative`` action (``initiative.py``)."""

from __future__ import annotations

import json

from engine import api
from harness.support import assumed
from tests.engine.guete.helpers import annahme, error, run


def test_the_initiative_values_are_rolled_for_one_round() -> None:
    """002_51e59e824768e9e9.txt L89: „In der ersten Kampfrunde entfällt der Initiativwurf“ –
    a roll each round: the values typed (help „am Tisch gewürfelt“) are ``per_roll`` and are
    cleared after the order is made, the next round's order never takes the last ones."""
    schema = {f["name"]: f for f in api.describe("guete", "initiative")["params"]}
    rows = {f["name"]: f for f in schema["fighters"]["item"]}
    assert rows["wert"]["per_roll"] is True
    assert not [n for n, x in rows.items() if x.get("per_roll") and n != "wert"]


def test_initiative_orders_inputs_and_says_no_rule() -> None:
    """002_51e59e824768e9e9.txt L89: the Initiativwurf has no rule in the text; ambushers win
    the first round; ties keep the input order (Annahme)."""
    r = run(
        "initiative",
        {
            "fighters": [
                {"name": "A", "wert": 5},
                {"name": "B", "wert": 7},
                {"name": "C", "wert": 5},
                {"name": "D", "wert": 1, "hinterhalt": True},
            ]
        },
    )
    assert [o["name"] for o in r["order"]] == ["D", "B", "A", "C"]
    assert r["ties"] == [["A", "C"]]
    notes = json.dumps(r["display"], ensure_ascii=False)
    assert "enthält aber keine Regel" in notes
    r = run(
        "initiative",
        {
            "fighters": [{"name": "A", "wert": 5}, {"name": "D", "wert": 1, "hinterhalt": True}],
            "erste_runde": False,
        },
    )
    assert [o["name"] for o in r["order"]] == ["A", "D"]


def test_initiative_surprised_cannot_act() -> None:
    """002_51e59e824768e9e9.txt L89: the surprised take no actions in the first round."""
    r = run(
        "initiative",
        {"fighters": [{"name": "A", "wert": 5, "surprised": True}, {"name": "B", "wert": 3}]},
    )
    assert r["order"][0]["handelt_in_runde_1"] is False
    err = error("initiative", {"fighters": [{"name": "A", "wert": 10}, {"name": "a", "wert": 10}]})
    assert err["field"] == "fighters.1.name" and "Name" in err["message"]


def test_turns_name_the_first_round() -> None:
    """002_51e59e824768e9e9.txt L89: the acting order of a round, by place; in the first round
    the label names who springs from the ambush and who, surprised, takes no action."""
    rows = [
        {"name": "A", "wert": 5, "surprised": True},
        {"name": "B", "wert": 3},
        {"name": "C", "wert": 1, "hinterhalt": True},
    ]
    r = run("initiative", {"fighters": rows})
    assert r["turns"] == [
        {"name": "C", "label": "Platz 1 (Hinterhalt)"},
        {"name": "A", "label": "Platz 2 (überrascht: in Runde 1 keine Aktion)"},
        {"name": "B", "label": "Platz 3"},
    ]
    r = run("initiative", {"fighters": rows, "erste_runde": False})
    assert r["turns"] == [
        {"name": "A", "label": "Platz 1"},
        {"name": "B", "label": "Platz 2"},
        {"name": "C", "label": "Platz 3"},
    ]


def test_initiative_names_the_assumptions_it_used() -> None:
    """L89: the higher value first (Annahme) always; the tie rule only with a tie."""
    higher, tie = annahme("initiative.hoeher_zuerst"), annahme("initiative.gleichstand")
    tied = [{"name": "A", "wert": 5}, {"name": "B", "wert": 5}]
    assert assumed(run("initiative", {"fighters": tied})) == [higher, tie]
    apart = [{"name": "A", "wert": 5}, {"name": "B", "wert": 4}]
    assert assumed(run("initiative", {"fighters": apart})) == [higher]
