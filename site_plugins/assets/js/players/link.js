// Regelwerk – player-link.js: the fight as the players see it, packed into a link.
//
// Pure logic (no page): the game master's page makes a picture of the fight for the players
// (fight-share.js) – the order with each fighter's place, who acts now and next, round or
// tick, per fighter what the game master chose to show, the effects on him – and this module
// packs it into the fragment of a link to the player view (spieler/#s=3.<data>), and unpacks
// and checks it there. The fragment never reaches a server (browsers do not send it).
//
// Packed: the picture as compact lines of fields (see compact), deflate-raw (CompressionStream, in
// every current browser and in Node), written in the 42 characters a QR code stores in its
// compact alphanumeric mode (base42.js; links of version 1 and 2 had base64url, 30 % less fight
// in a code of version 10); the fragment names the link's version („3.“; a page still reads
// „1.“ and „2.“) so a later page can still read it or say clearly that it cannot. The compact
// text has a version of its own (its first field: 2, with the state on „Werte“; 1 without).
// Unpacking takes nothing on trust: the size is limited before and after inflating, and every
// field is checked; a bad or foreign link gives a German message, never an exception.
//
// The picture (what unpack returns and the player view shows):
//   {system, at (ms since 1970, to the second), clock ("Runde 2 · Phase 14" | "Tick 12" | ""),
//    actor (index | -1), next (index | -1), resources: [name],
//    fighters: [{name, place, show: "werte"|"grob"|"nichts", health (grob: index of HEALTH;
//                werte: only kampfunfähig or tot, the state beside his values),
//                values: [number|null] (werte: one per resource), effects: [{name, left}]}],
//    level: "voll" | "ohne Wirkungen" | "nur Reihenfolge" | "nur Namen"}

import { fromBase42, toBase42 } from "./base42.js";

export const FORMAT = 3; // the link's: base42 (1 and 2: base64url)
export const PREFIX = `s=${FORMAT}.`;
const LINK_BYTES = { 1: fromBase64url, 2: fromBase64url, 3: fromBase42 }; // version → its decoder
const TEXT_FORMAT = 2; // the compact text's (its first field)
const TEXT_READS = [1, TEXT_FORMAT]; // version 1: the same, without the state on „Werte“
const DOWN = ["kampfunfähig", "tot"]; // the states a fighter on „Werte“ shows beside his values
// „kampffähig“: where the fight tracks no life points (the Tickleiste alone), only whether he
// can still act is known
export const HEALTH = ["unverletzt", "angeschlagen", "schwer verletzt", "kampfunfähig", "tot", "kampffähig"];
export const SHOW = ["nichts", "grob", "werte"];
export const LEVELS = ["voll", "ohne Wirkungen", "nur Reihenfolge", "nur Namen"];
export const FIGHTERS_MAX = 40;
const PACKED_MAX = 6000; // characters of the fragment's data
const JSON_MAX = 32000; // bytes once inflated
const TEXT_MAX = 60;

// ------------------------------------------------------------------ base64url (links 1 and 2, offers 1)

