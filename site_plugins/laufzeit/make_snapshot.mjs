// Build step (called by site_plugins/laufzeit/snapshot.py): a Pyodide memory snapshot with the engine
// already imported, so a helper in the browser is ready in well under a second, and the proof
// that the cut standard library is all the engine needs.
//
//   node site_plugins/laufzeit/make_snapshot.mjs make PYODIDE_DIR ENGINE_ZIP PROBE_JSON OUT_FILE
//   node site_plugins/laufzeit/make_snapshot.mjs verify PYODIDE_DIR ENGINE_ZIP PROBE_JSON SNAPSHOT \
//        RESTORE_STDLIB PLAIN_STDLIB LOCK_FILE
//
// make: boots Pyodide from the npm package in PYODIDE_DIR (nothing is downloaded, its whole
//   python_stdlib.zip), unpacks ENGINE_ZIP, imports every engine module, empties what only
//   the build filled (import caches, garbage, free memory: zeros compress to nothing) and
//   writes pyodide.makeMemorySnapshot() to OUT_FILE as the site ships it: with the wasm's
//   data segments XOR-ed out (laufzeit/js/snapshot-codec.js; raw bytes, the caller compresses
//   them). Every check below loads the snapshot back from those bytes, as the worker does.
//   Then it records what the standard library must hold:
//   - "plain": every module of python_stdlib.zip the plain boot uses (Pyodide's own start,
//     the engine's import, every request in PROBE_JSON answered on that same Python);
//   - "restore": what a second Pyodide, started from the snapshot alone (its file system has
//     no engine files), imports from python_stdlib.zip while it starts and answers every
//     request (what the snapshot holds already loaded needs no file). Both answer byte for byte as CPython did (PROBE_JSON: {requests, answers}).
// verify: the proof, with the archives snapshot.py cut from those lists and the lock file the
//   site ships (LOCK_FILE: no packages, the engine needs none): a Pyodide started from
//   SNAPSHOT with only RESTORE_STDLIB, and a plain boot with only PLAIN_STDLIB that imports
//   the engine, answer every request of PROBE_JSON exactly like CPython.
// Prints one JSON line of figures on stdout. Any failure exits 1 with a German message.
//
// _makeSnapshot, makeMemorySnapshot, _loadSnapshot and the dlmalloc exports used to clear
// free memory are private to Pyodide, bound to the exact version pinned in package.json:
// this script is part of the snapshot's hash, and the build fails here (not in a reader's
// browser) if an upgrade changes them.
import { readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";

import { xorWasmData } from "./js/snapshot-codec.js";

const [mode, pyodideDir, enginePath, probePath, ...rest] = process.argv.slice(2);
const USAGE =
  "Aufruf: node make_snapshot.mjs make PYODIDE_DIR ENGINE_ZIP PROBE_JSON OUT_FILE\n" +
  "        node make_snapshot.mjs verify PYODIDE_DIR ENGINE_ZIP PROBE_JSON SNAPSHOT " +
  "RESTORE_STDLIB PLAIN_STDLIB LOCK_FILE";
if (!(mode === "make" && rest.length === 1) && !(mode === "verify" && rest.length === 4)) {
  console.error(USAGE);
  process.exit(2);
}

// Every engine module and every module of the site's Python systems (regeln/), found by
// walking the unpacked folder (pkgutil would be one more
// module in the snapshot that the engine never uses).
const IMPORT_ENGINE = `
import importlib, os, sys
sys.path.insert(0, "/regelwerk")
import engine.api
for top in ("engine", "regeln"):  # the engine, and the site's systems written in Python
    for folder, _, names in sorted(os.walk(f"/regelwerk/{top}")):
        package = os.path.relpath(folder, "/regelwerk").replace(os.sep, ".")
        for name in sorted(names):
            module = package if name == "__init__.py" else f"{package}.{name[:-3]}"
            if name.endswith(".py") and module not in ("engine.__main__", "engine.cli"):
                importlib.import_module(module)  # the CLI is not used in the browser
sys.path.remove("/regelwerk")
`;
// Filled by the build only: the import system's caches (they name the build's paths and the
// whole stdlib archive's directory, which the shipped cut archive does not have) and garbage.
const EMPTY_CACHES = `
import gc, importlib, linecache, sys, zipimport
sys.path_importer_cache.clear()
zipimport._zip_directory_cache.clear()
importlib.invalidate_caches()
linecache.clearcache()
gc.collect()
`;
// The members of python_stdlib.zip (mounted as /lib/python314.zip) that are loaded now.
const STDLIB_MEMBERS = `
import sys
def _regelwerk_stdlib_members():
    archive = next(p for p in sys.path if p.endswith(".zip")) + "/"
    found = set()
    for module in list(sys.modules.values()):
        spec = getattr(module, "__spec__", None)
        origin = getattr(spec, "origin", None) or ""
        if origin.startswith(archive):
            found.add(origin[len(archive):])
    return sorted(found)
`;

function fail(message) {
  console.error(`Schnellstart-Abbild: ${message}`);
  process.exit(1);
}

function reason(error) {
  return error && error.message ? error.message : String(error);
}

const require = createRequire(path.join(path.resolve(pyodideDir), "package.json"));
const { loadPyodide } = require("./pyodide.js");
const quiet = { stdout: () => {}, stderr: (line) => process.stderr.write(`${line}\n`) };
const indexURL = path.resolve(pyodideDir) + path.sep;
const probe = JSON.parse(await readFile(probePath, "utf8"));
const wasm = new Uint8Array(await readFile(path.join(pyodideDir, "pyodide.asm.wasm")));

// the snapshot as Pyodide wants it, from the shipped bytes (a copy: XOR works in place)
function decoded(shipped) {
  return xorWasmData(new Uint8Array(shipped), wasm);
}

async function start(what, options) {
  try {
    return await loadPyodide({ ...quiet, indexURL, ...options });
  } catch (error) {
    return fail(`${what}: Pyodide startet nicht (${reason(error)})`);
  }
}

async function importEngine(pyodide) {
  const archive = new Uint8Array(await readFile(enginePath));
  pyodide.unpackArchive(archive, "zip", { extractDir: "/regelwerk" });
  pyodide.runPython(IMPORT_ENGINE);
}

// Answers every probe request exactly as CPython did, or fails naming the first difference.
function answerAll(pyodide, what) {
  const runJson = pyodide.pyimport("engine.api").run_json;
  probe.requests.forEach((request, index) => {
    let answer;
    try {
      answer = runJson(JSON.stringify(request));
    } catch (error) {
      answer = `Fehler: ${reason(error)}`;
    }
    if (answer !== probe.answers[index]) {
      fail(
        `${what} antwortet anders als CPython auf ${JSON.stringify(request).slice(0, 120)}:\n` +
          `  CPython: ${probe.answers[index].slice(0, 200)}\n  Abbild:  ${answer.slice(0, 200)}`,
      );
    }
  });
}

function stdlibMembers(pyodide) {
  pyodide.runPython(STDLIB_MEMBERS);
  return pyodide.runPython("_regelwerk_stdlib_members()").toJs();
}

// Free memory keeps whatever the build wrote there (the engine's sources, their compiled
// trees, the unpacked archive): bytes the engine never reads again, but the compressed
// snapshot would carry them. dlmalloc's footprint limit keeps it from growing the heap while
// every free chunk is taken, zeroed and given back; beyond the heap's break nothing is used.
function zeroFreeMemory(module) {
  const limit = module._malloc_footprint_limit();
  module._malloc_set_footprint_limit(module._malloc_footprint());
  const taken = [];
  try {
    for (let size = 1 << 24; size >= 16; size >>= 1) {
      for (;;) {
        const pointer = module._malloc(size);
        if (!pointer) break;
        module.HEAPU8.fill(0, pointer, pointer + size);
        taken.push(pointer);
      }
    }
  } finally {
    for (const pointer of taken) module._free(pointer);
    module._malloc_set_footprint_limit(limit);
  }
  module.HEAPU8.fill(0, module._sbrk(0));
}

function isFresh(pyodide, what) {
  if (pyodide.FS.analyzePath("/regelwerk").exists) {
    fail(`${what}: die Engine-Dateien stecken noch im Dateisystem; die Prüfung wäre wertlos`);
  }
}

async function make(outPath) {
  let started = performance.now();
  const first = await start("Erstellen", { _makeSnapshot: true });
  const bootModules = first.runPython("import sys; len(sys.modules)");
  let snapshot;
  try {
    await importEngine(first);
    first.runPython(EMPTY_CACHES);
    zeroFreeMemory(first._module);
    snapshot = first.makeMemorySnapshot();
  } catch (error) {
    fail(`konnte nicht erstellt werden: ${reason(error)}`);
  }
  const makeMs = performance.now() - started;
  const modules = first.runPython("import sys; len(sys.modules)");
  const inSnapshot = new Set(stdlibMembers(first));
  const shipped = xorWasmData(new Uint8Array(snapshot), wasm);
  await writeFile(outPath, shipped);
  answerAll(first, "Python ohne Abbild");
  const plain = stdlibMembers(first);

  started = performance.now();
  const second = await start("Laden", { _loadSnapshot: decoded(shipped) });
  const loadMs = performance.now() - started;
  isFresh(second, "Laden");
  const loadedSince = () => stdlibMembers(second).filter((name) => !inSnapshot.has(name));
  const atStart = loadedSince();
  answerAll(second, "Das Abbild");
  const restore = loadedSince();
  const python = second.runPython("import sys; sys.version.split()[0]");
  return {
    bytes: snapshot.length,
    make_ms: Math.round(makeMs),
    load_ms: Math.round(loadMs),
    probes: probe.requests.length,
    modules_pyodide: bootModules,
    modules: modules,
    pyodide: second.version,
    python,
    stdlib_plain: plain,
    stdlib_restore: restore,
    stdlib_restore_at_start: atStart,
  };
}

async function verify(snapshotPath, restoreStdlib, plainStdlib, lockPath) {
  const snapshot = decoded(await readFile(snapshotPath));
  const lockFileContents = await readFile(lockPath, "utf8");
  let started = performance.now();
  const restored = await start(`Laden mit ${path.basename(restoreStdlib)}`, {
    _loadSnapshot: snapshot,
    stdLibURL: path.resolve(restoreStdlib),
    lockFileContents,
  });
  const loadMs = performance.now() - started;
  isFresh(restored, "Laden");
  answerAll(restored, `Das Abbild mit nur ${path.basename(restoreStdlib)}`);
  started = performance.now();
  const plain = await start(`Start ohne Abbild mit ${path.basename(plainStdlib)}`, {
    stdLibURL: path.resolve(plainStdlib),
    lockFileContents,
  });
  try {
    await importEngine(plain);
  } catch (error) {
    fail(`ohne Abbild mit nur ${path.basename(plainStdlib)}: Engine-Import (${reason(error)})`);
  }
  const plainMs = performance.now() - started;
  answerAll(plain, `Python ohne Abbild mit nur ${path.basename(plainStdlib)}`);
  return {
    load_ms: Math.round(loadMs),
    plain_ms: Math.round(plainMs),
    probes: probe.requests.length,
  };
}

const figures = mode === "make" ? await make(rest[0]) : await verify(...rest);
console.log(JSON.stringify(figures));
