"""Bad input in the helpers on the Kampfhelfer pages: a German message at the field.

What the engine says for every bad field of every helper (its wording, the field it names) is
checked without a browser in tests/engine/test_field_messages.py. Here, per Kampfhelfer page,
the page shows it where it belongs: one field per kind of bad input (int: „abc“ and a value
beyond the maximum; required text: empty; dice: „2W0“), at the top of a form and in the first
row of a list, taken from the page's helpers in their order. The test types the bad value,
clicks „Würfeln“ and asserts that the message appears at that field (``#<field-id>-fehler``
visible, with the field's label and the kind's wording; the input ``aria-invalid="true"``),
then restores the value and asserts that the helper rolls again. Lists (the page's first):
the remove buttons stop at the minimum number of rows; a form that has fewer rows anyway
(rows removed from the page) gets the engine's message at the list.

One page for the module (the shared visit ``reader``): the first Kampfhelfer page is loaded,
the others are reached by instant navigation (``go``), so the engine boots once.
"""

from __future__ import annotations

from typing import Any

import pytest

import engine
from tests.browser.conftest import SharedVisit, reveal
from tests.browser.test_all_helpers import form_helper
from tests.conftest import rule_systems
from tests.engine.test_field_messages import WORDING, bad_inputs  # the engine's own wording

pytestmark = pytest.mark.browser

SYSTEMS = rule_systems()  # every system with pages, read from the engine
PAGES = [f"{system}/kampfhelfer/" for system in SYSTEMS]

# In the page, for one helper: type each bad value into its field (input events as typing
# fires them), click „Würfeln“, wait for the answer and record what the field shows; then put
# the original value back, click again and record whether a result appears. Results of the
# previous click are marked first, so only a fresh answer counts.
PROBE = """async ([helperId, attempts]) => {
  const box = document.getElementById(helperId);
  const submit = box.querySelector(".rw-submit");
  const pause = () => new Promise((resolve) => setTimeout(resolve, 20));
  const type = (input, value) => {
    input.focus();
    input.value = value;
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  };
  const click = () => {
    box.querySelectorAll(".rw-result > *").forEach((node) => { node.dataset.alt = "1"; });
    submit.click();
  };
  const answer = async (slot) => {
    for (let i = 0; i < 1500; i++) {
      if (slot && !slot.hidden) return "error";
      if (box.querySelector(".rw-result > .rw-outcome:not([data-alt])")) return "result";
      if (box.querySelector(".rw-result > .rw-error:not([data-alt])")) return "alert";
      await pause();
    }
    return "timeout";
  };
  const out = [];
  for (const { fid, value, original, typed } of attempts) {
    const input = document.getElementById(fid);
    const slot = document.getElementById(`${fid}-fehler`);
    if (!input) { out.push({ fid, value, missing: true }); continue; }
    if (!typed) type(input, value);
    click();
    const got = await answer(slot);
    const style = slot ? getComputedStyle(slot) : null;
    const record = {
      fid, value, got,
      shown: Boolean(
        slot && !slot.hidden && style.display !== "none" && slot.offsetParent !== null
      ),
      text: slot ? slot.textContent : "",
      invalid: input.getAttribute("aria-invalid"),
      other: box.querySelector(".rw-result").textContent.slice(0, 200),
    };
    if (original !== null) {
      type(input, original);
      click();
      record.restored = await answer(null);
      record.restoredInvalid = box.querySelectorAll("[aria-invalid='true']").length;
    }
    out.push(record);
  }
  return out;
}"""

# After the rows of a list were removed: click and report what the list's error slot shows.
TOO_FEW = """async ([helperId, fid]) => {
  const box = document.getElementById(helperId);
  const slot = document.getElementById(`${fid}-fehler`);
  box.querySelectorAll(".rw-result > *").forEach((node) => { node.dataset.alt = "1"; });
  box.querySelector(".rw-submit").click();
  for (let i = 0; i < 1500; i++) {
    if ((slot && !slot.hidden) || box.querySelector(".rw-result > :not([data-alt])")) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    shown: Boolean(slot && !slot.hidden && slot.offsetParent !== null),
    text: slot ? slot.textContent : "",
    other: box.querySelector(".rw-result").textContent.slice(0, 200),
  };
}"""


