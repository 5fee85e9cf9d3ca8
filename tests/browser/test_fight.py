"""A fight without retyping: one scripted fight per system on its Kampfhelfer page (the issue
„A fight without retyping“, items 1, 3, 4 and 7).

Each fight counts the fields the game master types. The goal: a fighter's values are typed
once per fight – when the fighter acts again (or is attacked again), the helper is already
filled from the fight (after a reload in the middle too: test_whole_fight.py). Results flow
on where the rules continue (DSA damage → the target's LeP, Pathfinder damage → the target's
hit points, Aktionswürfel → Gesundheit). On a laptop the acting control and the roll button
are on screen together; on a phone the fight bar jumps to „Würfeln“ without scrolling by hand.

Before this issue a Ryssea attack needed 6 typed fields every time (000 L47–L82, L184–L226);
the figures of each run are printed for the closing note. The damage that flows on (DSA LeP,
Pathfinder Trefferpunkte, not typed again for the next hit) is test_whole_fight.py's, which
checks it in every system's fight: with the page no longer filling a target's resource into
the next damage, its DSA and Pathfinder fights fail (as did the DSA fight that was here).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.browser.conftest import SharedVisit, reveal

pytestmark = pytest.mark.browser

NAMES = ("Alrik", "Bruna", "Ork")
COUNT_RESULTS = """
() => {
  window.__rwRolls = 0;
  if (window.__rwCounting) return; // the shared page keeps its listener across tests
  window.__rwCounting = true;
  document.addEventListener("regelwerk:result", () => { window.__rwRolls += 1; });
}
"""


@dataclass
class Typist:
    page: Any
    typed: int = 0
    log: list[str] = field(default_factory=list)

    def fill(self, locator: Any, value: str) -> None:
        locator.fill(value)
        self.typed += 1

    def roll(self, helper: Any) -> None:
        before = self.page.evaluate("window.__rwRolls")
        reveal(helper).locator(".rw-submit").click()
        self.page.wait_for_function("n => window.__rwRolls > n", arg=before, polling=100)


def open_bench(reader: SharedVisit, system: str, width: int = 1366) -> Typist:
    """The system's Kampfhelfer page, arrived at with nothing stored (a new fight)."""
    page = reader.arrive(f"{system}/kampfhelfer/", width=width, height=800)
    page.evaluate(COUNT_RESULTS)
    return Typist(page)


def away_and_back(reader: SharedVisit, page: Any) -> None:
    """To the start page and back to this one, as a reader follows links: the page is drawn
    anew from what the fight stored (fight-bar.js setup → fight.js load), without the second
    engine boot of a reload (test_whole_fight.py reloads in every system's fight)."""
    here = page.url.split("#")[0].removeprefix(reader.site_url)
    size = page.viewport_size
    reader.go("", width=size["width"], height=size["height"])
    reader.go(here, width=size["width"], height=size["height"])


# the tick of the field a fighter's marker stands on in the Tickleiste
TICK_OF = """name => {
  const marker = document.querySelector(`.rw-tickleiste .rw-tl-marker[data-name="${name}"]`);
  const field = marker && marker.closest("[data-tick]");
  return field ? Number(field.dataset.tick) : null;
}"""


def bar(page: Any) -> Any:
    return page.locator(".rw-fight-bar")


def choose_target(page: Any, turn: int) -> tuple[str, str]:
    actor = str(bar(page).locator(".rw-fight-actor").input_value())
    others = [n for n in NAMES if n != actor]
    target = others[turn % len(others)]
    bar(page).locator(".rw-fight-target").select_option(target)
    return actor, target


def fill_once(t: Typist, helper: Any, seen: set[str], who: str, values: dict[str, str]) -> None:
    """Type a fighter's values the first time; afterwards they must already be there."""
    for name, value in values.items():
        box = helper.locator(f"[data-path='{name}']")
        if who in seen:
            assert box.input_value() == value, (who, name, box.input_value())
        else:
            t.fill(box, value)
    seen.add(who)


