// Regelwerk – engine-start.js: starts the engine worker from <head> (a bundle of its own).
//
// The build inlines this bundle into the <head> of every online page with a roll helper or a
// dice button (site_plugins/regelwerk/plugin.py, right after the policy and the runtime key's <meta>,
// whose data-assets names the folder of worker.js; its CSP hash is added to the policy). It
// only creates the worker and sends the boot message (protocol.js): the worker then fetches
// and starts Python while the browser is still parsing the page, styling it and running
// Material's script – the page bundle at the end of <body> would start it only after all of
// that (measured on a warm reload: ≈ 0.2 s later on a PC), and as a file of its own it ran
// ≈ 80 ms after the page arrived.
// Everything else stays with engine-client.js, which adopts this worker
// (window.__regelwerkEarlyWorker, taken once) and replays the messages that arrived before it
// ran. If anything here fails, engine-client.js starts the worker itself and reports errors.
// In the offline export the build puts it right after transport.js (a classic script in
// <head>), and the worker comes from RegelwerkTransport: the runtime scripts then load while
// the page is parsed, not after Material's script (measured: the boot began 0.6–1.5 s after
// navigation there). Online Material's search waits for this boot: see search-hold.js.
import { bootMessage } from "./protocol.js";

const meta = document.querySelector('meta[name="regelwerk-engine"][data-assets]');
if (meta && !window.__regelwerkEarlyWorker) {
  const base = new URL(meta.dataset.assets, document.baseURI);
  const early = { worker: null, events: [], bootStart: performance.now() };
  try {
    early.worker = window.RegelwerkTransport
      ? window.RegelwerkTransport.createWorker(base)
      : new Worker(new URL("worker.js", base), { type: "module" });
    early.worker.onmessage = (event) => early.events.push(event);
    early.worker.onerror = (event) => {
      event.preventDefault();
      early.events.push(event);
    };
    early.worker.postMessage(bootMessage(base.href, meta.content));
    window.__regelwerkEarlyWorker = early;
  } catch (error) {
    // engine-client.js starts the worker as usual and reports what fails
  }
}
