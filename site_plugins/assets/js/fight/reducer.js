// Regelwerk – fight/reducer.js: the one function that turns a step of the fight into the next
// state (pure, no page): `apply(state, event)`. The journal (fight/journal.js) is the fight's
// steps; the fight is its base with every step applied in order by this function – in the
// browser and, run in Node, in the tests (tests/browser/fight_reducer.mjs), so there is one
// reducer and no copy of it.
//
// The state (shape of version 1, which is taken over as `base`):
//   {fighters: {<name>: {actions: {<action>: {field: value}}, stats: {field: value},
//                        state: {zustand, text} | null, side, lastTarget, effects: [<effect>]},
//    actor, target, turns: [{name, label, situation?}], turn, round,
//    board: <the Tickleiste's engine state> | null}
// Effects and the fight's time: fight/effects.js.
// Events (each carries the values it writes; none depends on the page):
//   choose     {actor, target}                       who acts, against whom
//   turn       {turn, actor, target, round?}         „Weiter“/„Zurück“ in the acting order
//                                                    (round ≥ 1; a turn forward counts for
//                                                    effects „zuege“)
//   order      {turns, sides, actor, target, round?} a new acting order (an initiative roll;
//                                                    sides: {<name>: „Helden“ …} where known)
//   values     {fighter, action?, values}            values typed for a fighter (action: his
//                                                    values for that helper, else his stats)
//   roll       {action, actor, target, actorValues, targetValues, update, state}
//                                                    what a roll keeps and changes
//   correct    {fighter, field, value, state?}       a life value set in the overview (null:
//                                                    unknown) and the state the engine's rule
//                                                    gives for it (absent: the state stays)
//   condition  {fighter, state}                      kampffähig / kampfunfähig / tot, by hand
//   board      {state, next, fighter?, action?, values?}
//                                                    the Tickleiste after a command (Ryssea): the
//                                                    engine's state of the board ({}: empty);
//                                                    next (who is next on it) is then „Am Zug“;
//                                                    values: the acting fighter's own (his Ticks)
//   effect     {fighter, effect}                     an effect put on a fighter
//   effect-end {ends: [{fighter, id}], expired?}     effects taken off (by hand, or run out)
//   end        {}                                    a new fight: states, life values, effects
//                                                    and the order go, each fighter's own
//                                                    values stay (the board too: it has its
//                                                    own „Neu beginnen“)

import { EFFECTS_MAX, boardHead, checkedEffect, downNames, turnBegun } from "./effects.js";
import { isObject, ownValue } from "../common/util.js";

export const STATES = ["kampffähig", "kampfunfähig", "tot"];

export function emptyState() {
  return { fighters: {}, actor: null, target: null, turns: [], turn: 0, round: 1, board: null };
}

// ------------------------------------------------------------------ the one reducer

