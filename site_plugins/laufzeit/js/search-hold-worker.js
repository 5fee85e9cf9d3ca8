// Regelwerk – search-hold-worker.js: the search worker of every online page (a classic
// worker, bundled on its own and written next to Material's search worker, so that Material's
// relative "../lunr" still resolves). It keeps every message Material sends until the page
// releases it (search-hold.js: the reader is about to search), then loads Material's worker
// into this same worker (importScripts) and hands it the kept messages in order. If no page
// script answers its question within NO_ANSWER_MS, it releases itself: the search works
// without ours.
// The page's search_index.json holds only the index's config (site_plugins/laufzeit/plugin.py
// split_search_index: Material's page script fetches it on every page load); its documents
// (≈ 200 KB) are fetched here on release – only when a reader searches – and put into
// Material's setup message. Offline they come from the web app's store (its list of pages).
import { ASK, HOLD, NO_ANSWER_MS, RELEASE, SEARCH_CHANNEL } from "./search-hold.js";

// Material's search worker, in this folder: the build fills in its hashed name.
const MATERIAL_WORKER = "@regelwerk:material-search-worker";
// The index's documents, relative to this worker: the build fills in the path.
const DOCS = "@regelwerk:search-docs";
// Material's message that hands its worker the index (SearchMessageType.SETUP, 9.8.2)
const SETUP = 0;

const held = [];
let released = false;

// The documents, or none (a failed fetch: the search finds nothing rather than hang).
async function documents() {
  try {
    const response = await fetch(new URL(DOCS, self.location.href));
    if (response.ok) return await response.json();
    console.warn("[regelwerk] Suchindex nicht geladen:", response.status);
  } catch (error) {
    console.warn("[regelwerk] Suchindex nicht geladen:", error);
  }
  return [];
}

function withDocuments(data, docs) {
  if (!data || data.type !== SETUP || !data.data || !Array.isArray(data.data.docs)) return data;
  if (data.data.docs.length) return data; // a whole index (not split)
  return { ...data, data: { ...data.data, docs } };
}

function hold(event) {
  event.stopImmediatePropagation();
  held.push(event.data);
}

const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(SEARCH_CHANNEL) : null;

// Messages keep being held while the documents load; then Material's worker gets them all.
async function release() {
  if (released) return;
  released = true;
  if (channel) channel.close();
  const docs = await documents();
  self.removeEventListener("message", hold);
  importScripts(MATERIAL_WORKER);
  for (const data of held.splice(0)) {
    self.dispatchEvent(new MessageEvent("message", { data: withDocuments(data, docs) }));
  }
}

self.addEventListener("message", hold);
if (channel) {
  const unanswered = setTimeout(release, NO_ANSWER_MS);
  channel.onmessage = (event) => {
    if (event.data === RELEASE) release();
    else if (event.data === HOLD) clearTimeout(unanswered);
  };
  channel.postMessage(ASK);
} else {
  release();
}
