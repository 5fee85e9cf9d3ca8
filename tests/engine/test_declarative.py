"""Declared roll actions (engine/declarative): a small invented system written in YAML only –
``tests/fixtures/klingenspiel/klingenspiel.yaml`` with its text ``quelle.txt`` (cited by line
below) – served through the JSON boundary like any Python system; every chance checked
against an enumeration of all faces (harness/brute.py)."""

from __future__ import annotations

import copy
import itertools
import json
import random
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine import api, declarative
from engine.data_files import DataError, RuleData
from engine.declarative.spec import NOT_DECIDING
from engine.params import DiceParam, IntParam
from engine.registry import SYSTEMS, System
from harness import brute
from harness.support import SystemTests, assumed, notes, seed_for

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "klingenspiel" / "klingenspiel.yaml"
NAME = "klingenspiel_test"


def declaration() -> dict[str, Any]:
    content: dict[str, Any] = yaml.safe_load(FIXTURE.read_text(encoding="utf-8"))
    return content


def declare(content: dict[str, Any], name: str = NAME) -> System:
    """Register the declared actions of ``content`` as the system ``name`` (not in SYSTEMS)."""
    system = System(name, content["system"]["titel"], content["system"]["quelle"])
    data = RuleData(f"{name}.yaml", json.loads(json.dumps(content)))
    for action in content["aktionen"]:
        declarative.register(system, data, action)
    return system


@pytest.fixture
def klingen(monkeypatch: pytest.MonkeyPatch) -> Iterator[System]:
    system = declare(declaration())
    monkeypatch.setitem(SYSTEMS, NAME, system)
    yield system


def changed(**actions: dict[str, Any]) -> dict[str, Any]:
    content = declaration()
    for action, values in actions.items():
        content["aktionen"][action].update(copy.deepcopy(values))
    return content


run = SystemTests(NAME).run


# ------------------------------------------------------------------ the boundary


def test_declared_actions_are_described_like_python_ones(klingen: System) -> None:
    """The form schema of a declared field is the schema of the Param a Python action would
    declare (the site builds its forms from describe)."""
    spec = api.describe(NAME, "angriff")
    assert spec["source"] == "005_0123456789abcdef.txt L7–L9"
    assert (
        spec["params"][0]
        == IntParam(
            "angriffswert",
            "Angriffswert",
            default=4,
            minimum=-10,
            maximum=30,
            required=True,
            subject="actor",
        ).schema()
    )
    damage = api.describe(NAME, "schaden")["params"]
    assert damage[0] == DiceParam("waffe", "Waffenschaden", default="1W6", subject="actor").schema()
    by_name = {p["name"]: p for p in damage}
    assert by_name["lebenspunkte"]["resource"] and by_name["lebenspunkte"]["subject"] == "target"
    assert by_name["lebenspunkte"]["resource_name"] == "LeP"
    assert by_name["kritisch"]["per_roll"]
    fighters = api.describe(NAME, "initiative")["params"][0]
    assert [f["name"] for f in fighters["item"]] == ["name", "gewandtheit"]
    assert fighters["default"] == [
        {"name": "Alrik", "gewandtheit": 3},
        {"name": "Ork", "gewandtheit": 2},
    ]


def test_run_json_and_errors_name_the_field(klingen: System) -> None:
    answer = json.loads(
        api.run_json(json.dumps({"system": NAME, "action": "angriff", "params": {}, "seed": 2}))
    )
    assert not answer["ok"]
    assert answer["error"] == {
        "field": "angriffswert",
        "message": "Angriffswert: fehlt – bitte eine ganze Zahl eintragen.",
    }
    ok = json.loads(
        api.run_json(
            json.dumps(
                {"system": NAME, "action": "angriff", "params": {"angriffswert": 5}, "seed": 2}
            )
        )
    )
    assert ok["ok"] and ok["result"]["display"]["sections"][0]["kind"] == "rolls"


# ------------------------------------------------------------------ check against a target


def attack_by_enumeration(bonus: int, target: int) -> dict[str, Fraction]:
    """quelle.txt L8–L9: 2W6 + Angriffswert + Modifikator ≥ Verteidigung hits; a double is
    critical on a hit, a fumble on a miss."""
    return {
        "hit": brute.chance([6, 6], lambda f: sum(f) + bonus >= target),
        "critical": brute.chance([6, 6], lambda f: sum(f) + bonus >= target and f[0] == f[1]),
        "fumble": brute.chance([6, 6], lambda f: sum(f) + bonus < target and f[0] == f[1]),
    }


@pytest.mark.parametrize(("value", "modifier", "target"), [(4, 0, 11), (0, -3, 2), (2, 3, 14)])
def test_check_odds_equal_enumeration(
    klingen: System, value: int, modifier: int, target: int
) -> None:
    result = run("angriff", {"angriffswert": value, "modifier": modifier, "verteidigung": target})
    expected = attack_by_enumeration(value + modifier, target)
    for key, chance in expected.items():
        assert Fraction(result["chances"][key]) == chance, key


def test_check_outcome_follows_the_dice(klingen: System) -> None:
    """Every seed: hit iff total ≥ target (L8), critical/fumble on doubles (L9), and the
    follow-up is the damage (with this hit's kritisch, either way) or the Patzertabelle."""
    seen = set()
    for seed in range(60):
        result = run("angriff", {"angriffswert": 4, "verteidigung": 11}, seed)
        faces = [d["value"] for t in result["roll"]["terms"] for d in t["dice"]]
        double = faces[0] == faces[1]
        assert result["hit"] == (sum(faces) + 4 >= 11)
        assert result["critical"] == (result["hit"] and double)
        assert result["fumble"] == (not result["hit"] and double)
        actions = [(f["action"], f["params"]) for f in result["follow_ups"]]
        if result["hit"]:
            assert actions == [("schaden", {"kritisch": double})]
        elif double:
            assert actions == [("patzer", {})]
        seen.add(result["outcome"])
    assert seen == {"hit", "miss", "critical", "fumble"}


def test_confirmed_critical_by_faces_and_margin_fumble() -> None:
    """A 1W20 check with a natural 20 that always hits and must be confirmed, and a fumble by
    margin: the chances equal the enumeration of both rolls."""
    content = changed(
        angriff={
            "wurf": "1W20",
            "gelingt": "ueber",
            "kritisch": {"augen": [20], "immer": True, "bestaetigen": True},
            "patzer": {"marge": 8},
        }
    )
    system = declare(content, "confirm_test")
    SYSTEMS["confirm_test"] = system
    try:
        for bonus, target in [(5, 15), (0, 25), (12, 9)]:
            answer = api.run(
                "confirm_test", "angriff", {"angriffswert": bonus, "verteidigung": target}, 3
            )
            chances = {k: Fraction(v) for k, v in answer["result"]["chances"].items()}

            def hits(face: int, bonus: int = bonus, target: int = target) -> bool:
                return face == 20 or face + bonus > target

            assert chances["hit"] == brute.chance([20], lambda f: hits(f[0]))
            assert chances["critical"] == brute.chance(
                [20, 20], lambda f: f[0] == 20 and hits(f[1])
            )
            assert chances["fumble"] == brute.chance(
                [20], lambda f, b=bonus, t=target: not hits(f[0]) and t - (f[0] + b) >= 8
            )
        confirmations = 0
        for seed in range(400):
            answer = api.run(
                "confirm_test", "angriff", {"angriffswert": 0, "verteidigung": 15}, seed
            )
            result = answer["result"]
            if result["natural"] == 20:
                confirmations += 1
                again = result["confirmation"]
                assert (
                    result["critical"]
                    == again["confirmed"]
                    == (again["total"] > 15 or again["roll"]["total"] == 20)
                )
                item = answer["result"]["display"]["sections"][0]["items"][-1]
                assert item["label"] == "Bestätigungswurf" and "bestätigt – " in item["decision"]
            else:
                assert result["confirmation"] is None
        assert confirmations
    finally:
        del SYSTEMS["confirm_test"]


