"""Findings of a hostile test of the engine, one test (or more) each.

- the exact-odds budget: the slow requests answer within it (result or German refusal naming
  the field and what would fit), a request just inside it keeps its exact odds, the counter
  stops runaway work, one budget per request (engine/budget.py, engine/dice/);
- ``run`` and ``run_json`` never raise: huge integers, invalid JSON, deep nesting, large
  requests, NaN/Infinity, wrong types (engine/api.py, engine/params.py);
- bounded echoes: messages quote at most about 40 characters of input (engine/errors.py);
- required fields: missing or null is an error naming the field, never the form's sample
  values; null for an optional field means its default (engine/params.py).

Times are CPU times of this process (robust against other load on the machine), with
thresholds far above the budget's aim of 0.25 s.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

import pytest

from engine import api, dice
from engine.budget import MAX_WORK, WorkLimitExceeded, request_budget
from engine.dice import exact
from engine.errors import EngineError, echo

SLOW = 0.5
"""CPU seconds a request may take in these tests (the budget aims at 0.25 s)."""


def timed(call: Callable[[], Any]) -> tuple[Any, float]:
    started = time.process_time()
    value = call()
    return value, time.process_time() - started


def suggestion(message: str) -> str:
    """The expression a budget refusal suggests („möglich ist etwa „…“ …“)."""
    head = "möglich ist etwa „"
    return message[message.index(head) + len(head) :].split("“")[0]


# ---------------------------------------------------------------------------------------------
# the work budget
# ---------------------------------------------------------------------------------------------

SLOW_REQUESTS = [
    # finding: 1.1–2.1 s in CPython, 3.2 s in Pyodide
    ("allgemein", "wurf", {"notation": "78W324", "mode": "vorteil"}, "notation"),
    # finding: 0.8–1.7 s in CPython, up to 3.9 s in Pyodide
    ("dsa", "damage", {"damage": "50W660", "ko": 12, "lep": 30}, "damage"),
]


@pytest.mark.parametrize(("system", "action", "params", "field"), SLOW_REQUESTS)
def test_the_slow_requests_answer_within_the_budget(
    system: str, action: str, params: dict[str, Any], field: str
) -> None:
    answer, seconds = timed(lambda: api.run(system, action, params, 1))
    assert seconds < SLOW
    if answer["ok"]:
        return
    error = answer["error"]
    assert error["field"] == field
    assert "zu groß für eine exakte Berechnung" in error["message"]
    assert "möglich ist etwa „" in error["message"]  # says concretely what would fit


def test_the_refusal_names_the_mode_and_what_fits() -> None:
    answer = api.run("allgemein", "wurf", {"notation": "78W324", "mode": "vorteil"}, 1)
    message = answer["error"]["message"]
    assert message.startswith(
        "Würfelausdruck: „78W324“ mit Vorteil ist zu groß für eine exakte Berechnung der "
        "Wahrscheinlichkeiten – möglich ist etwa „"
    )
    assert message.endswith("“ mit Vorteil.")
    fits = dice.parse(suggestion(message))
    assert fits.terms[0].sides == 324 and 1 <= fits.dice_count < 78


def test_refused_before_the_heavy_work_starts() -> None:
    """The estimate refuses up front: the largest expressions cost next to nothing."""
    for notation in ("100W1000", "100W1000kh50", "20W1000+20W1000+20W1000+20W1000+20W1000"):
        for mode in ("normal", "vorteil"):
            answer, seconds = timed(
                lambda n=notation, m=mode: api.run(
                    "allgemein", "wurf", {"notation": n, "mode": m}, 1
                )
            )
            assert not answer["ok"] and answer["error"]["field"] == "notation"
            assert seconds < 0.05


@pytest.mark.parametrize("mode", ["normal", "vorteil", "nachteil"])
def test_just_inside_the_budget_still_gets_exact_odds(mode: str) -> None:
    """The suggested expression is computed, exactly; one die more is refused. It is the
    heaviest request the budget lets through, so its time is the budget's calibration, not a
    behaviour: scripts/worst_case.py prints it (a CPU-time bound here failed at 0.73 s on a
    fresh clone while the browser tests ran beside it; the work budget is what holds it)."""
    refused = api.run("allgemein", "wurf", {"notation": "100W324", "mode": mode}, 1)
    fits = suggestion(refused["error"]["message"])
    answer = api.run("allgemein", "wurf", {"notation": fits, "mode": mode}, 1)
    assert answer["ok"], answer
    count = dice.parse(fits).dice_count
    result = answer["result"]
    exact = Fraction(result["chances"]["exact"])
    outcomes = 324 ** (count * (1 if mode == "normal" else 2))
    assert (exact * outcomes).denominator == 1  # a count of the outcomes: exact, not rounded
    if mode == "normal":
        assert Fraction(result["expected"]) == Fraction(count * 325, 2)
    more = api.run("allgemein", "wurf", {"notation": f"{count + 1}W324", "mode": mode}, 1)
    assert not more["ok"] and more["error"]["field"] == "notation"


def test_every_dice_field_answers_in_time_with_the_largest_expressions() -> None:
    """Every action with a dice field, the largest expressions the parser allows."""
    cases = [
        ("allgemein", "wurf", "notation", {}),
        ("dsa", "damage", "damage", {"ko": 12, "lep": 30}),
        ("dsa", "attack", "damage", {"wert": 14}),
        ("pathfinder", "hit_points", "damage", {"hp": 12, "konstitution": 12}),
    ]
    for system, action, field, rest in cases:
        for notation in ("100W1000", "99W1000kh1", "100W1000kh99", "60W324", "40W1000kh2"):
            params = {**rest, field: notation}
            answer, seconds = timed(lambda s=system, a=action, p=params: api.run(s, a, p, 1))
            assert seconds < SLOW, (system, action, notation, seconds)
            if not answer["ok"]:
                assert answer["error"]["field"] == field, answer["error"]


def lying_estimate(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the up-front estimate claim that everything is free (a bug in the cost model)."""
    monkeypatch.setattr(exact, "work", lambda expression, use=dice.PLAIN_USE: 0)


