// Regelwerk – search-hold.js: Material's search builds its index after the engine's boot.
//
// Material's page script starts its search worker on every full page load and sends it the
// whole index at once; the worker then builds its lunr index with the German stemmer: ≈ 0.5 s
// of CPU, exactly while Python boots – on a 2-core machine the main thread, Python and the
// search then share two cores. So on a page that boots the engine the build points Material's
// search at a worker of ours (search-hold-worker.js, written beside Material's, whose address
// it takes in the page's __config) that keeps the messages and starts Material's worker only
// when this page says so over a BroadcastChannel: the engine answered "ready" or "failed" (or
// its worker failed), or the reader put the cursor into the search box (the search answers a
// moment later) – or after HOLD_MS at the latest. Nothing of the browser's is patched.
// Checked against mkdocs-material 9.8.2 (its worker registers addEventListener("message") and
// loads lunr's languages from "../lunr", relative to its own folder); site_plugins/plugin.py
// fails the build when Material's search worker or its __config entry is not found, and
// tests/browser/test_engine_client.py checks the order (index after ready) and the search.
export const SEARCH_CHANNEL = "regelwerk-suche";
export const RELEASE = "freigeben";
export const ASK = "frage";
export const HOLD_MS = 8000;

let channel = null;
let released = false;

// The boot is over (either way) or the reader searches: Material's worker may start.
export function releaseSearch() {
  released = true;
  if (channel) channel.postMessage(RELEASE);
}

export function startSearchHold(bootIsOver) {
  if (typeof BroadcastChannel !== "function") return;
  channel = new BroadcastChannel(SEARCH_CHANNEL);
  // a held worker that started after the boot was over asks once
  channel.onmessage = (event) => {
    if (event.data === ASK && (released || bootIsOver())) releaseSearch();
  };
  document.addEventListener("focusin", (event) => {
    const target = event.target;
    if (target.matches && target.matches("[data-md-component='search-query']")) releaseSearch();
  });
}
