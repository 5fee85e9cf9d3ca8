// Covers player-link.js (the fight as the players see it, in a link's fragment: compact
// lines → deflate-raw → base42, version „3.“; versions 1 and 2 in base64url still read),
// base42.js and qr.js (the QR code of that link, at most version 10, the fight in the code's
// alphanumeric mode). Round trips keep every field; hostile or foreign links – another
// page's fragment, a later version, broken base64url, garbage that does not inflate, a
// decompression bomb, JSON of the wrong shape, a fighter called „__proto__“ – give a German
// message and never throw. Rules: issue #28 (Deliver 1, 5: state in the fragment, compressed,
// versioned, validated on arrival; ≤ 8 fighters in a QR code of version 10) and #45 (Targets:
// „a player view of 8 fighters keeps values and effects within a readable QR code (version ≤
// 10, today effects are dropped beyond ~6)“ – with the address of a published site).

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  HEALTH,
  compact,
  deflate,
  expand,
  fragmentOf,
  reduced,
  toBase64url,
  unpack,
} from "../../site_plugins/assets/js/players/link.js";
import { ALPHABET, fromBase42, toBase42 } from "../../site_plugins/assets/js/players/base42.js";
import { VERSION_MAX, pathOf, qrOf } from "../../site_plugins/assets/js/players/qr.js";

const PAGE = "https://regelwerk.example.org/spieler/";

export function picture(count) {
  const fighters = [];
  for (let i = 0; i < count; i++) {
    const hero = i % 2 === 0;
    const f = { name: hero ? `Held Nr. ${i + 1}` : `Ork-Krieger ${i + 1}`, place: `Phase ${20 - i}`, show: hero ? "werte" : "grob", effects: [] };
    if (hero) f.values = [30 - i, i % 3];
    else f.health = HEALTH[i % 4];
    if (i % 4 === 1) f.effects = [{ name: "betäubt", left: "noch 1 Runde" }];
    fighters.push(f);
  }
  return {
    system: "dsa",
    at: 1764780000000,
    clock: "Runde 2 · Phase 14",
    actor: count ? 0 : -1,
    next: count > 1 ? 1 : -1,
    resources: ["LeP", "Wunden"],
    level: "voll",
    fighters,
  };
}