# ------------------------------------------------------------------ damage


@pytest.mark.parametrize(
    ("bonus", "armour", "critical"), [(2, 1, False), (2, 1, True), (0, 5, False)]
)
def test_damage_odds_equal_enumeration(
    klingen: System, bonus: int, armour: int, critical: bool
) -> None:
    """L12–L13: Waffenschaden + Stärke − Rüstung, at least 0; a critical doubles Waffenschaden
    and Stärke; bewusstlos at 0 LeP or less, tot at −5 or less."""
    lep = 6
    params = {
        "waffe": "2W6",
        "staerke": bonus,
        "armor": armour,
        "kritisch": critical,
        "lebenspunkte": lep,
    }
    result = run("schaden", params)

    def hurt(faces: tuple[int, ...]) -> int:
        return max(0, (sum(faces) + bonus) * (2 if critical else 1) - armour)

    assert Fraction(result["chances"]["expected_damage"]) == brute.expectation([6, 6], hurt)
    assert Fraction(result["chances"]["state_tot"]) == brute.chance(
        [6, 6], lambda f: lep - hurt(f) <= -5
    )
    assert Fraction(result["chances"]["state_bewusstlos"]) == brute.chance(
        [6, 6], lambda f: lep - hurt(f) <= 0
    )
    faces = tuple(d["value"] for t in result["roll"]["terms"] for d in t["dice"])
    assert result["damage"] == hurt(faces)
    assert result["target_update"] == {"lebenspunkte": lep - hurt(faces)}
    after = lep - hurt(faces)
    state = "tot" if after <= -5 else "kampfunfähig" if after <= 0 else "kampffähig"
    assert result["target_state"]["zustand"] == state


def test_a_fixed_damage_reads_as_a_value(klingen: System) -> None:
    """L11–L12 („Waffenschaden“): a weapon with a fixed damage („6“, no dice) is a value, not a
    roll – the result says „6 fest“, not „6 gewürfelt“, draws no one-bar chart and names no
    chance of a minimum that cannot occur (issue 47); the states after it stay (certain, and
    what „Was wäre wenn“ walks across the Rüstung)."""
    result = run("schaden", {"waffe": "6", "staerke": 1, "armor": 2, "lebenspunkte": 6})
    assert result["damage"] == 5
    assert result["display"]["outcome"].startswith("5 Schaden (6 fest, 1 Bonus, − 2 Rüstung")
    assert "gewürfelt" not in result["display"]["outcome"]
    sections = result["display"]["sections"]
    assert not [s for s in sections if s["kind"] == "distribution"]
    labels = [i["label"] for s in sections if s["kind"] == "chances" for i in s["items"]]
    assert not [label for label in labels if label.startswith("höchstens")]
    assert "bewusstlos (LeP ≤ 0)" in labels
    # with dice both are there
    rolled = run("schaden", {"waffe": "1W6", "staerke": 1, "armor": 2, "lebenspunkte": 6})
    assert [s for s in rolled["display"]["sections"] if s["kind"] == "distribution"]
    assert "gewürfelt" in rolled["display"]["outcome"]


def test_too_many_dice_with_the_criticals_own_name_the_field() -> None:
    """100 dice are the most one roll has (engine/dice): with the critical's 1W4 they are too
    many – the message names the weapon's field, not an anonymous „Würfelausdruck“."""
    content = changed(schaden={"kritisch": {"zusatzwurf": "1W4"}})
    SYSTEMS["extra_limit_test"] = declare(content, "extra_limit_test")
    try:
        params = {"waffe": "100W6", "kritisch": True}
        answer = api.run("extra_limit_test", "schaden", params, 1)
        assert answer["error"]["field"] == "waffe"
        assert answer["error"]["message"].startswith("Waffenschaden: mit 1W4 höchstens 100 Würfel")
        assert api.run("extra_limit_test", "schaden", {**params, "kritisch": False}, 1)["ok"]
    finally:
        del SYSTEMS["extra_limit_test"]


def test_extra_dice_on_a_critical() -> None:
    content = changed(schaden={"kritisch": {"zusatzwurf": "1W4"}, "wurf": "1W6"})
    system = declare(content, "extra_test")
    SYSTEMS["extra_test"] = system
    try:
        answer = api.run(
            "extra_test",
            "schaden",
            {"staerke": 1, "armor": 2, "kritisch": True, "lebenspunkte": 3},
            5,
        )
        result = answer["result"]
        assert Fraction(result["chances"]["expected_damage"]) == brute.expectation(
            [6, 4], lambda f: max(0, sum(f) + 1 - 2)
        )
        assert result["damage"] == max(
            0, result["roll"]["total"] + result["extra_roll"]["total"] - 1
        )
    finally:
        del SYSTEMS["extra_test"]


@pytest.mark.parametrize("order", [True, "vor_ruestung", "nach_ruestung"])
@pytest.mark.parametrize(("bonus", "armour", "minimum"), [(1, 3, 0), (0, 8, 1), (2, 0, 0)])
def test_doubling_before_or_after_the_armour_equals_enumeration(
    order: bool | str, bonus: int, armour: int, minimum: int
) -> None:
    """quelle.txt L12: „Ein kritischer Treffer verdoppelt Waffenschaden und Stärke“ – before the
    Rüstung (``verdoppeln: true`` or ``vor_ruestung``); a group that reads its text the other way
    doubles what is left after it (``nach_ruestung``). The ``minimum`` („mindestens jedoch 0“)
    comes last either way; the odds follow the order exactly."""
    content = changed(schaden={"kritisch": {"verdoppeln": order}, "minimum": minimum})
    SYSTEMS["order_test"] = declare(content, "order_test")
    after = order == "nach_ruestung"

    def hurt(faces: tuple[int, ...]) -> int:
        raw = sum(faces) + bonus
        doubled = 2 * (raw - armour) if after else 2 * raw - armour
        return max(minimum, doubled)

    try:
        params = {"waffe": "2W6", "staerke": bonus, "armor": armour, "lebenspunkte": 6}
        for seed in range(6):
            answer = api.run("order_test", "schaden", {**params, "kritisch": True}, seed)
            result = answer["result"]
            assert Fraction(result["chances"]["expected_damage"]) == brute.expectation([6, 6], hurt)
            assert Fraction(result["chances"]["state_bewusstlos"]) == brute.chance(
                [6, 6], lambda f: 6 - hurt(f) <= 0
            )
            faces = tuple(d["value"] for t in result["roll"]["terms"] for d in t["dice"])
            assert result["damage"] == hurt(faces)
            words = "nach der Rüstung verdoppelt" if after else "verdoppelt"
            assert words in result["display"]["outcome"]
            bars = next(s for s in result["display"]["sections"] if s["kind"] == "distribution")[
                "bars"
            ]
            spread = brute.distribution([6, 6], hurt)
            assert {b["value"]: Fraction(b["fraction"]) for b in bars} == spread
        field = next(
            f for f in api.describe("order_test", "schaden")["params"] if f["name"] == "kritisch"
        )
        assert ("nach der Rüstung" in field["help"]) == after
    finally:
        del SYSTEMS["order_test"]


