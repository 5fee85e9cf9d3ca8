"""Ryssea Angriff: Nahkampf, Fernkampf, Schildstoß.

000_5fbfd0ad384a0921.txt L47–L82, L184–L226, L245–L253, L307–L380; the engine side is
``regeln/ryssea/attack.py`` with its modifiers, ranged, defense and manoeuvres modules.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.support import assumed
from regeln.ryssea import ranged
from tests.engine.ryssea.helpers import (
    BASE,
    DATA,
    annahme,
    crit_patzer,
    erfolge,
    error,
    every_face,
    fr,
    kept_value,
    run,
    seek,
    talent_sides,
)


def brute_attack(
    params: dict[str, Any],
    base: int,
    damage_sides: list[int],
    damage_const: int,
    need_range: int = 0,
    need_cover: int = 0,
    damages: dict[int, int] | None = None,
) -> dict[str, Fraction]:
    """Rules of 000 L73–L82, L186–L194, L210, L220, L247, written out for enumeration.
    ``damages`` (if given) counts the outcomes per damage to the target, a miss as 0."""
    kind, mode, taw = (
        params.get("wuerfel", "normal"),
        params.get("wurf_art", "normal"),
        params["taw"],
    )
    att = [*talent_sides(kind, mode), 10, *([6] * taw)]
    abwehr = params.get("aktive_abwehr", False)
    dkind = params.get("abwehr_wuerfel", "normal")
    dmode = params.get("abwehr_wurf_art", "normal")
    dtaw = params.get("abwehr_taw", 5)
    dbase = 20 - 5 + dtaw + params.get("abwehr_modifier", 0)  # abwehr_eig 10/10/10
    defense = [*talent_sides(dkind, dmode), 10, *([6] * dtaw)] if abwehr else []
    mastery = params.get("meisterschafts_manoever", 0)
    rest_mode = params.get("erfolge_rest", "wuchtangriff")
    restriction = params.get("manoever_schaden", "voll")
    graze_mode = params.get("streiftreffer_folge", "schaden")
    stun = params.get("betaeubungsschlag", False)
    target = params.get("verteidigung", 25)
    keys = ("success", "hit", "full_hit", "streiftreffer", "deckung", "out_of_range", "critical")
    out = dict.fromkeys((*keys, "patzer", "expected_damage"), 0)

    def restrict(points: int) -> int:
        points = max(0, points)
        return 0 if restriction == "kein" else points // 2 if restriction == "halb" else points

    n_att = len(talent_sides(kind, mode))
    n_def = len(talent_sides(dkind, dmode))
    combos, count = every_face([*att, *defense, *damage_sides])
    hurt: dict[int, int] = {} if damages is None else damages
    for faces in combos:
        value = kept_value(kind, mode, faces[:n_att])
        crit, fumble = crit_patzer(value, faces[n_att])
        k = erfolge(faces[n_att + 1 : len(att)])
        total = base + value
        if abwehr:
            d = faces[len(att) :]
            dval = kept_value(dkind, dmode, d[:n_def])
            dk = erfolge(d[n_def + 1 : len(defense)])
            reaches = total > dbase + dval + 2 * dk  # tie: the defender wins (L247)
        else:
            reaches = total >= target  # reach or exceed (L186)
        dmg = sum(faces[len(att) + len(defense) :]) + damage_const
        success = crit or (not fumble and reaches)
        out["critical"] += crit
        out["patzer"] += fumble
        if not success:
            hurt[0] = hurt.get(0, 0) + 1
            continue
        out["success"] += 1
        if k < need_range:
            out["out_of_range"] += 1
            hurt[0] = hurt.get(0, 0) + 1
            continue
        if k < need_range + need_cover:
            out["deckung"] += 1
            hurt[0] = hurt.get(0, 0) + 1
            continue
        left = k - need_range - need_cover
        if left < mastery:  # Streiftreffer (L77–L82)
            out["streiftreffer"] += 1
            out["hit"] += 1
            points = restrict(dmg)
            if graze_mode == "schaden" and restriction != "kein":
                points = max(0, points - 2 * mastery)
            out["expected_damage"] += points
            hurt[points] = hurt.get(points, 0) + 1
            continue
        left -= mastery
        if stun and left >= 1:
            left -= 1
        out["full_hit"] += 1
        out["hit"] += 1
        wucht = left if rest_mode == "wuchtangriff" else 0
        points = restrict(dmg + wucht)
        out["expected_damage"] += points
        hurt[points] = hurt.get(points, 0) + 1
    return {key: Fraction(value, count) for key, value in out.items()}


def check_attack(result: dict[str, Any], expected: dict[str, Fraction]) -> None:
    for key, value in expected.items():
        assert fr(result["chances"][key]) == value, key


@pytest.mark.parametrize(
    "extra",
    [
        {},
        {"verteidigung": 0, "modifier": 30},
        {"verteidigung": 99, "modifier": -30},
        {"meisterschafts_manoever": 2, "streiftreffer_folge": "schaden"},
        {"meisterschafts_manoever": 1, "manoever_schaden": "halb", "betaeubungsschlag": True},
        {"meisterschafts_manoever": 2, "manoever_schaden": "kein"},
        {
            "wuerfel": "begabt",
            "wurf_art": "nachteil",
            "erfolge_rest": "stoerender_angriff",
            "damage": "2",
        },
        {
            "wuerfel": "unfaehig",
            "wurf_art": "vorteil",
            "streiftreffer_folge": "betaeubung",
            "meisterschafts_manoever": 3,
            "damage": "4",
        },
    ],
)
def test_melee_attack_chances_brute_force(extra: dict[str, Any]) -> None:
    """000_5fbfd0ad384a0921.txt L186 (hit on reaching the Verteidigung, weapon damage), L73–L82
    (1 Erfolg per Meisterschafts-Manöver, Streiftreffer −2 per manoeuvre or Betäubungsschaden,
    halved / no damage kept), L190–L194 (Betäubungsschlag 1 Erfolg, Wuchtangriff +1 per
    Erfolg): every chance and the expected damage against enumeration."""
    params = {**BASE, "taw": 2, "damage": "1W3+1", **extra}
    result = run("attack", params)
    base = 15 + 2 + params.get("modifier", 0)  # Grundwert 15 + TaW
    if params["damage"] == "1W3+1":
        expected = brute_attack(params, base, [3], 1)
    else:
        expected = brute_attack(params, base, [], int(params["damage"]))
    check_attack(result, expected)
    assert fr(result["chances"]["expected_erfolge"]) == Fraction(2, 3)


@pytest.mark.parametrize(
    ("entfernung", "deckung", "need_range", "need_cover"),
    [(20, "keine", 0, 0), (21, "leicht", 1, 1), (60, "schwer", 2, 2), (120, "keine", 5, 0)],
)
def test_ranged_attack_chances_brute_force(
    entfernung: int, deckung: str, need_range: int, need_cover: int
) -> None:
    """000_5fbfd0ad384a0921.txt L210 (1 Erfolg per started base range, at most 6×), L220
    (Deckung leicht 1 / schwer 2 Erfolge; probe ok but Erfolge short → hits the cover)."""
    params = {
        **BASE,
        "taw": 3,
        "angriffsart": "fernkampf",
        "grundreichweite": 20,
        "distance": entfernung,
        "deckung": deckung,
        "damage": "1W2",
        "meisterschafts_manoever": 1,
    }
    result = run("attack", params)
    assert result["erfolge"]["reichweite_noetig"] == need_range
    assert result["erfolge"]["deckung_noetig"] == need_cover
    expected = brute_attack(params, 18, [2], 0, need_range, need_cover)
    check_attack(result, expected)


def test_aktive_abwehr_chances_brute_force() -> None:
    """000_5fbfd0ad384a0921.txt L247: the defender's probe value + 2 × its Erfolge is the
    attacker's difficulty; on a tie the defender wins."""
    params = {
        **BASE,
        "taw": 0,
        "damage": "3",
        "aktive_abwehr": True,
        "abwehr_taw": 1,
        "abwehr_wuerfel": "unfaehig",
        "abwehr_modifier": 4,
    }
    result = run("attack", params)
    expected = brute_attack(params, 15, [], 3)
    check_attack(result, expected)