test("a picture survives the link: every field as it was", async () => {
  for (const count of [0, 1, 2, 8, 20]) {
    const original = picture(count);
    const fragment = await fragmentOf(original);
    assert.match(fragment, /^#s=3\.[0-9A-Z$*+./-]+$/);
    const { picture: back, problem } = await unpack(fragment);
    assert.equal(problem, undefined, problem);
    assert.deepEqual(back, original);
    // a link of the version before (base64url) still opens as the same picture
    const older = `#s=2.${toBase64url(await deflate(new TextEncoder().encode(compact(original))))}`;
    assert.deepEqual((await unpack(older)).picture, original);
  }
});

test("base42: any bytes round-trip, in characters a QR code stores in alphanumeric mode and a link keeps", () => {
  assert.equal(ALPHABET.length, 42);
  const qrAlphanumeric = /^[0-9A-Z $%*+./:-]*$/;
  assert.match(ALPHABET, qrAlphanumeric);
  assert.doesNotMatch(ALPHABET, /[ %:&=#]/); // a browser changes space and „%“; „&“ and „=“ separate the fragment's parts
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) & 0xff;
  for (let length = 0; length <= 300; length++) {
    const bytes = Uint8Array.from({ length }, next);
    if (length === 5) bytes.fill(0xff);
    const text = toBase42(bytes);
    assert.equal(text.length, Math.floor(length / 2) * 3 + (length % 2) * 2);
    assert.deepEqual(fromBase42(text), bytes);
  }
  // a foreign character, a length no bytes have, a group above its range (3 > 0xffff, 2 > 0xff)
  for (const bad of ["A", "ABCD", "abc", "AB ", "AB%", "///", "//", "AB", 42]) assert.equal(fromBase42(bad), null, bad);
});

test("names with umlauts, quotes and „__proto__“ are just names", async () => {
  const original = picture(2);
  original.fighters[0].name = "__proto__";
  original.fighters[1].name = "Grashak „der Schöne“ <b>";
  const { picture: back } = await unpack(await fragmentOf(original));
  assert.equal(back.fighters[0].name, "__proto__");
  assert.equal(back.fighters[1].name, "Grashak „der Schöne“ <b>");
  assert.equal({}.name, undefined);
});

async function packed(text) {
  return `#s=1.${toBase64url(await deflate(new TextEncoder().encode(text)))}`;
}

const HEAD = "1\tdsa\tt4ucw0\tRunde 1\t-1\t-1\t\t0";
const HEAD2 = HEAD.replace(/^1/, "2");

async function packed2(text) {
  return `#s=2.${toBase64url(await deflate(new TextEncoder().encode(text)))}`;
}

test("bad and foreign links get a German message, never an exception", async () => {
  const cases = [
    ["", /enthält keinen Kampf/],
    ["#wurf=1.abc", /gehört nicht zur Spieleransicht/],
    ["#s=abc", /unvollständig/],
    ["#s=4.AAAA", /Version 4/],
    ["#s=3.abc", /unerlaubte Zeichen/],
    ["#s=3.ABCD", /unerlaubte Zeichen/],
    ["#s=3.///", /unerlaubte Zeichen/],
    ["#s=1.", /beschädigt/],
    ["#s=1.***", /unerlaubte Zeichen/],
    ["#s=1.AAAAAAAA", /beschädigt/],
    [`#s=1.${"A".repeat(7000)}`, /zu lang/],
    [await packed("{\"a\": 1}"), /nicht die erwartete Form/],
    [await packed(HEAD.replace(/^1/, "3")), /andere Version/],
    // a state beside the values came with version 2; in a version-1 picture it is foreign
    [await packed(`${HEAD.replace(/\t\t0$/, "\tLeP\t0")}\nA\t\tw\t5;4\t`), /Kämpfer 1: die Werte passen nicht/],
    [await packed2(`${HEAD2.replace(/\t\t0$/, "\tLeP\t0")}\nA\t\tw\t5;1\t`), /Kämpfer 1: unbekannter Zustand/],
    [await packed(HEAD.replace("dsa", "../x")), /Regelsystem/],
    [await packed(HEAD.replace("-1\t-1", "5\t-1")), /am Zug/],
    [await packed(`${HEAD}\nA\t\tx\t\t`), /Kämpfer 1: unbekannte Sichtbarkeit/],
    [await packed(`${HEAD}\nA\t\tg\t9\t`), /Kämpfer 1: unbekannter Zustand/],
    [await packed(`${HEAD.replace(/\t\t0$/, "\tLeP\t0")}\nA\t\tw\tx\t`), /Kämpfer 1: ein Wert ist keine Zahl/],
    [await packed(`${HEAD.replace(/\t\t0$/, "\tLeP\t0")}\nA\t\tw\t1,2\t`), /Kämpfer 1: die Werte passen nicht/],
    [await packed(`${HEAD}\n \t\tn\t\t`), /Kämpfer 1: der Name fehlt/],
    [await packed(`${HEAD}\nA\t\tn\t\t`.repeat(2)), /Kämpfer 1 ist unvollständig|Kämpfer 2/],
    [await packed(`${HEAD}\n${"A\t\tn\t\t\n".repeat(41)}`), /zu viele Kämpfer/],
    [await packed(`${HEAD}\nA\t\tn\t\tbetäubt`), /eine Wirkung ist unlesbar/],
    [`#s=1.${toBase64url(new Uint8Array([0xff, 0xfe, 0x00]))}`, /beschädigt/],
  ];
  for (const [hash, expected] of cases) {
    const answer = await unpack(hash);
    assert.equal(answer.picture, undefined, hash.slice(0, 40));
    assert.match(answer.problem, expected, hash.slice(0, 40));
  }
});

test("a decompression bomb is stopped at its limit, not inflated", async () => {
  const bomb = new TextEncoder().encode(`${HEAD}${" ".repeat(2_000_000)}`);
  const hash = `#s=1.${toBase64url(await deflate(bomb))}`;
  assert.ok(hash.length < 6000, `${hash.length}`);
  const { problem } = await unpack(hash);
  assert.match(problem, /mehr, als ein Kampf braucht/);
});

test("8 fighters with their values and effects fit a QR code of version ≤ 10; 20 are sent with less, never a bigger code", async () => {
  const link = PAGE + (await fragmentOf(picture(8)));
  const qr = qrOf(link);
  assert.ok(qr, `8 fighters: ${link.length} characters do not fit version ${VERSION_MAX}`);
  assert.ok(qr.version <= VERSION_MAX);
  // a published site's longer address (#45: with base64url in byte mode the effects went)
  const published = "https://mein-spieltisch.github.io/regelwerk/spieler/";
  const full = qrOf(published + (await fragmentOf(picture(8))));
  assert.ok(full && full.version <= VERSION_MAX, "8 fighters in full beside a published address");
  assert.ok(picture(8).fighters.some((f) => f.effects.length), "the picture has effects");
  const twenty = PAGE + (await fragmentOf(picture(20)));
  assert.equal(qrOf(twenty), null, "20 fighters in full need more than version 10");
  const order = PAGE + (await fragmentOf(reduced(picture(20), "nur Reihenfolge")));
  const small = qrOf(order);
  assert.ok(small && small.version <= VERSION_MAX, `${order.length}`);
  const { picture: back } = await unpack(new URL(order).hash);
  assert.equal(back.level, "nur Reihenfolge");
  assert.deepEqual(back.fighters.map((f) => f.name), picture(20).fighters.map((f) => f.name));
  assert.ok(back.fighters.every((f) => f.show === "nichts" && !f.effects.length));
});

test("the QR path covers exactly the dark modules", () => {
  const qr = qrOf("https://regelwerk.example.org/spieler/#s=1.abc");
  let dark = 0;
  for (const row of qr.data) for (const cell of row) dark += cell ? 1 : 0;
  let area = 0;
  for (const [, run] of pathOf(qr).matchAll(/h(\d+)v1/g)) area += Number(run);
  assert.equal(area, dark);
  assert.equal(qr.data[0].every((c) => !c), true, "a quiet zone around the code");
});

test("compact and expand are inverse (the second screen's stored form); no text breaks a line", () => {
  const original = picture(5);
  assert.deepEqual(expand(JSON.parse(JSON.stringify(compact(original)))), original);
  original.fighters[0].name = "Zeile\nzwei\tFeld\u001e";
  original.fighters[0].effects = [{ name: "a\u001fb", left: "c\nd" }];
  const back = expand(compact(original));
  assert.equal(back.fighters[0].name, "Zeile zwei Feld ");
  assert.deepEqual(back.fighters[0].effects, [{ name: "a b", left: "c d" }]);
  assert.equal(back.fighters.length, 5);
});

test("a browser without DecompressionStream is told so, in German", async () => {
  const fragment = await fragmentOf(picture(2));
  const kept = globalThis.DecompressionStream;
  delete globalThis.DecompressionStream;
  try {
    const { problem } = await unpack(fragment);
    assert.match(problem, /kann die Spieleransicht nicht entpacken/);
  } finally {
    globalThis.DecompressionStream = kept;
  }
});

test("a picture from the future is refused with a German reason (#45: „a timestamp in the future reads gerade eben“)", async () => {
  const now = 1764780000000;
  const later = { ...picture(2), at: now + 60 * 60 * 1000 };
  const { picture: back, problem } = await unpack(await fragmentOf(later), now);
  assert.equal(back, undefined);
  assert.match(problem, /Zeitpunkt in der Zukunft/);
  // a clock a few minutes ahead still reads
  const { picture: close } = await unpack(await fragmentOf({ ...picture(2), at: now + 2 * 60 * 1000 }), now);
  assert.equal(close.at, now + 2 * 60 * 1000);
});

test("a fighter on „Werte“ who is down shows his state beside his values (#45: „a hero on Werte who is tot shows only Trefferpunkte 18“); a version-1 link still reads", async () => {
  const original = picture(2);
  original.fighters[0].health = "tot";
  const { picture: back } = await unpack(await fragmentOf(original));
  assert.equal(back.fighters[0].health, "tot");
  assert.deepEqual(back.fighters[0].values, original.fighters[0].values);
  const old = `${HEAD.replace(/\t\t0$/, "\tLeP\t0")}\nAlrik\tPlatz 1\tw\t18\t`;
  const { picture: read, problem } = await unpack(await packed(old));
  assert.equal(problem, undefined, problem);
  assert.deepEqual(read.fighters[0].values, [18]);
  assert.equal(read.fighters[0].health, undefined);
});
