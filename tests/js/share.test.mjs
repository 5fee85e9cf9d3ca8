// Covers share.js's link format (#wurf=1/<engine>/<system>.<action>[@<id>]/<seed>/<fields>):
// parse of good links and of malformed ones (a German reason, always as share.js's LinkError –
// openFromAddress shows only a LinkError's reason, anything else as „er ist beschädigt“),
// isLink, link → parse round trips, and that no field name from a link reaches
// Object.prototype (issue #34). Rules: share.js's header and the „At the table …“ issue
// (tests/browser/test_table_companion.py: shared links, malformed links).
//
// link() reads three things besides its arguments: the helper's dataset, id and the form's
// values as the page built it (forms.js keepBuiltValues)
// (a plain record stands in for the helper), the page address (globalThis.location) and the
// runtime key in <meta name="regelwerk-engine"> (document.querySelector, answered with a
// stand-in meta). addButton and openFromAddress build elements and are left to the browser.


import assert from "node:assert/strict";
import { before, test } from "node:test";

import { isLink, link, pageAddress, parse } from "../../site_plugins/assets/js/helpers/share.js";
import { keepBuiltValues } from "../../site_plugins/assets/js/helpers/forms.js";

const RUNTIME_KEY = "a1b2c3d4e5f6";

before(() => {
  globalThis.document = globalThis.document || {};
  globalThis.document.querySelector = (selector) =>
    selector === 'meta[name="regelwerk-engine"]' ? { content: RUNTIME_KEY } : null;
  globalThis.location = { href: "https://example.org/regelwerk/ryssea/kampfhelfer/#angriff" };
});

// parse's values as a plain record (parse may build them without a prototype)
function plain(values) {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, Array.isArray(value) ? value.map((row) => ({ ...row })) : value]));
}

function refusal(fragment) {
  try {
    parse(fragment);
  } catch (error) {
    return error;
  }
  return null;
}

// ------------------------------------------------------------------ parse: good links

test("share.js: parse reads system, action, seed, engine and the fields of a link (share.js header: the link format)", () => {
  const shared = parse("#wurf=1/a1b2c3/ryssea.attack/4242/eig1=14;taw=8;damage=1W8%2B2;verteidigung=17");
  assert.deepEqual({ ...shared, values: plain(shared.values) }, {
    system: "ryssea",
    action: "attack",
    id: "",
    seed: "4242",
    values: { eig1: "14", taw: "8", damage: "1W8+2", verteidigung: "17" },
    engine: "a1b2c3",
  });
});

test("share.js: parse reads the helper id after „@“ (a second helper of the same action on a page)", () => {
  const shared = parse("#wurf=1/a1b2c3/ryssea.attack@schildstoss-helfer/7/angriffsart=schildstoss");
  assert.equal(shared.id, "schildstoss-helfer");
  assert.deepEqual(plain(shared.values), { angriffsart: "schildstoss" });
});

test("share.js: a link without fields (the form as the page built it) parses to no values", () => {
  const shared = parse("#wurf=1/a1b2c3/dsa.initiative/0/");
  assert.deepEqual([shared.system, shared.action, shared.seed], ["dsa", "initiative", "0"]);
  assert.deepEqual(plain(shared.values), {});
});

test("share.js: list rows (<list>.<row>.<field>) become a list of records, in any order", () => {
  const shared = parse("#wurf=1/x/ryssea.surprise/5/angreifer.1.name=Bruna;angreifer.0.name=Alrik;angreifer.0.wert=12;angreifer.1.wert=9");
  assert.deepEqual(plain(shared.values), { angreifer: [{ name: "Alrik", wert: "12" }, { name: "Bruna", wert: "9" }] });
});

test("share.js: values are URL-decoded – „;“, „/“, „=“, „%“, spaces and umlauts survive", () => {
  const value = "Alrik – Langschwert; 1/2 = 50 % Größe";
  const shared = parse(`#wurf=1/x/ryssea.attack/5/name=${encodeURIComponent(value)}`);
  assert.equal(shared.values.name, value);
});

test("share.js: booleans travel as „ja“/„nein“ and stay text for the form to read", () => {
  const shared = parse("#wurf=1/x/ryssea.attack/5/fernkampf=ja;beidhaendig=nein");
  assert.deepEqual(plain(shared.values), { fernkampf: "ja", beidhaendig: "nein" });
});

