"""Issue #44 „See the odds“ on the Kampfhelfer pages: charts, „Was wäre wenn?“, „Vergleichen“.

Every Kampfhelfer page the build produced (``docs/<system>/kampfhelfer.md``, read, never
listed) is visited once; on it „the attack“ is the helper whose action names the opponent's
value (``describe``'s ``what_if``: engine/odds.py). The rule each check encodes is that
action's own rule – its ``describe`` ``source`` (Pathfinder: quellen/004_019b513a861ec26f.txt
L6–L23 „Angriffswurf … gegen die Rüstungsklasse“, L69–L88 Schaden), whose chances before the
roll the engine computes exactly; the page must show what the engine says, number for number:

- the roll's ``distribution`` sections are bar charts (``svg role=img`` with a summary) with
  the same numbers as a table (value, genau, mindestens, höchstens);
- „Was wäre wenn?“ sends one request with the form's values and shows a row per value of the
  opponent's field – each row as ``engine.api.what_if`` gives it for the same params;
- „Vergleichen“ shows a row per choice as ``engine.api.compare`` gives it, refused choices
  said with the engine's reason;
- the chart's readout is reached with the keyboard alone; at 375 px no chart overflows.

A system whose attack does not declare ``what_if`` (or whose roll has no distribution yet) is
skipped with a reason naming it: the engine declares them system by system.
"""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine import api
from tests.browser.conftest import (
    SharedVisit,
    click_in_page,
    evaluate_one,
    form_params,
    resize_settled,
    reveal,
    roll_seeded,
)
from tests.conftest import ROOT, rule_systems

pytestmark = pytest.mark.browser

SEED = 4711
WORKBENCH_SYSTEMS = [s for s in rule_systems() if (ROOT / "docs" / s / "kampfhelfer.md").is_file()]


def attack_of(system: str, on_page: list[str] | None = None) -> dict[str, Any] | None:
    """The describe of the system's first action (catalog order) that names the opponent's
    value – of those with a helper on the page, when ``on_page`` is given."""
    for entry in engine.catalog()["systems"]:
        if entry["name"] != system:
            continue
        for action in entry["actions"]:
            if on_page is not None and action["name"] not in on_page:
                continue
            spec = engine.describe(system, action["name"])
            if spec.get("what_if") and not spec.get("widget"):
                return spec
    return None


def the_attack(
    reader: SharedVisit, system: str, width: int = 1280
) -> tuple[Any, Any, dict[str, Any], dict[str, Any]]:
    """The system's Kampfhelfer page and its attack helper (its tab open, the form reset),
    rolled with SEED, then the opponent's value given as „Was wäre wenn“ needs it; → page,
    helper, describe, the params of the roll. Skips where no action declares what_if."""
    if attack_of(system) is None:  # before the page: a skip costs no visit
        pytest.skip(
            f"{system}: no action declares what_if yet (describe has no „what_if“; the "
            "engine declares it system by system)"
        )
    page = reader.arrive(f"{system}/kampfhelfer/", width=width)
    on_page = page.evaluate(
        "(s) => [...document.querySelectorAll(`.rw-helper[data-system='${s}']:not([data-widget])`)]"
        ".map((h) => h.dataset.action)",
        system,
    )
    spec = attack_of(system, on_page)
    if spec is None:
        pytest.skip(f"{system}: no helper of the Kampfhelfer page declares what_if yet")
    helper = page.locator(
        f".rw-helper[data-system='{system}'][data-action='{spec['action']}']:not([data-widget])"
    ).first
    reveal(helper)
    field = next(p for p in spec["params"] if p["name"] == spec["what_if"])
    fallback = field.get("default")
    if fallback is None:
        fallback = min(max(10, field.get("min", 10)), field.get("max", 10))
    # the opponent's value only counts under some conditions (its `when`, e.g. „Abwehr
    # gelungen“): they are set as a reader sets them before asking
    needed = {other: allowed[0] for other, allowed in (field.get("when") or {}).items()}
    roll_seeded(helper, SEED)
    rolled = form_params(helper)
    # after the roll: a value of one roll (per_roll, e.g. a defence's Güte) is cleared by it
    evaluate_one(helper, GIVE, [spec["what_if"], fallback, needed])
    return page, helper, spec, rolled


