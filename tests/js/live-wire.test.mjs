// Covers players/wire.js (issue #45, deliverable 1): the players' link with the game master's
// offer beside the picture, and the messages on a live channel – read like a link: the size
// limited, the shape checked, the picture checked field by field; bad data gives a German
// problem, never an exception.

import assert from "node:assert/strict";
import { test } from "node:test";

import { compact } from "../../site_plugins/assets/js/players/link.js";
import { MESSAGE_MAX, message, readMessage, splitFragment, withOffer } from "../../site_plugins/assets/js/players/wire.js";

function picture(count) {
  const fighters = Array.from({ length: count }, (_, i) => ({
    name: `Kämpfer ${i + 1}`,
    place: `Phase ${20 - i}`,
    show: i % 2 ? "grob" : "werte",
    ...(i % 2 ? { health: "angeschlagen" } : { values: [30 - i, 1] }),
    effects: i === 1 ? [{ name: "betäubt", left: "noch 1 Runde" }] : [],
  }));
  return { system: "dsa", at: 1764780000000, clock: "Runde 2", actor: 0, next: 1, resources: ["LeP", "Wunden"], level: "voll", fighters };
}

test("the offer beside the picture, or alone", () => {
  assert.deepEqual(splitFragment(withOffer("#s=2.abc", "1.xyz")), { link: "#s=2.abc", offer: "1.xyz" });
  assert.deepEqual(splitFragment(withOffer("", "1.xyz")), { link: "", offer: "1.xyz" });
  assert.deepEqual(splitFragment("#s=2.abc"), { link: "#s=2.abc", offer: null });
  assert.deepEqual(splitFragment(""), { link: "", offer: null });
});

test("a picture, a spare offer and the end arrive as sent", () => {
  const shown = picture(8);
  const read = readMessage(message("bild", compact(shown)), shown.at);
  assert.deepEqual(read.picture.fighters.map((f) => f.name), shown.fighters.map((f) => f.name));
  assert.deepEqual(readMessage(message("reserve", "1.AbC_-")), { spare: "1.AbC_-" });
  assert.deepEqual(readMessage(message("ende")), { end: true });
});

test("bad messages give a German problem, never an exception", () => {
  const good = compact(picture(2));
  const cases = [
    undefined,
    42,
    new ArrayBuffer(4),
    "",
    "nicht json",
    "[]",
    "null",
    JSON.stringify({ v: 2, t: "bild", d: good }),
    JSON.stringify({ v: 1, t: "bild" }),
    JSON.stringify({ v: 1, t: "bild", d: 5 }),
    JSON.stringify({ v: 1, t: "bild", d: "1\tdsa" }),
    JSON.stringify({ v: 1, t: "reserve", d: "<script>" }),
    JSON.stringify({ v: 1, t: "journal", d: good }),
    JSON.stringify({ v: 1, t: "bild", d: good.replace("\t", "\t".repeat(3)) }),
    JSON.stringify({ v: 1, t: "bild", d: good + "\n__proto__\t\tq\t\t" }),
    "x".repeat(MESSAGE_MAX + 1),
  ];
  for (const data of cases) {
    const read = readMessage(data);
    assert.ok(read.problem, String(data).slice(0, 60));
    assert.match(read.problem, /Spielleitung/);
  }
  const future = { ...picture(2), at: Date.now() + 60 * 60 * 1000 };
  assert.match(readMessage(message("bild", compact(future))).problem, /Zukunft/);
});