export function copy(value) {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

export function setOwn(object, key, value) {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

// A fighter's record in `fighters` (a fresh copy of the state is changed, never the input);
// fighters may be called anything, „__proto__“ too (ownValue / defineProperty).
function fighterIn(fighters, name) {
  let record = ownValue(fighters, name);
  if (!isObject(record)) {
    record = { actions: {}, stats: {}, state: null };
    setOwn(fighters, name, record);
  }
  if (!isObject(record.actions)) record.actions = {};
  if (!isObject(record.stats)) record.stats = {};
  return record;
}

// A state's words are the system's (the engine's contract: „tot, wenn kein Schicksalswürfel
// ihn rettet“), kept to STATE_TEXT_MAX characters.
export const STATE_TEXT_MAX = 80;

function checkedState(state) {
  if (!isObject(state) || !STATES.includes(state.zustand) || typeof state.text !== "string") return null;
  return { zustand: state.zustand, text: state.text.slice(0, STATE_TEXT_MAX) };
}

// A turn of the acting order: who, its label, and the situation a helper is set to for it
// (e.g. DSA's second action: {zweite_angriffsaktion: true}; regeln/dsa/initiative.py).
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

function keepActionValues(fighters, name, action, values) {
  const record = fighterIn(fighters, name);
  const kept = isObject(ownValue(record.actions, action)) ? ownValue(record.actions, action) : {};
  merge(kept, values);
  setOwn(record.actions, action, kept);
}

function whole(value, low, high) {
  return Number.isInteger(value) && value >= low && value <= high;
}

function applyTurn(next, event) {
  const was = { round: next.round, turn: next.turn };
  next.turn = Number.isInteger(event.turn) && event.turn >= 0 && event.turn < next.turns.length ? event.turn : 0;
  if (whole(event.round, 1, 100000)) next.round = event.round;
  const forward = next.round > was.round || (next.round === was.round && next.turn > was.turn);
  if (forward && next.turns[next.turn]) turnBegun(next, next.turns[next.turn].name);
  choose(next, event.actor, event.target);
}

function applyOrder(next, event) {
  next.turns = Array.isArray(event.turns) ? event.turns.filter((t) => isObject(t) && typeof t.name === "string").map(turnOf) : [];
  next.turn = 0;
  next.round = whole(event.round, 1, 100000) ? event.round : 1;
  if (next.turns.length) turnBegun(next, next.turns[0].name);
  if (isObject(event.sides)) {
    for (const [name, side] of Object.entries(event.sides)) {
      if (typeof side === "string" && side) fighterIn(next.fighters, name).side = side.slice(0, 30);
    }
  }
  choose(next, event.actor, event.target);
}

function applyRoll(next, event) {
  if (event.actor && isObject(event.actorValues)) setOwn(fighterIn(next.fighters, event.actor).actions, event.action, { ...event.actorValues });
  if (!event.target) return;
  const record = fighterIn(next.fighters, event.target);
  merge(record.stats, event.targetValues);
  if (isObject(event.update)) {
    merge(record.stats, event.update);
    record.state = downState(event.state);
  }
}

function applyBoard(next, event) {
  const down = downNames(next);
  const headBefore = boardHead(next.board, down);
  next.board = isObject(event.state) && Object.keys(event.state).length ? copy(event.state) : null;
  const head = boardHead(next.board, down);
  if (head && (!headBefore || head.key !== headBefore.key)) turnBegun(next, head.name);
  if (typeof event.fighter === "string" && event.fighter && isObject(event.values)) {
    keepActionValues(next.fighters, event.fighter, typeof event.action === "string" && event.action ? event.action : "tickleiste", event.values);
  }
  if (typeof event.next === "string" && event.next && event.next !== next.actor) {
    const record = ownValue(next.fighters, event.next);
    choose(next, event.next, isObject(record) && typeof record.lastTarget === "string" ? record.lastTarget : null);
  }
}

function applyEffect(next, event) {
  const effect = checkedEffect(event.effect);
  if (typeof event.fighter !== "string" || !event.fighter || !effect) return;
  const record = fighterIn(next.fighters, event.fighter);
  const kept = Array.isArray(record.effects) ? record.effects.filter((e) => isObject(e) && e.id !== effect.id) : [];
  if (kept.length < EFFECTS_MAX) record.effects = [...kept, effect];
}

function applyEffectEnd(next, event) {
  for (const end of Array.isArray(event.ends) ? event.ends : []) {
    if (!isObject(end) || typeof end.fighter !== "string") continue;
    const record = ownValue(next.fighters, end.fighter);
    if (!isObject(record) || !Array.isArray(record.effects)) continue;
    record.effects = record.effects.filter((e) => !isObject(e) || e.id !== end.id);
    if (!record.effects.length) delete record.effects;
  }
}

function applyEnd(next) {
  for (const record of Object.values(next.fighters)) {
    if (!isObject(record)) continue;
    record.stats = {};
    record.state = null;
    delete record.lastTarget;
    delete record.effects;
  }
  Object.assign(next, { turns: [], turn: 0, round: 1, actor: null, target: null });
}

export function apply(state, event) {
  const next = copy(state);
  const named = typeof event.fighter === "string" && event.fighter;
  switch (event.type) {
    case "choose":
      choose(next, event.actor, event.target);
      break;
    case "turn":
      applyTurn(next, event);
      break;
    case "order":
      applyOrder(next, event);
      break;
    case "values":
      if (named && event.action) keepActionValues(next.fighters, event.fighter, event.action, event.values);
      else if (named) merge(fighterIn(next.fighters, event.fighter).stats, event.values);
      break;
    case "roll":
      applyRoll(next, event);
      break;
    case "correct":
      if (named && typeof event.field === "string") {
        const record = fighterIn(next.fighters, event.fighter);
        merge(record.stats, { [event.field]: event.value === undefined ? null : event.value });
        if (event.state !== undefined) record.state = downState(event.state);
      }
      break;
    case "condition":
      if (named) fighterIn(next.fighters, event.fighter).state = downState(event.state);
      break;
    case "board":
      applyBoard(next, event);
      break;
    case "effect":
      applyEffect(next, event);
      break;
    case "effect-end":
      applyEffectEnd(next, event);
      break;
    case "end":
      applyEnd(next);
      break;
    default:
      break; // a step of a newer page: kept in the journal, changes nothing here
  }
  return next;
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
