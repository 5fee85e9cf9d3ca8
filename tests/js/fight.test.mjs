// Covers fight.js without a DOM: the fight's one writer – load (the stored journal, the
// version-1 fight taken over, a damaged one set aside as the backup with a German reason),
// dispatch (a named step, stored at once, the page told), undo/redo (stored, so a reload
// keeps them), a second tab (a step here goes on top of the steps the other tab wrote since –
// none is lost), names() (who fights). Rules: the issue „One trusted fight“ (Deliver 1, 2:
// one writer, undo survives reload and works across the tab sharing the fight), fight.js's
// header. Not here: filling helpers, the bar, the overview – they work on elements
// (tests/browser/test_trusted_fight.py).

import assert from "node:assert/strict";
import { test } from "node:test";

import { changedElsewhere, dispatch, key, load, names, undo } from "../../site_plugins/assets/js/fight/fight.js";
import * as store from "../../site_plugins/assets/js/fight/journal.js";
import * as storage from "../../site_plugins/assets/js/common/store.js";
import { stored, useStorage } from "./support/storage.mjs";

function bench(system = "dsa") {
  const b = { system, roster: [], notices: null, renders: 0 };
  b.changed = () => {
    b.renders += 1;
  };
  return b;
}

const CHOOSE = { type: "choose", actor: "Alrik", target: "Ork" };
const CORRECT = { type: "correct", fighter: "Ork", field: "lep", value: 24 };

test("fight.js: the fight of a system is kept under „kampf:<system>“", () => {
  assert.equal(key("dsa"), "kampf:dsa");
});

test("fight.js: with nothing stored a new fight begins", () => {
  useStorage();
  const b = bench();
  assert.equal(load(b), "");
  assert.deepEqual(b.fight, store.emptyState());
  assert.deepEqual(b.journal.steps, []);
});

test("fight.js: a step is stored at once, with its name, and the page is told", () => {
  const box = useStorage();
  const b = bench();
  load(b);
  assert.equal(dispatch(b, "Alrik gegen Ork", CHOOSE), true);
  assert.equal(b.renders, 1);
  assert.equal(b.fight.target, "Ork");
  const kept = JSON.parse(box.getItem("regelwerk:kampf:dsa"));
  assert.equal(kept.version, 2);
  assert.deepEqual(kept.steps, [{ label: "Alrik gegen Ork", event: CHOOSE }]);
  const again = bench();
  load(again);
  assert.equal(again.fight.actor, "Alrik");
  assert.equal(load(bench("pathfinder")), ""); // every system has its own fight
});

test("fight.js: undo and redo are stored too – a reload can still take the step back", () => {
  useStorage();
  const b = bench();
  load(b);
  dispatch(b, "Alrik gegen Ork", CHOOSE);
  dispatch(b, "Ork: LeP 24", CORRECT);
  assert.equal(undo(b, "undo").label, "Ork: LeP 24");
  const reloaded = bench();
  load(reloaded);
  assert.equal(reloaded.fight.fighters.Ork, undefined);
  assert.equal(undo(reloaded, "redo").label, "Ork: LeP 24");
  assert.equal(reloaded.fight.fighters.Ork.stats.lep, 24);
  assert.equal(undo(reloaded, "redo"), null);
});

test("fight.js: a step in one tab goes on top of the other tab's steps (nothing is lost, nothing overwritten)", () => {
  useStorage();
  const here = bench();
  const there = bench();
  load(here);
  load(there);
  dispatch(there, "Alrik gegen Ork", CHOOSE);
  assert.equal(changedElsewhere(here), true);
  dispatch(here, "Ork: LeP 24", CORRECT);
  assert.deepEqual(here.journal.steps.map((s) => s.label), ["Alrik gegen Ork", "Ork: LeP 24"]);
  assert.equal(here.fight.actor, "Alrik");
  // and undo in the other tab takes back the newest step, the one written here
  assert.equal(undo(there, "undo").label, "Ork: LeP 24");
  assert.equal(there.fight.actor, "Alrik");
});

test("fight.js: the stored fight of version 1 is taken over", () => {
  const v1 = { version: 1, fighters: { Ork: { actions: {}, stats: { lep: "12" } } }, actor: "Alrik", target: "Ork", turns: [], turn: 0 };
  useStorage({ "regelwerk:kampf:dsa": stored(v1) });
  const b = bench();
  assert.equal(load(b), "");
  assert.equal(b.fight.fighters.Ork.stats.lep, "12");
  assert.equal(b.fight.target, "Ork");
});

const DAMAGED = [
  ["no JSON", "{kaputt"],
  ["another version", stored({ version: 7, fighters: {} })],
  ["no version", stored({ fighters: {} })],
  ["fighters that are a list", stored({ version: 1, fighters: [] })],
  ["an order of turns that is no list", stored({ version: 1, fighters: {}, turns: "Alrik" })],
  ["damaged steps", stored({ version: 2, base: store.emptyState(), steps: [{}], redo: [] })],
];

for (const [what, raw] of DAMAGED) {
  test(`fight.js: a stored fight with ${what} is set aside as the backup, said in German, and a new fight begins (store.js: nothing is lost)`, () => {
    const box = useStorage({ "regelwerk:kampf:dsa": raw });
    const b = bench();
    assert.match(load(b), /[a-zäöü]/);
    assert.deepEqual(b.fight, store.emptyState());
    assert.equal(box.getItem("regelwerk:kampf:dsa"), null);
    assert.equal(storage.backup("kampf:dsa"), raw);
    storage.dropBackup("kampf:dsa");
  });
}

test("fight.js: names() lists the roster (the Tickleiste's fighters) and, without one, everyone the fight knows", () => {
  const fight = { ...store.emptyState(), fighters: { Alrik: {}, Ork: {}, Bruna: {} } };
  assert.deepEqual(names({ roster: [], fight }), ["Alrik", "Ork", "Bruna"]);
  assert.deepEqual(names({ roster: ["Bruna", "Cim"], fight }), ["Bruna", "Cim"]);
});
