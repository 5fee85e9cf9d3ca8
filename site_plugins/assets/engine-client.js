// Regelwerk roll helpers 1/6 – engine-client.js: the client of the engine worker.
//
// The roll helpers are six classic scripts (the offline export is opened from file://, where
// only classic <script> tags load), listed in this order in mkdocs.yml extra_javascript:
//   engine-client.js  worker, request queue, engine state, status lines   (this file)
//   results.js        the engine's display block as DOM, rolled rule-table row
//   forms.js          reading a form, list rows, field errors
//   log.js            the page roll log („Wurfprotokoll dieser Seite“)
//   dice.js           the dice buttons in the text and their popover
//   page.js           wiring: helper forms, widget registry, initPage per page
// Each file uses only what the files before it define. Material's instant navigation keeps
// the scripts alive between pages: one worker per visit.
//
// Namespace convention (all six files): inside its "use strict" IIFE each file starts with
//   const RW = (window.Regelwerk = window.Regelwerk || {});
// and adds its PUBLIC functions to RW: window.Regelwerk is the API that tests and custom
// widgets (tickleiste.js) use. Pieces shared only among these files go on RW._internal,
// created here, not enumerable: Object.keys(window.Regelwerk) lists the public API only.
//
// Owns: booting the worker (or, in the offline export, window.RegelwerkTransport's), the
// request queue, the boot timeout, the engine state (idle/loading/ready/failed), each
// helper's status line and its „Erneut versuchen“ button, window.__regelwerk (timings read by
// the tests and scripts/benchmark*.py: bootStart, ready, workerMs, lastRoundTrip).
// Exposes: RW.runEngine, RW.engineReady, RW.newSeed;
//          RW._internal.showState, .scheduleBoot, .retryBoot, .timing.
(function () {
"use strict";
const RW = (window.Regelwerk = window.Regelwerk || {});
Object.defineProperty(RW, "_internal", { value: {} });
const internal = RW._internal;

// document.currentScript is only set while this script first runs: compute the base now.
const ASSET_BASE = new URL("./", document.currentScript.src);
const BOOT_TIMEOUT_MS = 60000;

const STATUS_TEXT = {
  idle: "Würfelhelfer wird vorbereitet …",
  loading: "Würfelhelfer lädt …",
  ready: "Bereit.",
  failed: "Fehler: Die Regel-Engine konnte nicht geladen werden.",
};

const engine = {
  state: "idle",
  worker: null,
  error: "",
  nextId: 1,
  pending: new Map(),
  queue: [],
  timer: null,
  timing: { bootStart: null, ready: null, workerMs: null },
};
window.__regelwerk = engine.timing;

function everyHelper(fn) {
  document.querySelectorAll(".rw-helper[data-rw-ready]").forEach(fn);
}

function setState(state, error = "") {
  engine.state = state;
  engine.error = error;
  everyHelper(showState);
}

function showState(helper) {
  const status = helper.querySelector(".rw-status");
  const retry = helper.querySelector(".rw-retry");
  status.dataset.state = engine.state;
  let text = STATUS_TEXT[engine.state];
  if (engine.state === "failed" && engine.error) {
    text += ` (${engine.error}) Der Regeltext bleibt lesbar.`;
  }
  status.textContent = text;
  retry.hidden = engine.state !== "failed";
}

function failBoot(message) {
  clearTimeout(engine.timer);
  if (engine.worker) engine.worker.terminate();
  engine.worker = null;
  for (const [, entry] of engine.pending) entry.reject(new Error(message));
  engine.pending.clear();
  for (const entry of engine.queue) entry.reject(new Error(message));
  engine.queue = [];
  setState("failed", message);
}

function ensureBoot() {
  if (engine.state === "loading" || engine.state === "ready") return;
  const helper = document.querySelector(".rw-helper[data-engine]");
  const version = helper ? helper.dataset.engine : "";
  engine.timing.bootStart = performance.now();
  setState("loading");
  let worker;
  try {
    // The offline export installs its own transport (a Blob worker with the runtime inlined).
    worker = window.RegelwerkTransport
      ? window.RegelwerkTransport.createWorker(ASSET_BASE)
      : new Worker(new URL("worker.js", ASSET_BASE), { type: "module" });
  } catch (error) {
    failBoot(String(error));
    return;
  }
  engine.worker = worker;
  engine.timer = setTimeout(() => failBoot("Zeitüberschreitung beim Laden"), BOOT_TIMEOUT_MS);
  worker.addEventListener("error", (event) => {
    event.preventDefault();
    failBoot(event.message || "Worker-Fehler");
  });
  worker.addEventListener("message", (event) => {
    const message = event.data;
    if (message.type === "ready") {
      clearTimeout(engine.timer);
      engine.timing.ready = performance.now();
      engine.timing.workerMs = message.ms;
      setState("ready");
      const queued = engine.queue;
      engine.queue = [];
      for (const entry of queued) send(entry);
    } else if (message.type === "failed") {
      failBoot(message.message);
    } else if (message.type === "result") {
      const entry = engine.pending.get(message.id);
      if (entry) {
        engine.pending.delete(message.id);
        entry.resolve(JSON.parse(message.body));
      }
    }
  });
  const engineUrl = new URL(`engine.zip?v=${encodeURIComponent(version)}`, ASSET_BASE).href;
  worker.postMessage({ type: "boot", engineUrl });
}

// The „Erneut versuchen“ button (its click is wired in page.js with the form's other buttons).
function retryBoot() {
  engine.state = "idle";
  ensureBoot();
}

// Boots once a page has a helper or a dice button, at the browser's next idle moment.
function scheduleBoot() {
  if (engine.state !== "idle") return;
  const start = () => ensureBoot();
  if ("requestIdleCallback" in window) {
    requestIdleCallback(start, { timeout: 2000 });
  } else {
    setTimeout(start, 300);
  }
}

function send(entry) {
  const id = engine.nextId++;
  engine.pending.set(id, entry);
  engine.worker.postMessage({ type: "run", id, request: entry.request });
}

// Resolves with the engine's answer ({ok, result | error, seed, …}); before the engine is
// ready the request waits in the queue (and starts the boot).
function runEngine(request) {
  return new Promise((resolve, reject) => {
    const entry = { request, resolve, reject };
    if (engine.state === "ready") {
      send(entry);
    } else {
      engine.queue.push(entry);
      ensureBoot();
    }
  });
}

function newSeed() {
  const words = new Uint32Array(1);
  crypto.getRandomValues(words);
  return words[0];
}

RW.runEngine = runEngine;
RW.engineReady = () => engine.state === "ready";
RW.newSeed = newSeed;
internal.showState = showState;
internal.scheduleBoot = scheduleBoot;
internal.retryBoot = retryBoot;
internal.timing = engine.timing;
})();
