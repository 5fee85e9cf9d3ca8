// Regelwerk – fight-journal.js: the one fight of a system, as a journal of named steps.
//
// Pure logic, no page: fight.js is its one writer. The fight is never edited in place; every
// change – choosing who acts and against whom, a new acting order, „Weiter“, a roll's
// consequence, a value typed for a fighter, a correction in the overview – is a step
// {label, event}. `apply(state, event)` is the one function that turns a step into the next
// state; the state is `base` with every step applied in order. So:
// - undo takes the last change off (onto `redo`), redo puts it back; a new change clears
//   `redo`. Choosing who acts and against whom is kept as a step too (stored, shared with the
//   other tab, in the history) but is no change of the fight: undo passes over it and takes
//   back the change before it, and the choice stays – choose events carry absolute values,
//   so the later choices apply as before. („Rückgängig“ after the wrong target was hit and
//   the right one chosen takes back the damage, not the choice.)
// - at most STEPS_MAX changes are kept (and STEPS_MAX × 4 steps in all): the oldest step is
//   then folded into `base` (the reader's roll log keeps the rolls themselves);
// - two tabs with the same fight (the rule page, the Kampfhelfer page) append to the stored
//   journal they read last (fight.js reads it again before every step), so no step is lost.
//
// The state (shape of version 1, which is taken over as `base`):
//   {fighters: {<name>: {actions: {<action>: {field: value}}, stats: {field: value},
//                        state: {zustand, text} | null,
//                        side, lastTarget, effects: [<effect>]},
//    actor, target, turns: [{name, label, situation?}], turn, round, board: <the Tickleiste's engine state> | null}
// An effect on a fighter (a condition such as „betäubt“, a spell's duration) – it runs out by
// itself as the fight's time goes on, in the system's own time:
//   {id, name, ref?, until}  until: {unit: "runden", round, turn}  ends when the order reaches
//                                   that round and turn (the same place N rounds later)
//                                   {unit: "ticks", tick}          ends when the Tickleiste's
//                                   current tick reaches `tick`
//                                   {unit: "zuege", who, left}     ends when `who` has begun
//                                   `left` more turns („bis Alrik handelt“: left 1); each turn
//                                   of his begun (a „Weiter“ onto him, the Tickleiste making him
//                                   next) counts one down
// What has run out is listed by `expiring(state)`; fight.js then records its end as a step of
// its own („Abgelaufen: betäubt (Grashak)“), which „Rückgängig“ takes back like any other.
// Stored (localStorage "regelwerk:kampf:<system>", version 2):
//   {version: 2, base: <state>, steps: [{label, event}], redo: [{label, event}]}
//
// Events (each carries the values it writes; none depends on the page):
//   choose     {actor, target}                       who acts, against whom
//   turn       {turn, actor, target, round?}         „Weiter“/„Zurück“ in the acting order
//                                                    (round: the round it is in, ≥ 1; a turn
//                                                    forward counts for effects „zuege“)
//   order      {turns, sides, actor, target, round?} a new acting order (an initiative roll;
//                                                    sides: {<name>: „Helden“ …} where known;
//                                                    round: 1 without, its first turn begun)
//   values     {fighter, action?, values}            values typed for a fighter (action: his
//                                                    values for that helper, else his stats)
//   roll       {action, actor, target, actorValues, targetValues, update, state}
//                                                    what a roll keeps and changes
//   correct    {fighter, field, value}               a value set in the overview (null: unknown)
//   condition  {fighter, state}                      kampffähig / kampfunfähig / tot, by hand
//   board      {state, next, fighter?, action?, values?}
//                                                    the Tickleiste after a command (Ryssea): the
//                                                    engine's state of the board ({}: empty);
//                                                    next (who is next on it) is then „Am Zug“;
//                                                    values: the acting fighter's own (his Ticks
//                                                    per action), kept for his next command
//                                                    (a new head of the board – first on the
//                                                    current tick – begins that fighter's turn)
//   effect     {fighter, effect}                     an effect put on a fighter (see above)
//   effect-end {ends: [{fighter, id}], expired?}     effects taken off (by hand, or run out:
//                                                    expired true)
//   end        {}                                    a new fight: states, resources, effects and
//                                                    the order go, each fighter's own values
//                                                    stay (the Tickleiste has its own „Neu
//                                                    beginnen“)

