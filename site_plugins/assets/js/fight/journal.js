// Regelwerk – fight/journal.js: the one fight of a system, as a journal of named steps.
//
// Pure logic, no page: the fight store (fight/store.js) is its one writer. The fight is never
// edited in place; every change – choosing who acts and against whom, a new acting order,
// „Weiter“, a roll's consequence, a value typed for a fighter, a correction in the overview, a
// Tickleiste command – is a step {label, event, n}. `apply(state, event)` (fight/reducer.js,
// where the state and the events are described) turns a step into the next state; the state is
// `base` with every step applied in order.
// - undo takes the last change off (onto `redo`), together with the choices of actor and
//   target it was made with (the choose steps right before it, since the change before): after
//   „Rückgängig“ the fight – who acts, against whom – is as it was before them; choices made
//   after the change stay (the right target chosen after a wrong hit stays chosen). Redo puts
//   the change back with its choices; a new change clears `redo`, a choice does not.
// - at most STEPS_MAX changes are kept (and STEPS_MAX × 4 steps in all): the oldest step is
//   then folded into `base` (`folded`: the number of the last step folded in);
// - every step has a number `n` (`seq`: the next one), so a roll log can tell whether the step
//   its roll made still stands (`stepStands`);
// - two tabs with the same fight append to the stored journal they read last (the store reads
//   it again before every step), so no step is lost.
//
// Stored (localStorage "regelwerk:kampf:<system>", version 2):
//   {version: 2, base: <state>, steps: [{label, event, n}], redo: [{label, event, n, with?}],
//    seq, folded}     (`with`: the choose steps undone with the change; seq/folded/n may be
//                      missing in what older pages stored)

import { isObject, renameValues } from "../common/util.js";
import { apply, copy, emptyState, setOwn } from "./reducer.js";

export const VERSION = 2;
export const STEPS_MAX = 100; // changes that can be taken back
const LABEL_MAX = 200; // a step's name: what it changed, with the system's words for the state

export function emptyJournal() {
  return { version: VERSION, base: emptyState(), steps: [], redo: [], seq: 1, folded: 0 };
}

// ------------------------------------------------------------------ checking what is stored

function checkState(state) {
  if (!isObject(state) || !isObject(state.fighters)) return "die Kämpfer fehlen";
  if (state.turns !== undefined && !Array.isArray(state.turns)) return "die Reihenfolge ist beschädigt";
  if (state.board !== undefined && state.board !== null && !isObject(state.board)) return "die Tickleiste ist beschädigt";
  for (const record of Object.values(state.fighters)) {
    if (!isObject(record)) return "ein Kämpfer ist beschädigt";
  }
  return "";
}

function isStep(s) {
  return isObject(s) && typeof s.label === "string" && isObject(s.event) && typeof s.event.type === "string" &&
    (s.n === undefined || Number.isInteger(s.n)) && (s.with === undefined || (Array.isArray(s.with) && s.with.every(isStep)));
}

function checkSteps(steps) {
  if (!Array.isArray(steps)) return "die Liste der Schritte ist beschädigt";
  return steps.every(isStep) ? "" : "ein Schritt ist beschädigt";
}

// "" when a stored value can be used (version 2, or version 1: the fight without steps), else
// a German description of what is wrong (the store then keeps it as a backup).
export function check(value) {
  if (!isObject(value)) return "kein Speicherstand eines Kampfes";
  if (value.version === 1) return checkState(value);
  if (value.version !== VERSION) return "unbekannte Version des Speicherstands";
  return checkState(value.base) || checkSteps(value.steps) || checkSteps(value.redo);
}

// Steps numbered where an older page stored them without numbers; `seq` after the highest.
function numbered(journal) {
  let seq = Number.isInteger(journal.seq) && journal.seq > 0 ? journal.seq : 1;
  const folded = Number.isInteger(journal.folded) && journal.folded >= 0 ? journal.folded : 0;
  for (const s of [...journal.steps, ...journal.redo]) if (Number.isInteger(s.n)) seq = Math.max(seq, s.n + 1);
  seq = Math.max(seq, folded + 1);
  const number = (s) => (Number.isInteger(s.n) ? s : { ...s, n: seq++ });
  const steps = journal.steps.map(number);
  const redo = journal.redo.map(number);
  return { version: VERSION, base: journal.base, steps, redo, seq, folded };
}

export function fromStored(value) {
  if (!value) return emptyJournal();
  if (value.version === 1) {
    const { version, ...state } = value;
    return { ...emptyJournal(), base: normalState(state) };
  }
  return numbered({ ...value, base: normalState(value.base) });
}

// A fight stored before a field was renamed (the engine's `formerly`; `formerly`: {old: new},
// the page's map of the system, helpers/forms.js formerNames) keeps its values: `renamed`
// writes them under the new names – in `base` and in every step's values (and a correction's
// field) – so `apply` and the pages only ever meet the names of now. A value under the new name
// wins.
export function renamed(journal, formerly) {
  if (!isObject(formerly) || !Object.keys(formerly).length) return journal;
  const base = copy(journal.base);
  for (const record of Object.values(base.fighters)) {
    if (!isObject(record)) continue;
    if (isObject(record.stats)) record.stats = renameValues(record.stats, formerly);
    if (!isObject(record.actions)) continue;
    for (const [action, values] of Object.entries(record.actions)) setOwn(record.actions, action, renameValues(values, formerly));
  }
  const step = (s) => ({ ...s, event: renamedEvent(s.event, formerly), ...(s.with ? { with: s.with.map(step) } : {}) });
  return { ...journal, base, steps: journal.steps.map(step), redo: journal.redo.map(step) };
}

