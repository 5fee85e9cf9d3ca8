"""The public vocabulary (CONTRIBUTING.md „Namen“): one name per idea, and old names that keep
working where readers keep them – in a request (saved values, share links and the fight send
them on), on the command line – read from the one list the engine exports (``formerly`` of a
field, ``result_formerly`` of an action)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from engine import api, cli


def _actions() -> Iterator[tuple[str, str, dict[str, Any]]]:
    for system in api.catalog()["systems"]:
        for action in system["actions"]:
            yield system["name"], action["name"], api.describe(system["name"], action["name"])


def _samples(fields: list[dict[str, Any]]) -> dict[str, Any]:
    """Every field with the form's sample value (a required one too), no state."""
    return {f["name"]: f["default"] for f in fields if f["type"] != "state"}


def _renamed_fields() -> list[tuple[str, str, str | None, str, str]]:
    """(system, action, list or None, field, former name) for every renamed field."""
    out = []
    for system, action, spec in _actions():
        for field in spec["params"]:
            out += [(system, action, None, field["name"], old) for old in field.get("formerly", [])]
            for item in field.get("item", []):
                out += [
                    (system, action, field["name"], item["name"], old)
                    for old in item.get("formerly", [])
                ]
    return out


RENAMED = _renamed_fields()


def test_the_engine_exports_its_renames() -> None:
    """The list the browser and scripts/json_identity.py read: the fields renamed so far
    (Ryssea's „modifikator“ next to „modifier“, „schaden“/„damage“, „entfernung“)."""
    pairs = {(old, name) for _, _, _, name, old in RENAMED}
    assert {("modifikator", "modifier"), ("schaden", "damage"), ("entfernung", "distance")} <= pairs
    assert {("ruestung", "armor"), ("abwehr_modifikator", "abwehr_modifier")} <= pairs
    assert ("constitution", "konstitution") in pairs  # Ryssea's „konstitution“ too
    assert ("ueberrascht", "surprised") in pairs  # Güte, as Ryssea's initiative
    # Pathfinder's Stärke- and Geschicklichkeitsmodifikator: the text's names (004 L18, L23)
    assert ("strength", "staerkemodifikator") in pairs
    assert ("dexterity", "geschicklichkeitsmodifikator") in pairs
    assert ("art", "kind") in pairs  # DSA's kind of attack, defense, fumble, as Pathfinder's


def _with(params: dict[str, Any], where: str | None, key: str, value: Any) -> dict[str, Any]:
    out = dict(params)
    if where is None:
        out[key] = value
    else:
        out[where] = [{**row, key: value} for row in out[where]]
    return out


def _without(params: dict[str, Any], where: str | None, key: str) -> dict[str, Any]:
    out = dict(params)
    if where is None:
        out.pop(key)
    else:
        out[where] = [{k: v for k, v in row.items() if k != key} for row in out[where]]
    return out


@pytest.mark.parametrize(("system", "action", "where", "name", "old"), RENAMED)
def test_a_former_name_is_read_as_the_field(
    system: str, action: str, where: str | None, name: str, old: str
) -> None:
    """A request from before the rename (a saved value, a share link, a stored fight, a script)
    gives byte for byte the answer of the same request with the new name."""
    spec = api.describe(system, action)
    params = _samples(spec["params"])
    field = next(f for f in spec["params"] if f["name"] == (where or name))
    if where is not None:
        field = next(i for i in field["item"] if i["name"] == name)
    value = field["default"]
    if field["type"] == "int":  # a value other than the default: it must arrive
        value = value + 1 if value < field["max"] else value - 1
    new = api.run(system, action, _with(params, where, name, value), 7)
    before = api.run(system, action, _with(_without(params, where, name), where, old, value), 7)
    assert new["ok"], new
    assert before == new


def test_both_names_at_once_is_a_german_error_naming_the_field() -> None:
    params = {"eig1": 10, "eig2": 10, "eig3": 10, "taw": 5, "schwierigkeit": 15}
    answer = api.run("ryssea", "probe", {**params, "modifier": 1, "modifikator": 2}, 1)
    assert not answer["ok"]
    assert answer["error"]["field"] == "modifier"
    assert answer["error"]["message"].startswith("Modifikator: zweimal angegeben")
    rows = [{"name": "A", "seite": "Helden", "ini_basis": 10, "modifier": 1, "modifikator": 1}]
    answer = api.run("dsa", "initiative", {"fighters": rows}, 1)
    assert answer["error"]["field"] == "fighters.0.modifier"
    assert answer["error"]["message"].startswith("Kämpfer 1 – INI-Modifikator: zweimal")


