// Regelwerk – fight-overview.js: „Kämpfer im Überblick“ in the fight column of a Kampfhelfer page.
//
// Owns: one row per fighter – where he stands in the order (Tick, Phase), the resources the
// system's helpers track (the target fields a result changes: LeP, Wunden, Trefferpunkte,
// Gesundheit, kritische Wunden; read from the page's forms, data-resource) and his state
// (kampffähig / kampfunfähig / tot) with the effects on him (betäubt, noch 2 Runden – each with
// „✕“ to end it by hand; a form below puts one on), each editable in place: an edit is checked first (a German
// message naming the field), then given to fight.js as a named step (kept, undoable). The
// acting fighter and the target are marked; a fighter who cannot act is marked and passed
// over by „Weiter“. Below: „Verlauf des Kampfes“, every step by name (newest first), and
// „Neuer Kampf“ (asks; undoable) – states, resources and the order go, the fighters' own values
// stay.

import * as fight from "./fight.js";
import { EFFECT_NAME_MAX, EFFECT_REF_MAX, STATES, boardNow, effectsOf } from "./journal.js";
import { refreshShare, setupShare } from "../players/show.js";
import { ask } from "../helpers/results.js";
import { el, germanNumber, ownValue } from "../common/util.js";

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

// The effects on a fighter, each with what is left of it and „Ende“ (a step, undoable).
function effectList(bench, name) {
  const effects = effectsOf(bench.fight, name);
  if (!effects.length) return null;
  const list = el("ul", "rw-effects");
  for (const effect of effects) {
    const item = el("li", "rw-effect", fight.effectText(bench.fight, effect));
    const end = el("button", "rw-effect-end", "✕");
    end.type = "button";
    end.title = `${effect.name} bei ${name} beenden`;
    end.setAttribute("aria-label", end.title);
    end.addEventListener("click", () => {
      fight.dispatch(bench, `${name}: ${effect.name} beendet (von Hand)`, { type: "effect-end", ends: [{ fighter: name, id: effect.id }] });
      fight.fillAll(bench, {});
    });
    item.appendChild(end);
    list.appendChild(item);
  }
  return list;
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
  const effects = effectList(bench, name);
  if (effects) cell.appendChild(effects);
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

// ------------------------------------------------------------------ putting an effect on a fighter

// The durations this fight can count, in its own time: Ticks where the Tickleiste keeps the
// time, Runden where an acting order does; turns of a fighter („bis … handelt“) in both.
export function unitsOf(bench) {
  const units = [];
  if (bench.hasBoard) units.push(["ticks", "Ticks"]);
  else units.push(["runden", "Runden"]);
  units.push(["zuege", "Züge von …"]);
  return units;
}

// → {until} for a duration typed in the form, or {problem} (German, naming the field).
export function untilOf(fightState, unit, countText, who) {
  const text = String(countText).trim();
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 1000) return { problem: "Dauer: bitte eine ganze Zahl von 1 bis 1.000 eintragen." };
  const count = Number(text);
  if (unit === "ticks") {
    const now = boardNow(fightState.board);
    if (now === null) return { problem: "Dauer: die Tickleiste hat noch keinen aktuellen Tick – erst den Kampf beginnen." };
    return { until: { unit: "ticks", tick: now + count } };
  }
  if (unit === "zuege") {
    if (!who) return { problem: "Bis wer handelt: bitte einen Kämpfer wählen." };
    return { until: { unit: "zuege", who, left: count } };
  }
  if (!(fightState.turns || []).length) return { problem: "Dauer: Runden zählen erst mit einer Reihenfolge – erst die Initiative würfeln." };
  return { until: { unit: "runden", round: (fightState.round || 1) + count, turn: fightState.turn } };
}

function labelled(text, control) {
  const wrap = el("label", "rw-effect-field");
  wrap.append(el("span", "", text), control);
  return wrap;
}

function effectForm(bench) {
  const form = el("form", "rw-effect-form");
  form.noValidate = true;
  const legend = el("p", "rw-effect-form-title", "Wirkung auf einen Kämpfer legen (läuft von selbst ab)");
  const fighter = el("select", "rw-effect-fighter");
  const name = el("input", "rw-effect-name");
  name.type = "text";
  name.maxLength = EFFECT_NAME_MAX;
  name.placeholder = "z. B. betäubt";
  name.autocomplete = "off";
  const ref = el("input", "rw-effect-ref");
  ref.type = "text";
  ref.maxLength = EFFECT_REF_MAX;
  ref.placeholder = "z. B. Angriff +2 erschwert";
  ref.autocomplete = "off";
  const count = el("input", "rw-effect-count");
  count.type = "text";
  count.inputMode = "numeric";
  count.value = "1";
  count.autocomplete = "off";
  const unit = el("select", "rw-effect-unit");
  const who = el("select", "rw-effect-who");
  const whoField = labelled("Bis wer handelt", who);
  const error = el("p", "rw-effect-error rw-error");
  error.setAttribute("role", "alert");
  error.hidden = true;
  const add = el("button", "md-button rw-effect-add", "Wirkung hinzufügen");
  add.type = "submit";
  const sync = () => {
    whoField.hidden = unit.value !== "zuege";
  };
  unit.addEventListener("change", sync);
  form.refresh = () => {
    const names = fight.names(bench);
    for (const box of [fighter, who]) {
      const was = box.value;
      box.replaceChildren(...names.map((n) => new Option(n, n)));
      if (names.includes(was)) box.value = was;
    }
    const was = unit.value;
    unit.replaceChildren(...unitsOf(bench).map(([value, text]) => new Option(text, value)));
    if ([...unit.options].some((o) => o.value === was)) unit.value = was;
    sync();
    form.hidden = !names.length;
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const say = (problem) => {
      error.textContent = problem;
      error.hidden = !problem;
    };
    if (!fighter.value) return say("Kämpfer: bitte einen Kämpfer wählen.");
    if (!name.value.trim()) return say("Wirkung: bitte einen Namen eintragen (z. B. betäubt).");
    const { until, problem } = untilOf(bench.fight, unit.value, count.value, who.value);
    if (problem) return say(problem);
    say("");
    const effect = { id: `w${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`, name: name.value.trim(), until };
    if (ref.value.trim()) effect.ref = ref.value.trim();
    const label = `${fighter.value}: ${effect.name} (${fight.effectLeft(bench.fight, until)})`;
    fight.dispatch(bench, label, { type: "effect", fighter: fighter.value, effect });
    fight.fillAll(bench, {});
    name.value = "";
    ref.value = "";
  });
  form.append(
    legend,
    labelled("Kämpfer", fighter),
    labelled("Wirkung", name),
    labelled("Regel (optional)", ref),
    labelled("Dauer", count),
    labelled("Einheit", unit),
    whoField,
    add,
    error,
  );
  return form;
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
  bench.effectForm.refresh();
  refreshShare(bench);
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
  bench.effectForm = effectForm(bench);
  section.append(title, help, bench.overviewBody, bench.overviewError, bench.effectForm, questions, history, end);
  setupShare(bench, section);
  // first in the fight column: the fighters stay in view while the order below is rolled once
  column.prepend(section);
  bench.overview = section;
}
