"""One fight for every system (issue #48): the rules' states reach the overview the same way in
every system, and who cannot act is passed over – read from each system's fight contract
(``engine.api.fight_contract``, the ``kampf:`` of its data), never from a list of systems.

- Every state the text names (DSA 001 „Wunden“: LeP ≤ 5 kampfunfähig, ≤ 0 lebensbedrohlich,
  ≤ −KO tot; Pathfinder 004 L69–L95: 0 kampfunfähig, −1 sterbend, −KO tot; Aktionswürfel 003
  L104–L110: two kritische Wunden kampfunfähig, Gesundheit 0 tot) reaches the overview when
  the game master types the values that lead to it: the state comes from the engine's one rule
  (the ``state`` request), the step says it, „Weiter“ passes over the fighter („Übersprungen:
  …“). A system whose text gives no numbers (Güte, Ryssea: the state by hand) is put down by
  hand – and passed over all the same, on the Tickleiste too (000 L11, L23: its „Als Nächstes“
  is the first who can act; before, a fighter set to „tot“ was still „Als Nächstes“, preselected
  and „Am Zug“).
- Every action with a life value of the target writes a down state the overview shows (the
  roll's ``target_state``, the same rule): Aktionswürfel's attack never marked anyone down
  before.
- The Tickleiste's board is part of the fight: undo everything, reload – nothing is taken over
  from a second copy, and „Wiederherstellen“ puts every step back (before: a step „Tickleiste
  übernommen“ appeared and redo said „Nichts wiederherzustellen“).
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from engine import api
from tests.browser.conftest import SharedVisit, evaluate_one, reveal, wait_engine_ready
from tests.browser.test_effects import keeps_ticks
from tests.browser.test_fight_steps import started_board
from tests.browser.test_whole_fight import fight_systems

pytestmark = pytest.mark.browser

NAMES = ("Alrik", "Bruna", "Ork")
DOWN = "Bruna"  # the one put down: second in the order, so „Weiter“ from the first passes him


def contract(system: str) -> dict[str, Any]:
    return dict(api.fight_contract(system))


def reads_of(system: str) -> dict[str, int]:
    """Every Kennwert the state rules read (KO, Konstitution), a middling value."""
    return {r["name"]: max(r["min"], min(r["max"], 12)) for r in contract(system)["reads"]}


def values_for(system: str) -> dict[str, dict[str, int]]:
    """For each state the system's rules name (its id): life values that lead to it, found by
    asking the engine's one state function over a few values of each life value."""
    fight = contract(system)
    reads = reads_of(system)
    values = fight["values"]
    candidates = []
    for value in values:
        picks = {0, 1, 2, 5, 6, -1, -5, -11, -12, -13, 20, value["min"], value["max"]}
        candidates.append(sorted(p for p in picks if value["min"] <= p <= value["max"]))
    found: dict[str, dict[str, int]] = {}
    for combo in itertools.product(*candidates):
        typed = {v["name"]: n for v, n in zip(values, combo, strict=True)}
        state = api.fight_state(system, {**reads, **typed})
        if state and state["id"] not in found:
            found[state["id"]] = typed
    return found


def stored_fight(system: str, board: dict[str, Any] | None) -> str:
    """A fight whose order is NAMES (or the Tickleiste's board), each fighter with the
    Kennwerte the state rules read – a fight the game master has set up."""
    reads = reads_of(system)
    fighters = {n: {"actions": {}, "stats": dict(reads), "state": None} for n in NAMES}
    base = {
        "fighters": fighters,
        "actor": NAMES[0],
        "target": None,
        "turns": []
        if board
        else [{"name": n, "label": f"Platz {i + 1}"} for i, n in enumerate(NAMES)],
        "turn": 0,
        "round": 1,
        "board": board,
    }
    return json.dumps({"version": 2, "base": base, "steps": [], "redo": []})


def board_with_first(first: str) -> dict[str, Any]:
    """The Ryssea Tickleiste with NAMES, the fight begun, ``first`` on the lowest tick (000
    L17–L21: INI + W6 decide the start; the highest INI by far)."""
    state: dict[str, Any] = {}
    for name in NAMES:
        ini = 30 if name == first else 5
        params = {"command": "hinzufuegen", "name": name, "ini": ini, "intuition": 3}
        state = api.run("ryssea", "tickleiste", {**params, "state": state}, 1)["result"]["state"]
    started = api.run("ryssea", "tickleiste", {"command": "start", "state": state}, 1)
    assert started["result"]["next"] == first, started["result"]["next"]
    return dict(started["result"]["state"])


