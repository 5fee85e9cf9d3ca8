// Regelwerk – log.js: the page roll log („Wurfprotokoll dieser Seite“).
//
// Owns: one log per page – every roll with dice (helpers, dice buttons, the Tickleiste's
// Kampfbeginn; a result without dice is not a roll, results.js hasDice; the Tickleiste's other
// moves belong to the fight, not here) – newest first, at most LOG_MAX (a whole evening), the
// newest LOG_SHOWN shown at the end of the article, the rest on request. A roll that made a step
// of the fight (a Kampfhelfer page) names it (`step`: {system, n}); when that step is taken back
// the entry says so („rückgängig gemacht“, read from the fight store, which the log follows).
// It is kept per page in localStorage ("regelwerk:wurfprotokoll:<path>", version 1: {version,
// entries: [{label, outcome, seed, request: {system, action, params}, helper, id, step?}]})
// through store.js: checked when read (checkLog;
// a stored value of another shape is set aside as store.js's backup and the log starts empty,
// never a crash), read again before each write (another tab of the same page may have added),
// and shown again when the page opens (showStoredLog, from page.js).
// „Wiederholen“ rolls an entry again with its Wurfnummer, also after a reload: a helper's roll
// goes back into that helper through page.js's submit (replayWith: the page registers how;
// found by data-system + data-action, the logged id first); a dice button's roll is repeated
// in its popover while the page that rolled it is open, else shown under the entry. A repeated
// roll is not logged again. „Protokoll leeren“ asks first and can be undone.

import { fightStore } from "../fight/store.js";
import { runEngine } from "../../../laufzeit/js/engine-client.js";
import { ask, hasDice, notice, resultNodes } from "./results.js";
import * as store from "../common/store.js";
import { el, isObject } from "../common/util.js";

export const LOG_VERSION = 1;
export const LOG_MAX = 500;
export const LOG_SHOWN = 50;

const SEED = /^[0-9]{1,16}$/;
const SYSTEM = /^[a-z]{1,40}$/;
const ACTION = /^[a-z_]{1,40}$/;
const HELPER_ID = /^[A-Za-z0-9_-]{0,100}$/;
const ENTRY_ID = /^[a-z0-9]{1,24}$/;

export function logKey(path) {
  return `wurfprotokoll:${path}`;
}

function entryProblem(entry, index) {
  const where = `Eintrag ${index + 1}`;
  if (!isObject(entry)) return `${where} ist kein Eintrag`;
  if (typeof entry.label !== "string" || entry.label.length > 200) return `${where}: Bezeichnung fehlt`;
  if (typeof entry.outcome !== "string" || entry.outcome.length > 2000) return `${where}: Ergebnis fehlt`;
  if (typeof entry.seed !== "string" || !SEED.test(entry.seed)) return `${where}: Wurfnummer fehlt`;
  const request = entry.request;
  if (!isObject(request) || typeof request.system !== "string" || !SYSTEM.test(request.system) ||
    typeof request.action !== "string" || !ACTION.test(request.action) || !isObject(request.params)) {
    return `${where}: der Wurf ist unvollständig`;
  }
  if (typeof entry.helper !== "string" || !HELPER_ID.test(entry.helper)) return `${where}: Helfer unlesbar`;
  if (typeof entry.id !== "string" || !ENTRY_ID.test(entry.id)) return `${where}: Kennung unlesbar`;
  const step = entry.step;
  if (step !== undefined && step !== null && (!isObject(step) || typeof step.system !== "string" || !SYSTEM.test(step.system) || !Number.isInteger(step.n))) {
    return `${where}: Schritt des Kampfes unlesbar`;
  }
  return "";
}

// A stored log's shape: "" or a German problem (the value is then set aside by store.read).
export function checkLog(value) {
  if (!isObject(value) || value.version !== LOG_VERSION) return "unbekannte Form";
  if (!Array.isArray(value.entries)) return "keine Einträge";
  if (value.entries.length > LOG_MAX) return `mehr als ${LOG_MAX} Einträge`;
  for (const [index, entry] of value.entries.entries()) {
    const problem = entryProblem(entry, index);
    if (problem) return problem;
  }
  return "";
}