def test_aktive_abwehr_offers_its_ticks_for_the_defender() -> None:
    """000_5fbfd0ad384a0921.txt L245: „eine Aktive Abwehr [ist] eine sofortige Reaktion und kostet
    4 Ticks“ – an attack the target answered with an Aktive Abwehr offers that Tickleiste step
    for him (its duration from the table, L245); without one, no such step."""
    defended = {**BASE, "aktive_abwehr": True, "abwehr_taw": 3}
    for seed in range(20):
        follow = run("attack", defended, seed)["follow_ups"]
        steps = [f for f in follow if f["action"] == "tickleiste"]
        assert steps == [
            {
                "action": "tickleiste",
                "title": "Aktive Abwehr auf die Tickleiste (4 Ticks)",
                "params": {"command": "handeln", "action": "aktive_abwehr"},
                "fighter": "target",
            }
        ]
        plain = run("attack", BASE, seed)["follow_ups"]
        assert all(f["action"] != "tickleiste" for f in plain)


def test_attack_tie_rules() -> None:
    """000_5fbfd0ad384a0921.txt L186: reaching the Verteidigung hits; L247: a tie with the
    Aktive Abwehr goes to the defender."""
    for seed in range(25):
        plain = run("attack", {**BASE, "taw": 0, "verteidigung": 25}, seed)
        probe = plain["attack"]
        if not probe["critical"] and not probe["patzer"]:
            assert plain["probe_success"] == (probe["total"] >= 25)
        active = run("attack", {**BASE, "taw": 0, "aktive_abwehr": True, "abwehr_taw": 0}, seed)
        probe = active["attack"]
        if not probe["critical"] and not probe["patzer"]:
            assert active["probe_success"] == (probe["total"] > active["target"]["value"])
            defense = active["target"]["defense"]
            assert active["target"]["value"] == defense["total"] + 2 * defense["erfolge"]


