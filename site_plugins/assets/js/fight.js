// Regelwerk – fight.js: connected helpers on a Kampfhelfer page – a fighter is entered once.
//
// Owns the fight of a system (localStorage "regelwerk:kampf:<system>", version 1):
//   {version, fighters: {<name>: {actions: {<action>: {field: value}}, stats: {field: value}}},
//    actor, target, turns: [{name, label}], turn}
// - who fights: the Tickleiste's fighters (Ryssea) or the last initiative roll (the others:
//   its `turns`, the acting order of a round, stepped through with „Weiter“);
// - the fight bar above the page's helpers: who acts, against whom, and (on narrow screens)
//   jumps to the fight and to the open helper's „Würfeln“;
// - when the actor or the target changes, every helper on the page is filled: fields the
//   schema marks `subject: actor` with that fighter's values for this helper (what was rolled
//   last for them, else a saved set named after them), `subject: target` with the target's
//   values; the situation fields go back to their defaults (nothing stale carries over);
// - after a roll the values are kept for those fighters; a result's `target_update` (e.g. LeP
//   after damage) is written to the target; its `follow_ups` become buttons that open the
//   next helper filled (damage after a hit, the Patzertabelle after a Patzer …).

import { defaultValue, fill } from "./forms.js";
import { notice } from "./results.js";
import * as savedValues from "./saved.js";
import * as store from "./store.js";
import { el, germanNumber, isObject, ownValue } from "./util.js";

const VERSION = 1;

export function key(system) {
  return `kampf:${system}`;
}

function check(value) {
  if (!isObject(value) || value.version !== VERSION || !isObject(value.fighters)) return "unbekannte Form";
  if (value.turns !== undefined && !Array.isArray(value.turns)) return "die Reihenfolge ist beschädigt";
  return "";
}

export function load(system) {
  const { value } = store.read(key(system), check);
  return value || { version: VERSION, fighters: {}, actor: null, target: null, turns: [], turn: 0 };
}

export function save(bench) {
  const problem = store.write(key(bench.system), bench.fight);
  if (problem) notice(bench.notices, `Nicht gespeichert: ${problem}`, "error");
}

// A fighter's record, made on first use; fighters may be called anything (ownValue).
export function fighter(fight, name) {
  let record = ownValue(fight.fighters, name);
  if (!record) {
    record = { actions: {}, stats: {} };
    Object.defineProperty(fight.fighters, name, { value: record, enumerable: true, writable: true, configurable: true });
  }
  return record;
}

export function names(bench) {
  const seen = [...new Set([...bench.roster, ...Object.keys(bench.fight.fighters)])];
  return seen.filter((name) => bench.roster.length === 0 || bench.roster.includes(name));
}

// ------------------------------------------------------------------ filling the helpers

function fieldsOf(helper, subject) {
  return [...helper.querySelectorAll(`.rw-form .rw-field[data-subject="${subject}"] [data-path][data-type]`)];
}

// A text field of a fighter (the Güte attack's „Angreifer“/„Ziel“) is that fighter's name.
function setFields(helper, inputs, values, fighterName) {
  const filled = {};
  for (const input of inputs) {
    const name = input.dataset.path;
    if (values && name in values) filled[name] = values[name];
    else if (fighterName && input.dataset.type === "text") filled[name] = fighterName;
    else filled[name] = defaultValue(input);
  }
  fill(helper, filled);
}

function savedSet(bench, action, name) {
  const sets = savedValues.forAction(bench.system, action);
  return sets.find((e) => e.name === name) || sets.find((e) => e.name.startsWith(`${name} `)) || null;
}

// What the fight knows of the fighter whose `subject` fields a helper has: the target's values
// (stats); for the actor his values of his last roll of this helper, and what happened to him
// since (his wounds, taken as a target) winning – a field of the same name is the same value of
// the same fighter. Empty when that fighter is not chosen or not known yet.
function knownValues(bench, helper, subject) {
  const name = subject === "target" ? bench.fight.target : bench.fight.actor;
  const record = name ? ownValue(bench.fight.fighters, name) : undefined;
  if (!record) return {};
  if (subject === "target") return { ...record.stats };
  return { ...(ownValue(record.actions, helper.dataset.action) || {}), ...record.stats };
}

