// Regelwerk – search-hold-worker.js: the search worker of every online page (a classic
// worker, bundled on its own and written next to Material's search worker, so that Material's
// relative "../lunr" still resolves). It keeps every message Material sends until the page
// releases it (search-hold.js: the reader is about to search), then loads Material's worker
// into this same worker (importScripts) and hands it the kept messages in order. If no page
// script answers its question within NO_ANSWER_MS, it releases itself: the search works
// without ours.
import { ASK, HOLD, NO_ANSWER_MS, RELEASE, SEARCH_CHANNEL } from "./search-hold.js";

// Material's search worker, in this folder: the build fills in its hashed name.
const MATERIAL_WORKER = "@regelwerk:material-search-worker";

const held = [];
let released = false;

function hold(event) {
  event.stopImmediatePropagation();
  held.push(event.data);
}

const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(SEARCH_CHANNEL) : null;

function release() {
  if (released) return;
  released = true;
  if (channel) channel.close();
  self.removeEventListener("message", hold);
  importScripts(MATERIAL_WORKER);
  for (const data of held.splice(0)) self.dispatchEvent(new MessageEvent("message", { data }));
}

if (channel) {
  self.addEventListener("message", hold);
  const unanswered = setTimeout(release, NO_ANSWER_MS);
  channel.onmessage = (event) => {
    if (event.data === RELEASE) release();
    else if (event.data === HOLD) clearTimeout(unanswered);
  };
  channel.postMessage(ASK);
} else {
  release();
}
