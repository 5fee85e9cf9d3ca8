// Regelwerk – pages.js: every page's start, and the helpers' code loaded where a page has any.
//
// Owns: the page loop (initPage for the first page and for every page Material's instant
// navigation brings, document$), what every page needs (the dice popover closed, the engine
// booted where a helper or a dice button is, the roll log, jumps below the sticky header,
// tables that scroll) and regelwerk-helfer.js (issue #46: „a page loads only the browser code
// it uses“): where a page has helpers, a fight, „Meine Werte“ or the player view, or its
// address is a shared roll, that script is loaded once (common/scripts.js) and sets the page
// up through the API it hands over (helpersLoaded: page.js initPage, onHashChange; forms.js
// collect, fill). A page of text alone never loads it. If it cannot be loaded, every helper of
// the page says so in German, with „Erneut versuchen“; the text stays readable.

import { scheduleBoot, timing } from "../../laufzeit/js/engine-client.js";
import { closePopover } from "./helpers/dice.js";
import { keepJumpsClear } from "./helpers/jump-offset.js";
import { showStoredLog } from "./helpers/log.js";
import { watchScrolling } from "./helpers/results.js";
import { loadScript } from "./common/scripts.js";

export const HELPERS_SCRIPT = "regelwerk-helfer.js";
// what regelwerk-helfer.js sets up: helpers, the Kampfhelfer page, „Meine Werte“, the player view
const NEEDS_HELPERS = ".rw-helper, .rw-workbench, .rw-werte-verwaltung, .rw-player";
const SHARED_ROLL = "#wurf="; // helpers/share.js: a shared roll in the address
const FAILED =
  "Fehler: Die Würfelhelfer konnten nicht geladen werden (regelwerk-helfer.js). Regeltext, " +
  "Tabellen und Suche funktionieren weiter.";

let helpers = null; // the API regelwerk-helfer.js handed over
let loading = null;
let turn = 0; // counts the pages: a late load sets up only the page it was for

// Called by regelwerk-helfer.js when it runs: {initPage, onHashChange, collect, fill}.
export function helpersLoaded(api) {
  helpers = api;
}

// The helpers' API, for the facade (bundle.js); throws where the page has none.
export function helpersApi() {
  if (!helpers) throw new Error("Die Helfer dieser Seite sind noch nicht geladen.");
  return helpers;
}

function needsHelpers(hash = location.hash) {
  return Boolean(document.querySelector(NEEDS_HELPERS)) || hash.startsWith(SHARED_ROLL);
}

function loadHelpers() {
  if (helpers) return Promise.resolve(helpers);
  if (!loading) {
    loading = loadScript(HELPERS_SCRIPT).then(() => {
      if (!helpers) throw new Error(`${HELPERS_SCRIPT} hat nichts übergeben`);
      return helpers;
    });
    loading.catch(() => {
      loading = null; // „Erneut versuchen“ loads it again
    });
  }
  return loading;
}

// The helpers cannot be set up: each says so where it would have shown its state.
function sayFailed(error) {
  console.warn("[regelwerk]", error.message);
  document.querySelectorAll(".rw-helper:not([data-rw-ready])").forEach((helper) => {
    const status = helper.querySelector(".rw-status");
    const retry = helper.querySelector(".rw-retry");
    if (status) {
      status.dataset.state = "failed";
      status.textContent = FAILED;
    }
    if (retry && !retry.dataset.rwRetryLoad) {
      retry.hidden = false;
      retry.dataset.rwRetryLoad = "1";
      retry.addEventListener("click", () => withHelpers((api) => api.initPage()), { once: true });
    }
  });
}

// ``use(api)`` for this page, now or once the script is there (not if the reader moved on).
function withHelpers(use) {
  if (helpers) {
    use(helpers);
    return;
  }
  const page = turn;
  loadHelpers().then(
    (api) => {
      if (page === turn) use(api);
    },
    (error) => {
      if (page === turn) sayFailed(error);
    },
  );
}

export function initPage() {
  const started = performance.now();
  turn += 1;
  closePopover(false);
  if (document.querySelector(".rw-helper, .rw-dice")) scheduleBoot();
  if (needsHelpers()) {
    withHelpers((api) => api.initPage()); // its own roll log, jumps and shared roll, in order
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
  if (helpers) helpers.onHashChange(hash);
  else if (needsHelpers(hash)) withHelpers((api) => api.onHashChange(hash));
}

// initPage for this page and every page instant navigation brings.
export function startPages() {
  if (needsHelpers()) loadHelpers().catch(() => {}); // at once, before Material's page event
  window.addEventListener("hashchange", onHashChange);
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(initPage);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", initPage);
  } else {
    initPage();
  }
}