function fillHelper(bench, helper, changed) {
  const action = helper.dataset.action;
  const { actor, target } = bench.fight;
  const presets = (helper.dataset.preset || "").split(",").filter(Boolean);
  const situation = [...helper.querySelectorAll(".rw-form .rw-field:not([data-subject]) [data-path][data-type]")]
    .filter((input) => input.dataset.type !== "seed" && !presets.includes(input.dataset.path) && !input.closest(".rw-list"));
  if (changed.actor && !changed.initial && situation.length) setFields(helper, situation, null);
  if (changed.actor && actor) {
    const record = ownValue(bench.fight.fighters, actor);
    const rolled = record && ownValue(record.actions, action);
    const set = rolled ? null : savedSet(bench, action, actor);
    const values = { ...((set && set.values) || {}), ...knownValues(bench, helper, "actor") };
    setFields(helper, fieldsOf(helper, "actor"), values, actor);
  }
  if (changed.target && target) {
    setFields(helper, fieldsOf(helper, "target"), knownValues(bench, helper, "target"), target);
  }
  const note = helper.querySelector(".rw-fight-note") || el("p", "rw-fight-note");
  const parts = [];
  if (actor && fieldsOf(helper, "actor").length) parts.push(`Werte von ${actor}`);
  if (target && fieldsOf(helper, "target").length) parts.push(`Ziel: ${target}`);
  note.textContent = parts.join(" – ");
  note.hidden = !parts.length;
  if (!note.isConnected) helper.querySelector(".rw-form .rw-summary").after(note);
}

export function fillAll(bench, changed) {
  bench.helpers().forEach((helper) => fillHelper(bench, helper, changed));
}

// ------------------------------------------------------------------ after a roll

function valuesOf(helper, subject) {
  const out = {};
  for (const input of fieldsOf(helper, subject)) {
    if (!input.disabled) out[input.dataset.path] = input.dataset.type === "bool" ? input.checked : input.value;
  }
  return out;
}

// What a result changed, in the words of the rules: the resource's own name from the schema
// (data-resource, e.g. „LeP“), else the field's label – never the raw key („lep“, „hp“).
function resourceName(helper, key) {
  const input = helper.querySelector(`.rw-form [data-path="${CSS.escape(key)}"]`);
  const field = input && input.closest(".rw-field");
  if (field && field.dataset.resource) return field.dataset.resource;
  const label = input && input.id ? helper.querySelector(`label[for="${CSS.escape(input.id)}"]`) : null;
  return label ? label.textContent.replace(/\u00ad/g, "").trim() : key;
}

// A result's target_state (engine/fight_state.py): {zustand: kampffähig | kampfunfähig | tot,
// text: the system's word}, or null.
const STATES = ["kampffähig", "kampfunfähig", "tot"];

function checkedState(state) {
  if (!isObject(state) || !STATES.includes(state.zustand) || typeof state.text !== "string") return null;
  return { zustand: state.zustand, text: state.text.slice(0, 40) };
}

// The fighter's state as the fight knows it (null: nothing known, so he acts).
export function stateOf(fight, name) {
  const record = ownValue(fight.fighters, name);
  return record ? checkedState(record.state) : null;
}

export function canAct(fight, name) {
  const state = stateOf(fight, name);
  return !state || state.zustand === "kampffähig";
}

