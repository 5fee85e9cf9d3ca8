"""What every result says about its own dice, over every action of the catalog (no system is
listed: a new system's actions are checked without an edit).

- A Bestätigungswurf says what it decided: its line ends in „bestätigt – …“ or „nicht
  bestätigt – …“ (issue 26: „Bestätigungswurf (Kritischer Erfolg?) … = 14“ never said yes or
  no). Each system's own words are tested beside its action (tests/engine/<system>/).
- A result without dice (no die in its ``display``) does not depend on the Wurfnummer: that is
  the signal the page reads to leave out „Wurfnummer“ and „Link kopieren“ (results.js
  ``hasDice``), so it must be true of every action – every die goes through ``engine.dice``
  and into ``Display.roll`` (CONTRIBUTING: „damit jeder Würfel in der Erklärung steht“).
"""

from __future__ import annotations

import functools
import random
import re
from typing import Any

import pytest

from engine import api

ACTIONS = [(s["name"], a["name"]) for s in api.catalog()["systems"] for a in s["actions"]]
NAMES = ["Alrik", "Bruna", "Ork", "Zara"]
DICE = ["1W6", "2W6+3", "1W8+2", "1W10", "2W10kh1", "W20", "5"]
REQUESTS_PER_ACTION = 60
SEEDS_PER_REQUEST = 4


def _value(field: dict[str, Any], rng: random.Random, row: int = 0) -> Any:
    kind = field["type"]
    if kind == "int":
        low, high, default = field["min"], field["max"], field["default"]
        if default is None:  # a blank-able field: unknown, or a value near 0
            if rng.random() < 0.3:
                return None
            default = max(low, min(high, 0)) + 20
        if rng.random() < 0.2:
            return rng.randint(low, high)
        return max(low, min(high, default + rng.randint(-8, 8)))
    if kind == "bool":
        return rng.random() < 0.4
    if kind == "choice":
        return rng.choice(field["choices"])["value"]
    if kind == "dice":
        return rng.choice(DICE)
    if kind == "text":
        return NAMES[row % len(NAMES)]
    if kind == "list":
        count = rng.randint(field["min_items"], min(field["max_items"], 4))
        return [
            {item["name"]: _value(item, rng, index) for item in field["item"]}
            for index in range(count)
        ]
    return field["default"]


def requests(system: str, action: str) -> list[dict[str, Any]]:
    """The form's sample values, then fields varied within their limits (fixed seed)."""
    spec = api.describe(system, action)
    fields = [f for f in spec["params"] if f["type"] != "state"]
    sample = {
        f["name"]: f["default"] for f in fields if f.get("required") or f.get("required_when")
    }
    rng = random.Random(f"{system}.{action}")
    out = [sample]
    for index in range(REQUESTS_PER_ACTION):
        share = (0.2, 0.5, 0.9)[index % 3]
        out.append(
            {**sample, **{f["name"]: _value(f, rng) for f in fields if rng.random() < share}}
        )
    return out


@functools.cache
def answers(system: str, action: str) -> list[list[dict[str, Any]]]:
    """Per request that the engine accepts: its results for a few seeds (its own: the same
    seed gives every request the same first dice)."""
    out = []
    rng = random.Random(f"seeds of {system}.{action}")
    for params in requests(system, action):
        seeds = [rng.randrange(2**32) for _ in range(SEEDS_PER_REQUEST)]
        runs = [api.run(system, action, params, seed) for seed in seeds]
        if all(run["ok"] for run in runs):
            out.append([run["result"] for run in runs])
    return out


def roll_items(result: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        item
        for section in result["display"]["sections"]
        if section["kind"] == "rolls"
        for item in section["items"]
    ]


def has_dice(result: dict[str, Any]) -> bool:
    """The page's test (results.js hasDice): some roll of the display shows a die."""
    return any(item["dice"] for item in roll_items(result))


DECIDED = re.compile(r"(?:^|\W)(?:nicht )?bestätigt(?: \([^)]*\))? – \w")


@pytest.mark.parametrize(("system", "action"), ACTIONS)
def test_every_confirmation_roll_says_what_it_decided(system: str, action: str) -> None:
    for runs in answers(system, action):
        for result in runs:
            for item in roll_items(result):
                if "Bestätigung" in item["label"]:
                    decision = item.get("decision", "")
                    assert DECIDED.search(decision), (system, action, item)


