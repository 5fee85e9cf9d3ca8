// Covers remember.js without a DOM: the storage key of a helper, what keepRoll writes after a
// roll (version 1: {version, values, shown: {display, seed, row}}, the page's presets left
// out), and the stored-shape check as restore applies it before it touches the form: a stored
// value of another shape is set aside (kept as the backup) and nothing is put back.
// Rules: remember.js's header and the „A fight without retyping“ issue (tests/browser/
// test_table_companion.py: a helper remembers its input and result between pages).
// Values of one roll (data-per-roll) are left out of what is kept.
// Not here: restoring an accepted value (restore fills the form at once; that it leaves out the
// values of one roll: tests/browser/test_per_roll.py) and reset.


import assert from "node:assert/strict";
import { test } from "node:test";

import { keepRoll, key, restore } from "../../site_plugins/assets/js/helpers/remember.js";
import * as store from "../../site_plugins/assets/js/common/store.js";
import { stored, useStorage } from "./support/storage.mjs";

const DISPLAY = { headline: "Treffer", sections: [{ kind: "dice", dice: [14] }] };

// A helper as remember.js sees it: its dataset and the fields of one roll (data-per-roll), by
// their paths – a plain field or a field of a list's rows.
function helperOf(action, preset = "", perRoll = []) {
  const inputs = perRoll.map((path) => ({ dataset: { path, type: "int" } }));
  return {
    dataset: { system: "ryssea", action, preset },
    querySelectorAll: (selector) => (selector.includes("[data-per-roll]") ? inputs : []),
  };
}

test("remember.js: a helper's last input is kept under „helfer:<system>.<action>“, shared by every page with that helper", () => {
  assert.equal(key(helperOf("attack")), "helfer:ryssea.attack");
  assert.equal(key({ id: "schildstoss-helfer", dataset: { system: "ryssea", action: "attack", preset: "angriffsart" } }), "helfer:ryssea.attack");
});

test("remember.js: keepRoll stores the input and the result as shown (remember.js header: version 1, written after each roll)", () => {
  const box = useStorage();
  const params = { eig1: "14", taw: "8", damage: "1W8+2" };
  keepRoll(helperOf("attack"), params, { ok: true, seed: 4242, result: { display: DISPLAY, row: 3, state: { gross: true } } });
  assert.deepEqual(JSON.parse(box.getItem("regelwerk:helfer:ryssea.attack")), {
    version: 1,
    values: params,
    shown: { display: DISPLAY, seed: 4242, row: 3 },
  });
});

test("remember.js: a page's presets are not carried to other pages (the Schildstoß helper keeps its purpose there)", () => {
  const box = useStorage();
  const params = { angriffsart: "schildstoss", eig1: "14" };
  keepRoll(helperOf("attack", "angriffsart"), params, { seed: 1, result: { display: DISPLAY } });
  const kept = JSON.parse(box.getItem("regelwerk:helfer:ryssea.attack"));
  assert.deepEqual(kept.values, { eig1: "14" });
  assert.equal(kept.shown.row, null);
  assert.deepEqual(params, { angriffsart: "schildstoss", eig1: "14" }); // the caller's params stay
});

test("remember.js: a value of one roll is not kept – the typed Angriffswurf, „Abwehr gelungen“, a list row's Willens-Wurf (issue 26: a reload brought the last roll's back, a believable wrong result)", () => {
  const box = useStorage();
  const helper = helperOf("attack", "", ["angriffswurf", "abwehr_gelungen", "fighters.0.willenswurf", "fighters.1.willenswurf"]);
  const params = {
    angriffswurf: "17",
    abwehr_gelungen: true,
    verteidigungswert: "12",
    fighters: [{ name: "Alrik", willenswurf: "9" }, { name: "Ork", willenswurf: "4" }],
  };
  keepRoll(helper, params, { seed: 1, result: { display: DISPLAY } });
  assert.deepEqual(JSON.parse(box.getItem("regelwerk:helfer:ryssea.attack")).values, {
    verteidigungswert: "12",
    fighters: [{ name: "Alrik" }, { name: "Ork" }],
  });
  assert.equal(params.angriffswurf, "17"); // the caller's params (the shared link's) stay
  assert.equal(params.fighters[0].willenswurf, "9");
});

test("remember.js: a refused write is reported on the console, the roll itself is not affected", (t) => {
  useStorage({}, { refuse: true });
  const warn = t.mock.method(console, "warn", () => {});
  assert.doesNotThrow(() => keepRoll(helperOf("fumble"), { ursache: "kampftalent" }, { seed: 1, result: { display: DISPLAY } }));
  assert.equal(warn.mock.callCount(), 1);
  assert.match(warn.mock.calls[0].arguments.join(" "), /Der Browser hat das Speichern abgelehnt/);
});

test("remember.js: with nothing stored, restore puts nothing back", (t) => {
  useStorage();
  const warn = t.mock.method(console, "warn", () => {});
  assert.equal(restore(helperOf("attack")), null);
  assert.equal(warn.mock.callCount(), 0);
});

const REFUSED = [
  ["no JSON", "{kaputt", "nicht lesbar (kein gültiger Speicherstand)"],
  ["not a record", stored([1, 2]), "unbekannte Form"],
  ["another version", stored({ version: 2, values: {} }), "unbekannte Form"],
  ["no version", stored({ values: {} }), "unbekannte Form"],
  ["values that are a list", stored({ version: 1, values: [] }), "unbekannte Form"],
  ["a result without display", stored({ version: 1, values: {}, shown: { seed: 1 } }), "die letzte Anzeige ist unvollständig"],
  ["a result whose display has no sections", stored({ version: 1, values: {}, shown: { display: { headline: "x" }, seed: 1 } }), "die letzte Anzeige ist unvollständig"],
  ["a result that is text", stored({ version: 1, values: {}, shown: "Treffer" }), "die letzte Anzeige ist unvollständig"],
];

for (const [what, raw, reason] of REFUSED) {
  test(`remember.js: a stored input with ${what} is set aside and nothing is put back (store.js: kept as the backup; „${reason}“)`, (t) => {
    const box = useStorage({ "regelwerk:helfer:ryssea.attack": raw });
    const warn = t.mock.method(console, "warn", () => {});
    assert.equal(restore(helperOf("attack")), null);
    assert.equal(box.getItem("regelwerk:helfer:ryssea.attack"), null);
    assert.equal(store.backup("helfer:ryssea.attack"), raw);
    assert.match(warn.mock.calls[0].arguments.join(" "), new RegExp(`${reason.replace(/[()]/g, "\\$&")} – beiseitegelegt`));
    store.dropBackup("helfer:ryssea.attack");
  });
}
