// Regelwerk engine worker: starts Python (Pyodide) with the rule engine, answers requests.
//
// One source for both doors:
// - online it runs as a module worker (new Worker(url, {type: "module"})) and imports
//   Pyodide's pyodide.mjs next to it; the files come from the site by fetch;
// - the offline export (file://) starts it from a Blob URL as a classic worker, with Pyodide's
//   own code put in front of it by the build (site_plugins/offline/plugin.py), which also defines
//   self.RegelwerkOfflineRuntime; its files arrive from the page by postMessage (base64 parts).
// The build bundles this module (with protocol.js and the worker-*.js modules) into one
// classic script without `import`/`export` and without import.meta: both doors must parse it.
//
// This module owns the message loop: the parts, "boot" once, "ready" or "failed" with the
// timings, each "run" answered. The modules behind it, each owning one thing:
//   worker-boot.js      the boot: the snapshot first, else the plain boot with a "notice"
//   worker-snapshot.js  the snapshot's bytes, and the inflated copy kept in OPFS
//   worker-fetch.js     the boot's files: ours (ourFile) and Pyodide's fetch, guarded
//   worker-wasm.js      Pyodide's wasm: online the .gz inflated while it downloads, early
//   worker-parts.js     offline: the parts from the page, decoded early, served to Pyodide
//   worker-bytes.js     base64 and gzip
//   worker-steps.js     the boot's clock: when each step was done
//   worker-common.js    the door (OFFLINE), the essential files, AssetError, describe
//
// The messages: protocol.js ("part" and "boot" before "run").

import { MESSAGE, failedMessage, readyMessage, resultMessage } from "./protocol.js";
import { describe } from "./worker-common.js";
import { receivePart } from "./worker-parts.js";
import { boot } from "./worker-boot.js";
import { KEEP_AFTER_MS } from "./worker-snapshot.js";
import { sinceBoot, startClock, steps } from "./worker-steps.js";

let runJson = null;
let booting = null;

function internalError(error) {
  const message = `Interner Fehler der Regel-Engine: ${describe(error).slice(0, 200)}`;
  return JSON.stringify({ ok: false, error: { field: "", message } });
}

self.onmessage = async (event) => {
  const message = event.data;
  if (message.type === MESSAGE.PART) {
    receivePart(message);
  } else if (message.type === MESSAGE.BOOT) {
    if (booting) return;
    startClock();
    booting = boot(message);
    try {
      const { run, mode, kept, keep } = await booting;
      runJson = run;
      self.postMessage(readyMessage(sinceBoot(), mode, kept, steps));
      // a few seconds after "ready": writing 31.5 MB never competes with the boot or the
      // first rolls (and a page closed at once leaves nothing half-done)
      if (keep) setTimeout(keep, KEEP_AFTER_MS);
    } catch (error) {
      self.postMessage(failedMessage(describe(error)));
    }
  } else if (message.type === MESSAGE.RUN) {
    let body;
    try {
      body = runJson(JSON.stringify(message.request));
    } catch (error) {
      body = internalError(error);
    }
    self.postMessage(resultMessage(message.id, body));
  }
};