test("share.js: parse does not judge whether the helper exists – the page says so (tests/browser/test_table_companion.py: gibtsnicht.attack)", () => {
  assert.equal(parse("#wurf=1/x/gibtsnicht.attack/5/").system, "gibtsnicht");
});

test("share.js: isLink is true only for an address fragment starting with #wurf= (a link into the page's contents is no shared roll)", () => {
  assert.equal(isLink("#wurf=1/x/ryssea.attack/5/"), true);
  assert.equal(isLink("#wurf="), true); // a link, if a malformed one: the page says so
  for (const hash of ["", "#", "#angriff", "wurf=1/x/ryssea.attack/5/", "#Wurf=1", "#wurfweite"]) {
    assert.equal(isLink(hash), false, hash);
  }
});

// ------------------------------------------------------------------ parse: malformed links

const MALFORMED = [
  ["an empty link (tests/browser/test_table_companion.py MALFORMED)", "#wurf=", "er hat nicht die erwartete Form"],
  ["a link without its field part", "#wurf=1/x/ryssea.attack/5", "er hat nicht die erwartete Form"],
  ["a link with an unencoded „/“ in a value", "#wurf=1/x/ryssea.attack/5/taw=1/2", "er hat nicht die erwartete Form"],
  ["another link format (MALFORMED: wurf=2/…)", "#wurf=2/x/ryssea.attack/5/", "unbekanntes Linkformat „2“"],
  ["a long link format, quoted shortened", "#wurf=12345678901234/x/ryssea.attack/5/", "unbekanntes Linkformat „1234567890“"],
  ["no helper", "#wurf=1/x//5/", "der Helfer fehlt oder ist unlesbar"],
  ["a helper without action", "#wurf=1/x/ryssea/5/", "der Helfer fehlt oder ist unlesbar"],
  ["a helper in capitals", "#wurf=1/x/Ryssea.attack/5/", "der Helfer fehlt oder ist unlesbar"],
  ["a helper id with a space", "#wurf=1/x/ryssea.attack@mein%20helfer/5/", "der Helfer fehlt oder ist unlesbar"],
  ["a seed that is no number (MALFORMED: keine-zahl)", "#wurf=1/x/ryssea.attack/keine-zahl/eig1=1", "die Wurfnummer fehlt oder ist keine Zahl"],
  ["no seed", "#wurf=1/x/ryssea.attack//eig1=1", "die Wurfnummer fehlt oder ist keine Zahl"],
  ["a seed of 17 digits (the engine takes at most 16)", "#wurf=1/x/ryssea.attack/12345678901234567/", "die Wurfnummer fehlt oder ist keine Zahl"],
  ["a negative seed", "#wurf=1/x/ryssea.attack/-5/", "die Wurfnummer fehlt oder ist keine Zahl"],
  ["a field without „=“", "#wurf=1/x/ryssea.attack/5/eig1", "ein Feld ist unlesbar"],
  ["a field without name", "#wurf=1/x/ryssea.attack/5/=14", "ein Feld ist unlesbar"],
  ["an empty field between two", "#wurf=1/x/ryssea.attack/5/eig1=1;;taw=2", "ein Feld ist unlesbar"],
  ["a broken encoding in a name (MALFORMED: eig1%=1)", "#wurf=1/x/ryssea.attack/5/eig1%=1", "ein Feld ist falsch kodiert"],
  ["a broken encoding in a value", "#wurf=1/x/ryssea.attack/5/eig1=%E2%80", "ein Feld ist falsch kodiert"],
  ["a field name in capitals", "#wurf=1/x/ryssea.attack/5/Eig1=1", "unbekanntes Feld „Eig1“"],
  ["a field name with a dot but no row", "#wurf=1/x/ryssea.attack/5/eig.1=1", "unbekanntes Feld „eig.1“"],
  ["a row number of three digits", "#wurf=1/x/ryssea.surprise/5/angreifer.100.name=A", "unbekanntes Feld „angreifer.100.name“"],
  ["a long unknown field, quoted shortened to 40 characters", `#wurf=1/x/ryssea.attack/5/${"X".repeat(60)}=1`, `unbekanntes Feld „${"X".repeat(40)}“`],
  ["a list with a missing row (MALFORMED: fighters.3.name=A)", "#wurf=1/x/ryssea.attack/5/fighters.3.name=A", "eine Zeile einer Liste fehlt"],
  ["a list with a gap", "#wurf=1/x/ryssea.surprise/5/angreifer.0.name=A;angreifer.2.name=C", "eine Zeile einer Liste fehlt"],
];