def test_the_counter_stops_runaway_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """The safety net: even if the estimate were wrong, the loops stop at the limit."""
    lying_estimate(monkeypatch)
    expression = dice.parse("100W1000")
    started = time.process_time()
    with request_budget(limit=20_000_000) as budget:
        with pytest.raises(WorkLimitExceeded) as info:
            dice.counts(expression, field="wurf", label="Schaden")
        assert budget.spent > budget.limit
    assert time.process_time() - started < SLOW  # stopped early (the whole takes seconds)
    assert info.value.field == "wurf"
    assert info.value.message.startswith("Schaden: die exakte Berechnung der Wahrscheinlichkeiten")
    # the keep-highest programme and a caller's loop are counted too
    with request_budget(limit=5_000_000), pytest.raises(WorkLimitExceeded):
        dice.counts(dice.parse("60W1000kh30"))
    with request_budget(limit=2_000_000), pytest.raises(WorkLimitExceeded):
        exact = dice.counts(dice.parse("1W1000"), use=dice.Use(per_total=100_000))
        for _ in exact.items():
            pass


def test_the_counter_answers_through_the_api(monkeypatch: pytest.MonkeyPatch) -> None:
    lying_estimate(monkeypatch)
    answer, seconds = timed(
        lambda: api.run("allgemein", "wurf", {"notation": "100W1000", "mode": "vorteil"}, 1)
    )
    assert not answer["ok"] and answer["error"]["field"] == "notation"
    assert "abgebrochen" in answer["error"]["message"]
    assert seconds < 2 * SLOW


def test_one_budget_per_request_shared_by_its_distributions() -> None:
    big = dice.parse("60W200")
    cost = dice.work(big)
    with request_budget(limit=int(cost * 1.5)):
        dice.counts(big, field="a", label="Erster")
        # the same expression again: cached, only the caller's loop is charged
        dice.counts(big, field="a", label="Erster")
        with pytest.raises(EngineError) as info:
            dice.counts(dice.parse("59W200"), field="b", label="Zweiter")
    assert info.value.field == "b" and info.value.message.startswith("Zweiter: „59W200“")
    with request_budget() as budget:
        assert budget.limit == MAX_WORK
    # outside a request every call gets a budget of its own
    dice.counts(big)
    dice.counts(big)


def test_the_estimate_follows_the_computation() -> None:
    """What the loops charge never exceeds the estimate (the same plan)."""
    for notation in ("40W324", "10W100kh3+20W6", "-5W20kl2+3W1000+7", "100W6kh50", "2W20kh1"):
        expression = dice.parse(notation)
        for use in (dice.PLAIN_USE, dice.Use(pair="best"), dice.DISTRIBUTION_USE):
            with request_budget(limit=10**15) as budget:
                for _ in dice.counts(expression, use=use).items():
                    pass
            assert budget.spent <= dice.work(expression, use), (notation, use)


