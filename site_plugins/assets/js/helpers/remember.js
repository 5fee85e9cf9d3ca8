// Regelwerk – remember.js: every helper keeps its last input and its last result.
//
// Owns: localStorage "regelwerk:helfer:<system>.<action>" (version 1: {version, values,
// shown: {display, seed, row}}) – shared by every page where that helper is (the rule page and
// the Kampfhelfer page), written after each roll and as the reader types (a change), put back
// when the page opens (fields the
// page presets for its purpose are left alone; values of one roll – data-per-roll, forms.js –
// are neither kept nor put back); „Zurücksetzen“ restores the form as the page built it and
// forgets the stored input, with „Rückgängig“ right there.

import { clearErrors, collect, fill, resetForm, withoutPerRoll } from "./forms.js";
import { notice, resultNodes } from "./results.js";
import * as store from "../common/store.js";
import { el, isObject } from "../common/util.js";

const VERSION = 1;

export function key(helper) {
  return `helfer:${helper.dataset.system}.${helper.dataset.action}`;
}

function check(value) {
  if (!isObject(value) || value.version !== VERSION || !isObject(value.values)) return "unbekannte Form";
  const shown = value.shown;
  if (shown !== null && shown !== undefined) {
    if (!isObject(shown) || !isObject(shown.display) || !Array.isArray(shown.display.sections)) return "die letzte Anzeige ist unvollständig";
  }
  return "";
}

function presets(helper) {
  return (helper.dataset.preset || "").split(",").filter(Boolean);
}

export function showResult(helper, shown, note) {
  const nodes = resultNodes({ result: { display: shown.display, row: shown.row }, seed: shown.seed });
  if (note) nodes.unshift(el("p", "rw-remembered", note));
  helper.querySelector(".rw-result").replaceChildren(...nodes);
}

// Puts the stored input (and result) back; returns the stored value or null.
export function restore(helper) {
  const { value, problem } = store.read(key(helper), check);
  if (problem) console.warn("[regelwerk]", `${key(helper)}: ${problem} – beiseitegelegt`);
  if (!value) return null;
  // a value of one roll stored before it was marked as such is not brought back either
  fill(helper, withoutPerRoll(helper, value.values), presets(helper));
  if (value.shown) {
    try {
      showResult(helper, value.shown, "Zuletzt gewürfelt (im Browser gespeichert):");
    } catch (error) {
      helper.querySelector(".rw-result").replaceChildren();
    }
  }
  return value;
}

// a page's presets give its helper a purpose there (e.g. Fernkampf): not carried elsewhere;
// a die result typed for one roll is not the next one's (forms.js withoutPerRoll)
function keep(helper, params, shown) {
  const values = withoutPerRoll(helper, params);
  for (const name of presets(helper)) delete values[name];
  const problem = store.write(key(helper), { version: VERSION, values, shown });
  if (problem) console.warn("[regelwerk]", problem);
}

export function keepRoll(helper, params, body) {
  keep(helper, params, { display: body.result.display, seed: body.seed, row: body.result.row || null });
}

// A value typed but not yet rolled is kept too (B7: it was lost on reload): the form's input
// as it stands, with the last result as it was.
export function keepTyped(helper) {
  const before = store.read(key(helper), check).value;
  keep(helper, collect(helper), before ? before.shown : null);
}

export function reset(helper) {
  const before = store.read(key(helper), check).value;
  const values = collect(helper);
  const result = [...helper.querySelector(".rw-result").childNodes];
  resetForm(helper);
  clearErrors(helper);
  helper.querySelector(".rw-result").replaceChildren();
  store.remove(key(helper));
  const host = helper.querySelector(".rw-values-notices") || helper.querySelector(".rw-result");
  notice(host, "Formular zurückgesetzt.", "info", [
    {
      label: "Rückgängig",
      onClick: (box) => {
        fill(helper, values);
        helper.querySelector(".rw-result").replaceChildren(...result);
        if (before) store.write(key(helper), before);
        box.remove();
      },
    },
  ]);
}
