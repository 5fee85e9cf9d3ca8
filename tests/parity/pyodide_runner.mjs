// Runs engine requests in Node + Pyodide (npm package) and prints one JSON answer per line.
// Usage: node pyodide_runner.mjs ENGINE_ZIP REQUESTS_JSON
// The engine archive is the very file the site ships (site_plugins.plugin.engine_archive).
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { loadPyodide } = require("pyodide");

const [archivePath, requestsPath] = process.argv.slice(2);
const pyodide = await loadPyodide({ stdout: () => {}, stderr: (l) => process.stderr.write(l + "\n") });
const archive = await readFile(archivePath);
pyodide.unpackArchive(new Uint8Array(archive), "zip", { extractDir: "/regelwerk" });
pyodide.runPython("import sys\nsys.path.insert(0, '/regelwerk')\nimport engine.api");
const runJson = pyodide.pyimport("engine.api").run_json;
const version = pyodide.runPython("import sys; sys.version.split()[0]");
process.stderr.write(`Pyodide ${pyodide.version}, Python ${version}\n`);
const requests = JSON.parse(await readFile(requestsPath, "utf8"));
const lines = requests.map((request) => runJson(JSON.stringify(request)));
process.stdout.write(lines.join("\n") + "\n");
