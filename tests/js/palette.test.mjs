// Covers palette.js's pure rules: which switch input a page starts with and which colours a
// choice applies – the rules Material's palette component follows (mkdocs.yml's theme.palette:
// two toggles, „Dunkles Farbschema“ / „Helles Farbschema“; a group's own site may add media
// queries or a palette that follows the system). The switch in a page is tested in
// tests/browser/test_palette.py.

import assert from "node:assert/strict";
import { test } from "node:test";

import { chosenIndex, colorOf, resolvedColor } from "../../site_plugins/assets/js/palette.js";

function input(attributes) {
  return { getAttribute: (name) => attributes[name.replace("data-md-color-", "")] ?? null };
}

const light = input({ media: "(prefers-color-scheme: light)", scheme: "default", primary: "brown", accent: "deep-orange" });
const dark = input({ media: "(prefers-color-scheme: dark)", scheme: "slate", primary: "brown", accent: "deep-orange" });
const system = input({ media: "(prefers-color-scheme)", scheme: "default", primary: "indigo", accent: "indigo" });
const plain = input({ media: "", scheme: "default", primary: "brown", accent: "deep-orange" });
const plainDark = input({ media: "", scheme: "slate", primary: "brown", accent: "deep-orange" });

test("palette.js: a stored choice wins, kept within the switch's inputs (a site that lost a scheme)", () => {
  const none = () => false;
  assert.equal(chosenIndex({ index: 1 }, [plain, plainDark], none), 1);
  assert.equal(chosenIndex({ index: 5 }, [plain, plainDark], none), 1);
  assert.equal(chosenIndex({ index: -2 }, [plain, plainDark], none), 0);
});

test("palette.js: without a stored choice the first input whose media matches is chosen, else the first", () => {
  const prefersDark = (query) => query === "" || query === "(prefers-color-scheme: dark)";
  assert.equal(chosenIndex(null, [light, dark], prefersDark), 1);
  assert.equal(chosenIndex(null, [plain, plainDark], prefersDark), 0);
  assert.equal(chosenIndex(null, [light, dark], () => false), 0);
  assert.equal(chosenIndex({ index: "0" }, [light, dark], prefersDark), 1, "a damaged entry is ignored");
});

test("palette.js: a choice applies its own colours; one that follows the system takes the system's scheme and keeps following", () => {
  assert.deepEqual(colorOf(plainDark), { media: "", scheme: "slate", primary: "brown", accent: "deep-orange" });
  assert.deepEqual(resolvedColor(colorOf(plainDark), [plain, plainDark], () => assert.fail("the system is not asked")), colorOf(plainDark));
  const inputs = [system, light, dark];
  assert.deepEqual(resolvedColor(colorOf(system), inputs, () => false), {
    media: "(prefers-color-scheme)",
    scheme: "slate",
    primary: "brown",
    accent: "deep-orange",
  });
  assert.equal(resolvedColor(colorOf(system), inputs, () => true).scheme, "default");
  assert.deepEqual(resolvedColor(colorOf(system), [system], () => true), colorOf(system), "no input for the system: its own colours");
});