# The opponent's value where the form left it empty, and the fields its `when` needs.
GIVE = """(h, [name, value, needed]) => {
  const current = window.Regelwerk.collect(h);
  const values = {};
  for (const [other, wanted] of Object.entries(needed)) {
    if (current[other] !== wanted) values[other] = wanted;
  }
  const input = h.querySelector(`[data-path="${name}"][id]`);
  if (input && input.value.trim() === "") values[name] = value;
  if (Object.keys(values).length) window.Regelwerk.fill(h, values);
  return Object.keys(values).length > 0;
}"""

# Clicks an odds button (kind "what_if" or "compare"; for compare the field chosen first) and
# waits for the answer or an error: the table's rows as text, the svg's name, the notes.
ASK = """async (helper, [kind, field]) => {
  const output = helper.querySelector(".rw-odds-output");
  // a cell as seen (the words only for screen readers left out: „(höchster Wert)“)
  const shown = (cell) => [...cell.childNodes]
    .filter((n) => !(n.classList && n.classList.contains("rw-sr-only")))
    .map((n) => n.textContent).join("");
  output.querySelectorAll(":scope > *").forEach((node) => { node.dataset.rwOld = "1"; });
  const select = helper.querySelector(".rw-odds-select");
  if (kind === "compare" && select && field) select.value = field;
  helper.querySelector(`.rw-odds-ask[data-odds="${kind}"]`).click();
  const busy = helper.querySelector(".rw-odds").dataset.busy === "1";
  for (let waited = 0; waited < 60000; waited += 20) {
    const error = output.querySelector(".rw-error")
      || helper.querySelector(".rw-field-error:not([hidden])");
    if (error) return { error: error.textContent, busy };
    const fresh = output.querySelector(":scope > :not([data-rw-old])");
    if (fresh && output.getAttribute("aria-busy") === "false") {
      const table = output.querySelector("table");
      const svg = output.querySelector("svg[role=img]");
      return {
        busy,
        rows: [...table.tBodies[0].rows].map((row) => [...row.cells].map(shown)),
        heads: [...table.tHead.rows[0].cells].map((c) => c.textContent),
        svg: svg ? svg.getAttribute("aria-label") : null,
        text: output.textContent,
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { error: "keine Antwort nach 60 s", busy };
}"""


def expected_rows(answer: dict[str, Any]) -> list[list[str]]:
    return [
        [row["label"] + (" (jetzt)" if row["current"] else "")]
        + [cell["text"] if cell else "–" for cell in row["cells"]]
        for row in answer["rows"]
    ]


@pytest.mark.parametrize("system", WORKBENCH_SYSTEMS)
def test_the_attack_draws_its_distributions_as_charts_with_a_table(
    reader: SharedVisit, system: str
) -> None:
    """The roll's odds before the roll (the attack's rule: its describe ``source``, e.g.
    004_019b513a861ec26f.txt L69–L88 for Pathfinder's damage) as bar charts: one per
    ``distribution`` section of ``engine.api.run`` with the same params and seed, each an
    ``svg role=img`` named by a summary, its numbers in a table (genau, mindestens)."""
    _, helper, spec, params = the_attack(reader, system)
    sections = api.run(system, spec["action"], params, SEED)["result"]["display"]["sections"]
    wanted = [s for s in sections if s["kind"] == "distribution"]
    if not wanted:
        pytest.skip(f"{system}: {spec['action']} has no distribution section yet")
    shown = evaluate_one(
        helper,
        """(h) => [...h.querySelectorAll(".rw-result figure.rw-chart--distribution")].map((f) => ({
          label: f.querySelector("svg[role=img]")?.getAttribute("aria-label") ?? null,
          rows: [...f.querySelectorAll("table tbody tr")]
            .map((r) => [...r.cells].map((c) => c.textContent)),
          toggle: !!f.querySelector("button.rw-chart-toggle[aria-controls]"),
          drawn: [...f.querySelectorAll("svg *")].every((n) => [...n.attributes]
            .every((a) => !/NaN|Infinity/.test(a.value))),
        }))""",
    )
    assert len(shown) == len(wanted), (system, [s.get("caption") for s in wanted])
    for chart, section in zip(shown, wanted, strict=True):
        assert chart["label"] and section["caption"] in chart["label"], chart["label"]
        assert chart["toggle"], "„Als Tabelle“ shows the numbers on demand"
        assert chart["drawn"], "every bar has its place (the engine's „1.833/3.200“ read)"
        if section["numeric"]:
            first = section["bars"][0]
            assert chart["rows"][0][:3] == [
                first["label"],
                f"{first['percent']} ({first['fraction']})",
                f"{first['at_least_percent']} ({first['at_least']})",
            ]
            assert section["mean"]["text"] in chart["label"]
        assert len(chart["rows"]) == len(section["bars"])