def test_a_former_name_is_never_a_field_of_its_own() -> None:
    """One name per idea: once renamed, no action of any system still has a field under the
    old name (e.g. Ryssea's probe and DSA's initiative both say „modifier“)."""
    former = {old for _, _, _, _, old in RENAMED}
    current = set()
    for _, _, spec in _actions():
        for field in spec["params"]:
            current.add(field["name"])
            current |= {item["name"] for item in field.get("item", [])}
    assert not former & current


def _cli_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert cli.main([*argv, "--seed", "5", "--json"]) == 0
    return capsys.readouterr().out


def test_the_cli_takes_a_former_option_name(capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m engine ryssea probe --modifikator -3`` (a script from before the rename) and
    a list row's old key („--fighters …,modifikator=3“) work as the new names."""
    probe = ["ryssea", "probe", "--eig1", "10", "--eig2", "10", "--eig3", "10", "--taw", "5"]
    probe += ["--schwierigkeit", "15"]
    assert _cli_json([*probe, "--modifikator", "-3"], capsys) == _cli_json(
        [*probe, "--modifier", "-3"], capsys
    )
    row = "name=A,seite=Helden,ini_basis=10"
    assert _cli_json(["dsa", "initiative", "--fighters", f"{row},modifikator=3"], capsys) == (
        _cli_json(["dsa", "initiative", "--fighters", f"{row},modifier=3"], capsys)
    )
    assert cli.main([*probe, "--modifikator", "-3", "--modifier", "1"]) == 2
    assert "zweimal angegeben" in capsys.readouterr().err


def test_renamed_result_keys_are_exported_and_gone() -> None:
    """Güte's „wuerfe“ is „rolls“ as in Ryssea and Pathfinder, its „wurf“ „roll“; describe
    names the old keys (scripts/json_identity.py --rename reads them there)."""
    attack = api.describe("guete", "attack")
    assert attack["result_formerly"]["rolls"] == ["wuerfe"]
    params = _samples(attack["params"])
    result = api.run("guete", "attack", params, 2)["result"]
    assert result["rolls"][0]["notation"] == params["damage"] and "wuerfe" not in result
    assert api.describe("guete", "aufwachen")["result_formerly"]["roll"] == ["wurf"]
    woken = api.run("guete", "aufwachen", {"gw_widerstand": 3}, 2)["result"]
    assert woken["roll"]["notation"] == "2W6" and "wurf" not in woken
    # Güte's attack says outcome as DSA, Pathfinder and Ryssea; the Sturzflug expected_sturz
    assert attack["result_formerly"]["outcome"] == ["ergebnis"]
    assert result["outcome"] == "treffer" and "ergebnis" not in result
    dive = api.run("guete", "sturzflug", {"hoehe": 9, "greifen": True}, 2)["result"]
    assert dive["chances"]["expected_sturz"] == "11/2" and "sturz_erwartung" not in dive["chances"]


def test_within_a_system_a_former_name_means_one_field() -> None:
    """A fight keeps a fighter's values of all the system's helpers under their field names;
    the page renames them with one map per system (site_plugins/forms.py ``former_names``)."""
    meant: dict[tuple[str, str], set[str]] = {}
    for system, _, _, name, old in RENAMED:
        meant.setdefault((system, old), set()).add(name)
    assert all(len(names) == 1 for names in meant.values()), meant


def test_ryssea_names_the_targets_active_defense_defense() -> None:
    """One spelling (defense, as DSA's „defense“ action): the Aktive Abwehr the attack rolled
    for the target (000_5fbfd0ad384a0921.txt L245–L249) is ``target.defense``."""
    spec = api.describe("ryssea", "attack")
    assert spec["result_formerly"]["defense"] == ["defence"]
    params = {**_samples(spec["params"]), "aktive_abwehr": True}
    target = api.run("ryssea", "attack", params, 3)["result"]["target"]
    assert "patzer" in target["defense"] and "defence" not in target


def _keys(value: Any, path: str = "") -> Iterator[tuple[str, str, Any]]:
    """(path, key, value) of every key in a result, the display (the page's words) left out."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "display" and not path:
                continue
            yield path, key, item
            yield from _keys(item, f"{path}.{key}")
    elif isinstance(value, list):
        for item in value:
            yield from _keys(item, f"{path}[]")


def _results() -> Iterator[tuple[str, str, dict[str, Any], dict[str, Any]]]:
    """Every action's result for its sample values, under a few seeds."""
    for system, action, spec in _actions():
        for seed in range(4):
            answer = api.run(system, action, _samples(spec["params"]), seed)
            if answer["ok"]:
                yield system, action, spec, answer["result"]


def test_no_result_carries_a_former_key() -> None:
    """A renamed result key (``result_formerly``) is gone from the action's result."""
    for system, action, spec, result in _results():
        former = {old for olds in spec.get("result_formerly", {}).values() for old in olds}
        found = {key for _, key, _ in _keys(result)} & former
        assert not found, (system, action, found)


def test_the_modifiers_that_applied_are_one_key_of_one_shape() -> None:
    """Every system lists the modifiers that applied as ``modifiers``: rows with ``name`` and
    ``value`` (a number) – DSA's, Ryssea's, and Güte's and Aktionswürfel's (were
    „modifikatoren“ with „wert“)."""
    seen = set()
    for system, action, _, result in _results():
        for path, key, value in _keys(result):
            assert "modifikator" not in key, (system, action, path, key)
            if key == "modifiers":
                assert isinstance(value, list), (system, action, path)
                for row in value:
                    assert isinstance(row["name"], str) and isinstance(row["value"], int), row
                seen.add(system)
    assert {"dsa", "ryssea", "guete", "aktionswuerfel"} <= seen


def test_a_fumble_names_its_rule_and_meaning_in_every_system() -> None:
    """Pathfinder's fumble says ``rule`` and ``meaning``; Güte's and Aktionswürfel's (whose
    texts have no Patzer rule) say the same under the same keys (were regel, erklaerung)."""
    for system in ("guete", "aktionswuerfel", "pathfinder"):
        spec = api.describe(system, "fumble")
        result = api.run(system, "fumble", _samples(spec["params"]), 1)["result"]
        assert isinstance(result["meaning"], str) and result["meaning"], system
        assert "rule" in result and not {"regel", "erklaerung"} & set(result), system


def _result(system: str, action: str, seed: int = 1, **given: Any) -> dict[str, Any]:
    params = {**_samples(api.describe(system, action)["params"]), **given}
    answer = api.run(system, action, params, seed)
    assert answer["ok"], answer
    result: dict[str, Any] = answer["result"]
    return result


def test_the_same_idea_has_the_same_result_key_in_every_system() -> None:
    """What a scripted pass over every result key found under two keys, now under one:
    Aktionswürfel's hit, damage_roll, kind, success and tot (were treffer, schadenswurf, art,
    erfolg, tod) as Pathfinder's, DSA's and Ryssea's; DSA's Wunden and Wundschwelle by their
    rule names (were wounds, wound_threshold) and the next probe's modifier one key after an
    attack and a defense; Ryssea's Deckung in the result as in its field (was cover)."""
    hit = _result("aktionswuerfel", "attack", angriffswurf=20, verteidigungswert=1)
    assert hit["hit"] is True and hit["damage_roll"]["notation"]
    assert isinstance(_result("pathfinder", "attack")["hit"], bool)
    assert "damage_roll" in _result("dsa", "attack")
    assert {"tot", "expected_wunde"} <= set(hit["chances"]) and "tot" in hit["wunde"]
    assert "tot" in _result("dsa", "damage")["chances"]
    moved = _result(
        "aktionswuerfel", "attack", angriffsart="kampfmanoever", manoever="niederwerfen"
    )
    assert {"kind", "success"} <= set(moved["kampfmanoever"])
    wounded = _result("dsa", "damage")
    assert {"wunden", "wunden_total", "expected_wunden", "wundschwelle"} <= set(wounded)
    assert "next_probe_modifier" in _result("dsa", "attack")
    assert "next_probe_modifier" in _result("dsa", "defense")
    aimed = _result("ryssea", "attack", deckung="leicht", angriffsart="fernkampf")
    assert "deckung" in aimed["chances"] and "deckung" in aimed["damage"]


def test_pathfinder_names_the_rule_terms_of_its_text() -> None:
    """Pathfinder's fields and result keys carry the German terms of its text
    (004_019b513a861ec26f.txt): Schildbonus (L33), Ablenkungsbonus (L44, L66), Natürliche
    Rüstung (L46), Ausweichboni (L48), Deckung (L66), Grund-Angriffsbonus/GAB (L18, L23),
    Schwierigkeitsgrad/SG (L160); the armour caps the Geschicklichkeitsbonus (L35), the damage
    adds the Stärkebonus (L78–L82). The English names before keep working (``formerly``)."""
    pairs = {(old, name) for system, _, _, name, old in RENAMED if system == "pathfinder"}
    assert {
        ("shield", "schildbonus"),
        ("deflection", "ablenkungsbonus"),
        ("natural_armor", "natuerliche_ruestung"),
        ("dodge", "ausweichbonus"),
        ("cover", "deckung"),
        ("max_dex", "max_geschicklichkeitsbonus"),
        ("bab", "gab"),
        ("dc", "sg"),
    } <= pairs
    armor = api.describe("pathfinder", "armor_class")
    assert armor["result_formerly"]["geschicklichkeitsbonus"] == ["dexterity_used"]
    capped = {"armor": 6, "geschicklichkeitsmodifikator": 4, "max_geschicklichkeitsbonus": 1}
    result = api.run("pathfinder", "armor_class", _samples(armor["params"]) | capped, 1)["result"]
    assert result["geschicklichkeitsbonus"] == 1 and "dexterity_used" not in result
    attack = api.describe("pathfinder", "attack")
    assert attack["result_formerly"]["staerkebonus"] == ["strength_damage"]
    # L82: a two-handed weapon adds one and a half times the Stärkebonus (+3 → 4)
    hit = {"gab": 5, "staerkemodifikator": 3, "grip": "zweihaendig", "armor_class": 10}
    result = api.run("pathfinder", "attack", _samples(attack["params"]) | hit, 1)["result"]
    assert result["staerkebonus"] == 4 and "strength_damage" not in result
    throw = _samples(api.describe("pathfinder", "saving_throw")["params"]) | {"sg": 13}
    save = api.run("pathfinder", "saving_throw", throw, 1)
    assert save["result"]["sg"] == 13 and "dc" not in save["result"]


def test_one_meaning_for_who_hits_and_for_probe() -> None:
    """Güte's attack says *who* hits (002_51e59e824768e9e9.txt L11–L13: the higher Güte hits
    its opponent) as ``hitter`` – ``angreifer``, ``gegner`` or nobody –, a key of its own next to
    every system's ``hit`` (yes/no); a modifier names the Probe it counts on as ``applies_to``.
    ``probe`` means one thing: a rolled Probe (Ryssea's probe, reactions, surprise)."""
    spec = api.describe("guete", "attack")
    assert spec["result_formerly"]["hitter"] == ["treffer"]
    assert spec["result_formerly"]["applies_to"] == ["probe"]
    duel = {"konfrontation": True, "angriff_guete": 2, "gegner_guete": 3, "gezielt_ziel": "torso"}
    params = _samples(spec["params"]) | duel | {"option": "gezielt", "gezielt_zweiter_wurf": True}
    result = api.run("guete", "attack", params, 4)["result"]
    assert result["hitter"] == "gegner" and "treffer" not in result
    assert {m["applies_to"] for m in result["modifiers"]} >= {"Zweiter Angriffswurf"}
    assert all("probe" not in m for m in result["modifiers"])
    probe = api.describe("ryssea", "probe")
    rolled = api.run("ryssea", "probe", _samples(probe["params"]), 4)["result"]["probe"]
    assert isinstance(rolled["total"], int) and "patzer" in rolled


def test_dsa_names_the_weapons_tp_damage_in_attack_defense_and_damage(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """One key for the weapon's Trefferpunkte in DSA's three helpers and every system's weapon
    damage: ``damage`` (the field of the attack, the defense and „Schaden und Wunden“, and what
    the attack hands on to the other two; „tp“ before). The text (001_240b8e52c108db7c.txt)
    names no TP – its one abbreviation for damage is „SP -> Schadenspunkte“, the result's
    ``sp`` –, so TP stays the label only. A script's ``--tp`` still works."""
    pairs = {(a, old, name) for s, a, _, name, old in RENAMED if s == "dsa"}
    assert {("damage", "tp", "damage"), ("defense", "tp", "damage")} <= pairs
    spec = api.describe("dsa", "attack")
    params = _samples(spec["params"]) | {"wert": 20}
    ups = next(
        r["follow_ups"]
        for seed in range(60)
        if (r := api.run("dsa", "attack", params, seed)["result"])["follow_ups"]
    )
    assert all("damage" in up["params"] and "tp" not in up["params"] for up in ups)
    hit = ["dsa", "damage", "--ko", "12", "--lep", "30"]
    assert _cli_json([*hit, "--tp", "2W6+3"], capsys) == _cli_json(
        [*hit, "--damage", "2W6+3"], capsys
    )