def test_the_tie_rule_is_named_only_for_a_tie() -> None:
    """000_5fbfd0ad384a0921.txt L247: „Bei Gleichstand gewinnt der Verteidiger.“ – the outcome
    names that rule only when the attack total equals the Aktive Abwehr (issue 26: „38 gegen
    Aktive Abwehr 36 (Gleichstand: Verteidiger)“ read like a tie)."""
    ties = others = 0
    for seed in range(200):
        result = run("attack", {"aktive_abwehr": True}, seed)
        total, value = result["attack"]["total"], result["target"]["value"]
        outcome = result["display"]["outcome"]
        assert f"{total} gegen Aktive Abwehr {value}" in outcome
        if total == value:
            ties += 1
            assert "Gleichstand: der Verteidiger gewinnt" in outcome
        else:
            others += 1
            assert "Gleichstand" not in outcome
    assert ties and others


def test_attack_modifiers_by_name() -> None:
    """000_5fbfd0ad384a0921.txt L360 (Taktischer Vorteil +3 each), L370 (Überzahl +1 each, max
    +3), L335–L340 (Kampfpositionen), L346 (Wasser −3), L198 (Lücke suchen +1 per 2 ticks,
    max +3), L325 (Lichtverhältnisse)."""
    result = run(
        "attack",
        {
            **BASE,
            "taktischer_vorteil": 2,
            "ueberzahl": 5,
            "position_eigen": "kniend",
            "position_ziel": "liegend",
            "wasser": "hueft",
            "vorbereitung_ticks": 7,
            "licht": -3,
            "zusammenarbeit": 2,
        },
    )
    mods = {m["name"]: m["value"] for m in result["attack"]["modifiers"]}
    assert mods == {
        "Taktischer Vorteil × 2": 6,
        "Überzahl (5 überzählig)": 3,
        "Eigene Kampfposition Kniend": -1,
        "Kampfposition des Ziels Liegend": 4,
        "Hüfthohes Wasser": -3,
        "Lücke suchen (7 Ticks)": 3,
        "Lichtverhältnisse": -3,
        "Zusammenarbeit": 2,
    }
    ranged = run(
        "attack",
        {
            **BASE,
            "angriffsart": "fernkampf",
            "position_eigen": "fliegend",
            "position_ziel": "kniend",
            "vorbereitung_ticks": 5,
            "kampfgetuemmel": True,
            "wasser": "unter",
        },
    )
    mods = {m["name"]: m["value"] for m in ranged["attack"]["modifiers"]}
    assert mods == {
        "Eigene Kampfposition Fliegend": -2,
        "Kampfposition des Ziels Kniend": -1,
        "Zielen (5 Ticks)": 2,
        "Kampfgetümmel": -6,
        "Unter Wasser": -6,
    }


