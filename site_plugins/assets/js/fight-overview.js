// Regelwerk – fight-overview.js: „Kämpfer im Überblick“ in the fight column of a Kampfhelfer page.
//
// Owns: one row per fighter – where he stands in the order (Tick, Phase), the resources the
// system's helpers track (the target fields a result changes: LeP, Wunden, Trefferpunkte,
// Gesundheit, kritische Wunden; read from the page's forms, data-resource) and his state
// (kampffähig / kampfunfähig / tot), each editable in place: an edit is checked first (a German
// message naming the field), then given to fight.js as a named step (kept, undoable). The
// acting fighter and the target are marked; a fighter who cannot act is marked and passed
// over by „Weiter“. Below: „Verlauf des Kampfes“, every step by name (newest first), and
// „Neuer Kampf“ (asks; undoable) – states, resources and the order go, the fighters' own values
// stay.

import * as fight from "./fight.js";
import { STATES } from "./fight-journal.js";
import { ask } from "./results.js";
import { el, germanNumber, ownValue } from "./util.js";

const STATE_TEXT = { kampffähig: "kampffähig", kampfunfähig: "kampfunfähig", tot: "tot" };

// "" when `text` is a value the resource can take, else the German reason (naming the field).
export function problemOf(resource, fighterName, text) {
  const what = `${resource.name} von ${fighterName}`;
  const value = text.trim();
  if (value === "") return "";
  if (!/^[−-]?\d+$/.test(value)) return `${what}: bitte eine ganze Zahl eintragen (z. B. 12).`;
  const number = Number(value.replace("−", "-"));
  if (resource.min !== null && number < resource.min) return `${what}: mindestens ${germanNumber(resource.min)}.`;
  if (resource.max !== null && number > resource.max) return `${what}: höchstens ${germanNumber(resource.max)}.`;
  return "";
}

function cellId(bench, index, what) {
  return `rw-kampf-${bench.system}-${index}-${what}`;
}

function resourceCell(bench, resource, name, index, record) {
  const cell = el("td", "");
  const input = el("input", "rw-overview-value");
  input.type = "text";
  input.inputMode = "numeric";
  input.autocomplete = "off";
  input.id = cellId(bench, index, resource.key);
  input.setAttribute("aria-label", `${resource.name} von ${name}`);
  const known = record ? ownValue(record.stats, resource.key) : undefined;
  input.value = known === undefined || known === null ? "" : String(known);
  input.placeholder = "–";
  input.addEventListener("change", () => {
    const problem = problemOf(resource, name, input.value);
    bench.overviewError.textContent = problem;
    bench.overviewError.hidden = !problem;
    input.setAttribute("aria-invalid", problem ? "true" : "false");
    if (problem) return;
    const text = input.value.trim().replace("−", "-");
    const value = text === "" ? null : Number(text);
    const was = input.defaultValue === "" ? "–" : input.defaultValue;
    const label = `${name}: ${resource.name} ${was} → ${value === null ? "–" : germanNumber(value)} (von Hand)`;
    fight.dispatch(bench, label, { type: "correct", fighter: name, field: resource.key, value });
    fight.fillAll(bench, { target: true, initial: true });
  });
  input.defaultValue = input.value;
  cell.appendChild(input);
  return cell;
}

function stateCell(bench, name, index) {
  const cell = el("td", "");
  const box = el("select", "rw-overview-state");
  box.id = cellId(bench, index, "zustand");
  box.setAttribute("aria-label", `Zustand von ${name}`);
  const known = fight.stateOf(bench.fight, name);
  const current = known ? known.zustand : "kampffähig";
  box.replaceChildren(...STATES.map((s) => new Option(known && known.zustand === s ? known.text : STATE_TEXT[s], s)));
  box.value = current;
  box.addEventListener("change", () => {
    const state = { zustand: box.value, text: STATE_TEXT[box.value] };
    fight.dispatch(bench, `${name}: ${state.text} (von Hand)`, { type: "condition", fighter: name, state });
  });
  cell.appendChild(box);
  return cell;
}

function nameCell(bench, name) {
  const head = el("th", "rw-overview-name");
  head.scope = "row";
  head.appendChild(el("span", "", name));
  const record = ownValue(bench.fight.fighters, name);
  if (record && typeof record.side === "string") head.appendChild(el("span", "rw-overview-side", ` (${record.side})`));
  if (bench.fight.actor === name) head.appendChild(el("span", "rw-badge rw-badge--actor", "am Zug"));
  if (bench.fight.target === name) head.appendChild(el("span", "rw-badge rw-badge--target", "Ziel"));
  return head;
}

