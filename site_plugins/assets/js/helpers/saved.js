// Regelwerk – saved.js: „Meine Werte“, named sets of a helper's values kept in the browser.
//
// Owns: the stored sets (localStorage "regelwerk:werte", version 1:
//   {version, entries: [{id, name, system, action, values, saved}]}), the bar in every helper
// form (.rw-values: choose a set → the form is filled at once, on every page where that
// helper is; „Werte speichern …“ asks for a name and asks again before overwriting), and the
// file of all sets ({format: "regelwerk-werte", version: 1, entries}) for moving them to
// another browser. A field a set has but the helper no longer knows is reported, never
// dropped (the set keeps it). Nothing leaves the browser.

import { collect, fill } from "./forms.js";
import { ask, askText, notice } from "./results.js";
import * as store from "../common/store.js";
import { isObject, versionText } from "../common/util.js";

const KEY = "werte";
const VERSION = 1;
const FORMAT = "regelwerk-werte";
const MAX_ENTRIES = 500;

function checkEntry(entry) {
  return isObject(entry) && typeof entry.name === "string" && entry.name.trim() !== "" &&
    typeof entry.system === "string" && typeof entry.action === "string" && isObject(entry.values);
}

function check(value) {
  if (!isObject(value) || value.version !== VERSION || !Array.isArray(value.entries)) {
    return "kein Speicherstand von „Meine Werte“";
  }
  const bad = value.entries.findIndex((e) => !checkEntry(e));
  return bad >= 0 ? `Eintrag ${bad + 1} ist beschädigt` : "";
}

// The entries as last read or written. Another tab (or the reader clearing the site's data)
// may have changed the stored text since: then it is read again, so that a save here never
// writes back a stale list over sets saved elsewhere. When the browser refuses to store, the
// stored text stays as it was and the list lives on for this visit.
let cache = null;
let cacheSource = null; // the stored text the cache matches
let problem = "";

export function entries() {
  if (cache === null || store.peek(KEY) !== cacheSource) {
    const read = store.read(KEY, check);
    cache = read.value ? read.value.entries : [];
    problem = read.problem;
    cacheSource = store.peek(KEY);
  }
  return cache;
}

export function forAction(system, action) {
  return entries()
    .filter((e) => e.system === system && e.action === action)
    .sort((a, b) => a.name.localeCompare(b.name, "de"));
}

export function commit(next) {
  const failure = store.write(KEY, { version: VERSION, entries: next });
  cache = next;
  cacheSource = store.peek(KEY);
  document.dispatchEvent(new CustomEvent("regelwerk:werte"));
  return failure;
}

function newId() {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;
}

function cleanName(name) {
  return String(name).split(/\s+/).join(" ").trim().slice(0, 60);
}

// Saves (or overwrites) the set `name` of this helper; returns "" or a German problem.
export function save(system, action, name, values) {
  const clean = cleanName(name);
  if (!clean) return "Bitte einen Namen eingeben.";
  const rest = entries().filter((e) => !(e.system === system && e.action === action && e.name === clean));
  if (rest.length >= MAX_ENTRIES) return `Höchstens ${MAX_ENTRIES} gespeicherte Werte.`;
  const entry = { id: newId(), name: clean, system, action, values, saved: new Date().toISOString() };
  return commit([...rest, entry]);
}

export function remove(id) {
  return commit(entries().filter((e) => e.id !== id));
}

export function rename(id, name) {
  const clean = cleanName(name);
  if (!clean) return "Bitte einen Namen eingeben.";
  return commit(entries().map((e) => (e.id === id ? { ...e, name: clean } : e)));
}

export function fileText() {
  return JSON.stringify({ format: FORMAT, version: VERSION, saved: new Date().toISOString(), entries: entries() }, null, 2);
}

// → {incoming, clashes, problem}: the sets of a file, checked, and those that would replace
// sets of the same helper and name.
export function importText(text, fileName) {
  const label = fileName.length > 40 ? `${fileName.slice(0, 39)}…` : fileName;
  let data;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { problem: `„${label}“ ist keine lesbare Datei (der Inhalt ist beschädigt).` };
  }
  if (!isObject(data) || data.format !== FORMAT) return { problem: `„${label}“ ist keine Datei von „Meine Werte“ (es fehlt „format: ${FORMAT}“).` };
  if (data.version !== VERSION) return { problem: `„${label}“ ${versionText(data.version)}; diese Seite liest Version ${VERSION}.` };
  if (!Array.isArray(data.entries)) return { problem: `In „${label}“ fehlt die Liste „entries“.` };
  const bad = data.entries.findIndex((e) => !checkEntry(e));
  if (bad >= 0) return { problem: `In „${label}“ ist Eintrag ${bad + 1} unvollständig (Name, System, Helfer und Werte nötig).` };
  const same = (a, b) => a.system === b.system && a.action === b.action && a.name === b.name;
  const kept = entries();
  // an id is the set's handle in the page (choosing, deleting): one that is not text, or that
  // another set already has (here, or earlier in the file), gets a new one
  const ids = new Set(kept.filter((old) => !data.entries.some((e) => same(old, { ...e, name: cleanName(e.name) }))).map((old) => old.id));
  const incoming = data.entries.map((e) => {
    const id = typeof e.id === "string" && e.id && !ids.has(e.id) ? e.id : newId();
    ids.add(id);
    return { ...e, name: cleanName(e.name), id };
  });
  const clashes = incoming.filter((e) => kept.some((old) => same(old, e)));
  const merged = [...kept.filter((old) => !incoming.some((e) => same(old, e))), ...incoming];
  if (merged.length > MAX_ENTRIES) {
    return { problem: `Mit „${label}“ wären es ${merged.length} gespeicherte Werte; höchstens ${MAX_ENTRIES} gehen.` };
  }
  return { incoming, clashes, merged, problem: "" };
}