def overview_state(page: Any, name: str) -> tuple[str, str]:
    box = page.get_by_label(f"Zustand von {name}", exact=True)
    return box.input_value(), evaluate_one(box, "(s) => s.selectedOptions[0].textContent")


def type_value(page: Any, label: str, value: int) -> None:
    box = page.get_by_label(label, exact=True)
    box.fill(str(value))
    box.press("Tab")


def labels(page: Any, system: str) -> list[str]:
    return list(
        page.evaluate(
            "(s) => JSON.parse(localStorage.getItem(`regelwerk:kampf:${s}`)).steps"
            ".map((step) => step.label)",
            system,
        )
    )


def last_label(page: Any, system: str) -> str:
    return labels(page, system)[-1]


def passes_over(page: Any, system: str, board: bool, why: str) -> None:
    """Whoever cannot act is passed over: by „Weiter“ („Übersprungen: Bruna (tot).“) or, on
    the Tickleiste, by its „Als Nächstes“ and the fighter it preselects – never „Am Zug“."""
    if board:
        helper = page.locator(".rw-tickleiste")
        helper.locator(".rw-result").get_by_text(f"{DOWN} (").first.wait_for()
        assert f"Als Nächstes: {DOWN}" not in helper.locator(".rw-result").inner_text(), why
        chosen = helper.locator("select[data-path='fighter']").input_value()
        assert chosen and chosen != DOWN, (why, chosen)
        return
    bar = page.locator(".rw-fight-bar")
    bar.get_by_role("button", name="Weiter ▶").click()
    bar.locator(".rw-fight-notices").get_by_text(f"Übersprungen: {DOWN} (").wait_for()
    assert bar.locator(".rw-fight-actor").input_value() == NAMES[2], why


@pytest.mark.parametrize("system", fight_systems())
def test_every_state_of_the_rules_reaches_the_overview_and_is_passed_over(
    reader: SharedVisit, built_site: Path, system: str
) -> None:
    board = board_with_first(DOWN) if keeps_ticks(built_site, system) else None
    stored = {f"regelwerk:kampf:{system}": stored_fight(system, board)}
    fight = contract(system)
    titles = {v["name"]: v["title"] for v in fight["values"]}
    found = values_for(system)
    missing = [s["id"] for s in fight["states"] if s["id"] not in found]
    assert not missing, f"{system}: no typed values lead to {missing}"
    for rule in fight["states"]:
        page = reader.arrive(f"{system}/kampfhelfer/", stored)
        wait_engine_ready(page)
        for name, value in found[rule["id"]].items():
            type_value(page, f"{titles[name]} von {DOWN}", value)
        page.wait_for_function(
            "([name, zustand]) => document.querySelector("
            '`select[aria-label="Zustand von ${name}"]`).value === zustand',
            arg=[DOWN, rule["zustand"]],
            polling=50,
        )
        assert overview_state(page, DOWN) == (rule["zustand"], rule["text"]), rule
        if rule["zustand"] != "kampffähig":
            said = f"{DOWN} ist jetzt {rule['text']}"
            assert any(label.endswith(said) for label in labels(page, system)), rule
            passes_over(page, system, board is not None, rule["rule"])
    if not fight["states"]:
        # no numbers in the text (fight contract `note`): the game master puts him down by hand
        page = reader.arrive(f"{system}/kampfhelfer/", stored)
        wait_engine_ready(page)
        assert fight["note"] and page.locator(".rw-overview-note").inner_text() == fight["note"]
        page.get_by_label(f"Zustand von {DOWN}", exact=True).select_option("tot")
        assert last_label(page, system) == f"{DOWN}: tot (von Hand)"
        passes_over(page, system, board is not None, "von Hand")


def resource_actions(system: str) -> list[str]:
    """The system's actions with a life value of the target among their fields – where the
    system's rules give a state for them (Güte's text gives no numbers: by hand)."""
    if not contract(system)["states"]:
        return []
    names = {v["name"] for v in contract(system)["values"] if not v["by_hand"]}
    out = []
    systems = {s["name"]: s for s in api.catalog()["systems"]}
    for action in systems[system]["actions"]:
        params = api.describe(system, action["name"])["params"]
        if any(p.get("resource") and p["name"] in names for p in params):
            out.append(action["name"])
    return out


