// Regelwerk offline transport (CLASSIC script, first in <head> of every page of the export).
// From file:// Chromium refuses fetch, module imports and new Worker(fileURL); only classic
// <script> tags load. So the runtime ships as shared scripts (assets/offline/runtime-*.js,
// one copy for all pages) that push their text into RegelwerkOfflineParts; this transport
// loads them only when a helper boots, starts the worker from a Blob URL as soon as its code
// is here and hands the payload over by postMessage, each script's chunks as it arrives.
// engine-client.js calls RegelwerkTransport.createWorker() instead of new Worker(): the object
// returned behaves like a Worker (postMessage, terminate, events).
// The build fills in MANIFEST (script names, part names and chunk counts).
(function () {
  "use strict";
  const MANIFEST = "@regelwerk:manifest";
  // Captured before Material's iframe-worker shim replaces window.Worker on file:// (the shim
  // runs the worker's code in an iframe on the main thread: fine for search, not for Pyodide).
  const NativeWorker = window.Worker;
  const BASE = new URL("./", document.currentScript.src);
  const PARTS_KEY = "RegelwerkOfflineParts";

  function loadScript(name) {
    return new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = new URL(name, BASE).href;
      script.async = true;
      script.onload = () => resolve();
      script.onerror = () => {
        script.remove();
        reject(new Error(`Offline-Laufzeit nicht ladbar (${name})`));
      };
      document.head.appendChild(script);
    });
  }

  // The chunks of a part that have arrived ([text, ...] by index), or null while one is missing.
  function chunksOf(name) {
    const chunks = new Array(MANIFEST.parts[name]);
    let found = 0;
    for (const [part, index, text] of window[PARTS_KEY] || []) {
      if (part === name && typeof text === "string" && chunks[index] === undefined) {
        chunks[index] = text;
        found++;
      }
    }
    return found === chunks.length ? chunks : null;
  }

  // Every runtime script, loading side by side; each one that arrives is announced to the
  // workers being started (they hand its chunks over at once, not after the last script).
  const arrivals = new Set();
  let loading = null;

  function loadRuntime() {
    if (!loading) {
      loading = Promise.all(
        MANIFEST.scripts.map((name) =>
          loadScript(name).then(() => arrivals.forEach((arrived) => arrived())),
        ),
      ).then(
        () => {
          for (const name of Object.keys(MANIFEST.parts)) {
            if (!chunksOf(name)) throw new Error("Offline-Laufzeit unvollständig");
          }
        },
        (error) => {
          loading = null;
          throw error;
        },
      );
    }
    return loading;
  }

  class OfflineWorker extends EventTarget {
    constructor() {
      super();
      this.worker = null; // the browser's Worker, once its code is here
      this.open = false; // every part handed over: messages go straight to the worker
      this.sent = new Set(); // "part/index" of the chunks handed over
      this.queue = [];
      this.closed = false;
      this.onmessage = null;
      this.onerror = null;
      const arrived = () => this.handOver();
      arrivals.add(arrived);
      loadRuntime().then(
        () => {
          arrivals.delete(arrived);
          this.handOver();
          this.openUp();
        },
        (error) => {
          arrivals.delete(arrived);
          this.fail(error.message);
        },
      );
      this.handOver(); // scripts an earlier worker already loaded
    }

    // Start the worker as soon as its code is here, and give it every chunk that has arrived
    // and was not given yet: the worker decodes the wasm and the snapshot as soon as each is
    // complete, while later scripts still load. Each postMessage copies its text.
    handOver() {
      if (!this.worker && !this.closed) this.start();
      if (!this.worker || this.closed) return;
      for (const [name, index, text] of window[PARTS_KEY] || []) {
        const key = `${name}/${index}`;
        if (name === "worker" || !(name in MANIFEST.parts) || this.sent.has(key)) continue;
        this.sent.add(key);
        this.worker.postMessage({ type: "part", name, index, count: MANIFEST.parts[name], text });
      }
    }

    // nothing yet while the worker's code is still loading
    start() {
      const code = chunksOf("worker");
      if (!code) return;
      if (typeof NativeWorker !== "function" || NativeWorker === window.IFrameWorker) {
        this.giveUp("Kein Web Worker verfügbar");
        return;
      }
      const url = URL.createObjectURL(new Blob(code, { type: "text/javascript" }));
      let worker;
      try {
        worker = new NativeWorker(url);
      } catch (error) {
        URL.revokeObjectURL(url);
        this.giveUp(String(error));
        return;
      }
      worker.addEventListener("message", (event) => {
        URL.revokeObjectURL(url);
        this.emit(new MessageEvent("message", { data: event.data }));
      });
      worker.addEventListener("error", (event) => {
        event.preventDefault();
        URL.revokeObjectURL(url);
        this.fail(event.message || "Worker-Fehler");
      });
      this.worker = worker;
    }

    // every part handed over: what was posted meanwhile (the boot) follows
    openUp() {
      if (this.closed || !this.worker) return;
      this.open = true;
      for (const message of this.queue) this.worker.postMessage(message);
      this.queue = [];
    }

    emit(event) {
      if (this.closed) return;
      this.dispatchEvent(event);
      const handler = event.type === "message" ? this.onmessage : this.onerror;
      if (typeof handler === "function") handler.call(this, event);
    }

    fail(message) {
      this.emit(new ErrorEvent("error", { message, cancelable: true }));
    }

    // no worker can be made: said once, then nothing more is tried
    giveUp(message) {
      this.fail(message);
      this.closed = true;
    }

    postMessage(message) {
      if (this.open) this.worker.postMessage(message);
      else this.queue.push(message);
    }

    terminate() {
      this.closed = true;
      if (this.worker) this.worker.terminate();
      this.worker = null;
      this.open = false;
      this.queue = [];
    }
  }

  window.RegelwerkTransport = {
    offline: true,
    version: MANIFEST.pyodide,
    createWorker() {
      return new OfflineWorker();
    },
  };
})();