@pytest.mark.parametrize("wrong", ["danach", 2, False])
def test_a_doubling_order_that_is_none_names_file_and_key(wrong: Any) -> None:
    with pytest.raises(DataError) as caught:
        declare(changed(schaden={"kritisch": {"verdoppeln": wrong}}), "order_wrong_test")
    assert caught.value.file == "order_wrong_test.yaml"
    assert caught.value.key.startswith("aktionen.schaden.kritisch")
    assert "nach_ruestung" in str(caught.value)


def test_the_doubling_order_is_named_where_it_decided() -> None:
    """quelle.txt L12 does not say whether the doubling comes before or after the Rüstung:
    written as an Annahme (``verdoppeln: {wert: nach_ruestung, annahme: true, …}``) a critical
    result names it, a plain hit does not; the minimum it raised is named too."""
    text = "Der Text sagt nicht, ob vor oder nach der Rüstung verdoppelt wird; hier danach."
    order = {"wert": "nach_ruestung", "annahme": True, "text": text, "quelle": "L12"}
    low = {"wert": 0, "annahme": True, "text": "Mindestens 0 (Annahme).", "quelle": "L12"}
    content = changed(schaden={"kritisch": {"verdoppeln": order}, "minimum": low})
    SYSTEMS["order_named_test"] = declare(content, "order_named_test")
    try:
        hit = {"waffe": "1W6", "staerke": 0, "armor": 7, "lebenspunkte": 12}
        critical = api.run("order_named_test", "schaden", {**hit, "kritisch": True}, 1)
        # 1W6 − 7 < 0 on every face: doubled after the armour it stays below the minimum
        assert assumed(critical["result"]) == [text, "Mindestens 0 (Annahme)."]
        assert critical["result"]["damage"] == 0
        plain = api.run("order_named_test", "schaden", {**hit, "kritisch": False}, 1)
        assert assumed(plain["result"]) == ["Mindestens 0 (Annahme)."]
        # doubled before the armour, 2 × 6 − 7 = 5 is above the minimum: not named there
        before = changed(schaden={"kritisch": {"verdoppeln": True}, "minimum": low})
        SYSTEMS["order_named_test"] = declare(before, "order_named_test")
        for seed in range(30):
            result = api.run("order_named_test", "schaden", {**hit, "kritisch": True}, seed)[
                "result"
            ]
            raw = 2 * result["roll"]["total"] - 7
            assert ("Mindestens 0 (Annahme)." in assumed(result)) == (raw < 0)
    finally:
        del SYSTEMS["order_named_test"]


# ------------------------------------------------------------------ initiative


def first_by_enumeration(values: list[int], together: bool) -> list[Fraction]:
    """L4–L5: 1W6 + Gewandtheit, higher first; equal: higher Gewandtheit; still equal: a
    roll-off (each of k tied wins 1/k) – or, declared so, they act together (all count)."""
    out = []
    for me in range(len(values)):
        total = Fraction(0)
        for faces, weight in brute.outcomes([6] * len(values)):
            keys = [(f + v, v) for f, v in zip(faces, values, strict=True)]
            best = max(keys)
            if keys[me] == best:
                share = 1 if together else keys.count(best)
                total += weight / share
        out.append(total)
    return out


@pytest.mark.parametrize("values", [[3, 3, 1], [2, 2, 2], [0, 5], [4]])
def test_initiative_first_chances_equal_enumeration(klingen: System, values: list[int]) -> None:
    fighters = [{"name": f"K{i}", "gewandtheit": v} for i, v in enumerate(values)]
    result = run("initiative", {"fighters": fighters})
    expected = first_by_enumeration(values, together=False)
    assert [Fraction(result["first_chances"][f"K{i}"]) for i in range(len(values))] == expected
    assert sum(expected) == 1


def test_initiative_order_and_tie_rules(klingen: System) -> None:
    """The order is by total, then Gewandtheit, then the roll-off (L4–L5)."""
    for seed in range(80):
        fighters = [
            {"name": "A", "gewandtheit": 2},
            {"name": "B", "gewandtheit": 2},
            {"name": "C", "gewandtheit": 1},
        ]
        result = run("initiative", {"fighters": fighters}, seed)
        order = result["order"]
        keys = [(o["initiative"], o["value"]) for o in order]
        assert keys == sorted(keys, reverse=True)
        for first, second in itertools.pairwise(order):
            if (first["initiative"], first["value"]) == (second["initiative"], second["value"]):
                assert first["rolloff"] and second["rolloff"]
        assert [t["name"] for t in result["turns"]] == [o["name"] for o in order]


def test_simultaneous_and_named_field() -> None:
    content = changed(
        initiative={
            "gleichstand": [
                "hoeherer_wert",
                {"feld": {"name": "mut", "label": "Mut", "vorgabe": 1}},
                "gleichzeitig",
            ]
        }
    )
    system = declare(content, "together_test")
    SYSTEMS["together_test"] = system
    try:
        fighters = [
            {"name": "A", "gewandtheit": 2, "mut": 1},
            {"name": "B", "gewandtheit": 2, "mut": 1},
            {"name": "C", "gewandtheit": 2, "mut": 3},
        ]
        answer = api.run("together_test", "initiative", {"fighters": fighters}, 4)
        chances = answer["result"]["first_chances"]

        def first(me: int) -> Fraction:
            total = Fraction(0)
            for faces, weight in brute.outcomes([6, 6, 6]):
                keys = [(f + 2, row["mut"]) for f, row in zip(faces, fighters, strict=True)]
                total += weight if keys[me] == max(keys) else 0
            return total

        assert [Fraction(chances[n]) for n in "ABC"] == [first(0), first(1), first(2)]
        found_together = False
        for seed in range(200):
            result = api.run("together_test", "initiative", {"fighters": fighters[:2]}, seed)[
                "result"
            ]
            if result["order"][0]["initiative"] == result["order"][1]["initiative"]:
                found_together = True
                assert [o["place"] for o in result["order"]] == [1, 1]
                assert result["display"]["outcome"].startswith("Zuerst handeln gleichzeitig")
        assert found_together
    finally:
        del SYSTEMS["together_test"]


