// Covers store.js: what a reader keeps in the browser, kept without loss – read (parse, check,
// set aside as the backup what cannot be used, report it in German), write (a refused write
// says so in German and changes nothing), peek, setAside, backup, dropBackup, remove, storage
// that is blocked or missing (everything works for the visit), and readFile's size limit
// (the limit in German KB). The rules are store.js's header and CONTRIBUTING.md („Speichern
// im Browser ohne Verlust“), the „Nothing lost, nothing stuck“ issue (tests/browser/
// test_tickleiste.py). download() needs a document and is left to the browser tests.
//
// store.js reads globalThis.localStorage on every call: each test installs its own fake
// (support/storage.mjs). Backups that could not be stored live in store.js for the visit (one
// module per file here), so every test uses keys of its own.

import assert from "node:assert/strict";
import { test } from "node:test";

import * as store from "../../site_plugins/assets/js/common/store.js";
import { FILE_MAX_BYTES } from "../../site_plugins/assets/js/fight/tickleiste-state.js";
import { blockStorage, fakeFile, noStorage, stored, useStorage } from "./support/storage.mjs";

const REFUSED =
  "Der Browser hat das Speichern abgelehnt (Speicher voll oder gesperrt) – " +
  "dieser Stand gilt nur, solange die Seite offen ist.";
const UNREADABLE = "nicht lesbar (kein gültiger Speicherstand)";

test("store.js: nothing stored reads as no value and no problem", () => {
  useStorage();
  assert.deepEqual(store.read("leer"), { value: null, problem: "" });
  assert.deepEqual(store.read("leer", () => "darf nicht gefragt werden"), { value: null, problem: "" });
  assert.equal(store.peek("leer"), null);
  assert.equal(store.backup("leer"), null);
});

test("store.js: a written value is stored as JSON under „regelwerk:<key>“ and read back", () => {
  const box = useStorage();
  const value = { version: 1, entries: [{ name: "Alrik – Langschwert", values: { taw: "8" } }] };
  assert.equal(store.write("werte", value), "");
  assert.deepEqual(box.dump(), { "regelwerk:werte": JSON.stringify(value) });
  assert.deepEqual(store.read("werte"), { value, problem: "" });
  assert.equal(store.peek("werte"), JSON.stringify(value));
});

test("store.js: a value its check accepts is used as stored (check returns \"\")", () => {
  useStorage({ "regelwerk:gut": stored({ version: 1 }) });
  let seen;
  const result = store.read("gut", (value) => {
    seen = value;
    return "";
  });
  assert.deepEqual(seen, { version: 1 });
  assert.deepEqual(result, { value: { version: 1 }, problem: "" });
});

test("store.js: corrupt JSON is set aside as the backup (never dropped) and reported in German (store.js header: anything unreadable is moved aside)", () => {
  const box = useStorage({ "regelwerk:kaputt": "{kein json" });
  const result = store.read("kaputt", () => "");
  assert.deepEqual(result, { value: null, problem: UNREADABLE });
  assert.equal(box.getItem("regelwerk:kaputt"), null); // the board starts empty …
  assert.equal(store.backup("kaputt"), "{kein json"); // … and the text is kept, as it was
  const kept = JSON.parse(box.getItem("regelwerk:sicherung:kaputt"));
  assert.equal(kept.raw, "{kein json");
  assert.equal(Number.isNaN(Date.parse(kept.at)), false); // when it was set aside
});

test("store.js: a value its check refuses is set aside with the check's German reason", () => {
  const raw = stored({ version: 9 });
  const box = useStorage({ "regelwerk:alt": raw });
  const result = store.read("alt", (value) => (value.version === 1 ? "" : "unbekannte Version 9"));
  assert.deepEqual(result, { value: null, problem: "unbekannte Version 9" });
  assert.equal(box.getItem("regelwerk:alt"), null);
  assert.equal(store.backup("alt"), raw);
});

test("store.js: one backup per key – the newest replaces the older one", () => {
  useStorage({ "regelwerk:zweimal": "{erster" });
  store.read("zweimal", () => "");
  globalThis.localStorage.setItem("regelwerk:zweimal", "{zweiter");
  store.read("zweimal", () => "");
  assert.equal(store.backup("zweimal"), "{zweiter");
});

test("store.js: peek gives the stored text as it is, unparsed and unchecked (to notice another tab's change)", () => {
  useStorage({ "regelwerk:roh": "{kein json" });
  assert.equal(store.peek("roh"), "{kein json");
  assert.equal(store.peek("roh"), "{kein json"); // peeking sets nothing aside
  assert.equal(store.backup("roh"), null);
});

test("store.js: setAside moves the stored value to the backup (a state the engine refused, tickleiste.js)", () => {
  const raw = stored({ state: { fighters: [null] } });
  const box = useStorage({ "regelwerk:abgelehnt": raw });
  store.setAside("abgelehnt");
  assert.equal(box.getItem("regelwerk:abgelehnt"), null);
  assert.equal(store.backup("abgelehnt"), raw);
});

test("store.js: setAside with nothing stored keeps the earlier backup", () => {
  useStorage({ "regelwerk:sicherung:nichts": stored({ at: "2024-01-01T00:00:00.000Z", raw: "{alt" }) });
  store.setAside("nichts");
  assert.equal(store.backup("nichts"), "{alt");
});