def test_range_erfolge() -> None:
    """000_5fbfd0ad384a0921.txt L210: 1 Erfolg per started increase by the base range; at most
    six times the range (5 Erfolge)."""
    assert [ranged.range_erfolge(d, 20) for d in (0, 20, 21, 40, 41, 100, 101, 120)] == [
        0,
        0,
        1,
        1,
        2,
        4,
        5,
        5,
    ]
    err = error("attack", {"angriffsart": "fernkampf", "grundreichweite": 20, "distance": 121})
    assert err["field"] == "distance"
    assert "120 m" in err["message"]


def test_unbewegliche_ziele() -> None:
    """000_5fbfd0ad384a0921.txt L224–L231: shooting at an immobile target uses the Zielwert of
    the table (Groß 15) instead of a Verteidigung."""
    result = run(
        "attack", {**BASE, "taw": 0, "angriffsart": "fernkampf", "unbewegliches_ziel": "gross"}
    )
    assert result["target"] == {"kind": "unbewegliches_ziel", "value": 15, "size": "Groß"}
    # Grundwert 15: the W10 must show 0+ → only a Patzer fails
    assert fr(result["chances"]["success"]) == 1 - Fraction(3, 100)


def test_streiftreffer_seeded() -> None:
    """000_5fbfd0ad384a0921.txt L77–L82: too few Erfolge for the declared manoeuvres → the
    Erfolge are forfeited and the damage drops by 2 per declared manoeuvre (min 0, Annahme)."""
    found = False
    for seed in range(60):
        result = run(
            "attack",
            {
                **BASE,
                "taw": 2,
                "verteidigung": 10,
                "meisterschafts_manoever": 2,
                "damage": "1W6+3",
            },
            seed,
        )
        if result["outcome"] != "streiftreffer":
            continue
        found = True
        assert result["attack"]["erfolge"] < 2
        rolled = result["damage"]["roll"]["total"]
        assert result["damage"]["target"] == max(0, rolled - 4)
        assert result["erfolge"]["wuchtangriff"] == 0
    assert found


def test_wuchtangriff_and_betaeubungsschlag_seeded() -> None:
    """000_5fbfd0ad384a0921.txt L190 (Betäubungsschlag for 1 Erfolg: Betäubungsschaden, also
    for the Wuchtangriff points), L194 (Wuchtangriff +1 per Erfolg)."""
    for seed in range(40):
        result = run(
            "attack",
            {**BASE, "taw": 6, "verteidigung": 0, "betaeubungsschlag": True, "damage": "1W8"},
            seed,
        )
        if result["outcome"] != "treffer":
            continue
        k = result["attack"]["erfolge"]
        rolled = result["damage"]["roll"]["total"]
        if k >= 1:
            assert result["damage"]["kind"] == "Betäubungsschaden"
            assert result["damage"]["target"] == rolled + k - 1
        else:
            assert result["damage"]["kind"] == "Schaden"
            assert result["damage"]["target"] == rolled


