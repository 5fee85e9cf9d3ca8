// Covers saved.js („Meine Werte“) without a DOM: the stored shape (entries() with a fake
// localStorage: a damaged store is set aside, never dropped; another tab's change is read
// again), forAction, the refusals of save/rename that come before anything is written, and
// importText (the file of all sets: refusals in German, names cleaned, clashes, the merged
// list). Rules: saved.js's header and the „At the table …“ issue (tests/browser/
// test_table_companion.py: saved values, their file, two tabs keep both sets).
// Not here: commit() and everything after it (save/remove/rename that write) – commit
// announces the change on `document`; the bar in a form – it builds elements.


import assert from "node:assert/strict";
import { test } from "node:test";

import * as saved from "../../site_plugins/assets/js/helpers/saved.js";
import * as store from "../../site_plugins/assets/js/common/store.js";
import { stored, useStorage } from "./support/storage.mjs";

const KEY = "regelwerk:werte";

function entry(name, more = {}) {
  return { id: `id-${name}`, name, system: "ryssea", action: "attack", values: { eig1: "14", taw: "8" }, saved: "2024-05-01T10:00:00.000Z", ...more };
}

function storedSets(...entries) {
  return { [KEY]: stored({ version: 1, entries }) };
}

function werteFile(entries, more = {}) {
  return JSON.stringify({ format: "regelwerk-werte", version: 1, saved: "2024-05-01T10:00:00.000Z", entries, ...more });
}

// ------------------------------------------------------------------ the stored sets

test("saved.js: with nothing stored there are no sets", () => {
  useStorage();
  assert.deepEqual(saved.entries(), []);
});

test("saved.js: stored sets of version 1 are read as they are (saved.js header: {version, entries: [{id, name, system, action, values, saved}]})", () => {
  const sets = [entry("Alrik"), entry("Bruna", { action: "fumble", values: {} })];
  useStorage(storedSets(...sets));
  assert.deepEqual(saved.entries(), sets);
  assert.equal(saved.entries(), saved.entries()); // read once while the stored text is the same
});

const DAMAGED = [
  ["no JSON", "{kaputt"],
  ["another version", stored({ version: 2, entries: [] })],
  ["no list of entries", stored({ version: 1, entries: {} })],
  ["a list instead of the record", stored([entry("Alrik")])],
  ["an entry without a name", stored({ version: 1, entries: [entry("Alrik"), { ...entry("x"), name: "  " }] })],
  ["an entry whose values are a list", stored({ version: 1, entries: [entry("Alrik", { values: [] })] })],
  ["an entry without its helper", stored({ version: 1, entries: [entry("Alrik", { action: undefined })] })],
  ["an entry that is null", stored({ version: 1, entries: [null] })],
];

for (const [what, raw] of DAMAGED) {
  test(`saved.js: stored sets with ${what} are set aside as the backup, never dropped, and the list starts empty (the „At the table …“ issue; store.js)`, () => {
    const box = useStorage({ [KEY]: raw });
    assert.deepEqual(saved.entries(), []);
    assert.equal(box.getItem(KEY), null);
    assert.equal(store.backup("werte"), raw);
    store.dropBackup("werte");
  });
}

test("saved.js: sets saved in another tab are read again before they are used (tests/browser/test_table_companion.py: saving in two tabs keeps both sets)", () => {
  const box = useStorage(storedSets(entry("Alrik")));
  assert.deepEqual(saved.entries().map((e) => e.name), ["Alrik"]);
  box.setItem(KEY, stored({ version: 1, entries: [entry("Alrik"), entry("Bruna")] })); // the other tab
  assert.deepEqual(saved.entries().map((e) => e.name), ["Alrik", "Bruna"]);
  box.removeItem(KEY); // the reader cleared the site's data
  assert.deepEqual(saved.entries(), []);
});

test("saved.js: forAction lists one helper's sets in German alphabetical order", () => {
  useStorage(storedSets(entry("Zora"), entry("Äsk"), entry("Bruna"), entry("alrik"), entry("Cim", { action: "fumble" }), entry("Dora", { system: "dsa" })));
  assert.deepEqual(saved.forAction("ryssea", "attack").map((e) => e.name), ["alrik", "Äsk", "Bruna", "Zora"]);
  assert.deepEqual(saved.forAction("ryssea", "fumble").map((e) => e.name), ["Cim"]);
  assert.deepEqual(saved.forAction("dsa", "fumble"), []);
});

test("saved.js: a set needs a name – save and rename refuse a blank one in German and write nothing", () => {
  const box = useStorage(storedSets(entry("Alrik")));
  const before = box.dump();
  for (const blank of ["", "   ", "\n\t"]) {
    assert.equal(saved.save("ryssea", "attack", blank, { eig1: "1" }), "Bitte einen Namen eingeben.");
    assert.equal(saved.rename("id-Alrik", blank), "Bitte einen Namen eingeben.");
  }
  assert.deepEqual(box.dump(), before);
});

test("saved.js: at most 500 sets are kept – a 501st is refused in German and nothing is written", () => {
  const many = Array.from({ length: 500 }, (_, index) => entry(`Satz ${index}`));
  const box = useStorage(storedSets(...many));
  const before = box.dump();
  assert.equal(saved.save("ryssea", "attack", "Noch einer", { eig1: "1" }), "Höchstens 500 gespeicherte Werte.");
  assert.deepEqual(box.dump(), before);
});

// ------------------------------------------------------------------ the file of all sets

