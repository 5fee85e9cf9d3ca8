// Covers fight/store.js without a DOM: the one owner of a system's fight – load (the stored
// journal, the version-1 fight taken over, a damaged one set aside as the backup with a German
// reason), dispatch (a named step, stored at once, every view told), undo/redo (stored, so a
// reload keeps them), another tab (a step here goes on top of the steps the other tab wrote
// since – none is lost; refresh reads the other tab's steps and tells the views), what it
// hands out is frozen (no view changes the fight by a side door), effects that ran out get a
// step of their own. Rules: issue #48 „One fight for every system“ (Deliver 2: one store, the
// only owner of the journal, its storage and the tab sync; no shared mutable object),
// fight/store.js's header.

import assert from "node:assert/strict";
import { test } from "node:test";

import { fightStore, key, openStore } from "../../site_plugins/assets/js/fight/store.js";
import { emptyState } from "../../site_plugins/assets/js/fight/reducer.js";
import * as storage from "../../site_plugins/assets/js/common/store.js";
import { stored, useStorage } from "./support/storage.mjs";

const CHOOSE = { type: "choose", actor: "Alrik", target: "Ork" };
const CORRECT = { type: "correct", fighter: "Ork", field: "lep", value: 24 };

function watched(store) {
  const seen = [];
  store.subscribe({ alive: () => true, draw: (change) => seen.push(change.kind) });
  return seen;
}

test("fight store: the fight of a system is kept under „kampf:<system>“", () => {
  assert.equal(key("dsa"), "kampf:dsa");
});

test("fight store: with nothing stored a new fight begins", () => {
  useStorage();
  const store = openStore("dsa");
  assert.equal(store.problem, "");
  assert.deepEqual(store.state, emptyState());
  assert.deepEqual(store.journal.steps, []);
});

test("fight store: a step is stored at once, with its name and number, and every view is told", () => {
  const box = useStorage();
  const store = openStore("dsa");
  const seen = watched(store);
  const made = store.dispatch("Alrik gegen Ork", CHOOSE);
  assert.equal(made.changed, true);
  assert.equal(made.step.n, 1);
  assert.deepEqual(seen, ["step"]);
  assert.equal(store.state.target, "Ork");
  const kept = JSON.parse(box.getItem("regelwerk:kampf:dsa"));
  assert.equal(kept.version, 2);
  assert.deepEqual(kept.steps, [{ label: "Alrik gegen Ork", event: CHOOSE, n: 1 }]);
  assert.equal(openStore("dsa").state.actor, "Alrik");
  assert.equal(openStore("pathfinder").problem, ""); // every system has its own fight
  assert.deepEqual(openStore("pathfinder").journal.steps, []);
});

test("fight store: a step that changes nothing is no step and tells nobody", () => {
  useStorage();
  const store = openStore("dsa");
  store.dispatch("Alrik gegen Ork", CHOOSE);
  const seen = watched(store);
  assert.deepEqual(store.dispatch("Alrik gegen Ork", CHOOSE), { changed: false, step: null });
  assert.deepEqual(seen, []);
});

test("fight store: what it hands out is frozen – a view cannot change the fight by a side door", () => {
  useStorage();
  const store = openStore("dsa");
  store.dispatch("Ork: LeP 24", CORRECT);
  assert.throws(() => {
    store.state.fighters.Ork.stats.lep = 1;
  }, TypeError);
  assert.throws(() => store.journal.steps.push({}), TypeError);
  assert.equal(store.state.fighters.Ork.stats.lep, 24);
});

test("fight store: undo and redo are stored too – a reload can still take the step back", () => {
  useStorage();
  const store = openStore("dsa");
  store.dispatch("Alrik gegen Ork", CHOOSE);
  store.dispatch("Ork: LeP 24", CORRECT);
  assert.equal(store.undo().label, "Ork: LeP 24");
  const reloaded = openStore("dsa");
  assert.equal(reloaded.state.fighters.Ork, undefined);
  assert.equal(reloaded.redo().label, "Ork: LeP 24");
  assert.equal(reloaded.state.fighters.Ork.stats.lep, 24);
  assert.equal(reloaded.redo(), null);
});