// The newest entry first, the oldest dropped beyond LOG_MAX.
export function withEntry(entries, entry) {
  return [entry, ...entries].slice(0, LOG_MAX);
}

// The entry for one roll: body is the engine's answer, request what was sent (its params are
// what a repeat sends again; without it the answer's own), helper the rolling helper's id.
export function entryOf(label, body, request, helper = "", step = null) {
  const sent = request || body;
  const entry = {
    label: String(label).slice(0, 200),
    outcome: String((body.result.display && body.result.display.outcome) || "").slice(0, 2000),
    seed: String(body.seed),
    request: { system: sent.system, action: sent.action, params: sent.params || {} },
    helper: HELPER_ID.test(helper || "") ? helper || "" : "",
    id: `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`.slice(0, 24),
  };
  if (isObject(step) && typeof step.system === "string" && SYSTEM.test(step.system) && Number.isInteger(step.n)) {
    entry.step = { system: step.system, n: step.n };
  }
  return entry;
}

// this visit's log per page (what the browser refuses to keep still counts until the page goes)
const visit = new Map(); // path → entries
const unsaved = new Set(); // paths whose last write the browser refused
// a dice button's own repeat (its popover), for the entries of this visit: entry id → function
const liveRepeats = new Map();
let helperReplay = null; // (request, helperId) → true when a helper on this page rolled it

// page.js: how a helper's roll is repeated on this page (its submit path).
export function replayWith(replay) {
  helperReplay = replay;
}

function load(path) {
  const { value, problem } = store.read(logKey(path), checkLog);
  if (problem) console.warn("[regelwerk]", `Wurfprotokoll: ${problem} – beiseitegelegt`);
  // what the browser refused to keep stays this visit's (newer than anything stored)
  if (!unsaved.has(path)) visit.set(path, value ? value.entries : []);
  return visit.get(path) || [];
}

function save(path, entries) {
  visit.set(path, entries);
  let problem = "";
  if (entries.length) problem = store.write(logKey(path), { version: LOG_VERSION, entries });
  else store.remove(logKey(path));
  if (problem) {
    unsaved.add(path);
    console.warn("[regelwerk]", `Wurfprotokoll: ${problem}`);
  } else unsaved.delete(path);
}

function pageLog(create) {
  let log = document.getElementById("rw-page-log");
  if (log || !create) return log;
  const article = document.querySelector("article.md-content__inner") || document.body;
  log = el("details", "rw-page-log");
  log.id = "rw-page-log";
  log.open = true;
  const summary = el("summary", "", "Wurfprotokoll dieser Seite");
  const list = el("ol", "rw-page-log-list");
  list.setAttribute("aria-live", "off");
  const help = el(
    "p",
    "rw-help",
    `Jeder Wurf mit seiner Wurfnummer – „Wiederholen“ würfelt ihn mit derselben Nummer noch einmal. ` +
      `Das Protokoll bleibt in diesem Browser (höchstens ${LOG_MAX} Würfe); ein Wurf, dessen Schritt im Kampf ` +
      "rückgängig gemacht wurde, ist markiert.",
  );
  const bar = el("div", "rw-page-log-actions");
  const clear = el("button", "md-button rw-log-clear", "Protokoll leeren");
  clear.type = "button";
  clear.addEventListener("click", () => clearLog(log));
  bar.appendChild(clear);
  log.append(summary, help, list, bar, el("div", "rw-page-log-notices"));
  article.appendChild(log);
  return log;
}

let showAll = false; // „Alle … Würfe zeigen“ was pressed on this page

function render(entries) {
  const log = pageLog(entries.length > 0);
  if (!log) return;
  const list = log.querySelector("ol");
  const shown = showAll ? entries : entries.slice(0, LOG_SHOWN);
  const items = shown.map(entryNode);
  if (shown.length < entries.length) {
    const more = el("button", "md-button rw-log-more", `Alle ${entries.length} Würfe zeigen`);
    more.type = "button";
    more.addEventListener("click", () => {
      showAll = true;
      render(load(location.pathname));
    });
    const li = el("li", "rw-log-more-item");
    li.appendChild(more);
    items.push(li);
  }
  list.replaceChildren(...items);
  log.querySelector(".rw-log-clear").hidden = entries.length === 0;
  followSteps(entries, log);
}