@pytest.mark.parametrize("system", WORKBENCH_SYSTEMS)
def test_what_if_agrees_with_the_engine_row_by_row(reader: SharedVisit, system: str) -> None:
    """„Was wäre wenn?“ over the opponent's value (the attack's rule, e.g. Pathfinder
    004_019b513a861ec26f.txt L6–L23: 1W20 + Angriffsbonus gegen die RK): one request with the
    form's values, a line chart (svg role=img, its readout) and ≥ 10 rows, each as
    ``engine.api.what_if`` gives it for the same params."""
    _, helper, spec, _ = the_attack(reader, system)
    params = form_params(helper)
    expected = api.what_if(system, spec["action"], params)
    assert expected["ok"], expected
    answer = evaluate_one(helper, ASK, ["what_if", None])
    assert "error" not in answer, answer
    assert answer["busy"], "the buttons say they are busy while the engine computes"
    wanted = expected["what_if"]
    assert answer["heads"] == [wanted["label"], *(c["label"] for c in wanted["columns"])]
    assert len(answer["rows"]) >= 10, answer["rows"]
    assert answer["rows"] == expected_rows(wanted)
    assert answer["svg"] and wanted["label"] in answer["svg"]
    for note in wanted["notes"]:
        assert note in answer["text"]


def first_with_what_if() -> str:
    for system in WORKBENCH_SYSTEMS:
        if attack_of(system) is not None:
            return system
    pytest.skip("no system declares what_if yet")


def test_the_charts_readout_is_reached_with_the_keyboard(reader: SharedVisit) -> None:
    """Without a mouse: Tab reaches the what-if chart (004_019b513a861ec26f.txt L6–L23 for
    Pathfinder: the chance to hit per RK), the arrow keys and End move along the values, and the
    readout (aria-live) says every column of the value chosen."""
    system = first_with_what_if()
    page, helper, spec, _ = the_attack(reader, system)
    answer = evaluate_one(helper, ASK, ["what_if", None])
    assert "error" not in answer, answer
    wanted = api.what_if(system, spec["action"], form_params(helper))["what_if"]
    toggle = helper.locator(".rw-odds-output .rw-chart-toggle")
    toggle.focus()
    page.keyboard.press("Shift+Tab")  # the chart sits right before its table's button
    focused = page.evaluate("() => document.activeElement.getAttribute('role')")
    assert focused == "img", "the chart is in the tab order"
    readout = helper.locator(".rw-odds-output .rw-chart-readout")
    assert readout.get_attribute("aria-live") == "polite"
    first = wanted["rows"][0]
    assert readout.text_content().startswith(f"{wanted['label']} {first['label']}")
    page.keyboard.press("ArrowRight")
    assert readout.text_content().startswith(f"{wanted['label']} {wanted['rows'][1]['label']}")
    page.keyboard.press("End")
    last = wanted["rows"][-1]
    text = readout.text_content()
    assert text.startswith(f"{wanted['label']} {last['label']}")
    for column, cell in zip(wanted["columns"], last["cells"], strict=True):
        if cell:
            assert f"{column['label']} {cell['text']}" in text
    # a distribution chart of the roll, where there is one: „genau“ and „mindestens“
    charts = helper.locator(".rw-result figure.rw-chart--distribution svg[tabindex='0']")
    if charts.count():
        charts.first.focus()
        page.keyboard.press("ArrowRight")
        bar = helper.locator(".rw-result .rw-chart-readout").first.text_content()
        assert "genau" in bar or "%" in bar


