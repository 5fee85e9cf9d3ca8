// Covers tickleiste-state.js: the shapes the browser keeps of a Tickleiste and its files –
// check (the stored value, version 2, and the accepted version 1), normalize (version 1
// taken over, missing parts filled in; the undo lists of earlier pages dropped), isEmpty, key, and the file format (fileText/parseFile round trip, every German
// refusal of parseFile). Rules: the module's header, the „Nothing lost, nothing stuck“ issue
// (tests/browser/test_tickleiste.py: corrupt storage set aside, undo across reloads,
// versioned files); the Zeitstrahl itself is the engine's (000_5fbfd0ad384a0921.txt L9–L45).

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  FILE_MAX_BYTES,
  check,
  fileText,
  isEmpty,
  key,
  normalize,
  parseFile,
} from "../../site_plugins/assets/js/fight/tickleiste-state.js";

const FIGHTER = { name: "Alrik", ini: 12, intuition: 4, modifier: 0, surprised: false, status: "aktiv", tick: 3, order: 1 };
const STATE = { version: 1, started: true, seq: 1, log: [], fighters: [FIGHTER] };
const SHOWN = {
  display: { headline: "Alrik ist am Zug", sections: [{ kind: "table", rows: [] }] },
  board: { fields: [] },
  next: "Alrik",
  event: null,
  seed: 11,
};
const V2 = { version: 2, state: STATE, shown: SHOWN, undo: [{ state: {}, label: "Alrik hinzugefügt" }], redo: [] };

// ------------------------------------------------------------------ the stored value

test("tickleiste-state.js: key names the board's storage, „ryssea“ when the page names none", () => {
  assert.equal(key({ dataset: {} }), "tickleiste:ryssea");
  assert.equal(key({ dataset: { storage: "probe" } }), "tickleiste:probe");
});

test("tickleiste-state.js: check accepts a complete stored value of version 2 (module header: the stored value)", () => {
  assert.equal(check(V2), "");
  assert.equal(check({ version: 2, state: {} }), ""); // shown, undo and redo may be missing
  assert.equal(check({ ...V2, shown: null }), "");
  assert.equal(check({ ...V2, shown: { ...SHOWN, board: undefined } }), ""); // no board drawn yet
});

test("tickleiste-state.js: check accepts version 1 ({state, next, body}) – it is taken over, the engine checks the state", () => {
  assert.equal(check({ state: STATE, next: "Alrik", body: { ok: true } }), "");
  assert.equal(check({ state: {} }), "");
});

const REFUSED_VALUES = [
  ["not a record", null, "kein Speicherstand der Tickleiste"],
  ["a list", [V2], "kein Speicherstand der Tickleiste"],
  ["a number", 2, "kein Speicherstand der Tickleiste"],
  ["no state", { version: 2 }, "der Stand der Tickleiste fehlt"],
  ["a state that is a list", { version: 2, state: [] }, "der Stand der Tickleiste fehlt"],
  ["an unknown version", { ...V2, version: 3 }, "der Speicherstand hat die Version 3, erwartet ist 2"],
  ["no version at all", { ...V2, version: null }, "der Speicherstand gibt keine Version an, erwartet ist 2"],
  ["a long version, quoted shortened", { ...V2, version: "12345678901234567890" }, "der Speicherstand hat die Version 1234567890, erwartet ist 2"],
  ["fighters that are no list", { ...V2, state: { fighters: "x" } }, "die Kämpferliste ist beschädigt"],
  ["a last display that is no record", { ...V2, shown: "x" }, "die letzte Anzeige fehlt"],
  ["a last display without its display (tests/browser/test_tickleiste.py „no-display“)", { ...V2, shown: { board: { fields: [] } } }, "die letzte Anzeige fehlt"],
  ["a display without headline", { ...V2, shown: { ...SHOWN, display: { sections: [] } } }, "die letzte Anzeige ist unvollständig"],
  ["a display without sections", { ...V2, shown: { ...SHOWN, display: { headline: "x", sections: {} } } }, "die letzte Anzeige ist unvollständig"],
  ["a section without kind", { ...V2, shown: { ...SHOWN, display: { headline: "x", sections: [{ kind: "table" }, { rows: [] }] } } }, "die letzte Anzeige ist unvollständig"],
  ["a section that is null", { ...V2, shown: { ...SHOWN, display: { headline: "x", sections: [null] } } }, "die letzte Anzeige ist unvollständig"],
  ["a board without fields", { ...V2, shown: { ...SHOWN, board: {} } }, "der Zeitstrahl ist unvollständig"],
  ["a board that is null", { ...V2, shown: { ...SHOWN, board: null } }, "der Zeitstrahl ist unvollständig"],
  ["an undo list that is no list", { ...V2, undo: {} }, "die Liste zum Rückgängigmachen ist beschädigt"],
  ["an undo entry without state", { ...V2, undo: [{ label: "x" }] }, "die Liste zum Rückgängigmachen ist beschädigt"],
  ["a redo entry that is null", { ...V2, redo: [null] }, "die Liste zum Rückgängigmachen ist beschädigt"],
];

for (const [what, value, reason] of REFUSED_VALUES) {
  test(`tickleiste-state.js: check refuses ${what} in German: „${reason}“ (the „Nothing lost, nothing stuck“ issue: corrupt storage is set aside)`, () => {
    assert.equal(check(value), reason);
  });
}

test("tickleiste-state.js: normalize of nothing is an empty board of version 2", () => {
  assert.deepEqual(normalize(null), { version: 2, state: {}, shown: null, undo: [], redo: [] });
  assert.deepEqual(normalize(undefined), normalize(null));
});

