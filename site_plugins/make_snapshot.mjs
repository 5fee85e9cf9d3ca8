// Build step (called by site_plugins/snapshot.py): a Pyodide memory snapshot with the engine
// already imported, so a helper in the browser is ready in well under a second.
//
//   node site_plugins/make_snapshot.mjs PYODIDE_DIR ENGINE_ZIP PROBE_JSON OUT_FILE
//
// 1. Boots Pyodide from the npm package in PYODIDE_DIR (nothing is downloaded), unpacks
//    ENGINE_ZIP, imports every engine module, and writes pyodide.makeMemorySnapshot() to
//    OUT_FILE (raw bytes; the caller compresses them).
// 2. Proves the snapshot loads back: a second Pyodide starts from it alone (its file system
//    has no engine files) and answers every request in PROBE_JSON ({requests, answers},
//    the answers made by CPython's engine.run_json) byte for byte.
// Prints one JSON line of figures on stdout. Any failure exits 1 with a German message.
//
// _makeSnapshot, makeMemorySnapshot and _loadSnapshot are private Pyodide API, bound to the
// exact version pinned in package.json: this script is part of the snapshot's hash, and the
// build fails here (not in a reader's browser) if an upgrade changes them.
import { readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";

const [pyodideDir, enginePath, probePath, outPath] = process.argv.slice(2);
if (!outPath) {
  console.error("Aufruf: node make_snapshot.mjs PYODIDE_DIR ENGINE_ZIP PROBE_JSON OUT_FILE");
  process.exit(2);
}

const IMPORT_ENGINE = `
import importlib, pkgutil, sys
sys.path.insert(0, "/regelwerk")
import engine, engine.api
for info in pkgutil.walk_packages(engine.__path__, "engine."):
    if info.name not in ("engine.__main__", "engine.cli"):  # the CLI is not used here
        importlib.import_module(info.name)
sys.path.remove("/regelwerk")
`;

function fail(message) {
  console.error(`Schnellstart-Abbild: ${message}`);
  process.exit(1);
}

const require = createRequire(path.join(path.resolve(pyodideDir), "package.json"));
const { loadPyodide } = require("./pyodide.js");
const quiet = { stdout: () => {}, stderr: (line) => process.stderr.write(`${line}\n`) };
const indexURL = path.resolve(pyodideDir) + path.sep;

let started = performance.now();
let snapshot;
try {
  const pyodide = await loadPyodide({ ...quiet, indexURL, _makeSnapshot: true });
  const archive = new Uint8Array(await readFile(enginePath));
  pyodide.unpackArchive(archive, "zip", { extractDir: "/regelwerk" });
  pyodide.runPython(IMPORT_ENGINE);
  snapshot = pyodide.makeMemorySnapshot();
} catch (error) {
  fail(`konnte nicht erstellt werden: ${error && error.message ? error.message : error}`);
}
const makeMs = performance.now() - started;
await writeFile(outPath, snapshot);

started = performance.now();
let runJson;
let pyodide;
try {
  pyodide = await loadPyodide({ ...quiet, indexURL, _loadSnapshot: snapshot });
  runJson = pyodide.pyimport("engine.api").run_json;
} catch (error) {
  fail(`lädt nicht: ${error && error.message ? error.message : error}`);
}
const loadMs = performance.now() - started;
if (pyodide.FS.analyzePath("/regelwerk").exists) {
  fail("die Engine-Dateien stecken noch im Dateisystem; die Prüfung wäre wertlos");
}
const probe = JSON.parse(await readFile(probePath, "utf8"));
probe.requests.forEach((request, index) => {
  const answer = runJson(JSON.stringify(request));
  if (answer !== probe.answers[index]) {
    fail(
      `antwortet anders als CPython auf ${JSON.stringify(request).slice(0, 120)}:\n` +
        `  CPython: ${probe.answers[index].slice(0, 200)}\n  Abbild:  ${answer.slice(0, 200)}`,
    );
  }
});
const python = pyodide.runPython("import sys; sys.version.split()[0]");
console.log(
  JSON.stringify({
    bytes: snapshot.length,
    make_ms: Math.round(makeMs),
    load_ms: Math.round(loadMs),
    probes: probe.requests.length,
    pyodide: pyodide.version,
    python,
  }),
);