for (const [what, fragment, reason] of MALFORMED) {
  test(`share.js: ${what} is refused with the German reason „${reason}“ (share.js header: a malformed link gives a German message, never an error)`, () => {
    const error = refusal(fragment);
    assert.ok(error, "parse accepted it");
    // openFromAddress shows the reason of a LinkError only; any other error reads „er ist beschädigt“
    assert.equal(error.constructor.name, "LinkError", `${error.constructor.name}: ${error.message}`);
    assert.equal(error.message, reason);
  });
}

test("share.js: a field given both as a value and as list rows is refused as a LinkError with a German reason", () => {
  // (found by these tests: parse threw a TypeError, and the reverse order replaced the list)
  for (const fragment of ["#wurf=1/x/ryssea.attack/5/taw=1;taw.0.x=2", "#wurf=1/x/ryssea.attack/5/taw.0.x=2;taw=1", "#wurf=1/x/ryssea.attack/5/taw=1;taw=2"]) {
    const error = refusal(fragment);
    assert.ok(error !== null && error.constructor.name === "LinkError", `${fragment}: ${error && `${error.constructor.name}: ${error.message}`}`);
    assert.match(error.message, /doppelt/);
  }
});

// ------------------------------------------------------------------ link → parse

const ATTACK_DEFAULTS = { eig1: "10", eig2: "10", taw: "0", damage: "1W6", verteidigung: "10", fernkampf: false, angriffsart: "nahkampf" };

function helperOf(system, action, defaults, { id = `helfer-${system}-${action}`, preset = "" } = {}) {
  const helper = { id, dataset: { system, action, preset } };
  keepBuiltValues(helper, defaults);
  return helper;
}

test("share.js: a link carries the fields that differ from the form as the page built it, and opens to the same values and seed (the „At the table …“ issue: same values and seed → same roll)", () => {
  const helper = helperOf("ryssea", "attack", ATTACK_DEFAULTS);
  const params = { ...ATTACK_DEFAULTS, eig1: "14", taw: "8", damage: "1W8+2", verteidigung: "17", fernkampf: true };
  const address = link(helper, params, 4242);
  assert.equal(address, "https://example.org/regelwerk/ryssea/kampfhelfer/#wurf=1/a1b2c3/ryssea.attack/4242/eig1=14;taw=8;damage=1W8%2B2;verteidigung=17;fernkampf=ja");
  const shared = parse(address.slice(address.indexOf("#")));
  assert.deepEqual({ ...shared, values: plain(shared.values) }, {
    system: "ryssea",
    action: "attack",
    id: "",
    seed: "4242",
    values: { eig1: "14", taw: "8", damage: "1W8+2", verteidigung: "17", fernkampf: "ja" },
    engine: RUNTIME_KEY.slice(0, 6),
  });
});

test("share.js: a link of a second helper names its id and always carries the page's presets", () => {
  const helper = helperOf("ryssea", "attack", { ...ATTACK_DEFAULTS, angriffsart: "schildstoss" }, { id: "schildstoss-helfer", preset: "angriffsart" });
  const address = link(helper, { ...ATTACK_DEFAULTS, angriffsart: "schildstoss", fernkampf: false }, 9);
  const shared = parse(address.slice(address.indexOf("#")));
  assert.equal(shared.id, "schildstoss-helfer");
  assert.deepEqual(plain(shared.values), { angriffsart: "schildstoss" });
});

test("share.js: a changed list travels whole (every row), an unchanged one not at all", () => {
  const defaults = { runde: "1", angreifer: [{ name: "", wert: "10" }], verteidiger: [{ name: "", wert: "10" }] };
  const helper = helperOf("ryssea", "surprise", defaults);
  const params = { runde: "1", angreifer: [{ name: "Alrik", wert: "10" }, { name: "Bruna", wert: "12" }], verteidiger: [{ name: "", wert: "10" }] };
  const address = link(helper, params, 77);
  const shared = parse(address.slice(address.indexOf("#")));
  assert.deepEqual(plain(shared.values), { angreifer: [{ name: "Alrik", wert: "10" }, { name: "Bruna", wert: "12" }] });
});

