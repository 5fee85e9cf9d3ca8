"""Schema hints for connected helpers and the assumptions a result names (the issues „At the
table“, item 4, and „A fight without retyping“, items 1 and 4)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from engine import api
from engine.data_files import assumptions_used, note_assumption
from engine.params import BoolParam, ChoiceParam, IntParam, ListParam, Param, TextParam
from engine.registry import System


def test_notes_collect_per_request_and_only_inside_one() -> None:
    note_assumption("außerhalb einer Anfrage: nicht gesammelt")
    with assumptions_used() as used:
        note_assumption("Eine  Annahme")
        note_assumption("Eine Annahme")  # named once
        note_assumption("Noch eine")
    assert used == ["Eine Annahme", "Noch eine"]


def test_a_result_names_the_assumptions_it_used() -> None:
    system = System("probe-hints", "Probe", "keine Quelle")

    @system.action(
        "wurf", title="Wurf", summary="", source="", params=(BoolParam("annahme", "Annahme"),)
    )
    def wurf(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        if params["annahme"]:
            note_assumption("Der Text sagt es nicht; hier: so.")
        return {"display": {"headline": "", "outcome": "", "sections": []}}

    action = system.actions["wurf"]
    with_note: dict[str, Any] = {}
    for flag in (True, False):
        with assumptions_used() as used:
            result = action.func({"annahme": flag}, random.Random(1))
        api._name_assumptions(result, used)
        with_note[str(flag)] = result["display"]["sections"]
    assert with_note["True"] == [
        {
            "kind": "notes",
            "caption": "Für dieses Ergebnis angenommen",
            "items": ["Der Text sagt es nicht; hier: so."],
        }
    ]
    assert with_note["False"] == []


def test_hints_are_in_describe() -> None:
    system = System("probe-hints-2", "Probe", "keine Quelle")
    params = (
        ChoiceParam("art", "Art", choices=(("nah", "Nah"), ("fern", "Fern"))),
        IntParam("at", "AT", subject="actor", required=True),
        IntParam("lep", "LeP vorher", subject="target", resource=True, resource_name="LeP"),
        IntParam("weite", "Weite", when=(("art", ("fern",)),)),
    )
    system.action("a", title="A", summary="", source="", params=params)(lambda p, r: {})
    fields = {f["name"]: f for f in system.actions["a"].describe()["params"]}
    assert fields["at"]["subject"] == "actor"
    assert fields["lep"]["subject"] == "target" and fields["lep"]["resource"] is True
    assert fields["lep"]["resource_name"] == "LeP"  # what a result changed, in the page's words
    assert fields["weite"]["when"] == {"art": ["fern"]}
    assert "subject" not in fields["art"] and "when" not in fields["art"]
    assert "per_roll" not in fields["at"]


def test_per_roll_is_in_describe() -> None:
    # issue 26, point 5: a value rolled at the table for one roll (here a typed Angriffswurf,
    # 003_3ac4060591b07c19.txt L52) is marked, so the page clears it after the roll
    system = System("probe-hints-4", "Probe", "keine Quelle")
    params = (IntParam("angriffswurf", "Angriffswurf", default=12, per_roll=True),)
    system.action("a", title="A", summary="", source="", params=params)(lambda p, r: {})
    fields = {f["name"]: f for f in system.actions["a"].describe()["params"]}
    assert fields["angriffswurf"]["per_roll"] is True
    assert "subject" not in fields["angriffswurf"]


@pytest.mark.parametrize(
    ("param", "problem"),
    [
        (IntParam("x", "X", subject="gegner"), "subject"),
        (IntParam("x", "X", resource=True), "resource"),
        (IntParam("x", "X", subject="target", resource_name="X"), "resource_name"),
        (IntParam("x", "X", when=(("gibtsnicht", (1,)),)), "unknown field"),
        (IntParam("x", "X", when=(("art", ("mittel",)),)), "has no"),
        # a value of one roll belongs to no fighter: the fight would keep what the page clears
        (IntParam("x", "X", subject="actor", per_roll=True), "per_roll and subject"),
        (IntParam("x", "X", subject="target", per_roll=True), "per_roll and subject"),
        (
            ListParam(
                "x",
                "X",
                item=(
                    TextParam("name", "Name"),
                    IntParam("w", "W", subject="actor", per_roll=True),
                ),
            ),
            "per_roll and subject",
        ),
    ],
)
def test_a_slip_in_the_hints_fails_at_registration(param: Param, problem: str) -> None:
    system = System("probe-hints-3", "Probe", "keine Quelle")
    art = ChoiceParam("art", "Art", choices=(("nah", "Nah"), ("fern", "Fern")))
    with pytest.raises(ValueError, match=problem):
        system.action("a", title="A", summary="", source="", params=(art, param))(lambda p, r: {})


def test_the_form_marks_the_fields_of_one_roll() -> None:
    """The form carries the schema's hints for page.js and fight.js (site_plugins/forms.py): a
    value of one roll (the Angriffswurf typed at the table, 003_3ac4060591b07c19.txt L52) is
    ``data-per-roll`` on its ``.rw-field`` – the page clears it after the roll – and a fighter's
    value (the target's Verteidigungswert) is ``data-subject``, never both."""
    from site_plugins.forms import render_helper

    html = render_helper("aktionswuerfel", "attack", "h", {})
    fields = {
        m.group(2): m.group(1)
        for m in re.finditer(r'<div class="rw-field ([^>]*)>.*?data-path="([a-z_]+)"', html)
    }
    assert "data-per-roll" in fields["angriffswurf"]
    assert "data-subject" not in fields["angriffswurf"]
    assert 'data-subject="target"' in fields["verteidigungswert"]
    assert "data-per-roll" not in fields["verteidigungswert"]


def test_a_fighters_value_of_one_name_is_one_kind_of_value_in_every_helper() -> None:
    """The fight keeps a fighter's values by field name and fills a field of the same name in
    another helper of the system with it (fight.js knownValues: his wounds as a target are his
    own wounds when he attacks, issue 26 B5). So two fighter's fields (``subject``) of one name
    in one system must be the same kind of value: same type, same choices – else a defender's
    „Waffenparade“ would land in the attack's „Angriffsart“, a choice it does not have."""
    for system in api.catalog()["systems"]:
        seen: dict[str, tuple[str, str, Any]] = {}
        for action in system["actions"]:
            for field in api.describe(system["name"], action["name"])["params"]:
                if not field.get("subject"):
                    continue
                kind = (
                    field["type"],
                    sorted(c["value"] for c in field.get("choices", [])),
                )
                where = f"{system['name']}.{action['name']}.{field['name']}"
                first = seen.setdefault(field["name"], (where, field["type"], kind))
                assert first[2] == kind, (first[0], where)


def test_a_blank_field_is_unknown_never_zero() -> None:
    """A value nobody knows (Güte: the target's LE the fight was not told, 002 L21) is a
    ``blank`` field: ``""`` or null are ``None``, not 0; a number is checked as always; the
    schema says ``"blank": true`` with the default null; the form starts it empty and marks it
    ``data-blank``. A blank field is never required, and only a blank one has no default."""
    from engine.params import validate_record
    from site_plugins.forms import render_helper

    le = IntParam("le", "LE", default=None, minimum=-9, maximum=9, blank=True)
    assert validate_record((le,), {}) == {"le": None}
    assert validate_record((le,), {"le": ""}) == {"le": None}
    assert validate_record((le,), {"le": "  "}) == {"le": None}
    assert validate_record((le,), {"le": None}) == {"le": None}
    assert validate_record((le,), {"le": "−3"}) == {"le": -3}
    with pytest.raises(api.EngineError, match="außerhalb"):
        validate_record((le,), {"le": 10})
    with pytest.raises(api.EngineError, match="ist keine ganze Zahl"):
        validate_record((le,), {"le": "viel"})
    assert le.schema()["blank"] is True and le.schema()["default"] is None
    assert "blank" not in IntParam("x", "X").schema()
    with pytest.raises(ValueError, match="never required"):
        IntParam("x", "X", default=None, blank=True, required=True)
    with pytest.raises(ValueError, match="no default"):
        IntParam("x", "X", default=None)
    html = render_helper("guete", "attack", "h", {})
    field = re.search(r'<div class="rw-field ([^>]*)>(?:(?!</div>).)*?data-path="le"[^>]*>', html)
    assert field is not None
    assert "data-blank" in field.group(1) and 'value=""' in field.group(0)


@pytest.mark.parametrize(
    ("param", "problem"),
    [
        (BoolParam("x", "X", condition=("gegner", "betäubt")), "not actor or target"),
        (BoolParam("x", "X", subject="target", condition=("target", "betäubt")), "situation"),
        (BoolParam("x", "X", per_roll=True, condition=("actor", "betäubt")), "situation"),
        (BoolParam("x", "X", condition=("actor", "")), "needs a yes/no field with a name"),
        (IntParam("x", "X", condition=("actor", "betäubt")), "needs a yes/no field"),
        (
            ChoiceParam("x", "X", choices=(("a", "A"),), condition=("actor", "")),
            "condition_values",
        ),
        (
            ChoiceParam(
                "x",
                "X",
                choices=(("a", "A"),),
                condition=("actor", ""),
                condition_values=(("b", "liegend"),),
            ),
            "no choices",
        ),
    ],
)
def test_a_slip_in_a_condition_fails_at_registration(param: Param, problem: str) -> None:
    system = System("probe-hints-5", "Probe", "keine Quelle")
    with pytest.raises(ValueError, match=problem):
        system.action("a", title="A", summary="", source="", params=(param,))(lambda p, r: {})


def test_the_form_says_which_condition_a_field_stands_for() -> None:
    """„Angreifer ist betäubt“ (Güte, 002 L129) stands for the condition betäubt of the actor:
    ``data-condition`` and ``data-condition-of`` on its ``.rw-field`` – the page no longer reads
    the label. A Kampfposition (Ryssea, 000 L335–L340) maps its values."""
    from site_plugins.forms import render_helper

    def field_tag(html: str, path: str) -> str:
        found = re.search(
            rf'<div class="rw-field ([^>]*)>(?:(?!</div>).)*?data-path="{path}"', html
        )
        assert found is not None, path
        return found.group(1)

    guete = render_helper("guete", "attack", "h", {})
    tag = field_tag(guete, "angreifer_betaeubt")
    assert 'data-condition="betäubt"' in tag and 'data-condition-of="actor"' in tag
    assert 'data-condition-of="target"' in field_tag(guete, "ziel_liegend")
    assert "data-condition" not in field_tag(guete, "uebermacht")
    ryssea = field_tag(render_helper("ryssea", "attack", "h", {}), "position_ziel")
    assert 'data-condition-of="target"' in ryssea
    assert "data-condition-choices=" in ryssea and "&quot;liegend&quot;" in ryssea


def test_a_helper_that_never_rolls_has_no_wurfnummer() -> None:
    """Pathfinder's RK (004 L33) reckons what is entered: ``rolls_dice`` false in describe, and
    its form has no Wurfnummer (seed) field; a helper that rolls keeps it."""
    from site_plugins.forms import render_helper

    assert api.describe("pathfinder", "armor_class")["rolls_dice"] is False
    assert api.describe("pathfinder", "attack")["rolls_dice"] is True
    assert 'data-path="seed"' not in render_helper("pathfinder", "armor_class", "h", {})
    assert 'data-path="seed"' in render_helper("pathfinder", "attack", "h", {})