def test_schildstoss_damage_and_no_mastery() -> None:
    """000_5fbfd0ad384a0921.txt L200: a Schildstoß does 1W6+1 and allows free manoeuvres but no
    Meisterschafts-Manöver."""
    result = run("attack", {**BASE, "angriffsart": "schildstoss", "verteidigung": 0}, 3)
    assert result["damage"]["roll"]["notation"] == "1W6+1"
    err = error("attack", {"angriffsart": "schildstoss", "meisterschafts_manoever": 1})
    assert err["field"] == "meisterschafts_manoever"
    assert err["message"].startswith("Angesagte Meisterschafts-Manöver:")


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"deckung": "leicht"}, "deckung"),
        ({"kampfgetuemmel": True}, "kampfgetuemmel"),
        ({"unbewegliches_ziel": "klein"}, "unbewegliches_ziel"),
        ({"angriffsart": "fernkampf", "ueberzahl": 1}, "ueberzahl"),
        ({"angriffsart": "fernkampf", "betaeubungsschlag": True}, "betaeubungsschlag"),
        ({"gelegenheitsangriff": True, "meisterschafts_manoever": 1}, "meisterschafts_manoever"),
        ({"manoever_schaden": "halb"}, "manoever_schaden"),
        (
            {"angriffsart": "fernkampf", "unbewegliches_ziel": "klein", "aktive_abwehr": True},
            "aktive_abwehr",
        ),
        ({"damage": "11W6"}, "damage"),
        ({"damage": "1W1000"}, "damage"),
        ({"damage": "W"}, "damage"),
        ({"taktischer_vorteil": 6}, "taktischer_vorteil"),
        ({"taw": -1}, "taw"),
        ({"wuerfel": "w20"}, "wuerfel"),
    ],
)
def test_attack_bad_input(params: dict[str, Any], field: str) -> None:
    """Bad input → a German message naming the field."""
    err = error("attack", params)
    assert err["field"] == field
    assert ":" in err["message"]


def test_extreme_inputs_answer_fast() -> None:
    """Every limit at once still answers well under a second."""
    import time

    params = {
        "angriffsart": "fernkampf",
        "eig1": 40,
        "eig2": 40,
        "eig3": 40,
        "taw": 30,
        "wuerfel": "genie",
        "wurf_art": "vorteil",
        "aktive_abwehr": True,
        "abwehr_taw": 30,
        "abwehr_wuerfel": "genie",
        "abwehr_wurf_art": "nachteil",
        "damage": "10W100+100",
        "grundreichweite": 1000,
        "distance": 6000,
        "deckung": "schwer",
        "meisterschafts_manoever": 5,
    }
    start = time.perf_counter()
    result = run("attack", params)
    assert time.perf_counter() - start < 1.0
    chances = result["chances"]
    assert fr(chances["hit"]) == fr(chances["full_hit"]) + fr(chances["streiftreffer"])
    assert fr(chances["success"]) == sum(fr(chances[k]) for k in ("hit", "deckung", "out_of_range"))


@settings(max_examples=40, deadline=None)
@given(
    kind=st.sampled_from(["nahkampf", "fernkampf", "schildstoss"]),
    taw=st.integers(0, 30),
    die=st.sampled_from(["normal", "unfaehig", "begabt", "genie"]),
    mode=st.sampled_from(["normal", "vorteil", "nachteil"]),
    verteidigung=st.integers(0, 99),
    mastery=st.integers(0, 5),
    abwehr=st.booleans(),
    entfernung=st.integers(0, 120),
    deckung=st.sampled_from(["keine", "leicht", "schwer"]),
)
def test_attack_chances_consistent(
    kind: str,
    taw: int,
    die: str,
    mode: str,
    verteidigung: int,
    mastery: int,
    abwehr: bool,
    entfernung: int,
    deckung: str,
) -> None:
    """The reported chances partition the probe's success: hit = voller Treffer +
    Streiftreffer, success = hit + Deckung + Reichweite verfehlt; all lie in [0, 1]."""
    params: dict[str, Any] = {
        "angriffsart": kind,
        "taw": taw,
        "wuerfel": die,
        "wurf_art": mode,
        "verteidigung": verteidigung,
        "aktive_abwehr": abwehr,
    }
    if kind == "fernkampf":
        params.update(distance=entfernung, grundreichweite=20, deckung=deckung)
    if kind != "schildstoss":
        params["meisterschafts_manoever"] = mastery
    chances = {k: fr(v) for k, v in run("attack", params)["chances"].items()}
    assert chances["hit"] == chances["full_hit"] + chances["streiftreffer"]
    assert chances["success"] == chances["hit"] + chances["deckung"] + chances["out_of_range"]
    for key in ("success", "hit", "critical", "patzer"):
        assert 0 <= chances[key] <= 1
    assert chances["expected_erfolge"] == Fraction(taw, 3)


