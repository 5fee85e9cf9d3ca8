"""Dice expressions in the rule text are roll buttons with an accessible result popover.

Example: 000_5fbfd0ad384a0921.txt (Schildstoß) "Jeder Schild richtet dabei 1W6+1 Punkte
Schaden an." — the text stays verbatim, the expression becomes a button.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine import api
from tests.browser.conftest import SharedVisit

pytestmark = pytest.mark.browser

PAGE = "ryssea/nahkampf-und-verteidigung/"


def shown_seed(popover: Any) -> int:
    match = re.search(r"Wurfnummer (\d+)", popover.inner_text())
    assert match, popover.inner_text()
    return int(match.group(1))


def dice_in(popover: Any) -> list[str]:
    return popover.locator(".rw-die").evaluate_all("els => els.map(e => e.textContent)")


def expected(notation: str, mode: str, seed: int) -> dict[str, Any]:
    answer = api.run("allgemein", "wurf", {"notation": notation, "mode": mode}, seed)
    assert answer["ok"], answer
    return answer["result"]


def test_click_rolls_and_matches_the_engine(reader: SharedVisit) -> None:
    page = reader.arrive(PAGE)
    button = page.get_by_role("button", name="1W6+1", exact=True)
    assert "1W6+1 Punkte Schaden" in page.locator("article").inner_text()
    button.click()
    popover = page.get_by_role("dialog", name="Würfelergebnis")
    popover.locator(".rw-outcome").wait_for()
    seed = shown_seed(popover)
    result = expected("1W6+1", "normal", seed)
    assert popover.locator(".rw-outcome").inner_text() == result["display"]["outcome"]
    assert dice_in(popover) == [str(d["value"]) for d in result["rolls"][0]["terms"][0]["dice"]]
    assert "Zuschlag +1" in popover.inner_text()
    assert "%" in popover.locator(".rw-chances").inner_text()
    assert button.get_attribute("aria-expanded") == "true"
    # Escape closes and gives the focus back to the dice button
    page.keyboard.press("Escape")
    assert popover.is_hidden()
    assert page.evaluate("document.activeElement.dataset.notation") == "1W6+1"


def test_shift_click_rolls_with_vorteil_and_the_log_repeats_from_the_seed(
    reader: SharedVisit,
) -> None:
    """Ryssea Vorteil: roll twice, the better counts ("Würfelsystem & Proben", see inventory)."""
    page = reader.arrive(PAGE)
    page.get_by_role("button", name="1W6+1", exact=True).click(modifiers=["Shift"])
    popover = page.get_by_role("dialog", name="Würfelergebnis")
    popover.locator(".rw-outcome").wait_for()
    assert "mit Vorteil" in popover.locator(".rw-headline").inner_text()
    seed = shown_seed(popover)
    result = expected("1W6+1", "vorteil", seed)
    assert popover.locator(".rw-outcome").inner_text() == result["display"]["outcome"]
    assert len(dice_in(popover)) == 2
    first_outcome = popover.locator(".rw-outcome").inner_text()
    page.keyboard.press("Escape")
    log = page.locator("#rw-page-log")
    assert f"Wurfnummer {seed}" in log.inner_text()
    log.get_by_role("button", name=re.compile(f"Wurfnummer {seed} wiederholen")).click()
    popover.locator(".rw-outcome").wait_for()
    assert shown_seed(popover) == seed
    assert popover.locator(".rw-outcome").inner_text() == first_outcome


# Clicks a dice button (with Shift: Vorteil) and reads the popover in the same task, before
# the engine can have answered: what a reader sees while this roll is on its way.
WHILE_ROLLING = """(notation) => {
  const button = [...document.querySelectorAll(".rw-dice")]
    .find((b) => b.dataset.notation === notation);
  button.dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true, shiftKey: true}));
  const pop = document.querySelector(".rw-dice-popover");
  return {shown: !pop.hidden, text: pop.innerText,
          outcomes: pop.querySelectorAll(".rw-outcome").length,
          buttons: pop.querySelectorAll(".rw-dice-popover-actions button").length};
}"""


def test_a_new_roll_never_shows_the_previous_result(reader: SharedVisit) -> None:
    # a reader rolls, closes the result and rolls again: until the new answer is there the
    # popover says it is rolling – it never shows the earlier result as if it were this one
    page = reader.arrive(PAGE)
    page.get_by_role("button", name="1W6+1", exact=True).click()
    popover = page.get_by_role("dialog", name="Würfelergebnis")
    popover.locator(".rw-outcome").wait_for()
    page.keyboard.press("Escape")
    seen = page.evaluate(WHILE_ROLLING, "1W6+1")
    assert seen == {"shown": True, "text": "Würfelt …", "outcomes": 0, "buttons": 0}, seen
    popover.locator(".rw-outcome").wait_for()
    assert "mit Vorteil" in popover.locator(".rw-headline").inner_text()


def test_keyboard_enter_on_a_dice_button_rolls(reader: SharedVisit) -> None:
    page = reader.arrive(PAGE)
    button = page.get_by_role("button", name="1W6+1", exact=True)
    button.focus()
    page.keyboard.press("Enter")
    popover = page.get_by_role("dialog", name="Würfelergebnis")
    popover.locator(".rw-outcome").wait_for()
    assert popover.is_visible()
