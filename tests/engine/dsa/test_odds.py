"""DSA 4.1 Hausregeln: seeing the odds (issue #44) – the distributions of attack, damage and
initiative against full enumeration of the dice, „Was wäre wenn“ across the target's RS, the
attacker's Finte and the RS of the one hit, „Vergleichen“ of the manoeuvres and the kinds of
defense against running the action with each choice, and the mark ``before`` honest (the same
sections for every Wurfnummer).

The source is one line (001_240b8e52c108db7c.txt L1); each test names the section („Abschnitt
…“) of the rule it checks. The probe model is ``model_outcome`` (helpers.py), independent of
the engine.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any

import pytest

from engine import api, dice
from engine.formatting import parse_fraction
from harness.brute import distribution as brute_distribution
from harness.brute import outcomes
from tests.engine.dsa.helpers import SAMPLE, fighter, model_outcome, run

HITS = ("kritisch", "gluecklich", "gelungen")


def _section(result: dict[str, Any], caption_start: str) -> dict[str, Any]:
    (section,) = [
        s for s in result["display"]["sections"] if s.get("caption", "").startswith(caption_start)
    ]
    return section


def _numeric(section: dict[str, Any]) -> dict[int, Fraction]:
    """The bars of a numeric distribution section: before the roll, summing to 1, its mean the
    mean of its bars."""
    assert section["kind"] == "distribution" and section["numeric"] and section["before"]
    dist = {bar["value"]: parse_fraction(bar["fraction"]) for bar in section["bars"]}
    assert sum(dist.values()) == 1
    assert parse_fraction(section["mean"]["fraction"]) == sum(v * p for v, p in dist.items())
    return dist


def _before(result: dict[str, Any]) -> list[dict[str, Any]]:
    return [s for s in result["display"]["sections"] if s.get("before")]


# -- attack ----------------------------------------------------------------------------------


def _attack_model(params: dict[str, Any]) -> tuple[int, int | None, int, int, bool]:
    """The value for the probe, without the Kampfgetümmel, bonus TP and RS, by hand: Abschnitte
    "Auswahl von durchzuführenden Aktionen", "Fernkampfattacken ins Kampfgetümmel",
    "Geläufigste aktive Kampfsonderfertigkeiten" (Wuchtschlag +X and X TP, Sturmangriff +4 and
    4 + GS/2 TP, Gezielter Stich +4 + RS/2 and ignores RS)."""
    p = {**SAMPLE["attack"], **params}
    target = p["wert"] - p.get("erschwernis", 0)
    bonus = 0
    rs = p.get("ziel_rs", 0)
    manoeuvre = p.get("manoever", "keins")
    if manoeuvre == "wuchtschlag":
        target -= p["manoever_x"]
        bonus = p["manoever_x"]
    elif manoeuvre == "finte":
        target -= p["manoever_x"]
    elif manoeuvre == "sturmangriff":
        target -= 4
        bonus = 4 + math.ceil(p["gs"] / 2)  # Annahme halbieren.gs: aufrunden (even GS here)
    elif manoeuvre == "gezielter_stich":
        target -= 4 + math.ceil(rs / 2)  # Annahme halbieren.rs: aufrunden
        rs = 0
    free = None
    if p.get("kind") == "fernkampf" and p.get("getuemmel"):
        free = target
        target -= 2 * p["getuemmel"]
    return target, free, bonus, rs, manoeuvre != "keins"


ATTACKS = [
    {"wert": 14},
    {"wert": 14, "ziel_rs": 5, "damage": "2W6+1"},
    {"wert": 12, "manoever": "wuchtschlag", "manoever_x": 3, "ziel_rs": 2},
    {"wert": 15, "manoever": "finte", "manoever_x": 4},
    {"wert": 16, "manoever": "sturmangriff", "gs": 8, "damage": "1W6-2", "ziel_rs": 4},
    {"wert": 16, "manoever": "gezielter_stich", "ziel_rs": 6, "damage": "1W4"},
    {"wert": 0, "erschwernis": 5, "ziel_rs": 20},
    {"kind": "fernkampf", "wert": 15, "getuemmel": 4, "damage": "1W6+3", "ziel_rs": 3},
]


@pytest.mark.parametrize("params", ATTACKS)
def test_attack_damage_per_attack_is_every_die_enumerated(params: dict[str, Any]) -> None:
    """001_240b8e52c108db7c.txt L1, Abschnitt "Crits und Patzer": a hit does the weapon's TP
    (a kritischer Angriff doubles them, Annahme: SP = TP − RS ≥ 0), a miss 0 – the SP per
    attack against the first W20, the confirmation W20 and every damage die; in the
    Kampfgetümmel (Abschnitt "Fernkampfattacken ins Kampfgetümmel") the TP on another person
    the same way. Its mean is the expected damage the result names."""
    target, free, bonus, rs, _ = _attack_model(params)
    expression = dice.parse({**SAMPLE["attack"], **params}["damage"])
    sides = [t.sides for t in expression.terms for _ in range(t.count)]

    def tp(faces: tuple[int, ...]) -> int:
        return sum(faces) + expression.constant + bonus

    def sp(faces: tuple[int, ...]) -> int:
        outcome = model_outcome(faces[0], faces[1], target, free)
        if outcome not in HITS:
            return 0
        total = tp(faces[2:]) * (2 if outcome == "kritisch" else 1)
        return max(0, total - rs)

    def other(faces: tuple[int, ...]) -> int:
        outcome = model_outcome(faces[0], faces[1], target, free)
        return max(0, tp(faces[2:])) if outcome == "andere_person" else 0

    r = run("attack", params, 3)
    section = _section(r, "Schaden am Ziel je Angriff")
    assert section["axis"] == "SP"
    assert section["mean"]["label"] == "Erwarteter Schaden je Angriff"
    assert _numeric(section) == brute_distribution([20, 20, *sides], sp)
    assert parse_fraction(section["mean"]["fraction"]) == Fraction(r["expected_damage"])
    stray_captions = [
        s for s in r["display"]["sections"] if s.get("caption", "").startswith("Schaden an ")
    ]
    if free is None:
        assert not stray_captions  # no Kampfgetümmel, nobody else to hit
        return
    stray = _section(r, "Schaden an einer anderen Person")
    assert _numeric(stray) == brute_distribution([20, 20, *sides], other)
    assert parse_fraction(stray["mean"]["fraction"]) == Fraction(r["expected_damage_other"])


def test_attack_what_if_walks_the_targets_rs() -> None:
    """001_240b8e52c108db7c.txt L1, Abschnitt "Geläufigste aktive Kampfsonderfertigkeiten":
    Gezielter Stich „für Gegner ohne Schild um 4 + RS/2 erschwert“ and „ignoriert RS“; any
    other attack's SP = TP − RS (Annahme). Each row of „Was wäre wenn“ across the target's RS
    against enumeration: the chance to hit and the expected damage per attack."""
    for params in (
        {"wert": 16, "damage": "1W6+4", "ziel_rs": 4},
        {"wert": 18, "manoever": "gezielter_stich", "damage": "1W6+2", "ziel_rs": 4},
    ):
        answer = api.what_if("dsa", "attack", {**SAMPLE["attack"], **params})
        assert answer["ok"], answer
        sweep = answer["what_if"]
        assert sweep["field"] == "ziel_rs"
        assert len(sweep["rows"]) >= 10
        columns = [c["label"] for c in sweep["columns"]] + [s["label"] for s in sweep["same"]]
        assert "Erwarteter Schaden je Angriff" in columns
        for row in sweep["rows"]:
            rs_params = {**params, "ziel_rs": row["value"]}
            target, _free, bonus, rs, _ = _attack_model(rs_params)
            expression = dice.parse(str(rs_params["damage"]))
            sides = [t.sides for t in expression.terms for _ in range(t.count)]

            def sp(
                faces: tuple[int, ...],
                t: int = target,
                b: int = bonus + expression.constant,
                a: int = rs,
            ) -> int:
                outcome = model_outcome(faces[0], faces[1], t, None)
                if outcome not in HITS:
                    return 0
                total = (sum(faces[2:]) + b) * (2 if outcome == "kritisch" else 1)
                return max(0, total - a)

            mean = sum(
                (v * p for v, p in brute_distribution([20, 20, *sides], sp).items()), Fraction(0)
            )
            hit = sum(w for f, w in outcomes([20, 20]) if model_outcome(*f, target, None) in HITS)
            cells = _cells(sweep, row)
            assert cells["Erwarteter Schaden je Angriff"] == mean
            assert cells["trifft das Ziel (ohne Abwehr)"] == hit


def _cells(answer: dict[str, Any], row: dict[str, Any]) -> dict[str, Fraction]:
    """Every figure of one row of a what_if/compare answer, the ones the same in all rows
    included."""
    out = {s["label"]: parse_fraction(s["fraction"]) for s in answer["same"]}
    for column, cell in zip(answer["columns"], row["cells"], strict=True):
        if cell is not None:
            out[column["label"]] = parse_fraction(cell["fraction"])
    return out


def _figures(result: dict[str, Any]) -> dict[str, Fraction]:
    """What odds.py reads from one result: the chances and means of its before-sections."""
    out: dict[str, Fraction] = {}
    for section in _before(result):
        if section["kind"] == "chances":
            for item in section["items"]:
                out[item["label"]] = parse_fraction(item["fraction"])
        elif section["kind"] == "distribution" and section["numeric"]:
            label = section["mean"].get("label") or f"Mittelwert {section['axis']}"
            out[label] = parse_fraction(section["mean"]["fraction"])
    return out


def _as_the_form_sends(action: str, params: dict[str, Any]) -> dict[str, Any]:
    """The fields the form sends: one whose ``when`` the other values do not meet is hidden
    and left out (a Wuchtschlag's X is not sent with „kein Manöver“)."""
    schema = api.describe("dsa", action)["params"]
    defaults = {f["name"]: f.get("default") for f in schema}
    hidden = {
        f["name"]
        for f in schema
        if any(
            params.get(other, defaults[other]) not in allowed
            for other, allowed in f.get("when", {}).items()
        )
    }
    return {k: v for k, v in params.items() if k not in hidden}


def _compare_agrees(action: str, params: dict[str, Any], field: str) -> dict[str, Any]:
    """Each row of „Vergleichen“ is the action run with that choice (the fields sent as the
    form sends them), each refusal the action's own refusal."""
    full = {**SAMPLE.get(action, {}), **params}
    answer = api.compare("dsa", action, full, field)
    assert answer["ok"], answer
    table = answer["compare"]
    for row in table["rows"]:
        result = run(action, _as_the_form_sends(action, {**params, field: row["value"]}))
        assert _cells(table, row) == _figures(result), row["label"]
    for refused in table["refused"]:
        error = api.run("dsa", action, {**full, field: refused["value"]}, 1)
        assert not error["ok"] and error["error"]["message"] == refused["message"]
    return table


def test_attack_compare_manoeuvres_is_the_attack_with_each() -> None:
    """001_240b8e52c108db7c.txt L1, Abschnitt "Geläufigste aktive Kampfsonderfertigkeiten":
    Wuchtschlag „um einen Wert X erschweren und richtet dann X zusätzlichen Schaden an“,
    Finte „um einen Wert X erschweren“ (the target's reaction +X: not in the attack's odds,
    which are „ohne Abwehr“), Sturmangriff +4 and 4 + GS/2, Gezielter Stich +4 + RS/2."""
    plain = _compare_agrees("attack", {"wert": 15, "ziel_rs": 3}, "manoever")
    assert [r["value"] for r in plain["rows"]] == ["keins", "sturmangriff", "gezielter_stich"]
    # X is at least 1 for Wuchtschlag and Finte: said, not shown
    assert {r["value"] for r in plain["refused"]} == {"wuchtschlag", "finte"}
    assert all("mindestens 1" in r["message"] for r in plain["refused"])
    x = _compare_agrees(
        "attack", {"wert": 15, "ziel_rs": 3, "manoever": "wuchtschlag", "manoever_x": 3}, "manoever"
    )
    means = {r["value"]: _cells(x, r)["Erwarteter Schaden je Angriff"] for r in x["rows"]}
    assert means["wuchtschlag"] > means["finte"]  # the same Erschwernis, 3 TP more


def test_attack_compare_distances_and_the_manoeuvre_refused_for_a_shot() -> None:
    """001_240b8e52c108db7c.txt L1, Abschnitt "Besonderheiten von Fernkampfwaffen": „sehr nah
    (-2), nah (+-0), mittel (+4), weit (+8) oder extrem weit (+12)“ – one row per distance;
    the manoeuvres are Nahkampfangriffe (Abschnitt "Geläufigste aktive
    Kampfsonderfertigkeiten": „seine Attacke“): no comparison of them for a Schuss, and a
    manoeuvre sent with a Schuss is refused naming the field."""
    shot = {"kind": "fernkampf", "wert": 16, "ziel_rs": 1}
    table = _compare_agrees("attack", shot, "distance")
    assert [r["value"] for r in table["rows"]] == [
        "sehr_nah",
        "nah",
        "mittel",
        "weit",
        "extrem_weit",
    ]
    hits = [_cells(table, r)["trifft das Ziel (ohne Abwehr)"] for r in table["rows"]]
    assert hits == sorted(hits, reverse=True)
    refused = api.compare("dsa", "attack", {**SAMPLE["attack"], **shot}, "manoever")
    assert not refused["ok"] and refused["error"]["field"] == "manoever"
    finte = api.run(
        "dsa", "attack", {**SAMPLE["attack"], **shot, "manoever": "finte", "manoever_x": 2}, 1
    )
    assert not finte["ok"] and finte["error"]["field"] == "manoever"
    assert "Nahkampf" in finte["error"]["message"]


def test_attack_compare_shows_the_wuchtschlag_beside_no_manoeuvre() -> None:
    """001_240b8e52c108db7c.txt L1, Abschnitt "Geläufigste aktive Kampfsonderfertigkeiten":
    „Is the Wuchtschlag worth it?“ – from a Wuchtschlag with X = 3, the plain attack is a row
    too."""
    params = {"wert": 15, "ziel_rs": 3, "manoever": "wuchtschlag", "manoever_x": 3}
    table = _compare_agrees("attack", params, "manoever")
    assert "keins" in [r["value"] for r in table["rows"]]


# -- defense ---------------------------------------------------------------------------------


def test_defense_what_if_walks_the_attackers_finte() -> None:
    """001_240b8e52c108db7c.txt L1, Abschnitt "Geläufigste aktive Kampfsonderfertigkeiten":
    a Finte „erschwert damit die Reaktion des Ziels (Parade/Ausweichen) um X“; Abschnitt
    "Crits und Patzer": a 1 always, a 20 never succeeds. Each row against enumeration of the
    W20 and its confirmation."""
    params = {"pa_basis": 12, "waffe_pa": 2, "ebe": 2}
    answer = api.what_if("dsa", "defense", params)
    assert answer["ok"], answer
    sweep = answer["what_if"]
    assert sweep["field"] == "finte" and len(sweep["rows"]) >= 10
    for row in sweep["rows"]:
        target = 12 + 2 - 1 - row["value"]  # PA-Basis + Waffen-PA − eBE/2, − X
        success = sum(
            w for f, w in outcomes([20, 20]) if model_outcome(f[0], f[1], target, None) in HITS
        )
        assert _cells(sweep, row)["Abwehr gelingt"] == success


def test_defense_compare_kinds_is_the_defense_with_each() -> None:
    """001_240b8e52c108db7c.txt L1, Abschnitt "Mögliche Abwehraktionen...": Waffenparade,
    Schildparade, Gezieltes Ausweichen („erschwert um 3“, „nur für Kämpfer mit der
    Sonderfertigkeit 'Ausweichen I' oder höher möglich“) – without the SF it is said, not
    shown."""
    table = _compare_agrees("defense", {"pa_basis": 11}, "kind")
    assert [r["value"] for r in table["rows"]] == ["waffenparade", "schildparade"]
    assert [r["value"] for r in table["refused"]] == ["ausweichen"]
    table = _compare_agrees("defense", {"pa_basis": 11, "sf_ausweichen": True}, "kind")
    cells = {r["value"]: _cells(table, r)["Abwehr gelingt"] for r in table["rows"]}
    assert cells["ausweichen"] < cells["waffenparade"]  # the +3


# -- damage ----------------------------------------------------------------------------------


DAMAGES = [
    {"damage": "1W6+4", "ko": 12, "lep": 30},
    {"damage": "2W6+4", "rs": 3, "ko": 11, "lep": 30},
    {"damage": "1W6+4", "kritisch": True, "rs": 4, "ko": 10, "lep": 12, "zusatz": 2},
    {"damage": "1W6", "gezielter_stich": True, "rs": 8, "ko": 9, "lep": 20},
    {"damage": "3W6", "rs": 1, "ko": 2, "lep": 10},
]


def _damage_model(params: dict[str, Any], tp: int) -> tuple[int, int]:
    """SP and wounds of one hit, by hand (the paragraph on wounds after Abschnitt "Crits und
    Patzer": „Für Schaden, der größer als die Wundschwelle (KO/2) ist, erleiden Kämpfer eine
    (regeltechnische) Wunde“; Gezielter Stich: ignores RS, an automatic wound, Wundschwelle − 2;
    Annahmen: SP = TP − RS ≥ 0, a crit doubles the TP with the bonus, KO/2 not rounded, at most
    one wound per hit from the damage)."""
    aimed = params.get("gezielter_stich", False)
    rs = 0 if aimed else params.get("rs", 0)
    total = tp + params.get("zusatz", 0)
    if params.get("kritisch"):
        total *= 2
    sp = max(0, total - rs)
    threshold = Fraction(params["ko"], 2) - (2 if aimed else 0)
    wounds = 1 if sp > 0 and sp > threshold else 0
    return sp, wounds + (1 if aimed else 0)


@pytest.mark.parametrize("params", DAMAGES)
def test_damage_sp_and_wounds_are_every_die_enumerated(params: dict[str, Any]) -> None:
    """001_240b8e52c108db7c.txt L1, the paragraph on wounds after Abschnitt "Crits und
    Patzer" and Abschnitt "Geläufigste aktive Kampfsonderfertigkeiten" (Gezielter Stich): the
    SP and the wounds of the hit against every damage die; their means are the expected SP
    and wounds the result names."""
    expression = dice.parse(params["damage"])
    sides = [t.sides for t in expression.terms for _ in range(t.count)]
    r = run("damage", params, 2)
    sp = _numeric(_section(r, "Schadenspunkte dieses Treffers"))
    wounds = _numeric(_section(r, "Wunden durch diesen Treffer"))
    assert sp == brute_distribution(
        sides, lambda f: _damage_model(params, sum(f) + expression.constant)[0]
    )
    assert wounds == brute_distribution(
        sides, lambda f: _damage_model(params, sum(f) + expression.constant)[1]
    )
    assert sum(v * p for v, p in sp.items()) == Fraction(r["expected_sp"])
    assert sum(v * p for v, p in wounds.items()) == Fraction(r["expected_wunden"])


def test_damage_what_if_walks_the_rs() -> None:
    """001_240b8e52c108db7c.txt L1, the paragraph on wounds after Abschnitt "Crits und
    Patzer": „Ab 5 LeP ist ein Kämpfer kampfunfähig“, a wound above KO/2 – each row across the
    RS of the one hit against enumeration of the TP: the expected SP, the chance of a wound
    and of being kampfunfähig after it."""
    params = {"damage": "2W6+4", "rs": 4, "ko": 12, "lep": 14}
    answer = api.what_if("dsa", "damage", params)
    assert answer["ok"], answer
    sweep = answer["what_if"]
    assert sweep["field"] == "rs" and len(sweep["rows"]) >= 10
    for row in sweep["rows"]:
        here = {**params, "rs": row["value"]}

        def hit(f: tuple[int, ...], h: dict[str, Any] = here) -> tuple[int, int]:
            return _damage_model(h, sum(f) + 4)

        sp = brute_distribution([6, 6], lambda f: hit(f)[0])
        cells = _cells(sweep, row)
        assert cells["Erwarteter Schaden (SP)"] == sum(v * p for v, p in sp.items())
        wound = sum(w for f, w in outcomes([6, 6]) if hit(f)[1])
        assert cells["mindestens eine Wunde"] == wound
        unfit = sum(w for f, w in outcomes([6, 6]) if 0 < 14 - hit(f)[0] <= 5)
        assert cells["danach kampfunfähig"] == unfit


# -- initiative ------------------------------------------------------------------------------


def _places_by_enumeration(rows: list[dict[str, Any]]) -> list[list[Fraction]]:
    """Every W6 of every fighter who did not orient himself (Abschnitt "Ablauf einer
    Kampfrunde": INI-Basis + 1W6, Annahme; Orientieren: the maximum); an equal INI goes to the
    higher INI-Basis, equal in both a fair roll-off (Annahme): each of k so tied takes each of
    their places with 1/k."""
    n = len(rows)
    rolling = [i for i, r in enumerate(rows) if not r.get("orientieren")]
    out = [[Fraction(0)] * n for _ in range(n)]
    for faces in itertools.product(range(1, 7), repeat=len(rolling)):
        weight = Fraction(1, 6 ** len(rolling))
        ini = [r["ini_basis"] + r.get("modifier", 0) + 6 for r in rows]
        for i, face in zip(rolling, faces, strict=True):
            ini[i] += face - 6
        for i in range(n):
            ahead = sum(
                1
                for j in range(n)
                if j != i and (ini[j], rows[j]["ini_basis"]) > (ini[i], rows[i]["ini_basis"])
            )
            tied = sum(
                1
                for j in range(n)
                if j != i and (ini[j], rows[j]["ini_basis"]) == (ini[i], rows[i]["ini_basis"])
            )
            for place in range(ahead, ahead + tied + 1):
                out[i][place] += weight / (tied + 1)
    return out


@pytest.mark.parametrize(
    "rows",
    [
        [fighter("Alrik", 12), fighter("Bruna", 10), fighter("Ork", 9, seite="Gegner")],
        [fighter("A", 10), fighter("B", 10), fighter("C", 10), fighter("D", 8, modifier=2)],
        [fighter("A", 9, orientieren=True), fighter("B", 11), fighter("C", 11, modifier=-1)],
    ],
)
def test_initiative_places_are_every_die_enumerated(rows: list[dict[str, Any]]) -> None:
    """001_240b8e52c108db7c.txt L1, Abschnitt "Ablauf einer Kampfrunde": „Die festgelegten
    Aktionen werden in der Reihenfolge der Initiative (also der Schnellste zuerst)
    durchgeführt“ – each fighter's chance of each place against every W6; place 1 is the
    chance to act first the result names."""
    r = run("initiative", {"fighters": rows}, 4)
    expected = _places_by_enumeration(rows)
    first = _section(r, "Chance, als Erste(r) zu handeln")
    assert first["before"] is True
    for i, row in enumerate(rows):
        section = _section(r, f"Platz von {row['name']} ")
        assert section["kind"] == "distribution" and section["before"] is True
        assert not section["numeric"]
        bars = [(b["label"], parse_fraction(b["fraction"])) for b in section["bars"]]
        assert [label for label, _ in bars] == [f"Platz {k}" for k in range(1, len(rows) + 1)]
        assert [p for _, p in bars] == expected[i]
        assert sum(p for _, p in bars) == 1
        assert bars[0][1] == parse_fraction(first["items"][i]["fraction"])


def test_initiative_of_one_fighter_has_no_places() -> None:
    """001_240b8e52c108db7c.txt L1, Abschnitt "Ablauf einer Kampfrunde": alone, a fighter is
    first for certain – no chart of places."""
    r = run("initiative", {"fighters": [fighter("A", 10)]})
    assert not [s for s in r["display"]["sections"] if s["kind"] == "distribution"]


# -- the mark is honest ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "params"),
    [
        ("attack", {"wert": 13, "ziel_rs": 2, "manoever": "wuchtschlag", "manoever_x": 2}),
        ("attack", {"kind": "fernkampf", "wert": 14, "getuemmel": 3}),
        ("defense", {"pa_basis": 10, "finte": 2}),
        ("damage", {"damage": "2W6+4", "rs": 2, "ko": 12, "lep": 8}),
        ("fumble", {"wert": 12}),
        ("initiative", {"fighters": [fighter("A", 10), fighter("B", 10), fighter("C", 12)]}),
    ],
)
def test_before_sections_are_the_same_for_every_roll(action: str, params: dict[str, Any]) -> None:
    """001_240b8e52c108db7c.txt L1, Abschnitt "Crits und Patzer": the odds before the roll
    depend on the values entered, never on the dice – the same before-sections for many
    Wurfnummern, and every action shows some."""
    sections = [_before(run(action, params, seed)) for seed in range(12)]
    assert sections[0]
    assert all(s == sections[0] for s in sections)