function renamedEvent(event, formerly) {
  const out = { ...event };
  for (const key of ["values", "actorValues", "targetValues", "update"]) {
    if (isObject(out[key])) out[key] = renameValues(out[key], formerly);
  }
  if (out.type === "correct" && typeof out.field === "string" && Object.hasOwn(formerly, out.field)) out.field = formerly[out.field];
  return out;
}

function normalState(state) {
  const out = { ...emptyState(), ...copy(state) };
  if (!Array.isArray(out.turns)) out.turns = [];
  if (!Number.isInteger(out.turn) || out.turn < 0 || out.turn >= Math.max(out.turns.length, 1)) out.turn = 0;
  if (!Number.isInteger(out.round) || out.round < 1) out.round = 1;
  return out;
}

export function stateOf(journal) {
  return journal.steps.reduce((state, step) => apply(state, step.event), journal.base);
}

// ------------------------------------------------------------------ recording, undo, redo

// The same fight, whatever order its keys were written in (a form sends its fields in the
// page's order, a stored record keeps the order they came in).
function stable(value) {
  if (Array.isArray(value)) return `[${value.map(stable).join(",")}]`;
  if (isObject(value)) {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${stable(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value === undefined ? null : value);
}

export function same(a, b) {
  return stable(a) === stable(b);
}

// A choice of actor and target: kept, but no change to take back.
export function isChoice(step) {
  return step.event.type === "choose";
}

function changes(steps) {
  return steps.filter((step) => !isChoice(step)).length;
}

// Consecutive values typed for the same fighter in the same helper are one step: undo takes
// back the typing, not each keystroke's field.
function continues(last, event) {
  return (
    last && event.type === "values" && last.event.type === "values" &&
    last.event.fighter === event.fighter && (last.event.action || "") === (event.action || "")
  );
}

// → {journal, changed, state, step}: the journal with the step appended (redo cleared, unless it
// is a choice), or the same journal when the step changes nothing; `state` is the fight after
// it (no second reduce). `before`: the journal's state, where the caller holds it.
export function record(journal, label, event, before = stateOf(journal)) {
  const after = apply(before, event);
  if (same(before, after)) return { journal, changed: false, state: before, step: null };
  const text = String(label).slice(0, LABEL_MAX);
  let steps;
  let seq = journal.seq;
  const last = journal.steps[journal.steps.length - 1];
  let step;
  if (continues(last, event)) {
    step = { label: text, event: { ...event, values: { ...last.event.values, ...event.values } }, n: last.n };
    steps = [...journal.steps.slice(0, -1), step];
  } else {
    step = { label: text, event, n: seq++ };
    steps = [...journal.steps, step];
  }
  let base = journal.base;
  let folded = journal.folded;
  while (changes(steps) > STEPS_MAX || steps.length > STEPS_MAX * 4) {
    base = apply(base, steps[0].event);
    folded = Math.max(folded, steps[0].n);
    steps = steps.slice(1);
  }
  const redoLeft = isChoice({ event }) ? journal.redo : [];
  return { journal: { version: VERSION, base, steps, redo: redoLeft, seq, folded }, changed: true, state: after, step };
}

function lastChangeAt(journal) {
  for (let i = journal.steps.length - 1; i >= 0; i--) if (!isChoice(journal.steps[i])) return i;
  return -1;
}

// The change „Rückgängig“ takes back (choices are passed over), or null.
export function lastStep(journal) {
  const at = lastChangeAt(journal);
  return at < 0 ? null : journal.steps[at];
}

export function nextRedo(journal) {
  return journal.redo[journal.redo.length - 1] || null;
}

// → {journal, step} | null when there is nothing to undo: the last change goes, with the choices
// made right before it (it was made with them); the choices made after it stay.
export function undo(journal) {
  const at = lastChangeAt(journal);
  if (at < 0) return null;
  let from = at;
  while (from > 0 && isChoice(journal.steps[from - 1])) from -= 1;
  const step = journal.steps[at];
  const chosen = journal.steps.slice(from, at);
  const steps = [...journal.steps.slice(0, from), ...journal.steps.slice(at + 1)];
  const undone = chosen.length ? { ...step, with: chosen } : step;
  return { journal: { ...journal, steps, redo: [...journal.redo, undone] }, step };
}

// → {journal, step} | null: the change last taken back, with the choices it was made with.
export function redo(journal) {
  const entry = nextRedo(journal);
  if (!entry) return null;
  const { with: chosen, ...step } = entry;
  const steps = [...journal.steps, ...(chosen || []), step];
  return { journal: { ...journal, steps, redo: journal.redo.slice(0, -1) }, step };
}

// Does the step numbered `n` still stand (recorded, not taken back)? A step folded into the
// base stands; one taken back – waiting in redo, or gone with it – does not.
export function stepStands(journal, n) {
  if (!Number.isInteger(n)) return true;
  if (n <= journal.folded) return true;
  return journal.steps.some((s) => s.n === n);
}

