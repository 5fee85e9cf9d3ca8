// Regelwerk – fight/contract.js: what a system's rules say about a fight, as the engine says it.
//
// The build puts each system's fight contract (engine.api.fight_contract: the life values its
// text tracks, the values its state rules read, the states with their rules and lines, the
// conditions it names) into the page as JSON (<div class="rw-fight-contract" data-system="…"
// data-contract="…" hidden>, site_plugins/regelwerk/plugin.py); the page draws what it
// says (the overview's columns, the conditions offered for an effect) and never decides a rule:
// the state that values lead to comes from the engine's one function (`stateFor`, the request
// {type: "state"} through the worker) – the same that every roll's `target_state` comes from.

import { runEngine } from "../../../laufzeit/js/engine-client.js";
import { isObject } from "../common/util.js";

const EMPTY = Object.freeze({ system: "", values: [], reads: [], states: [], fit: { id: "", text: "kampffähig" }, conditions: [], note: "" });

function listOf(value, check) {
  return Array.isArray(value) ? value.filter((item) => isObject(item) && check(item)) : [];
}

function bound(value) {
  return Number.isInteger(value) ? value : null;
}

// The contract of `system` on this page, checked; a page without one gets an empty contract
// (a fight without life values, states by hand only).
export function contractOf(system, doc = document) {
  const node = [...doc.querySelectorAll(".rw-fight-contract")].find((s) => s.dataset.system === system);
  let raw = null;
  try {
    raw = node ? JSON.parse(node.dataset.contract) : null;
  } catch (error) {
    raw = null;
  }
  if (!isObject(raw)) return { ...EMPTY, system };
  const named = (item) => typeof item.name === "string" && item.name !== "";
  return Object.freeze({
    system,
    values: listOf(raw.values, named).map((v) => ({
      key: v.name,
      name: typeof v.title === "string" && v.title ? v.title : v.name,
      label: typeof v.label === "string" ? v.label : "",
      min: bound(v.min),
      max: bound(v.max),
      byHand: v.by_hand === true,
    })),
    reads: listOf(raw.reads, named).map((v) => ({ key: v.name, name: typeof v.title === "string" && v.title ? v.title : v.name })),
    states: listOf(raw.states, (s) => typeof s.text === "string"),
    fit: isObject(raw.fit) && typeof raw.fit.text === "string" ? raw.fit : EMPTY.fit,
    conditions: listOf(raw.conditions, named).map((c) => c.name),
    note: typeof raw.note === "string" ? raw.note : "",
  });
}

// The values of a fighter the engine's state rule reads: his life values and the values the
// rule needs (KO …), as the fight knows them (unknown ones left out – never 0).
export function ruleValues(contract, stats) {
  const out = {};
  for (const { key } of [...contract.values, ...contract.reads]) {
    const value = Object.hasOwn(stats, key) ? stats[key] : undefined;
    if (value !== undefined && value !== null && value !== "") out[key] = value;
  }
  return out;
}

// → the state these values lead to by the system's rules ({zustand, text, rule, missing} or
// null: no rule decides), from the engine; throws when the engine cannot answer.
export async function stateFor(contract, values) {
  const body = await runEngine({ type: "state", system: contract.system, values });
  if (!body || !body.ok) throw new Error(body && body.error ? body.error.message : "keine Antwort");
  return isObject(body.state) ? body.state : null;
}
