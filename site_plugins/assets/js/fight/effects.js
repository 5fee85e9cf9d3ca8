// Regelwerk – fight/effects.js: effects on fighters and the fight's own time (pure, no page).
//
// An effect on a fighter (a condition such as „betäubt“, a spell's duration) runs out by itself
// as the fight's time goes on, in the system's own time:
//   {id, name, ref?, until}  until: {unit: "runden", round, turn}  ends when the order reaches
//                                   that round and turn (the same place N rounds later)
//                                   {unit: "ticks", tick}          ends when the Tickleiste's
//                                   current tick reaches `tick`
//                                   {unit: "zuege", who, left}     ends when `who` has begun
//                                   `left` more turns („bis Alrik handelt“: left 1); each turn
//                                   of his begun (a „Weiter“ onto him, the Tickleiste making him
//                                   next) counts one down
// What has run out is listed by `expiring(state)`; the fight store then records its end as a
// step of its own („Abgelaufen: betäubt (Grashak)“), which „Rückgängig“ takes back like any
// other. Also here: the Tickleiste's board as the fight keeps it (the engine's state: who stands
// on which tick) read for its order and current tick, the durations an engine result offers
// (`duration: {runden, zuege}`) as an `until` in this fight's time, and the German words for
// what is left of an effect.

import { germanNumber, isObject, ownValue } from "../common/util.js";

export const UNITS = ["runden", "ticks", "zuege"];
export const EFFECT_NAME_MAX = 40;
export const EFFECT_REF_MAX = 80;
export const EFFECTS_MAX = 12; // per fighter

function whole(value, low, high) {
  return Number.isInteger(value) && value >= low && value <= high;
}

// An effect as the reducer keeps it, or null when it is not one (name and duration checked).
export function checkedEffect(effect) {
  if (!isObject(effect) || typeof effect.id !== "string" || !effect.id || effect.id.length > 40) return null;
  if (typeof effect.name !== "string" || !effect.name.trim()) return null;
  const until = effect.until;
  if (!isObject(until) || !UNITS.includes(until.unit)) return null;
  let kept;
  if (until.unit === "runden" && whole(until.round, 1, 100000) && whole(until.turn, 0, 1000)) {
    kept = { unit: "runden", round: until.round, turn: until.turn };
  } else if (until.unit === "ticks" && whole(until.tick, -100000, 100000)) {
    kept = { unit: "ticks", tick: until.tick };
  } else if (until.unit === "zuege" && typeof until.who === "string" && until.who && whole(until.left, 0, 1000)) {
    kept = { unit: "zuege", who: until.who, left: until.left };
  } else {
    return null;
  }
  const out = { id: effect.id, name: effect.name.trim().slice(0, EFFECT_NAME_MAX), until: kept };
  if (typeof effect.ref === "string" && effect.ref.trim()) out.ref = effect.ref.trim().slice(0, EFFECT_REF_MAX);
  return out;
}

export function effectsOf(state, name) {
  const record = ownValue(state.fighters, name);
  if (!isObject(record) || !Array.isArray(record.effects)) return [];
  return record.effects.map(checkedEffect).filter(Boolean);
}