# ---------------------------------------------------------------------------------------------
# What follows from the attack: Patzertabelle, Unterbrechung (follow_ups), and the assumptions
# a result names
# ---------------------------------------------------------------------------------------------

AA_PATZER = "angriff.patzer_durch_aktive_abwehr"


def test_patzer_goes_to_the_patzertabelle() -> None:
    """000_5fbfd0ad384a0921.txt L406: „Immer wenn einem Kämpfer bei einer Probe auf ein
    Kampftalent ein Patzer unterläuft, würfelt er mit 2W10 auf der Patzertabelle“ – without an
    Aktive Abwehr the attack offers the Patzertabelle with its cause, and the reading of the
    Aktive-Abwehr exception is not named."""
    result = seek("attack", {}, lambda r: r["outcome"] == "patzer")
    assert result["fumble_table"] is True
    assert result["patzer_cause"] == "kampftalent"
    assert "2W10 auf der Patzertabelle" in result["display"]["outcome"]
    follow = [f for f in result["follow_ups"] if f["action"] == "fumble"]
    assert follow == [
        {"action": "fumble", "title": "Patzertabelle würfeln", "params": {"ursache": "kampftalent"}}
    ]
    table = run("fumble", follow[0]["params"])
    assert table["rolled"] is True
    assert annahme(AA_PATZER) not in assumed(result)
    assert not any(f["action"] == "interruption" for f in result["follow_ups"])


def test_patzer_brought_about_by_the_aktive_abwehr_skips_the_table() -> None:
    """000_5fbfd0ad384a0921.txt L406: „Dies gilt nicht, wenn der verheerende Misserfolg durch eine
    gegnerische Aktive Abwehr herbeigeführt wurde.“ The text does not say when that is; the
    data's Annahme: every Patzer of an attack the target defends actively (L247: the Aktive
    Abwehr is then the attack's difficulty). The result says so instead of pointing to the
    table, offers no Patzertabelle and names the Annahme."""
    assert DATA.raw(AA_PATZER) is True
    result = seek("attack", {"aktive_abwehr": True}, lambda r: r["outcome"] == "patzer")
    assert result["fumble_table"] is False
    assert result["patzer_cause"] == "aktive_abwehr"
    assert "kein Wurf auf der Patzertabelle" in result["display"]["outcome"]
    assert not any(f["action"] == "fumble" for f in result["follow_ups"])
    assert annahme(AA_PATZER) in assumed(result)
    # the fumble helper agrees when it is told the cause
    assert run("fumble", {"ursache": "aktive_abwehr"})["rolled"] is False
    # no Patzer: the reading is not needed and not named
    plain = seek("attack", {"aktive_abwehr": True}, lambda r: r["outcome"] != "patzer")
    assert plain["patzer_cause"] is None
    assert annahme(AA_PATZER) not in assumed(plain)


@pytest.mark.parametrize("rest", ["wuchtangriff", "stoerender_angriff"])
def test_a_hit_with_damage_offers_the_unterbrechung(rest: str) -> None:
    """000_5fbfd0ad384a0921.txt L120: a continuous action „kann durch erlittene Schadenspunkte
    unterbrochen werden“ – Selbstbeherrschung against 10 + damage; L192: each Erfolg of a
    Störender Angriff adds 3. A hit with damage offers that probe with the damage dealt."""
    params = {"taw": 4, "erfolge_rest": rest}
    result = seek(
        "attack", params, lambda r: r["hit"] and r["damage"]["target"] > 0 and r["erfolge"]["total"]
    )
    follow = [f for f in result["follow_ups"] if f["action"] == "interruption"]
    stoerend = result["erfolge"]["stoerender_angriff"] // 3
    assert follow == [
        {
            "action": "interruption",
            "title": "Unterbrechung prüfen",
            "params": {"damage": result["damage"]["target"], "stoerend": stoerend},
        }
    ]
    assert (stoerend > 0) == (rest == "stoerender_angriff")
    check = run("interruption", follow[0]["params"])
    assert check["difficulty"] == 10 + result["damage"]["target"] + 3 * stoerend
    missed = seek("attack", params, lambda r: not r["hit"])
    assert missed["follow_ups"] == [] or all(f["action"] == "fumble" for f in missed["follow_ups"])


