// Covers fight.js without a DOM: the stored fight of a system (version 1: {version, fighters,
// actor, target, turns, turn}) – load gives the stored fight, a new one when nothing usable is
// stored, and sets a damaged one aside as the backup; save writes it; fighter() makes a
// fighter's record on first use, whatever the fighter is called; names() lists who fights.
// Rules: fight.js's header and the „A fight without retyping“ issue (tests/browser/
// test_fight.py: every fighter is typed once). Not here: filling helpers, the fight bar and
// follow-ups – they work on elements.


import assert from "node:assert/strict";
import { test } from "node:test";

import { fighter, key, load, names, save } from "../../site_plugins/assets/js/fight.js";
import * as store from "../../site_plugins/assets/js/store.js";
import { stored, useStorage } from "./support/storage.mjs";

const NEW_FIGHT = { version: 1, fighters: {}, actor: null, target: null, turns: [], turn: 0 };
const FIGHT = {
  version: 1,
  fighters: { Alrik: { actions: { attack: { eig1: "14" } }, stats: {} }, Ork: { actions: {}, stats: { lep: "12" } } },
  actor: "Alrik",
  target: "Ork",
  turns: [{ name: "Alrik", label: "Alrik (INI 14)" }],
  turn: 0,
};

test("fight.js: the fight of a system is kept under „kampf:<system>“", () => {
  assert.equal(key("dsa"), "kampf:dsa");
});

test("fight.js: with nothing stored a new fight begins", () => {
  useStorage();
  assert.deepEqual(load("dsa"), NEW_FIGHT);
});

test("fight.js: a stored fight is loaded as it was saved (save → load)", () => {
  const box = useStorage();
  save({ system: "dsa", fight: FIGHT, notices: null });
  assert.deepEqual(JSON.parse(box.getItem("regelwerk:kampf:dsa")), FIGHT);
  assert.deepEqual(load("dsa"), FIGHT);
  assert.deepEqual(load("pathfinder"), NEW_FIGHT); // every system has its own fight
});

const DAMAGED = [
  ["no JSON", "{kaputt"],
  ["another version", stored({ ...FIGHT, version: 2 })],
  ["no version", stored({ fighters: {} })],
  ["fighters that are a list", stored({ ...FIGHT, fighters: [] })],
  ["no fighters", stored({ version: 1 })],
  ["an order of turns that is no list", stored({ ...FIGHT, turns: "Alrik" })],
];

for (const [what, raw] of DAMAGED) {
  test(`fight.js: a stored fight with ${what} is set aside as the backup and a new fight begins (store.js: nothing is lost)`, () => {
    const box = useStorage({ "regelwerk:kampf:dsa": raw });
    assert.deepEqual(load("dsa"), NEW_FIGHT);
    assert.equal(box.getItem("regelwerk:kampf:dsa"), null);
    assert.equal(store.backup("kampf:dsa"), raw);
    store.dropBackup("kampf:dsa");
  });
}

test("fight.js: a fight without an order of turns (the Tickleiste's systems) is accepted", () => {
  const { turns, ...rest } = FIGHT;
  useStorage({ "regelwerk:kampf:ryssea": stored(rest) });
  assert.deepEqual(load("ryssea"), rest);
});

test("fight.js: fighter() makes a fighter's record on first use and returns the same one after", () => {
  const fight = structuredClone(NEW_FIGHT);
  const bruna = fighter(fight, "Bruna");
  assert.deepEqual(bruna, { actions: {}, stats: {} });
  bruna.stats.lep = "20";
  assert.equal(fighter(fight, "Bruna"), bruna);
  assert.deepEqual(fight.fighters, { Bruna: { actions: {}, stats: { lep: "20" } } });
});

test("fight.js: a fighter may be called anything – „constructor“, „__proto__“, „toString“ are names, not Object's properties (the issue „Outside data never reaches the page's prototypes“; util.js ownValue)", () => {
  const fight = structuredClone(NEW_FIGHT);
  for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
    const record = fighter(fight, name);
    assert.deepEqual(record, { actions: {}, stats: {} }, name);
    record.stats.lep = name;
  }
  assert.deepEqual(Object.keys(fight.fighters), ["constructor", "__proto__", "toString", "hasOwnProperty"]);
  assert.equal(Object.getPrototypeOf(fight.fighters), Object.prototype);
  assert.equal({}.stats, undefined);
  // and they survive a save and a load
  useStorage();
  save({ system: "dsa", fight, notices: null });
  const again = load("dsa");
  assert.deepEqual(Object.keys(again.fighters), ["constructor", "__proto__", "toString", "hasOwnProperty"]);
  assert.equal(fighter(again, "__proto__").stats.lep, "__proto__");
});

test("fight.js: names() lists the roster (the Tickleiste's fighters) and, without one, everyone the fight knows", () => {
  const fight = { ...structuredClone(NEW_FIGHT), fighters: { Alrik: {}, Ork: {}, Bruna: {} } };
  assert.deepEqual(names({ roster: [], fight }), ["Alrik", "Ork", "Bruna"]);
  assert.deepEqual(names({ roster: ["Bruna", "Cim"], fight }), ["Bruna", "Cim"]);
});