def test_compare_the_pathfinder_attacks_weapons(reader: SharedVisit) -> None:
    """„Vergleichen“ for Pathfinder's attack (004_019b513a861ec26f.txt L6–L23: Nahkampf mit
    Stärke-, Fernkampf mit Geschicklichkeitsmodifikator; L69–L88 der Schaden): a row per choice
    of the chosen field, as ``engine.api.compare`` gives it; refused choices said with the
    engine's reason; the highest expected value of a column emphasised."""
    if "pathfinder" not in WORKBENCH_SYSTEMS:
        pytest.skip("no Pathfinder Kampfhelfer page in this build")
    _, helper, spec, _ = the_attack(reader, "pathfinder")
    if "weapon" not in (spec.get("compare") or []):
        pytest.skip("pathfinder: the attack does not offer „weapon“ for comparing")
    params = form_params(helper)
    expected = api.compare("pathfinder", spec["action"], params, "weapon")
    assert expected["ok"], expected
    answer = evaluate_one(helper, ASK, ["compare", "weapon"])
    assert "error" not in answer, answer
    wanted = expected["compare"]
    assert answer["rows"] == expected_rows(wanted)
    assert len(answer["rows"]) == len(wanted["rows"]) >= 2
    for refused in wanted["refused"]:
        assert f"{refused['label']}: nicht möglich – {refused['message']}" in answer["text"]
    best = evaluate_one(
        helper, "(h) => h.querySelectorAll('.rw-odds-output td.rw-best strong').length"
    )
    # the highest expected value of each column that differs between the rows
    differing = [
        c
        for c, column in enumerate(wanted["columns"])
        if column["kind"] == "mean"
        and len({row["cells"][c]["fraction"] for row in wanted["rows"] if row["cells"][c]}) > 1
    ]
    assert (best > 0) == bool(differing), (best, differing)


def test_an_error_names_its_field_and_keeps_the_roll(reader: SharedVisit) -> None:
    """The opponent's value left empty: the engine's German message at that field (as a roll's
    error), the roll still shown (004_019b513a861ec26f.txt L6–L23 for Pathfinder: no RK, no
    chance to hit)."""
    system = first_with_what_if()
    _, helper, spec, _ = the_attack(reader, system)
    field = spec["what_if"]
    evaluate_one(
        helper,
        """(h, name) => { const input = h.querySelector(`[data-path="${name}"][id]`);
          input.value = ""; input.dispatchEvent(new Event("input", { bubbles: true })); }""",
        field,
    )
    expected = api.what_if(system, spec["action"], form_params(helper))
    assert not expected["ok"]
    answer = evaluate_one(helper, ASK, ["what_if", None])
    assert answer.get("error") == expected["error"]["message"], answer
    assert helper.locator(".rw-result .rw-headline").count() == 1, "the roll stays on screen"


def test_no_chart_overflows_at_375_px(reader: SharedVisit) -> None:
    """A phone (375 px): the roll's charts and the what-if chart scale to the column, nothing
    scrolls the page sideways (the attack's rule as above, e.g. 004_019b513a861ec26f.txt
    L6–L23)."""
    system = first_with_what_if()
    page, helper, _, _ = the_attack(reader, system, width=375)
    answer = evaluate_one(helper, ASK, ["what_if", None])
    assert "error" not in answer, answer
    resize_settled(page, 375)
    sizes = evaluate_one(
        helper,
        """(h) => ({
          page: document.documentElement.scrollWidth - window.innerWidth,
          charts: [...h.querySelectorAll("svg.rw-chart-svg")].map((svg) => {
            const box = svg.getBoundingClientRect();
            return { left: box.left, right: box.right, width: box.width };
          }),
        })""",
    )
    assert sizes["page"] <= 0, sizes
    assert sizes["charts"], "at least the what-if chart"
    for chart in sizes["charts"]:
        assert chart["left"] >= 0 and chart["right"] <= 375, chart
        assert chart["width"] > 200, chart
    click_in_page(helper.locator(".rw-odds-output .rw-chart-toggle"))  # the table folds away
