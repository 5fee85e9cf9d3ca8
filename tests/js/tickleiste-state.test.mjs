// Covers fight/tickleiste-state.js: what the browser keeps around a Tickleiste – none of it a
// copy of the board, which is the fight's (fight/store.js): the engine's last picture of the
// board (checkPicture: drawn only while it is the one of the fight's board), the board older
// pages kept beside the fight (checkLegacy: read once, then set aside), isEmpty, and the file
// format (fileText/parseFile round trip, every German refusal of parseFile). Rules: the module's
// header; issue #48 (Deliver 2: „The Tickleiste's board is part of the fight's journal, not a
// second stored copy“); the „Nothing lost, nothing stuck“ issue (corrupt storage set aside,
// versioned files); the Zeitstrahl itself is the engine's (000_5fbfd0ad384a0921.txt L9–L45).

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  FILE_MAX_BYTES,
  checkLegacy,
  checkPicture,
  fileText,
  isEmpty,
  legacyKey,
  parseFile,
  picture,
  pictureKey,
} from "../../site_plugins/assets/js/fight/tickleiste-state.js";

const FIGHTER = { name: "Alrik", ini: 12, intuition: 4, modifier: 0, surprised: false, status: "aktiv", tick: 3, order: 1 };
const STATE = { version: 1, started: true, seq: 1, log: [], fighters: [FIGHTER] };
const SHOWN = {
  display: { headline: "Alrik ist am Zug", sections: [{ kind: "table", rows: [] }] },
  board: { fields: [] },
  next: "Alrik",
  seed: 11,
};
const KEY = { board: STATE, unable: [] };
const V2 = { version: 2, state: STATE, shown: SHOWN, undo: [{ state: {}, label: "Alrik hinzugefügt" }], redo: [] };

// ------------------------------------------------------------------ the picture

test("tickleiste-state.js: the picture is kept per system and names the board it shows", () => {
  assert.equal(pictureKey("ryssea"), "tickleiste-bild:ryssea");
  assert.deepEqual(picture(KEY, SHOWN), { version: 1, key: KEY, shown: SHOWN });
  assert.equal(checkPicture(picture(KEY, SHOWN)), "");
  assert.equal(checkPicture(picture(KEY, { ...SHOWN, board: undefined })), ""); // no board drawn yet
});

const REFUSED_PICTURES = [
  ["not a record", null, "kein Bild der Tickleiste"],
  ["another version", { ...picture(KEY, SHOWN), version: 2 }, "kein Bild der Tickleiste"],
  ["no key", { version: 1, shown: SHOWN }, "das Bild nennt seinen Stand nicht"],
  ["a display that is no record", picture(KEY, "x"), "die letzte Anzeige fehlt"],
  ["a display without headline", picture(KEY, { ...SHOWN, display: { sections: [] } }), "die letzte Anzeige ist unvollständig"],
  ["a section without kind", picture(KEY, { ...SHOWN, display: { headline: "x", sections: [{ rows: [] }] } }), "die letzte Anzeige ist unvollständig"],
  ["a board without fields", picture(KEY, { ...SHOWN, board: {} }), "der Zeitstrahl ist unvollständig"],
];

for (const [what, value, reason] of REFUSED_PICTURES) {
  test(`tickleiste-state.js: checkPicture refuses ${what} in German: „${reason}“ (it is set aside, the engine draws the board)`, () => {
    assert.equal(checkPicture(value), reason);
  });
}

// ------------------------------------------------------------------ what older pages kept

test("tickleiste-state.js: legacyKey names the board older pages kept, „ryssea“ when the page names none", () => {
  assert.equal(legacyKey({ dataset: {} }), "tickleiste:ryssea");
  assert.equal(legacyKey({ dataset: { storage: "probe" } }), "tickleiste:probe");
});

test("tickleiste-state.js: checkLegacy reads what older pages kept (versions 1 and 2)", () => {
  assert.equal(checkLegacy(V2), "");
  assert.equal(checkLegacy({ state: STATE, next: "Alrik", body: { ok: true } }), ""); // version 1
  assert.equal(checkLegacy({ version: 2, state: {} }), "");
});

const REFUSED_LEGACY = [
  ["not a record", null, "kein Speicherstand der Tickleiste"],
  ["a list", [V2], "kein Speicherstand der Tickleiste"],
  ["no state", { version: 2 }, "der Stand der Tickleiste fehlt"],
  ["a state that is a list", { version: 2, state: [] }, "der Stand der Tickleiste fehlt"],
  ["an unknown version", { ...V2, version: 3 }, "der Speicherstand hat die Version 3, erwartet ist 2"],
  ["no version at all", { ...V2, version: null }, "der Speicherstand gibt keine Version an, erwartet ist 2"],
  ["fighters that are no list", { ...V2, state: { fighters: "x" } }, "die Kämpferliste ist beschädigt"],
];

for (const [what, value, reason] of REFUSED_LEGACY) {
  test(`tickleiste-state.js: checkLegacy refuses ${what} in German: „${reason}“ (set aside, never taken over)`, () => {
    assert.equal(checkLegacy(value), reason);
  });
}

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
