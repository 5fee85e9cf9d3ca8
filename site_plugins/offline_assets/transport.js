// Regelwerk offline transport (CLASSIC script, first in <head> of every page of the export).
// From file:// Chromium refuses fetch, module imports and new Worker(fileURL); only classic
// <script> tags load. So the runtime ships as shared scripts (assets/offline/runtime-*.js,
// one copy for all pages) that push their text into RegelwerkOfflineParts; this transport
// loads them only when a helper boots, starts the worker from a Blob URL and hands the base64
// payload over by postMessage. engine-client.js calls RegelwerkTransport.createWorker()
// instead of new Worker(): the object returned behaves like a Worker (postMessage, terminate,
// events).
// The build fills in MANIFEST (script names, part names and chunk counts).
(function () {
  "use strict";
  const MANIFEST = "@regelwerk:manifest";
  // Captured before Material's iframe-worker shim replaces window.Worker on file:// (the shim
  // runs the worker's code in an iframe on the main thread: fine for search, not for Pyodide).
  const NativeWorker = window.Worker;
  const BASE = new URL("./", document.currentScript.src);
  const PARTS_KEY = "RegelwerkOfflineParts";
  let loading = null;

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

  // {name: [chunk, ...]} once every chunk of every part has arrived, else null.
  function collect() {
    const parts = {};
    for (const [name, count] of Object.entries(MANIFEST.parts)) parts[name] = new Array(count);
    for (const [name, index, text] of window[PARTS_KEY] || []) {
      if (parts[name]) parts[name][index] = text;
    }
    for (const [name, chunks] of Object.entries(parts)) {
      for (let i = 0; i < chunks.length; i++) if (typeof chunks[i] !== "string") return null;
    }
    return parts;
  }

  function loadRuntime() {
    const ready = collect();
    if (ready) return Promise.resolve(ready);
    if (!loading) {
      loading = Promise.all(MANIFEST.scripts.map(loadScript)).then(
        () => {
          const parts = collect();
          if (!parts) throw new Error("Offline-Laufzeit unvollständig");
          return parts;
        },
        (error) => {
          loading = null;
          throw error;
        },
      );
    }
    return loading;
  }

  // A new task without setTimeout's clamp: chained timeouts wait at least 4 ms each after
  // the fifth, about 100 ms over the handover's chunks; a message to our own port does not.
  const tasks = new MessageChannel();
  const waiting = [];
  tasks.port1.onmessage = () => waiting.shift()();

  function nextTask() {
    return new Promise((resolve) => {
      waiting.push(resolve);
      tasks.port2.postMessage(null);
    });
  }

  class OfflineWorker extends EventTarget {
    constructor() {
      super();
      this.worker = null;
      this.queue = [];
      this.closed = false;
      this.onmessage = null;
      this.onerror = null;
      loadRuntime().then(
        (parts) => this.start(parts),
        (error) => this.fail(error.message),
      );
    }

    // Every step below is its own short main-thread task: the Blob is built from one chunk
    // at a time and the payload goes over chunk by chunk (each postMessage copies its text).
    async start(parts) {
      if (this.closed) return;
      if (typeof NativeWorker !== "function" || NativeWorker === window.IFrameWorker) {
        this.fail("Kein Web Worker verfügbar");
        return;
      }
      const { worker: code, ...payload } = parts;
      const pieces = [];
      for (const chunk of code) {
        pieces.push(new Blob([chunk]));
        await nextTask();
      }
      if (this.closed) return;
      const url = URL.createObjectURL(new Blob(pieces, { type: "text/javascript" }));
      let worker;
      try {
        worker = new NativeWorker(url);
      } catch (error) {
        URL.revokeObjectURL(url);
        this.fail(String(error));
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
      for (const [name, chunks] of Object.entries(payload)) {
        for (let index = 0; index < chunks.length; index++) {
          await nextTask();
          if (this.closed) {
            worker.terminate();
            return;
          }
          const count = chunks.length;
          worker.postMessage({ type: "part", name, index, count, text: chunks[index] });
        }
      }
      this.worker = worker;
      for (const message of this.queue) worker.postMessage(message);
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

    postMessage(message) {
      if (this.worker) this.worker.postMessage(message);
      else this.queue.push(message);
    }

    terminate() {
      this.closed = true;
      if (this.worker) this.worker.terminate();
      this.worker = null;
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