def test_no_damage_no_unterbrechung() -> None:
    """L120: only erlittene Schadenspunkte interrupt – a hit of a manoeuvre without damage
    (L73, L81) offers no Unterbrechung."""
    params = {"meisterschafts_manoever": 1, "manoever_schaden": "kein", "taw": 6}
    result = seek("attack", params, lambda r: r["hit"])
    assert result["damage"]["target"] == 0
    assert result["follow_ups"] == []


def test_assumptions_named_only_where_they_decide() -> None:
    """The attack names an Annahme of the data only when it decided the result: a plain melee hit
    with an even Eigenschaften sum and a die between 3 and 8 names none; the Schildstoß names
    its Eigenschaften (L200), a shot short of Erfolge for the range the miss (L210), halved odd
    damage the rounding (L73, L81)."""
    plain = seek("attack", {}, lambda r: 3 <= r["attack"]["die_value"] <= 8)
    assert assumed(plain) == []
    shield = run("attack", {"angriffsart": "schildstoss"})
    assert annahme("angriff.schildstoss_eigenschaften") in assumed(shield)
    far = {"angriffsart": "fernkampf", "distance": 100, "grundreichweite": 20, "taw": 2}
    short = seek("attack", far, lambda r: r["outcome"] == "reichweite")
    assert annahme("angriff.reichweite_fehlschlag") in assumed(short)
    half = {"meisterschafts_manoever": 1, "manoever_schaden": "halb", "damage": "3"}
    halved = seek("attack", half, lambda r: r["outcome"] == "treffer")
    assert annahme("angriff.schaden_rundung") in assumed(halved)
    assert halved["damage"]["target"] == 1
    even = {**half, "damage": "4"}
    exact = seek("attack", even, lambda r: r["outcome"] == "treffer")
    assert annahme("angriff.schaden_rundung") not in assumed(exact)


def test_order_of_erfolge_named_when_uses_compete() -> None:
    """The order in which Erfolge are spent is an Annahme (the text gives none, L73, L190,
    L210, L220): named when two uses compete and the Erfolge do not cover both."""
    params = {
        "angriffsart": "fernkampf",
        "distance": 30,
        "grundreichweite": 20,
        "meisterschafts_manoever": 1,
        "taw": 3,
        "damage": "2",
    }
    text = annahme("angriff.erfolge_reihenfolge")
    short = seek("attack", params, lambda r: r["probe_success"] and r["erfolge"]["total"] == 1)
    assert text in assumed(short)
    enough = seek("attack", params, lambda r: r["probe_success"] and r["erfolge"]["total"] >= 2)
    assert text not in assumed(enough)


def test_aktive_abwehr_assumptions_named_where_they_decide() -> None:
    """L247: the Aktive Abwehr's value becomes the difficulty. Whether it replaces a higher
    Verteidigung is an Annahme, named only when the value came out below the Verteidigung; a
    Kritischer Erfolg or Patzer of the defense changes nothing (Annahme), named when one
    happened."""
    replaces = annahme("angriff.abwehr_gegen_verteidigung")
    params = {"aktive_abwehr": True, "verteidigung": 40}
    below = seek("attack", params, lambda r: r["target"]["value"] < 40)
    assert replaces in assumed(below)
    params = {"aktive_abwehr": True, "verteidigung": 10}

    def calm(result: dict[str, Any]) -> bool:
        defense = result["target"]["defense"]
        return not defense["critical"] and not defense["patzer"]

    above = seek("attack", params, lambda r: r["target"]["value"] >= 10 and calm(r))
    assert replaces not in assumed(above)
    no_effect = annahme("angriff.abwehr_kritisch_patzer")
    assert no_effect not in assumed(above)
    crit = seek("attack", params, lambda r: r["target"]["defense"]["critical"])
    assert no_effect in assumed(crit)


