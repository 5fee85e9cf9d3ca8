"""Seeing the odds (issue 44): distributions with „mindestens“, „Was wäre wenn“, „Vergleichen“.

The generic machinery of engine/odds.py and engine/display.py, checked against full
enumeration: the bars of a distribution, the range a „Was wäre wenn“ walks (with synthetic
actions, so each rule of the walk is seen on its own), the refusals of „Vergleichen“, and the
one boundary (Python API, run_json, CLI). Each system's own marks and distributions are
checked in its folder (tests/engine/<system>/test_odds.py).
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from typing import Any

import pytest

from engine import api, cli, dice, odds
from engine.budget import current
from engine.display import MAX_BARS, Display, numeric_bars
from engine.errors import EngineError
from engine.formatting import parse_fraction
from engine.params import ChoiceParam, IntParam
from engine.registry import Action
from harness import brute

PATHFINDER_ATTACK = {"gab": 5, "armor_class": 15, "damage": "1W8", "staerkemodifikator": 2}


@pytest.mark.parametrize("notation", ["2W6+1", "1W4-3", "3W6", "2W20kh1"])
def test_bars_are_exact_with_at_least_and_at_most(notation: str) -> None:
    """Each bar: its exact chance, „mindestens“ and „höchstens“ this value – by enumeration."""
    expression = dice.parse(notation)
    bars = numeric_bars(dice.distribution(expression))
    sides = [t.sides for t in expression.terms for _ in range(t.count)]

    def total(faces: tuple[int, ...]) -> int:
        return dice.roll(expression, _Fixed(faces)).total

    values = [bar["value"] for bar in bars["bars"]]
    assert values == sorted(values)
    totals = {faces: total(faces) for faces, _ in brute.outcomes(sides)}
    for bar in bars["bars"]:
        value = bar["value"]
        exact = brute.chance(sides, lambda f, v=value: totals[f] == v)
        at_least = brute.chance(sides, lambda f, v=value: totals[f] >= v)
        at_most = brute.chance(sides, lambda f, v=value: totals[f] <= v)
        assert parse_fraction(bar["fraction"]) == exact
        assert parse_fraction(bar["at_least"]) == at_least
        assert parse_fraction(bar["at_most"]) == at_most
    assert parse_fraction(bars["mean"]["fraction"]) == brute.expectation(sides, total)


class _Fixed(random.Random):
    """A random source that hands out the given faces in order (one full enumeration case)."""

    def __init__(self, faces: tuple[int, ...]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0)


def test_a_wide_distribution_is_drawn_in_ranges_of_values() -> None:
    """20W1000 spans 19.981 values: 200 bars of 100 values each, the whole range, exactly –
    each bar's chance the sum of its values, „mindestens“ from its first value, „höchstens“
    to its last."""
    dist = dice.distribution(dice.parse("20W1000"))
    bars = numeric_bars(dist)
    assert bars["width"] == 100 and len(bars["bars"]) == MAX_BARS
    first, last = bars["bars"][0], bars["bars"][-1]
    assert (first["value"], first["to"], first["label"]) == (20, 119, "20–119")
    assert (last["value"], last["to"], last["label"]) == (19_920, 20_000, "19.920–20.000")
    assert sum(parse_fraction(b["fraction"]) for b in bars["bars"]) == 1
    middle = next(b for b in bars["bars"] if b["value"] == 9_920)
    assert parse_fraction(middle["fraction"]) == sum(dist.get(v, 0) for v in range(9_920, 10_020))
    assert parse_fraction(middle["at_least"]) == sum(p for v, p in dist.items() if v >= 9_920)
    assert parse_fraction(middle["at_most"]) == sum(p for v, p in dist.items() if v <= 10_019)
    assert parse_fraction(bars["mean"]["fraction"]) == 10_010


def test_a_distribution_that_does_not_sum_to_one_is_a_bug() -> None:
    with pytest.raises(ValueError, match="sums to"):
        numeric_bars({1: Fraction(1, 2)})


def test_named_outcomes_have_no_at_least() -> None:
    display = Display("x")
    display.distribution(
        "Platz", "Platz", [("Platz 1", Fraction(1, 3)), ("Platz 2", Fraction(2, 3))]
    )
    section = display.sections[0]
    assert section["numeric"] is False and "mean" not in section
    assert [b["percent"] for b in section["bars"]] == ["33,3\u00a0%", "66,7\u00a0%"]


# -- „Was wäre wenn“ on the Pathfinder attack (the first action that marks its forecast) --------


def _hit_chance(bonus: int, armor_class: int) -> Fraction:
    """quellen/004_019b513a861ec26f.txt L10: a natural 1 always misses, a natural 20 always
    hits; otherwise 1W20 + bonus ≥ RK hits (L8)."""
    return brute.chance([20], lambda f: f[0] == 20 or (f[0] != 1 and f[0] + bonus >= armor_class))


def test_what_if_walks_the_armour_class_and_agrees_with_enumeration() -> None:
    answer = api.what_if("pathfinder", "attack", PATHFINDER_ATTACK)
    assert answer["ok"], answer
    sweep = answer["what_if"]
    assert sweep["field"] == "armor_class" and sweep["current"] == 15
    values = [row["value"] for row in sweep["rows"]]
    assert values == list(range(values[0], values[-1] + 1)) and len(values) >= 10
    assert [row["value"] for row in sweep["rows"] if row["current"]] == [15]
    hit = [c["label"] for c in sweep["columns"]].index("Treffer")
    for row in sweep["rows"]:
        cell = row["cells"][hit]
        assert parse_fraction(cell["fraction"]) == _hit_chance(7, row["value"])
    # both ends reached where the hit chance settles at 95 % and 5 % (three values alike)
    assert sweep["rows"][0]["cells"][hit]["text"] == "95,0\u00a0%"
    assert sweep["rows"][-1]["cells"][hit]["text"] == "5,0\u00a0%"
    # what every row shares is said once, not repeated as a column
    assert "natürliche 1: verfehlt immer" in [s["label"] for s in sweep["same"]]


def test_what_if_stays_within_the_field_limits() -> None:
    answer = api.what_if("pathfinder", "attack", {**PATHFINDER_ATTACK, "armor_class": 2})
    assert answer["ok"]
    assert answer["what_if"]["rows"][0]["value"] == 0  # RK 0 … the field's minimum


@pytest.mark.parametrize(
    ("params", "field", "named"),
    [
        ({**PATHFINDER_ATTACK, "armor_class": None}, None, "armor_class"),
        (PATHFINDER_ATTACK, "nirgends", "field"),
        (PATHFINDER_ATTACK, "weapon", "field"),  # a choice is compared, not walked
        ({**PATHFINDER_ATTACK, "gab": 99}, None, "gab"),
    ],
)
def test_what_if_bad_input_is_a_german_message_naming_the_field(
    params: dict[str, Any], field: str | None, named: str
) -> None:
    answer = api.what_if("pathfinder", "attack", params, field)
    assert not answer["ok"]
    assert answer["error"]["field"] == named
    assert answer["error"]["message"][0].isupper()


# -- the walk's rules, each on a synthetic action -----------------------------------------------


def _action(func: Any, *params: Any, what_if: str = "", compare: tuple[str, ...] = ()) -> Action:
    return Action("test", "probe", "Probe", "", "", params, func, what_if=what_if, compare=compare)


def _chance_of(caption: str, p: Fraction) -> dict[str, Any]:
    display = Display("Probe")
    display.chances(caption, [("Erfolg", p)], before=True)
    display.chances("Nach dem Wurf", [("Glück", Fraction(1, 2))])  # not before: never read
    return {"display": display.to_dict()}


def _use(monkeypatch: pytest.MonkeyPatch, action: Action) -> None:
    monkeypatch.setattr(odds, "_action", lambda system, name: action)


def test_the_walk_reaches_at_least_five_each_side_and_ends_on_three_alike(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A chance that is flat near the value is still shown ±5; farther out three equal values
    end a side; the field's limits end it too."""
    ziel = IntParam("ziel", "Schwierigkeit", default=10, minimum=0, maximum=100)
    _use(
        monkeypatch,
        _action(
            lambda v, rng: _chance_of("Vorher", Fraction(min(max(v["ziel"], 8), 20), 20)),
            ziel,
            what_if="ziel",
        ),
    )
    sweep = odds.what_if("test", "probe", {"ziel": 10})
    values = [row["value"] for row in sweep["rows"]]
    assert values[0] == 4  # flat below 8, yet shown to 10 − 5, and 4: the third alike past it
    assert values[-1] == 22  # 20, 21, 22 alike: the side ends there
    assert [c["label"] for c in sweep["columns"]] == ["Erfolg"]  # „Glück“ is after the roll