function table(bench, names, resources) {
  const grid = el("table", "rw-overview-table");
  const head = el("tr", "");
  const columns = ["Kämpfer", "Position", ...resources.map((r) => r.name), "Zustand"];
  for (const text of columns) {
    const th = el("th", "", text);
    th.scope = "col";
    head.appendChild(th);
  }
  const thead = el("thead", "");
  thead.appendChild(head);
  const body = el("tbody", "");
  names.forEach((name, index) => {
    const record = ownValue(bench.fight.fighters, name);
    const row = el("tr", "");
    const state = fight.stateOf(bench.fight, name);
    if (state && state.zustand !== "kampffähig") row.classList.add("rw-overview-down");
    if (bench.fight.actor === name) row.classList.add("rw-overview-actor");
    if (bench.fight.target === name) row.classList.add("rw-overview-target");
    row.append(nameCell(bench, name), el("td", "rw-overview-position", bench.positions.get(name) || "–"));
    for (const resource of resources) row.appendChild(resourceCell(bench, resource, name, index, record));
    row.appendChild(stateCell(bench, name, index));
    body.appendChild(row);
  });
  grid.append(thead, body);
  return grid;
}

function historyList(bench) {
  const { steps, redo } = bench.journal;
  bench.historyTitle.textContent = `Verlauf des Kampfes (${germanNumber(steps.length)} ${steps.length === 1 ? "Schritt" : "Schritte"})`;
  const items = [...steps].reverse().map((step) => el("li", "", step.label));
  const undone = [...redo].reverse().map((step) => el("li", "rw-history-undone", `${step.label} (rückgängig gemacht)`));
  bench.historyList.replaceChildren(...undone, ...items);
}

export function renderOverview(bench) {
  if (!bench.overview) return;
  const focused = document.activeElement && bench.overview.contains(document.activeElement) ? document.activeElement.id : "";
  const names = fight.names(bench);
  const resources = fight.resourcesOf(bench);
  bench.overviewBody.replaceChildren(
    names.length ? table(bench, names, resources) : el("p", "rw-help", "Noch niemand im Kampf: erst die Initiative würfeln bzw. Kämpfer in die Tickleiste eintragen."),
  );
  historyList(bench);
  if (focused) {
    const again = document.getElementById(focused);
    if (again) again.focus({ preventScroll: true });
  }
}

export function setupOverview(bench, column) {
  const section = el("section", "rw-overview");
  section.setAttribute("aria-labelledby", `rw-overview-title-${bench.system}`);
  const title = el("h2", "rw-overview-title", "Kämpfer im Überblick");
  title.id = `rw-overview-title-${bench.system}`;
  const help = el("p", "rw-help", "Werte und Zustand lassen sich hier ändern; jede Änderung ist ein Schritt im Verlauf und lässt sich rückgängig machen.");
  bench.overviewBody = el("div", "rw-overview-scroll");
  bench.overviewError = el("p", "rw-overview-error rw-error");
  bench.overviewError.setAttribute("role", "alert");
  bench.overviewError.hidden = true;
  const history = el("details", "rw-history");
  bench.historyTitle = el("summary", "");
  bench.historyList = el("ol", "rw-history-list");
  history.append(bench.historyTitle, bench.historyList);
  const end = el("button", "md-button rw-fight-end", "Neuer Kampf");
  end.type = "button";
  const questions = el("div", "rw-overview-questions");
  end.addEventListener("click", async () => {
    const order = bench.hasBoard ? "" : " und die Reihenfolge";
    const question = `Einen neuen Kampf beginnen? Zustände, Lebenswerte${order} werden geleert; die eigenen Werte der Kämpfer (Waffen, Rüstung) bleiben. „Rückgängig“ holt den Kampf zurück.`;
    const ok = await ask(questions, question, "Ja, neuer Kampf");
    if (ok) {
      fight.dispatch(bench, "Neuer Kampf", { type: "end" });
      fight.fillAll(bench, { actor: true, target: true, initial: true });
    }
  });
  section.append(title, help, bench.overviewBody, bench.overviewError, questions, history, end);
  // first in the fight column: the fighters stay in view while the order below is rolled once
  column.prepend(section);
  bench.overview = section;
}