def test_the_rolled_weapon_damage_is_not_called_the_damage_at_the_target() -> None:
    """000_5fbfd0ad384a0921.txt L186: a hit „richtet den bei der Waffe aufgeführten Schaden an“;
    L194: „Wuchtangriff: … Für jeden aufgewendeten Erfolg richtet der Angriff einen zusätzlichen
    Punkt Schaden an.“ – the roll line is the Waffenschaden, the outcome's „Schaden“ what reaches
    the target (issue 26: „Schaden“ means one thing per system; before, the roll „Schaden … = 7“
    stood under „Treffer: 8 Schaden“)."""
    result = seek(
        "attack",
        {"verteidigung": 15},
        lambda r: (
            r["outcome"] == "treffer" and r["damage"]["target"] != r["damage"]["roll"]["total"]
        ),
    )
    rolls = [i for s in result["display"]["sections"] if s["kind"] == "rolls" for i in s["items"]]
    line = next(item for item in rolls if "schaden" in item["label"].lower())
    assert line["label"] == "Waffenschaden"
    assert line["total"] == str(result["damage"]["roll"]["total"])
    assert f"Treffer: {result['damage']['target']} Schaden." in result["display"]["outcome"]
    assert not [item for item in rolls if item["label"] == "Schaden"]


# ---------------------------------------------------------------------------------------------
# The defender's own Patzer (issue 31)
# ---------------------------------------------------------------------------------------------

DEFENDER_FUMBLE = {
    "action": "fumble",
    "title": "Patzertabelle für den Verteidiger würfeln",
    "params": {"ursache": "kampftalent"},
}


def _defense_patzer(result: dict[str, Any]) -> bool:
    return bool(result["target"]["defense"]["patzer"])


def test_a_patzer_of_the_aktive_abwehr_on_a_nahkampftalent_goes_to_the_patzertabelle() -> None:
    """000_5fbfd0ad384a0921.txt L406: „Immer wenn einem Kämpfer bei einer Probe auf ein
    Kampftalent ein Patzer unterläuft, würfelt er mit 2W10 auf der Patzertabelle“; L247: the
    Aktive Abwehr with a weapon, a Parierwaffe or a shield is „eine Probe auf das Nahkampftalent“.
    The defender's own Patzer there is offered as his Patzertabelle roll, and the result says
    so."""
    defended = {"aktive_abwehr": True, "abwehr_talent": "nahkampftalent"}
    result = seek("attack", defended, _defense_patzer)
    assert DEFENDER_FUMBLE in result["follow_ups"]
    notes = [i for s in result["display"]["sections"] if s["kind"] == "notes" for i in s["items"]]
    assert any("Verteidiger würfelt 2W10 auf der Patzertabelle" in n for n in notes)
    assert run("fumble", DEFENDER_FUMBLE["params"])["rolled"] is True
    # the Nahkampftalent is the usual case: the field's default
    assert DEFENDER_FUMBLE in seek("attack", {"aktive_abwehr": True}, _defense_patzer)["follow_ups"]
    # no Patzer of the defense: no table for the defender
    calm = seek("attack", defended, lambda r: not _defense_patzer(r))
    assert DEFENDER_FUMBLE not in calm["follow_ups"]


def test_a_patzer_of_an_evasion_on_akrobatik_does_not_go_to_the_patzertabelle() -> None:
    """000_5fbfd0ad384a0921.txt L247: the Aktive Abwehr „durch Ausweichen“ is a probe „auf seine
    Akrobatik“ – no Kampftalent, so its Patzer has no Patzertabelle (L406); the result says why."""
    result = seek("attack", {"aktive_abwehr": True, "abwehr_talent": "akrobatik"}, _defense_patzer)
    assert DEFENDER_FUMBLE not in result["follow_ups"]
    notes = [i for s in result["display"]["sections"] if s["kind"] == "notes" for i in s["items"]]
    assert any("Akrobatik" in n and "keine Patzertabelle" in n for n in notes)


def test_how_the_target_defends_is_the_targets_value() -> None:
    """The defense's talent goes with the target's defense values (its Eigenschaften and TaW for
    that talent, L247), so a fight keeps it for him; it applies only to an Aktive Abwehr."""
    from engine import api

    field = next(
        f for f in api.describe("ryssea", "attack")["params"] if f["name"] == "abwehr_talent"
    )
    assert field["subject"] == "target"
    assert field["when"] == {"aktive_abwehr": [True]}
    assert [c["value"] for c in field["choices"]] == ["nahkampftalent", "akrobatik"]
