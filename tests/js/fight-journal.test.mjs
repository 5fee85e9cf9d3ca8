// Covers fight-journal.js: the one fight of a system as a journal of named steps – apply (the
// one reducer: each event's change, a fresh state every time, names like „__proto__“),
// record (a step appended, redo cleared, a step that changes nothing not kept, typing in one
// helper for one fighter is one step, at most STEPS_MAX steps with the oldest folded into the
// base so the state stays the same), undo/redo (every step, in order, the state before each),
// check/fromStored (version 2, the version-1 fight taken over, damaged values refused).
// Rules: the issue „One trusted fight“ (Deliver 1–3: one writer, undo for everything ≥ 50
// steps, kampffähig / kampfunfähig / tot), fight-journal.js's header; the states are the
// engine's (engine/fight_state.py).

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  STEPS_MAX,
  check,
  emptyJournal,
  fromStored,
  lastStep,
  nextRedo,
  record,
  redo,
  renamed,
  stateOf,
  stepStands,
  undo,
} from "../../site_plugins/assets/js/fight/journal.js";
import { apply, canAct, emptyState, stateOfFighter } from "../../site_plugins/assets/js/fight/reducer.js";

const ORDER = {
  type: "order",
  turns: [
    { name: "Alrik", label: "Phase 14" },
    { name: "Ork", label: "Phase 8" },
    { name: "Alrik", label: "Phase 6, 2. Aktion" },
  ],
  sides: { Alrik: "Helden", Ork: "Gegner" },
  actor: "Alrik",
  target: null,
};
const HIT = {
  type: "roll",
  action: "damage",
  actor: "Alrik",
  target: "Ork",
  actorValues: { damage: "1W6+4" },
  targetValues: { rs: "2", lep: "30", wunden: "0" },
  update: { lep: 24, wunden: 1 },
  state: { zustand: "kampffähig", text: "kampffähig" },
};

function play(...events) {
  let journal = emptyJournal();
  events.forEach((event, i) => {
    journal = record(journal, `Schritt ${i + 1}`, event).journal;
  });
  return journal;
}

test("fight-journal: a new acting order chooses its first fighter and keeps the sides", () => {
  const state = apply(emptyState(), ORDER);
  assert.equal(state.turns.length, 3);
  assert.equal(state.turn, 0);
  assert.equal(state.actor, "Alrik");
  assert.equal(state.fighters.Ork.side, "Gegner");
});

test("fight-journal: apply never changes the state it is given", () => {
  const before = apply(emptyState(), ORDER);
  const frozen = JSON.stringify(before);
  apply(before, HIT);
  apply(before, { type: "end" });
  assert.equal(JSON.stringify(before), frozen);
});

test("fight-journal: a roll keeps the actor's values for that helper and writes the target's update and state", () => {
  const state = apply(apply(emptyState(), ORDER), HIT);
  assert.deepEqual(state.fighters.Alrik.actions.damage, { damage: "1W6+4" });
  assert.deepEqual(state.fighters.Ork.stats, { rs: "2", lep: 24, wunden: 1 });
  assert.equal(stateOfFighter(state, "Ork"), null); // kampffähig is the normal case
  const down = apply(state, { ...HIT, update: { lep: -3, wunden: 3 }, state: { zustand: "tot", text: "tot" } });
  assert.deepEqual(stateOfFighter(down, "Ork"), { zustand: "tot", text: "tot" });
  assert.equal(canAct(down, "Ork"), false);
  assert.equal(canAct(down, "Alrik"), true);
});

test("fight-journal: choosing an actor and a target remembers the target for that actor; the target is never the actor", () => {
  const state = apply(emptyState(), { type: "choose", actor: "Bruna", target: "Ork" });
  assert.equal(state.fighters.Bruna.lastTarget, "Ork");
  const same = apply(state, { type: "choose", actor: "Bruna", target: "Bruna" });
  assert.equal(same.target, null);
});

test("fight-journal: a correction in the overview sets one value, an empty one forgets it; a state by hand", () => {
  let state = apply(emptyState(), HIT);
  state = apply(state, { type: "correct", fighter: "Ork", field: "lep", value: 20 });
  assert.equal(state.fighters.Ork.stats.lep, 20);
  state = apply(state, { type: "correct", fighter: "Ork", field: "lep", value: null });
  assert.equal("lep" in state.fighters.Ork.stats, false);
  state = apply(state, { type: "condition", fighter: "Ork", state: { zustand: "kampfunfähig", text: "kampfunfähig" } });
  assert.equal(canAct(state, "Ork"), false);
  state = apply(state, { type: "condition", fighter: "Ork", state: { zustand: "kampffähig", text: "kampffähig" } });
  assert.equal(canAct(state, "Ork"), true);
  // a state the engine does not know is not taken
  state = apply(state, { type: "condition", fighter: "Ork", state: { zustand: "halbtot", text: "x" } });
  assert.equal(stateOfFighter(state, "Ork"), null);
});