export function toBase64url(bytes) {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function fromBase64url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  const padded = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  let binary;
  try {
    binary = atob(padded);
  } catch (error) {
    return null;
  }
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

// ------------------------------------------------------------------ deflate-raw

async function through(bytes, stream, limit) {
  const writer = stream.writable.getWriter();
  writer.write(bytes).catch(() => {});
  writer.close().catch(() => {});
  const reader = stream.readable.getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      reader.cancel().catch(() => {});
      throw new Error("zu groß");
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

export function deflate(bytes) {
  return through(bytes, new CompressionStream("deflate-raw"), Infinity);
}

export function inflate(bytes, limit = JSON_MAX) {
  return through(bytes, new DecompressionStream("deflate-raw"), limit);
}

// ------------------------------------------------------------------ the compact form

// Lines of tab-separated fields (JSON's quotes, brackets and keys cost a fifth more after
// deflate – measured with scripts/benchmark_player_link.py): the first line
//   1 ⇥ system ⇥ seconds (base 36) ⇥ clock ⇥ actor ⇥ next ⇥ resources (comma-separated) ⇥ level
// then one line per fighter:
//   name ⇥ place ⇥ show (n/g/w) ⇥ health (index) | values (comma-separated, empty: unknown;
//   then „;“ and the health index where he is kampfunfähig or tot)
//   ⇥ effects (name \x1f left, joined by \x1e)
// Texts lose their control characters (so no text can end a field or a line).
const SHOW_CODE = { nichts: "n", grob: "g", werte: "w" };
const CODE_SHOW = { n: "nichts", g: "grob", w: "werte" };

function text(value, max = TEXT_MAX) {
  return String(value === undefined || value === null ? "" : value)
    .replace(/[\u0000-\u001f\u007f]/g, " ")
    .slice(0, max);
}

// The picture → the text that travels.
export function compact(picture) {
  const head = [
    TEXT_FORMAT,
    text(picture.system, 30),
    Math.round(picture.at / 1000).toString(36),
    text(picture.clock),
    picture.actor,
    picture.next,
    picture.resources.map((r) => text(r, 20).replace(/,/g, " ")).join(","),
    LEVELS.indexOf(picture.level),
  ];
  const rows = picture.fighters.map((f) => {
    let detail = "";
    if (f.show === "grob") detail = String(HEALTH.indexOf(f.health));
    else if (f.show === "werte") {
      detail = f.values.map((v) => (Number.isFinite(v) ? String(v) : "")).join(",");
      if (DOWN.includes(f.health)) detail += `;${HEALTH.indexOf(f.health)}`;
    }
    const effects = (f.effects || []).map((e) => `${text(e.name, 40)}\x1f${text(e.left)}`).join("\x1e");
    return [text(f.name), text(f.place), SHOW_CODE[f.show], detail, effects].join("\t");
  });
  return [head.join("\t"), ...rows].join("\n");
}

// ------------------------------------------------------------------ checking what arrives

class Bad extends Error {}

function need(condition, what) {
  if (!condition) throw new Bad(what);
}

function short(value, what, max = TEXT_MAX) {
  need(value.length <= max, what);
  return value;
}

function integer(value, what) {
  need(/^-?\d{1,6}$/.test(value), what);
  return Number(value);
}

function fighterOf(line, resources, i, version) {
  const what = `Kämpfer ${i + 1}`;
  const fields = line.split("\t");
  need(fields.length === 5, `${what} ist unvollständig`);
  const [name, place, code, detail, effects] = fields;
  need(name.trim() !== "", `${what}: der Name fehlt`);
  const fighter = { name: short(name, `${what}: der Name ist zu lang`), place: short(place, `${what}: der Platz ist unlesbar`) };
  need(Object.hasOwn(CODE_SHOW, code), `${what}: unbekannte Sichtbarkeit`);
  fighter.show = CODE_SHOW[code];
  if (fighter.show === "grob") {
    const health = integer(detail, `${what}: unbekannter Zustand`);
    need(health >= 0 && health < HEALTH.length, `${what}: unbekannter Zustand`);
    fighter.health = HEALTH[health];
  } else if (fighter.show === "werte") {
    const [listed, state, ...more] = detail.split(";");
    need(!more.length && (state === undefined || version >= 2), `${what}: die Werte passen nicht`);
    if (state !== undefined) {
      const health = HEALTH[integer(state, `${what}: unbekannter Zustand`)];
      need(DOWN.includes(health), `${what}: unbekannter Zustand`);
      fighter.health = health;
    }
    const values = resources.length ? listed.split(",") : [];
    need(values.length === resources.length && (resources.length || listed === ""), `${what}: die Werte passen nicht`);
    fighter.values = values.map((v) => {
      if (v === "") return null;
      need(/^-?\d{1,7}(\.\d{1,3})?$/.test(v), `${what}: ein Wert ist keine Zahl`);
      return Number(v);
    });
  } else {
    need(detail === "", `${what}: unerwartete Werte`);
  }
  const list = effects === "" ? [] : effects.split("\x1e");
  need(list.length <= 12, `${what}: zu viele Wirkungen`);
  fighter.effects = list.map((e) => {
    const parts = e.split("\x1f");
    need(parts.length === 2 && parts[0].trim() !== "", `${what}: eine Wirkung ist unlesbar`);
    return { name: short(parts[0], `${what}: eine Wirkung ist unlesbar`, 40), left: short(parts[1], `${what}: eine Wirkung ist unlesbar`) };
  });
  return fighter;
}

// The text → the picture, checked; throws Bad with a German reason.
export function expand(value) {
  need(typeof value === "string", "der Inhalt hat nicht die erwartete Form");
  const lines = value.split("\n");
  const head = lines[0].split("\t");
  need(head.length === 8, "der Inhalt hat nicht die erwartete Form");
  need(TEXT_READS.map(String).includes(head[0]), "der Inhalt hat eine andere Version");
  const version = Number(head[0]);
  const [, system, seconds, clock, actor, next, resources, level] = head;
  need(/^[a-z0-9_-]{1,30}$/.test(system), "das Regelsystem fehlt");
  need(/^[0-9a-z]{1,8}$/.test(seconds), "der Zeitpunkt fehlt");
  const names = resources === "" ? [] : resources.split(",");
  need(names.length <= 8, "die Werte-Spalten sind unlesbar");
  names.forEach((r) => short(r, "eine Werte-Spalte ist unlesbar", 20));
  const levelIndex = integer(level, "unbekannte Stufe");
  need(levelIndex >= 0 && levelIndex < LEVELS.length, "unbekannte Stufe");
  const rows = lines.slice(1);
  need(rows.length <= FIGHTERS_MAX, "zu viele Kämpfer");
  const fighters = rows.map((line, i) => fighterOf(line, names, i, version));
  const at = (n, what) => {
    const index = integer(n, what);
    need(index >= -1 && index < fighters.length, what);
    return index;
  };
  return {
    system,
    at: parseInt(seconds, 36) * 1000,
    clock: short(clock, "die Zeit im Kampf ist unlesbar"),
    actor: at(actor, "wer am Zug ist, ist unlesbar"),
    next: at(next, "wer als Nächstes dran ist, ist unlesbar"),
    resources: names,
    level: LEVELS[levelIndex],
    fighters,
  };
}

// ------------------------------------------------------------------ packing and unpacking

// The picture → the fragment's data (after „s=3.“).
export async function pack(picture) {
  return toBase42(await deflate(new TextEncoder().encode(compact(picture))));
}

export async function fragmentOf(picture) {
  return `#${PREFIX}${await pack(picture)}`;
}

// A picture stamped later than this after the reader's clock is refused: the game master's
// clock or the phone's is wrong (a few minutes apart is usual: that still reads „gerade eben“)
export const FUTURE_MS = 10 * 60 * 1000;

// A link's fragment („#s=3.…“, or an older „#s=2.…“, „#s=1.…“) → {picture} or {problem}
// (German; never throws).

export async function unpack(fragment, now = Date.now()) {
  const hash = String(fragment || "").replace(/^#/, "");
  if (!hash) return { problem: "Dieser Link enthält keinen Kampf. Bitte den QR-Code oder Link der Spielleitung noch einmal öffnen." };
  if (!hash.startsWith("s=")) return { problem: "Dieser Link gehört nicht zur Spieleransicht." };
  const match = /^s=(\d{1,3})\.(.*)$/s.exec(hash);
  if (!match) return { problem: "Dieser Link ist unvollständig (die Version fehlt)." };
  if (!Object.hasOwn(LINK_BYTES, match[1])) {
    return { problem: `Dieser Link hat die Version ${match[1]}; diese Seite liest Version ${FORMAT}. Bitte die Seite neu laden oder die Spielleitung um einen neuen Link bitten.` };
  }
  if (match[2].length > PACKED_MAX) return { problem: "Dieser Link ist zu lang für einen Kampf." };
  if (typeof DecompressionStream !== "function") {
    return { problem: "Dieser Browser kann die Spieleransicht nicht entpacken (zu alt) – bitte den Browser aktualisieren oder einen anderen nehmen." };
  }
  const bytes = LINK_BYTES[match[1]](match[2]);
  if (!bytes || !bytes.length) return { problem: "Dieser Link ist beschädigt (unerlaubte Zeichen)." };
  let unpacked;
  try {
    unpacked = new TextDecoder("utf-8", { fatal: true }).decode(await inflate(bytes));
  } catch (error) {
    const big = error && error.message === "zu groß";
    return { problem: big ? "Dieser Link entpackt sich zu mehr, als ein Kampf braucht – er wird nicht gelesen." : "Dieser Link ist beschädigt (nicht lesbar entpackt). Vielleicht wurde er beim Kopieren abgeschnitten." };
  }
  try {
    const picture = expand(unpacked);
    if (picture.at > now + FUTURE_MS) {
      return { problem: "Dieser Link trägt einen Zeitpunkt in der Zukunft – die Uhr der Spielleitung oder dieses Geräts geht falsch. Bitte die Uhr prüfen und den neuen QR-Code scannen." };
    }
    return { picture };
  } catch (error) {
    if (error instanceof Bad) return { problem: `Dieser Link ist beschädigt: ${error.message}.` };
    return { problem: "Dieser Link ist beschädigt." };
  }
}

// A picture with less in it, for a QR code that must stay readable: first the effects go, then
// everything but the order (names, places, who acts), then the places too.
export function reduced(picture, level) {
  const out = { ...picture, level };
  if (level === "voll") return out;
  const orderOnly = level === "nur Reihenfolge" || level === "nur Namen";
  out.fighters = picture.fighters.map((f) => {
    if (!orderOnly) return { ...f, effects: [] };
    return { name: f.name, place: level === "nur Namen" ? "" : f.place, show: "nichts", effects: [] };
  });
  if (orderOnly) out.resources = [];
  return out;
}