export function afterRoll(bench, helper, body) {
  const { actor, target } = bench.fight;
  const action = helper.dataset.action;
  if (actor && fieldsOf(helper, "actor").length) fighter(bench.fight, actor).actions[action] = valuesOf(helper, "actor");
  if (target && fieldsOf(helper, "target").length) Object.assign(fighter(bench.fight, target).stats, valuesOf(helper, "target"));
  const update = body.result.target_update;
  if (target && isObject(update)) {
    Object.assign(fighter(bench.fight, target).stats, update);
    const shown = Object.entries(update).map(([k, v]) => `${resourceName(helper, k)} ${typeof v === "number" ? germanNumber(v) : v}`).join(", ");
    const state = checkedState(body.result.target_state);
    fighter(bench.fight, target).state = state;
    const said = state && state.zustand !== "kampffähig" ? ` ${target} ist jetzt ${state.text}.` : "";
    helper.querySelector(".rw-result").appendChild(el("p", "rw-fight-note", `Für ${target} übernommen: ${shown}.${said}`));
    fillAll(bench, { target: true });
  }
  save(bench);
  followUps(bench, helper, body.result.follow_ups);
}

// A shared roll (a link) is shown beside the fight: the form goes back to the fighters' values
// at once, and only „In den Kampf übernehmen“ writes the link's values for the fighters now
// chosen (the same step as one of their own rolls).
export function offerSharedRoll(bench, helper, detail) {
  fillHelper(bench, helper, { actor: true, target: true });
  const { actor, target } = bench.fight;
  if (!actor && !target) return;
  const who = [actor && `Werte für ${actor}`, target && `Ziel ${target}`].filter(Boolean).join(", ");
  const bar = el("div", "rw-follow-ups rw-shared-take");
  const button = el("button", "md-button", "In den Kampf übernehmen");
  button.type = "button";
  button.addEventListener("click", () => {
    fill(helper, detail.params || {});
    afterRoll(bench, helper, detail);
    bar.replaceChildren(el("span", "rw-fight-note", `In den Kampf übernommen (${who}).`));
  });
  bar.append(el("span", "rw-follow-ups-title", `Geteilter Wurf – der Kampf bleibt, wie er ist (${who}).`), button);
  helper.querySelector(".rw-result").appendChild(bar);
}

function tabOf(helper) {
  const block = helper.closest(".tabbed-block");
  if (!block) return null;
  const set = block.closest(".tabbed-set");
  const index = [...block.parentElement.children].indexOf(block);
  return set.querySelectorAll(":scope > .tabbed-labels > label")[index] || null;
}

export function openHelper(helper) {
  const tab = tabOf(helper);
  if (tab) tab.click();
  helper.scrollIntoView({ block: "start" });
}

// A follow-up carries the rolling helper's values on (the rolled TP, its RS field …); where
// the next helper's field belongs to a fighter whose value the fight knows (the target's RS
// from an earlier damage roll), the fighter's value stays – a follow-up never overwrites it with
// a default from a collapsed field it was not typed into.
function knownValuesWin(bench, next, params) {
  const out = {};
  const known = { actor: knownValues(bench, next, "actor"), target: knownValues(bench, next, "target") };
  for (const [name, value] of Object.entries(params)) {
    const field = next.querySelector(`.rw-form .rw-field[data-subject] [data-path="${CSS.escape(name)}"]`);
    const subject = field && field.closest(".rw-field").dataset.subject;
    if (subject && known[subject] && Object.hasOwn(known[subject], name)) continue;
    out[name] = value;
  }
  return out;
}

function followUps(bench, helper, items) {
  if (!Array.isArray(items) || !items.length) return;
  const bar = el("div", "rw-follow-ups");
  bar.appendChild(el("span", "rw-follow-ups-title", "Weiter nach den Regeln:"));
  for (const item of items) {
    const next = bench.helpers().find((h) => h.dataset.action === item.action);
    if (!next) continue;
    const button = el("button", "md-button", `${item.title} ▸`);
    button.type = "button";
    button.addEventListener("click", () => {
      fill(next, knownValuesWin(bench, next, item.params || {}));
      openHelper(next);
      next.querySelector(".rw-submit").focus({ preventScroll: true });
    });
    bar.appendChild(button);
  }
  if (bar.children.length > 1) helper.querySelector(".rw-result").appendChild(bar);
}