SUMMED = {
    "wert": {
        "label": "Modifikator",
        "felder": [
            {
                "name": "gewandtheit",
                "label": "Gewandtheit",
                "kurz": "GW",
                "frueher": ["gw"],
                "vorgabe": 2,
                "min": 0,
                "max": 20,
                "pflicht": True,
            },
            {"name": "bonus", "label": "Bonus", "kurz": "Bonus", "min": -5, "max": 5},
        ],
    },
    "wurfspalte": "W6 + Mod.",
    "ueberschrift": "Wer handelt zuerst?",
    "hinweise": {"titel": "Zum Stechen", "punkte": ["Gestochen wird mit 1W6."]},
    "stechen_zeigen": False,
}


@pytest.fixture
def summed(monkeypatch: pytest.MonkeyPatch) -> Iterator[System]:
    """The fixture's initiative with its value the sum of two fields (Gewandtheit + a bonus),
    its words declared and its roll-off rolls only in the order's Gleichstand column."""
    system = declare(changed(initiative=SUMMED), "summed_test")
    monkeypatch.setitem(SYSTEMS, "summed_test", system)
    yield system


def section(result: dict[str, Any], kind: str) -> dict[str, Any]:
    found: dict[str, Any] = next(s for s in result["display"]["sections"] if s["kind"] == kind)
    return found


def test_initiative_value_as_the_sum_of_fields(summed: System) -> None:
    """``wert: {label, felder}``: each fighter adds the sum of his fields to 1W6 (quelle.txt
    L4, Gewandtheit here with a bonus beside it); the roll line shows each part by its ``kurz``
    – the first always, a further one only when it is not 0; a former name (``frueher``) still
    reads; the chance to act first is the enumeration's over the sums."""
    item = api.describe("summed_test", "initiative")["params"][0]["item"]
    assert [(f["name"], f.get("formerly")) for f in item] == [
        ("name", None),
        ("gewandtheit", ["gw"]),
        ("bonus", None),
    ]
    fighters = [
        {"name": "A", "gewandtheit": 0, "bonus": 3},
        {"name": "B", "gw": 3, "bonus": 0},
        {"name": "C", "gewandtheit": 1, "bonus": -1},
    ]
    for seed in range(20):
        answer = api.run("summed_test", "initiative", {"fighters": fighters}, seed)
        result = answer["result"]
        faces = {o["name"]: o["roll"]["total"] for o in result["order"]}
        values = {o["name"]: o["value"] for o in result["order"]}
        assert values == {"A": 3, "B": 3, "C": 0}
        assert all(o["initiative"] == faces[o["name"]] + values[o["name"]] for o in result["order"])
        rolls = {r["label"]: r["modifiers"] for r in section(result, "rolls")["items"]}
        assert rolls == {
            "A: Initiativwurf": [{"label": "GW", "value": "±0"}, {"label": "Bonus", "value": "+3"}],
            "B: Initiativwurf": [{"label": "GW", "value": "+3"}],
            "C: Initiativwurf": [{"label": "GW", "value": "+1"}, {"label": "Bonus", "value": "−1"}],
        }
    chances = api.run("summed_test", "initiative", {"fighters": fighters}, 1)["result"][
        "first_chances"
    ]
    assert [Fraction(chances[n]) for n in "ABC"] == first_by_enumeration([3, 3, 0], together=False)


def test_initiative_words_headline_column_notes(summed: System, klingen: System) -> None:
    """``ueberschrift``, ``wurfspalte`` and ``hinweise`` (as ``art: wurf`` has them) are the
    result's words; without them: the title, „<wurf> + <label of wert>“, no notes."""
    fighters = {"fighters": [{"name": "A", "gewandtheit": 1}, {"name": "B", "gewandtheit": 2}]}
    result = api.run("summed_test", "initiative", fighters, 3)["result"]
    assert result["display"]["headline"] == "Wer handelt zuerst?"
    assert section(result, "table")["columns"][2] == "W6 + Mod."
    assert notes(result, "Zum Stechen") == ["Gestochen wird mit 1W6."]
    plain = run("initiative", fighters, 3)
    assert plain["display"]["headline"] == "Initiative"
    assert section(plain, "table")["columns"][2] == "1W6 + Gewandtheit"
    assert [s for s in plain["display"]["sections"] if s["kind"] == "notes"] == []


def test_initiative_tie_column_and_roll_off_rolls(summed: System, klingen: System) -> None:
    """quelle.txt L5: equal totals go to the higher Gewandtheit, then a 1W6 roll-off. The
    „Gleichstand“ column says what decided – the value with its sign, or the roll-off alone (the
    value was equal); the roll-off rolls are rolls of their own unless ``stechen_zeigen:
    false``."""
    rolled_off = 0
    for seed in range(60):
        fighters = [{"name": "A", "gewandtheit": 2}, {"name": "B", "gewandtheit": 2}]
        for system, shown in (("summed_test", False), (NAME, True)):
            result = api.run(system, "initiative", {"fighters": fighters}, seed)["result"]
            rows = section(result, "table")["rows"]
            labels = [r["label"] for r in section(result, "rolls")["items"]]
            stechen = [label for label in labels if ": Stechen " in label]
            if rows[0][3] != rows[1][3]:
                assert [r[4] for r in rows] == ["", ""]
                continue
            rolled_off += 1
            dice_ = [o["rolloff"] for o in result["order"]]
            assert [r[4] for r in rows] == [
                "Stechen " + " · ".join(str(d) for d in rolls) for rolls in dice_
            ]
            assert len(stechen) == (sum(map(len, dice_)) if shown else 0)
    assert rolled_off
    fighters = [{"name": "A", "gewandtheit": 3}, {"name": "B", "gewandtheit": 2}]
    result = run("initiative", {"fighters": fighters}, seed_for([2, 3], sides=6))  # 5 and 5
    rows = section(result, "table")["rows"]
    assert [r[4] for r in rows] == ["Gewandtheit +3", "Gewandtheit +2"]


def test_initiative_sides(klingen: System) -> None:
    """``seiten: true``: every fighter's row has „Seite“ (empty unless typed: a fighter of no side
    shows the player view only „grob“), the order names each fighter's side – the Kampfhelfer
    page reads it from the rows (who fights whom; the player view shows the side „Helden“ with
    its values, issue #45: Pathfinder's heroes started as „grob“ in every fight); without
    ``seiten`` the rows have no such field."""
    system = declare(changed(initiative={"seiten": True}), "sides_test")
    SYSTEMS["sides_test"] = system
    try:
        item = api.describe("sides_test", "initiative")["params"][0]["item"]
        side = next(f for f in item if f["name"] == "seite")
        assert side["default"] == "" and side["label"] == "Seite"
        assert [f["name"] for f in item][:2] == ["name", "seite"]
        fighters = [
            {"name": "A", "gewandtheit": 3},
            {"name": "B", "gewandtheit": 1, "seite": " Gegner "},
        ]
        result = api.run("sides_test", "initiative", {"fighters": fighters}, 4)["result"]
        assert {o["name"]: o["side"] for o in result["order"]} == {"A": "", "B": "Gegner"}
    finally:
        del SYSTEMS["sides_test"]
    plain = api.describe(NAME, "initiative")["params"][0]["item"]
    assert "seite" not in [f["name"] for f in plain]
    without = [{k: v for k, v in f.items() if k != "seite"} for f in fighters]
    assert all("side" not in o for o in run("initiative", {"fighters": without}, 4)["order"])