test("fight-journal: „Neuer Kampf“ clears states, resources and the order and keeps each fighter's own values", () => {
  const state = apply(apply(apply(emptyState(), ORDER), HIT), { type: "end" });
  assert.deepEqual(state.turns, []);
  assert.equal(state.actor, null);
  assert.deepEqual(state.fighters.Ork.stats, {});
  assert.deepEqual(state.fighters.Alrik.actions.damage, { damage: "1W6+4" });
});

test("fight-journal: fighters called „__proto__“ or „constructor“ are fighters, not Object's properties", () => {
  const state = apply(emptyState(), { ...HIT, target: "__proto__", actor: "constructor" });
  assert.deepEqual(Object.keys(state.fighters).sort(), ["__proto__", "constructor"]);
  assert.equal(Object.getPrototypeOf(state.fighters), Object.prototype);
  assert.equal(state.fighters.__proto__.stats.lep, 24); // eslint-disable-line no-proto
  assert.equal({}.stats, undefined);
});

test("fight-journal: every change can be taken back and put back, in order, each to the state before it", () => {
  const events = [ORDER, { type: "correct", fighter: "Ork", field: "lep", value: 30 }, HIT, { type: "turn", turn: 1, actor: "Ork", target: "Alrik" }];
  const journal = play(...events);
  const states = [emptyState()];
  for (const event of events) states.push(apply(states[states.length - 1], event));
  let now = journal;
  for (let i = events.length; i > 0; i--) {
    assert.deepEqual(stateOf(now), states[i]);
    assert.equal(lastStep(now).label, `Schritt ${i}`);
    now = undo(now).journal;
  }
  assert.deepEqual(stateOf(now), states[0]);
  assert.equal(undo(now), null);
  for (let i = 1; i <= events.length; i++) {
    assert.equal(nextRedo(now).label, `Schritt ${i}`);
    now = redo(now).journal;
    assert.deepEqual(stateOf(now), states[i]);
  }
  assert.equal(redo(now), null);
});

test("fight-journal: choosing who acts is kept but no change – undo takes back the damage with the choice it was made with, a later choice stays (the wrong target hit, the right one chosen)", () => {
  let journal = play(ORDER, { type: "choose", actor: "Alrik", target: "Bruna" }, { ...HIT, target: "Bruna" });
  journal = record(journal, "Alrik gegen Ork", { type: "choose", actor: "Alrik", target: "Ork" }).journal;
  assert.equal(lastStep(journal).label, "Schritt 3"); // the damage, not the choice
  const { journal: back, step } = undo(journal);
  assert.equal(step.label, "Schritt 3");
  const state = stateOf(back);
  assert.equal(state.fighters.Bruna, undefined); // the damage on Bruna is gone (she was known by it only)
  assert.equal(state.target, "Ork"); // the later choice stays
  assert.equal(back.steps.some((s) => s.label === "Schritt 2"), false); // the wrong choice went with the hit
  assert.equal(lastStep(back).label, "Schritt 1");
  // a choice leaves what can be put back; a change clears it
  const chosen = record(back, "Bruna am Zug", { type: "choose", actor: "Bruna", target: null }).journal;
  assert.equal(nextRedo(chosen).label, "Schritt 3");
  const changed = record(chosen, "Ork: LeP 9", { type: "correct", fighter: "Ork", field: "lep", value: 9 }).journal;
  assert.equal(nextRedo(changed), null);
});

test("fight-journal: a new step after an undo clears what could be redone", () => {
  const journal = undo(play(ORDER, HIT)).journal;
  assert.equal(journal.redo.length, 1);
  const { journal: after } = record(journal, "Weiter", { type: "turn", turn: 1, actor: "Ork", target: null });
  assert.equal(after.redo.length, 0);
});

test("fight-journal: a step that changes nothing is not kept (no empty „Rückgängig“)", () => {
  const journal = play(ORDER);
  const again = record(journal, "Nochmal", { type: "choose", actor: "Alrik", target: null });
  assert.equal(again.changed, false);
  assert.equal(again.journal, journal);
});

test("fight-journal: a roll that keeps the same values in another order is no step (no „Rückgängig“ that changes nothing)", () => {
  // typed in another order than the form sends them (the form: damage, zusatz)
  let journal = play({ type: "values", fighter: "Alrik", action: "damage", values: { zusatz: "1" } });
  journal = record(journal, "TP", { type: "values", fighter: "Alrik", action: "damage", values: { damage: "1W6+4" } }).journal;
  const roll = { type: "roll", action: "damage", actor: "Alrik", target: null, actorValues: { damage: "1W6+4", zusatz: "1" }, targetValues: {}, update: null, state: null };
  assert.equal(record(journal, "Schaden", roll).changed, false);
});