// A new effect's id: unique enough within one fight (a fighter holds at most EFFECTS_MAX).
export function effectId() {
  return `w${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
}

// ------------------------------------------------------------------ the Tickleiste's board

// Who cannot act in this state (kampfunfähig, tot): he keeps his marker on the board but no
// longer holds the line – the current tick is the first able fighter's (as the engine draws it,
// regeln/ryssea/tickleiste.py).
export function downNames(state) {
  const out = new Set();
  for (const [name, record] of Object.entries((state && state.fighters) || {})) {
    if (isObject(record) && isObject(record.state) && record.state.zustand && record.state.zustand !== "kampffähig") out.add(name);
  }
  return out;
}

function activeMarkers(board, down = new Set()) {
  if (!isObject(board) || !Array.isArray(board.fighters)) return [];
  return board.fighters
    .filter((m) => isObject(m) && m.status === "aktiv" && Number.isInteger(m.tick) && typeof m.name === "string" && !down.has(m.name))
    .sort((a, b) => a.tick - b.tick || (a.order || 0) - (b.order || 0));
}

// The fighters on the Tickleiste in acting order (who acts first, who next …).
export function boardOrder(board) {
  return activeMarkers(board).map((m) => m.name);
}

// The Tickleiste's current tick (the lowest tick of a fighter on it who can act), or null.
export function boardNow(board, down = new Set()) {
  const line = activeMarkers(board, down);
  return line.length ? line[0].tick : null;
}

// Who acts first on the board, and since when: a new head is a new turn begun.
export function boardHead(board, down = new Set()) {
  const first = activeMarkers(board, down)[0];
  return first ? { name: first.name, key: `${first.tick}:${first.order}:${first.name}` } : null;
}

const WAITING = { bereithalten: "hält bereit", abwarten: "wartet ab" };

// Every fighter on the board, in the board's order (on the line by tick, then those who wait,
// then those not yet in the fight), with where he stands: [{name, position}].
export function boardFighters(board) {
  if (!isObject(board) || !Array.isArray(board.fighters)) return [];
  const rows = board.fighters.filter((m) => isObject(m) && typeof m.name === "string");
  const line = activeMarkers(board).map((m) => ({ name: m.name, position: `Tick ${String(m.tick).replace("-", "−")}` }));
  const waiting = rows.filter((m) => Object.hasOwn(WAITING, m.status)).map((m) => ({ name: m.name, position: WAITING[m.status] }));
  const listed = new Set([...line, ...waiting].map((r) => r.name));
  const before = rows.filter((m) => !listed.has(m.name)).map((m) => ({ name: m.name, position: "vor Kampfbeginn" }));
  return [...line, ...waiting, ...before];
}

// ------------------------------------------------------------------ the fight's time

// A turn of `name` has begun: his effects' and everyone's „bis <name> handelt“ count down
// (`state` is the reducer's fresh copy).
export function turnBegun(state, name) {
  for (const record of Object.values(state.fighters)) {
    if (!isObject(record) || !Array.isArray(record.effects)) continue;
    for (const effect of record.effects) {
      const until = isObject(effect) ? effect.until : null;
      if (isObject(until) && until.unit === "zuege" && until.who === name && Number.isInteger(until.left) && until.left > 0) {
        until.left -= 1;
      }
    }
  }
}

// `now`: the Tickleiste's current tick in this state (null without a board).
function hasRunOut(state, until, now) {
  if (until.unit === "runden") {
    return state.turns.length > 0 && (state.round > until.round || (state.round === until.round && state.turn >= until.turn));
  }
  if (until.unit === "ticks") return now !== null && now >= until.tick;
  return until.left <= 0;
}

// The effects that have run out in this state: [{fighter, id, name}], in the order of the fighters.
export function expiring(state) {
  const out = [];
  const now = boardNow(state.board, downNames(state));
  for (const fighter of Object.keys(state.fighters)) {
    for (const effect of effectsOf(state, fighter)) {
      if (hasRunOut(state, effect.until, now)) out.push({ fighter, id: effect.id, name: effect.name });
    }
  }
  return out;
}

// The steps that may move the fight's time on (after them the store looks what has run out):
// „Weiter“, a new order, a Tickleiste command – and a fighter put down, who then no longer holds
// the Tickleiste's line (a roll, a correction, a state by hand). Choosing who acts moves nothing.
export function movesTime(event) {
  return event.type !== "choose";
}

// A duration an engine result offers ({runden, zuege}: engine `effect_offers`) as an `until` in
// this fight's time: with an acting order, until round (now + runden) begins; without one,
// after `zuege` turns of `who`. → null when the fight cannot count it.
export function untilFromDuration(fight, duration, who) {
  if (!isObject(duration)) return null;
  const ordered = Array.isArray(fight.turns) && fight.turns.length > 0;
  if (ordered && whole(duration.runden, 1, 1000)) return { unit: "runden", round: (fight.round || 1) + duration.runden, turn: 0 };
  if (whole(duration.zuege, 1, 1000) && who) return { unit: "zuege", who, left: duration.zuege };
  return null;
}

// ------------------------------------------------------------------ German words

// „noch 2 Runden“, „bis Tick 14, noch 3 Ticks“, „bis Alrik handelt“: what is left of an effect.
export function effectLeft(fight, until) {
  if (until.unit === "ticks") {
    const now = boardNow(fight.board, downNames(fight));
    const left = now === null ? null : until.tick - now;
    return left === null ? `bis Tick ${until.tick}` : `bis Tick ${until.tick}, noch ${germanNumber(left)} ${left === 1 ? "Tick" : "Ticks"}`;
  }
  if (until.unit === "zuege") {
    return until.left === 1 ? `bis ${until.who} handelt` : `bis ${until.who} ${germanNumber(until.left)}-mal gehandelt hat`;
  }
  const rounds = until.round - fight.round;
  if (rounds <= 0) return "endet in dieser Runde";
  return `noch ${germanNumber(rounds)} ${rounds === 1 ? "Runde" : "Runden"}`;
}

// „betäubt (noch 2 Runden; Güte S. 12)“
export function effectText(fight, effect) {
  const ref = effect.ref ? `; ${effect.ref}` : "";
  return `${effect.name} (${effectLeft(fight, effect.until)}${ref})`;
}

// „betäubt (Grashak), Segen (Alrik)“
export function expiredText(ends) {
  return ends.map((end) => `${end.name} (${end.fighter})`).join(", ");
}
