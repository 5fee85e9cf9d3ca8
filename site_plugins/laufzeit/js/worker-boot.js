// Regelwerk – worker-boot.js: the engine worker's boot – Python (Pyodide) with the engine.
//
// Boot: the memory snapshot first (engine-<key>.snap: Python with the engine already
// imported, ready in well under a second; shipped with the wasm's data segments XOR-ed out,
// put back from the wasm before Pyodide gets it, see snapshot-codec.js; online, once inflated
// and decoded, it is kept in OPFS for the next page load, see "the inflated snapshot, kept" in
// worker-snapshot.js); if it is missing or rejected, the plain boot (Pyodide +
// engine-<key>.zip, several seconds), announced by a "notice" message – never silently. A file
// Pyodide itself needs (wasm, stdlib) that cannot be loaded fails the boot at once, naming the
// file, instead of leaving Pyodide waiting.
//
// Owns: that order (boot), Pyodide's options for either door and the two boots
// (fromSnapshot, recording the steps "snapshot" and "pyodide" – worker-steps.js – and plain).
// The files they need: worker-fetch.js, worker-wasm.js, worker-snapshot.js.

import { AssetError, OFFLINE, describe, isEssential } from "./worker-common.js";
import { InflateError } from "./worker-bytes.js";
import { ourFile, watchFetch } from "./worker-fetch.js";
import { decideWasmCopy, requestWasmEarly, watchWasmCompile } from "./worker-wasm.js";
import { forgetSnapshot, keepSnapshot, snapshotBytes } from "./worker-snapshot.js";
import { step } from "./worker-steps.js";
import { noticeMessage } from "./protocol.js";

const IMPORT_ENGINE = "import sys\nsys.path.insert(0, '/regelwerk')\nimport engine.api";

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

// config: the "boot" message (protocol.js). {run, mode, kept, keep}: the engine's run_json,
// how it booted, whether the snapshot was the kept copy, and keep() to keep a downloaded one.
export async function boot(config) {
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
