// Regelwerk service worker (source). site_plugins/pwa/build.mjs bundles it with Workbox from
// npm (rollup, no CDN, no importScripts) and writes the result to the site root as sw.js, so
// its scope is the whole site. Only the online build has it (see site_plugins/pwa.py).
//
// Two lists, both made at build time from the finished site (file, revision, SHA-256
// integrity, size):
// - CORE (self.__WB_MANIFEST, Workbox's precache): what a visit needs first – the start page,
//   404, sitemap.xml (instant navigation), the search index, Material's and our scripts and
//   styles, the icons and the runtime: Pyodide's files and engine-<key>.zip/.snap. Installed
//   before this worker takes over (Workbox precaching).
// - PAGES (__REGELWERK_PAGES__): every other page. Fetched in the background once the page
//   asks for it ("fill"; the page does not ask while the reader's browser saves data, unless
//   the reader says so), into the cache "regelwerk-seiten".
//
// One version, never mixed: every entry is stored under its URL plus its revision and fetched
// with its integrity (the browser refuses other bytes, e.g. of a newer deployment), and this
// worker only ever answers from its own lists. A new deployment's worker installs next to
// the old one (same caches, other revisions) – including the pages, if the reader kept them
// – and waits: no skipWaiting until the page says the reader agreed („Neue Version – neu
// laden“: workbox-window's messageSkipWaiting() in pwa.js). Then it activates, deletes what
// only the old lists named, and the pages reload.
//
// Messages (from the page, with a MessagePort for the answer where noted):
//   {type: "status"} → port: status()        {type: "fill"} → progress to every window
//   {type: "SKIP_WAITING"}                   (workbox-window's convention; only a waiting
//                                            worker acts on it)
// Broadcast to every window: {type: "regelwerk-offline", status} while filling and after.
import { cacheNames, clientsClaim } from "workbox-core";
import {
  addPlugins,
  cleanupOutdatedCaches,
  getCacheKeyForURL,
  precacheAndRoute,
} from "workbox-precaching";
import { registerRoute } from "workbox-routing";

const CORE = self.__WB_MANIFEST;
const PAGES = __REGELWERK_PAGES__;
const VERSION = __REGELWERK_VERSION__;
const PAGES_CACHE = "regelwerk-seiten";
const PARALLEL = 3;
const REVISION = "__WB_REVISION__";

// ------------------------------------------------------------------ the core (Workbox)

// Workbox fetches revisioned entries with cache: "reload"; "no-cache" is as safe (the server
// confirms the bytes; the integrity checks them) but lets an unchanged file, e.g. the runtime
// the page has just downloaded itself, come back as a 304 instead of a second download.
addPlugins([
  {
    requestWillFetch: async ({ request }) =>
      request.cache === "reload" && request.mode !== "navigate"
        ? new Request(request, { cache: "no-cache" })
        : request,
  },
]);
// Query parameters never select another file here (search.highlight adds ?h=…).
precacheAndRoute(CORE, {
  directoryIndex: "index.html",
  cleanURLs: false,
  ignoreURLParametersMatching: [/.*/],
});
cleanupOutdatedCaches();
clientsClaim();

// ------------------------------------------------------------------ the pages

function absolute(url) {
  return new URL(url, self.location.href).href;
}

function pageKey(entry) {
  const url = new URL(entry.url, self.location.href);
  url.searchParams.set(REVISION, entry.revision);
  return url.href;
}

const pageKeys = new Map(PAGES.map((entry) => [absolute(entry.url), pageKey(entry)]));

// A page's address as the reader or instant navigation asks for it (…/ryssea/) → its file.
function pageFile(url) {
  const clean = new URL(url);
  clean.search = "";
  clean.hash = "";
  if (clean.pathname.endsWith("/")) clean.pathname += "index.html";
  return clean.href;
}

