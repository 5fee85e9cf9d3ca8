// Runs engine requests in Node + Pyodide (npm package) started from the site's memory
// snapshot, and prints one JSON answer per line.
// Usage: node pyodide_runner.mjs SNAPSHOT_GZ STDLIB_ZIP REQUESTS_JSON
// The snapshot is the very file the site ships (site_plugins.laufzeit.snapshot.build_snapshot),
// decoded as the worker decodes it (snapshot-codec.js: the wasm's data put back), and the
// standard library is only the archive the site ships for the snapshot boot: its file system
// holds no engine files, so the answers come from the snapshot alone.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { gunzipSync } from "node:zlib";

import { xorWasmData } from "../../site_plugins/laufzeit/js/snapshot-codec.js";

const require = createRequire(import.meta.url);
const { loadPyodide } = require("pyodide");

const [snapshotPath, stdlibPath, requestsPath] = process.argv.slice(2);
const wasm = await readFile(path.join(path.dirname(require.resolve("pyodide")), "pyodide.asm.wasm"));
const snapshot = xorWasmData(new Uint8Array(gunzipSync(await readFile(snapshotPath))), wasm);
const pyodide = await loadPyodide({
  stdLibURL: path.resolve(stdlibPath),
  _loadSnapshot: snapshot,
  stdout: () => {},
  stderr: (line) => process.stderr.write(line + "\n"),
});
if (pyodide.FS.analyzePath("/regelwerk").exists) throw new Error("engine files in the FS");
const runJson = pyodide.pyimport("engine.api").run_json;
const version = pyodide.runPython("import sys; sys.version.split()[0]");
process.stderr.write(`Pyodide ${pyodide.version}, Python ${version}, from the snapshot\n`);
const requests = JSON.parse(await readFile(requestsPath, "utf8"));
const lines = requests.map((request) => runJson(JSON.stringify(request)));
process.stdout.write(lines.join("\n") + "\n");