test("fight-journal: values typed for one fighter in one helper are one step; another fighter's are the next", () => {
  let journal = emptyJournal();
  journal = record(journal, "Alrik: AT 14", { type: "values", fighter: "Alrik", action: "attack", values: { at: "14" } }).journal;
  journal = record(journal, "Alrik: TP 1W6+4", { type: "values", fighter: "Alrik", action: "attack", values: { damage: "1W6+4" } }).journal;
  assert.equal(journal.steps.length, 1);
  assert.deepEqual(stateOf(journal).fighters.Alrik.actions.attack, { at: "14", damage: "1W6+4" });
  journal = record(journal, "Ork: RS 2", { type: "values", fighter: "Ork", values: { rs: "2" } }).journal;
  assert.equal(journal.steps.length, 2);
  assert.equal(stateOf(undo(journal).journal).fighters.Ork, undefined);
});

test(`fight-journal: at most ${STEPS_MAX} steps (≥ 50) – older ones are folded into the base, the fight stays the same`, () => {
  assert.ok(STEPS_MAX >= 50);
  let journal = play(ORDER);
  const expected = [apply(emptyState(), ORDER)];
  for (let i = 0; i < STEPS_MAX + 20; i++) {
    const event = { type: "correct", fighter: "Ork", field: "lep", value: 100 - i };
    journal = record(journal, `Ork: LeP ${100 - i}`, event).journal;
    expected.push(apply(expected[expected.length - 1], event));
  }
  assert.equal(journal.steps.length, STEPS_MAX);
  assert.deepEqual(stateOf(journal), expected[expected.length - 1]);
  for (let i = 0; i < STEPS_MAX; i++) journal = undo(journal).journal;
  assert.deepEqual(stateOf(journal), expected[expected.length - 1 - STEPS_MAX]);
  assert.equal(undo(journal), null);
});

test("fight-journal: a stored journal of version 2 is read back as it was written", () => {
  const journal = undo(play(ORDER, HIT)).journal;
  const stored = JSON.parse(JSON.stringify(journal));
  assert.equal(check(stored), "");
  assert.deepEqual(fromStored(stored), journal);
});

test("fight-journal: the fight of version 1 (no steps) is taken over as the base", () => {
  const v1 = { version: 1, fighters: { Ork: { actions: {}, stats: { lep: "12" } } }, actor: "Alrik", target: "Ork", turns: [{ name: "Alrik", label: "x" }], turn: 0 };
  assert.equal(check(v1), "");
  const journal = fromStored(v1);
  assert.deepEqual(journal.steps, []);
  assert.equal(stateOf(journal).fighters.Ork.stats.lep, "12");
  assert.equal(stateOf(journal).target, "Ork");
});

const DAMAGED = [
  ["no object", "kaputt"],
  ["a newer version", { version: 3, base: emptyState(), steps: [], redo: [] }],
  ["no base", { version: 2, steps: [], redo: [] }],
  ["fighters that are a list", { version: 2, base: { ...emptyState(), fighters: [] }, steps: [], redo: [] }],
  ["steps that are no list", { version: 2, base: emptyState(), steps: "x", redo: [] }],
  ["a step without a label", { version: 2, base: emptyState(), steps: [{ event: { type: "end" } }], redo: [] }],
  ["a step without an event", { version: 2, base: emptyState(), steps: [{ label: "x" }], redo: [] }],
  ["a damaged redo list", { version: 2, base: emptyState(), steps: [], redo: [null] }],
  ["a fighter that is no object", { version: 2, base: { ...emptyState(), fighters: { Ork: 3 } }, steps: [], redo: [] }],
];

for (const [what, value] of DAMAGED) {
  test(`fight-journal: a stored fight with ${what} is refused with a German reason`, () => {
    const problem = check(value);
    assert.notEqual(problem, "");
    assert.match(problem, /[a-zäöü]/);
  });
}

test("fight-journal: a step of an unknown kind (a newer page) is kept and changes nothing", () => {
  const state = apply(apply(emptyState(), ORDER), { type: "zauber", fighter: "Alrik" });
  assert.deepEqual(state, apply(emptyState(), ORDER));
});