import { isObject, ownValue, renameValues } from "../common/util.js";

export const VERSION = 2;
export const STEPS_MAX = 100; // changes that can be taken back
export const STATES = ["kampffähig", "kampfunfähig", "tot"];
export const UNITS = ["runden", "ticks", "zuege"];
export const EFFECT_NAME_MAX = 40;
export const EFFECT_REF_MAX = 80;
export const EFFECTS_MAX = 12; // per fighter
const LABEL_MAX = 120;

export function emptyState() {
  return { fighters: {}, actor: null, target: null, turns: [], turn: 0, round: 1, board: null };
}

export function emptyJournal() {
  return { version: VERSION, base: emptyState(), steps: [], redo: [] };
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

function checkSteps(steps) {
  if (!Array.isArray(steps)) return "die Liste der Schritte ist beschädigt";
  if (!steps.every((s) => isObject(s) && typeof s.label === "string" && isObject(s.event) && typeof s.event.type === "string")) {
    return "ein Schritt ist beschädigt";
  }
  return "";
}

// "" when a stored value can be used (version 2, or version 1: the fight without steps), else
// a German description of what is wrong (store.read then keeps it as a backup).
export function check(value) {
  if (!isObject(value)) return "kein Speicherstand eines Kampfes";
  if (value.version === 1) return checkState(value);
  if (value.version !== VERSION) return "unbekannte Version des Speicherstands";
  return checkState(value.base) || checkSteps(value.steps) || checkSteps(value.redo);
}

export function fromStored(value) {
  if (!value) return emptyJournal();
  if (value.version === 1) {
    const { version, ...state } = value;
    return { version: VERSION, base: normalState(state), steps: [], redo: [] };
  }
  return { version: VERSION, base: normalState(value.base), steps: value.steps, redo: value.redo };
}

// A fight stored before a field was renamed (the engine's `formerly`; `formerly`: {old: new},
// the page's map of the system, forms.js formerNames) keeps its values: `renamed` writes them
// under the new names – in `base` and in every step's values (and a correction's field) – so
// `apply` and the pages only ever meet the names of now. A value under the new name wins.
export function renamed(journal, formerly) {
  if (!isObject(formerly) || !Object.keys(formerly).length) return journal;
  const base = copy(journal.base);
  for (const record of Object.values(base.fighters)) {
    if (!isObject(record)) continue;
    if (isObject(record.stats)) record.stats = renameValues(record.stats, formerly);
    if (!isObject(record.actions)) continue;
    for (const [action, values] of Object.entries(record.actions)) {
      Object.defineProperty(record.actions, action, { value: renameValues(values, formerly), enumerable: true, writable: true, configurable: true });
    }
  }
  const step = (s) => ({ ...s, event: renamedEvent(s.event, formerly) });
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

// ------------------------------------------------------------------ the one reducer

function copy(value) {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

// A fighter's record in `fighters` (a fresh copy of the state is changed, never the input);
// fighters may be called anything, „__proto__“ too (ownValue / defineProperty).
function fighterIn(fighters, name) {
  let record = ownValue(fighters, name);
  if (!isObject(record)) {
    record = { actions: {}, stats: {}, state: null };
    Object.defineProperty(fighters, name, { value: record, enumerable: true, writable: true, configurable: true });
  }
  if (!isObject(record.actions)) record.actions = {};
  if (!isObject(record.stats)) record.stats = {};
  return record;
}

function setOwn(object, key, value) {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

function checkedState(state) {
  if (!isObject(state) || !STATES.includes(state.zustand) || typeof state.text !== "string") return null;
  return { zustand: state.zustand, text: state.text.slice(0, 40) };
}

// A turn of the acting order: who, its label, and the situation a helper is set to for it
// (e.g. DSA's second action: {zweite_angriffsaktion: true}; engine/systems/dsa/initiative.py).
function turnOf(turn) {
  const out = { name: turn.name, label: String(turn.label || "") };
  if (isObject(turn.situation)) out.situation = copy(turn.situation);
  return out;
}

// Kept only when the fighter cannot act: kampffähig is the normal case (no state).
function downState(state) {
  const known = checkedState(state);
  return known && known.zustand !== "kampffähig" ? known : null;
}

function choose(next, actor, target) {
  next.actor = typeof actor === "string" && actor ? actor : null;
  next.target = typeof target === "string" && target && target !== next.actor ? target : null;
  if (next.actor && next.target) fighterIn(next.fighters, next.actor).lastTarget = next.target;
}

function merge(into, values) {
  if (!isObject(values)) return;
  for (const [key, value] of Object.entries(values)) {
    if (value === null) delete into[key];
    else setOwn(into, key, value);
  }
}

// ------------------------------------------------------------------ effects and the fight's time

function whole(value, low, high) {
  return Number.isInteger(value) && value >= low && value <= high;
}

// An effect as the reducer keeps it, or null when it is not one (name and duration checked).
export function checkedEffect(effect) {
  if (!isObject(effect) || typeof effect.id !== "string" || !effect.id || effect.id.length > 40) return null;
  if (typeof effect.name !== "string" || !effect.name.trim()) return null;
  const until = effect.until;
  if (!isObject(until) || !UNITS.includes(until.unit)) return null;
  let kept;
  if (until.unit === "runden" && whole(until.round, 1, 100000) && whole(until.turn, 0, 1000)) {
    kept = { unit: "runden", round: until.round, turn: until.turn };
  } else if (until.unit === "ticks" && whole(until.tick, -100000, 100000)) {
    kept = { unit: "ticks", tick: until.tick };
  } else if (until.unit === "zuege" && typeof until.who === "string" && until.who && whole(until.left, 0, 1000)) {
    kept = { unit: "zuege", who: until.who, left: until.left };
  } else {
    return null;
  }
  const out = { id: effect.id, name: effect.name.trim().slice(0, EFFECT_NAME_MAX), until: kept };
  if (typeof effect.ref === "string" && effect.ref.trim()) out.ref = effect.ref.trim().slice(0, EFFECT_REF_MAX);
  return out;
}

export function effectsOf(state, name) {
  const record = ownValue(state.fighters, name);
  if (!isObject(record) || !Array.isArray(record.effects)) return [];
  return record.effects.map(checkedEffect).filter(Boolean);
}

function activeMarkers(board) {
  if (!isObject(board) || !Array.isArray(board.fighters)) return [];
  return board.fighters
    .filter((m) => isObject(m) && m.status === "aktiv" && Number.isInteger(m.tick) && typeof m.name === "string")
    .sort((a, b) => a.tick - b.tick || (a.order || 0) - (b.order || 0));
}

// The fighters on the Tickleiste in acting order (who acts first, who next …).
export function boardOrder(board) {
  return activeMarkers(board).map((m) => m.name);
}

// The Tickleiste's current tick (the lowest tick of a fighter on it), or null.
export function boardNow(board) {
  const line = activeMarkers(board);
  return line.length ? line[0].tick : null;
}

// Who acts first on the board, and since when: a new head is a new turn begun.
function boardHead(board) {
  const first = activeMarkers(board)[0];
  return first ? { name: first.name, key: `${first.tick}:${first.order}:${first.name}` } : null;
}

// A turn of `name` has begun: his effects' and everyone's „bis <name> handelt“ count down.
function turnBegun(state, name) {
  for (const record of Object.values(state.fighters)) {
    if (!isObject(record) || !Array.isArray(record.effects)) continue;
    for (const effect of record.effects) {
      const until = isObject(effect) ? effect.until : null;
      if (isObject(until) && until.unit === "zuege" && until.who === name && Number.isInteger(until.left) && until.left > 0) {
        until.left -= 1;
      }
    }
  }
}

function hasRunOut(state, until) {
  if (until.unit === "runden") {
    return state.turns.length > 0 && (state.round > until.round || (state.round === until.round && state.turn >= until.turn));
  }
  if (until.unit === "ticks") {
    const now = boardNow(state.board);
    return now !== null && now >= until.tick;
  }
  return until.left <= 0;
}

// The effects that have run out in this state: [{fighter, id, name}], in the order of the fighters.
export function expiring(state) {
  const out = [];
  for (const fighter of Object.keys(state.fighters)) {
    for (const effect of effectsOf(state, fighter)) {
      if (hasRunOut(state, effect.until)) out.push({ fighter, id: effect.id, name: effect.name });
    }
  }
  return out;
}

// The steps that move the fight's time on (after them fight.js looks what has run out).
export function movesTime(event) {
  return event.type === "turn" || event.type === "order" || event.type === "board";
}

export function apply(state, event) {
  const next = copy(state);
  switch (event.type) {
    case "choose":
      choose(next, event.actor, event.target);
      break;
    case "turn": {
      const was = { round: next.round, turn: next.turn };
      next.turn = Number.isInteger(event.turn) && event.turn >= 0 && event.turn < next.turns.length ? event.turn : 0;
      if (whole(event.round, 1, 100000)) next.round = event.round;
      const forward = next.round > was.round || (next.round === was.round && next.turn > was.turn);
      if (forward && next.turns[next.turn]) turnBegun(next, next.turns[next.turn].name);
      choose(next, event.actor, event.target);
      break;
    }
    case "order":
      next.turns = Array.isArray(event.turns)
        ? event.turns.filter((t) => isObject(t) && typeof t.name === "string").map(turnOf)
        : [];
      next.turn = 0;
      next.round = whole(event.round, 1, 100000) ? event.round : 1;
      if (next.turns.length) turnBegun(next, next.turns[0].name);
      if (isObject(event.sides)) {
        for (const [name, side] of Object.entries(event.sides)) {
          if (typeof side === "string" && side) fighterIn(next.fighters, name).side = side.slice(0, 30);
        }
      }
      choose(next, event.actor, event.target);
      break;
    case "values": {
      if (typeof event.fighter !== "string" || !event.fighter) break;
      const record = fighterIn(next.fighters, event.fighter);
      if (event.action) {
        const kept = isObject(ownValue(record.actions, event.action)) ? ownValue(record.actions, event.action) : {};
        merge(kept, event.values);
        setOwn(record.actions, event.action, kept);
      } else {
        merge(record.stats, event.values);
      }
      break;
    }
    case "roll": {
      if (event.actor && isObject(event.actorValues)) {
        setOwn(fighterIn(next.fighters, event.actor).actions, event.action, { ...event.actorValues });
      }
      if (event.target) {
        const record = fighterIn(next.fighters, event.target);
        merge(record.stats, event.targetValues);
        if (isObject(event.update)) {
          merge(record.stats, event.update);
          record.state = downState(event.state);
        }
      }
      break;
    }
    case "correct":
      if (typeof event.fighter === "string" && event.fighter && typeof event.field === "string") {
        merge(fighterIn(next.fighters, event.fighter).stats, { [event.field]: event.value === undefined ? null : event.value });
      }
      break;
    case "condition":
      if (typeof event.fighter === "string" && event.fighter) {
        fighterIn(next.fighters, event.fighter).state = downState(event.state);
      }
      break;
    case "board": {
      const headBefore = boardHead(next.board);
      next.board = isObject(event.state) && Object.keys(event.state).length ? copy(event.state) : null;
      const head = boardHead(next.board);
      if (head && (!headBefore || head.key !== headBefore.key)) turnBegun(next, head.name);
      if (typeof event.fighter === "string" && event.fighter && isObject(event.values)) {
        const record = fighterIn(next.fighters, event.fighter);
        const action = typeof event.action === "string" && event.action ? event.action : "tickleiste";
        const kept = isObject(ownValue(record.actions, action)) ? ownValue(record.actions, action) : {};
        merge(kept, event.values);
        setOwn(record.actions, action, kept);
      }
      if (typeof event.next === "string" && event.next && event.next !== next.actor) {
        const record = ownValue(next.fighters, event.next);
        const last = isObject(record) && typeof record.lastTarget === "string" ? record.lastTarget : null;
        choose(next, event.next, last);
      }
      break;
    }
    case "effect": {
      const effect = checkedEffect(event.effect);
      if (typeof event.fighter !== "string" || !event.fighter || !effect) break;
      const record = fighterIn(next.fighters, event.fighter);
      const kept = Array.isArray(record.effects) ? record.effects.filter((e) => isObject(e) && e.id !== effect.id) : [];
      if (kept.length >= EFFECTS_MAX) break;
      record.effects = [...kept, effect];
      break;
    }
    case "effect-end":
      for (const end of Array.isArray(event.ends) ? event.ends : []) {
        if (!isObject(end) || typeof end.fighter !== "string") continue;
        const record = ownValue(next.fighters, end.fighter);
        if (!isObject(record) || !Array.isArray(record.effects)) continue;
        record.effects = record.effects.filter((e) => !isObject(e) || e.id !== end.id);
        if (!record.effects.length) delete record.effects;
      }
      break;
    case "end":
      for (const record of Object.values(next.fighters)) {
        if (!isObject(record)) continue;
        record.stats = {};
        record.state = null;
        delete record.lastTarget;
        delete record.effects;
      }
      next.turns = [];
      next.turn = 0;
      next.round = 1;
      next.actor = null;
      next.target = null;
      break;
    default:
      break; // a step of a newer page: kept in the journal, changes nothing here
  }
  return next;
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

// → {journal, changed, state}: the journal with the step appended (redo cleared), or the same
// journal when the step changes nothing; `state` is the fight after it (no second reduce).
// `before`: the journal's state, where the caller holds it.
export function record(journal, label, event, before = stateOf(journal)) {
  const after = apply(before, event);
  if (same(before, after)) return { journal, changed: false, state: before };
  const text = String(label).slice(0, LABEL_MAX);
  let steps;
  const last = journal.steps[journal.steps.length - 1];
  if (continues(last, event)) {
    const values = { ...last.event.values, ...event.values };
    steps = [...journal.steps.slice(0, -1), { label: text, event: { ...event, values } }];
  } else {
    steps = [...journal.steps, { label: text, event }];
  }
  let base = journal.base;
  while (changes(steps) > STEPS_MAX || steps.length > STEPS_MAX * 4) {
    base = apply(base, steps[0].event);
    steps = steps.slice(1);
  }
  // a choice of actor and target leaves what can be put back; a change clears it
  const redoLeft = isChoice({ event }) ? journal.redo : [];
  return { journal: { version: VERSION, base, steps, redo: redoLeft }, changed: true, state: after };
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

// → {journal, step} | null when there is nothing to undo: the last change goes, the choices
// made after it stay.
export function undo(journal) {
  const at = lastChangeAt(journal);
  if (at < 0) return null;
  const step = journal.steps[at];
  const steps = [...journal.steps.slice(0, at), ...journal.steps.slice(at + 1)];
  return { journal: { ...journal, steps, redo: [...journal.redo, step] }, step };
}

export function redo(journal) {
  const step = nextRedo(journal);
  if (!step) return null;
  return { journal: { ...journal, steps: [...journal.steps, step], redo: journal.redo.slice(0, -1) }, step };
}

// ------------------------------------------------------------------ reading the state

export function stateOfFighter(state, name) {
  const record = ownValue(state.fighters, name);
  return isObject(record) ? checkedState(record.state) : null;
}

export function canAct(state, name) {
  const known = stateOfFighter(state, name);
  return !known || known.zustand === "kampffähig";
}