def initiative(t: Typist, rows: dict[str, dict[str, str]]) -> None:
    helper = t.page.locator("section.rw-helper[data-action='initiative']")
    add = helper.locator(".rw-add")
    while helper.locator(".rw-row").count() < len(rows):
        add.click()
    for index, (name, values) in enumerate(rows.items()):
        t.fill(helper.locator(f"[data-path='fighters.{index}.name']"), name)
        for key, value in values.items():
            t.fill(helper.locator(f"[data-path='fighters.{index}.{key}']"), value)
    t.roll(helper)


def next_turn(page: Any) -> None:
    bar(page).get_by_role("button", name="Weiter ▶").click()


def test_ryssea_fight_types_every_fighter_once(reader: SharedVisit) -> None:
    t = open_bench(reader, "ryssea")
    page = t.page
    board = page.locator("section.rw-tickleiste")
    for name, ini in zip(NAMES, ("12", "10", "8"), strict=True):
        t.fill(board.locator("[data-path='name']"), name)
        t.fill(board.locator("[data-path='ini']"), ini)
        t.fill(board.locator("[data-path='intuition']"), "3")
        board.get_by_role("button", name="Kämpfer hinzufügen").click()
        board.locator(f".rw-tl-marker[data-name='{name}']").wait_for()
    board.get_by_role("button", name="Kampf beginnen (Initiative würfeln)").click()
    board.locator(".rw-tl-field--now").wait_for()
    attack = page.locator("section.rw-helper[data-action='attack']")
    actors: set[str] = set()
    targets: set[str] = set()
    per_actor = {"Alrik": "14", "Bruna": "12", "Ork": "11"}
    defense = {"Alrik": "17", "Bruna": "15", "Ork": "13"}
    setup = t.typed
    for turn in range(7):
        actor, target = choose_target(page, turn)
        fill_once(t, attack, actors, actor, {"eig1": per_actor[actor], "taw": "6"})
        fill_once(t, attack, targets, target, {"verteidigung": defense[target]})
        assert f"Werte von {actor}" in attack.locator(".rw-fight-note").inner_text()
        act = board.get_by_role("button", name="Handlung ausführen")
        roll = attack.locator(".rw-submit")
        # laptop: acting and rolling are on screen at once (no scrolling between them)
        for button in (act, roll):
            box = button.bounding_box()
            assert box and box["y"] >= 0 and box["y"] + box["height"] <= 800, turn
        t.roll(attack)
        t.fill(board.locator("[data-path='ticks']"), "5")  # the weapon speed of this action
        before = page.evaluate(TICK_OF, actor)
        act.click()
        # the actor moves 5 ticks on (000 L47–L82); whether someone else is next depends on
        # the rolled initiative: with a wide gap the same fighter acts again
        page.wait_for_function(
            f"([a, b]) => ({TICK_OF})(a) !== b", arg=[actor, before], polling=100
        )
    fighters = 3 * 2 + 3 * 1  # each attacker's two values and each target's defense, once
    assert t.typed - setup == fighters + 7  # + the ticks of each action
    print(f"Ryssea: {t.typed} Felder für 3 Kämpfer und 7 Angriffe (vorher 6 je Angriff)")


def test_aktionswuerfel_fight_keeps_gesundheit(reader: SharedVisit) -> None:
    t = open_bench(reader, "aktionswuerfel", width=375)
    page = t.page
    initiative(t, {n: {"willenswurf": w} for n, w in zip(NAMES, ("9", "7", "5"), strict=True)})
    attack = page.locator("#helfer-aktionswuerfel-attack")
    actors: set[str] = set()
    for turn in range(4):
        actor, _ = choose_target(page, turn)
        # phone: the fight bar jumps to the open helper's „Würfeln“
        reveal(attack)
        bar(page).get_by_role("button", name="Zum Würfeln").click()
        roll = attack.locator(".rw-submit")
        box = roll.bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= 800
        fill_once(t, attack, actors, actor, {"schadenswuerfel": "2W6"})
        t.roll(attack)
        next_turn(page)
    assert t.typed <= 3 * 2 + 3
    print(f"Aktionswürfel: {t.typed} Felder in 4 Zügen")


