// Regelwerk – fight/fill.js: the helpers of a Kampfhelfer page, filled from the fight.
//
// When the actor or the target changes, every helper on the page is filled: fields the schema
// marks `subject: actor` with that fighter's values for this helper (what was typed or rolled
// last for him, else a saved set named after him), `subject: target` with the target's values;
// the situation fields go back to their defaults (nothing stale carries over). Beside each
// helper it says whose values it holds and what lies on them (the effects: betäubt …). Where a
// helper has a condition as a field of the situation („Angreifer ist betäubt“: the engine's
// `condition` hint, data-condition / data-condition-of on the field; a choice such as Ryssea's
// Kampfposition maps its values, data-condition-choices), an effect of that name on the actor or
// the target sets it – once per effect and fighter, so the game master can change it for a
// roll; when the effect ends or another fighter is chosen, the field goes back. The
// situation the acting order gives a turn (DSA's second action, `situation` of a turn) is set
// the same way while that turn's fighter acts. A value typed into a fighter's field is his at
// once: a step of the fight (`keepTyped`).

import { defaultValue, fill } from "../helpers/forms.js";
import * as savedValues from "../helpers/saved.js";
import { el, germanNumber, ownValue } from "../common/util.js";
import { effectLeft, effectText, effectsOf } from "./effects.js";

export function fieldsOf(helper, subject) {
  return [...helper.querySelectorAll(`.rw-form .rw-field[data-subject="${subject}"] [data-path][data-type]`)];
}

export function titleOf(helper) {
  const title = helper.querySelector(".rw-title");
  return title ? title.textContent.replace("Würfelhelfer: ", "").trim() : helper.dataset.action;
}

// The label of a field as the reader sees it (soft hyphens out).
export function labelOf(helper, input) {
  const label = input && input.id ? helper.querySelector(`label[for="${CSS.escape(input.id)}"]`) : null;
  return label ? label.textContent.replace(/\u00ad/g, "").trim() : input ? input.dataset.path : "";
}

