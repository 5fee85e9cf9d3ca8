// Regelwerk under `mkdocs serve`: no offline cache while editing. A browser that once
// installed the built site's service worker on this address checks sw.js on its next visit,
// finds this one, and it removes itself: it deletes the site's caches, unregisters and reloads
// the open pages, which then come live from `mkdocs serve` again (site_plugins/webapp/pwa.py).
self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith("workbox-") || name.startsWith("regelwerk-")) await caches.delete(name);
      }
      await self.registration.unregister();
      for (const client of await self.clients.matchAll({ type: "window" })) {
        client.navigate(client.url);
      }
    })(),
  );
});
