// Regelwerk service worker (source). site_plugins/webapp/assets/build.mjs bundles it with Workbox from
// npm (rollup, no CDN, no importScripts) and writes the result to the site root as sw.js, so
// its scope is the whole site. Only the online build has it (see site_plugins/webapp/pwa.py).
//
// Three lists, all made at build time from the finished site (file, revision, SHA-256
// integrity, size):
// - CORE (self.__WB_MANIFEST, Workbox's precache): the shell, what a visit needs first – the
//   start page, 404, the player view, sitemap.xml (instant navigation), the search index's config,
//   Material's and our scripts and styles, the icons. Installed before this worker takes
//   over (Workbox precaching). Not the engine's runtime: a player who only ever opens the
//   player view on his phone never downloads Pyodide.
// - RUNTIME (__REGELWERK_RUNTIME__): what the helpers need – Pyodide's files, the cut
//   standard libraries, engine-<key>.zip/.snap (about 10 MB). Fetched in the background once
//   a page with helpers asks for it (it has just loaded the same files itself, so they come
//   back from the browser's HTTP cache as 304s), or when the reader stores everything
//   („Trotzdem offline speichern“), into the cache "regelwerk-laufzeit".
// - PAGES (__REGELWERK_PAGES__): every other page, and the search index's documents (a page
//   fetches them only when its reader searches). Fetched in the background once the page
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
//   {type: "status"} → port: status()
//   {type: "fill", pages, runtime} → stores the pages (pages !== false) and the runtime
//                                    (runtime: true); progress to every window
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
const RUNTIME = __REGELWERK_RUNTIME__;
const VERSION = __REGELWERK_VERSION__;
const PAGES_CACHE = "regelwerk-seiten";
const RUNTIME_CACHE = "regelwerk-laufzeit";
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

// ------------------------------------------------------------------ the pages and the runtime

function absolute(url) {
  return new URL(url, self.location.href).href;
}

// an entry's key in its cache: its URL with its revision (one version, never mixed)
function entryKey(entry) {
  const url = new URL(entry.url, self.location.href);
  url.searchParams.set(REVISION, entry.revision);
  return url.href;
}

const pageKeys = new Map(PAGES.map((entry) => [absolute(entry.url), entryKey(entry)]));
const runtimeKeys = new Map(RUNTIME.map((entry) => [absolute(entry.url), entryKey(entry)]));

// A page's address as the reader or instant navigation asks for it (…/ryssea/) → its file.
function pageFile(url) {
  const clean = new URL(url);
  clean.search = "";
  clean.hash = "";
  if (clean.pathname.endsWith("/")) clean.pathname += "index.html";
  return clean.href;
}

function plainFile(url) {
  const clean = new URL(url);
  clean.search = "";
  clean.hash = "";
  return clean.href;
}

// From the cache if stored, else from the network (a file not stored yet: online).
function storedOrFetched(cacheName, keys, fileOf) {
  registerRoute(
    ({ request, url }) =>
      request.method === "GET" && url.origin === self.location.origin && keys.has(fileOf(url.href)),
    async ({ request, url }) => {
      const cache = await caches.open(cacheName);
      const cached = await cache.match(keys.get(fileOf(url.href)));
      return cached || fetch(request);
    },
  );
}

storedOrFetched(PAGES_CACHE, pageKeys, pageFile);
storedOrFetched(RUNTIME_CACHE, runtimeKeys, plainFile);

// Store every entry of `entries` that is not stored yet in `cacheName` (a few at a time),
// reporting progress.
async function store(cacheName, entries) {
  const cache = await caches.open(cacheName);
  const have = new Set((await cache.keys()).map((request) => request.url));
  const todo = entries.filter((entry) => !have.has(entryKey(entry)));
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
      await cache.put(entryKey(entry), response);
      if (Date.now() - last > 250) {
        last = Date.now();
        broadcast();
      }
    }
  }
  await Promise.all(Array.from({ length: PARALLEL }, worker));
}

let filling = null;

// The pages and/or the runtime, one filling at a time (a request during one follows it).
function fill({ pages = true, runtime = false } = {}) {
  const previous = filling || Promise.resolve();
  const current = previous
    .catch(() => {})
    .then(async () => {
      if (runtime) await store(RUNTIME_CACHE, RUNTIME);
      if (pages) await store(PAGES_CACHE, PAGES);
    })
    .finally(() => {
      if (filling === current) filling = null;
    });
  filling = current;
  return current;
}

async function stored(cacheName) {
  return (await (await caches.open(cacheName)).keys()).length > 0;
}

// Whether the reader had the runtime of an earlier version: in the runtime cache, or in
// Workbox's precache (where deployments before the runtime list kept it).
async function hadRuntime() {
  if (await stored(RUNTIME_CACHE)) return true;
  const precache = await caches.open(cacheNames.precache);
  return (await precache.keys()).some((request) => /\/assets\/pyodide\//.test(request.url));
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
  const runtime = await cachedBytes(RUNTIME_CACHE, RUNTIME, entryKey);
  const pages = await cachedBytes(PAGES_CACHE, PAGES, entryKey);
  const done = (list) => list.cached === list.files;
  return {
    version: VERSION,
    filling: Boolean(filling),
    core,
    runtime,
    pages,
    // the text, the search and the player view offline (the helpers need the runtime too)
    texts: done(core) && done(pages),
    complete: done(core) && done(pages) && done(runtime),
  };
}

async function broadcast(extra = {}) {
  const message = { type: "regelwerk-offline", status: { ...(await status()), ...extra } };
  for (const client of await self.clients.matchAll({ type: "window" })) {
    client.postMessage(message);
  }
}

// ------------------------------------------------------------------ lifecycle

// An update: if the reader kept the pages or the runtime of the old version, the new
// version brings its own before it is offered, so that „neu laden“ never lands on a
// half-stored site.
self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const pages = await stored(PAGES_CACHE);
      const runtime = await hadRuntime();
      if (pages || runtime) await fill({ pages, runtime });
    })(),
  );
});

// Only what this version's lists name stays (Workbox does the same for the core).
self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const [name, keys] of [
        [PAGES_CACHE, pageKeys],
        [RUNTIME_CACHE, runtimeKeys],
      ]) {
        const keep = new Set(keys.values());
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
          if (!keep.has(request.url)) await cache.delete(request);
        }
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
    const what = { pages: message.pages !== false, runtime: message.runtime === true };
    event.waitUntil(
      fill(what).then(
        () => broadcast(),
        (error) => broadcast({ error: String(error && error.message ? error.message : error) }),
      ),
    );
  }
});
