"""Values of one roll are cleared after it; a fighter's values stay his (issue 26, points 5 and 6).

At the table a game master enters two kinds of values: those of a fighter (weapon, armour, own
wounds – kept per fighter by the fight of the Kampfhelfer page) and those rolled or decided at
the table for one roll. The second kind stayed in the form and gave believable wrong results:
„Abwehr gelungen, Güte 4“ from the last roll (Güte, 002_51e59e824768e9e9.txt L17–L27), the
last Angriffswurf (Aktionswürfel, 003_3ac4060591b07c19.txt L52), the last hit's TP in DSA's
„Schaden und Wunden“ (001_240b8e52c108db7c.txt, „Crits und Patzer“). The engine marks them
``per_roll`` (``data-per-roll`` on the field); after every roll the page puts them back to the
form's default and does not remember them for a reload.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import api
from tests.browser.conftest import SharedVisit, evaluate_one, form_params, reveal
from tests.browser.test_fight import COUNT_RESULTS, Typist, bar, initiative, open_bench
from tests.browser.test_trusted_fight import (
    ATTACK,
    DAMAGE,
    a_hit,
    damage_target,
    roll_with_number,
    start_fight,
    stored_fight,
)
from tests.conftest import rule_systems

pytestmark = pytest.mark.browser

DEFENSE = "section.rw-helper[data-action='defense']"

# Every value of one roll in a helper set to something else than the form's default: a bool
# turned over, a number one up, dice „3“ – in the order of the form, again for fields an
# earlier change has just shown (Güte: „Abwehr gelungen“ shows its Güte).
PER_ROLL = ".rw-form .rw-field[data-per-roll] [data-path][data-type]"
SET_PER_ROLL = """(helper) => {
  const changed = [];
  for (let pass = 0; pass < 3; pass++) {
    for (const input of helper.querySelectorAll("PER_ROLL")) {
      if (input.disabled || changed.includes(input.dataset.path)) continue;
      if (input.dataset.type === "bool") input.checked = !input.defaultChecked;
      else if (input.dataset.type === "dice") input.value = "3";
      else input.value = String(Number(input.defaultValue) + 1);
      input.dispatchEvent(new Event("change", { bubbles: true }));
      changed.push(input.dataset.path);
    }
  }
  return changed;
}""".replace("PER_ROLL", PER_ROLL)

# The per-roll fields that do not show the form's default
NOT_DEFAULT = """(helper) => [...helper.querySelectorAll("PER_ROLL")]
  .filter((input) => input.dataset.type === "bool"
    ? input.checked !== input.defaultChecked
    : input.value !== input.defaultValue)
  .map((input) => input.dataset.path)""".replace("PER_ROLL", PER_ROLL)


def kampfhelfer_actions(site: Path, system: str) -> list[str]:
    """The plain helpers of a system's Kampfhelfer page (in the build ``site``) that have a
    value of one roll."""
    html = (site / system / "kampfhelfer" / "index.html").read_text(encoding="utf-8")
    found = []
    for spec in api.catalog()["systems"]:
        if spec["name"] != system:
            continue
        for action in spec["actions"]:
            fields = api.describe(system, action["name"])["params"]
            rows = [i for f in fields for i in f.get("item", [])]
            marked = [f for f in [*fields, *rows] if f.get("per_roll")]
            if marked and f'data-action="{action["name"]}"' in html:
                found.append(action["name"])
    return found


@pytest.mark.parametrize("system", rule_systems())
def test_values_of_one_roll_are_cleared_after_it_and_not_remembered(
    reader: SharedVisit, built_site: Path, system: str
) -> None:
    actions = kampfhelfer_actions(built_site, system)
    if not actions:
        pytest.skip(f"{system}: kein Helfer der Kampfhelfer-Seite hat Werte eines Wurfs")
    page = reader.arrive(f"{system}/kampfhelfer/")
    page.evaluate(COUNT_RESULTS)
    t = Typist(page)
    for action in actions:
        helper = reveal(page.locator(f"section.rw-helper[data-action='{action}']").first)
        changed = evaluate_one(helper, SET_PER_ROLL)
        if not changed:  # its values of one roll apply only in another case (hidden now)
            continue
        assert sorted(evaluate_one(helper, NOT_DEFAULT)) == sorted(changed), action
        t.roll(helper)
        assert helper.locator(".rw-result .rw-error").count() == 0, (action, changed)
        assert evaluate_one(helper, NOT_DEFAULT) == [], action
        kept = json.loads(
            page.evaluate(f"localStorage.getItem('regelwerk:helfer:{system}.{action}')")
        )
        flat = set(kept["values"]) | {
            f"{name}.{i}.{key}"
            for name, rows in kept["values"].items()
            if isinstance(rows, list)
            for i, row in enumerate(rows)
            for key in row
        }
        assert not flat & set(changed), (action, flat & set(changed))


def test_guete_a_rolled_abwehr_is_not_brought_back_by_a_reload(reader: SharedVisit) -> None:
    # 002_51e59e824768e9e9.txt L17–L27: „Gelingt die Probe auf Abwehren und ist die Güte höher
    # …“ – the Abwehr and its Güte are rolled at the table for one attack; a value an older page
    # stored with the remembered input is not put back on a reload, the weapon is
    key = "regelwerk:helfer:guete.attack"
    page = reader.arrive("guete/kampfhelfer/")
    page.evaluate(COUNT_RESULTS)
    attack = reveal(page.locator("section.rw-helper[data-action='attack']"))
    attack.locator("[data-path='damage']").fill("1W8+1")
    attack.locator("[data-path='abwehr_gelungen']").check()
    attack.locator("[data-path='abwehr_guete']").fill("4")
    Typist(page).roll(attack)
    assert "Güte 4" in attack.locator(".rw-result").inner_text()  # the roll used them
    assert not attack.locator("[data-path='abwehr_gelungen']").is_checked()
    assert attack.locator("[data-path='damage']").input_value() == "1W8+1"
    stored = json.loads(page.evaluate(f"localStorage.getItem('{key}')"))
    older = {**stored, "values": {**stored["values"], "abwehr_gelungen": True, "abwehr_guete": "4"}}
    page = reader.arrive("guete/kampfhelfer/", {key: json.dumps(older)})
    attack = reveal(page.locator("section.rw-helper[data-action='attack']"))
    assert attack.locator("[data-path='damage']").input_value() == "1W8+1"
    assert not attack.locator("[data-path='abwehr_gelungen']").is_checked()
    assert attack.locator("[data-path='abwehr_guete']").input_value() == "0"


def test_aktionswuerfel_an_angriffswurf_is_nobodys_next(reader: SharedVisit) -> None:
    # 003_3ac4060591b07c19.txt L38 (the Willens-Wurf) and L52 (the Angriffswurf): rolled at the
    # table; before, the fight kept the attacker's last Angriffswurf and filled it into his
    # next attack, and the Willens-Würfe of the last order stayed in the initiative
    t = open_bench(reader, "aktionswuerfel")
    page = t.page
    initiative(t, {"Alrik": {"willenswurf": "12"}, "Bruna": {"willenswurf": "11"}})
    order = page.locator("section.rw-helper[data-action='initiative']")
    typed = [order.locator(f"[data-path='fighters.{i}.willenswurf']") for i in range(2)]
    assert [box.input_value() for box in typed] != ["12", "11"]
    bar(page).locator(".rw-fight-actor").select_option("Alrik")
    bar(page).locator(".rw-fight-target").select_option("Bruna")
    attack = reveal(page.locator("#helfer-aktionswuerfel-attack"))
    default = evaluate_one(attack.locator("[data-path='angriffswurf']"), "(i) => i.defaultValue")
    t.fill(attack.locator("[data-path='angriffswurf']"), "15")
    t.fill(attack.locator("[data-path='verteidigungswert']"), "9")
    t.roll(attack)
    assert "15" in attack.locator(".rw-result").inner_text()
    assert attack.locator("[data-path='angriffswurf']").input_value() == default
    assert attack.locator("[data-path='verteidigungswert']").input_value() == "9"  # Bruna's
    assert (
        "angriffswurf"
        not in stored_fight(page, "aktionswuerfel")["fighters"]["Alrik"]["actions"]["attack"]
    )
    bar(page).locator(".rw-fight-actor").select_option("Bruna")
    bar(page).locator(".rw-fight-actor").select_option("Alrik")
    assert attack.locator("[data-path='angriffswurf']").input_value() == default


def test_dsa_the_hits_tp_reach_the_damage_after_an_earlier_damage_roll(
    reader: SharedVisit,
) -> None:
    # 001_240b8e52c108db7c.txt, „Crits und Patzer“: the damage of this hit. Before, the TP
    # were the attacker's value: once he had rolled „Schaden und Wunden“, the fight kept his
    # TP and a follow-up's newly rolled TP lost against them – the next hit did the old damage
    t = start_fight(reader)  # Alrik against Ork
    page = t.page
    damage = reveal(page.locator(DAMAGE))
    t.fill(damage.locator("[data-path='damage']"), "2W6+10")
    t.fill(damage.locator("[data-path='ko']"), "12")
    t.fill(damage.locator("[data-path='lep']"), "40")
    t.roll(damage)
    assert damage.locator("[data-path='damage']").input_value() == "1W6+4"  # the form's default
    assert "damage" not in stored_fight(page)["fighters"]["Alrik"]["actions"]
    attack = reveal(page.locator(ATTACK))
    t.fill(attack.locator("[data-path='wert']"), "18")
    rolled = a_hit(t, attack)[1]["params"]
    attack.get_by_role("button", name="Schaden, falls nicht abgewehrt ▸").click()
    assert damage.locator("[data-path='damage']").input_value() == rolled["damage"]
    assert damage.locator("[data-path='lep']").input_value() != "40"  # the Ork's LeP after


def test_dsa_a_failed_parade_goes_on_to_the_defenders_damage(reader: SharedVisit) -> None:
    # 001_240b8e52c108db7c.txt, „Crits und Patzer“: a hit „darf noch parieren oder
    # ausweichen“; when that fails, the defense offers the damage – on the defender, who is
    # the target of the attack, the defense and the damage alike („Ablauf einer Kampfrunde“:
    # Paraden „immer als Reaktion“), with the hit the attack rolled
    t = start_fight(reader)  # Alrik against Ork
    page = t.page
    damage = damage_target(t, ko="12", lep="30", damage="0")  # the Ork's LeP, KO known
    attack = reveal(page.locator(ATTACK))
    t.fill(attack.locator("[data-path='wert']"), "18")
    hit = a_hit(t, attack)[0]["params"]
    attack.get_by_role("button", name="Abwehr des Ziels würfeln ▸").click()
    defense = page.locator(DEFENSE)
    assert defense.locator("[data-path='damage']").input_value() == hit["damage"]
    t.fill(defense.locator("[data-path='pa_basis']"), "3")
    form = form_params(defense)
    fails = next(
        s for s in range(1, 500) if api.run("dsa", "defense", form, seed=s)["result"]["follow_ups"]
    )
    roll_with_number(t, defense, fails)
    assert defense.locator("[data-path='damage']").input_value() == "1W6+4"  # cleared after
    defense.get_by_role("button", name="Schaden am Verteidiger ▸").click()
    assert damage.locator("[data-path='damage']").input_value() == hit["damage"]
    assert damage.locator("[data-path='lep']").input_value() == "30"  # the Ork's, kept
    t.roll(damage)
    assert "Für Ork übernommen" in damage.locator(".rw-result").inner_text()
