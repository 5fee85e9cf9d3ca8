// Regelwerk – fight/roster.js: who fights, where each one stands, and whose turn is next
// (pure, no page – read from the fight's state only).
//
// Who fights: the fighters on the Tickleiste (Ryssea: the board the fight keeps) or those of the
// acting order (an initiative roll); with neither, every fighter the fight knows. Where each
// stands: his Tick (or „hält bereit“, „wartet ab“, „vor Kampfbeginn“), or his first place in
// the order („Phase 14“, „Platz 2“). „Weiter“/„Zurück“ pass over the turns of fighters who
// cannot act (kampfunfähig, tot) and say whom they passed; if nobody can act, the next turn is
// taken all the same. A new actor gets the target he had last (if still in the fight), never
// the previous actor's.

import { isObject, ownValue } from "../common/util.js";
import { boardFighters } from "./effects.js";
import { canAct, stateOfFighter } from "./reducer.js";

function rosterRows(state, hasBoard) {
  if (hasBoard) return boardFighters(state.board);
  const rows = [];
  const seen = new Set();
  for (const turn of state.turns || []) {
    if (seen.has(turn.name)) continue; // his first turn of the round names his place
    seen.add(turn.name);
    rows.push({ name: turn.name, position: turn.label });
  }
  return rows;
}

// The names of the fighters, in the fight's order.
export function names(state, hasBoard) {
  const rows = rosterRows(state, hasBoard);
  if (rows.length) return rows.map((r) => r.name);
  return hasBoard ? [] : Object.keys(state.fighters);
}

// name → where he stands („Tick 12“, „Phase 14“ …); absent: not placed.
export function positions(state, hasBoard) {
  return new Map(rosterRows(state, hasBoard).map((r) => [r.name, r.position]));
}

export function sideOf(state, name) {
  const record = ownValue(state.fighters, name);
  return isObject(record) && typeof record.side === "string" ? record.side : null;
}

// The actor's opponents first (where the fight knows the sides, e.g. DSA's „Seite“), then his
// companions – the order of the fight otherwise.
export function opponentsFirst(state, list) {
  const own = state.actor ? sideOf(state, state.actor) : null;
  if (!own) return list;
  return [...list.filter((n) => sideOf(state, n) !== own), ...list.filter((n) => sideOf(state, n) === own)];
}

// The target an actor had last, if he is still in the fight and is not himself.
export function lastTargetOf(state, actor, inFight) {
  const record = actor ? ownValue(state.fighters, actor) : undefined;
  const last = isObject(record) && typeof record.lastTarget === "string" ? record.lastTarget : null;
  return last && last !== actor && inFight.includes(last) ? last : null;
}

// „Ork (tot)“: a fighter who cannot act, as the lists show him.
export function shownName(state, name) {
  const known = stateOfFighter(state, name);
  return known && known.zustand !== "kampffähig" ? `${name} (${known.text})` : name;
}

// „Weiter“ (by 1) or „Zurück“ (by −1): → {event, label, passed} – the turn step to dispatch, its
// name, and who was passed over („Alrik (kampfunfähig)“); null without an acting order.
export function nextTurn(state, by, inFight) {
  const turns = state.turns || [];
  if (!turns.length) return null;
  const passed = [];
  let turn = state.turn;
  for (let tries = 0; tries < turns.length; tries++) {
    turn = (turn + by + turns.length) % turns.length;
    const name = turns[turn].name;
    if (canAct(state, name)) break;
    passed.push(`${name} (${stateOfFighter(state, name).text})`);
  }
  if (passed.length === turns.length) {
    passed.length = 0;
    turn = (state.turn + by + turns.length) % turns.length;
  }
  const actor = turns[turn].name;
  const target = actor === state.actor ? state.target : lastTargetOf(state, actor, inFight);
  // past the last turn a new round begins (and „Zurück“ over the first goes back one)
  const was = state.round || 1;
  const round = by > 0 && turn <= state.turn ? was + 1 : by < 0 && turn >= state.turn ? Math.max(1, was - 1) : was;
  const newRound = round > was ? `Runde ${round}: ` : "";
  const label = `${by > 0 ? "Weiter" : "Zurück"}: ${newRound}${actor} am Zug (${turns[turn].label})`;
  return { event: { type: "turn", turn, actor, target, round }, label, passed: [...new Set(passed)] };
}

// The fighters who cannot act (for the Tickleiste, which then passes over them).
export function unable(state, inFight) {
  return inFight.filter((name) => !canAct(state, name));
}

// „Alrik gegen Ork“, „Alrik am Zug“, „Ziel: Ork“: a choice of actor and target in words.
export function choiceText(actor, target) {
  if (!actor) return target ? `Ziel: ${target}` : "niemand gewählt";
  return target ? `${actor} gegen ${target}` : `${actor} am Zug`;
}