FIELD_STATES = """(ids) => ids.map((id) => {
  const input = document.getElementById(id);
  return input ? [input.disabled, input.value] : null;
})"""


def fields_of(schema: dict[str, Any]) -> list[tuple[str, dict[str, Any], str]]:
    """(data-path, field schema, label as the engine names it) for every fillable field."""
    out = []
    for field in schema["params"]:
        if field["type"] == "list":
            for item in field["item"]:
                label = f"{field['item_label']} 1 – {item['label']}"
                out.append((f"{field['name']}.0.{item['name']}", item, label))
        else:
            out.append((field["name"], field, field["label"]))
    return out


def roll_works(page: Any, helper_id: str) -> None:
    box = reveal(page.locator(f"[id='{helper_id}']"))
    box.evaluate("(h) => h.querySelectorAll('.rw-result > *').forEach((n) => n.remove())")
    box.locator(".rw-submit").click()
    answer = ".rw-result .rw-outcome, .rw-result .rw-error, .rw-field-error:not([hidden])"
    box.locator(answer).first.wait_for()
    shown = box.locator(".rw-result").inner_text()
    errors = box.locator(".rw-field-error:not([hidden])").all_inner_texts()
    assert box.locator(".rw-result .rw-outcome").count() == 1, (helper_id, shown, errors)
    assert box.locator("[aria-invalid='true']").count() == 0


@pytest.mark.parametrize("url", PAGES)
def test_bad_input_gets_a_german_message_at_the_field(url: str, reader: SharedVisit) -> None:
    page = reader.go(url)
    check_page(page, url)
    check_too_few_rows(page, url)


def check_page(page: Any, url: str) -> None:
    """One field per kind of bad input (int „abc“ and beyond the maximum, required text
    empty, dice), at the top of a form and in a list's row, from the page's helpers: the
    engine's message (its wording per field: tests/engine/test_field_messages.py) at that
    field, aria-invalid, and a roll once the value is back; each probed helper rolls, and
    the first list's remove buttons stop at its minimum."""
    helpers = page.locator(".rw-helper[data-action]").evaluate_all(
        "els => els.map(e => [e.id, e.dataset.system, e.dataset.action])"
    )
    problems: list[str] = []
    checked = 0
    covered: set[tuple[str, bool]] = set()  # (kind of bad input, in a list's row)
    list_checked = False
    for helper_id, system, action in helpers:
        if not form_helper(system, action):
            continue
        fields = [
            (f"{helper_id}-{path.replace('.', '-')}", field, label, "." in path)
            for path, field, label in fields_of(engine.describe(system, action))
            if any((kind, "." in path) not in covered for kind, _ in bad_inputs(field))
        ]
        box_has_list = page.locator(f"[id='{helper_id}'] .rw-list").count() > 0
        if not fields and (list_checked or not box_has_list):
            continue
        box = reveal(page.locator(f"[id='{helper_id}']"))
        # open the collapsed „Weitere Angaben“ box so every field is visible
        box.evaluate("(h) => h.querySelectorAll('details.rw-more').forEach((d) => (d.open = true))")
        attempts, labels = [], {}
        # each field's state in one round trip: [disabled, value], or null when it is missing
        # (the probe then reports it)
        states = page.evaluate(FIELD_STATES, [fid for fid, _, _, _ in fields])
        for (fid, field, label, in_row), state in zip(fields, states, strict=True):
            if state and state[0]:
                continue  # does not apply to the form as it is (hidden, not sent, not checked)
            original = state[1] if state else ""
            for kind, value in bad_inputs(field):
                if (kind, in_row) in covered:
                    continue
                covered.add((kind, in_row))
                attempts.append({"fid": fid, "value": value, "original": original})
                labels[(fid, value)] = (label, kind)
        if not attempts and (list_checked or not box_has_list):
            continue
        # the first bad value of each helper is typed by Playwright itself, as a user would
        if attempts:
            first = attempts[0]
            box.locator(f"[id='{first['fid']}']").fill(first["value"])
            first["typed"] = True
        for seen in page.evaluate(PROBE, [helper_id, attempts]):
            checked += 1
            label, kind = labels[(seen["fid"], seen["value"])]
            where = f"{url}#{seen['fid']} ({kind}: {seen['value']!r})"
            if seen.get("missing"):
                problems.append(f"{where}: Feld fehlt")
            elif not (seen["shown"] and seen["invalid"] == "true"):
                problems.append(f"{where}: keine Meldung am Feld ({seen})")
            elif not (label in seen["text"] and WORDING[kind] in seen["text"]):
                problems.append(f"{where}: unerwartete Meldung {seen['text']!r}")
            if "restored" in seen and (seen["restored"] != "result" or seen["restoredInvalid"]):
                problems.append(f"{where}: nach dem Zurücksetzen kein Ergebnis ({seen})")
        roll_works(page, helper_id)
        if box_has_list and not list_checked:
            problems += check_lists(page, url, helper_id)
            list_checked = True
    assert checked > 0
    assert ("abc", False) in covered and ("abc", True) in covered, covered
    assert problems == [], "\n".join(problems)