@pytest.mark.parametrize(
    ("values", "key", "words"),
    [
        ({"stechen_hoechstens": 0}, "aktionen.initiative.stechen_hoechstens", "mindestens 1"),
        ({"stechen_zeigen": "ja"}, "aktionen.initiative.stechen_zeigen", "true oder false"),
        ({"wurfspalte": ""}, "aktionen.initiative.wurfspalte", "nicht leerer Text"),
        ({"hinweise": "Stechen"}, "aktionen.initiative.hinweise", "muss eine Liste sein"),
        (
            {"wert": {"label": "Modifikator", "felder": []}},
            "aktionen.initiative.wert.felder",
            "mindestens ein Feld",
        ),
        (
            {"wert": {"felder": [{"name": "gw", "label": "GW"}]}},
            "aktionen.initiative.wert.label",
            "fehlt (der Name der Summe",
        ),
        (
            {"wert": {"label": "Mod", "name": "gw", "felder": [{"name": "gw", "label": "GW"}]}},
            "aktionen.initiative.wert",
            "unbekannte Angabe 'name'",
        ),
        (
            {"wert": {"label": "Mod", "felder": [{"name": "gw", "label": "GW", "kurz": ""}]}},
            "aktionen.initiative.wert.felder.0.kurz",
            "nicht leerer Text",
        ),
        (
            {"wert": {"label": "Mod", "felder": [{"name": "x", "label": "X", "art": "ja_nein"}]}},
            "aktionen.initiative.wert.felder.0.art",
            "muss zahl sein",
        ),
        (
            {"wert": {"label": "Mod", "felder": [{"name": "a", "label": "A"}] * 2}},
            "aktionen.initiative.wert.felder.1.name",
            "„a“ ist schon ein Feld jedes Kämpfers",
        ),
        (
            {
                "gleichstand": [
                    "hoeherer_wert",
                    {"feld": {"name": "gewandtheit", "label": "G"}},
                    "stechen",
                ]
            },
            "aktionen.initiative.gleichstand.1.feld.name",
            "„gewandtheit“ ist schon ein Feld",
        ),
        (
            {"wert": {"name": "gw", "label": "GW", "frueher": "gewandtheit"}},
            "aktionen.initiative.wert.frueher",
            "Liste früherer Namen",
        ),
        (
            {"wert": {"name": "gw", "label": "GW", "frueher": ["gw"]}},
            "aktionen.initiative.wert.frueher",
            "Liste früherer Namen",
        ),
        ({"seiten": "Helden"}, "aktionen.initiative.seiten", "true oder false"),
        (
            {"seiten": True, "wert": {"name": "seite", "label": "Seite"}},
            "aktionen.initiative.wert.name",
            "„seite“ ist schon ein Feld jedes Kämpfers",
        ),
    ],
)
def test_a_bad_initiative_value_names_its_key(values: dict[str, Any], key: str, words: str) -> None:
    with pytest.raises(DataError) as caught:
        declare(changed(initiative=values), "bad_initiative_test")
    assert caught.value.key == key
    assert words in str(caught.value)


# ------------------------------------------------------------------ table roll


def test_table_row_chances_and_the_marked_row(klingen: System) -> None:
    """L16–L20: 1W6 on the Patzertabelle; row 5 brings its own 1W6 damage."""
    rows = declaration()["tabellen"]["patzertabelle"]["zeilen"]
    for seed in range(30):
        result = run("patzer", {}, seed)
        for row in rows:
            expected = brute.chance([6], lambda f, r=row: r["von"] <= f[0] <= r["bis"])
            assert Fraction(result["chances"][f"{row['von']}-{row['bis']}"]) == expected
        row = result["row"]
        assert row["von"] <= result["total"] <= row["bis"]
        assert ("follow_total" in result) == (row["von"] == 5)
        # the row's own die shows its odds too (issue 47): 1W6, each face 1/6, mean 3,5 – after
        # the table's roll, so not among the odds before it
        follow = [
            s
            for s in result["display"]["sections"]
            if s["kind"] == "distribution" and s["caption"] == "Schaden (1W6)"
        ]
        assert len(follow) == ("follow_total" in result)
        for section in follow:
            assert [(b["value"], b["fraction"]) for b in section["bars"]] == [
                (face, "1/6") for face in range(1, 7)
            ]
            assert section["mean"]["text"] == "3,5" and "before" not in section


# ------------------------------------------------------------------ Annahmen and mistakes


def test_an_assumption_is_listed_and_named_only_where_used() -> None:
    text = "Die Quelle sagt nicht, wie oft gestochen wird; bis es entschieden ist."
    content = changed(
        initiative={
            "gleichstand": {
                "wert": ["hoeherer_wert", "stechen"],
                "annahme": True,
                "text": text,
                "quelle": "L5",
            }
        }
    )
    system = declare(content, "assumed_test")
    SYSTEMS["assumed_test"] = system
    try:
        assert api.describe("assumed_test", "initiative")["assumptions"] == [text]
        named = {False: 0, True: 0}
        for seed in range(40):
            answer = api.run(
                "assumed_test",
                "initiative",
                {"fighters": [{"name": "A", "gewandtheit": 1}, {"name": "B", "gewandtheit": 1}]},
                seed,
            )
            result = answer["result"]
            tied = result["order"][0]["initiative"] == result["order"][1]["initiative"]
            notes = [
                s for s in result["display"]["sections"] if s.get("caption") == api.ASSUMED_CAPTION
            ]
            assert bool(notes) == tied
            named[tied] += 1
        assert all(named.values())
    finally:
        del SYSTEMS["assumed_test"]


def opened(content: dict[str, Any]) -> dict[str, Any]:
    """Every rule value of every action an Annahme named „<action>.<key>“, every table row one
    named „Zeile <von>“."""
    out = copy.deepcopy(content)
    for name, action in out["aktionen"].items():
        for key in list(action):
            if key not in NOT_DECIDING:
                action[key] = {"wert": action[key], "annahme": True, "text": f"{name}.{key}"}
    for row in out["tabellen"]["patzertabelle"]["zeilen"]:
        row.update(annahme=True, text=f"Zeile {row['von']}")
    return out


