// Covers log.js's pure parts: the stored roll log's shape (checkLog), the cap of LOG_MAX
// entries with the newest first (withEntry), the entry a roll gives (entryOf: what a repeat
// after a reload needs – system, action, the params sent, the Wurfnummer, the helper's id),
// and that a stored log of another shape is set aside by store.js's backup, never a crash
// (issue 26: „the roll log is empty after a reload“; the rules are log.js's header). Showing
// the log and „Wiederholen“ after a reload are tests/browser/test_roll_log.py.

import assert from "node:assert/strict";
import { test } from "node:test";

import { LOG_MAX, LOG_VERSION, checkLog, entryOf, logKey, withEntry } from "../../site_plugins/assets/js/helpers/log.js";
import * as store from "../../site_plugins/assets/js/common/store.js";
import { useStorage } from "./support/storage.mjs";

const DICE = [{ sides: 20, value: 14, kept: true }];
const body = (seed, outcome = "Treffer.") => ({
  ok: true,
  system: "dsa",
  action: "attack",
  seed,
  params: { wert: 14, damage: "1W6+4", kind: "nahkampf" },
  result: { display: { headline: "Attacke", outcome, sections: [{ kind: "rolls", items: [{ dice: DICE }] }] } },
});

function entry(seed) {
  return entryOf("Attacke oder Schuss", body(seed), { system: "dsa", action: "attack", params: { wert: 14 } }, "helfer-dsa-attack");
}

test("log.js: an entry keeps what a repeat after a reload needs", () => {
  const made = entry(4242);
  assert.equal(made.label, "Attacke oder Schuss");
  assert.equal(made.outcome, "Treffer.");
  assert.equal(made.seed, "4242");
  assert.deepEqual(made.request, { system: "dsa", action: "attack", params: { wert: 14 } });
  assert.equal(made.helper, "helfer-dsa-attack");
  assert.equal(checkLog({ version: LOG_VERSION, entries: [made] }), "");
});

test("log.js: without the request sent, the answer's own system, action and params", () => {
  const made = entryOf("2W6", { ...body(7), system: "allgemein", action: "wurf", params: { notation: "2W6", mode: "normal" } });
  assert.deepEqual(made.request, { system: "allgemein", action: "wurf", params: { notation: "2W6", mode: "normal" } });
  assert.equal(made.helper, "");
  assert.equal(checkLog({ version: LOG_VERSION, entries: [made] }), "");
});

test(`log.js: the newest entry first, never more than ${LOG_MAX}`, () => {
  let entries = [];
  for (let seed = 1; seed <= LOG_MAX + 7; seed += 1) entries = withEntry(entries, entry(seed));
  assert.equal(entries.length, LOG_MAX);
  assert.equal(entries[0].seed, String(LOG_MAX + 7));
  assert.equal(entries[LOG_MAX - 1].seed, "8");
  assert.equal(checkLog({ version: LOG_VERSION, entries }), "");
});

test("log.js: the stored shape is checked – anything else is a German problem", () => {
  const good = entry(5);
  const cases = [
    [null, "unbekannte Form"],
    [[], "unbekannte Form"],
    [{ version: 2, entries: [] }, "unbekannte Form"],
    [{ version: LOG_VERSION }, "keine Einträge"],
    [{ version: LOG_VERSION, entries: Array(LOG_MAX + 1).fill(good) }, `mehr als ${LOG_MAX} Einträge`],
    [{ version: LOG_VERSION, entries: ["Wurf"] }, "Eintrag 1 ist kein Eintrag"],
    [{ version: LOG_VERSION, entries: [good, { ...good, seed: "12a" }] }, "Eintrag 2: Wurfnummer fehlt"],
    [{ version: LOG_VERSION, entries: [{ ...good, seed: 12 }] }, "Eintrag 1: Wurfnummer fehlt"],
    [{ version: LOG_VERSION, entries: [{ ...good, label: 3 }] }, "Eintrag 1: Bezeichnung fehlt"],
    [{ version: LOG_VERSION, entries: [{ ...good, outcome: null }] }, "Eintrag 1: Ergebnis fehlt"],
    [{ version: LOG_VERSION, entries: [{ ...good, request: { ...good.request, system: "../x" } }] }, "Eintrag 1: der Wurf ist unvollständig"],
    [{ version: LOG_VERSION, entries: [{ ...good, request: { ...good.request, params: [] } }] }, "Eintrag 1: der Wurf ist unvollständig"],
    [{ version: LOG_VERSION, entries: [{ ...good, helper: "a b" }] }, "Eintrag 1: Helfer unlesbar"],
    [{ version: LOG_VERSION, entries: [{ ...good, id: "" }] }, "Eintrag 1: Kennung unlesbar"],
  ];
  for (const [value, problem] of cases) assert.equal(checkLog(value), problem, JSON.stringify(value).slice(0, 80));
  assert.equal(checkLog({ version: LOG_VERSION, entries: [] }), "");
});

test("log.js: a corrupt stored log is set aside as store.js's backup, the log starts empty", () => {
  const key = logKey("/dsa/kampfhelfer/");
  for (const raw of ["{kaputt", JSON.stringify({ version: LOG_VERSION, entries: [{ seed: "1" }] })]) {
    const box = useStorage({ [`regelwerk:${key}`]: raw });
    const { value, problem } = store.read(key, checkLog);
    assert.equal(value, null);
    assert.ok(problem);
    assert.equal(box.getItem(`regelwerk:${key}`), null);
    assert.equal(store.backup(key), raw);
  }
});

test("log.js: one log per page", () => {
  assert.equal(logKey("/dsa/kampfhelfer/"), "wurfprotokoll:/dsa/kampfhelfer/");
  assert.notEqual(logKey("/dsa/kampfhelfer/"), logKey("/ryssea/kampfhelfer/"));
});
