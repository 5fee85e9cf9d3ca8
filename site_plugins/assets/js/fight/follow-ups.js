// Regelwerk – fight/follow-ups.js: where the rules go on after a result (`follow_ups`).
//
// Each follow-up becomes a button that opens the next helper filled („Abwehr des Ziels würfeln
// ▸“) and, when the fight knows every value of a fighter that helper needs, a second one that
// fills and rolls it in one tap („Abwehr des Ziels würfeln: würfeln ⚄“) – without leaving the
// helper the game master is in: the next helper rolls where it stands (its own result is there
// in full), and its headline, outcome, dice and what it wrote to the fight are shown as the next
// link of a chain below this result (fight/rolls.js), with its own follow-ups – the parade and
// the damage follow the attack on one screen, in the tab of the attack. A follow-up carries the
// rolling helper's values on (the rolled TP …); where the next helper's field belongs to a
// fighter whose value the fight knows (the target's RS), the fighter's value stays. Two kinds
// are special:
// - `fighter: "actor" | "target"`: a proposed step for a fighter of the fight in a widget (the
//   Tickleiste: the defender's Aktive Abwehr costs him 4 Ticks) – its button names him, and only
//   a click gives the widget the command (regelwerk:follow-up), as its own step;
// - `then: true`: the rules leave nothing to decide (DSA: a failed defense takes the hit) – when
//   the result was itself rolled in one tap, the page rolls this one right after it, if it
//   knows every value (`rollThen`): attack, parade and damage are two taps;
// - `other_target: true`: a roll for someone who is not in the fight's choice (DSA: the random
//   other person a shot into a Kampfgetümmel hits) – the helper opens with the follow-up's
//   values and the target's fields empty (his armour is not the aimed target's), and its roll
//   changes nothing in the fight (`isForOther`).

import { fill } from "../helpers/forms.js";
import { openHelper } from "../helpers/open.js";
import { el, isObject } from "../common/util.js";
import { fieldsOf, knownValues, labelOf } from "./fill.js";

function knownOfBoth(table, helper) {
  return { actor: knownValues(table, helper, "actor"), target: knownValues(table, helper, "target") };
}

function knownValuesWin(table, next, params) {
  const out = {};
  const known = knownOfBoth(table, next);
  for (const [name, value] of Object.entries(params)) {
    const field = next.querySelector(`.rw-form .rw-field[data-subject] [data-path="${CSS.escape(name)}"]`);
    const subject = field && field.closest(".rw-field").dataset.subject;
    if (subject && known[subject] && Object.hasOwn(known[subject], name)) continue;
    out[name] = value;
  }
  return out;
}

// The fighters' values a follow-up's helper needs and the fight does not know (or the
// follow-up does not bring): its fields of a fighter that are in use. Empty: it can be rolled
// at once, with nothing from a default standing in for a fighter's value.
function missingValues(table, next, params) {
  const known = knownOfBoth(table, next);
  const missing = [];
  for (const input of next.querySelectorAll(".rw-form .rw-field[data-subject] [data-path][data-type]")) {
    const field = input.closest(".rw-field");
    if (input.disabled || field.hidden || input.dataset.type === "text" || input.closest(".rw-list")) continue;
    const name = input.dataset.path;
    if (Object.hasOwn(params, name) || Object.hasOwn(known[field.dataset.subject] || {}, name)) continue;
    missing.push(labelOf(next, input));
  }
  return missing;
}

// ------------------------------------------------------------------ a roll for another person

const forOther = new WeakMap(); // helper → the follow-up's title, while it holds another person's roll

export function isForOther(helper) {
  return forOther.has(helper);
}

// ------------------------------------------------------------------ a chain of rolls in one place

const chainHost = new WeakMap(); // helper rolled by a one-tap follow-up → the helper showing the chain

// The helper in which the roll of `helper` is shown as a link of a chain (once), or null.
export function takeChainHost(helper) {
  const host = chainHost.get(helper) || null;
  chainHost.delete(helper);
  return host;
}

// The fight's choice changed (the helpers are filled again): no helper holds another person's roll.
export function forgetOther(helper) {
  forOther.delete(helper);
}

