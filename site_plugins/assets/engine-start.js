// Regelwerk engine start – engine-start.js: starts the engine worker from <head>.
//
// The build inlines this script into the <head> of every online page with a roll helper or a
// dice button (site_plugins/plugin.py, after the runtime key's <meta>, whose data-assets
// names the folder of worker.js; its CSP hash is added to the policy). It only creates the
// worker and sends "boot": the worker then fetches and starts Python while the browser is
// still parsing the page, styling it and running Material's script – the helper scripts at
// the end of <body> would start it only after all of that (measured on a warm reload:
// ≈ 0.2 s later on a PC), and as a file of its own it ran ≈ 80 ms after the page arrived.
// Everything else stays with engine-client.js, which adopts this worker
// (window.__regelwerkEarlyWorker, taken once by takeEarlyWorker) and replays the messages
// that arrived before it ran.
// If anything here fails, engine-client.js starts the worker as before and reports errors.
// The build leaves it out of the offline export: there the worker comes from
// RegelwerkTransport.
//
// The search waits for the boot. Material's page script starts its search worker on every
// page and sends it the whole index at once; the worker then builds its lunr index with the
// German stemmer: ≈ 0.5 s of CPU, exactly while Python boots – on a 2-core machine the main
// thread, Python and the search then share two cores. So on a page that boots the engine,
// that setup message (recognised by its shape: type 0 with config and docs, Material's
// SearchMessageType.SETUP) and whatever follows it to the same worker are held here and sent
// in order as soon as the engine answers "ready" or "failed" (or the worker fails), the reader
// puts the cursor into the search box (the search then answers a moment later), or after
// SEARCH_HOLD_MS at the latest. Messages to other workers pass. Measured on this project's
// 2-core machine (scripts/benchmark.py --runs 5, medians): helper ready warm 1.16 → 0.88 s,
// cold 1.25 → 1.05 s; in interleaved runs of both builds the warm reload gained 0.06–0.25 s.
(function () {
  "use strict";
  const meta = document.querySelector('meta[name="regelwerk-engine"][data-assets]');
  if (!meta || window.__regelwerkEarlyWorker) return;
  const base = new URL(meta.dataset.assets, document.baseURI);
  const early = { worker: null, events: [], bootStart: performance.now() };
  try {
    early.worker = new Worker(new URL("worker.js", base), { type: "module" });
  } catch (error) {
    return;
  }
  early.worker.onmessage = (event) => early.events.push(event);
  early.worker.onerror = (event) => {
    event.preventDefault();
    early.events.push(event);
  };
  early.worker.postMessage({ type: "boot", base: base.href, key: meta.content, snapshot: true });
  window.__regelwerkEarlyWorker = early;
  holdSearchDuringBoot(early.worker);

  function holdSearchDuringBoot(ours) {
    const SEARCH_HOLD_MS = 8000;
    const shared = Object.getPrototypeOf(ours); // Worker.prototype, also if a page replaced Worker
    const post = shared.postMessage;
    const held = [];
    const heldFor = new Set();
    let holding = true;
    const isSearchSetup = (message) =>
      !!message && message.type === 0 && !!message.data &&
      !!message.data.config && Array.isArray(message.data.docs);
    const release = () => {
      if (!holding) return;
      holding = false;
      for (const [target, args] of held.splice(0)) post.apply(target, args);
    };
    shared.postMessage = function (...args) {
      if (holding && this !== ours && (heldFor.has(this) || isSearchSetup(args[0]))) {
        heldFor.add(this);
        held.push([this, args]);
        return undefined;
      }
      return post.apply(this, args);
    };
    ours.addEventListener("message", (event) => {
      const type = event.data && event.data.type;
      if (type === "ready" || type === "failed") release();
    });
    ours.addEventListener("error", release);
    document.addEventListener("focusin", (event) => {
      const target = event.target;
      if (target.matches && target.matches("[data-md-component='search-query']")) release();
    });
    setTimeout(release, SEARCH_HOLD_MS);
  }
})();