def test_each_rule_value_is_named_exactly_where_it_decides() -> None:
    """With every rule value an Annahme (the text left all open), a result names those that
    decided it, and only those: the dice and the value always; ≥ or > only for a total equal
    to the Verteidigung (L8: „Erreicht oder übertrifft“ – there the two differ); a modifier, a
    bonus, the armour only when not 0; the minimum only when it raised the damage; a critical
    only on a critical hit; the tie rules only for equal totals, the roll-off die only when
    rolled; a table row when it is rolled, its follow-up die when there is one."""
    content = opened(declaration())
    SYSTEMS["opened_test"] = declare(content, "opened_test")
    try:
        assert api.describe("opened_test", "patzer")["assumptions"] == [  # in file order
            *(f"Zeile {r['von']}" for r in content["tabellen"]["patzertabelle"]["zeilen"]),
            "patzer.tabelle",
            "patzer.wurf",
            "patzer.folgewurf",
        ]
        seen: set[str] = set()
        for seed in range(40):
            for modifier in (0, 2):
                params = {"angriffswert": 4, "modifier": modifier, "verteidigung": 11}
                r = api.run("opened_test", "angriff", params, seed)["result"]
                named = set(assumed(r))
                expected = {"angriff.wurf", "angriff.wert", "angriff.ziel"}
                expected |= {"angriff.modifikatoren"} if modifier else set()
                expected |= {"angriff.gelingt"} if r["total"] == r["target"] else set()
                expected |= {"angriff.kritisch"} if r["critical"] else set()
                expected |= {"angriff.patzer"} if r["fumble"] else set()
                assert named == expected, (params, seed)
                seen |= named
            for strength, armour, critical in ((0, 0, False), (2, 9, True)):
                params = {
                    "waffe": "1W6",
                    "staerke": strength,
                    "armor": armour,
                    "kritisch": critical,
                    "lebenspunkte": 6,
                }
                r = api.run("opened_test", "schaden", params, seed)["result"]
                raw = (r["roll"]["total"] + strength) * (2 if critical else 1)
                # the states are the fight contract's (kampf:), not the action's: with them
                # there, the action names the resource it writes
                expected = {"schaden.wurf", "schaden.ressource"}
                expected |= (
                    {"schaden.zustand"} if "zustand" in content["aktionen"]["schaden"] else set()
                )
                expected |= {"schaden.bonus"} if strength else set()
                expected |= {"schaden.ruestung"} if armour else set()
                expected |= {"schaden.kritisch"} if critical else set()
                expected |= {"schaden.minimum"} if raw - armour < 0 else set()
                assert set(assumed(r)) == expected, (params, seed)
                seen |= expected
            rows = [{"name": "A", "gewandtheit": 2}, {"name": "B", "gewandtheit": 2}]
            r = api.run("opened_test", "initiative", {"fighters": rows}, seed)["result"]
            tied = r["order"][0]["initiative"] == r["order"][1]["initiative"]
            expected = {"initiative.wurf", "initiative.wert"}
            expected |= {"initiative.gleichstand", "initiative.stechen_wurf"} if tied else set()
            assert set(assumed(r)) == expected, seed
            seen |= expected
            r = api.run("opened_test", "patzer", {}, seed)["result"]
            expected = {"patzer.wurf", "patzer.tabelle", f"Zeile {r['row']['von']}"}
            expected |= {"patzer.folgewurf"} if "follow_total" in r else set()
            assert set(assumed(r)) == expected, seed
            seen |= expected
        assert {"angriff.gelingt", "angriff.kritisch", "angriff.patzer"} <= seen
        assert {"schaden.minimum", "initiative.gleichstand", "patzer.folgewurf"} <= seen
    finally:
        del SYSTEMS["opened_test"]


CRITICAL_TEXT = "Der Text sagt nicht, ob vor oder nach der Rüstung verdoppelt wird; hier davor."


@pytest.mark.parametrize(
    "kritisch",
    [
        {"verdoppeln": True, "annahme": True, "text": CRITICAL_TEXT, "quelle": "L12"},
        {"wert": {"verdoppeln": True}, "annahme": True, "text": CRITICAL_TEXT, "quelle": "L12"},
        {"verdoppeln": {"wert": True, "annahme": True, "text": CRITICAL_TEXT, "quelle": "L12"}},
        {"zusatzwurf": "1W4", "annahme": True, "text": CRITICAL_TEXT, "quelle": "L12"},
    ],
    ids=["an-annahme", "wert", "verdoppeln-wert", "zusatzwurf"],
)
def test_a_critical_names_the_annahme_it_rests_on(kritisch: dict[str, Any]) -> None:
    """``kritisch`` of a declared damage doubles dice and bonus before the armour (or adds its
    dice): where the text does not say how, the declaration makes it an Annahme – in any of its
    shapes. The helper lists it; a result names it when a critical applied it, never a plain
    hit."""
    system = declare(changed(schaden={"kritisch": kritisch}), "critical_test")
    SYSTEMS["critical_test"] = system
    try:
        assert api.describe("critical_test", "schaden")["assumptions"] == [CRITICAL_TEXT]
        hit = {"waffe": "1W6", "staerke": 1, "armor": 2, "lebenspunkte": 12}
        critical = api.run("critical_test", "schaden", {**hit, "kritisch": True}, 1)["result"]
        doubled = "zusatzwurf" not in kritisch
        assert ("verdoppelt" in critical["display"]["outcome"]) == doubled
        assert assumed(critical) == [CRITICAL_TEXT]
        plain = api.run("critical_test", "schaden", {**hit, "kritisch": False}, 1)["result"]
        assert assumed(plain) == []
    finally:
        del SYSTEMS["critical_test"]


def test_a_critical_declared_not_to_double_does_not() -> None:
    """``verdoppeln`` written as an Annahme with the value false is false: no doubling (and the
    declaration must then say what a critical does instead – here nothing, a mistake)."""
    off = {"verdoppeln": {"wert": False, "annahme": True, "text": CRITICAL_TEXT, "quelle": "L12"}}
    with pytest.raises(DataError) as caught:
        declare(changed(schaden={"kritisch": off}), "critical_off_test")
    assert caught.value.key == "aktionen.schaden.kritisch"


@pytest.mark.parametrize(
    ("action", "values", "key", "words"),
    [
        ("patzer", {"wurf": "1W8"}, "aktionen.patzer.tabelle", "für 7 (1W8) gibt es keine Zeile"),
        (
            "initiative",
            {"gleichstand": ["stechen", "hoeherer_wert"]},
            "aktionen.initiative.gleichstand.0",
            "nur als letzte Regel",
        ),
        ("angriff", {"gelingt": "unter"}, "aktionen.angriff.gelingt", "ab (≥) oder ueber (>)"),
        (
            "angriff",
            {"folgen": {"erfolg": "heilung"}},
            "aktionen.angriff.folgen.erfolg",
            "keine Aktion",
        ),
        ("schaden", {"farbe": "rot"}, "aktionen.schaden", "unbekannte Angabe 'farbe'"),
        ("angriff", {"art": "zauber"}, "aktionen.angriff.art", "muss eine von tabelle"),
        (
            "initiative",
            {"beispiel": [{"name": "Alrik", "mut": 3}]},
            "aktionen.initiative.beispiel.0",
            "Unbekanntes Feld „mut“",
        ),
    ],
)
def test_a_mistake_in_a_declaration_names_file_and_key(
    action: str, values: dict[str, Any], key: str, words: str
) -> None:
    content = changed(**{action: values})
    with pytest.raises(DataError) as caught:
        system = declare(content, "broken_test")
        for name in content["aktionen"]:
            declarative._check_follow_ups(system, RuleData("broken_test.yaml", content), name)
    assert caught.value.key == key
    assert caught.value.file == "broken_test.yaml"
    assert words in str(caught.value)


