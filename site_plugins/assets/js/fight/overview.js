// Regelwerk – fight/overview.js: „Kämpfer im Überblick“ in the fight column of a Kampfhelfer page.
//
// Owns one row per fighter – where he stands in the order (Tick, Phase), the life values the
// system's text tracks (the fight contract's `values`: LeP, Wunden, Trefferpunkte, Gesundheit,
// kritische Wunden, LE/KE/AUS, Lebenspunkte kept by hand) and his state (kampffähig /
// kampfunfähig / tot) with the effects on him (each with „✕“ to end it by hand; the form below
// puts one on), each editable in place. A value typed here is checked first (a German message
// naming the field); its state then comes from the engine's rule for the system (the same one
// function a roll's `target_state` comes from) and both go in one named step („Alrik: LeP – → 3
// (von Hand) – kampfunfähig“), undoable. The acting fighter and the target are marked; a
// fighter who cannot act is marked and passed over by „Weiter“. Below: the effect form,
// „Verlauf des Kampfes“ (every step by name, newest first; those taken back marked) and „Neuer
// Kampf“ (asks; undoable) – states, life values and the order go, the fighters' own values stay.

import { ask } from "../helpers/results.js";
import { el, germanNumber, ownValue } from "../common/util.js";
import { ruleValues, stateFor } from "./contract.js";
import { effectForm } from "./effect-form.js";
import { effectText, effectsOf } from "./effects.js";
import { STATES, stateOfFighter } from "./reducer.js";
import * as roster from "./roster.js";

const STATE_TEXT = { kampffähig: "kampffähig", kampfunfähig: "kampfunfähig", tot: "tot" };

// "" when `text` is a value the life value can take, else the German reason (naming the field).
export function problemOf(value, fighterName, text) {
  const what = `${value.name} von ${fighterName}`;
  const typed = text.trim();
  if (typed === "") return "";
  if (!/^[−-]?\d+$/.test(typed)) return `${what}: bitte eine ganze Zahl eintragen (z. B. 12).`;
  const number = Number(typed.replace("−", "-"));
  if (value.min !== null && number < value.min) return `${what}: mindestens ${germanNumber(value.min)}.`;
  if (value.max !== null && number > value.max) return `${what}: höchstens ${germanNumber(value.max)}.`;
  return "";
}

function cellId(table, index, what) {
  return `rw-kampf-${table.system}-${index}-${what}`;
}

// The state after a value typed by hand, from the engine's rule: → {state} (null: no rule
// decides – the state stays), or {problem} when the engine could not answer.
async function stateAfter(table, name, key, number) {
  if (!table.contract.states.length) return { state: undefined };
  const record = ownValue(table.store.state.fighters, name);
  const stats = { ...(record ? record.stats : {}), [key]: number };
  try {
    const state = await stateFor(table.contract, ruleValues(table.contract, stats));
    return { state: state || { zustand: "kampffähig", text: table.contract.fit.text } };
  } catch (error) {
    return { problem: error.message };
  }
}

// Values typed one after the other are taken in that order: each waits for the one before it to
// be a step, so its state is reckoned from the values as they then stand (the engine's answer
// for the first may come after the second was typed).
let corrections = Promise.resolve();

function inTurn(work) {
  corrections = corrections.then(work, work);
  return corrections;
}

function valueCell(table, view, value, name, index) {
  const record = ownValue(table.store.state.fighters, name);
  const cell = el("td", "");
  const input = el("input", "rw-overview-value");
  input.type = "text";
  input.inputMode = "numeric";
  input.autocomplete = "off";
  input.id = cellId(table, index, value.key);
  input.setAttribute("aria-label", `${value.name} von ${name}`);
  const known = record ? ownValue(record.stats, value.key) : undefined;
  input.value = known === undefined || known === null ? "" : String(known);
  input.placeholder = "–";
  input.defaultValue = input.value;
  input.addEventListener("change", () => {
    const problem = problemOf(value, name, input.value);
    view.error(problem);
    input.setAttribute("aria-invalid", problem ? "true" : "false");
    const typed = input.value;
    const was = input.defaultValue;
    if (!problem) inTurn(() => correct(table, view, { value, name, typed, was }));
  });
  cell.appendChild(input);
  return cell;
}

