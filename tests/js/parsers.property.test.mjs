// Property tests (fast-check) for every parser of outside data – the issue „Outside data never
// reaches the page's prototypes“, point 3: a shared link (share.js readLink/parse/link), a
// Tickleiste file (tickleiste-state.js parseFile), a file of saved values (saved.js
// importText) and what the browser stored (store.js read with each stored shape's check: the
// Tickleiste, a system's fight, the saved values). For arbitrary and adversarial input –
// reserved names (__proto__, constructor, prototype, Object's methods), deep nesting, huge
// numbers, long strings, broken percent-encoding – each parser returns a checked value or a
// German message, never throws, and leaves the prototypes of Object, Array and Function (and
// Object itself) as they were. Valid links round-trip: parse(link(x)) gives x back.
// RUNS per property (≥ 10,000, the figure); a failure prints fast-check's shrunk
// counterexample and its seed.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import fc from "fast-check";

import { openStore } from "../../site_plugins/assets/js/fight/store.js";
import * as saved from "../../site_plugins/assets/js/helpers/saved.js";
import { keepBuiltValues } from "../../site_plugins/assets/js/helpers/forms.js";
import { link, parse, readLink } from "../../site_plugins/assets/js/helpers/share.js";
import * as store from "../../site_plugins/assets/js/common/store.js";
import * as boardState from "../../site_plugins/assets/js/fight/tickleiste-state.js";
import { useStorage } from "./support/storage.mjs";

const RUNS = 10_000;
const RESERVED = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "valueOf", "__defineGetter__"];
const RUNTIME_KEY = "a1b2c3d4e5f6";

// ------------------------------------------------------------------ the prototypes, watched

const WATCHED = { "Object.prototype": Object.prototype, "Array.prototype": Array.prototype, "Function.prototype": Function.prototype, Object };
const snapshot = () => Object.fromEntries(Object.entries(WATCHED).map(([name, target]) => [name, Reflect.ownKeys(target).map(String).sort()]));
let untouched;

before(() => {
  untouched = snapshot();
  globalThis.document = globalThis.document || {};
  globalThis.document.querySelector = (selector) => (selector === 'meta[name="regelwerk-engine"]' ? { content: RUNTIME_KEY } : null);
  globalThis.location = { href: "https://example.org/regelwerk/ryssea/kampfhelfer/" };
});

function assertPrototypesUntouched() {
  assert.deepEqual(snapshot(), untouched);
  assert.equal(Object.getPrototypeOf({}), Object.prototype);
  assert.equal([][0], undefined);
  assert.equal({}[0], undefined);
}

after(assertPrototypesUntouched);

// ------------------------------------------------------------------ generators

const reserved = fc.constantFrom(...RESERVED);
const fieldName = fc.oneof(fc.stringMatching(/^[a-z_][a-z_0-9]{0,11}$/), reserved);
// broken and odd percent-encoding, separators of the link format, long runs
const linkText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.stringMatching(/^(%[0-9A-Fa-f]{0,2}|[=;/.#@]|[a-z0-9_]){0,30}$/),
  fc.constant("%E0%A4%A"),
  fc.nat({ max: 10_000 }).map((n) => "x".repeat(n)),
  fc.bigInt().map(String),
  fc.double().map(String),
);
const pair = fc.oneof(
  fc.tuple(fieldName, linkText).map(([name, value]) => `${name}=${value}`),
  fc.tuple(fieldName, fc.nat({ max: 120 }), fieldName, linkText).map(([list, row, name, value]) => `${list}.${row}.${name}=${value}`),
  linkText,
);
const fragment = fc.oneof(
  fc.tuple(fc.constantFrom("1", "2", ""), linkText, fc.oneof(fc.stringMatching(/^[a-z]{1,8}\.[a-z_]{1,8}(@[A-Za-z0-9_-]{1,8})?$/), linkText), fc.oneof(fc.bigInt({ min: 0n }).map(String), linkText), fc.array(pair, { maxLength: 12 }))
    .map(([format, engine, target, seed, pairs]) => `#wurf=${format}/${engine}/${target}/${seed}/${pairs.join(";")}`),
  linkText.map((rest) => `#wurf=${rest}`),
  linkText,
);

// JSON with reserved keys, deep nesting and extreme numbers, also as shapes close to the real
// ones (right format, wrong everything else)
const adversarialJson = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small" }, fc.jsonValue({ maxDepth: 3 }), fc.double(), fc.constant(1e308), fc.constant(-0), tie("record"), tie("list")),
  record: fc.dictionary(fc.oneof(fc.string({ maxLength: 12 }), reserved), tie("value"), { maxKeys: 6 }),
  list: fc.array(tie("value"), { maxLength: 6 }),
})).value;
const deepNesting = fc.nat({ max: 5_000 }).map((depth) => "[".repeat(depth) + "]".repeat(depth));
function fileText(format, version) {
  return fc.oneof(
    adversarialJson.map((value) => JSON.stringify(value) ?? "null"),
    fc.record({ format: fc.oneof(fc.constant(format), adversarialJson), version: fc.oneof(fc.constant(version), adversarialJson), state: adversarialJson, entries: adversarialJson }, { requiredKeys: [] }).map((value) => JSON.stringify(value)),
    fc.array(fc.record({ id: adversarialJson, name: fc.oneof(fc.string({ maxLength: 20 }), reserved), system: fc.oneof(reserved, fc.string({ maxLength: 8 })), action: fc.oneof(reserved, fc.string({ maxLength: 8 })), values: adversarialJson }, { requiredKeys: [] }), { maxLength: 8 })
      .map((entries) => JSON.stringify({ format, version, entries })),
    // the reserved key written literally, as JSON.stringify never would
    fc.constant(`{"format":"${format}","version":${version},"__proto__":{"polluted":1},"state":{"__proto__":{"x":1}},"entries":[]}`),
    deepNesting,
    fc.string({ maxLength: 200 }),
  );
}

