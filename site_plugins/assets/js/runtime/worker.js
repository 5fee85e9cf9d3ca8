// Regelwerk engine worker: starts Python (Pyodide) with the rule engine, answers requests.
//
// One source for both doors:
// - online it runs as a module worker (new Worker(url, {type: "module"})) and imports
//   Pyodide's pyodide.mjs next to it; the files come from the site by fetch;
// - the offline export (file://) starts it from a Blob URL as a classic worker, with Pyodide's
//   own code put in front of it by the build (site_plugins/offline.py), which also defines
//   self.RegelwerkOfflineRuntime; its files arrive from the page by postMessage (base64 parts).
// The build bundles this module (with protocol.js) into one classic script without
// `import`/`export` and without import.meta: both doors must parse it.
//
// Boot: the memory snapshot first (engine-<key>.snap: Python with the engine already
// imported, ready in well under a second; shipped with the wasm's data segments XOR-ed out,
// put back here from the wasm, see snapshot-codec.js; online, once inflated and decoded, it
// is kept in OPFS for the next page load, see "the inflated snapshot, kept"); if it is
// missing or rejected, the plain
// boot (Pyodide + engine-<key>.zip, several seconds), announced by a "notice" message – never
// silently. A file Pyodide itself needs (wasm, stdlib) that cannot be loaded fails the boot at
// once, naming the file, instead of leaving Pyodide waiting.
//
// The messages: protocol.js ("part" and "boot" before "run").

import {
  MESSAGE,
  failedMessage,
  noticeMessage,
  readyMessage,
  resultMessage,
} from "./protocol.js";
import { xorWasmData } from "./snapshot-codec.js";
import { AssetError, OFFLINE, describe, isEssential } from "./worker-common.js";
import { InflateError } from "./worker-bytes.js";
import { receivePart } from "./worker-parts.js";
import {
  decideWasmCopy,
  requestWasmEarly,
  wasmBytes,
  watchWasmCompile,
} from "./worker-wasm.js";
import { ourFile, watchFetch } from "./worker-fetch.js";

const IMPORT_ENGINE = "import sys\nsys.path.insert(0, '/regelwerk')\nimport engine.api";

let runJson = null;
let booting = null;
// When each step of the boot was done, ms after "boot" arrived (the benchmarks print them):
// wasm (its bytes: offline inflated), snapshot (its bytes: kept, or downloaded, inflated and
// decoded), pyodide (Python ready: the wasm compiled, the snapshot restored).
let bootStarted = 0;
const steps = {};

function step(name) {
  if (!(name in steps)) steps[name] = Math.round(performance.now() - bootStarted);
}

// ------------------------------------------------------------------ the inflated snapshot, kept
// Online the snapshot arrives gzip-compressed (4.6 MB) and inflates to 31.5 MB: about 0.3 s
// of this worker's time on a PC (more on a phone) on every page load that boots. After a
// boot from a downloaded snapshot its inflated bytes are kept in the origin's private file
// system (OPFS), named like the snapshot – the name changes with the engine, Pyodide and the
// maker, so a stale copy is never used, and older copies are removed when a new one is kept.
// The next page load reads them back with a synchronous file handle (a few milliseconds;
// Cache Storage took as long as inflating). A copy is written under a temporary name and
// renamed when complete, so a half-written one is never read; one that the boot rejects is
// removed. Nothing here is essential: without OPFS (plain http, a full disk, another tab
// holding the file) the snapshot is downloaded and inflated as before.
const KEPT_FOLDER = "regelwerk-schnellstart";
const KEEP_AFTER_MS = 3000;

function snapshotName(config) {
  return OFFLINE ? "snapshot" : `engine-${config.key}.snap`;
}

async function keptFolder() {
  if (OFFLINE || !self.navigator || !navigator.storage || !navigator.storage.getDirectory) {
    return null;
  }
  const root = await navigator.storage.getDirectory();
  return root.getDirectoryHandle(KEPT_FOLDER, { create: true });
}

async function keptSnapshot(config) {
  let access = null;
  try {
    const folder = await keptFolder();
    if (!folder) return null;
    const file = await folder.getFileHandle(snapshotName(config));
    access = await file.createSyncAccessHandle();
    const bytes = new Uint8Array(access.getSize());
    return access.read(bytes, { at: 0 }) === bytes.length && bytes.length > 0 ? bytes : null;
  } catch (error) {
    return null; // none kept yet (NotFoundError), or not readable now: download it
  } finally {
    if (access) access.close();
  }
}

async function keepSnapshot(config, bytes) {
  let access = null;
  try {
    const folder = await keptFolder();
    if (!folder) return;
    const name = snapshotName(config);
    const partial = `${name}.teil`;
    const file = await folder.getFileHandle(partial, { create: true });
    access = await file.createSyncAccessHandle();
    access.truncate(0);
    if (access.write(bytes, { at: 0 }) !== bytes.length) throw new Error("unvollständig");
    access.flush();
    access.close();
    access = null;
    const others = [];
    for await (const entry of folder.keys()) if (entry !== partial) others.push(entry);
    for (const entry of others) await folder.removeEntry(entry);
    await file.move(name);
  } catch (error) {
    console.warn("[regelwerk]", `Schnellstart-Abbild nicht gespeichert (${describe(error)})`);
  } finally {
    if (access) access.close();
  }
}