// ------------------------------------------------------------------ the bar in a form

function scopeOf(bar) {
  return bar.closest("fieldset") || bar.closest(".rw-form");
}

function valuesIn(helper, scope) {
  if (scope.matches(".rw-form")) return collect(helper);
  const values = {};
  scope.querySelectorAll("[data-path][data-type]").forEach((input) => {
    if (input.dataset.type !== "seed") values[input.dataset.path] = input.dataset.type === "bool" ? input.checked : input.value;
  });
  return values;
}

function refreshBar(helper, bar) {
  const select = bar.querySelector(".rw-values-select");
  const list = forAction(helper.dataset.system, helper.dataset.action);
  const chosen = select.value;
  const head = new Option(list.length ? "gespeicherte Werte einsetzen …" : "noch keine gespeichert", "");
  select.replaceChildren(head, ...list.map((e) => new Option(e.name, e.id)));
  select.disabled = !list.length;
  if (list.some((e) => e.id === chosen)) select.value = chosen;
}

function choose(helper, bar, id) {
  const entry = entries().find((e) => e.id === id);
  if (!entry) return;
  const presets = (helper.dataset.preset || "").split(",").filter(Boolean);
  const scope = scopeOf(bar);
  const unknown = scope.matches(".rw-form") ? fill(helper, entry.values, presets) : fillScope(scope, entry.values);
  const host = bar.querySelector(".rw-values-notices");
  if (unknown.length) {
    notice(host, `„${entry.name}“ eingesetzt. Nicht übernommen, weil es diese Felder hier nicht (mehr) gibt: ${unknown.join(", ")} – die gespeicherten Werte bleiben erhalten.`, "error");
  } else {
    notice(host, `„${entry.name}“ eingesetzt.`);
  }
  helper.dispatchEvent(new CustomEvent("regelwerk:filled", { bubbles: true, detail: { entry } }));
}

function fillScope(scope, values) {
  const unknown = [];
  for (const [name, value] of Object.entries(values)) {
    const input = scope.querySelector(`[data-path="${CSS.escape(name)}"][data-type]`);
    if (!input) unknown.push(name);
    else if (input.dataset.type === "bool") input.checked = value === true;
    else input.value = String(value);
  }
  return unknown;
}

async function saveFromBar(helper, bar) {
  const host = bar.querySelector(".rw-values-notices");
  const select = bar.querySelector(".rw-values-select");
  const current = entries().find((e) => e.id === select.value);
  const nameField = scopeOf(bar).querySelector("[data-path='name'][data-type='text']");
  const suggestion = current ? current.name : (nameField && nameField.value) || "";
  const name = await askText(host, "Unter welchem Namen speichern? (z. B. „Alrik – Langschwert“)", suggestion, "Speichern");
  if (name === null) return;
  const clean = cleanName(name);
  const exists = forAction(helper.dataset.system, helper.dataset.action).some((e) => e.name === clean);
  if (exists && !(await ask(host, `„${clean}“ gibt es schon. Mit den Werten im Formular überschreiben?`, "Ja, überschreiben"))) return;
  const failure = save(helper.dataset.system, helper.dataset.action, clean, valuesIn(helper, scopeOf(bar)));
  if (failure) {
    notice(host, `Nicht gespeichert: ${failure}`, "error");
    return;
  }
  const entry = forAction(helper.dataset.system, helper.dataset.action).find((e) => e.name === clean);
  refreshBar(helper, bar);
  select.value = entry.id;
  notice(host, `Gespeichert als „${clean}“ – auf jeder Seite mit diesem Helfer unter „Meine Werte“.`);
}

export function setupValues(helper) {
  helper.querySelectorAll(".rw-values").forEach((bar) => {
    refreshBar(helper, bar);
    if (problem) {
      notice(bar.querySelector(".rw-values-notices"), `„Meine Werte“ waren beschädigt (${problem}) und wurden als Sicherung beiseitegelegt.`, "error", [
        { label: "Sicherung herunterladen", onClick: () => store.download("meine-werte-sicherung.json", store.backup(KEY) || "") },
      ]);
    }
    bar.querySelector(".rw-values-select").addEventListener("change", (event) => choose(helper, bar, event.target.value));
    bar.querySelector(".rw-values-save").addEventListener("click", () => saveFromBar(helper, bar));
    document.addEventListener("regelwerk:werte", () => helper.isConnected && refreshBar(helper, bar));
  });
}

export function onChange(callback) {
  document.addEventListener("regelwerk:werte", callback);
}