test("share.js: text with link characters (; / = % #) and umlauts survives the round trip", () => {
  const helper = helperOf("ryssea", "attack", { ...ATTACK_DEFAULTS, name: "" });
  const name = "Größe; 1/2 = 50 % #1 – „Alrik“";
  const address = link(helper, { ...ATTACK_DEFAULTS, name }, 1);
  assert.equal(address.split("#").length, 2); // the value's „#“ is encoded
  assert.equal(parse(address.slice(address.indexOf("#"))).values.name, name);
});

// ------------------------------------------------------------------ issue #34

function prototypeSnapshot() {
  return [Object.getOwnPropertyNames(Object.prototype).sort(), Object.getOwnPropertyNames(Object).sort()];
}

function undoPollution() {
  for (const name of ["0", "x"]) {
    delete Object.prototype[name];
    delete Object[name];
  }
}

test("share.js: a link field named __proto__ does not pollute Object.prototype (issue #34)", () => {
  const before = prototypeSnapshot();
  try {
    const error = refusal("#wurf=1/x/ryssea.attack/4242/__proto__.0.x=1");
    assert.ok(error === null || error.constructor.name === "LinkError", error && error.message);
    assert.equal({}.x, undefined);
    assert.equal({}[0], undefined);
    assert.deepEqual(prototypeSnapshot(), before);
  } finally {
    undoPollution();
  }
});

test("share.js: link fields named constructor or __proto__ reach neither Object nor Object.prototype (issue #34)", () => {
  const before = prototypeSnapshot();
  try {
    for (const fields of ["constructor.0.x=1", "constructor=1", "__proto__=1", "angreifer.0.__proto__=1", "angreifer.0.constructor=1"]) {
      const error = refusal(`#wurf=1/x/ryssea.attack/4242/${fields}`);
      assert.ok(error === null || error.constructor.name === "LinkError", `${fields}: ${error && error.message}`);
      assert.equal({}.x, undefined, fields);
      assert.equal(Object[0], undefined, fields);
      assert.deepEqual(prototypeSnapshot(), before, fields);
    }
  } finally {
    undoPollution();
  }
});

// ------------------------------------------------------------------ where a link points (#30)

// The page's <meta> elements and address for one call; the suite's stand-ins afterwards.
function withPage({ published = null, href }, run) {
  const { querySelector } = globalThis.document;
  const { location } = globalThis;
  globalThis.document.querySelector = (selector) => {
    if (selector === 'meta[name="regelwerk-online"]') return published ? { content: published } : null;
    return querySelector(selector);
  };
  globalThis.location = { href };
  try {
    return run();
  } finally {
    globalThis.document.querySelector = querySelector;
    globalThis.location = location;
  }
}

test("share.js: online a link points to the page's own address, without its fragment", () => {
  assert.equal(withPage({ href: "https://example.org/regelwerk/dsa/kampfhelfer/#angriff" }, pageAddress), "https://example.org/regelwerk/dsa/kampfhelfer/");
});

test("share.js: from file:// there is no address to share – never a path on this computer (issue #30)", () => {
  assert.equal(withPage({ href: "file:///home/alrik/Regelwerk%20%C3%9Cbung/regelwerk-offline/dsa/kampfhelfer.html#wurf=1/x" }, pageAddress), null);
});

test("share.js: the offline export links to the published page its build named (<meta name=regelwerk-online>, issue #30)", () => {
  const page = { published: "https://gruppe.github.io/regelwerk/ryssea/kampfhelfer/", href: "file:///tmp/regelwerk-offline/ryssea/kampfhelfer.html" };
  assert.equal(withPage(page, pageAddress), page.published);
  const helper = helperOf("ryssea", "attack", ATTACK_DEFAULTS);
  const shared = withPage(page, () => link(helper, { ...ATTACK_DEFAULTS, eig1: "14" }, 7));
  assert.equal(shared, "https://gruppe.github.io/regelwerk/ryssea/kampfhelfer/#wurf=1/a1b2c3/ryssea.attack/7/eig1=14");
});