const germanProblem = (problem) => typeof problem === "string" && problem.trim().length > 0;

// ------------------------------------------------------------------ share links

test("share.js readLink: any address gives a checked link or a German reason, never a throw, never a prototype (≥ 10,000 runs)", () => {
  fc.assert(
    fc.property(fragment, (text) => {
      const { shared, problem } = readLink(text);
      if (shared === null) return germanProblem(problem);
      assert.equal(problem, "");
      assert.match(shared.seed, /^[0-9]{1,16}$/);
      for (const [name, value] of Object.entries(shared.values)) {
        assert.ok(!["__proto__", "constructor", "prototype"].includes(name), name);
        if (Array.isArray(value)) value.forEach((row) => assert.equal(typeof row, "object"));
        else assert.equal(typeof value, "string");
      }
      return true;
    }),
    { numRuns: RUNS },
  );
  assertPrototypesUntouched();
});

// the params a helper's form gives (collect): fields, booleans, lists of records
const paramName = fc.stringMatching(/^[a-z_][a-z_0-9]{0,9}$/).filter((name) => !RESERVED.includes(name));
const paramValue = fc.oneof(fc.string({ maxLength: 30 }).filter((s) => s !== "undefined"), fc.boolean());
const params = fc
  .tuple(
    fc.dictionary(paramName, paramValue, { maxKeys: 6 }),
    fc.dictionary(paramName, fc.array(fc.dictionary(paramName, paramValue, { minKeys: 1, maxKeys: 3 }), { minLength: 1, maxLength: 3 }), { maxKeys: 2 }),
  )
  .map(([fields, lists]) => ({ ...fields, ...lists }));
const asText = (value) => (value === true ? "ja" : value === false ? "nein" : String(value));

test("share.js: a link of any form's values opens as exactly those values (parse(link(x)) = x, ≥ 10,000 runs)", () => {
  fc.assert(
    fc.property(params, fc.nat({ max: 2 ** 32 - 1 }), (values, seed) => {
      const helper = { dataset: { system: "ryssea", action: "attack", preset: "" }, id: "helfer-ryssea-attack" };
      keepBuiltValues(helper, {});
      const address = link(helper, values, seed);
      const opened = parse(address.slice(address.indexOf("#")));
      const expected = Object.fromEntries(
        Object.entries(values).map(([name, value]) => [name, Array.isArray(value) ? value.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, asText(v)]))) : asText(value)]),
      );
      assert.deepEqual({ ...opened.values }, expected);
      assert.deepEqual([opened.system, opened.action, opened.id, opened.seed, opened.engine], ["ryssea", "attack", "", String(seed), RUNTIME_KEY.slice(0, 6)]);
    }),
    { numRuns: RUNS },
  );
});

// ------------------------------------------------------------------ files a reader loads

test("tickleiste-state.js parseFile: any file gives a state or a German reason, never a throw (≥ 10,000 runs)", () => {
  fc.assert(
    fc.property(fileText("regelwerk-tickleiste", 1), fc.string({ maxLength: 80 }), (text, name) => {
      const { state, problem } = boardState.parseFile(text, name);
      if (state === null) return germanProblem(problem);
      return problem === "" && state !== null && typeof state === "object" && !Array.isArray(state);
    }),
    { numRuns: RUNS },
  );
  assertPrototypesUntouched();
});

test("saved.js importText: any file gives checked sets or a German reason, never a throw (≥ 10,000 runs)", () => {
  useStorage({});
  fc.assert(
    fc.property(fileText("regelwerk-werte", 1), fc.string({ maxLength: 80 }), (text, name) => {
      const result = saved.importText(text, name);
      if (result.problem) return germanProblem(result.problem);
      const ids = result.merged.map((entry) => entry.id);
      assert.equal(new Set(ids).size, ids.length);
      return result.merged.every((entry) => typeof entry.name === "string" && typeof entry.id === "string");
    }),
    { numRuns: RUNS },
  );
  assertPrototypesUntouched();
});

// ------------------------------------------------------------------ what the browser stored

test("store.js read: whatever is stored, an older page's Tickleiste, its picture, a fight and the saved values load or are set aside – never a throw (≥ 10,000 runs)", () => {
  const stored = fc.oneof(adversarialJson.map((value) => JSON.stringify(value) ?? "null"), fileText("regelwerk-tickleiste", 2), fc.string({ maxLength: 100 }));
  fc.assert(
    fc.property(stored, (raw) => {
      useStorage({ "regelwerk:tickleiste:test": raw, "regelwerk:tickleiste-bild:test": raw, "regelwerk:kampf:test": raw, "regelwerk:werte": raw });
      const board = store.read("tickleiste:test", boardState.checkLegacy);
      assert.ok(board.value !== null || board.problem === "" || germanProblem(board.problem));
      if (board.value) assert.equal(typeof board.value.state, "object");
      const picture = store.read("tickleiste-bild:test", boardState.checkPicture);
      assert.ok(picture.value !== null || picture.problem === "" || germanProblem(picture.problem));
      const fight = openStore("test");
      assert.ok(fight.problem === "" || germanProblem(fight.problem));
      assert.equal(typeof fight.state.fighters, "object");
      fight.dispatch("constructor", { type: "correct", fighter: "constructor", field: "lep", value: 3 });
      fight.dispatch("__proto__", { type: "values", fighter: "__proto__", action: "toString", values: { lep: 1 } });
      assert.equal(fight.undo().label, "__proto__");
      assert.ok(Array.isArray(saved.entries()));
      return true;
    }),
    { numRuns: RUNS },
  );
  assertPrototypesUntouched();
});