function openForOther(next, item) {
  const cleared = {};
  for (const input of fieldsOf(next, "target")) cleared[input.dataset.path] = "";
  fill(next, { ...cleared, ...(item.params || {}) });
  forOther.set(next, item.title);
  let note = next.querySelector(".rw-other-note");
  if (!note) {
    note = el("p", "rw-fight-note rw-other-note");
    next.querySelector(".rw-form .rw-summary").after(note);
  }
  note.textContent = `${item.title}: nicht das gewählte Ziel – seine Werte (etwa sein RS) bitte eintragen; der Wurf ändert den Kampf nicht.`;
  note.hidden = false;
  openHelper(next);
  const first = fieldsOf(next, "target").find((input) => !input.disabled);
  (first || next.querySelector(".rw-submit")).focus({ preventScroll: true });
}

// ------------------------------------------------------------------ the buttons

function widgetStep(table, item) {
  const widget = table.widgets().find((h) => h.dataset.action === item.action);
  const fight = table.store.state;
  const name = item.fighter === "target" || item.fighter === "actor" ? fight[item.fighter] : null;
  if (!widget || !name) return null;
  const button = el("button", "md-button", `${item.title}: ${name} ▸`);
  button.type = "button";
  button.addEventListener("click", () => {
    button.disabled = true;
    widget.dispatchEvent(new CustomEvent("regelwerk:follow-up", { detail: { params: { ...(item.params || {}), fighter: name } } }));
  });
  return button;
}

function button(text, css, onClick) {
  const b = el("button", css, text);
  b.type = "button";
  b.addEventListener("click", onClick);
  return b;
}

// A `then` follow-up of a result rolled in one tap: rolled at once into the same chain, when the
// fight knows every value it needs (else its buttons wait for the game master). → its title, or "".
export function rollThen(table, items, host) {
  const item = (Array.isArray(items) ? items : []).find((i) => isObject(i) && i.then === true && !i.fighter && !i.other_target);
  const next = item && table.helpers().find((h) => h.dataset.action === item.action);
  const params = (item && item.params) || {};
  if (!next || !table.store.state.target || missingValues(table, next, params).length) return "";
  rollInPlace(table, next, params, host);
  return item.title;
}

// The next helper filled (the fighters' known values win over what the follow-up brings) and
// rolled where it stands, its roll shown in `host`'s chain.
function rollInPlace(table, next, params, host) {
  forOther.delete(next);
  fill(next, knownValuesWin(table, next, params));
  if (host && host !== next) chainHost.set(next, host);
  next.querySelector(".rw-form").requestSubmit();
}

// → the follow-ups' bar for a result (null when none applies on this page); `host`: the helper
// whose result shows the chain of one-tap rolls (the rolling helper itself, or where its own
// roll was shown).
export function followUpBar(table, items, host) {
  if (!Array.isArray(items) || !items.length) return null;
  const bar = el("div", "rw-follow-ups");
  bar.appendChild(el("span", "rw-follow-ups-title", "Weiter nach den Regeln:"));
  for (const item of items) {
    if (!isObject(item)) continue;
    const proposed = item.fighter ? widgetStep(table, item) : null;
    if (proposed) {
      bar.appendChild(proposed);
      continue;
    }
    const next = table.helpers().find((h) => h.dataset.action === item.action);
    if (!next) continue;
    if (item.other_target) {
      bar.appendChild(button(`${item.title} ▸`, "md-button", () => openForOther(next, item)));
      continue;
    }
    const params = item.params || {};
    const open = () => {
      forOther.delete(next);
      fill(next, knownValuesWin(table, next, params));
      openHelper(next);
      next.querySelector(".rw-submit").focus({ preventScroll: true });
    };
    bar.appendChild(button(`${item.title} ▸`, "md-button", open));
    // with every fighter's value known, the next roll is one tap: filled, rolled, shown (what it
    // wrote then stands in its result, with its own „Rückgängig“)
    const target = table.store.state.target;
    if (target && !missingValues(table, next, params).length) {
      const roll = button(`${item.title}: würfeln ⚄`, "md-button md-button--primary rw-follow-roll", () => {
        roll.disabled = true;
        rollInPlace(table, next, params, host);
      });
      roll.title = `Mit den bekannten Werten von ${target} gleich würfeln`;
      bar.appendChild(roll);
    }
  }
  return bar.children.length > 1 ? bar : null;
}