# ---------------------------------------------------------------------------------------------
# run and run_json never raise; German messages for malformed requests
# ---------------------------------------------------------------------------------------------


def run_json(request: str) -> dict[str, Any]:
    answer, seconds = timed(lambda: api.run_json(request))
    assert seconds < SLOW
    parsed: dict[str, Any] = json.loads(answer)
    return parsed


def body(params: Any, system: Any = "ryssea", action: Any = "initiative") -> str:
    return json.dumps({"system": system, "action": action, "params": params, "seed": 1})


def fighter(**values: Any) -> dict[str, Any]:
    return {"name": "A", "ini": 10, "intuition": 3, **values}


@pytest.mark.parametrize(
    ("request_text", "field", "message"),
    [
        ("", "", "Anfrage: kein gültiges JSON (Zeile 1, Spalte 1)."),
        ('{"system": ', "", "Anfrage: kein gültiges JSON (Zeile 1, Spalte 12)."),
        ("[1, 2]", "", "Anfrage: muss ein JSON-Objekt sein, nicht eine Liste mit 2 Einträgen."),
        ('"x"', "", "Anfrage: muss ein JSON-Objekt sein, nicht x."),
        (
            "[" * 100_000 + "]" * 100_000,
            "",
            "Anfrage: zu tief verschachtelt (höchstens 20 Ebenen).",
        ),
        (
            '{"params": ' + "[" * 25 + "]" * 25 + "}",
            "",
            "Anfrage: zu tief verschachtelt (höchstens 20 Ebenen).",
        ),
        (
            '{"seed": NaN}',
            "",
            "Anfrage: NaN ist keine gültige Zahl (NaN und Infinity gibt es in JSON nicht).",
        ),
        (
            '{"seed": -Infinity}',
            "",
            "Anfrage: -Infinity ist keine gültige Zahl (NaN und Infinity gibt es in JSON nicht).",
        ),
        (
            '{"seed": ' + "7" * 5_000 + "}",
            "",
            "Anfrage: eine Zahl mit 5.000 Stellen ist zu lang (höchstens 100 Stellen).",
        ),
        (body({}, system=3), "system", "System: muss ein Text sein, nicht 3."),
        (
            body({}, action=["x"]),
            "action",
            "Aktion: muss ein Text sein, nicht eine Liste mit 1 Eintrag.",
        ),
        (body({}, system=None), "system", "System: muss ein Text sein, nicht leer."),
    ],
)
def test_malformed_requests_get_german_messages(
    request_text: str, field: str, message: str
) -> None:
    answer = run_json(request_text)
    assert answer["ok"] is False
    assert answer["error"] == {"field": field, "message": message}


