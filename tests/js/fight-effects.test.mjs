// Covers fight/effects.js (with the reducer, fight/reducer.js): a condition on a fighter (name, optional rule reference,
// a duration in the system's own time) that runs out by itself as the fight goes on – rounds
// of the acting order („Weiter“ past the last turn), the Tickleiste's ticks, a fighter's own
// turns („bis … handelt“) – and fight.js's dispatch, which writes the end as a named step of
// its own that „Rückgängig“ takes back. Rules: issue #28 (Deliver 4); Güte's „betäubt“
// („Einhändige Waffen führen zu einer Betäubung von einer Runde“, „Solange ein Gegner betäubt
// ist, kann er nur mit +2 erschwert angreifen und mit +1 abwehren.“ quellen/002_51e59e824768e9e9.txt
// L127–L129); the Tickleiste's current tick is its lowest tick (regeln/ryssea/
// tickleiste_board.py Board.now).

import assert from "node:assert/strict";
import { test } from "node:test";

import { boardNow, checkedEffect, effectsOf, expiring } from "../../site_plugins/assets/js/fight/effects.js";
import { emptyJournal, record, stateOf, undo } from "../../site_plugins/assets/js/fight/journal.js";
import { apply, emptyState } from "../../site_plugins/assets/js/fight/reducer.js";

const ORDER = {
  type: "order",
  turns: [
    { name: "Alrik", label: "Platz 1" },
    { name: "Ork", label: "Platz 2" },
    { name: "Bruna", label: "Platz 3" },
  ],
  actor: "Alrik",
  target: null,
};

function play(state, ...events) {
  return events.reduce((s, e) => apply(s, e), state);
}

function stunned(until) {
  return { type: "effect", fighter: "Ork", effect: { id: "b1", name: "betäubt", ref: "Angriff +2 erschwert, Abwehr +1", until } };
}

// „Weiter“ as the fight bar gives it: the next turn, a new round past the last one.
function forward(state) {
  const turn = (state.turn + 1) % state.turns.length;
  const round = turn <= state.turn ? state.round + 1 : state.round;
  return apply(state, { type: "turn", turn, actor: state.turns[turn].name, target: null, round });
}

test("an effect of one round (Güte: betäubt, one-handed weapon) runs out at the same place of the next round", () => {
  // put on in Alrik's turn (turn 0 of round 1): ends when Alrik's turn of round 2 begins
  let state = play(emptyState(), ORDER, stunned({ unit: "runden", round: 2, turn: 0 }));
  assert.deepEqual(effectsOf(state, "Ork").map((e) => e.name), ["betäubt"]);
  assert.equal(effectsOf(state, "Ork")[0].ref, "Angriff +2 erschwert, Abwehr +1");
  state = forward(state); // Ork
  state = forward(state); // Bruna
  assert.deepEqual(expiring(state), [], "still round 1");
  state = forward(state); // Alrik, round 2
  assert.equal(state.round, 2);
  assert.deepEqual(expiring(state), [{ fighter: "Ork", id: "b1", name: "betäubt" }]);
});

test("„Zurück“ counts no round and no turn; a new fight clears effects and the round", () => {
  let state = play(emptyState(), ORDER, stunned({ unit: "zuege", who: "Ork", left: 1 }));
  state = apply(state, { type: "turn", turn: 2, actor: "Bruna", target: null, round: 1 }); // forward to Bruna: not Ork
  state = apply(state, { type: "turn", turn: 1, actor: "Ork", target: null, round: 1 }); // back onto Ork
  assert.deepEqual(expiring(state), [], "going back is no turn begun");
  state = apply(state, { type: "end" });
  assert.equal(state.round, 1);
  assert.deepEqual(effectsOf(state, "Ork"), []);
});

test("„bis Ork handelt“ runs out when Ork's turn begins, not before", () => {
  let state = play(emptyState(), ORDER, stunned({ unit: "zuege", who: "Ork", left: 1 }));
  assert.deepEqual(expiring(state), []);
  state = forward(state); // Ork's turn begins
  assert.equal(effectsOf(state, "Ork")[0].until.left, 0);
  assert.equal(expiring(state).length, 1);
});

test("on the Tickleiste an effect of 3 Ticks runs out when the current tick is 3 later", () => {
  const board = (alrik, ork) => ({
    version: 1, started: true, seq: 2, log: [],
    fighters: [
      { name: "Alrik", ini: 5, intuition: 5, modifier: 0, surprised: false, status: "aktiv", tick: alrik, order: 1 },
      { name: "Ork", ini: 5, intuition: 5, modifier: 0, surprised: false, status: "aktiv", tick: ork, order: 2 },
    ],
  });
  let state = apply(emptyState(), { type: "board", state: board(10, 11), next: "Alrik" });
  assert.equal(boardNow(state.board), 10);
  state = apply(state, stunned({ unit: "ticks", tick: 13 }));
  state = apply(state, { type: "board", state: board(16, 11), next: "Ork" });
  assert.deepEqual(expiring(state), [], "tick 11");
  state = apply(state, { type: "board", state: board(16, 13), next: "Ork" });
  assert.deepEqual(expiring(state).map((e) => e.name), ["betäubt"], "tick 13");
});

