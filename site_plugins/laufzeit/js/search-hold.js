// Regelwerk – search-hold.js: Material's search builds its index when the reader wants it.
//
// Material's page script starts its search worker on every full page load and sends it the
// whole index; the worker then builds its lunr index with the German stemmer: ≈ 0.3 s of CPU
// on a PC (measured: 0.49 → 0.21 CPU-s per full load of a rule page), more on a phone, on
// every page – and on a Kampfhelfer page exactly while Python boots. Most page loads never
// search. So the build points Material's search, on every page, at a worker of ours
// (search-hold-worker.js, written beside Material's, whose address it takes in the page's
// __config) that keeps Material's messages and starts Material's worker only when this page
// says so over a BroadcastChannel: the reader moves towards the search (the pointer over the
// search field or its button, a touch on it) or puts the cursor into it (a click, Tab, or
// Material's keys „/“, „s“, „f“). The index is then built while the reader types – Material
// shows „Suche wird initialisiert“ until it is. Nothing of the browser's is patched.
//
// A held worker asks whether a page of ours is there; this page answers „halten“ (or, once
// released, „freigeben“). A worker that hears no answer – our page script did not run – starts
// Material's search after NO_ANSWER_MS, so the search never depends on this script.
// Checked against mkdocs-material 9.8.2 (its worker registers addEventListener("message") and
// loads lunr's languages from "../lunr", relative to its own folder); site_plugins/regelwerk/plugin.py
// fails the build when Material's search worker or its __config entry is not found, and
// tests/browser/test_search.py checks that nothing is built before the reader's intent and
// that the search then answers.
export const SEARCH_CHANNEL = "regelwerk-suche";
export const RELEASE = "freigeben";
export const HOLD = "halten";
export const ASK = "frage";
export const NO_ANSWER_MS = 3000;

// The search field, its label (the magnifier that opens it on a phone) and the search box.
const INTENT_TARGETS = "[data-md-component='search-query'], label[for='__search'], .md-search";

let channel = null;
let released = false;

// The reader is about to search: Material's worker may start (once).
export function releaseSearch() {
  if (released) return;
  released = true;
  if (channel) channel.postMessage(RELEASE);
}

function intent(event) {
  const target = event.target;
  if (target && target.closest && target.closest(INTENT_TARGETS)) releaseSearch();
}

export function startSearchHold() {
  if (typeof BroadcastChannel !== "function") return;
  channel = new BroadcastChannel(SEARCH_CHANNEL);
  channel.onmessage = (event) => {
    if (event.data === ASK) channel.postMessage(released ? RELEASE : HOLD);
  };
  // the worker may have asked before this script ran: say it now
  channel.postMessage(HOLD);
  document.addEventListener("focusin", intent);
  document.addEventListener("pointerover", intent, { passive: true });
  document.addEventListener("pointerdown", intent, { passive: true });
}