def test_deep_nesting_is_refused_before_json_parses_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """In Pyodide the C JSON parser overflows the WebAssembly stack on deep nesting (a fatal
    error no ``except`` catches), so the depth is checked on the text first."""

    def never(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("json.loads must not see this request")

    monkeypatch.setattr(api.json, "loads", never)  # the module json itself: undo before use
    texts = ("[" * 100_000, "{" * 30, '{"a": ' + "[" * 21 + "]" * 21 + "}")
    answers = [api.run_json(text) for text in texts]
    monkeypatch.undo()
    for answer in answers:
        assert json.loads(answer)["error"]["message"] == (
            "Anfrage: zu tief verschachtelt (höchstens 20 Ebenen)."
        )
    # brackets inside strings do not nest
    answer = run_json(body({"fighters": [fighter(name="[" * 35)]}))
    assert answer["error"]["field"] == "fighters.0.name"  # too long a name, not too deep
    assert run_json('{"a": ' + "[" * 19 + "]" * 19 + ', "system": 1}')["error"]["field"] == "system"


def test_a_request_too_large_is_refused_with_its_limit() -> None:
    answer = run_json(body({"fighters": [fighter(name="x" * 2_000_000)]}))
    assert answer["error"]["field"] == ""
    assert answer["error"]["message"].startswith("Anfrage: zu groß (2.000.")
    assert answer["error"]["message"].endswith("höchstens 1.000.000 Zeichen (etwa 1 MB).")


@pytest.mark.parametrize(
    ("value", "message"),
    [
        # finding: „99999999999999999999 ist keine ganze Zahl“ – it is one, out of range
        (99999999999999999999, "99999999999999999999 liegt außerhalb des erlaubten Bereichs"),
        ("99999999999999999999", "99999999999999999999 liegt außerhalb des erlaubten Bereichs"),
        (-(10**30), "−1000000000000000000000000000000 liegt außerhalb"),
        ("9" * 5_000, "9" * 40 + "… liegt außerhalb des erlaubten Bereichs (0 bis 99)."),
        (1.5, "muss eine ganze Zahl sein, nicht 1,5."),
        (1e300, "liegt außerhalb des erlaubten Bereichs (0 bis 99)."),
        (True, "muss eine ganze Zahl sein, nicht ja/nein."),
        ("zwölf", "„zwölf“ ist keine ganze Zahl."),
        ([1], "muss eine ganze Zahl sein."),
    ],
)
def test_integers_out_of_range_and_other_types(value: Any, message: str) -> None:
    answer = run_json(body({"fighters": [fighter(ini=value)]}))
    error = answer["error"]
    assert error["field"] == "fighters.0.ini"
    assert error["message"].startswith("Kämpfer 1 – INI: ")
    assert message in error["message"]
    assert len(error["message"]) < 200


def test_the_range_is_shown_in_german_numbers() -> None:
    answer = api.run("guete", "initiative", {"fighters": [{"name": "A", "wert": 10**19}]}, 1)
    assert answer["error"]["message"] == (
        "Kämpfer 1 – Initiativwert: 10000000000000000000 liegt außerhalb des erlaubten "
        "Bereichs (−99 bis 999)."
    )


def test_run_never_raises_for_a_huge_integer() -> None:
    """Finding: ``run()`` raised ValueError for an integer of more than 4,300 digits."""
    answer = api.run("ryssea", "initiative", {"fighters": [fighter(ini=10**5_000)]}, 1)
    assert answer["error"] == {
        "field": "fighters.0.ini",
        "message": "Kämpfer 1 – INI: eine Zahl mit etwa 5.001 Stellen liegt außerhalb des "
        "erlaubten Bereichs (0 bis 99).",
    }
    answer = api.run("ryssea", "initiative", {"fighters": [fighter()]}, 10**5_000)
    assert answer["error"]["field"] == "seed"
    answer = api.run(["kein", "Text"], "initiative", {}, 1)  # type: ignore[arg-type]
    assert answer["error"]["field"] == "system" and answer["system"] == "eine Liste mit 2 Einträgen"


def test_unexpected_failures_answer_in_german(monkeypatch: pytest.MonkeyPatch) -> None:
    """The last resort (a bug) is German and short, with the kind of failure for a report."""
    from dataclasses import replace

    from engine.registry import SYSTEMS

    def broken(params: dict[str, Any], rng: Any) -> dict[str, Any]:
        raise KeyError("x" * 10_000)

    action = SYSTEMS["allgemein"].actions["wurf"]
    monkeypatch.setitem(SYSTEMS["allgemein"].actions, "wurf", replace(action, func=broken))
    answer = json.loads(api.run_json(body({"notation": "1W6"}, "allgemein", "wurf")))
    assert answer["ok"] is False
    assert answer["error"]["message"] == (
        "Interner Fehler der Regel-Engine – bitte melden (mit Eingaben und Seed)."
    )
    assert (
        answer["error"]["detail"].startswith("KeyError: ") and len(answer["error"]["detail"]) <= 121
    )


# ---------------------------------------------------------------------------------------------
# bounded echoes
# ---------------------------------------------------------------------------------------------

TEN_MB = "Ä" * 10_000_000


def ten_mb_requests() -> Iterator[tuple[str, str, Any]]:
    yield TEN_MB, "initiative", {}
    yield "ryssea", TEN_MB, {}
    yield "ryssea", "initiative", {TEN_MB: 1}
    yield "ryssea", "initiative", {"fighters": [fighter(name=TEN_MB)]}
    yield "ryssea", "initiative", {"fighters": [fighter(ini=TEN_MB)]}
    yield "ryssea", "initiative", {"fighters": [fighter(ini="9" * 10_000_000)]}
    yield "allgemein", "wurf", {"notation": TEN_MB}
    yield "allgemein", "wurf", {"notation": "1W6", "mode": TEN_MB}
    yield (
        "dsa",
        "initiative",
        {"fighters": [{"name": "A", "seite": "H", "ini_basis": 9}], "taktiker": TEN_MB},
    )
    yield "ryssea", "tickleiste", {"command": "handeln", "fighter": TEN_MB}
    yield "ryssea", "tickleiste", {"state": {"version": TEN_MB}}
    yield "ryssea", "tickleiste", {"state": {"version": 1, "fighters": [{"name": TEN_MB}]}}


@pytest.mark.parametrize("index", range(12))
def test_a_ten_megabyte_input_gives_a_short_message(index: int) -> None:
    system, action, params = list(ten_mb_requests())[index]
    answer, seconds = timed(lambda: api.run(system, action, params, 1))
    assert not answer["ok"]
    assert len(answer["error"]["message"]) < 200, answer["error"]["message"][:300]
    assert len(answer["error"]["field"]) < 100
    assert len(json.dumps({k: answer[k] for k in ("system", "action", "error")})) < 1_000
    assert seconds < 2 * SLOW


def test_echo_cuts_and_describes() -> None:
    assert echo("x" * 100) == "x" * 40 + "…"
    assert echo("a\nb") == "a b"
    assert echo(10**100) == "eine Zahl mit etwa 101 Stellen"
    assert echo(-5) == "−5"
    assert echo(float("nan")) == "keine Zahl (NaN)"
    assert echo(None) == "leer" and echo(True) == "ja"
    assert echo({"a": 1}) == "ein Objekt mit 1 Feld"
    assert echo([1, 2]) == "eine Liste mit 2 Einträgen"


# ---------------------------------------------------------------------------------------------
# required fields: missing or null
# ---------------------------------------------------------------------------------------------


def test_an_empty_request_no_longer_rolls_the_sample_fighters() -> None:
    """Finding: ``{}`` rolled the ryssea initiative for the sample fighters Alrik and Bruna."""
    for params in ({}, {"fighters": None}, None):
        answer = api.run("ryssea", "initiative", params, 1)
        assert answer["error"] == {
            "field": "fighters",
            "message": "Kämpfer: fehlt – bitte mindestens 1 Kämpfer eintragen.",
        }


@pytest.mark.parametrize("missing", [{}, {"ini": None}])
def test_a_missing_or_null_required_field_is_named(missing: dict[str, Any]) -> None:
    row = {"name": "A", "intuition": 3, **missing}
    answer = api.run("ryssea", "initiative", {"fighters": [row]}, 1)
    assert answer["error"] == {
        "field": "fighters.0.ini",
        "message": "Kämpfer 1 – INI: fehlt – bitte eine ganze Zahl eintragen.",
    }


def test_null_for_an_optional_field_means_its_default() -> None:
    given = api.run("ryssea", "initiative", {"fighters": [fighter(modifier=0)]}, 5)
    null = api.run("ryssea", "initiative", {"fighters": [fighter(modifier=None)]}, 5)
    assert null["ok"] and null == given


def test_required_in_a_situation_names_the_situation() -> None:
    params = {"eig1": 10, "eig2": 10, "eig3": 10, "taw": 5, "damage": "1W6", "verteidigung": 20}
    assert api.run("ryssea", "attack", params, 1)["ok"]
    answer = api.run("ryssea", "attack", {**params, "aktive_abwehr": True}, 1)
    assert answer["error"] == {
        "field": "abwehr_eig1",
        "message": "Abwehr – Eigenschaft 1: fehlt – bitte eine ganze Zahl eintragen (nötig bei "
        "Aktive Abwehr des Ziels: ja).",
    }
    answer = api.run("ryssea", "attack", {**params, "angriffsart": "fernkampf"}, 1)
    assert answer["error"]["field"] == "grundreichweite"
    assert "(nötig bei Angriffsart: Fernkampfangriff)" in answer["error"]["message"]


def test_describe_exposes_required() -> None:
    """Every field says whether it is required; the forms keep their sample defaults."""
    for system in api.catalog()["systems"]:
        for action in system["actions"]:
            for field in api.describe(system["name"], action["name"])["params"]:
                assert isinstance(field["required"], bool)
                assert "default" in field
    wurf = {f["name"]: f for f in api.describe("allgemein", "wurf")["params"]}
    assert wurf["notation"]["required"] is True and wurf["notation"]["default"] == "1W6"
    assert wurf["mode"]["required"] is False
    tick = {f["name"]: f for f in api.describe("ryssea", "tickleiste")["params"]}
    assert tick["ini"]["required_when"] == {"field": "command", "values": ["hinzufuegen"]}