def test_stale_values_never_block_a_roll(reader: SharedVisit) -> None:
    """After switching the DSA manoeuvre back to „kein Manöver“, a leftover X = 3 is hidden and
    not sent (it used to block the roll: „gilt nur für Wuchtschlag oder Finte“)."""
    page = reader.arrive("dsa/kampfhelfer/")
    page.evaluate(COUNT_RESULTS)
    attack = reveal(page.locator("section.rw-helper[data-action='attack']"))
    x = attack.locator("[data-path='manoever_x']")
    assert not x.is_visible()
    attack.locator("[data-path='manoever']").select_option("wuchtschlag")
    assert x.is_visible()
    x.fill("3")
    attack.locator("[data-path='manoever']").select_option("keins")
    assert not x.is_visible()
    Typist(page).roll(attack)
    assert attack.locator(".rw-result .rw-outcome").count() == 1
    assert attack.locator(".rw-field-error:not([hidden])").count() == 0


def test_a_won_ambush_carries_on_to_the_tickleiste_and_the_attack(reader: SharedVisit) -> None:
    """000 L41–L45: the attackers won – one click marks the surprised defender on the
    Tickleiste (−10 ticks at the start), another opens the attack with Taktischer Vorteil."""
    t = open_bench(reader, "ryssea")
    page = t.page
    board = page.locator("section.rw-tickleiste")
    t.fill(board.locator("[data-path='name']"), "Räuberbaron")
    board.get_by_role("button", name="Kämpfer hinzufügen").click()
    board.locator(".rw-tl-marker[data-name='Räuberbaron']").wait_for()
    surprise = reveal(page.locator("section.rw-helper[data-action='surprise']"))
    surprise.locator("details.rw-advanced").evaluate("(d) => { d.open = true; }")
    surprise.locator("[data-path='seed']").fill("5")  # a seed with which the ambush works
    t.roll(surprise)
    surprise.get_by_role("button", name="Überraschte in der Tickleiste markieren").click()
    surprise.get_by_text("Als überrascht markiert: Räuberbaron.").wait_for()
    board = page.evaluate("window.Regelwerk.fight('ryssea').board")
    assert board["fighters"][0]["surprised"] is True
    surprise.get_by_role("button", name="Angriff mit Taktischem Vorteil ▸").click()
    attack = page.locator("section.rw-helper[data-action='attack']")
    assert attack.locator("[data-path='taktischer_vorteil']").input_value() == "1"


def test_fighters_named_like_objects_properties_keep_their_values(reader: SharedVisit) -> None:
    """Fighters may be called anything (issue „Outside data never reaches the page's
    prototypes“, points 1 and 4): before, a fighter named „constructor“ threw on every roll
    and the fight was not saved – after a reload neither fighter's values were there. (Other
    names of Object's properties: tests/js/fight.test.mjs.)"""
    names = ("constructor", "__proto__")
    t = open_bench(reader, "pathfinder")
    page = t.page
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    initiative(
        t,
        {
            names[0]: {"geschicklichkeitsmodifikator": "3"},
            names[1]: {"geschicklichkeitsmodifikator": "1"},
        },
    )
    attack = reveal(page.locator("section.rw-helper[data-action='attack']"))
    bab: dict[str, str] = {}
    for value in ("6", "2"):  # each fighter attacks the other once, in the rolled order
        actor = str(bar(page).locator(".rw-fight-actor").input_value())
        assert actor in names
        bar(page).locator(".rw-fight-target").select_option(next(n for n in names if n != actor))
        t.fill(attack.locator("[data-path='gab']"), value)
        t.roll(attack)
        bab[actor] = value
        next_turn(page)
    assert sorted(bab) == sorted(names)
    away_and_back(reader, page)
    page.locator(".rw-fight-bar").wait_for()
    for name, value in bab.items():
        bar(page).locator(".rw-fight-actor").select_option(name)
        assert attack.locator("[data-path='gab']").input_value() == value, name
    assert errors == []
    assert page.evaluate("() => Object.keys(Object.prototype).length") == 0