registerRoute(
  ({ request, url }) =>
    request.method === "GET" &&
    url.origin === self.location.origin &&
    pageKeys.has(pageFile(url.href)),
  async ({ request, url }) => {
    const cache = await caches.open(PAGES_CACHE);
    const cached = await cache.match(pageKeys.get(pageFile(url.href)));
    return cached || fetch(request);
  },
);

let filling = null;

// Store every page of PAGES that is not stored yet (a few at a time); report progress.
function fillPages() {
  if (!filling) {
    filling = (async () => {
      const cache = await caches.open(PAGES_CACHE);
      const have = new Set((await cache.keys()).map((request) => request.url));
      const todo = PAGES.filter((entry) => !have.has(pageKey(entry)));
      let next = 0;
      let last = 0;
      async function worker() {
        while (next < todo.length) {
          const entry = todo[next++];
          const response = await fetch(absolute(entry.url), {
            cache: "no-cache",
            credentials: "same-origin",
            integrity: entry.integrity,
          });
          if (!response.ok) throw new Error(`${entry.url}: HTTP ${response.status}`);
          await cache.put(pageKey(entry), response);
          if (Date.now() - last > 250) {
            last = Date.now();
            broadcast();
          }
        }
      }
      await Promise.all(Array.from({ length: PARALLEL }, worker));
    })().finally(() => {
      filling = null;
    });
  }
  return filling;
}

// ------------------------------------------------------------------ status

async function cachedBytes(cacheName, entries, keyOf) {
  const cache = await caches.open(cacheName);
  const have = new Set((await cache.keys()).map((request) => request.url));
  let bytes = 0;
  let count = 0;
  for (const entry of entries) {
    if (have.has(keyOf(entry))) {
      bytes += entry.bytes;
      count += 1;
    }
  }
  const total = entries.reduce((sum, entry) => sum + entry.bytes, 0);
  return { files: entries.length, cached: count, bytes: total, cachedBytes: bytes };
}

async function status() {
  const core = await cachedBytes(cacheNames.precache, CORE, (entry) =>
    getCacheKeyForURL(absolute(entry.url)),
  );
  const pages = await cachedBytes(PAGES_CACHE, PAGES, pageKey);
  return {
    version: VERSION,
    filling: Boolean(filling),
    core,
    pages,
    complete: core.cached === core.files && pages.cached === pages.files,
  };
}

async function broadcast(extra = {}) {
  const message = { type: "regelwerk-offline", status: { ...(await status()), ...extra } };
  for (const client of await self.clients.matchAll({ type: "window" })) {
    client.postMessage(message);
  }
}

// ------------------------------------------------------------------ lifecycle

// An update: if the reader kept the pages of the old version, the new version brings its
// pages before it is offered, so that „neu laden“ never lands on a half-stored site.
self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(PAGES_CACHE);
      if ((await cache.keys()).length > 0) await fillPages();
    })(),
  );
});

// Only what this version's lists name stays (Workbox does the same for the core).
self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const keep = new Set(pageKeys.values());
      const cache = await caches.open(PAGES_CACHE);
      for (const request of await cache.keys()) {
        if (!keep.has(request.url)) await cache.delete(request);
      }
    })(),
  );
});

self.addEventListener("message", (event) => {
  const message = event.data || {};
  // pwa.js sends it to the waiting worker only. "skip-waiting" is what the pages of earlier
  // deployments send (their pwa.js had its own handshake): a page still open from before
  // this one must still be able to take it.
  if (message.type === "SKIP_WAITING" || message.type === "skip-waiting") {
    self.skipWaiting();
  } else if (message.type === "status" && event.ports[0]) {
    event.waitUntil(status().then((answer) => event.ports[0].postMessage(answer)));
  } else if (message.type === "fill") {
    event.waitUntil(
      fillPages().then(
        () => broadcast(),
        (error) => broadcast({ error: String(error && error.message ? error.message : error) }),
      ),
    );
  }
});