// The fights whose steps the entries name: when one changes (a step taken back, put back), the
// log is drawn again – by the log of the page now shown (instant navigation brings a new one).
const followed = new Map(); // system → the log element that follows its fight

function followSteps(entries, log) {
  for (const entry of entries) {
    const system = entry.step && entry.step.system;
    if (!system || followed.get(system) === log) continue;
    followed.set(system, log);
    fightStore(system).subscribe({
      alive: () => followed.get(system) === log && log.isConnected,
      draw: () => render(load(location.pathname)),
    });
  }
}

function undoneStep(entry) {
  return !!entry.step && !fightStore(entry.step.system).stepStands(entry.step.n);
}

function entryNode(entry) {
  const undone = undoneStep(entry);
  const li = el("li", undone ? "rw-log-undone" : "");
  li.appendChild(el("span", "rw-log-label", `${entry.label}: `));
  li.appendChild(el("span", "", `${entry.outcome} `));
  if (undone) li.appendChild(el("span", "rw-log-undone-note", "(im Kampf rückgängig gemacht) "));
  li.appendChild(el("span", "rw-log-seed", `(Wurfnummer ${entry.seed}) `));
  const again = el("button", "rw-repeat md-button", "Wiederholen");
  again.type = "button";
  again.setAttribute("aria-label", `${entry.label} mit Wurfnummer ${entry.seed} wiederholen`);
  again.addEventListener("click", () => repeat(entry, li));
  li.appendChild(again);
  return li;
}

async function repeat(entry, li) {
  const request = { ...entry.request, seed: entry.seed };
  if (helperReplay && helperReplay(request, entry.helper)) return;
  const live = liveRepeats.get(entry.id);
  if (live) {
    live();
    return;
  }
  // no helper for it on this page (a dice button's roll after a reload): shown under the entry
  const box = li.querySelector(".rw-log-repeat") || li.appendChild(el("div", "rw-log-repeat"));
  box.replaceChildren(el("p", "rw-pending", "Würfelt …"));
  try {
    const body = await runEngine(request);
    box.replaceChildren(...(body.ok ? resultNodes(body) : [el("p", "rw-error", body.error.message)]));
  } catch (error) {
    box.replaceChildren(el("p", "rw-error", `Würfeln nicht möglich: ${error.message}`));
  }
}

async function clearLog(log) {
  const path = location.pathname;
  const before = load(path);
  if (!before.length) return;
  const host = log.querySelector(".rw-page-log-notices");
  const count = before.length === 1 ? "1 Wurf" : `${before.length} Würfe`;
  if (!(await ask(host, `Das Wurfprotokoll dieser Seite leeren (${count})?`, "Ja, leeren"))) return;
  save(path, []);
  render([]);
  notice(host, `Wurfprotokoll geleert (${count}).`, "info", [
    {
      label: "Rückgängig",
      onClick: (box) => {
        const now = load(path);
        const entries = [...now, ...before].slice(0, LOG_MAX);
        save(path, entries);
        render(entries);
        box.remove();
      },
    },
  ]);
}

// One roll into this page's log: label (the helper's title or the dice notation), body (the
// engine's answer), replay (this visit's own repeat, e.g. a dice button's popover; optional),
// options {request, helper, step}: what was sent, the helper's id and the fight's step the roll
// made ({system, n}). Results without dice are not logged.
export function logRoll(label, body, replay, options = {}) {
  if (!body || !body.result || !hasDice(body.result.display)) return;
  const path = location.pathname;
  const entry = entryOf(label, body, options.request, options.helper, options.step);
  if (replay) liveRepeats.set(entry.id, replay);
  const entries = withEntry(load(path), entry);
  save(path, entries);
  render(entries);
}

// When a page opens: its kept log, if it has one.
export function showStoredLog() {
  showAll = false;
  const entries = load(location.pathname);
  if (entries.length || document.getElementById("rw-page-log")) render(entries);
}