// A life value typed for a fighter: its state from the engine's rule, then one named step.
async function correct(table, view, { value, name, typed, was }) {
  const text = typed.trim().replace("−", "-");
  const number = text === "" ? null : Number(text);
  const before = was === "" ? "–" : germanNumber(Number(was));
  const { state, problem } = number === null ? { state: undefined } : await stateAfter(table, name, value.key, number);
  const had = stateOfFighter(table.store.state, name);
  const now = state ? (state.zustand === "kampffähig" ? null : state) : undefined;
  const stateChanged = now !== undefined && (now ? now.text : "") !== (had ? had.text : "");
  const said = stateChanged ? (now ? ` – ${name} ist jetzt ${now.text}` : ` – ${name} ist wieder ${table.contract.fit.text}`) : "";
  const label = `${name}: ${value.name} ${before} → ${number === null ? "–" : germanNumber(number)} (von Hand)${said}`;
  const event = { type: "correct", fighter: name, field: value.key, value: number };
  if (state !== undefined) event.state = state;
  table.store.dispatch(label, event);
  if (problem) view.error(`${value.name} von ${name}: eingetragen, aber der Zustand ließ sich nicht prüfen (${problem}) – bitte von Hand setzen.`);
}

// The effects on a fighter, each with what is left of it and „✕“ (a step, undoable).
function effectList(table, name) {
  const fight = table.store.state;
  const effects = effectsOf(fight, name);
  if (!effects.length) return null;
  const list = el("ul", "rw-effects");
  for (const effect of effects) {
    const item = el("li", "rw-effect", effectText(fight, effect));
    const end = el("button", "rw-effect-end", "✕");
    end.type = "button";
    end.title = `${effect.name} bei ${name} beenden`;
    end.setAttribute("aria-label", end.title);
    end.addEventListener("click", () => {
      table.store.dispatch(`${name}: ${effect.name} beendet (von Hand)`, { type: "effect-end", ends: [{ fighter: name, id: effect.id }] });
    });
    item.appendChild(end);
    list.appendChild(item);
  }
  return list;
}

function stateCell(table, name, index) {
  const cell = el("td", "");
  const box = el("select", "rw-overview-state");
  box.id = cellId(table, index, "zustand");
  box.setAttribute("aria-label", `Zustand von ${name}`);
  const known = stateOfFighter(table.store.state, name);
  box.replaceChildren(...STATES.map((s) => new Option(known && known.zustand === s ? known.text : STATE_TEXT[s], s)));
  box.value = known ? known.zustand : "kampffähig";
  box.addEventListener("change", () => {
    const state = { zustand: box.value, text: STATE_TEXT[box.value] };
    table.store.dispatch(`${name}: ${state.text} (von Hand)`, { type: "condition", fighter: name, state });
  });
  cell.appendChild(box);
  const effects = effectList(table, name);
  if (effects) cell.appendChild(effects);
  return cell;
}

function nameCell(table, name) {
  const fight = table.store.state;
  const head = el("th", "rw-overview-name");
  head.scope = "row";
  head.appendChild(el("span", "", name));
  const side = roster.sideOf(fight, name);
  if (side) head.appendChild(el("span", "rw-overview-side", ` (${side})`));
  if (fight.actor === name) head.appendChild(el("span", "rw-badge rw-badge--actor", "am Zug"));
  if (fight.target === name) head.appendChild(el("span", "rw-badge rw-badge--target", "Ziel"));
  return head;
}

