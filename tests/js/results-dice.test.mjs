// Covers results.js hasDice: whether a result rolled dice – the signal for showing a
// Wurfnummer, „Link kopieren“ and a roll-log entry (issue 26: „no Wurfnummer and no „Link
// kopieren“ on results that involve no dice“). The engine side (a result without dice does not
// depend on the seed) is tests/engine/test_display_words.py.

import assert from "node:assert/strict";
import { test } from "node:test";

import { hasDice } from "../../site_plugins/assets/js/helpers/results.js";

const roll = (dice) => ({ label: "Wurf", notation: "1W6", dice, modifiers: [], total: "3" });

test("results.js: a display with a rolled die has dice", () => {
  const display = { headline: "", outcome: "", sections: [{ kind: "rolls", items: [roll([{ sides: 6, value: 3, kept: true }])] }] };
  assert.equal(hasDice(display), true);
});

test("results.js: tables, notes, chances or a roll without dice are no dice", () => {
  const sections = [
    { kind: "table", caption: "", columns: ["a"], rows: [["1"]] },
    { kind: "notes", caption: "", items: ["Keine Regel im Text."] },
    { kind: "chances", caption: "", items: [] },
    { kind: "rolls", items: [roll([])] },
  ];
  assert.equal(hasDice({ headline: "", outcome: "", sections }), false);
  assert.equal(hasDice({ headline: "", outcome: "", sections: [] }), false);
});

test("results.js: a missing or malformed display is no dice, never a throw", () => {
  for (const display of [undefined, null, {}, { sections: null }, { sections: [null] }, { sections: [{ kind: "rolls" }] }, { sections: [{ kind: "rolls", items: [null] }] }]) {
    assert.equal(hasDice(display), false);
  }
});