async function forgetSnapshot(config) {
  try {
    const folder = await keptFolder();
    if (folder) await folder.removeEntry(snapshotName(config));
  } catch (error) {
    // nothing kept, nothing to forget
  }
}

// {bytes, kept}: the kept copy if there is one (kept decoded), else the download, inflated
// and with the wasm's data segments put back (snapshot-codec.js)
async function snapshotBytes(config) {
  try {
    const kept = await keptSnapshot(config);
    if (kept) return { bytes: kept, kept: true };
    const wasm = wasmBytes().then((bytes) => {
      step("wasm");
      return bytes;
    });
    wasm.catch(() => {}); // awaited below, unless the download failed first
    const shipped = await ourFile(config, snapshotName(config));
    return { bytes: xorWasmData(shipped, await wasm), kept: false };
  } finally {
    decideWasmCopy(false); // kept, or failed: Pyodide gets the response as it is
  }
}

// ------------------------------------------------------------------ boot

async function pyodideLoader(config) {
  if (typeof self.loadPyodide === "function") return self.loadPyodide;
  const module = await import(new URL("../pyodide/pyodide.mjs", config.base).href);
  return module.loadPyodide;
}

// snapshot: whether this boot restores the snapshot (it needs less of the standard library)
function options(config, snapshot) {
  const common = {
    stdout: () => {},
    stderr: (line) => console.warn("[regelwerk]", line),
  };
  if (OFFLINE) {
    return {
      ...common,
      indexURL: OFFLINE.virtualIndex,
      packageBaseUrl: OFFLINE.virtualIndex,
      lockFileContents: OFFLINE.lockFile,
      createPyodideModule: OFFLINE.createPyodideModule,
    };
  }
  const stdlib = `python_stdlib-${snapshot ? "" : "plain-"}${config.key}.zip`;
  return {
    ...common,
    indexURL: new URL("../pyodide/", config.base).href,
    stdLibURL: new URL(stdlib, config.base).href,
    createPyodideModule: config.createPyodideModule,
  };
}

// snapshot: the promise of its bytes, started before Pyodide's scripts load (they overlap)
async function fromSnapshot(load, config, snapshot) {
  const bytes = snapshot.then((found) => {
    step("snapshot");
    return found;
  });
  const pyodide = await load({ ...options(config, true), _loadSnapshot: bytes });
  step("pyodide");
  return pyodide.pyimport("engine.api").run_json;
}

async function plain(load, config) {
  const pyodide = await load(options(config, false));
  const archive = await ourFile(config, OFFLINE ? "engine" : `engine-${config.key}.zip`);
  pyodide.unpackArchive(archive, "zip", { extractDir: "/regelwerk" });
  pyodide.runPython(IMPORT_ENGINE);
  return pyodide.pyimport("engine.api").run_json;
}

async function boot(config) {
  let failed;
  const failure = new Promise((_, reject) => {
    failed = reject;
  });
  failure.catch(() => {}); // also rejected after a boot that already failed otherwise
  watchFetch(failed);
  watchWasmCompile(failed);
  requestWasmEarly(config, failed);
  if (!config.snapshot) decideWasmCopy(false);
  const guarded = (promise) => Promise.race([promise, failure]);
  // the snapshot is fetched and inflated while Pyodide's scripts load; a failure of either
  // surfaces where the snapshot is used
  const snapshot = config.snapshot ? snapshotBytes(config) : null;
  if (snapshot) snapshot.catch(() => {});
  // online, Pyodide's big module script (1.2 MB) is parsed meanwhile too (offline the page
  // has it already: OFFLINE.createPyodideModule)
  const runtime = OFFLINE
    ? null
    : import(new URL("../pyodide/pyodide.asm.mjs", config.base).href);
  if (runtime) runtime.catch(() => {});
  const load = await guarded(pyodideLoader(config));
  const createModule = runtime ? (await guarded(runtime)).default : undefined;
  const setup = { ...config, createPyodideModule: createModule };
  if (snapshot) {
    try {
      const bytes = snapshot.then((found) => found.bytes);
      const run = await guarded(fromSnapshot(load, setup, bytes));
      const found = await snapshot;
      const keep = found.kept ? null : () => keepSnapshot(config, found.bytes);
      return { run, mode: "snapshot", kept: found.kept, keep };
    } catch (error) {
      const found = await snapshot.catch(() => null);
      if (found && found.kept) await forgetSnapshot(config);
      // the plain boot is tried only where it can succeed: it needs the same essential files,
      // and offline it inflates its files just as the snapshot was (online it does not)
      if (error instanceof AssetError && isEssential(error.message.split(" ")[0])) {
        throw error;
      }
      if (error instanceof InflateError && OFFLINE) throw error;
      const text =
        `Schnellstart nicht möglich (${describe(error)}) – Python startet ohne ihn, ` +
        "das dauert einige Sekunden länger.";
      console.warn("[regelwerk]", text);
      self.postMessage(noticeMessage(text));
    }
  }
  return { run: await guarded(plain(load, setup)), mode: "plain" };
}

// ------------------------------------------------------------------ messages

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
    bootStarted = performance.now();
    booting = boot(message);
    try {
      const { run, mode, kept, keep } = await booting;
      runJson = run;
      self.postMessage(readyMessage(performance.now() - bootStarted, mode, kept, steps));
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