function grid(table, view, names) {
  const fight = table.store.state;
  const positions = roster.positions(fight, table.hasBoard);
  const values = table.contract.values;
  const head = el("tr", "");
  for (const text of ["Kämpfer", "Position", ...values.map((v) => v.name), "Zustand"]) {
    const th = el("th", "", text);
    th.scope = "col";
    head.appendChild(th);
  }
  const thead = el("thead", "");
  thead.appendChild(head);
  const body = el("tbody", "");
  names.forEach((name, index) => {
    const row = el("tr", "");
    const state = stateOfFighter(fight, name);
    if (state && state.zustand !== "kampffähig") row.classList.add("rw-overview-down");
    if (fight.actor === name) row.classList.add("rw-overview-actor");
    if (fight.target === name) row.classList.add("rw-overview-target");
    row.append(nameCell(table, name), el("td", "rw-overview-position", positions.get(name) || "–"));
    for (const value of values) row.appendChild(valueCell(table, view, value, name, index));
    row.appendChild(stateCell(table, name, index));
    body.appendChild(row);
  });
  const out = el("table", "rw-overview-table");
  out.append(thead, body);
  return out;
}

function historyItems(table) {
  const { steps, redo } = table.store.journal;
  const items = [...steps].reverse().map((step) => el("li", "", step.label));
  const undone = [...redo].reverse().map((step) => el("li", "rw-history-undone", `${step.label} (rückgängig gemacht)`));
  return { count: steps.length, items: [...undone, ...items] };
}

// → {section, draw}: the overview in the fight column, and how it follows the fight.
export function setupOverview(table, column) {
  const section = el("section", "rw-overview");
  section.setAttribute("aria-labelledby", `rw-overview-title-${table.system}`);
  const title = el("h2", "rw-overview-title", "Kämpfer im Überblick");
  title.id = `rw-overview-title-${table.system}`;
  const help = el("p", "rw-help", "Werte und Zustand lassen sich hier ändern; jede Änderung ist ein Schritt im Verlauf und lässt sich rückgängig machen.");
  const note = table.contract.note ? el("p", "rw-help rw-overview-note", table.contract.note) : null;
  const body = el("div", "rw-overview-scroll");
  const errorLine = el("p", "rw-overview-error rw-error");
  errorLine.setAttribute("role", "alert");
  errorLine.hidden = true;
  const view = {
    error(text) {
      errorLine.textContent = text;
      errorLine.hidden = !text;
    },
  };
  const history = el("details", "rw-history");
  const historyTitle = el("summary", "");
  const historyList = el("ol", "rw-history-list");
  history.append(historyTitle, historyList);
  const end = el("button", "md-button rw-fight-end", "Neuer Kampf");
  end.type = "button";
  const questions = el("div", "rw-overview-questions");
  end.addEventListener("click", async () => {
    const order = table.hasBoard ? "" : " und die Reihenfolge";
    const question = `Einen neuen Kampf beginnen? Zustände, Lebenswerte${order} werden geleert; die eigenen Werte der Kämpfer (Waffen, Rüstung) bleiben. „Rückgängig“ holt den Kampf zurück.`;
    if (await ask(questions, question, "Ja, neuer Kampf")) table.store.dispatch("Neuer Kampf", { type: "end" });
  });
  const effects = effectForm(table);
  section.append(title, help, ...(note ? [note] : []), body, errorLine, effects.element, questions, history, end);
  // first in the fight column: the fighters stay in view while the order below is rolled once
  column.prepend(section);
  const draw = () => {
    const focused = document.activeElement && section.contains(document.activeElement) ? document.activeElement.id : "";
    const names = table.names();
    body.replaceChildren(
      names.length ? grid(table, view, names) : el("p", "rw-help", "Noch niemand im Kampf: erst die Initiative würfeln bzw. Kämpfer in die Tickleiste eintragen."),
    );
    const { count, items } = historyItems(table);
    historyTitle.textContent = `Verlauf des Kampfes (${germanNumber(count)} ${count === 1 ? "Schritt" : "Schritte"})`;
    historyList.replaceChildren(...items);
    effects.draw();
    if (focused) {
      const again = document.getElementById(focused);
      if (again) again.focus({ preventScroll: true });
    }
  };
  return { section, draw };
}
