// Regelwerk – fight.js: the one writer of a system's fight, and the helpers it fills.
//
// Owns the fight of a system (fight-journal.js: a journal of named steps, localStorage
// "regelwerk:kampf:<system>"). Everything that changes the fight goes through `dispatch` as a
// step the game master can see in „Verlauf“ and take back („Rückgängig“) – choosing actor and
// target, „Weiter“, a new acting order, a value typed for a fighter, a roll's consequence, a
// shared roll taken over, a correction in the overview. Nothing writes it by a side door.
// - who fights: the Tickleiste's fighters (Ryssea) or the last initiative roll's acting order;
// - the bench (fight-bar.js) holds the page's view: bench.journal, bench.fight (its state);
// - when the actor or the target changes, every helper on the page is filled: fields the
//   schema marks `subject: actor` with that fighter's values for this helper (what was typed
//   or rolled last for them, else a saved set named after them), `subject: target` with the
//   target's values; the situation fields go back to their defaults (nothing stale carries
//   over); a value typed into a fighter's field is kept for him at once (a step);
// - the effects on the actor and the target (betäubt …) are said beside each helper; where a
//   helper has the condition as a field of the situation („Angreifer ist betäubt“, „Ziel ist
//   festgehalten“), the effect ticks it (effectSituation);
// - after a roll the values are kept for those fighters; a result's `target_update` (e.g. LeP
//   after damage) is written to the target as a step shown in the result with its own
//   „Rückgängig“; its `follow_ups` become buttons that open the next helper filled.

import { defaultValue, fill, formerNames, withoutPerRoll } from "../helpers/forms.js";
import * as journalOf from "./journal.js";
import { notice, outcomeEnd } from "../helpers/results.js";
import * as savedValues from "../helpers/saved.js";
import * as store from "../common/store.js";
import { el, germanNumber, isObject, ownValue } from "../common/util.js";

export function key(system) {
  return `kampf:${system}`;
}

// The stored journal, checked (an unusable one is kept as a backup, with a notice).
export function load(bench) {
  const { value, problem } = store.read(key(bench.system), journalOf.check);
  bench.journal = journalOf.renamed(journalOf.fromStored(value), formerOf(bench));
  bench.fight = journalOf.stateOf(bench.journal);
  bench.source = store.peek(key(bench.system));
  return problem;
}

// The former names of the system's fields, as every helper of it on the page has them
// (forms.js formerNames; the Tickleiste's too).
function formerOf(bench) {
  if (typeof document === "undefined" || typeof document.querySelectorAll !== "function") return {};
  const helper = [...document.querySelectorAll(".rw-helper[data-formerly]")].find((h) => h.dataset.system === bench.system);
  return helper ? formerNames(helper) : {};
}

// The fight of a system as it stands (a copy, read from what is stored): for the tests and
// custom widgets (the facade's Regelwerk.fight); changing it changes nothing.
export function current(system) {
  const bench = { system };
  load(bench);
  return bench.fight;
}

// Another tab (the same fight on another page) may have written since this page read it.
export function changedElsewhere(bench) {
  return store.peek(key(bench.system)) !== bench.source;
}

// The views of a fight in this tab (the fight bar of a Kampfhelfer page, a Tickleiste): each
// {system, connected(), follow()} – follow() reads the fight again and shows it. A step one
// view writes is shown by the others at once; a step another tab wrote arrives by the
// browser's storage event.
const views = new Set();

export function attach(view) {
  views.add(view);
  if (views.size === 1) window.addEventListener("storage", fromOtherTab);
}

function connectedViews() {
  for (const view of [...views]) if (!view.connected()) views.delete(view);
  return [...views];
}

function others(view) {
  return connectedViews().filter((other) => other !== view && other.system === view.system);
}

function fromOtherTab(event) {
  for (const view of connectedViews()) {
    if (event.key === `regelwerk:${key(view.system)}` && changedElsewhere(view)) {
      load(view);
      view.follow();
    }
  }
}