def test_confirmation_rolls_are_found() -> None:
    """The test above is not empty: the catalog has Bestätigungswürfe and they are rolled."""
    found = {
        system
        for system, action in ACTIONS
        for runs in answers(system, action)
        for result in runs
        for item in roll_items(result)
        if "Bestätigung" in item["label"]
    }
    assert len(found) >= 2, found


@pytest.mark.parametrize(("system", "action"), ACTIONS)
def test_a_result_without_dice_does_not_depend_on_the_seed(system: str, action: str) -> None:
    for runs in answers(system, action):
        if not has_dice(runs[0]):
            assert all(run == runs[0] for run in runs[1:]), (system, action, runs[0]["display"])


def rolling_examples(system: str, action: str) -> list[dict[str, Any]]:
    """Requests that roll where a sweep of random values rarely does: a tie of the entered
    Willens-Würfe is re-rolled (003 L38); the Tickleiste rolls the initiative on „Kampf
    beginnen“ of a board with fighters (000 L19)."""
    if (system, action) == ("aktionswuerfel", "initiative"):
        tied = [{"name": "Alrik", "willenswurf": 5}, {"name": "Bruna", "willenswurf": 5}]
        return [{"fighters": tied}]
    if (system, action) == ("ryssea", "tickleiste"):
        new = {"command": "hinzufuegen", "name": "Alrik", "ini": 8, "intuition": 3}
        added = api.run(system, action, new, 1)
        return [{"command": "start", "state": added["result"]["state"]}]
    return []


@pytest.mark.parametrize(("system", "action"), ACTIONS)
def test_an_action_that_never_rolls_is_registered_so(system: str, action: str) -> None:
    """``rolls_dice=False`` (no Wurfnummer in its form, site_plugins/forms.py) only for an
    action that shows no die for any choice of its fields; an action whose results show no die
    across the sweep (and its examples) is flagged: it should say ``rolls_dice=False`` – or it
    rolls a die it does not show."""
    spec = api.describe(system, action)
    results = [result for runs in answers(system, action) for result in runs]
    if not spec["rolls_dice"]:
        assert results and not any(has_dice(result) for result in results)
        sample = requests(system, action)[0]
        for field in spec["params"]:
            for choice in field.get("choices", []):
                answer = api.run(system, action, {**sample, field["name"]: choice["value"]}, 1)
                assert not answer["ok"] or not has_dice(answer["result"]), (field, choice)
        return
    examples = [
        api.run(system, action, params, seed)["result"]
        for params in rolling_examples(system, action)
        for seed in (1, 2)
    ]
    assert any(has_dice(result) for result in results + examples), (
        f"{system}.{action}: no result shows a die – rolls_dice=False?"
    )


@pytest.mark.parametrize(("system", "action"), ACTIONS)
def test_an_offered_effect_is_a_condition_of_the_fight(system: str, action: str) -> None:
    """``effect_offers`` (what the fight may put on a fighter, with its duration per answer)
    name a condition of the system's fight contract, for the actor or the target."""
    from engine.fight_contract import contract_of

    names = contract_of(system).condition_names()
    for runs in answers(system, action):
        for offer in runs[0].get("effect_offers", []):
            assert offer["effect"] in names and offer["fighter"] in ("actor", "target")
            assert offer["question"] and offer["ref"] and offer["choices"]
            for choice in offer["choices"]:
                assert set(choice) == {"label", "meaning", "duration"}
                assert set(choice["duration"]) == {"runden", "zuege"}


QUOTED = re.compile(r"„[^“]*“")


@pytest.mark.parametrize(("system", "action"), ACTIONS)
def test_a_fighter_is_called_kaempfer_in_the_engines_own_words(system: str, action: str) -> None:
    """One word for one idea in every system (CONTRIBUTING.md „Namen“): the engine's labels,
    helps and outcomes say „Kämpfer“ (issue 48: the Aktionswürfel helpers said „Charakter“);
    what a text says is quoted verbatim in „…“ and keeps its word."""
    from harness.support import player_texts

    texts = player_texts(api.describe(system, action))
    for runs in answers(system, action):
        texts += player_texts(runs[0]["display"])
    said = [t for t in texts if "Charakter" in QUOTED.sub("„…“", t)]
    assert not said, said[:3]