test("tickleiste-state.js: normalize takes over version 1 ({state, next, body}): the last answer's display is kept when complete", () => {
  const body = { ok: true, seed: 11, result: { display: SHOWN.display, board: SHOWN.board, next: "Alrik", event: null, state: STATE } };
  assert.deepEqual(normalize({ state: STATE, next: "Alrik", body }), {
    version: 2,
    state: STATE,
    shown: { display: SHOWN.display, board: SHOWN.board, next: "Alrik", event: null, seed: 11 },
    undo: [],
    redo: [],
  });
});

test("tickleiste-state.js: normalize of version 1 drops an incomplete or missing last display, keeps the state", () => {
  for (const body of [undefined, null, "x", { seed: 1 }, { result: "x" }, { result: { display: { headline: "x" } } }, { result: { display: SHOWN.display, board: {} } }]) {
    const value = normalize({ state: STATE, next: "Alrik", body });
    assert.deepEqual(value, { version: 2, state: STATE, shown: null, undo: [], redo: [] }, JSON.stringify(body));
  }
});

test("tickleiste-state.js: normalize of version 2 keeps the board and what was shown; the undo lists of earlier pages are not kept (the fight's history is the one undo, fight-journal.js)", () => {
  assert.deepEqual(normalize(V2), { ...V2, undo: [] });
  assert.deepEqual(normalize({ version: 2, state: STATE }), { version: 2, state: STATE, shown: null, undo: [], redo: [] });
});

test("tickleiste-state.js: isEmpty is true for a board without fighters", () => {
  assert.equal(isEmpty({}), true);
  assert.equal(isEmpty({ fighters: [] }), true);
  assert.equal(isEmpty(null), true);
  assert.equal(isEmpty({ fighters: "x" }), true);
  assert.equal(isEmpty(STATE), false);
});

// ------------------------------------------------------------------ the file

test("tickleiste-state.js: a saved file is {format: „regelwerk-tickleiste“, version: 1, saved, state} and loads back to the same state (module header: the file)", () => {
  const text = fileText(STATE);
  const file = JSON.parse(text);
  assert.deepEqual(Object.keys(file), ["format", "version", "saved", "state"]);
  assert.equal(file.format, "regelwerk-tickleiste");
  assert.equal(file.version, 1);
  assert.equal(Number.isNaN(Date.parse(file.saved)), false);
  assert.deepEqual(parseFile(text, "tickleiste.json"), { state: STATE, problem: "" });
  assert.deepEqual(parseFile(fileText({}), "leer.json"), { state: {}, problem: "" });
});

test("tickleiste-state.js: files may be as large as FILE_MAX_BYTES (200 KB, checked by store.readFile before parseFile)", () => {
  assert.equal(FILE_MAX_BYTES, 200000);
});

const saved = JSON.parse(fileText(STATE));
const REFUSED_FILES = [
  ["text that is no JSON (the browser test's kaputt.json)", "{nope", "„x.json“ ist keine lesbare Datei (der Inhalt ist beschädigt)."],
  ["an empty file", "", "„x.json“ ist keine lesbare Datei (der Inhalt ist beschädigt)."],
  ["null", "null", "„x.json“ ist keine Tickleisten-Datei (es fehlt die Angabe „format: regelwerk-tickleiste“)."],
  ["an empty record", "{}", "„x.json“ ist keine Tickleisten-Datei (es fehlt die Angabe „format: regelwerk-tickleiste“)."],
  ["a list", JSON.stringify([saved]), "„x.json“ ist keine Tickleisten-Datei (es fehlt die Angabe „format: regelwerk-tickleiste“)."],
  ["a file of another format („Meine Werte“)", JSON.stringify({ ...saved, format: "regelwerk-werte" }), "„x.json“ ist keine Tickleisten-Datei (es fehlt die Angabe „format: regelwerk-tickleiste“)."],
  ["a stored value instead of a file", JSON.stringify(V2), "„x.json“ ist keine Tickleisten-Datei (es fehlt die Angabe „format: regelwerk-tickleiste“)."],
  ["a newer version", JSON.stringify({ ...saved, version: 7 }), "„x.json“ hat die Version 7; diese Seite liest Version 1."],
  ["a version given as text", JSON.stringify({ ...saved, version: "1" }), "„x.json“ hat die Version 1; diese Seite liest Version 1."],
  ["a missing state", JSON.stringify({ ...saved, state: undefined }), "In „x.json“ fehlt der Stand der Tickleiste („state“)."],
  ["a state that is a list (the browser test's tief.json)", JSON.stringify({ ...saved, state: [[[]]] }), "In „x.json“ fehlt der Stand der Tickleiste („state“)."],
  ["a state that is null", JSON.stringify({ ...saved, state: null }), "In „x.json“ fehlt der Stand der Tickleiste („state“)."],
];

for (const [what, text, problem] of REFUSED_FILES) {
  test(`tickleiste-state.js: loading refuses ${what} in German (module header: loading accepts nothing else and says what is wrong)`, () => {
    assert.deepEqual(parseFile(text, "x.json"), { state: null, problem });
  });
}

test("tickleiste-state.js: a refusal quotes a long file name shortened to 39 characters and „…“", () => {
  const name = `${"b".repeat(45)}.json`;
  assert.equal(parseFile("{nope", name).problem, `„${"b".repeat(39)}…“ ist keine lesbare Datei (der Inhalt ist beschädigt).`);
});