def test_rolls_are_seeded(klingen: System) -> None:
    for action, params in [
        ("angriff", {"angriffswert": 3}),
        ("patzer", {}),
        ("schaden", {"kritisch": True}),
    ]:
        seed = random.Random(action).randrange(2**32)
        assert run(action, params, seed) == run(action, params, seed)


def test_an_edited_declaration_is_registered_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``make serve`` compiles the YAML before each build and registers the declared actions
    again (site_plugins/regelwerk): an edited title reaches describe, the Python systems stay."""
    from engine import data_files
    from site_plugins import compile_data

    source = tmp_path / "klingenspiel.yaml"
    source.write_text(FIXTURE.read_text(encoding="utf-8"), encoding="utf-8")
    compile_data.compile_all(data_dir=tmp_path)
    monkeypatch.setattr(data_files, "DATA_DIR", tmp_path)
    monkeypatch.setattr(data_files, "_SITE_DIRS", [])  # the one folder: the test's
    monkeypatch.setattr(declarative, "DECLARED", {})
    saved = dict(SYSTEMS)
    data_files.load.cache_clear()
    try:
        declarative.load_all()
        assert api.describe("klingenspiel", "angriff")["title"] == "Angriff"
        source.write_text(
            source.read_text(encoding="utf-8").replace("titel: Angriff", "titel: Schlag"),
            encoding="utf-8",
        )
        assert compile_data.compile_all(data_dir=tmp_path) == ["klingenspiel.json"]
        declarative.reload()
        assert api.describe("klingenspiel", "angriff")["title"] == "Schlag"
        assert set(SYSTEMS) == set(saved) | {"klingenspiel"}
        assert SYSTEMS["ryssea"] is saved["ryssea"]
    finally:
        SYSTEMS.clear()
        SYSTEMS.update(saved)
        data_files.load.cache_clear()


def test_a_roll_decided_by_its_faces_says_so() -> None:
    """With ``immer`` the faces decide alone (a natural 20 hits a Verteidigung of 30): the
    outcome says what was rolled decided it, not only a total that looks like a miss."""
    content = changed(
        angriff={
            "wurf": "1W20",
            "kritisch": {"augen": [20], "immer": True},
            "patzer": {"augen": [1], "immer": True},
        }
    )
    SYSTEMS["faces_test"] = declare(content, "faces_test")
    try:
        seen = set()
        for seed in range(120):
            result = api.run("faces_test", "angriff", {"angriffswert": 0, "verteidigung": 30}, seed)
            natural, outcome = result["result"]["natural"], result["result"]["display"]["outcome"]
            if natural in (1, 20):
                word = "Kritischer Treffer" if natural == 20 else "Patzer"
                assert outcome.startswith(f"{word}: {natural} gewürfelt – das entscheidet allein")
                seen.add(natural)
            else:
                assert outcome.startswith("Verfehlt: ")
        assert seen == {1, 20}
    finally:
        del SYSTEMS["faces_test"]


def test_a_python_system_may_declare_more_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    """A system with Python actions whose data file also has ``aktionen:`` gets both – the
    Python ones first – and needs no ``system:`` of its own."""
    from engine.params import IntParam as Int

    python = System("mixed_test", "Gemischt", "005_0123456789abcdef.txt")

    @python.action(
        "python_roll",
        title="Aus Python",
        summary="Ein Wurf aus Python.",
        source="005_0123456789abcdef.txt L1",
        params=(Int("wert", "Wert"),),
    )
    def python_roll(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        return {"display": {"headline": "Aus Python", "outcome": "", "sections": []}}

    content = declaration()
    del content["system"]
    data = RuleData("mixed_test.yaml", json.loads(json.dumps(content)))
    monkeypatch.setitem(SYSTEMS, "mixed_test", python)
    monkeypatch.setattr(declarative, "load", lambda name: data)
    monkeypatch.setattr(declarative, "DECLARED", {})
    assert declarative.load_system("mixed_test") is python
    names = [
        a["name"]
        for a in next(s for s in api.catalog()["systems"] if s["name"] == "mixed_test")["actions"]
    ]
    assert names == ["python_roll", "initiative", "angriff", "schaden", "patzer"]
    assert api.run("mixed_test", "angriff", {"angriffswert": 3}, 1)["ok"]
    assert declarative.DECLARED["mixed_test"] == ["initiative", "angriff", "schaden", "patzer"]


# ------------------------------------------------------------------ a single roll, no rule


SINGLE_ROLL: dict[str, Any] = {
    "art": "wurf",
    "titel": "Absturz",
    "zusammenfassung": "2W6 + 1 je 3 volle Meter über 2 m (höchstens +4) − Polster.",
    "quelle": "L1",
    "wurf": "2W6",
    "felder": [
        {"name": "hoehe", "label": "Höhe", "vorgabe": 7, "min": 0, "max": 40, "pflicht": True},
        {"name": "polster", "label": "Polster", "vorgabe": 0, "min": 0, "max": 10},
        {"name": "nass", "label": "Im Wasser", "art": "ja_nein"},
    ],
    "modifikatoren": [
        {"feld": "hoehe", "label": "Höhe {wert} m", "ab": 2, "je": 3, "hoechstens": 4},
        {"feld": "polster", "label": "Polster", "faktor": -1},
    ],
    "ergebnis": [
        {"bis": 4, "meldung": "Nur Prellungen."},
        {"wenn": "nass", "meldung": "{summe} Schaden, gedämpft."},
        {"meldung": "{summe} Schaden."},
    ],
    "chancen": [{"name": "nur Prellungen", "bis": 4}, {"name": "schwer", "von": 12}],
    "zusatzwurf": {"name": "welle", "wenn": "nass", "wurf": "1W4", "meldung": "Welle {summe}."},
}


def declared_with(name: str, **actions: dict[str, Any]) -> System:
    content = declaration()
    content["aktionen"].update(copy.deepcopy(actions))
    system = declare(content, name)
    SYSTEMS[name] = system
    return system


@pytest.mark.parametrize(("height", "padding"), [(0, 0), (7, 2), (9, 0), (40, 10)])
def test_a_single_roll_equals_enumeration(height: int, padding: int) -> None:
    """``art: wurf``: 2W6 + the height's share (above 2 m, one per full 3 m, at most +4) − the
    padding; the outcome by the first row that fits, every chance and the distribution of the
    total against an enumeration of all faces."""
    declared_with("single_test", absturz=SINGLE_ROLL)
    bonus = min(4, max(0, height - 2) // 3) - padding
    try:
        for seed in range(4):
            params = {"hoehe": height, "polster": padding}
            result = api.run("single_test", "absturz", params, seed)["result"]
            assert result["total"] == result["roll"]["total"] + bonus
            assert [m["value"] for m in result["modifiers"]] == [bonus + padding, -padding]
            assert result["modifiers"][0]["name"] == f"Höhe {height} m"
            assert Fraction(result["chances"]["nur Prellungen"]) == brute.chance(
                [6, 6], lambda f: sum(f) + bonus <= 4
            )
            assert Fraction(result["chances"]["schwer"]) == brute.chance(
                [6, 6], lambda f: sum(f) + bonus >= 12
            )
            exact = {int(k): Fraction(v) for k, v in result["chances"]["exact"].items()}
            assert exact == brute.distribution([6, 6], lambda f: sum(f) + bonus)
            total = result["total"]
            words = "Nur Prellungen." if total <= 4 else f"{total} Schaden."
            assert result["display"]["outcome"] == words
            assert "welle" not in result
        wet = api.run("single_test", "absturz", {"hoehe": height, "nass": True}, 3)["result"]
        if wet["total"] > 4:
            assert wet["display"]["outcome"].startswith(f"{wet['total']} Schaden, gedämpft.")
        assert wet["display"]["outcome"].endswith(f" Welle {wet['welle']['total']}.")
        assert wet["chances"]["expected_welle"] == "5/2"
        spec = api.describe("single_test", "absturz")
        assert spec["result_formerly"]["expected_welle"] == ["welle_erwartung"]
        assert [p["name"] for p in spec["params"]] == ["hoehe", "polster", "nass"]
    finally:
        del SYSTEMS["single_test"]


@pytest.mark.parametrize(
    ("rounding", "weight", "bonus"), [("abrunden", 70, 1), ("aufrunden", 70, 2)]
)
def test_a_share_rounds_as_declared_and_says_so(rounding: str, weight: int, bonus: int) -> None:
    """„kg / 50“ leaves a remainder: ``rundung`` rounds it down or up, the label says so and a
    result names the rounding where it is an Annahme – only when there was a remainder."""
    text = f"Der Text sagt nicht, wie gerundet wird; hier: {rounding}."
    action = copy.deepcopy(SINGLE_ROLL)
    action["felder"][0]["max"] = 200
    action["modifikatoren"] = [
        {
            "feld": "hoehe",
            "label": "Gewicht {wert} kg / 50",
            "je": 50,
            "rundung": {"wert": rounding, "annahme": True, "text": text, "quelle": "L1"},
        }
    ]
    declared_with("rounding_test", absturz=action)
    try:
        result = api.run("rounding_test", "absturz", {"hoehe": weight}, 1)["result"]
        word = "abgerundet" if rounding == "abrunden" else "aufgerundet"
        assert result["modifiers"] == [
            {"name": f"Gewicht {weight} kg / 50 ({word})", "value": bonus}
        ]
        assert assumed(result) == [text]
        even = api.run("rounding_test", "absturz", {"hoehe": 50}, 1)["result"]
        assert even["modifiers"] == [{"name": "Gewicht 50 kg / 50", "value": 1}]
        assert assumed(even) == []
    finally:
        del SYSTEMS["rounding_test"]


def test_no_rule_says_so_and_rolls_nothing() -> None:
    """``art: keine_regel``: the text has no rule for this – the helper says so (``rule``
    null, its ``erklaerung``), invents nothing and has no Wurfnummer."""
    action = {
        "art": "keine_regel",
        "titel": "Patzer",
        "zusammenfassung": "Der Text hat keine Patzerregel.",
        "quelle": "L1",
        "erklaerung": "Der Text enthält keine Regel für Patzer.",
        "hinweise": ["Ein Fehlschlag richtet keinen Schaden an."],
    }
    declared_with("no_rule_test", keine=action)
    try:
        result = api.run("no_rule_test", "keine", {}, 1)["result"]
        assert result["rule"] is None
        assert result["meaning"] == result["display"]["outcome"] == action["erklaerung"]
        assert result["display"]["headline"] == "Patzer"
        assert result["display"]["sections"] == [
            {"kind": "notes", "caption": "Hinweise", "items": action["hinweise"]}
        ]
        spec = api.describe("no_rule_test", "keine")
        assert spec["rolls_dice"] is False and spec["params"] == []
    finally:
        del SYSTEMS["no_rule_test"]


def test_nach_places_declared_helpers_after_an_action(tmp_path: Path) -> None:
    """``nach: <Aktion>``: a declared helper stands right after that action (the compiled JSON
    sorts the declared ones by name otherwise) – one placed after another after it."""
    content = declaration()
    content["aktionen"]["initiative"]["nach"] = "schaden"
    content["aktionen"]["angriff"]["nach"] = "initiative"
    data = RuleData("order.yaml", json.loads(json.dumps(content, sort_keys=True)))
    system = System("order_test", "Test", "005_0123456789abcdef.txt")
    names = sorted(content["aktionen"])
    for name in names:
        declarative.register(system, data, name)
    declarative._place(system, data, names)
    assert list(system.actions) == ["patzer", "schaden", "initiative", "angriff"]
    content["aktionen"]["schaden"]["nach"] = "angriff"
    data = RuleData("order.yaml", json.loads(json.dumps(content, sort_keys=True)))
    with pytest.raises(DataError) as caught:
        declarative._place(system, data, names)
    assert "Kreis" in str(caught.value) and caught.value.file == "order.yaml"


@pytest.mark.parametrize(
    ("change", "key", "words"),
    [
        (
            {"modifikatoren": [{"feld": "nass", "label": "x"}]},
            "modifikatoren.0.feld",
            "kein Zahlenfeld",
        ),
        (
            {"modifikatoren": [{"feld": "hoehe", "label": "x", "rundung": "kaufmaennisch"}]},
            "modifikatoren.0.rundung",
            "abrunden oder aufrunden",
        ),
        ({"ergebnis": [{"bis": 3, "meldung": "x"}]}, "ergebnis.0", "die letzte Zeile gilt immer"),
        (
            {"ergebnis": [{"wenn": "hoehe", "meldung": "x"}, {"meldung": "y"}]},
            "ergebnis.0.wenn",
            "kein Ja/Nein-Feld",
        ),
        ({"chancen": [{"name": "x"}]}, "chancen.0", "braucht von oder bis"),
        ({"nach": "heilung"}, "nach", "keine andere Aktion"),
    ],
)
def test_a_mistake_in_a_single_roll_names_file_and_key(
    change: dict[str, Any], key: str, words: str
) -> None:
    content = declaration()
    content["aktionen"]["absturz"] = {**copy.deepcopy(SINGLE_ROLL), **change}
    data = RuleData("broken_roll.yaml", json.loads(json.dumps(content)))
    system = System("broken_roll", "Test", "005_0123456789abcdef.txt")
    with pytest.raises(DataError) as caught:
        for name in content["aktionen"]:
            declarative.register(system, data, name)
        declarative._place(system, data, list(content["aktionen"]))
    assert caught.value.key == f"aktionen.absturz.{key}"
    assert caught.value.file == "broken_roll.yaml"
    assert words in str(caught.value)
