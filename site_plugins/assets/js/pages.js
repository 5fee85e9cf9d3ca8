// Regelwerk – pages.js: every page's start, and the helpers' code loaded where a page has any.
//
// Owns: the page loop (initPage for the first page and for every page Material's instant
// navigation brings, document$), what every page needs (the dice popover closed, the engine
// booted where a helper or a dice button is, the roll log, jumps below the sticky header,
// tables that scroll) and the scripts of its parts (issue #46: „a page loads only the browser
// code it uses“): where a page has helpers, a fight or „Meine Werte“, or its address is a
// shared roll, regelwerk-helfer.js; on the player view regelwerk-spieler.js. Each is loaded
// once (common/scripts.js) and sets the page up through the API it hands over (partLoaded). A
// page of text alone loads neither. If one cannot be loaded, every helper of the page says so
// in German, with „Erneut versuchen“; the text stays readable.

import { scheduleBoot, timing } from "../../laufzeit/js/engine-client.js";
import { closePopover } from "./helpers/dice.js";
import { keepJumpsClear } from "./helpers/jump-offset.js";
import { showStoredLog } from "./helpers/log.js";
import { watchScrolling } from "./helpers/results.js";
import { loadScript } from "./common/scripts.js";
import { el } from "./common/util.js";

// The scripts regelwerk.js loads, each where a page has what it sets up (by its elements, or a
// shared roll in the address): the player view on its own, so a player's phone never gets the
// helpers and the fight.
const PARTS = [
  { script: "regelwerk-spieler.js", selector: ".rw-player" },
  { script: "regelwerk-helfer.js", selector: ".rw-helper, .rw-workbench, .rw-werte-verwaltung", hash: "#wurf=" },
];
const HELPERS = "regelwerk-helfer.js";
const failedText = (script) =>
  `Fehler: Die Würfelhelfer konnten nicht geladen werden (${script}). Regeltext, Tabellen und ` +
  "Suche funktionieren weiter.";

const loaded = new Map(); // script → the API it handed over
const loading = new Map(); // script → the promise of its load
let turn = 0; // counts the pages: a late load sets up only the page it was for

// Called by each part when it runs: regelwerk-helfer.js hands {initPage, onHashChange, collect,
// fill}, regelwerk-spieler.js {initPage}.
export function partLoaded(script, api) {
  loaded.set(script, api);
}

// The helpers' API, for the facade (bundle.js); throws where the page has none.
export function helpersApi() {
  if (!loaded.has(HELPERS)) throw new Error("Die Helfer dieser Seite sind noch nicht geladen.");
  return loaded.get(HELPERS);
}

function wanted(hash = location.hash) {
  return PARTS.filter((part) => document.querySelector(part.selector) || (part.hash && hash.startsWith(part.hash)));
}

function load(script) {
  if (loaded.has(script)) return Promise.resolve(loaded.get(script));
  if (!loading.has(script)) {
    const promise = loadScript(script).then(() => {
      if (!loaded.has(script)) throw new Error(`${script} hat nichts übergeben`);
      return loaded.get(script);
    });
    promise.catch(() => loading.delete(script)); // „Erneut versuchen“ loads it again
    loading.set(script, promise);
  }
  return loading.get(script);
}

// A part cannot be loaded: each helper of the page says so where it would show its state, the
// player view where it would show the fight – each with „Erneut versuchen“.
function sayFailed(script, error) {
  console.warn("[regelwerk]", error.message);
  document.querySelectorAll(".rw-player:not([data-rw-player])").forEach((root) => {
    const retry = el("button", "md-button rw-retry", "Erneut versuchen");
    retry.type = "button";
    retry.addEventListener("click", () => {
      root.replaceChildren(el("p", "", "Die Spieleransicht lädt …"));
      withPart(script, (api) => api.initPage());
    });
    const text = `Fehler: Die Spieleransicht konnte nicht geladen werden (${script}). Bitte die Verbindung prüfen.`;
    root.replaceChildren(el("p", "rw-notice rw-notice--error", text), retry);
    root.setAttribute("aria-busy", "false");
  });
  document.querySelectorAll(".rw-helper:not([data-rw-ready])").forEach((helper) => {
    const status = helper.querySelector(".rw-status");
    const retry = helper.querySelector(".rw-retry");
    if (status) {
      status.dataset.state = "failed";
      status.textContent = failedText(script);
    }
    if (retry && !retry.dataset.rwRetryLoad) {
      retry.hidden = false;
      retry.dataset.rwRetryLoad = "1";
      retry.addEventListener("click", () => withPart(script, (api) => api.initPage()), { once: true });
    }
  });
}

// ``use(api)`` of ``script`` for this page, now or once it is there (not if the reader moved on).
function withPart(script, use) {
  if (loaded.has(script)) {
    use(loaded.get(script));
    return;
  }
  const page = turn;
  load(script).then(
    (api) => {
      if (page === turn) use(api);
    },
    (error) => {
      if (page === turn) sayFailed(script, error);
    },
  );
}

export function initPage() {
  const started = performance.now();
  turn += 1;
  closePopover(false);
  if (document.querySelector(".rw-helper, .rw-dice")) scheduleBoot();
  const parts = wanted();
  if (parts.length) {
    for (const part of parts) withPart(part.script, (api) => api.initPage()); // its roll log, jumps …
  } else {
    showStoredLog();
    keepJumpsClear();
  }
  // after Material has wrapped the page's tables (its own subscriber to the same page event)
  setTimeout(() => watchScrolling(document), 0);
  // our longest stretch on the main thread while a page loads (scripts/benchmark*.py)
  timing.initPageMs = Math.max(timing.initPageMs || 0, performance.now() - started);
}

// A shared roll pasted into the address bar of the page already open (page.js onHashChange).
function onHashChange(event) {
  const hash = new URL(event.newURL).hash;
  if (loaded.has(HELPERS) || wanted(hash).some((part) => part.script === HELPERS)) {
    withPart(HELPERS, (api) => api.onHashChange(hash));
  }
}

// initPage for this page and every page instant navigation brings.
export function startPages() {
  for (const part of wanted()) load(part.script).catch(() => {}); // at once, before Material's page event
  window.addEventListener("hashchange", onHashChange);
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(initPage);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", initPage);
  } else {
    initPage();
  }
}
