"""The fight contract (engine/fight_contract.py): each system's life values, the states they lead
to by which rule, and the conditions – read from ``kampf:`` of its data, checked against its
text line by line; the one state function ``state_of`` brute-forced over the ranges around every
bound; the JSON boundary (``{"type": "fight"}``, ``{"type": "state"}``) and the command line.

Every action of the catalogue that changes a target's life values is held to the same function
(``target_state`` = ``state_of`` of its ``target_update``), and each state of its system must be
reachable through it – over the registry, never a list of systems.
"""

from __future__ import annotations

import copy
import itertools
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine import api, cli, declarative, fight_contract
from engine.data_files import DataError, RuleData, assumptions_used
from engine.fight_contract import contract_of, state_of
from engine.registry import SYSTEMS, System
from tests.conftest import ROOT

QUELLEN = ROOT / "quellen"
SYSTEM_NAMES = [s["name"] for s in api.catalog()["systems"]]
FIXTURE = ROOT / "tests" / "fixtures" / "klingenspiel" / "klingenspiel.yaml"


def lines(source: str) -> list[str]:
    return (QUELLEN / source).read_text(encoding="utf-8").splitlines()


def text_at(source: str, first: int, last: int | None = None) -> str:
    """Lines ``first`` … ``last`` (1-based) of a source text."""
    return "\n".join(lines(source)[first - 1 : (last or first)])


# ------------------------------------------------------------------ every system has one


@pytest.mark.parametrize("system", SYSTEM_NAMES)
def test_every_system_has_a_contract_in_the_agreed_shape(system: str) -> None:
    """The JSON the page builds against (issue 48): exact keys, every system – a system without
    a fight has empty lists."""
    fight = api.fight_contract(system)
    assert json.loads(json.dumps(fight)) == fight
    assert set(fight) == {"system", "values", "reads", "states", "fit", "conditions", "note"}
    assert fight["system"] == system
    for value in fight["values"]:
        assert set(value) == {"name", "title", "label", "min", "max", "by_hand", "source"}
        assert value["min"] <= value["max"] and isinstance(value["by_hand"], bool)
    for read in fight["reads"]:
        assert set(read) == {"name", "title", "min", "max"}
    for state in fight["states"]:
        assert set(state) == {"id", "zustand", "text", "rule", "source"}
        assert state["zustand"] in ("kampfunfähig", "tot")
        assert state["rule"].endswith(f": {state['text']}")
    assert set(fight["fit"]) == {"id", "text"}
    for condition in fight["conditions"]:
        assert set(condition) == {"name", "source"}
    assert isinstance(fight["note"], str)
    ids = [s["id"] for s in fight["states"]] + [fight["fit"]["id"]]
    assert len(ids) == len(set(ids))


def cited(source: str) -> Iterator[tuple[str, int, int]]:
    """(file, first, last) of every „L12–L20“ a source citation names."""
    files = re.findall(r"\d{3}_[0-9a-f]{16}\.txt", source)
    assert files, source
    for first, last in re.findall(r"L(\d+)(?:–L(\d+))?", source):
        yield files[0], int(first), int(last or first)


@pytest.mark.parametrize("system", SYSTEM_NAMES)
def test_every_cited_line_is_in_the_text(system: str) -> None:
    fight = api.fight_contract(system)
    for item in [*fight["values"], *fight["states"], *fight["conditions"]]:
        for source, first, last in cited(item["source"]):
            assert 1 <= first <= last <= len(lines(source)), (system, item)


# the text's own word where the condition's name is its adjective (Güte, 002: „Festhalten“ –
# „ihren Gegner festzuhalten“, „so gegriffen“ L167–L173; „Solange eine Figur eine andere
# festhält“ L175)
WORD_IN_TEXT = {("guete", "festgehalten"): "festzuhalten", ("guete", "hält fest"): "festhält"}


