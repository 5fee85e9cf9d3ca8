// Covers fight/roster.js: who fights (the Tickleiste's board the fight keeps, or the acting
// order), where each one stands, the choice of a new actor's target, and „Weiter“/„Zurück“
// passing over the turns of fighters who cannot act. Rules: issue #48 (Deliver 1: „„Weiter“ and
// the Tickleiste pass over fighters who cannot act“; a fighter set to „tot“ must not be „Am Zug“
// next), the acting orders of the systems (DSA phases 001_240b8e52c108db7c.txt L1; the
// Tickleiste's ticks 000_5fbfd0ad384a0921.txt L9–L45: the lowest tick acts first, L23 the same
// tick in arrival order, L31 Abwarten, L35 Bereithalten).

import assert from "node:assert/strict";
import { test } from "node:test";

import { apply, emptyState } from "../../site_plugins/assets/js/fight/reducer.js";
import * as roster from "../../site_plugins/assets/js/fight/roster.js";

const TURNS = [
  { name: "Alrik", label: "Phase 14" },
  { name: "Ork", label: "Phase 12" },
  { name: "Bruna", label: "Phase 9" },
  { name: "Alrik", label: "Phase 6, 2. Aktion" },
];
const ORDER = { type: "order", turns: TURNS, actor: "Alrik", target: "Ork", sides: { Alrik: "Helden", Bruna: "Helden", Ork: "Gegner" } };
const DEAD = { zustand: "tot", text: "tot" };
const DOWN = { zustand: "kampfunfähig", text: "lebensbedrohlich verletzt" };

function fight(...events) {
  return events.reduce((state, event) => apply(state, event), emptyState());
}

const marker = (name, status, tick, order) => ({ name, ini: 10, intuition: 3, modifier: 0, surprised: false, status, tick, order });
const BOARD = {
  version: 1,
  started: true,
  seq: 5,
  log: [],
  fighters: [marker("Wolf", "aktiv", 7, 3), marker("Alrik", "aktiv", 5, 1), marker("Bruna", "abwarten", null, 2), marker("Cim", "aktiv", 5, 4), marker("Dora", "bereithalten", null, 5)],
};

test("roster: the acting order names who fights, each at his first place of the round", () => {
  const state = fight(ORDER);
  assert.deepEqual(roster.names(state, false), ["Alrik", "Ork", "Bruna"]);
  assert.deepEqual(Object.fromEntries(roster.positions(state, false)), { Alrik: "Phase 14", Ork: "Phase 12", Bruna: "Phase 9" });
});

test("roster: the Tickleiste names who fights – on the line by tick and arrival, then who waits (000 L23, L31, L35)", () => {
  const state = fight({ type: "board", state: BOARD, next: "Alrik" });
  assert.deepEqual(roster.names(state, true), ["Alrik", "Cim", "Wolf", "Bruna", "Dora"]);
  assert.deepEqual(Object.fromEntries(roster.positions(state, true)), {
    Alrik: "Tick 5",
    Cim: "Tick 5",
    Wolf: "Tick 7",
    Bruna: "wartet ab",
    Dora: "hält bereit",
  });
  assert.deepEqual(roster.names(emptyState(), true), []); // an empty board: nobody
});

test("roster: without an order or a board, everyone the fight knows", () => {
  const state = fight({ type: "values", fighter: "Alrik", values: { lep: 30 } }, { type: "values", fighter: "Ork", values: { lep: 20 } });
  assert.deepEqual(roster.names(state, false), ["Alrik", "Ork"]);
});

test("roster: „Weiter“ passes over the turns of fighters who cannot act and says whom", () => {
  const state = fight(ORDER, { type: "condition", fighter: "Ork", state: DEAD });
  const next = roster.nextTurn(state, 1, roster.names(state, false));
  assert.equal(next.event.actor, "Bruna");
  assert.equal(next.event.turn, 2);
  assert.deepEqual(next.passed, ["Ork (tot)"]);
  assert.equal(next.label, "Weiter: Bruna am Zug (Phase 9)");
});

test("roster: past the last turn a new round begins; „Zurück“ over the first goes back one", () => {
  let state = fight(ORDER);
  state = apply(state, { type: "turn", turn: 3, actor: "Alrik", target: null, round: 1 });
  const next = roster.nextTurn(state, 1, roster.names(state, false));
  assert.deepEqual([next.event.turn, next.event.round], [0, 2]);
  assert.equal(next.label, "Weiter: Runde 2: Alrik am Zug (Phase 14)");
  const back = roster.nextTurn(apply(state, next.event), -1, roster.names(state, false));
  assert.deepEqual([back.event.turn, back.event.round], [3, 1]);
});

test("roster: if nobody can act, „Weiter“ takes the next turn all the same (the game master decides)", () => {
  const state = fight(ORDER, ...["Alrik", "Ork", "Bruna"].map((fighter) => ({ type: "condition", fighter, state: DOWN })));
  const next = roster.nextTurn(state, 1, roster.names(state, false));
  assert.equal(next.event.actor, "Ork");
  assert.deepEqual(next.passed, []);
});

test("roster: a new actor gets the target he had last, never the one before him, never himself", () => {
  let state = fight(ORDER, { type: "choose", actor: "Bruna", target: "Ork" }, { type: "choose", actor: "Alrik", target: "Bruna" });
  const names = roster.names(state, false);
  assert.equal(roster.lastTargetOf(state, "Bruna", names), "Ork");
  assert.equal(roster.lastTargetOf(state, "Ork", names), null);
  state = apply(state, { type: "turn", turn: 1, actor: "Ork", target: roster.lastTargetOf(state, "Ork", names), round: 1 });
  assert.equal(state.target, null);
});

test("roster: opponents first in the target list where the sides are known", () => {
  const state = fight(ORDER, { type: "choose", actor: "Bruna", target: null });
  assert.deepEqual(roster.opponentsFirst(state, ["Alrik", "Ork"]), ["Ork", "Alrik"]);
});

test("roster: who cannot act – for the Tickleiste, which passes over them – and how the lists show them", () => {
  const state = fight({ type: "board", state: BOARD, next: "Alrik" }, { type: "condition", fighter: "Wolf", state: DEAD });
  assert.deepEqual(roster.unable(state, roster.names(state, true)), ["Wolf"]);
  assert.equal(roster.shownName(state, "Wolf"), "Wolf (tot)");
  assert.equal(roster.shownName(state, "Alrik"), "Alrik");
});