test("fight store: a step in one tab goes on top of the other tab's steps (nothing is lost, nothing overwritten)", () => {
  useStorage();
  const here = openStore("dsa");
  const there = openStore("dsa");
  there.dispatch("Alrik gegen Ork", CHOOSE);
  assert.equal(here.changedElsewhere(), true);
  here.dispatch("Ork: LeP 24", CORRECT);
  assert.deepEqual(here.journal.steps.map((s) => s.label), ["Alrik gegen Ork", "Ork: LeP 24"]);
  assert.deepEqual(here.journal.steps.map((s) => s.n), [1, 2]);
  assert.equal(here.state.actor, "Alrik");
  // and undo in the other tab takes back the newest step, the one written here – with the
  // choice it was made with (journal.js undo)
  assert.equal(there.undo().label, "Ork: LeP 24");
  assert.equal(there.state.fighters.Ork, undefined);
  assert.equal(there.state.actor, null);
  assert.equal(there.redo().label, "Ork: LeP 24");
  assert.equal(there.state.actor, "Alrik");
});

test("fight store: refresh reads what another tab wrote and tells the views; nothing new, nothing told", () => {
  useStorage();
  const here = openStore("dsa");
  const there = openStore("dsa");
  const seen = watched(here);
  assert.equal(here.refresh(), false);
  there.dispatch("Ork: LeP 24", CORRECT);
  assert.equal(here.refresh(), true);
  assert.deepEqual(seen, ["elsewhere"]);
  assert.equal(here.state.fighters.Ork.stats.lep, 24);
});

test("fight store: a view whose page is gone is no longer told", () => {
  useStorage();
  const store = openStore("dsa");
  let alive = true;
  let told = 0;
  store.subscribe({ alive: () => alive, draw: () => { told += 1; } });
  store.dispatch("Alrik gegen Ork", CHOOSE);
  alive = false;
  store.dispatch("Ork: LeP 24", CORRECT);
  assert.equal(told, 1);
});

test("fight store: an effect that runs out with „Weiter“ ends in a step of its own, named", () => {
  useStorage();
  const store = openStore("dsa");
  const turns = [{ name: "Alrik", label: "Platz 1" }, { name: "Ork", label: "Platz 2" }];
  store.dispatch("Reihenfolge", { type: "order", turns, actor: "Alrik", target: null });
  const effect = { id: "w1", name: "betäubt", until: { unit: "zuege", who: "Ork", left: 1 } };
  store.dispatch("Alrik: betäubt", { type: "effect", fighter: "Alrik", effect });
  store.dispatch("Weiter", { type: "turn", turn: 1, actor: "Ork", target: null, round: 1 });
  const labels = store.journal.steps.map((s) => s.label);
  assert.equal(labels.at(-1), "Abgelaufen: betäubt (Alrik)");
  assert.equal(store.state.fighters.Alrik.effects, undefined);
});

test("fight store: the registry gives one store per system in a window", () => {
  useStorage();
  assert.equal(fightStore("dsa"), fightStore("dsa"));
  assert.notEqual(fightStore("dsa"), fightStore("guete"));
});

test("fight store: a refused write is said (saveProblem) and the fight stands for this visit", () => {
  useStorage({}, { refuse: true });
  const store = openStore("dsa");
  store.dispatch("Ork: LeP 24", CORRECT);
  assert.match(store.saveProblem, /abgelehnt/);
  assert.equal(store.state.fighters.Ork.stats.lep, 24);
});

test("fight store: the stored fight of version 1 is taken over", () => {
  const v1 = { version: 1, fighters: { Ork: { actions: {}, stats: { lep: "12" } } }, actor: "Alrik", target: "Ork", turns: [], turn: 0 };
  useStorage({ "regelwerk:kampf:dsa": stored(v1) });
  const store = openStore("dsa");
  assert.equal(store.problem, "");
  assert.equal(store.state.fighters.Ork.stats.lep, "12");
  assert.equal(store.state.target, "Ork");
});

const DAMAGED = [
  ["no JSON", "{kaputt"],
  ["another version", stored({ version: 7, fighters: {} })],
  ["no version", stored({ fighters: {} })],
  ["fighters that are a list", stored({ version: 1, fighters: [] })],
  ["an order of turns that is no list", stored({ version: 1, fighters: {}, turns: "Alrik" })],
  ["damaged steps", stored({ version: 2, base: emptyState(), steps: [{}], redo: [] })],
];

for (const [what, raw] of DAMAGED) {
  test(`fight store: a stored fight with ${what} is set aside as the backup, said in German, and a new fight begins (store.js: nothing is lost)`, () => {
    const box = useStorage({ "regelwerk:kampf:dsa": raw });
    const store = openStore("dsa");
    assert.match(store.problem, /[a-zäöü]/);
    assert.deepEqual(store.state, emptyState());
    assert.equal(box.getItem("regelwerk:kampf:dsa"), null);
    assert.equal(storage.backup("kampf:dsa"), raw);
    storage.dropBackup("kampf:dsa");
  });
}