@pytest.mark.parametrize("system", SYSTEM_NAMES)
def test_every_condition_is_a_word_of_the_text_at_its_lines(system: str) -> None:
    """Only names the text uses, each with its line (DSA: one line, the section named)."""
    for condition in api.fight_contract(system)["conditions"]:
        word = WORD_IN_TEXT.get((system, condition["name"]), condition["name"])
        spans = list(cited(condition["source"]))
        if not spans:  # DSA cites the section of its one line
            file = re.findall(r"\d{3}_[0-9a-f]{16}\.txt", condition["source"])[0]
            spans = [(file, 1, 1)]
        found = any(word.lower() in text_at(f, a, b).lower() for f, a, b in spans)
        assert found, (system, condition)


# ------------------------------------------------------------------ each system's text


def test_dsa_lep_thresholds_are_the_texts() -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Crits und Patzer", Absatz „Ist ein Kämpfer stark
    verwundet …“: „Ab 5 LeP ist ein Kämpfer kampfunfähig Ab 0 LeP ist ein Kämpfer
    lebensbedrohlich verletzt und stirbt innerhalb von KO * W6 KR Ab (KO*-1) LeP ist ein Kämpfer
    tot“ – LeP and Wunden tracked, KO read."""
    text = (QUELLEN / "001_240b8e52c108db7c.txt").read_text(encoding="utf-8")
    assert "Ab 5 LeP ist ein Kämpfer kampfunfähig Ab 0 LeP ist ein Kämpfer lebensbedrohlich" in text
    fight = api.fight_contract("dsa")
    assert [v["name"] for v in fight["values"]] == ["lep", "wunden"]
    assert [r["name"] for r in fight["reads"]] == ["ko"]
    assert [(s["id"], s["zustand"], s["rule"]) for s in fight["states"]] == [
        ("tot", "tot", "LeP ≤ −KO: tot"),
        ("lebensbedrohlich", "kampfunfähig", "LeP ≤ 0: lebensbedrohlich verletzt"),
        ("kampfunfaehig", "kampfunfähig", "LeP ≤ 5: kampfunfähig"),
    ]
    assert fight["fit"] == {"id": "kampffaehig", "text": "kampffähig"}


def test_pathfinder_hit_points_states_are_the_texts() -> None:
    """004_019b513a861ec26f.txt L95: „Wenn deine Trefferpunkte auf 0 fallen, bist du
    kampfunfähig. Sobald sie auf – 1 fallen, giltst du als sterbend. Wenn sie auf einen Wert in
    Höhe deines negativen Konstitutionswerts fallen, bist du tot.“ No condition of a fighter is
    named in the chapter."""
    assert "als sterbend" in text_at("004_019b513a861ec26f.txt", 95)
    fight = api.fight_contract("pathfinder")
    assert [(s["id"], s["zustand"], s["rule"]) for s in fight["states"]] == [
        ("tot", "tot", "Trefferpunkte ≤ −Konstitutionswert: tot"),
        ("sterbend", "kampfunfähig", "Trefferpunkte ≤ −1: sterbend"),
        ("kampfunfaehig", "kampfunfähig", "Trefferpunkte ≤ 0: kampfunfähig"),
    ]
    assert fight["fit"] == {"id": "bei_kraeften", "text": "über 0 Trefferpunkte"}
    assert fight["conditions"] == []


def test_aktionswuerfel_states_are_the_texts() -> None:
    """003_3ac4060591b07c19.txt L104: at Gesundheit 0 the character dies „und kann nur durch
    den Einsatz von Schicksalswürfeln gerettet werden“ (said in the state's text); L110: „mit
    zwei kritischen Wunden sind kampfunfähig“; conditions festgehalten (L65), liegt (L76)."""
    assert "Schicksalswürfeln" in text_at("003_3ac4060591b07c19.txt", 104)
    assert "zwei kritischen Wunden sind kampfunfähig" in text_at("003_3ac4060591b07c19.txt", 110)
    fight = api.fight_contract("aktionswuerfel")
    assert [v["name"] for v in fight["values"]] == ["gesundheit", "kritische_wunden"]
    tot, down = fight["states"]
    assert tot["rule"].startswith("Gesundheit ≤ 0: tot") and "Schicksalswürfel" in tot["text"]
    assert down["rule"] == "kritische Wunden ≥ 2: kampfunfähig"
    assert [c["name"] for c in fight["conditions"]] == ["festgehalten", "liegt"]


def test_guete_tracks_le_ke_aus_and_leaves_the_states_to_the_game_master() -> None:
    """002_51e59e824768e9e9.txt L21 (Lebensenergie), L23 (körperliche Energie), L27 (Ausdauer):
    what a hit costs. The thresholds are in „Gesundheit und Schaden“ (L235: „schwer verletzt
    (und damit automatisch als kampfunfähig, s. Gesundheit und Schaden)“), a chapter the text
    lacks – no rule, not even an Annahme; the note says so."""
    source = "002_51e59e824768e9e9.txt"
    assert "Verlust von Lebensenergie" in text_at(source, 21)
    assert "körperliche Energie" in text_at(source, 23)
    assert "Ausdauer" in text_at(source, 27)
    assert "s. Gesundheit und Schaden" in text_at(source, 235)
    fight = api.fight_contract("guete")
    assert [(v["name"], v["title"]) for v in fight["values"]] == [
        ("le", "LE"),
        ("ke", "KE"),
        ("aus", "AUS"),
    ]
    assert fight["states"] == [] and "Gesundheit und Schaden" in fight["note"]
    assert {"betäubt", "liegend", "kniend", "festgehalten", "wehrlos", "überrascht"} <= {
        c["name"] for c in fight["conditions"]
    }
    assert state_of("guete", {"le": -50, "ke": 0, "aus": 0}) is None


def test_ryssea_keeps_the_lebenspunkte_by_hand() -> None:
    """000_5fbfd0ad384a0921.txt L398 names „die Lebenspunkte und Gesundheitsstufen“ without a
    number: a value the game master keeps by hand, no state rule, a note."""
    assert "Lebenspunkte und Gesundheitsstufen" in text_at("000_5fbfd0ad384a0921.txt", 398)
    fight = api.fight_contract("ryssea")
    assert fight["values"] == [
        {
            "name": "lebenspunkte",
            "title": "Lebenspunkte",
            "label": "Lebenspunkte",
            "min": -999,
            "max": 999,
            "by_hand": True,
            "source": "000_5fbfd0ad384a0921.txt L398",
        }
    ]
    assert fight["states"] == [] and fight["note"]
    assert state_of("ryssea", {"lebenspunkte": -30}) is None


def test_a_system_without_a_fight_has_an_empty_contract() -> None:
    fight = api.fight_contract("allgemein")
    assert fight["values"] == fight["states"] == fight["conditions"] == []


# ------------------------------------------------------------------ state_of, brute force


def dsa(lep: int, ko: int) -> str:
    if lep <= -ko:
        return "tot"
    if lep <= 0:
        return "lebensbedrohlich"
    return "kampfunfaehig" if lep <= 5 else "kampffaehig"


def pathfinder(hp: int, con: int) -> str:
    if hp <= -con:
        return "tot"
    if hp <= -1:
        return "sterbend"
    return "kampfunfaehig" if hp == 0 else "bei_kraeften"


def aktionswuerfel(health: int, criticals: int) -> str:
    if health <= 0:
        return "tot"
    return "kampfunfaehig" if criticals >= 2 else "kampffaehig"


# (system, the text's rule, the two names it reads, their ranges around every bound)
MODELS: list[tuple[str, Callable[[int, int], str], tuple[str, str], range, range]] = [
    ("dsa", dsa, ("lep", "ko"), range(-40, 12), range(1, 31)),
    ("pathfinder", pathfinder, ("hp", "konstitution"), range(-50, 6), range(1, 51)),
    ("aktionswuerfel", aktionswuerfel, ("gesundheit", "kritische_wunden"), range(-6, 6), range(21)),
]


def severity(system: str, state_id: str) -> int:
    """0 for the most severe state (the first rule), the fit state last."""
    ids = [r.id for r in contract_of(system).rules] + [contract_of(system).fit_id]
    return ids.index(state_id)


@pytest.mark.parametrize(("system", "model", "names", "first", "second"), MODELS)
def test_state_of_is_the_texts_rule_at_and_around_every_bound(
    system: str,
    model: Callable[[int, int], str],
    names: tuple[str, str],
    first: range,
    second: range,
) -> None:
    """Every pair of values around the bounds: ``state_of`` gives the text's state (DSA 001
    „Crits und Patzer“, Pathfinder 004 L95, Aktionswürfel 003 L104, L110) and nothing missing."""
    for a, b in itertools.product(first, second):
        state = state_of(system, {names[0]: a, names[1]: b})
        assert state is not None and state["id"] == model(a, b), (a, b, state)
        assert state["missing"] == []
        expected = "tot" if state["id"] == "tot" else None
        assert expected is None or state["zustand"] == "tot"


@pytest.mark.parametrize(("system", "model", "names", "first", "second"), MODELS)
def test_an_unknown_value_is_never_zero(
    system: str,
    model: Callable[[int, int], str],
    names: tuple[str, str],
    first: range,
    second: range,
) -> None:
    """One value unknown (left out, ``None`` or ``""``): the answer is the mildest state any
    value of its range could give, and the unknown value is named in ``missing`` exactly when
    it could have given a more severe one; both unknown: no answer."""
    spans = [
        range(contract_of(system).value(n).minimum, contract_of(system).value(n).maximum + 1)
        if any(v.name == n for v in contract_of(system).values)
        else range(contract_of(system).read(n).minimum, contract_of(system).read(n).maximum + 1)
        for n in names
    ]
    for known_index, (values, unknown) in enumerate(((first, 1), (second, 0))):
        for known in values:
            possible = {
                model(*((known, x) if known_index == 0 else (x, known))) for x in spans[unknown]
            }
            for blank in ({}, {names[unknown]: None}, {names[unknown]: ""}):
                state = state_of(system, {names[known_index]: known, **blank})
                if state is None:
                    # nothing the known value decides on its own
                    assert all(r.value == names[unknown] for r in contract_of(system).rules)
                    continue
                mildest = max(possible, key=lambda s: severity(system, s))
                assert state["id"] == mildest, (known, blank, state, possible)
                title = next(
                    x.title
                    for x in (*contract_of(system).values, *contract_of(system).reads)
                    if x.name == names[unknown]
                )
                assert (state["missing"] == [title]) == (len(possible) > 1), (known, state)
    assert state_of(system, {}) is None
    assert state_of(system, {names[0]: None, names[1]: ""}) is None


def annahme(system: str, key: str) -> str:
    node: Any = contract_of(system).data.content  # type: ignore[union-attr]
    for part in key.split("."):
        node = node[part]
    return " ".join(str(node["text"]).split())


@pytest.mark.parametrize(
    ("system", "values", "key"),
    [
        ("dsa", {"lep": 5, "ko": 12}, "wunden.schwellen"),  # „Ab 5 LeP“ read as ≤ 5
        ("dsa", {"lep": 6, "ko": 12}, None),
        ("dsa", {"lep": -12, "ko": 12}, "wunden.schwellen"),  # on −KO
        ("dsa", {"lep": -30}, "wunden.schwellen"),  # tot for any KO – on the bound at KO 30
        ("dsa", {"lep": -31}, None),
        ("pathfinder", {"hp": -13, "konstitution": 12}, "trefferpunkte.tot_darunter"),
        ("pathfinder", {"hp": -12, "konstitution": 12}, None),  # L95 names −KO itself
        ("pathfinder", {"hp": -1, "konstitution": 12}, None),
    ],
)
def test_a_rule_names_its_assumption_only_where_it_decides(
    system: str, values: dict[str, Any], key: str | None
) -> None:
    """DSA („Ab 5 LeP“, „Ab (KO*-1) LeP“: „ab“ as at or below, an Annahme) names it when the
    LeP sit on a bound; Pathfinder (004 L95: dead „auf einen Wert in Höhe deines negativen
    Konstitutionswerts“; below it an Annahme) when the hit points lie below it."""
    with assumptions_used() as used:
        assert state_of(system, values) is not None
    assert used == ([annahme(system, key)] if key else [])


def test_an_assumption_beyond_the_bound_may_say_no(monkeypatch: pytest.MonkeyPatch) -> None:
    """004 L95 names the negative Konstitutionswert itself; „below it too“ is an Annahme
    (``annahme_jenseits: trefferpunkte.tot_darunter``): set to false, −20 at KO 12 is
    sterbend, −12 still tot."""
    data = contract_of("pathfinder").data
    assert data is not None
    node = data.content["trefferpunkte"]["tot_darunter"]
    monkeypatch.setitem(node, "wert", False)
    assert state_of("pathfinder", {"hp": -20, "konstitution": 12})["id"] == "sterbend"  # type: ignore[index]
    assert state_of("pathfinder", {"hp": -12, "konstitution": 12})["id"] == "tot"  # type: ignore[index]
    unknown = state_of("pathfinder", {"hp": -50})  # dead only on −KO itself: KO decides
    assert unknown is not None and unknown["missing"] == ["Konstitutionswert"]


# ------------------------------------------------------------------ the JSON boundary


def ask(request: dict[str, Any]) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(api.run_json(json.dumps(request)))
    return answer


def test_run_json_gives_the_contract_and_the_state() -> None:
    fight = ask({"type": "fight", "system": "dsa"})
    assert fight == {"ok": True, "fight": api.fight_contract("dsa")}
    state = ask({"type": "state", "system": "dsa", "values": {"lep": 3, "ko": 12}})
    assert state == {
        "ok": True,
        "state": {
            "zustand": "kampfunfähig",
            "text": "kampfunfähig",
            "id": "kampfunfaehig",
            "rule": "LeP ≤ 5: kampfunfähig",
            "missing": [],
        },
    }
    # typed in the overview: numbers as text, an empty field unknown
    typed = ask({"type": "state", "system": "dsa", "values": {"lep": "-15", "ko": ""}})
    assert typed["state"]["id"] == "lebensbedrohlich" and typed["state"]["missing"] == ["KO"]
    assert ask({"type": "state", "system": "guete", "values": {"le": 4}}) == {
        "ok": True,
        "state": None,
    }
    assert ask({"type": "state", "system": "dsa"}) == {"ok": True, "state": None}


@pytest.mark.parametrize(
    ("request_", "field", "words"),
    [
        ({"type": "fight", "system": "nirgendwo"}, "system", "ist unbekannt"),
        ({"type": "state", "system": 3, "values": {}}, "system", "muss ein Text sein"),
        ({"type": "state", "system": "dsa", "values": [1]}, "values", "Werte: müssen ein Objekt"),
        # a life value past the form's limit is the rule's to judge (a hit to LeP −69); only
        # what no fight reaches is refused
        (
            {"type": "state", "system": "dsa", "values": {"lep": 2_000_000}},
            "values.lep",
            "außerhalb",
        ),
        ({"type": "state", "system": "dsa", "values": {"ko": 0}}, "values.ko", "außerhalb"),
        ({"type": "state", "system": "dsa", "values": {"lep": "viel"}}, "values.lep", "keine"),
        ({"type": "state", "system": "dsa", "values": {"lep": True}}, "values.lep", "ja/nein"),
        ({"type": "state", "system": "dsa", "values": {"mut": 3}}, "values.mut", "Unbekanntes"),
    ],
)
def test_bad_state_requests_name_the_field_in_german(
    request_: dict[str, Any], field: str, words: str
) -> None:
    answer = ask(request_)
    assert answer["ok"] is False
    assert answer["error"]["field"] == field and words in answer["error"]["message"]


def test_the_command_line_prints_the_contract_and_a_state(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["kampf", "dsa"]) == 0
    out = capsys.readouterr().out
    assert "LeP ≤ 5: kampfunfähig" in out and "Bedingungen: niedergeworfen" in out
    assert cli.main(["kampf", "pathfinder", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == api.fight_contract("pathfinder")
    assert cli.main(["zustand", "dsa", "--lep", "3", "--ko", "12"]) == 0
    assert capsys.readouterr().out == "kampfunfähig – LeP ≤ 5: kampfunfähig\n"
    assert cli.main(["zustand", "dsa", "--lep", "-15"]) == 0
    out = capsys.readouterr().out
    assert "lebensbedrohlich verletzt (kampfunfähig)" in out and "KO" in out.splitlines()[1]
    assert cli.main(["zustand", "dsa", "--lep", "2000000"]) == 2
    assert "LeP: 2000000 liegt außerhalb" in capsys.readouterr().err


# ------------------------------------------------------------------ declared in YAML


def declaration() -> dict[str, Any]:
    content: dict[str, Any] = yaml.safe_load(FIXTURE.read_text(encoding="utf-8"))
    return content


def declare(content: dict[str, Any], name: str) -> System:
    system = System(name, content["system"]["titel"], content["system"]["quelle"])
    data = RuleData(f"{name}.yaml", json.loads(json.dumps(content)))
    fight_contract.declare(name, data)
    for action in content["aktionen"]:
        declarative.register(system, data, action)
    return system


def test_a_yaml_system_fights_without_code(monkeypatch: pytest.MonkeyPatch) -> None:
    """tests/fixtures/klingenspiel/quelle.txt L13: „Bei 0 oder weniger Lebenspunkten ist ein
    Kämpfer bewusstlos, bei −5 oder weniger tot.“ – ``kampf:`` declares it; the damage helper's
    ``target_state`` is the contract's."""
    monkeypatch.setitem(SYSTEMS, "kampf_test", declare(declaration(), "kampf_test"))
    fight = api.fight_contract("kampf_test")
    assert [(s["id"], s["rule"]) for s in fight["states"]] == [
        ("tot", "LeP ≤ −5: tot"),
        ("bewusstlos", "LeP ≤ 0: bewusstlos"),
    ]
    assert fight["conditions"] == [{"name": "gestolpert", "source": "005_0123456789abcdef.txt L17"}]
    for lep, state in ((6, "kampffaehig"), (0, "bewusstlos"), (-5, "tot"), (-4, "bewusstlos")):
        assert state_of("kampf_test", {"lebenspunkte": lep})["id"] == state  # type: ignore[index]
    answer = api.run("kampf_test", "schaden", {"waffe": "3", "lebenspunkte": 3}, 1)
    assert answer["result"]["target_update"] == {"lebenspunkte": 0}
    assert answer["result"]["target_state"] == state_of("kampf_test", {"lebenspunkte": 0})


