// Test support (not a test file): the page's own fight – fight/store.js with its journal, its
// one reducer and fight/roster.js – run in Node for the Python tests, so they never keep a copy
// of the reducer (issue #48, Deliver 3: „The reducer is tested once: pytest asks the JS reducer
// itself (run in node) for the expected states“). harness/fight_mirror.py starts it and
// speaks JSON lines on stdin/stdout:
//   {op: "start", system, hasBoard}            a new, empty fight (localStorage in memory)
//   {op: "record", event, label?}              store.dispatch – a step as the page makes it
//                                              (effects that ran out get their own step)
//   {op: "choose", actor?, target?}            the fight bar's choice (bar.js: a new actor
//                                              gets his last target; never his own target)
//   {op: "step", by}                           „Weiter“ (1) / „Zurück“ (−1): roster.js nextTurn
//   {op: "undo"}                               „↶ Rückgängig“
// Every answer: {ok, changed?, step?, passed?, state, journal, names, positions, unable} – what
// the page would draw from the store after that operation.

import { createInterface } from "node:readline";

import { openStore } from "../site_plugins/assets/js/fight/store.js";
import * as roster from "../site_plugins/assets/js/fight/roster.js";

class MemoryStorage {
  constructor() {
    this.items = new Map();
  }

  getItem(key) {
    return this.items.has(key) ? this.items.get(key) : null;
  }

  setItem(key, value) {
    this.items.set(key, String(value));
  }

  removeItem(key) {
    this.items.delete(key);
  }
}

let store = null;
let hasBoard = false;

function picture(extra = {}) {
  const state = store.state;
  const names = roster.names(state, hasBoard);
  return {
    ok: true,
    ...extra,
    state,
    journal: store.journal,
    names,
    positions: Object.fromEntries(roster.positions(state, hasBoard)),
    unable: roster.unable(state, names),
  };
}

function choose(actor, target) {
  const state = store.state;
  const inFight = roster.names(state, hasBoard);
  const nextActor = actor === undefined ? state.actor : actor || null;
  let nextTarget = target === undefined ? state.target : target || null;
  if (actor !== undefined && nextActor !== state.actor && target === undefined) nextTarget = roster.lastTargetOf(state, nextActor, inFight);
  if (nextTarget === nextActor) nextTarget = null;
  return store.dispatch(roster.choiceText(nextActor, nextTarget), { type: "choose", actor: nextActor, target: nextTarget });
}

function run(command) {
  switch (command.op) {
    case "start":
      Object.defineProperty(globalThis, "localStorage", { configurable: true, value: new MemoryStorage() });
      store = openStore(command.system || "test");
      hasBoard = !!command.hasBoard;
      return picture();
    case "record": {
      const made = store.dispatch(command.label || command.event.type, command.event);
      return picture({ changed: made.changed, step: made.step });
    }
    case "choose": {
      const made = choose(command.actor, command.target);
      return picture({ changed: made.changed, step: made.step });
    }
    case "step": {
      const next = roster.nextTurn(store.state, command.by, roster.names(store.state, hasBoard));
      if (!next) return picture({ changed: false, passed: [] });
      const made = store.dispatch(next.label, next.event);
      return picture({ changed: made.changed, step: made.step, passed: next.passed });
    }
    case "undo":
      return picture({ step: store.undo() });
    default:
      return { ok: false, error: `unknown op ${command.op}` };
  }
}

const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  let answer;
  try {
    answer = run(JSON.parse(line));
  } catch (error) {
    answer = { ok: false, error: String(error && error.stack ? error.stack : error) };
  }
  process.stdout.write(`${JSON.stringify(answer)}\n`);
});