// A fight stored before a field was renamed (the engine's `formerly`; the page's map from the
// build, forms.js formerNames): fight-journal.js `renamed` writes its values under the new
// names, in the base and in every step, so the reducer and the pages meet only those.
test("fight-journal.js renamed: a fight from before a rename keeps every value under the new name (base, steps, redo, a correction's field)", () => {
  const stored = {
    version: 2,
    base: { ...emptyState(), fighters: { Alrik: { actions: { attack: { wert: "15", schaden: "1W6+5" } }, stats: { ruestung: "2" }, state: null } } },
    steps: [
      { label: "Werte von Alrik", event: { type: "values", fighter: "Alrik", action: "attack", values: { schaden: "2W6+1" } } },
      { label: "Wurf", event: { type: "roll", action: "attack", actor: "Alrik", target: "Ork", actorValues: { schaden: "2W6+1" }, targetValues: { ruestung: "3" }, update: { lep: 20 }, state: null } },
    ],
    redo: [{ label: "RS von Ork", event: { type: "correct", fighter: "Ork", field: "ruestung", value: 4 } }],
  };
  const formerly = { schaden: "damage", ruestung: "armor" };
  const journal = renamed(fromStored(stored), formerly);
  const state = stateOf(journal);
  assert.deepEqual(state.fighters.Alrik.actions.attack, { damage: "2W6+1" });
  assert.deepEqual(state.fighters.Alrik.stats, { armor: "2" });
  assert.deepEqual(state.fighters.Ork.stats, { armor: "3", lep: 20 });
  assert.equal(journal.redo[0].event.field, "armor");
  assert.deepEqual(stored.base.fighters.Alrik.stats, { ruestung: "2" }); // the stored value is not changed
  assert.equal(renamed(journal, {}), journal);
});

// Issue #48 (Deliver 4): „undo of a step restores the choice of actor and target it was made
// with“ – the wrong target hit and nothing chosen since: after „Rückgängig“ the next „Würfeln“
// must not hit him again.
test("fight-journal: undo of a hit on the wrong target puts the choice back as it was before it; redo makes both again", () => {
  let journal = play(ORDER, { type: "choose", actor: "Alrik", target: "Ork" }, HIT);
  journal = record(journal, "Alrik gegen Bruna", { type: "choose", actor: "Alrik", target: "Bruna" }).journal;
  journal = record(journal, "Treffer", { ...HIT, target: "Bruna" }).journal;
  const before = stateOf(journal);
  assert.equal(before.target, "Bruna");
  const { journal: back } = undo(journal);
  const state = stateOf(back);
  assert.equal(state.target, "Ork"); // the choice before the wrong one
  assert.equal(state.fighters.Bruna, undefined);
  assert.equal(nextRedo(back).label, "Treffer");
  const again = redo(back).journal;
  assert.deepEqual(stateOf(again), before);
  assert.deepEqual(again.steps.map((s) => s.label).slice(-2), ["Alrik gegen Bruna", "Treffer"]);
});

test("fight-journal: every step has a number; a step taken back no longer stands, one folded into the base still does", () => {
  let journal = play(ORDER, HIT);
  assert.deepEqual(journal.steps.map((s) => s.n), [1, 2]);
  assert.equal(stepStands(journal, 2), true);
  const back = undo(journal).journal;
  assert.equal(stepStands(back, 2), false);
  const cleared = record(back, "Ork: LeP 9", { type: "correct", fighter: "Ork", field: "lep", value: 9 }).journal;
  assert.equal(stepStands(cleared, 2), false); // gone with the cleared redo, still not standing
  assert.equal(cleared.steps.at(-1).n, 3); // numbers are never given twice
  journal = cleared;
  for (let i = 0; i < STEPS_MAX + 5; i++) {
    journal = record(journal, `Wert ${i}`, { type: "correct", fighter: "Ork", field: "lep", value: i }).journal;
  }
  assert.ok(journal.folded >= 1);
  assert.equal(stepStands(journal, 1), true); // folded into the base: it stands
});

test("fight-journal: a journal stored without numbers gets them, after the highest it has", () => {
  const old = { version: 2, base: emptyState(), steps: [{ label: "A", event: ORDER }, { label: "B", event: HIT, n: 7 }], redo: [{ label: "C", event: HIT }] };
  const journal = fromStored(old);
  assert.deepEqual(journal.steps.map((s) => s.n), [8, 7]);
  assert.equal(journal.redo[0].n, 9);
  assert.equal(journal.seq, 10);
});

test("fight-journal: a correction carries the state the engine gave for the value; without one the state stays", () => {
  const down = { zustand: "kampfunfähig", text: "kampfunfähig" };
  let state = apply(emptyState(), { type: "correct", fighter: "Alrik", field: "lep", value: 3, state: down });
  assert.deepEqual(state.fighters.Alrik.state, down);
  state = apply(state, { type: "correct", fighter: "Alrik", field: "wunden", value: 1 });
  assert.deepEqual(state.fighters.Alrik.state, down);
  state = apply(state, { type: "correct", fighter: "Alrik", field: "lep", value: 20, state: { zustand: "kampffähig", text: "kampffähig" } });
  assert.equal(state.fighters.Alrik.state, null);
});