def test_the_short_form_is_the_damage_actions_resource_and_states(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without ``kampf:``, the ``ressource`` and ``zustand`` of the ``art: schaden`` actions are
    the contract (CONTRIBUTING.md: the short form)."""
    content = declaration()
    del content["kampf"]
    content["aktionen"]["schaden"]["zustand"] = [
        {"bis": 0, "zustand": "kampfunfähig", "text": "bewusstlos"},
        {"bis": -5, "zustand": "tot", "text": "tot"},
    ]
    monkeypatch.setitem(SYSTEMS, "kurz_test", declare(content, "kurz_test"))
    fight = api.fight_contract("kurz_test")
    assert fight["values"] == [
        {
            "name": "lebenspunkte",
            "title": "LeP",
            "label": "LeP",
            "min": -99,
            "max": 999,
            "by_hand": False,
            "source": "005_0123456789abcdef.txt L11–L13",
        }
    ]
    assert [(s["id"], s["rule"]) for s in fight["states"]] == [
        ("tot", "LeP ≤ −5: tot"),
        ("bewusstlos", "LeP ≤ 0: bewusstlos"),
    ]
    answer = api.run("kurz_test", "schaden", {"waffe": "9", "lebenspunkte": 3}, 1)
    assert answer["result"]["target_state"]["id"] == "tot"


def changed(path: str, value: Any) -> dict[str, Any]:
    content = copy.deepcopy(declaration())
    node: Any = content
    parts = path.split(".")
    for part in parts[:-1]:
        node = node[int(part)] if isinstance(node, list) else node[part]
    if value is None:
        del node[parts[-1]]
    else:
        node[int(parts[-1]) if isinstance(node, list) else parts[-1]] = value
    return content


@pytest.mark.parametrize(
    ("path", "value", "key", "words"),
    [
        ("kampf.zustaende.0.zustand", "ohnmächtig", "kampf.zustaende.0.zustand", "kampfunfähig"),
        ("kampf.zustaende.0.ab", 3, "kampf.zustaende.0", "genau eine Grenze"),
        ("kampf.zustaende.0.wert", "mut", "kampf.zustaende.0.wert", "einer der Werte"),
        ("kampf.zustaende.0.bis", "-ko", "kampf.zustaende.0.bis", "Kennwert"),
        ("kampf.zustaende.1.id", "tot", "kampf.zustaende", "zweimal"),
        ("kampf.zustaende.0.annahme", "nirgends.da", "kampf.zustaende.0.annahme", "keine Annahme"),
        ("kampf.werte.0.min", "wenig", "kampf.werte.0.min", "ganze Zahl"),
        ("kampf.farbe", "rot", "kampf", "unbekannte Angabe 'farbe'"),
        ("kampf.bedingungen.0.quelle", None, "kampf.bedingungen.0.quelle", "nicht leerer Text"),
        (
            "aktionen.schaden.zustand",
            [{"bis": 0, "zustand": "tot", "text": "tot"}],
            "aktionen.schaden.zustand",
            "kampf.zustaende",
        ),
        (
            "aktionen.schaden.ressource.name",
            "leben",
            "aktionen.schaden.ressource.name",
            "kein Wert unter kampf.werte",
        ),
    ],
)
def test_a_mistake_in_the_fight_names_file_and_key(
    path: str, value: Any, key: str, words: str
) -> None:
    with pytest.raises(DataError) as caught:
        declare(changed(path, value), "kaputt_test")
    assert caught.value.file == "kaputt_test.yaml"
    assert caught.value.key == key
    assert words in str(caught.value)


def test_a_new_system_is_written_with_its_fight(tmp_path: Path) -> None:
    """harness/scaffold.py writes the full form (``kampf:``) beside the sample actions."""
    from harness import scaffold

    content = yaml.safe_load(scaffold.data_yaml("Sturm", "005_0123456789abcdef.txt", 20))
    data = RuleData("sturm.yaml", json.loads(json.dumps(content)))
    contract = fight_contract.from_data("sturm", data)
    assert [v.name for v in contract.values] == ["lebenspunkte"]
    assert [r.rule for r in contract.rules] == ["LeP ≤ 0: kampfunfähig"]
    assert "zustand" not in content["aktionen"]["schaden"]


# ------------------------------------------------------------------ the catalogue


def resource_actions() -> list[tuple[str, str]]:
    return [
        (s["name"], a["name"])
        for s in api.catalog()["systems"]
        for a in s["actions"]
        if any(p.get("resource") for p in api.describe(s["name"], a["name"])["params"])
    ]


def samples(system: str, action: str) -> dict[str, Any]:
    return {
        p["name"]: p["default"]
        for p in api.describe(system, action)["params"]
        if p.get("required") or p.get("required_when")
    }


def spread(field: dict[str, Any]) -> list[int]:
    """The values of a life value or Kennwert a search tries: everything near 0 and an even
    spread over its range."""
    low, high = field["min"], field["max"]
    steps = [low + (high - low) * i // 24 for i in range(25)]
    return sorted({*range(max(low, -25), min(high, 25) + 1), *steps})


def requests(system: str, action: str) -> Iterator[dict[str, Any]]:
    """The sample values, each life value of the contract spread over its range (the others at
    their sample), and the Kennwerte at their ends and in between."""
    params = {p["name"]: p for p in api.describe(system, action)["params"]}
    contract = contract_of(system)
    base = samples(system, action)
    given = [n for n in contract.names() if n in params]
    reads = [r.name for r in contract.reads if r.name in params]
    read_values = [
        dict(zip(reads, combo, strict=True))
        for combo in itertools.product(
            *(sorted({params[r]["min"], 5, params[r]["max"]}) for r in reads)
        )
    ]
    for name in given:
        for value in spread(params[name]):
            for extra in read_values:
                yield {**base, **{n: params[n]["default"] for n in given}, name: value, **extra}


@pytest.mark.parametrize(("system", "action"), resource_actions())
def test_every_target_state_is_the_one_state_function(system: str, action: str) -> None:
    """``target_state`` is ``state_of`` of the values after the hit (``target_update``, with the
    Kennwerte and the values the result did not change from the request) – DSA damage,
    Pathfinder hit points, Aktionswürfel attack, Güte attack, any declared damage."""
    contract = contract_of(system)
    checked = 0
    for params in requests(system, action):
        for seed in (1, 2):
            answer = api.run(system, action, params, seed)
            if not answer["ok"] or "target_update" not in answer["result"]:
                continue
            result = answer["result"]
            values = {n: answer["params"].get(n) for n in contract.names()}
            values.update(result["target_update"])
            assert result["target_state"] == state_of(system, values), (params, seed)
            checked += 1
    assert checked > 20, (system, action, checked)


@pytest.mark.parametrize(("system", "action"), resource_actions())
def test_every_state_of_the_contract_is_reachable_through_the_action(
    system: str, action: str
) -> None:
    """For every action with a life value, each state its system's contract has – every rule
    and the fit state – is some input's ``target_state``."""
    contract = contract_of(system)
    wanted = {r.id for r in contract.rules} | ({contract.fit_id} if contract.rules else set())
    seen: set[str] = set()
    for params in requests(system, action):
        for seed in (1, 2, 3):
            answer = api.run(system, action, params, seed)
            state = answer.get("result", {}).get("target_state")
            if state:
                seen.add(state["id"])
        if seen >= wanted:
            break
    assert seen >= wanted, (system, action, wanted - seen)


# ------------------------------------------------------------------ conditions on fields


def condition_fields() -> Iterator[tuple[str, str, dict[str, Any]]]:
    for system in api.catalog()["systems"]:
        for action in system["actions"]:
            for field in api.describe(system["name"], action["name"])["params"]:
                if "condition" in field:
                    yield system["name"], action["name"], field


def test_every_condition_field_names_a_condition_of_its_systems_fight() -> None:
    """A field of the situation that stands for a condition of the actor or the target names
    one the system's contract lists (its text's word); a choice maps its values to them."""
    found = 0
    for system, action, field in condition_fields():
        names = contract_of(system).condition_names()
        condition = field["condition"]
        assert condition["of"] in ("actor", "target") and "subject" not in field
        wanted = [condition["name"]] if "name" in condition else condition["choices"].values()
        for name in wanted:
            assert name in names, (system, action, field["name"], name)
        found += 1
    assert found >= 10


# the labels the page used to read as conditions (fight.js, before the hint): „Angreifer ist
# betäubt“, „Ziel liegt“ …; these are not a condition of one fighter but a relation or a
# property: the attacker as part of the Übermacht (002 L55), fire sensitivity (a target value)
BROWSER_GUESS = re.compile(r"^(Angreifer|Ziel) (?:ist (.+)|(liegt|kniet))$")
NOT_A_CONDITION = {("guete", "attack", "uebermacht"), ("guete", "attack", "feuerempfindlich")}
NOT_A_CONDITION |= {("guete", "feuerschaden", "feuerempfindlich")}


def test_every_field_the_page_guessed_from_its_label_has_the_hint() -> None:
    for system in api.catalog()["systems"]:
        for action in system["actions"]:
            for field in api.describe(system["name"], action["name"])["params"]:
                key = (system["name"], action["name"], field["name"])
                if BROWSER_GUESS.match(field["label"]) and key not in NOT_A_CONDITION:
                    assert "condition" in field, key
                    of = "actor" if field["label"].startswith("Angreifer") else "target"
                    assert field["condition"]["of"] == of, key
