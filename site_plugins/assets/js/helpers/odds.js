// Regelwerk – odds.js: „Was wäre wenn?“ and „Vergleichen“ below a helper's result.
//
// Owns: the buttons for a helper whose action names the opponent's value (describe's
// `what_if`) or choices to compare (`compare`; the build writes both, with the fields' labels,
// into data-odds: site_plugins/forms.py), the one engine request each sends with the form's
// current values ({type: "what_if" | "compare", system, action, params, field}: engine/odds.py),
// its busy state, and the answer as page text: for „Was wäre wenn“ a line chart with its table
// (helpers/chart.js), for „Vergleichen“ a table with a row per choice (the highest expected
// value of each column emphasised) and the choices the rules refuse, said with their reason.
// An error names its field as a roll's error does (forms.js showError), the roll stays shown.

import { el, isObject } from "../common/util.js";
import { runEngine } from "../../../laufzeit/js/engine-client.js";
import { bestCells } from "./chart-scale.js";
import { chartTable, drawWhatIf } from "./chart.js";
import { clearErrors, collect, showError } from "./forms.js";
import { watchTable } from "./results.js";

const asked = new WeakMap(); // helper → the number of its latest request (older answers are dropped)
let nextId = 1;

function readOdds(helper) {
  try {
    const odds = JSON.parse(helper.dataset.odds || "null");
    return isObject(odds) ? odds : null;
  } catch (error) {
    return null;
  }
}

function button(text, detail) {
  const node = el("button", "md-button rw-odds-ask", text);
  node.type = "button";
  if (detail) node.appendChild(el("span", "rw-odds-field", ` ${detail}`));
  return node;
}

// The buttons and the answer's place, right below the helper's result (once per helper).
export function setupOdds(helper) {
  const odds = readOdds(helper);
  const result = helper.querySelector(".rw-result");
  if (!odds || !result || helper.querySelector(".rw-odds")) return;
  const whatIf = isObject(odds.what_if) ? odds.what_if : null;
  const choices = Array.isArray(odds.compare) ? odds.compare.filter(isObject) : [];
  if (!whatIf && !choices.length) return;
  const block = el("div", "rw-odds");
  const actions = el("div", "rw-odds-actions");
  const status = el("p", "rw-odds-status");
  status.setAttribute("role", "status");
  const output = el("div", "rw-odds-output");
  output.tabIndex = -1;
  const ui = { block, actions, status, output };
  if (whatIf) {
    const ask = button("Was wäre wenn?", `je ${whatIf.label}`);
    ask.dataset.odds = "what_if";
    ask.addEventListener("click", () => request(helper, ui, "what_if", whatIf.field));
    actions.appendChild(ask);
  }
  if (choices.length) {
    // several fields to compare by: a choice of them beside one button
    let pick = null;
    if (choices.length > 1) {
      pick = el("select", "rw-odds-select");
      pick.id = `rw-vergleich-${nextId++}`;
      for (const choice of choices) {
        const option = el("option", "", choice.label);
        option.value = choice.field;
        pick.appendChild(option);
      }
    }
    const compare = button("Vergleichen", pick ? "" : `nach ${choices[0].label}`);
    compare.dataset.odds = "compare";
    compare.addEventListener("click", () => request(helper, ui, "compare", pick ? pick.value : choices[0].field));
    actions.appendChild(compare);
    if (pick) {
      const label = el("label", "rw-odds-choice", "nach");
      label.htmlFor = pick.id;
      label.appendChild(pick);
      actions.appendChild(label);
    }
  }
  block.append(actions, status, output);
  result.after(block);
}

function setBusy(ui, busy) {
  ui.actions.querySelectorAll("button, select").forEach((node) => { node.disabled = busy; });
  ui.output.setAttribute("aria-busy", String(busy));
  ui.block.dataset.busy = busy ? "1" : "";
}

async function request(helper, ui, type, field) {
  const id = nextId++;
  asked.set(helper, id);
  clearErrors(helper);
  const question = { type, system: helper.dataset.system, action: helper.dataset.action, params: collect(helper), field };
  setBusy(ui, true);
  ui.status.textContent = type === "what_if" ? "„Was wäre wenn“ wird berechnet …" : "„Vergleichen“ wird berechnet …";
  let body;
  try {
    body = await runEngine(question);
  } catch (error) {
    body = { ok: false, error: { field: "", message: `Berechnung nicht möglich: ${error.message}` } };
  }
  if (asked.get(helper) !== id || !helper.isConnected) return;
  setBusy(ui, false);
  const answer = body && body.ok ? body[type] : null;
  if (!isObject(answer) || !Array.isArray(answer.rows) || !Array.isArray(answer.columns)) {
    const error = body && !body.ok && isObject(body.error) ? body.error : { field: "", message: "Die Antwort des Würfelhelfers war unlesbar." };
    ui.status.textContent = "";
    ui.output.replaceChildren();
    showError(helper, error, { host: ui.output });
    return;
  }
  const display = isObject(answer.display) ? answer.display : {};
  ui.status.textContent = display.outcome || "";
  const nodes = [el("p", "rw-odds-headline", display.headline || "")];
  if (type === "what_if") nodes.push(drawWhatIf(answer, { watch: watchTable }));
  else nodes.push(compareTable(answer));
  nodes.push(...answerNotes(answer));
  ui.output.dataset.kind = type;
  ui.output.replaceChildren(...nodes);
  ui.output.querySelectorAll(".rw-odds-compare").forEach(watchTable);
}

// A row per choice; in each column of expected values the highest is emphasised (said in words
// for screen readers too) – the chart's own table (chart.js chartTable).
export function compareTable(answer) {
  const best = bestCells(answer);
  const rows = answer.rows.map((row, r) => [
    row.label + (row.current ? " (jetzt)" : ""),
    ...answer.columns.map((column, c) => {
      const cell = row.cells[c];
      if (!cell) return "–";
      return best.has(`${r}:${c}`) ? { text: cell.text } : cell.text;
    }),
  ]);
  const heads = [answer.label, ...answer.columns.map((c) => c.label)];
  const wrap = el("div", "rw-table-wrap rw-odds-compare");
  wrap.appendChild(chartTable(`Vergleich je ${answer.label}`, heads, rows, answer.rows.findIndex((row) => row.current)));
  return wrap;
}

// What stays the same in every row, the refused choices („Finte: nicht möglich – …“) and the
// engine's notes.
function answerNotes(answer) {
  const out = [];
  const list = (caption, items, className) => {
    if (!items.length) return;
    const box = el("div", `rw-notes ${className}`);
    box.appendChild(el("p", "rw-section-caption", caption));
    const ul = el("ul");
    for (const item of items) ul.appendChild(el("li", "", item));
    box.appendChild(ul);
    out.push(box);
  };
  const same = Array.isArray(answer.same) ? answer.same : [];
  list("In jeder Zeile gleich", same.map((s) => `${s.label}: ${s.text}`), "rw-odds-same");
  const refused = Array.isArray(answer.refused) ? answer.refused.map((r) => `${r.label}: nicht möglich – ${r.message}`) : [];
  list("Nicht möglich", refused, "rw-odds-refused");
  list("Hinweise", Array.isArray(answer.notes) ? answer.notes : [], "rw-odds-notes");
  return out;
}