test("store.js: dropBackup forgets the backup, remove forgets the value (and neither touches the other)", () => {
  const box = useStorage({ "regelwerk:beides": stored({ a: 1 }), "regelwerk:sicherung:beides": stored({ at: "", raw: "{x" }) });
  store.dropBackup("beides");
  assert.equal(store.backup("beides"), null);
  assert.equal(box.getItem("regelwerk:beides"), stored({ a: 1 }));
  box.setItem("regelwerk:sicherung:beides", stored({ at: "", raw: "{y" }));
  store.remove("beides");
  assert.equal(box.getItem("regelwerk:beides"), null);
  assert.equal(store.backup("beides"), "{y");
});

test("store.js: a refused write (storage full) returns the German message and loses nothing (store.js header: nothing pretends to be saved)", () => {
  const before = stored({ version: 1, entries: [] });
  const box = useStorage({ "regelwerk:voll": before }, { refuse: true });
  assert.equal(store.write("voll", { version: 1, entries: [{ name: "neu" }] }), REFUSED);
  assert.equal(box.getItem("regelwerk:voll"), before);
  assert.deepEqual(store.read("voll"), { value: JSON.parse(before), problem: "" });
});

test("store.js: a backup the browser refuses to store is kept for this visit (store.js: „keep it at least for this visit“)", () => {
  const box = useStorage({ "regelwerk:gross": "{zu gross" }, { refuse: (key) => key.startsWith("regelwerk:sicherung:") });
  assert.deepEqual(store.read("gross", () => ""), { value: null, problem: UNREADABLE });
  assert.equal(box.getItem("regelwerk:sicherung:gross"), null);
  assert.equal(store.backup("gross"), "{zu gross");
  store.dropBackup("gross");
  assert.equal(store.backup("gross"), null);
});

for (const [how, block] of [
  ["the getter throws (cookies blocked)", blockStorage],
  ["localStorage is null", noStorage],
]) {
  test(`store.js: blocked storage (${how}) – reading finds nothing, writing says so in German, nothing throws`, () => {
    block();
    assert.deepEqual(store.read("gesperrt", () => "nie gefragt"), { value: null, problem: "" });
    assert.equal(store.peek("gesperrt"), null);
    assert.equal(store.write("gesperrt", { version: 1 }), REFUSED);
    assert.equal(store.backup("gesperrt"), null);
    assert.doesNotThrow(() => {
      store.setAside("gesperrt");
      store.remove("gesperrt");
      store.dropBackup("gesperrt");
    });
  });
}

test("store.js: storage whose every call throws reads as empty and refuses writes in German", () => {
  const broken = () => {
    throw new DOMException("kaputt", "UnknownError");
  };
  Object.defineProperty(globalThis, "localStorage", {
    configurable: true,
    value: { getItem: broken, setItem: broken, removeItem: broken },
  });
  assert.deepEqual(store.read("wackelt", () => ""), { value: null, problem: "" });
  assert.equal(store.peek("wackelt"), null);
  assert.equal(store.backup("wackelt"), null);
  assert.equal(store.write("wackelt", 1), REFUSED);
  assert.doesNotThrow(() => {
    store.setAside("wackelt");
    store.remove("wackelt");
    store.dropBackup("wackelt");
  });
});

test("store.js: a corrupt stored backup reads as no backup", () => {
  useStorage({ "regelwerk:sicherung:huelle": "{keine hülle" });
  assert.equal(store.backup("huelle"), null);
});

// ------------------------------------------------------------------ readFile

test("store.js: readFile refuses a file over the limit before reading it, the limit in German KB („200 KB“, the Tickleiste's FILE_MAX_BYTES)", async () => {
  const file = fakeFile("gross.json", "", { size: 300000 });
  const result = await store.readFile(file, FILE_MAX_BYTES);
  assert.deepEqual(result, { text: null, problem: "„gross.json“ ist zu groß (höchstens 200 KB)." });
  assert.equal(file.read, 0);
});

test("store.js: readFile writes a limit of 1000000 bytes as „1.000 KB“ (the limit of „Meine Werte“, saved-page.js)", async () => {
  const result = await store.readFile(fakeFile("werte.json", "", { size: 1000001 }), 1000000);
  assert.equal(result.problem, "„werte.json“ ist zu groß (höchstens 1.000 KB).");
});

test("store.js: readFile reads a file of exactly the limit and returns its text", async () => {
  const text = JSON.stringify({ format: "regelwerk-tickleiste" });
  const result = await store.readFile(fakeFile("genau.json", text, { size: 200000 }), 200000);
  assert.deepEqual(result, { text, problem: "" });
});

test("store.js: readFile says in German when a file cannot be read", async () => {
  const result = await store.readFile(fakeFile("weg.json", "", { unreadable: true }), 200000);
  assert.deepEqual(result, { text: null, problem: "„weg.json“ lässt sich nicht lesen." });
});

test("store.js: readFile quotes a long file name shortened to 39 characters and „…“ (CONTRIBUTING.md: inputs only quoted shortened)", async () => {
  const name = `${"a".repeat(50)}.json`;
  const result = await store.readFile(fakeFile(name, "", { size: 300000 }), FILE_MAX_BYTES);
  assert.equal(result.problem, `„${"a".repeat(39)}…“ ist zu groß (höchstens 200 KB).`);
});