// `state`: the fight after the journal, where the caller has it (else it is reduced anew).
function write(bench, journal, state = journalOf.stateOf(journal)) {
  bench.journal = journal;
  bench.fight = state;
  const problem = store.write(key(bench.system), journal);
  bench.source = store.peek(key(bench.system));
  if (problem && bench.notices) notice(bench.notices, `Nicht gespeichert: ${problem}`, "error");
  for (const other of others(bench)) {
    if (problem) {
      // not stored: the other view of this tab takes the fight as it is here
      Object.assign(other, { journal: bench.journal, fight: bench.fight, source: bench.source });
    } else {
      load(other);
    }
    other.follow();
  }
}

// „betäubt (Grashak), Segen (Alrik)“
export function expiredText(ends) {
  return ends.map((end) => `${end.name} (${end.fighter})`).join(", ");
}

// The one way to change the fight: a named step. → true when it changed something. A step that
// moves the fight's time on (Weiter, a new order, a Tickleiste command) is followed by a step of
// its own for the effects that have run out by it (named, undoable like any other).
export function dispatch(bench, label, event) {
  if (changedElsewhere(bench)) load(bench); // the newest fight, then this step on top
  let { journal, changed, state } = journalOf.record(bench.journal, label, event, bench.fight);
  if (changed && journalOf.movesTime(event)) {
    const ends = journalOf.expiring(state);
    if (ends.length) {
      const end = { type: "effect-end", ends: ends.map(({ fighter, id }) => ({ fighter, id })), expired: true };
      ({ journal, state } = journalOf.record(journal, `Abgelaufen: ${expiredText(ends)}`, end, state));
    }
  }
  if (changed) write(bench, journal, state);
  if (bench.changed) bench.changed();
  return changed;
}

// Undo/redo: → the step taken back (or put back), or null.
export function undo(bench, direction) {
  if (changedElsewhere(bench)) load(bench);
  const moved = direction === "redo" ? journalOf.redo(bench.journal) : journalOf.undo(bench.journal);
  if (!moved) return null;
  write(bench, moved.journal);
  return moved.step;
}

export function names(bench) {
  const seen = [...new Set([...bench.roster, ...Object.keys(bench.fight.fighters)])];
  return seen.filter((name) => bench.roster.length === 0 || bench.roster.includes(name));
}

export function stateOf(fight, name) {
  return journalOf.stateOfFighter(fight, name);
}

export function canAct(fight, name) {
  return journalOf.canAct(fight, name);
}

// ------------------------------------------------------------------ filling the helpers

function fieldsOf(helper, subject) {
  return [...helper.querySelectorAll(`.rw-form .rw-field[data-subject="${subject}"] [data-path][data-type]`)];
}