def test_the_walk_stops_at_the_most_values(monkeypatch: pytest.MonkeyPatch) -> None:
    ziel = IntParam("ziel", "Schwierigkeit", default=50, minimum=0, maximum=100)
    _use(
        monkeypatch,
        _action(lambda v, rng: _chance_of("V", Fraction(v["ziel"], 100)), ziel, what_if="ziel"),
    )
    rows = odds.what_if("test", "probe", {"ziel": 50})["rows"]
    assert len(rows) == odds.MAX_VALUES
    assert [rows[0]["value"], rows[-1]["value"]] == [30, 70]  # evenly to both sides


def test_a_value_the_rules_refuse_ends_its_side_and_is_said(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def probe(values: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        if values["ziel"] > 12:
            raise EngineError("Schwierigkeit: höchstens 12 bei dieser Probe.", "ziel")
        return _chance_of("V", Fraction(values["ziel"], 20))

    ziel = IntParam("ziel", "Schwierigkeit", default=10, minimum=0, maximum=100)
    _use(monkeypatch, _action(probe, ziel, what_if="ziel"))
    sweep = odds.what_if("test", "probe", {"ziel": 10})
    assert sweep["rows"][-1]["value"] == 12
    assert "Schwierigkeit 13: Schwierigkeit: höchstens 12 bei dieser Probe." in sweep["notes"]


def test_the_walk_assumes_what_makes_its_field_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """A field that counts only after another (the Güte of a parade only when the parade
    succeeded, a one-roll box the page clears after each roll): the walk sets that one and
    says so."""
    from engine.params import BoolParam

    done = BoolParam("gelungen", "Abwehr gelungen", default=False, per_roll=True)
    guete = IntParam(
        "guete", "Güte der Abwehr", default=0, minimum=-5, maximum=5, when=(("gelungen", (True,)),)
    )
    _use(
        monkeypatch,
        _action(
            lambda v, rng: _chance_of("V", Fraction(v["guete"] + 5, 10)),
            done,
            guete,
            what_if="guete",
        ),
    )
    sweep = odds.what_if("test", "probe", {})
    assert "Angenommen für diese Rechnung: Abwehr gelungen: ja." in sweep["notes"]
    assert [row["value"] for row in sweep["rows"]] == list(range(-5, 6))
    # a situation the reader chose holds: a field it rules out is no walk
    chosen = BoolParam("gelungen", "Ziel verteidigt sich", default=False)
    _use(
        monkeypatch,
        _action(lambda v, rng: _chance_of("V", Fraction(1, 2)), chosen, guete, what_if="guete"),
    )
    with pytest.raises(EngineError, match="Güte der Abwehr: gilt bei diesen Angaben nicht"):
        odds.what_if("test", "probe", {})


def test_the_walk_stays_within_one_work_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each run spends a tenth of the request's budget: the walk stops while another run still
    fits, and says that the range is cut."""

    def probe(values: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        budget = current()
        budget.spend(budget.limit // 10, "zu teuer", "ziel")
        return _chance_of("V", Fraction(values["ziel"], 100))

    ziel = IntParam("ziel", "Schwierigkeit", default=50, minimum=0, maximum=100)
    _use(monkeypatch, _action(probe, ziel, what_if="ziel"))
    sweep = odds.what_if("test", "probe", {"ziel": 50})
    assert 5 <= len(sweep["rows"]) <= 9
    assert any("gekürzt" in note for note in sweep["notes"])


def test_compare_says_a_refused_choice_instead_of_showing_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def attack(values: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        if values["manoever"] == "finte" and values["fernkampf"] == "ja":
            raise EngineError("Manöver: eine Finte gibt es nur im Nahkampf.", "manoever")
        return _chance_of(
            "V",
            {"keins": Fraction(1, 2), "finte": Fraction(1, 3), "wucht": Fraction(1, 4)}[
                values["manoever"]
            ],
        )

    manoever = ChoiceParam(
        "manoever",
        "Manöver",
        default="keins",
        choices=(("keins", "kein Manöver"), ("finte", "Finte"), ("wucht", "Wuchtschlag")),
    )
    ranged = ChoiceParam(
        "fernkampf", "Fernkampf", default="nein", choices=(("nein", "nein"), ("ja", "ja"))
    )
    _use(monkeypatch, _action(attack, manoever, ranged, compare=("manoever",)))
    near = odds.compare("test", "probe", {})
    assert [r["label"] for r in near["rows"]] == ["kein Manöver", "Finte", "Wuchtschlag"]
    assert [r["cells"][0]["text"] for r in near["rows"]] == [
        "50,0\u00a0%",
        "33,3\u00a0%",
        "25,0\u00a0%",
    ]
    assert near["rows"][0]["current"] and near["refused"] == []
    far = odds.compare("test", "probe", {"fernkampf": "ja"})
    assert [r["label"] for r in far["rows"]] == ["kein Manöver", "Wuchtschlag"]
    assert far["refused"] == [
        {
            "value": "finte",
            "label": "Finte",
            "message": "Manöver: eine Finte gibt es nur im Nahkampf.",
        }
    ]
    said = [n for sec in far["display"]["sections"] if sec["kind"] == "notes" for n in sec["items"]]
    assert "Finte: nicht möglich – Manöver: eine Finte gibt es nur im Nahkampf." in said
    assert far["notes"] == []  # the page says the refused from „refused“, once


def test_compare_with_wrong_inputs_names_the_wrong_field() -> None:
    """Every choice fails alike (the weapon's dice are too big, quellen/004_019b513a861ec26f.txt
    L69ff.): not „no choice possible“ but the input's own message at its field."""
    answer = api.compare("pathfinder", "attack", {**PATHFINDER_ATTACK, "damage": "1W100"})
    assert not answer["ok"] and answer["error"]["field"] == "damage"


# -- one boundary: Python API, run_json, CLI ----------------------------------------------------


@pytest.mark.parametrize("kind", ["what_if", "compare"])
def test_run_json_answers_like_the_python_api(kind: str) -> None:
    request = {
        "type": kind,
        "system": "pathfinder",
        "action": "attack",
        "params": PATHFINDER_ATTACK,
    }
    answer = json.loads(api.run_json(json.dumps(request)))
    ask = api.what_if if kind == "what_if" else api.compare
    assert answer == json.loads(json.dumps(ask("pathfinder", "attack", PATHFINDER_ATTACK)))
    broken = json.loads(api.run_json(json.dumps({**request, "params": {"gab": "viel"}})))
    assert not broken["ok"] and broken["error"]["field"] == "gab"


def test_cli_was_waere_wenn_and_vergleichen(capsys: pytest.CaptureFixture[str]) -> None:
    base = [
        "pathfinder",
        "attack",
        "--gab",
        "5",
        "--armor_class",
        "15",
        "--damage",
        "1W8",
        "--staerkemodifikator",
        "2",
    ]
    assert cli.main([*base, "--was-waere-wenn"]) == 0
    text = capsys.readouterr().out
    assert "Was wäre wenn: Angriffswurf mit Schaden – RK des Ziels" in text
    assert "15 (jetzt)" in text
    assert cli.main([*base, "--vergleichen", "weapon", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer == json.loads(
        json.dumps(api.compare("pathfinder", "attack", PATHFINDER_ATTACK, "weapon"))
    )
    assert cli.main([*base, "--vergleichen", "gab"]) == 2  # not a choice field
    assert "„gab“ ist kein passendes Feld dieser Aktion (passend: weapon, size" in (
        capsys.readouterr().err
    )
