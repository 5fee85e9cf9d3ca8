// Covers util.js's pure helpers: germanNumber (numbers as German readers write them) and
// isObject (the plain record every stored or imported value is checked against), ownValue (a
// map's own entry only: outside text never reaches Object.prototype).
// el() needs a document and is left to the browser tests.

import assert from "node:assert/strict";
import { test } from "node:test";

import { germanNumber, isObject, ownValue, renameValues } from "../../site_plugins/assets/js/common/util.js";

test("util.js: germanNumber writes a decimal comma and a thousands point („62,5“, „1.000“) (CONTRIBUTING.md: what players see is German – numbers too)", () => {
  assert.equal(germanNumber(62.5), "62,5");
  assert.equal(germanNumber(1000), "1.000");
  assert.equal(germanNumber(1234567.25), "1.234.567,25");
  assert.equal(germanNumber(0), "0");
});

test("util.js: germanNumber writes whole numbers without Intl exactly as de-DE's Intl does (negative, 4 digits, the largest safe integer; issue #46: no locale data on the first draw)", () => {
  const intl = new Intl.NumberFormat("de-DE");
  const numbers = [0, 7, -7, 999, 1000, -1000, 9999, 10000, 123456, -1234567, 2 ** 31, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER];
  for (let n = 1; n < 1e15; n *= 7) numbers.push(n, -n - 1);
  for (const n of numbers) assert.equal(germanNumber(n), intl.format(n), String(n));
  assert.equal(germanNumber(1e21), intl.format(1e21)); // not a safe integer: Intl writes it
  assert.equal(germanNumber(-0), "0"); // Intl writes „-0“; nobody has minus zero Lebenspunkte
});

test("util.js: germanNumber takes numbers given as text and Intl options (e.g. one decimal)", () => {
  assert.equal(germanNumber("1000"), "1.000");
  assert.equal(germanNumber(62.456, { maximumFractionDigits: 1 }), "62,5");
  assert.equal(germanNumber(200, { minimumFractionDigits: 1 }), "200,0");
});

test("util.js: isObject accepts a plain record, refuses null, arrays and primitives (the shape checks of stored values rely on it)", () => {
  assert.equal(isObject({}), true);
  assert.equal(isObject({ state: {} }), true);
  assert.equal(isObject(Object.create(null)), true);
  for (const value of [null, undefined, [], [1], "x", 3, true, () => {}]) {
    assert.equal(isObject(value), false, String(value));
  }
});

test("util.js: ownValue gives a map's own entry only – „constructor“, „__proto__“, „toString“ are just names (the issue „Outside data never reaches the page's prototypes“)", () => {
  const fighters = { Alrik: { stats: {} } };
  assert.equal(ownValue(fighters, "Alrik"), fighters.Alrik);
  for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty", "Bruna"]) {
    assert.equal(ownValue(fighters, name), undefined, name);
  }
  const named = JSON.parse('{"__proto__": {"lep": 3}, "constructor": {"lep": 4}}'); // own entries
  assert.deepEqual(ownValue(named, "__proto__"), { lep: 3 });
  assert.deepEqual(ownValue(named, "constructor"), { lep: 4 });
  assert.equal(ownValue(Object.create(null), "x"), undefined);
});

// CONTRIBUTING.md „Namen“: a field the engine renamed (its `formerly`, e.g. Ryssea's „schaden“ →
// „damage“) is read under its old name from what a browser kept before the update.
const FORMERLY = { schaden: "damage", modifikator: "modifier" };

test("util.js: renameValues reads a former name as the field's name, in list rows too, and leaves the input alone", () => {
  const kept = { eig1: "14", schaden: "1W8+2", fighters: [{ name: "A", modifikator: "2" }, null] };
  const before = JSON.stringify(kept);
  assert.deepEqual(renameValues(kept, FORMERLY), { eig1: "14", damage: "1W8+2", fighters: [{ name: "A", modifier: "2" }, null] });
  assert.equal(JSON.stringify(kept), before);
});

test("util.js: renameValues – a value under the new name wins over one under the old (typed after the update)", () => {
  assert.deepEqual(renameValues({ damage: "2W6", schaden: "1W6" }, FORMERLY), { damage: "2W6" });
  assert.deepEqual(renameValues({ schaden: "1W6", damage: "2W6" }, FORMERLY), { damage: "2W6" });
});

test("util.js: renameValues – anything but a record stays as it is; „__proto__“ stays a name", () => {
  for (const value of [null, undefined, "x", 3, ["schaden"]]) assert.equal(renameValues(value, FORMERLY), value);
  const odd = renameValues(JSON.parse('{"__proto__": {"polluted": 1}, "schaden": "1W6"}'), { __proto__: null, ...FORMERLY });
  assert.equal(Object.getPrototypeOf(odd), Object.prototype);
  assert.deepEqual(Object.keys(odd), ["__proto__", "damage"]);
  assert.equal({}.polluted, undefined);
});