test("a new head of the Tickleiste is a turn begun: „bis Alrik handelt“ ends when he is first again", () => {
  const board = (alrik, ork) => ({
    version: 1, started: true, seq: 2, log: [],
    fighters: [
      { name: "Alrik", status: "aktiv", tick: alrik, order: 1 },
      { name: "Ork", status: "aktiv", tick: ork, order: 2 },
    ],
  });
  let state = apply(emptyState(), { type: "board", state: board(10, 12), next: "Alrik" });
  state = apply(state, { type: "effect", fighter: "Ork", effect: { id: "f", name: "festgehalten", until: { unit: "zuege", who: "Alrik", left: 1 } } });
  state = apply(state, { type: "board", state: board(15, 12), next: "Ork" });
  assert.deepEqual(expiring(state), []);
  state = apply(state, { type: "board", state: board(15, 16), next: "Alrik" });
  assert.deepEqual(expiring(state).map((e) => e.name), ["festgehalten"]);
});

test("the end of an effect is a named step of its own; „Rückgängig“ takes it back first", () => {
  let journal = emptyJournal();
  journal = record(journal, "Reihenfolge", ORDER).journal;
  journal = record(journal, "Ork: betäubt", stunned({ unit: "zuege", who: "Ork", left: 1 })).journal;
  // as fight.js dispatch does after a step that moves time on
  let { journal: after, state } = record(journal, "Weiter: Ork", { type: "turn", turn: 1, actor: "Ork", target: null, round: 1 });
  const ends = expiring(state);
  ({ journal: after, state } = record(after, "Abgelaufen: betäubt (Ork)", { type: "effect-end", ends, expired: true }, state));
  assert.deepEqual(effectsOf(stateOf(after), "Ork"), []);
  assert.deepEqual(after.steps.map((s) => s.label).slice(-2), ["Weiter: Ork", "Abgelaufen: betäubt (Ork)"]);
  const back = undo(after);
  assert.equal(back.step.label, "Abgelaufen: betäubt (Ork)");
  assert.deepEqual(effectsOf(stateOf(back.journal), "Ork").map((e) => e.name), ["betäubt"]);
  assert.equal(stateOf(back.journal).actor, "Ork", "the turn stays");
});

test("a damaged or hostile effect is not kept (names like „__proto__“ are just names)", () => {
  for (const bad of [null, {}, { id: "x", name: "", until: { unit: "runden", round: 2, turn: 0 } },
    { id: "x", name: "a", until: { unit: "jahre", round: 2 } },
    { id: "x", name: "a", until: { unit: "runden", round: "2", turn: 0 } },
    { id: "x", name: "a", until: { unit: "zuege", who: "", left: 1 } }]) {
    assert.equal(checkedEffect(bad), null, JSON.stringify(bad));
    const state = apply(emptyState(), { type: "effect", fighter: "Ork", effect: bad });
    assert.deepEqual(state.fighters, {});
  }
  const state = apply(emptyState(), { type: "effect", fighter: "__proto__", effect: { id: "p", name: "x".repeat(99), until: { unit: "zuege", who: "__proto__", left: 1 } } });
  assert.equal(effectsOf(state, "__proto__")[0].name.length, 40);
  assert.equal({}.name, undefined);
});

// Issue #48: a fighter set to „tot“ stood first on the Tickleiste and held the line – the
// board's time (its current tick, whose turn begins) is the first able fighter's (000 L11,
// L23; regeln/ryssea/tickleiste.py: who cannot act keeps his marker, passed over).
test("effects: the Tickleiste's current tick is the first able fighter's – a fighter who cannot act does not hold the time", () => {
  const marker = (name, tick, order) => ({ name, ini: 10, intuition: 3, modifier: 0, surprised: false, status: "aktiv", tick, order });
  const board = { version: 1, started: true, seq: 3, log: [], fighters: [marker("Wolf", 4, 1), marker("Alrik", 6, 2), marker("Bruna", 9, 3)] };
  let state = apply(emptyState(), { type: "board", state: board, next: "Wolf" });
  assert.equal(boardNow(state.board), 4);
  state = apply(state, { type: "condition", fighter: "Wolf", state: { zustand: "tot", text: "tot" } });
  const effect = { id: "w1", name: "betäubt", until: { unit: "ticks", tick: 6 } };
  state = apply(state, { type: "effect", fighter: "Bruna", effect });
  // Alrik's tick 6 is now the board's time: the effect until tick 6 has run out
  assert.deepEqual(expiring(state).map((e) => e.name), ["betäubt"]);
});