const REFUSED_FILES = [
  ["text that is no JSON", "{kaputt", "„werte.json“ ist keine lesbare Datei (der Inhalt ist beschädigt)."],
  ["null (the browser test's null.json)", "null", "„werte.json“ ist keine Datei von „Meine Werte“ (es fehlt „format: regelwerk-werte“)."],
  ["a file of the Tickleiste", JSON.stringify({ format: "regelwerk-tickleiste", version: 1, state: {} }), "„werte.json“ ist keine Datei von „Meine Werte“ (es fehlt „format: regelwerk-werte“)."],
  ["the stored value instead of the file", stored({ version: 1, entries: [] }), "„werte.json“ ist keine Datei von „Meine Werte“ (es fehlt „format: regelwerk-werte“)."],
  ["another version (the browser test's alt.json)", werteFile([], { version: 9 }), "„werte.json“ hat die Version 9; diese Seite liest Version 1."],
  ["no list of entries", werteFile(undefined), "In „werte.json“ fehlt die Liste „entries“."],
  ["entries that are a record", werteFile({ a: entry("Alrik") }), "In „werte.json“ fehlt die Liste „entries“."],
  ["an entry with only a name (the browser test's halb.json)", werteFile([{ name: "x" }]), "In „werte.json“ ist Eintrag 1 unvollständig (Name, System, Helfer und Werte nötig)."],
  ["a blank name in the second entry", werteFile([entry("Alrik"), entry(" ")]), "In „werte.json“ ist Eintrag 2 unvollständig (Name, System, Helfer und Werte nötig)."],
  ["values that are text", werteFile([entry("Alrik", { values: "eig1=14" })]), "In „werte.json“ ist Eintrag 1 unvollständig (Name, System, Helfer und Werte nötig)."],
];

for (const [what, text, problem] of REFUSED_FILES) {
  test(`saved.js: importing refuses ${what} in German (the „At the table …“ issue: the file is checked)`, () => {
    const box = useStorage(storedSets(entry("Alrik")));
    const before = box.dump();
    assert.deepEqual(saved.importText(text, "werte.json"), { problem });
    assert.deepEqual(box.dump(), before);
  });
}

test("saved.js: an import refusal quotes a long file name shortened to 39 characters and „…“", () => {
  useStorage();
  const name = `${"c".repeat(41)}.json`;
  assert.equal(saved.importText("{", name).problem, `„${"c".repeat(39)}…“ ist keine lesbare Datei (der Inhalt ist beschädigt).`);
});

test("saved.js: importing into an empty browser takes every set, names cleaned like typed ones (spaces, at most 60 characters)", () => {
  useStorage();
  const long = `Alrik ${"x".repeat(80)}`;
  const result = saved.importText(werteFile([entry("  Alrik \n –  Langschwert "), entry(long, { id: undefined })]), "werte.json");
  assert.equal(result.problem, "");
  assert.deepEqual(result.clashes, []);
  assert.deepEqual(result.incoming.map((e) => e.name), ["Alrik – Langschwert", long.slice(0, 60)]);
  assert.equal(result.incoming[0].id, "id-  Alrik \n –  Langschwert "); // a file's ids are kept …
  assert.equal(typeof result.incoming[1].id, "string"); // … a missing one is made
  assert.notEqual(result.incoming[1].id, "");
  assert.deepEqual(result.incoming[0].values, { eig1: "14", taw: "8" });
  assert.deepEqual(result.merged, result.incoming);
});

test("saved.js: importing names the sets that would replace sets of the same helper and name, and replaces only those (the „At the table …“ issue: replaces only when asked)", () => {
  const box = useStorage(storedSets(entry("Alrik"), entry("Bruna"), entry("Alrik", { id: "id-Alrik-patzer", action: "fumble" })));
  const before = box.dump();
  const changed = entry("Alrik", { id: "id-neu", values: { eig1: "14", taw: "2" } });
  const result = saved.importText(werteFile([changed, entry("Cim")]), "zurueck.json");
  assert.equal(result.problem, "");
  assert.deepEqual(result.clashes.map((e) => e.id), ["id-neu"]); // not the fumble helper's „Alrik“
  assert.deepEqual(result.merged.map((e) => e.id), ["id-Bruna", "id-Alrik-patzer", "id-neu", "id-Cim"]);
  assert.equal(result.merged.find((e) => e.id === "id-neu").values.taw, "2");
  assert.deepEqual(box.dump(), before); // nothing is written before the reader agrees (saved-page.js)
});

test("saved.js: a clash is found by the cleaned name („Alrik  “ in the file is „Alrik“ here)", () => {
  useStorage(storedSets(entry("Alrik")));
  const result = saved.importText(werteFile([entry("Alrik  ", { id: "id-datei" })]), "werte.json");
  assert.deepEqual(result.clashes.map((e) => e.name), ["Alrik"]);
  assert.deepEqual(result.merged.map((e) => e.id), ["id-datei"]);
});

test("saved.js: after an import no two sets share an id (remove and choosing a set find a set by its id)", () => {
  // the reader saved the file, renamed „Alrik“ here, and loads the file again
  useStorage(storedSets(entry("Alrik", { id: "id-1", name: "Alrik (alt)" })));
  const result = saved.importText(werteFile([entry("Alrik", { id: "id-1" })]), "werte.json");
  const ids = result.merged.map((e) => e.id);
  assert.equal(new Set(ids).size, ids.length, `ids: ${ids.join(", ")}`);
});

test("saved.js: an import that would keep more than 500 sets is refused in German, like saving a 501st", () => {
  useStorage(storedSets(...Array.from({ length: 400 }, (_, index) => entry(`Hier ${index}`))));
  const file = werteFile(Array.from({ length: 200 }, (_, index) => entry(`Datei ${index}`)));
  const result = saved.importText(file, "viele.json");
  assert.match(result.problem, /500/);
});