def check_lists(page: Any, url: str, helper_id: str) -> list[str]:
    """Remove rows down to the minimum (the buttons must stop there), then roll."""
    problems = []
    box = reveal(page.locator(f"[id='{helper_id}']"))
    for name in box.locator(".rw-list").evaluate_all("els => els.map(e => e.dataset.path)"):
        lst = box.locator(f".rw-list[data-path='{name}']")
        minimum = int(lst.get_attribute("data-min") or "1")
        rows = lst.locator(":scope > .rw-rows > .rw-row")
        while rows.count() > minimum and rows.last.locator(".rw-remove").is_enabled():
            rows.last.locator(".rw-remove").click()
        if rows.count() != minimum or not all(
            button.is_disabled() for button in rows.locator(".rw-remove").all()
        ):
            problems.append(f"{url}#{helper_id}: Zeilen lassen sich unter {minimum} entfernen")
        roll_works(page, helper_id)
        box.locator(".rw-reset").click()  # the rows as built, for the helper's next list
    return problems


def check_too_few_rows(page: Any, url: str) -> None:
    """Fewer rows than allowed (only possible by changing the page): the engine's message
    (for every list: tests/engine/test_field_messages.py) is shown at the list – the page's
    first list."""
    helpers = page.locator(".rw-helper[data-action]").evaluate_all(
        "els => els.map(e => [e.id, e.dataset.system, e.dataset.action])"
    )
    for helper_id, system, action in helpers:
        if not form_helper(system, action):
            continue
        box = page.locator(f"[id='{helper_id}']")
        names = box.locator(".rw-list").evaluate_all("els => els.map(e => e.dataset.path)")
        if not names:
            continue
        reveal(box)
        box.locator(f".rw-list[data-path='{names[0]}']").evaluate(
            "(l) => l.querySelectorAll(':scope > .rw-rows > .rw-row').forEach((r) => r.remove())"
        )
        fid = f"{helper_id}-{names[0]}"
        seen = page.evaluate(TOO_FEW, [helper_id, fid])
        box.locator(".rw-reset").click()  # the rows as built again
        assert seen["shown"] and "mindestens" in seen["text"], (
            f"{url}#{fid}: keine Meldung an der Liste bei zu wenigen Zeilen ({seen})"
        )
        return
    raise AssertionError(f"{url}: keine Liste gefunden")