export function titleOf(helper) {
  const title = helper.querySelector(".rw-title");
  return title ? title.textContent.replace("Würfelhelfer: ", "").trim() : helper.dataset.action;
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
// (stats); for the actor his values of this helper, and what happened to him since (his
// wounds, taken as a target) winning – a field of the same name is the same value of the same
// fighter. Empty when that fighter is not chosen or not known yet.
export function knownValues(bench, helper, subject) {
  const name = subject === "target" ? bench.fight.target : bench.fight.actor;
  const record = name ? ownValue(bench.fight.fighters, name) : undefined;
  if (!record) return {};
  if (subject === "target") return { ...record.stats };
  // of his values as a target only what results changed (his LeP, Wunden: resources) – not
  // the Akrobatik he once defended with, which shares its field names with his attack talent
  const changed = {};
  for (const { key } of resourcesOf(bench)) if (Object.hasOwn(record.stats, key)) changed[key] = record.stats[key];
  return { ...(ownValue(record.actions, helper.dataset.action) || {}), ...changed };
}

// The resources of this page, read once from its forms: every target field a result may
// change (data-resource: LeP, Wunden, Trefferpunkte …), once per key, with its name and limits.
export function resourcesOf(bench) {
  if (bench.resources) return bench.resources;
  const found = new Map();
  for (const helper of bench.helpers()) {
    for (const field of helper.querySelectorAll('.rw-form .rw-field[data-subject="target"][data-resource]')) {
      const input = field.querySelector("[data-path][data-type]");
      if (!input || found.has(input.dataset.path)) continue;
      found.set(input.dataset.path, {
        key: input.dataset.path,
        name: field.dataset.resource || resourceName(helper, input.dataset.path),
        min: input.min === "" ? null : Number(input.min),
        max: input.max === "" ? null : Number(input.max),
      });
    }
  }
  bench.resources = [...found.values()];
  return bench.resources;
}

function fillHelper(bench, helper, changed) {
  const action = helper.dataset.action;
  const { actor, target } = bench.fight;
  const presets = (helper.dataset.preset || "").split(",").filter(Boolean);
  const situation = [...helper.querySelectorAll(".rw-form .rw-field:not([data-subject]) [data-path][data-type]")]
    .filter((input) => input.dataset.type !== "seed" && !presets.includes(input.dataset.path) && !input.closest(".rw-list"));
  if (changed.actor && !changed.initial && situation.length) setFields(helper, situation, null);
  if (changed.actor) {
    const record = actor ? ownValue(bench.fight.fighters, actor) : undefined;
    const rolled = record && ownValue(record.actions, action);
    const set = actor && !rolled ? savedSet(bench, action, actor) : null;
    const values = { ...((set && set.values) || {}), ...knownValues(bench, helper, "actor") };
    if (actor) setFields(helper, fieldsOf(helper, "actor"), values, actor);
  }
  if (changed.target && target) {
    setFields(helper, fieldsOf(helper, "target"), knownValues(bench, helper, "target"), target);
  }
  const note = helper.querySelector(".rw-fight-note") || el("p", "rw-fight-note");
  const parts = [];
  if (actor && fieldsOf(helper, "actor").length) parts.push(`Werte von ${actor}`);
  if (target && fieldsOf(helper, "target").length) parts.push(`Ziel: ${target}`);
  // what lies on them (betäubt, festgehalten …): the game master weighs it in the roll
  for (const name of [actor, target]) {
    const effects = name ? journalOf.effectsOf(bench.fight, name) : [];
    if (effects.length) parts.push(`${name}: ${effects.map((e) => effectText(bench.fight, e)).join(", ")}`);
  }
  note.textContent = parts.join(" – ");
  note.hidden = !parts.length;
  if (!note.isConnected) helper.querySelector(".rw-form .rw-summary").after(note);
  effectSituation(bench, helper);
}

// Where a helper has the condition as a field of the situation – „Angreifer ist betäubt“,
// „Ziel ist betäubt“, „Ziel ist festgehalten“ (Güte: the rules give them their numbers,
// engine/systems/guete/modifiers.py) – an effect of that name on the actor (Angreifer) or
// the target (Ziel) sets it, as the acting order sets DSA's second action (fight-bar.js), and
// the helper says so. Set once per effect and fighter: the game master can clear it for a
// roll; when the effect ends or another fighter is chosen, the field goes back.
const CONDITION_FIELD = /^(Angreifer|Ziel) (?:ist (.+)|(liegt|kniet))$/;
const POSTURE = { liegt: "liegend", kniet: "kniend" }; // „Angreifer liegt“ ↔ the effect „liegend“

function effectSituation(bench, helper) {
  const applied = helper.rwEffectFields || {};
  const now = {};
  const values = {};
  const said = [];
  for (const input of helper.querySelectorAll('.rw-form .rw-field:not([data-subject]) [data-path][data-type="bool"]')) {
    const label = labelOf(helper, input);
    const match = CONDITION_FIELD.exec(label);
    if (!match) continue;
    const name = match[1] === "Angreifer" ? bench.fight.actor : bench.fight.target;
    const wanted = (match[2] || POSTURE[match[3]]).trim().toLowerCase();
    const effect = name ? journalOf.effectsOf(bench.fight, name).find((e) => e.name.trim().toLowerCase() === wanted) : null;
    const path = input.dataset.path;
    if (effect) {
      now[path] = `${name}\u0000${effect.id}`;
      if (applied[path] !== now[path]) values[path] = true;
      said.push(`„${label}“ (${name}: ${effect.name}, ${effectLeft(bench.fight, effect.until)})`);
    } else if (applied[path]) {
      values[path] = defaultValue(input);
    }
  }
  helper.rwEffectFields = now;
  if (Object.keys(values).length) fill(helper, values);
  let note = helper.querySelector(".rw-effect-note");
  if (!said.length) {
    if (note) note.hidden = true;
    return;
  }
  if (!note) {
    note = el("p", "rw-fight-note rw-effect-note");
    helper.querySelector(".rw-form .rw-summary").after(note);
  }
  note.textContent = `Aus den Wirkungen gesetzt: ${said.join(", ")} – abwählen, wenn es für diesen Wurf nicht zutrifft.`;
  note.hidden = false;
}

// „betäubt (noch 2 Runden; Güte S. 12)“: an effect with what is left of it, in the fight's time.
export function effectLeft(fight, until) {
  if (until.unit === "ticks") {
    const now = journalOf.boardNow(fight.board);
    const left = now === null ? null : until.tick - now;
    return left === null ? `bis Tick ${until.tick}` : `bis Tick ${until.tick}, noch ${germanNumber(left)} ${left === 1 ? "Tick" : "Ticks"}`;
  }
  if (until.unit === "zuege") {
    return until.left === 1 ? `bis ${until.who} handelt` : `bis ${until.who} ${germanNumber(until.left)}-mal gehandelt hat`;
  }
  const rounds = until.round - fight.round;
  if (rounds <= 0) return "endet in dieser Runde";
  return `noch ${germanNumber(rounds)} ${rounds === 1 ? "Runde" : "Runden"}`;
}

export function effectText(fight, effect) {
  const ref = effect.ref ? `; ${effect.ref}` : "";
  return `${effect.name} (${effectLeft(fight, effect.until)}${ref})`;
}

export function fillAll(bench, changed) {
  bench.helpers().forEach((helper) => fillHelper(bench, helper, changed));
}

// ------------------------------------------------------------------ values typed for a fighter

function valueOf(input) {
  return input.dataset.type === "bool" ? input.checked : input.value;
}

function valuesOf(helper, subject) {
  const out = {};
  for (const input of fieldsOf(helper, subject)) {
    if (!input.disabled) out[input.dataset.path] = valueOf(input);
  }
  return out;
}

// The label of a field as the reader sees it (soft hyphens out).
export function labelOf(helper, input) {
  const label = input && input.id ? helper.querySelector(`label[for="${CSS.escape(input.id)}"]`) : null;
  return label ? label.textContent.replace(/\u00ad/g, "").trim() : input ? input.dataset.path : "";
}

// What a result changed, in the words of the rules: the resource's own name from the schema
// (data-resource, e.g. „LeP“), else the field's label – never the raw key („lep“, „hp“).
export function resourceName(helper, key) {
  const input = helper.querySelector(`.rw-form [data-path="${CSS.escape(key)}"]`);
  const field = input && input.closest(".rw-field");
  if (field && field.dataset.resource) return field.dataset.resource;
  return input ? labelOf(helper, input) : key;
}

function shown(value) {
  if (typeof value === "number") return germanNumber(value);
  if (typeof value === "boolean") return value ? "ja" : "nein";
  const text = String(value);
  return /^-?\d+(\.\d+)?$/.test(text) ? germanNumber(Number(text)) : text.slice(0, 30);
}

// A value typed into a fighter's field is his at once (one step per fighter and helper while
// typing goes on), so changing the target and back never throws it away.
export function keepTyped(bench, helper, input) {
  const field = input.closest(".rw-field[data-subject]");
  if (!field || input.dataset.type === "seed" || input.closest(".rw-list")) return;
  const subject = field.dataset.subject;
  const name = subject === "target" ? bench.fight.target : bench.fight.actor;
  if (!name) return;
  const values = { [input.dataset.path]: valueOf(input) };
  const where = subject === "actor" ? ` (${titleOf(helper)})` : "";
  const label = `${name}${where}: ${labelOf(helper, input)} ${shown(valueOf(input))}`;
  const event = subject === "actor"
    ? { type: "values", fighter: name, action: helper.dataset.action, values }
    : { type: "values", fighter: name, values };
  dispatch(bench, label, event);
}

// ------------------------------------------------------------------ after a roll

// „LeP 30 → 24, Wunden 0 → 1“: what a result writes for the target, with the value before.
function changesText(helper, before, update) {
  return Object.entries(update)
    .map(([k, v]) => {
      const was = ownValue(before, k);
      const from = was === undefined || was === "" || String(was) === String(v) ? "" : `${shown(was)} → `;
      return `${resourceName(helper, k)} ${from}${shown(v)}`;
    })
    .join(", ");
}

// What the fight makes of a result (what was written, the next steps) stands right below its
// outcome, beside „Würfeln“ – not under the dice and chances a screen further down.
function placeAfterOutcome(helper, node) {
  const result = helper.querySelector(".rw-result");
  const after = outcomeEnd(result);
  if (after) after.after(node);
  else result.appendChild(node);
}

function undoButton(bench, label) {
  const button = el("button", "md-button rw-step-undo", "Rückgängig");
  button.type = "button";
  button.setAttribute("aria-label", `Rückgängig: ${label}`);
  button.addEventListener("click", () => bench.undoStep(label));
  return button;
}

export function afterRoll(bench, helper, body, how = "") {
  const { actor, target } = bench.fight;
  const update = isObject(body.result.target_update) ? body.result.target_update : null;
  const event = {
    type: "roll",
    action: helper.dataset.action,
    actor: actor && fieldsOf(helper, "actor").length ? actor : null,
    target: target && (fieldsOf(helper, "target").length || update) ? target : null,
    actorValues: valuesOf(helper, "actor"),
    targetValues: valuesOf(helper, "target"),
    update: target ? update : null,
    state: body.result.target_state || null,
  };
  if (!event.actor && !event.target) {
    followUps(bench, helper, body.result.follow_ups);
    return;
  }
  // what the roll started from: the target's values as the fight knew them and as the form sent them
  const before = event.target ? { ...(ownValue(bench.fight.fighters, target) || { stats: {} }).stats, ...event.targetValues } : {};
  let label = `${how}${titleOf(helper)}: Werte von ${[event.actor, event.target].filter(Boolean).join(" und ")}`;
  let said = "";
  if (event.update) {
    const changes = changesText(helper, before, event.update);
    const state = journalOf.apply(bench.fight, event);
    const now = stateOf(state, target);
    const down = now && now.zustand !== "kampffähig" ? ` – ${target} ist jetzt ${now.text}` : "";
    label = `${how}${titleOf(helper)}: ${target} ${changes}${down}`;
    said = `Für ${target} übernommen: ${changes}.${down ? ` ${target} ist jetzt ${now.text}.` : ""}`;
  }
  const changed = dispatch(bench, label, event);
  if (said) {
    const note = el("p", "rw-fight-note rw-fight-written", `${said} `);
    if (changed) note.appendChild(undoButton(bench, label));
    placeAfterOutcome(helper, note);
    fillAll(bench, { target: true });
  }
  followUps(bench, helper, body.result.follow_ups);
  offerFall(bench, helper, body.result.sturz);
}

// A result that makes the acting fighter fall (`sturz`, Güte's Rundumschlag failing
// critically, 002 L289): how long he lies depends on his FP(Gaukeleien) (L79–L83), which the
// game master rolls at the table – each answer is a step that puts „liegend“ on him, until
// the next round's Bewegungsphase (gelungen) or through the whole next round (misslungen); in
// a fight without an order, until he has acted once or twice. „Liegend“ then sets the helpers'
// „Angreifer liegt“ / „Ziel liegt“ as any effect sets its field.
export const FALL_EFFECT = "liegend";

function offerFall(bench, helper, fall) {
  const actor = bench.fight.actor;
  if (!isObject(fall) || fall.wer !== "angreifer" || !actor) return;
  const ordered = (bench.fight.turns || []).length > 0;
  const round = bench.fight.round || 1;
  const line = typeof fall.zeile === "string" ? fall.zeile.slice(0, 20) : "";
  const choices = [
    ["FP(Gaukeleien) gelungen", "steht in der nächsten Bewegungsphase auf", ordered ? { unit: "runden", round: round + 1, turn: 0 } : { unit: "zuege", who: actor, left: 1 }],
    ["FP(Gaukeleien) misslungen", "liegt die ganze nächste Runde", ordered ? { unit: "runden", round: round + 2, turn: 0 } : { unit: "zuege", who: actor, left: 2 }],
  ];
  const bar = el("div", "rw-follow-ups rw-fall");
  bar.appendChild(el("span", "rw-follow-ups-title", `${actor} stürzt${line ? ` (${line})` : ""} – seine FP(Gaukeleien):`));
  for (const [answer, meaning, until] of choices) {
    const button = el("button", "md-button", `${answer}: ${meaning}`);
    button.type = "button";
    button.addEventListener("click", () => {
      const effect = { id: `w${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`, name: FALL_EFFECT, ref: `Sturz, ${answer}`, until };
      const label = `${actor} stürzt: ${FALL_EFFECT} (${effectLeft(bench.fight, until)})`;
      const changed = dispatch(bench, label, { type: "effect", fighter: actor, effect });
      fillAll(bench, {});
      const note = el("p", "rw-fight-note rw-fight-written", `Für ${actor} übernommen: ${FALL_EFFECT} (${effectLeft(bench.fight, until)}). `);
      if (changed) note.appendChild(undoButton(bench, label));
      bar.replaceWith(note);
    });
    bar.appendChild(button);
  }
  placeAfterOutcome(helper, bar);
}

// A shared roll (a link) is shown beside the fight: the form goes back to the fighters' values
// at once, and only „In den Kampf übernehmen“ writes the link's values for the fighters now
// chosen (the same step as one of their own rolls).
export function offerSharedRoll(bench, helper, detail) {
  fillHelper(bench, helper, { actor: true, target: true });
  const { actor, target } = bench.fight;
  if (!actor && !target) return;
  const who = [actor && `Werte für ${actor}`, target && `Ziel ${target}`].filter(Boolean).join(", ");
  const what = detail.fromLog ? "Wiederholter Wurf" : "Geteilter Wurf";
  const bar = el("div", "rw-follow-ups rw-shared-take");
  const button = el("button", "md-button", "In den Kampf übernehmen");
  button.type = "button";
  button.addEventListener("click", () => {
    // the link's values of the fighters; its per-roll values were for that roll only
    fill(helper, withoutPerRoll(helper, detail.params || {}));
    afterRoll(bench, helper, detail, `${what} – `);
    bar.replaceChildren(el("span", "rw-fight-note", `In den Kampf übernommen (${who}).`));
  });
  bar.append(el("span", "rw-follow-ups-title", `${what} – der Kampf bleibt, wie er ist (${who}).`), button);
  placeAfterOutcome(helper, bar);
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
function knownOfBoth(bench, helper) {
  return { actor: knownValues(bench, helper, "actor"), target: knownValues(bench, helper, "target") };
}

function knownValuesWin(bench, next, params) {
  const out = {};
  const known = knownOfBoth(bench, next);
  for (const [name, value] of Object.entries(params)) {
    const field = next.querySelector(`.rw-form .rw-field[data-subject] [data-path="${CSS.escape(name)}"]`);
    const subject = field && field.closest(".rw-field").dataset.subject;
    if (subject && known[subject] && Object.hasOwn(known[subject], name)) continue;
    out[name] = value;
  }
  return out;
}

// A follow-up for a widget (the Tickleiste: the defender's Aktive Abwehr costs him 4 Ticks) is
// a proposed step for a fighter of the fight (`fighter`: "actor" or "target"): its button names
// him, and only a click gives the widget the command (regelwerk:follow-up), as its own step.
function widgetStep(bench, helper, item) {
  const widget = bench.widgets().find((h) => h.dataset.action === item.action);
  const name = item.fighter === "target" || item.fighter === "actor" ? bench.fight[item.fighter] : null;
  if (!widget || !name) return null;
  const button = el("button", "md-button", `${item.title}: ${name} ▸`);
  button.type = "button";
  button.addEventListener("click", () => {
    button.disabled = true;
    widget.dispatchEvent(new CustomEvent("regelwerk:follow-up", { detail: { params: { ...(item.params || {}), fighter: name } } }));
  });
  return button;
}

// The fighters' values a follow-up's helper needs and the fight does not know (or the
// follow-up does not bring): its fields of a fighter that are in use. Empty: it can be rolled
// at once, with nothing from a default standing in for a fighter's value.
function missingValues(bench, next, params) {
  const known = knownOfBoth(bench, next);
  const missing = [];
  for (const input of next.querySelectorAll(".rw-form .rw-field[data-subject] [data-path][data-type]")) {
    const field = input.closest(".rw-field");
    if (input.disabled || field.hidden || input.dataset.type === "text" || input.closest(".rw-list")) continue;
    const name = input.dataset.path;
    if (Object.hasOwn(params, name) || Object.hasOwn(known[field.dataset.subject] || {}, name)) continue;
    missing.push(labelOf(next, input));
  }
  return missing;
}

function followUps(bench, helper, items) {
  if (!Array.isArray(items) || !items.length) return;
  const bar = el("div", "rw-follow-ups");
  bar.appendChild(el("span", "rw-follow-ups-title", "Weiter nach den Regeln:"));
  for (const item of items) {
    if (!isObject(item)) continue;
    const proposed = item.fighter ? widgetStep(bench, helper, item) : null;
    if (proposed) {
      bar.appendChild(proposed);
      continue;
    }
    const next = bench.helpers().find((h) => h.dataset.action === item.action);
    if (!next) continue;
    const params = item.params || {};
    const open = () => {
      fill(next, knownValuesWin(bench, next, params));
      openHelper(next);
      next.querySelector(".rw-submit").focus({ preventScroll: true });
    };
    const button = el("button", "md-button", `${item.title} ▸`);
    button.type = "button";
    button.addEventListener("click", open);
    bar.appendChild(button);
    // with every fighter's value known, the next roll is one click: filled, rolled, shown
    // (what it wrote then stands in its result, with its own „Rückgängig“)
    const target = bench.fight.target;
    if (target && !missingValues(bench, next, params).length) {
      const roll = el("button", "md-button md-button--primary rw-follow-roll", `${item.title}: würfeln ⚄`);
      roll.type = "button";
      roll.title = `Mit den bekannten Werten von ${target} gleich würfeln`;
      roll.addEventListener("click", () => {
        roll.disabled = true;
        open();
        next.querySelector(".rw-form").requestSubmit();
      });
      bar.appendChild(roll);
    }
  }
  if (bar.children.length > 1) placeAfterOutcome(helper, bar);
}
