// Regelwerk offline worker (a CLASSIC script, started from a Blob URL by transport.js).
// The build splices Pyodide's own code in at the two @regelwerk markers below, so this one
// Blob holds the whole runtime code; the binary payload (wasm, stdlib, engine) arrives by
// postMessage as base64 text and is decoded and decompressed here, never on the page.
// Protocol (same as worker.js online):
//   in:  {type: "part", name, index, text}  (from transport.js, base64 chunks, first)
//        {type: "payload"}                 (all parts sent)
//        {type: "boot", engineUrl} (engineUrl is ignored: the engine comes with the payload)
//        {type: "run", id, request}
//   out: {type: "ready", ms}  {type: "failed", message}  {type: "result", id, body}

// Pyodide refuses classic workers; it detects them by calling importScripts (which works in a
// classic worker). Nothing here needs importScripts, so make it throw before Pyodide loads.
self.importScripts = function () {
  throw new Error("importScripts ist im Offline-Worker abgeschaltet");
};

// @regelwerk:pyodide.js

// @regelwerk:pyodide.asm.js

(function () {
  "use strict";
  const VIRTUAL_INDEX = "@regelwerk:virtual-index";
  const LOCK_FILE = "@regelwerk:lock-file";
  const CONTENT_TYPES = { "pyodide.asm.wasm": "application/wasm", "python_stdlib.zip": "application/zip" };

  const parts = {};
  let resolvePayload;
  const payload = new Promise((resolve) => {
    resolvePayload = resolve;
  });
  let runJson = null;

  function decodeBase64(chunks) {
    const text = chunks.join("");
    if (typeof Uint8Array.fromBase64 === "function") return Uint8Array.fromBase64(text);
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }

  // base64 -> gzip bytes -> a stream of the original bytes (decompressed while it is read).
  function gunzip(bytes) {
    return new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  }

  // Pyodide loads the wasm and the stdlib with fetch(indexURL + name). The virtual indexURL
  // has a scheme of its own, so nothing can ever reach a network; everything else is refused.
  function installFetch(files) {
    self.fetch = function (input) {
      const url = String(input && input.url !== undefined ? input.url : input);
      if (url.startsWith(VIRTUAL_INDEX)) {
        const name = url.slice(VIRTUAL_INDEX.length).split(/[?#]/)[0];
        if (files[name]) {
          const headers = { "Content-Type": CONTENT_TYPES[name] || "application/octet-stream" };
          return Promise.resolve(new Response(gunzip(files[name]), { headers }));
        }
      }
      return Promise.reject(new TypeError(`Offline-Version: kein Netzwerkzugriff (${url})`));
    };
  }

  async function boot() {
    const started = performance.now();
    await payload;
    if (typeof loadPyodide !== "function" || typeof __regelwerkCreatePyodideModule !== "function") {
      throw new Error("Pyodide fehlt im Offline-Worker");
    }
    installFetch({
      "pyodide.asm.wasm": decodeBase64(parts.wasm),
      "python_stdlib.zip": decodeBase64(parts.stdlib),
    });
    const engineZip = new Response(gunzip(decodeBase64(parts.engine))).arrayBuffer();
    const pyodide = await loadPyodide({
      indexURL: VIRTUAL_INDEX,
      packageBaseUrl: VIRTUAL_INDEX,
      lockFileContents: LOCK_FILE,
      createPyodideModule: __regelwerkCreatePyodideModule,
      stdout: () => {},
      stderr: (line) => console.warn("[regelwerk]", line),
    });
    pyodide.unpackArchive(await engineZip, "zip", { extractDir: "/regelwerk" });
    pyodide.runPython("import sys\nsys.path.insert(0, '/regelwerk')\nimport engine.api");
    runJson = pyodide.pyimport("engine.api").run_json;
    return performance.now() - started;
  }

  self.onmessage = async (event) => {
    const message = event.data;
    if (message.type === "part") {
      (parts[message.name] = parts[message.name] || [])[message.index] = message.text;
    } else if (message.type === "payload") {
      resolvePayload();
    } else if (message.type === "boot") {
      try {
        const ms = await boot();
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
})();