// A value as a step's name shows it: German numbers, ja/nein, text cut short.
export function shown(value) {
  if (value === undefined || value === null || value === "") return "–";
  if (typeof value === "number") return germanNumber(value);
  if (typeof value === "boolean") return value ? "ja" : "nein";
  const text = String(value);
  return /^-?\d+(\.\d+)?$/.test(text) ? germanNumber(Number(text)) : text.slice(0, 30);
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

function savedSet(system, action, name) {
  const sets = savedValues.forAction(system, action);
  return sets.find((e) => e.name === name) || sets.find((e) => e.name.startsWith(`${name} `)) || null;
}

// What the fight knows of the fighter whose `subject` fields a helper has: the target's values
// (stats); for the actor his values of this helper, and his life values (what happened to him
// as a target) winning – a field of the same name is the same value of the same fighter.
export function knownValues(table, helper, subject) {
  const fight = table.store.state;
  const name = subject === "target" ? fight.target : fight.actor;
  const record = name ? ownValue(fight.fighters, name) : undefined;
  if (!record) return {};
  if (subject === "target") return { ...record.stats };
  const changed = {};
  for (const { key } of table.contract.values) if (Object.hasOwn(record.stats, key)) changed[key] = record.stats[key];
  return { ...(ownValue(record.actions, helper.dataset.action) || {}), ...changed };
}

function noteOf(helper, css) {
  let note = helper.querySelector(`.${css}`);
  if (!note) {
    note = el("p", `rw-fight-note ${css}`);
    helper.querySelector(".rw-form .rw-summary").after(note);
  }
  return note;
}

function say(note, text) {
  note.textContent = text;
  note.hidden = !text;
}

// ------------------------------------------------------------------ conditions from effects

const applied = new WeakMap(); // helper → {path: "<fighter>\0<effect id>"} this view set

// What a field of the situation stands for: a yes/no field one condition (data-condition), a
// choice several, one per value (data-condition-choices: {value: condition}). → [[value, name]].
function conditionsOf(field, input) {
  if (field.dataset.condition) return input.dataset.type === "bool" ? [[true, field.dataset.condition]] : [];
  try {
    const choices = JSON.parse(field.dataset.conditionChoices || "{}");
    return Object.entries(choices).filter(([, name]) => typeof name === "string" && name);
  } catch (error) {
    return []; // a broken hint sets nothing
  }
}

function conditionFields(table, helper) {
  const fight = table.store.state;
  const now = {};
  const values = {};
  const said = [];
  const was = applied.get(helper) || {};
  for (const field of helper.querySelectorAll(".rw-form .rw-field:is([data-condition], [data-condition-choices])")) {
    const input = field.querySelector("[data-path][data-type]");
    if (!input) continue;
    const name = field.dataset.conditionOf === "target" ? fight.target : fight.actor;
    const effects = name ? effectsOf(fight, name) : [];
    let hit = null;
    for (const [value, condition] of conditionsOf(field, input)) {
      const effect = effects.find((e) => e.name.trim().toLowerCase() === condition.trim().toLowerCase());
      if (effect) {
        hit = { value, effect };
        break;
      }
    }
    const path = input.dataset.path;
    if (hit) {
      now[path] = `${name}\u0000${hit.effect.id}`;
      if (was[path] !== now[path]) values[path] = hit.value;
      said.push(`„${labelOf(helper, input)}“ (${name}: ${hit.effect.name}, ${effectLeft(fight, hit.effect.until)})`);
    } else if (was[path]) {
      values[path] = defaultValue(input);
    }
  }
  applied.set(helper, now);
  if (Object.keys(values).length) fill(helper, values);
  if (!said.length && !helper.querySelector(".rw-effect-note")) return;
  say(noteOf(helper, "rw-effect-note"), said.length ? `Aus den Wirkungen gesetzt: ${said.join(", ")} – ändern, wenn es für diesen Wurf nicht zutrifft.` : "");
}

// ------------------------------------------------------------------ filling

function fillHelper(table, helper, changed) {
  const fight = table.store.state;
  const { actor, target } = fight;
  const presets = (helper.dataset.preset || "").split(",").filter(Boolean);
  const situation = [...helper.querySelectorAll(".rw-form .rw-field:not([data-subject]) [data-path][data-type]")]
    .filter((input) => input.dataset.type !== "seed" && !presets.includes(input.dataset.path) && !input.closest(".rw-list"));
  if (changed.actor && !changed.initial && situation.length) setFields(helper, situation, null);
  if (changed.actor && actor) {
    const record = ownValue(fight.fighters, actor);
    const rolled = record && ownValue(record.actions, helper.dataset.action);
    const set = rolled ? null : savedSet(table.system, helper.dataset.action, actor);
    setFields(helper, fieldsOf(helper, "actor"), { ...((set && set.values) || {}), ...knownValues(table, helper, "actor") }, actor);
  }
  // nobody chosen any more (a choice taken back): his values leave the form – no stale value
  // of a fighter stands in for the next one's
  if (changed.actor && !actor) setFields(helper, fieldsOf(helper, "actor"), null);
  if (changed.target) setFields(helper, fieldsOf(helper, "target"), target ? knownValues(table, helper, "target") : null, target);
  const parts = [];
  if (actor && fieldsOf(helper, "actor").length) parts.push(`Werte von ${actor}`);
  if (target && fieldsOf(helper, "target").length) parts.push(`Ziel: ${target}`);
  // what lies on them (betäubt, festgehalten …): the game master weighs it in the roll
  for (const name of [actor, target]) {
    const effects = name ? effectsOf(fight, name) : [];
    if (effects.length) parts.push(`${name}: ${effects.map((e) => effectText(fight, e)).join(", ")}`);
  }
  say(noteOf(helper, "rw-fight-here"), parts.join(" – "));
  conditionFields(table, helper);
}

// The situation the acting order gives a turn (DSA: „Zweite Angriffsaktion“,
// regeln/dsa/initiative.py) set in the helpers while that turn's fighter acts, and
// said beside the form; on any other turn (or another fighter chosen by hand) those fields are
// back at their defaults. The game master can change them as always.
function turnSituation(table, helper) {
  const fight = table.store.state;
  const turns = fight.turns || [];
  const keys = new Set(turns.flatMap((t) => (t.situation ? Object.keys(t.situation) : [])));
  const turn = turns[fight.turn];
  const current = turn && turn.name === fight.actor && turn.situation ? turn.situation : {};
  const values = {};
  const said = [];
  for (const key of keys) {
    const input = helper.querySelector(`.rw-form [data-path="${CSS.escape(key)}"][data-type]`);
    if (!input) continue;
    values[key] = Object.hasOwn(current, key) ? current[key] : defaultValue(input);
    if (Object.hasOwn(current, key)) said.push(labelOf(helper, input));
  }
  if (!Object.keys(values).length) return;
  fill(helper, values);
  say(noteOf(helper, "rw-turn-note"), said.length ? `${turn.label}: „${said.join("“, „")}“ ist gesetzt – abwählen, wenn es für diesen Zug nicht zutrifft.` : "");
}

// changed: {actor, target, turn, initial}: what changed (initial: the page opened, a step
// taken back or made in another tab – the situation stays as it is). After every step: the
// notes and the effects' fields; the turn's situation when the actor or the turn changed.
export function fillAll(table, changed) {
  for (const helper of table.helpers()) fillOne(table, helper, changed);
}

export function fillOne(table, helper, changed) {
  fillHelper(table, helper, changed);
  if (changed.actor || changed.turn) turnSituation(table, helper);
}

// ------------------------------------------------------------------ values typed for a fighter

function valueOf(input) {
  return input.dataset.type === "bool" ? input.checked : input.value;
}

export function valuesOf(helper, subject) {
  const out = {};
  for (const input of fieldsOf(helper, subject)) {
    if (!input.disabled) out[input.dataset.path] = valueOf(input);
  }
  return out;
}

// A value typed into a fighter's field is his at once (one step per fighter and helper while
// typing goes on), so changing the target and back never throws it away.
export function keepTyped(table, helper, input) {
  const field = input.closest(".rw-field[data-subject]");
  if (!field || input.dataset.type === "seed" || input.closest(".rw-list")) return;
  const subject = field.dataset.subject;
  const fight = table.store.state;
  const name = subject === "target" ? fight.target : fight.actor;
  if (!name) return;
  const values = { [input.dataset.path]: valueOf(input) };
  const where = subject === "actor" ? ` (${titleOf(helper)})` : "";
  const label = `${name}${where}: ${labelOf(helper, input)} ${shown(valueOf(input))}`;
  const event = subject === "actor"
    ? { type: "values", fighter: name, action: helper.dataset.action, values }
    : { type: "values", fighter: name, values };
  table.store.dispatch(label, event);
}
