// Regelwerk engine worker (module worker): boots Pyodide once, then answers run requests.
// Messages in:  {type: "boot", engineUrl}   {type: "run", id, request}
// Messages out: {type: "ready", ms}  {type: "failed", message}  {type: "result", id, body}
import { loadPyodide } from "../pyodide/pyodide.mjs";

let runJson = null;

async function boot(engineUrl) {
  const started = performance.now();
  const pyodide = await loadPyodide({
    indexURL: new URL("../pyodide/", import.meta.url).href,
    stdout: () => {},
    stderr: (line) => console.warn("[regelwerk]", line),
  });
  const response = await fetch(engineUrl);
  if (!response.ok) {
    throw new Error(`Engine-Archiv nicht ladbar (HTTP ${response.status})`);
  }
  const archive = await response.arrayBuffer();
  pyodide.unpackArchive(archive, "zip", { extractDir: "/regelwerk" });
  pyodide.runPython("import sys\nsys.path.insert(0, '/regelwerk')\nimport engine.api");
  runJson = pyodide.pyimport("engine.api").run_json;
  return performance.now() - started;
}

self.onmessage = async (event) => {
  const message = event.data;
  if (message.type === "boot") {
    try {
      const ms = await boot(message.engineUrl);
      self.postMessage({ type: "ready", ms });
    } catch (error) {
      self.postMessage({ type: "failed", message: String(error && error.message ? error.message : error) });
    }
  } else if (message.type === "run") {
    let body;
    try {
      body = runJson(JSON.stringify(message.request));
    } catch (error) {
      body = JSON.stringify({ ok: false, error: { field: "", message: `Interner Fehler: ${error}` } });
    }
    self.postMessage({ type: "result", id: message.id, body });
  }
};