def down_roll(system: str, action: str) -> tuple[dict[str, Any], int, dict[str, Any]] | None:
    """Params and a Wurfnummer with which the action puts its target down (the most severe
    state it reaches among a few tries), on CPython – or None."""
    described = api.describe(system, action)["params"]
    base = {p["name"]: p.get("default") for p in described if p["type"] not in ("list", "state")}
    life = [p for p in described if p.get("resource")]
    best: tuple[int, dict[str, Any], int, dict[str, Any]] | None = None
    rank = {"kampfunfähig": 1, "tot": 2}
    for low in (1, 0, -1, -10):
        params = {**base, **{p["name"]: max(p["min"], low) for p in life}}
        params.update(reads_of(system))
        for seed in range(1, 40):
            answer = api.run(system, action, params, seed=seed)
            state = answer["ok"] and answer["result"].get("target_state")
            worse = state and state["zustand"] in rank
            if worse and (best is None or rank[state["zustand"]] > best[0]):
                best = (rank[state["zustand"]], params, seed, state)
    return None if best is None else best[1:]


@pytest.mark.parametrize("system", fight_systems())
def test_every_roll_with_a_life_value_puts_its_target_down_in_the_overview(
    reader: SharedVisit, system: str
) -> None:
    actions = resource_actions(system)
    if not actions:
        pytest.skip(f"{system}: no roll writes a life value (the text gives no numbers)")
    for action in actions:
        found = down_roll(system, action)
        assert found, f"{system}.{action}: no roll puts the target down"
        params, seed, state = found
        stored = {f"regelwerk:kampf:{system}": stored_fight(system, None)}
        page = reader.arrive(f"{system}/kampfhelfer/", stored)
        wait_engine_ready(page)
        page.locator(".rw-fight-target").select_option(DOWN)
        helper = reveal(page.locator(f"section.rw-helper[data-action='{action}']").first)
        helper.evaluate("(h, values) => window.Regelwerk.fill(h, values)", params)
        seeded = helper.locator("[data-path='seed']")
        helper.locator("details.rw-advanced").evaluate("(d) => { d.open = true; }")
        seeded.fill(str(seed))
        helper.locator(".rw-submit").click()
        helper.locator(".rw-fight-written").first.wait_for()
        assert overview_state(page, DOWN) == (state["zustand"], state["text"]), (action, state)
        assert f"{DOWN} ist jetzt {state['text']}" in last_label(page, system), action


def test_undo_everything_and_reload_keeps_the_fight(reader: SharedVisit, built_site: Path) -> None:
    """Issue #48: „Undo everything, then reload: a step „Tickleiste übernommen“ appears, redo
    says „Nichts wiederherzustellen“ – the whole fight is gone (the Tickleiste keeps its own
    stored board beside the fight's journal).“ The board is the fight's, kept once."""
    system = next(s for s in fight_systems() if keeps_ticks(built_site, s))
    page = reader.arrive(f"{system}/kampfhelfer/")
    started_board(page, {"Alrik": "12", "Bruna": "9"})
    key = f"regelwerk:kampf:{system}"
    made = page.evaluate(f"JSON.parse(localStorage.getItem('{key}')).steps.length")
    undo = page.locator(".rw-fight-bar .rw-fight-undo")
    while undo.is_enabled():
        undo.click()
    assert page.evaluate(f"window.Regelwerk.fight('{system}').board") is None
    page.reload()
    wait_engine_ready(page)
    page.locator(".rw-fight-bar").wait_for()
    journal = page.evaluate(f"JSON.parse(localStorage.getItem('{key}'))")
    assert journal["steps"] == [] and len(journal["redo"]) == made, journal["steps"]
    redo = page.locator(".rw-fight-bar .rw-fight-redo")
    for _ in range(made):
        redo.click()
    page.locator(".rw-tickleiste .rw-tl-marker[data-name='Bruna']").wait_for()
    assert len(page.evaluate(f"window.Regelwerk.fight('{system}').board")["fighters"]) == 2
