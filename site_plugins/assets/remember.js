// Regelwerk – remember.js: every helper keeps its last input and its last result.
// Load order, namespace convention (RW = window.Regelwerk, RW._internal): see engine-client.js.
//
// Owns: localStorage "regelwerk:helfer:<system>.<action>" (version 1: {version, values,
// shown: {display, seed, row}}) – shared by every page where that helper is (the rule page and
// the Kampfhelfer page), written after each roll, put back when the page opens (fields the
// page presets for its purpose are left alone); „Zurücksetzen“ restores the form as the page
// built it and forgets the stored input, with „Rückgängig“ right there.
// Exposes: RW._internal.remember = {restore, store, reset, key}.
(function () {
"use strict";
const RW = (window.Regelwerk = window.Regelwerk || {});
const internal = RW._internal;
const { el } = RW;

const VERSION = 1;
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

function key(helper) {
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

function showResult(helper, shown, note) {
  const nodes = RW.resultNodes({ result: { display: shown.display, row: shown.row }, seed: shown.seed });
  if (note) nodes.unshift(el("p", "rw-remembered", note));
  helper.querySelector(".rw-result").replaceChildren(...nodes);
}

// Puts the stored input (and result) back; returns the stored value or null.
function restore(helper) {
  const { value, problem } = RW.store.read(key(helper), check);
  if (problem) console.warn("[regelwerk]", `${key(helper)}: ${problem} – beiseitegelegt`);
  if (!value) return null;
  RW.fill(helper, value.values, presets(helper));
  if (value.shown) {
    try {
      showResult(helper, value.shown, "Zuletzt gewürfelt (im Browser gespeichert):");
    } catch (error) {
      helper.querySelector(".rw-result").replaceChildren();
    }
  }
  return value;
}

function store(helper, params, body) {
  const shown = { display: body.result.display, seed: body.seed, row: body.result.row || null };
  // a page's presets give its helper a purpose there (e.g. Fernkampf): not carried elsewhere
  const values = { ...params };
  for (const name of presets(helper)) delete values[name];
  const problem = RW.store.write(key(helper), { version: VERSION, values, shown });
  if (problem) console.warn("[regelwerk]", problem);
}

function reset(helper) {
  const before = RW.store.read(key(helper), check).value;
  const values = RW.collect(helper);
  const result = [...helper.querySelector(".rw-result").childNodes];
  internal.resetForm(helper);
  RW.clearErrors(helper);
  helper.querySelector(".rw-result").replaceChildren();
  RW.store.remove(key(helper));
  const host = helper.querySelector(".rw-values-notices") || helper.querySelector(".rw-result");
  internal.notice(host, "Formular zurückgesetzt.", "info", [
    {
      label: "Rückgängig",
      onClick: (box) => {
        RW.fill(helper, values);
        helper.querySelector(".rw-result").replaceChildren(...result);
        if (before) RW.store.write(key(helper), before);
        box.remove();
      },
    },
  ]);
}

internal.remember = { restore, store, reset, key, showResult };
})();
