"""Effects on fighters that run out by themselves (issue #28, Deliver 4), on every Kampfhelfer
page: put on in „Kämpfer im Überblick“ with a name, a rule and a duration in the page's own
time – Runden where an acting order counts the time, Ticks where the Tickleiste does (its
current tick is its lowest, regeln/ryssea/tickleiste_board.py ``Board.now``) – shown
beside the fighter and in the helpers while he acts or is the target, and ended by a named
step of its own („Abgelaufen: betäubt (Ork)“) on exactly the turn or tick it runs out, which
„Rückgängig“ takes back first.

The example is Güte's „betäubt“: „Einhändige Waffen führen zu einer Betäubung von einer
Runde“ and „Solange ein Gegner betäubt ist, kann er nur mit +2 erschwert angreifen und mit +1
abwehren.“ (quellen/002_51e59e824768e9e9.txt L127, L129).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from harness.whole_fight import ORDER_NAMES as NAMES
from harness.whole_fight import journal_with_order
from tests.browser.conftest import SharedVisit, reveal
from tests.browser.test_fight_steps import started_board
from tests.browser.test_whole_fight import fight_systems

pytestmark = pytest.mark.browser

RULE = "Angriff +2 erschwert, Abwehr +1"


def put_on(page: Any, fighter: str, count: str, unit: str, who: str | None = None) -> None:
    form = page.locator(".rw-effect-form")
    form.locator(".rw-effect-fighter").select_option(fighter)
    form.locator(".rw-effect-name").fill("betäubt")
    form.locator(".rw-effect-ref").fill(RULE)
    form.locator(".rw-effect-count").fill(count)
    form.locator(".rw-effect-unit").select_option(unit)
    if who:
        form.locator(".rw-effect-who").select_option(who)
    form.get_by_role("button", name="Wirkung hinzufügen").click()


def effects_of(page: Any, fighter: str) -> list[str]:
    row = page.locator(".rw-overview-table tbody tr", has=page.locator(f"th:text-is('{fighter}')"))
    if not row.count():
        row = page.locator(".rw-overview-table tbody tr").filter(has_text=fighter)
    return [t.strip() for t in row.locator(".rw-effect").all_inner_texts()]


def fight_of(page: Any, system: str) -> dict[str, Any]:
    return dict(page.evaluate("s => window.Regelwerk.fight(s)", system))


def last_steps(page: Any, system: str, n: int = 2) -> list[str]:
    raw = page.evaluate(f"localStorage.getItem('regelwerk:kampf:{system}')")
    return [s["label"] for s in json.loads(raw)["steps"][-n:]]


def weiter(page: Any) -> None:
    page.locator(".rw-fight-bar").get_by_role("button", name="Weiter ▶").click()


def has_board(page: Any) -> bool:
    return bool(page.locator(".rw-workbench .rw-tickleiste").count())


def keeps_ticks(site: Path, system: str) -> bool:
    """Whether the system's Kampfhelfer page (in the build ``site``) keeps the time with a
    Tickleiste – its fighters come from the board – rather than with an acting order: known
    from the page before it is opened, so a test arrives once, with the storage it needs."""
    html = (site / system / "kampfhelfer" / "index.html").read_text(encoding="utf-8")
    return 'data-widget="tickleiste"' in html


@pytest.mark.parametrize("system", fight_systems())
def test_an_effect_runs_out_on_its_turn(reader: SharedVisit, built_site: Path, system: str) -> None:
    """One round of „betäubt“ ends when the order comes round to where it was put on; the
    Tickleiste counts Ticks instead (a fighter acting moves the current tick on)."""
    if keeps_ticks(built_site, system):
        page = reader.arrive(f"{system}/kampfhelfer/")
        assert has_board(page)
        board_effect(page, system)
        return
    page = reader.arrive(
        f"{system}/kampfhelfer/", {f"regelwerk:kampf:{system}": journal_with_order()}
    )
    assert not has_board(page)
    assert page.locator(".rw-fight-round").inner_text() == "Runde 1"
    put_on(page, "Ork", "1", "runden")
    assert effects_of(page, "Ork") == [f"betäubt (noch 1 Runde; {RULE})✕"]
    # the helpers say it while Ork acts or is the target
    page.locator(".rw-fight-target").select_option("Ork")
    notes = page.locator(".rw-workbench-tools .rw-fight-note").all_inner_texts()
    assert any("Ork: betäubt (noch 1 Runde" in n for n in notes), notes
    weiter(page)  # Ork
    weiter(page)  # Bruna
    assert effects_of(page, "Ork"), "still round 1"
    weiter(page)  # Alrik, round 2: the place it was put on
    assert page.locator(".rw-fight-round").inner_text() == "Runde 2"
    assert effects_of(page, "Ork") == []
    assert last_steps(page, system) == [
        "Weiter: Runde 2: Alrik am Zug (Platz 1)",
        "Abgelaufen: betäubt (Ork)",
    ]
    undo = page.locator(".rw-fight-undo")
    assert undo.get_attribute("title") == "Rückgängig: Abgelaufen: betäubt (Ork)"
    undo.click()
    assert effects_of(page, "Ork") == [f"betäubt (endet in dieser Runde; {RULE})✕"]
    assert fight_of(page, system)["round"] == 2, "the turn stays; only the end is taken back"
    # „bis Bruna handelt“: ends when her turn begins, not before
    page.locator(".rw-effect-end").first.click()
    put_on(page, "Ork", "1", "zuege", who="Bruna")
    assert effects_of(page, "Ork") == [f"betäubt (bis Bruna handelt; {RULE})✕"]
    weiter(page)  # Ork
    assert effects_of(page, "Ork")
    weiter(page)  # Bruna
    assert effects_of(page, "Ork") == []


def board_effect(page: Any, system: str) -> None:
    """On the Tickleiste: „betäubt“ for 3 Ticks runs out when the current tick is 3 later."""
    board = started_board(page, {"Alrik": "8", "Ork": "6"})
    fight = fight_of(page, system)
    line = sorted(
        (m for m in fight["board"]["fighters"] if m["status"] == "aktiv"),
        key=lambda m: (m["tick"], m["order"]),
    )
    now = line[0]["tick"]
    put_on(page, "Ork", "3", "ticks")
    assert effects_of(page, "Ork") == [f"betäubt (bis Tick {now + 3}, noch 3 Ticks; {RULE})✕"]
    # the Tickleiste shows it under the Ork's marker, and in its label (issue 28, point 4)
    ork = board.locator(".rw-tl-stack > li", has=page.locator(".rw-tl-marker[data-name='Ork']"))
    assert ork.locator(".rw-tl-effects").inner_text() == (
        f"betäubt (bis Tick {now + 3}, noch 3 Ticks; {RULE})"
    )
    assert "betäubt" in str(ork.locator(".rw-tl-marker").get_attribute("aria-label"))
    alrik = board.locator(".rw-tl-stack > li", has=page.locator(".rw-tl-marker[data-name='Alrik']"))
    assert alrik.locator(".rw-tl-effects").count() == 0
    # whoever acts first acts until the current tick has moved 3 on
    for _ in range(12):
        fight = fight_of(page, system)
        line = sorted(
            (m for m in fight["board"]["fighters"] if m["status"] == "aktiv"),
            key=lambda m: (m["tick"], m["order"]),
        )
        if line[0]["tick"] >= now + 3:
            break
        assert effects_of(page, "Ork"), f"tick {line[0]['tick']} < {now + 3}"
        before = board.locator(".rw-result").inner_text()
        board.locator("select[data-path='fighter']").select_option(line[0]["name"])
        board.locator("select[data-path='action']").select_option(index=0)
        board.locator("[data-path='ticks']").fill("2")
        board.get_by_role("button", name="Handlung ausführen").click()
        page.wait_for_function(
            "b => document.querySelector('.rw-tickleiste .rw-result').innerText !== b",
            arg=before,
            polling=100,
        )
    assert effects_of(page, "Ork") == []
    assert last_steps(page, system, 1) == ["Abgelaufen: betäubt (Ork)"]
    assert board.locator(".rw-tl-effects").count() == 0
    # the players' picture counts the Tickleiste's time: its current tick, the fighters' ticks
    share = page.locator(".rw-share-players")
    share.locator("summary").click()
    share.locator(".rw-share-qr svg").wait_for()
    picture = page.evaluate(f"JSON.parse(localStorage.getItem('regelwerk:spieler-live:{system}'))")
    head, *rows = picture.split("\n")
    now = min(
        m["tick"] for m in fight_of(page, system)["board"]["fighters"] if m["status"] == "aktiv"
    )
    assert head.split("\t")[3] == f"Tick {now}".replace("-", "−")
    assert sorted(r.split("\t")[0] for r in rows) == ["Alrik", "Ork"]
    assert all(r.split("\t")[1].startswith("Tick ") for r in rows)


# the yes/no fields of the situation that stand for a condition of the actor or the target –
# as the engine says (its `condition` hint: data-condition, data-condition-of), never guessed
# from a label
CONDITION_FIELDS = r"""() => [...document.querySelectorAll(
  '.rw-workbench .rw-helper:not([data-widget]) .rw-form .rw-field[data-condition]')]
  .map((field) => {
    const input = field.querySelector('[data-path][data-type="bool"]');
    return input ? {id: input.id, who: field.dataset.conditionOf, word: field.dataset.condition}
                 : null;
  }).filter(Boolean)"""


@pytest.mark.parametrize("system", fight_systems())
def test_an_effect_sets_the_helpers_condition_field(
    reader: SharedVisit, built_site: Path, system: str
) -> None:
    """Güte: „Solange ein Gegner betäubt ist, kann er nur mit +2 erschwert angreifen und mit
    +1 abwehren.“ (quellen/002_51e59e824768e9e9.txt L129) – the attack helper has it as „Ziel
    ist betäubt“ / „Angreifer ist betäubt“ (regeln/guete/modifiers.py). An effect of
    that name on the actor or the target ticks the field, and it goes back when he no longer
    acts or the effect ends. Which field stands for which condition of whom the engine says
    (issue #48: „conditions matched to fields by a regex on German labels“ before). Pages
    without such a field have nothing to set."""
    if keeps_ticks(built_site, system):
        pytest.skip(f"{system}: the Tickleiste keeps the time (its effects: board_effect)")
    page = reader.arrive(
        f"{system}/kampfhelfer/", {f"regelwerk:kampf:{system}": journal_with_order()}
    )
    # an effect's name has at most 40 characters (fight-journal.js EFFECT_NAME_MAX)
    fields = [f for f in page.evaluate(CONDITION_FIELDS) if len(f["word"]) <= 40]
    if not fields:
        pytest.skip(f"{system}: no field of the situation names a condition")
    page.locator(".rw-fight-target").select_option("Ork")
    checked = "id => document.getElementById(id).checked"
    for field in fields:
        fighter = "Alrik" if field["who"] == "actor" else "Ork"
        assert not page.evaluate(checked, field["id"]), field
        form = page.locator(".rw-effect-form")
        form.locator(".rw-effect-fighter").select_option(fighter)
        form.locator(".rw-effect-name").fill(field["word"])
        form.locator(".rw-effect-count").fill("2")
        form.get_by_role("button", name="Wirkung hinzufügen").click()
        assert page.evaluate(checked, field["id"]), field
        helper = page.locator(".rw-helper", has=page.locator(f"#{field['id']}"))
        note = helper.locator(".rw-effect-note").inner_text()
        assert f"({fighter}: {field['word']}, noch 2 Runden)" in note, note
        page.locator(".rw-effect-end").first.click()  # ended by hand: the field goes back
        assert not page.evaluate(checked, field["id"]), field
    # the actor's condition follows the actor: Alrik's, until Ork acts
    for field in [f for f in fields if f["who"] == "actor"][:1]:
        form = page.locator(".rw-effect-form")
        form.locator(".rw-effect-fighter").select_option("Alrik")
        form.locator(".rw-effect-name").fill(field["word"])
        form.get_by_role("button", name="Wirkung hinzufügen").click()
        assert page.evaluate(checked, field["id"]), field
        weiter(page)  # Ork acts
        assert not page.evaluate(checked, field["id"]), field


def test_guete_a_rundumschlag_failing_critically_lays_the_attacker_down(
    reader: SharedVisit,
) -> None:
    """Güte: „Führt der Rundumschlag zu einem kritischen Misserfolg, führt dieses automatisch
    zum Sturz des Angreifers“ (quellen/002_51e59e824768e9e9.txt L289); „Misslingt der Wurf
    [FP(Gaukeleien)] allerdings, benötigt er die gesamte nächste Runde, um wieder auf die Beine
    zu kommen. Er gilt bis dahin als liegende Figur“ (L79–L83). The fight asks for the
    FP(Gaukeleien) and takes the answer as a step: „liegend“ on the attacker, through the next
    round, ticking his „Angreifer liegt“; undone with the step."""
    page = reader.arrive("guete/kampfhelfer/", {"regelwerk:kampf:guete": journal_with_order()})
    page.locator(".rw-fight-target").select_option("Ork")
    helper = reveal(page.locator("section.rw-helper[data-action='attack']").first)
    # a two-handed weapon (L283: 2hand-Waffen, Stangenwaffen), the attack failed critically
    situation = {
        "option": "rundumschlag",
        "waffe_zweihaendig": True,
        "angriff_gelungen": False,
        "angriff_kritisch": True,
    }
    helper.evaluate("(box, values) => window.Regelwerk.fill(box, values)", situation)
    helper.locator(".rw-submit").click()
    fall = helper.locator(".rw-effect-offer")
    fall.wait_for()
    assert "Kein Treffer – Alrik stürzt" in helper.locator(".rw-result").inner_text()
    assert "Alrik stürzt – seine FP(Gaukeleien):" in fall.inner_text()  # engine effect_offers
    fall.get_by_role(
        "button", name="FP(Gaukeleien) misslungen: liegt die ganze nächste Runde"
    ).click()
    assert last_steps(page, "guete", 1) == ["Alrik: liegend (noch 2 Runden)"]
    assert effects_of(page, "Alrik") == [
        "liegend (noch 2 Runden; Sturz, FP(Gaukeleien) misslungen)✕"
    ]
    lying = helper.locator("[data-path='angreifer_liegend']")
    assert lying.is_checked()
    # through round 2 (Alrik acts again lying), up at the start of round 3
    for _ in NAMES:
        weiter(page)
    assert fight_of(page, "guete")["round"] == 2 and effects_of(page, "Alrik")
    assert lying.is_checked()
    for _ in NAMES:
        weiter(page)
    assert fight_of(page, "guete")["round"] == 3
    assert effects_of(page, "Alrik") == []
    assert last_steps(page, "guete", 1) == ["Abgelaufen: liegend (Alrik)"]
