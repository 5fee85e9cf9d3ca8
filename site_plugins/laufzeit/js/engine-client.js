// Regelwerk – engine-client.js: the page's client of the engine worker.
//
// Owns: booting the worker (or, in the offline export, window.RegelwerkTransport's) as soon
// as a page with a helper or a dice button loads (online engine-start.js has already started
// it from <head>; the first boot adopts that worker), the request queue, the timeouts, the
// engine state (idle/loading/ready/failed), each helper's status line (data-long when it says
// more than the state) and its „Erneut versuchen“ button, the timings read by the tests and
// scripts/benchmark*.py (window.__regelwerk: bootStart, ready, workerMs, mode, kept,
// startedInHead, scriptsStart, lastRoundTrip, initPageMs).
// Requests are answered in the order they were made. A request the engine does not answer
// within requestTimeoutMs fails with a German message; the worker is then started afresh
// (from the snapshot: well under a second) and the other waiting requests go to the new one.
// A tab hidden for HIDDEN_FREE_MS (the game master switched to his messenger) frees the engine:
// its worker – the wasm heap, about 100 MB – is stopped when nothing waits for it, so a phone
// keeps the tab instead of unloading it; shown again, the engine starts afresh from the kept
// snapshot (OPFS, worker-snapshot.js: about half a second). The fight, the forms and the log
// live in the page and in storage, never in the worker, so nothing is lost (timing.freed
// counts it, timing.restoreMs says how long the last start after it took).
// The messages to and from the worker: protocol.js.

import { MESSAGE, bootMessage, runMessage, runtimeKey } from "./protocol.js";


// The folder of the bundle (and of worker.js): set by startEngineClient while the bundle first
// runs – document.currentScript is only set then.
let assetBase = null;
// Failures of the files themselves are reported by the worker at once; this only catches a
// boot that hangs. Generous: a phone on a slow line downloads about 20 MB the first time.
const BOOT_TIMEOUT_MS = 120000;
// A boot still not ready after this long is said to be slow, with what already works and a
// retry (a phone on a slow line may still finish: nothing is stopped unless the reader asks).
// (A test may shorten it before the page loads: window.__regelwerkSlowBootMs.)
let slowBootMs = 10000;
const STILL_WORKS = "Regeltext, Tabellen und Suche funktionieren schon.";
// The engine refuses work over its budget (0.5 s on a PC), so this means a stuck worker.
// (A test may shorten it before the page loads: window.__regelwerkRequestTimeoutMs.)
let requestTimeoutMs = 20000;
// How long a hidden tab keeps its engine (a test may shorten it: window.__regelwerkHiddenFreeMs).
let hiddenFreeMs = 60000;

const STATUS_TEXT = {
  idle: "Würfelhelfer wird vorbereitet …",
  loading: "Würfelhelfer lädt …",
  ready: "Bereit.",
  failed: "Fehler: Die Würfelhelfer konnten nicht geladen werden.",
};


const engine = {
  state: "idle",
  worker: null,
  error: "",
  notice: "",
  slow: false, // loading for longer than slowBootMs
  slowTimer: null,
  nextId: 1,
  pending: new Map(), // id → entry, sent to the worker, in sending order
  queue: [], // entries waiting for the worker to be ready
  timer: null,
  hiddenTimer: null,
  freed: false, // stopped while hidden: start again when shown
  timing: {
    freed: 0,
    restoreMs: null,
    bootStart: null,
    ready: null,
    workerMs: null,
    mode: null,
    kept: false,
    startedInHead: false,
    scriptsStart: performance.now(), // the helper scripts run (before: Material's page load)
  },
};
export const timing = engine.timing;

function everyHelper(fn) {
  document.querySelectorAll(".rw-helper[data-rw-ready]").forEach(fn);
}

function setState(state, error = "") {
  engine.state = state;
  engine.error = error;
  everyHelper(showState);
}

export function showState(helper) {
  const status = helper.querySelector(".rw-status");
  const retry = helper.querySelector(".rw-retry");
  status.dataset.state = engine.state;
  const slow = engine.state === "loading" && engine.slow;
  let text = slow
    ? `Der Würfelhelfer lädt noch (seit über ${Math.round(slowBootMs / 1000)} s). ${STILL_WORKS}`
    : STATUS_TEXT[engine.state];
  if (engine.state === "failed") {
    text += `${engine.error ? ` (${engine.error})` : ""} Regeltext, Tabellen und Suche funktionieren weiter.`;
  } else if (engine.notice) {
    text += ` ${engine.notice}`;
  }
  status.textContent = text;
  status.dataset.slow = slow ? "1" : "";
  // more than the state (a slow or failed start, a notice of the engine): the action row then
  // stays in the form instead of sticking over the fields (regelwerk.css)
  status.dataset.long = text === STATUS_TEXT[engine.state] ? "" : "1";
  retry.hidden = engine.state !== "failed" && !slow;
}

function stopWorker() {
  clearTimeout(engine.timer);
  clearTimeout(engine.slowTimer);
  engine.slow = false;
  if (engine.worker) engine.worker.terminate();
  engine.worker = null;
}

function failBoot(message) {
  stopWorker();
  const waiting = [...engine.pending.values(), ...engine.queue];
  engine.pending.clear();
  engine.queue = [];
  for (const entry of waiting) entry.fail(new Error(message));
  setState("failed", message);
}

// A new worker for the requests still waiting (after a stuck request or a crash).
function restart() {
  stopWorker();
  engine.queue = [...engine.pending.values(), ...engine.queue];
  engine.pending.clear();
  engine.state = "idle";
  ensureBoot();
}

function onMessage(event) {
  const message = event.data;
  if (message.type === MESSAGE.READY) {
    clearTimeout(engine.timer);
    clearTimeout(engine.slowTimer);
    engine.slow = false;
    engine.timing.ready = performance.now();
    engine.timing.workerMs = message.ms;
    engine.timing.mode = message.mode;
    engine.timing.kept = !!message.kept;
    engine.timing.steps = message.steps || {};
    if (engine.freed) {
      engine.freed = false;
      engine.timing.restoreMs = engine.timing.ready - engine.timing.bootStart;
    }
    setState("ready");
    const queued = engine.queue;
    engine.queue = [];
    for (const entry of queued) send(entry);
  } else if (message.type === MESSAGE.NOTICE) {
    console.warn("[regelwerk]", message.text);
    engine.notice = message.text;
    everyHelper(showState);
  } else if (message.type === MESSAGE.FAILED) {
    failBoot(message.message);
  } else if (message.type === MESSAGE.RESULT) {
    const entry = engine.pending.get(message.id);
    if (!entry) return;
    engine.pending.delete(message.id);
    entry.answer(message.body);
  }
}

function onWorkerError(event) {
  event.preventDefault();
  if (engine.state === "ready") restart();
  else failBoot(event.message || "Worker-Fehler");
}

// The worker engine-start.js started from <head> (online), once: with the events it buffered.
function takeEarlyWorker() {
  const early = window.__regelwerkEarlyWorker;
  if (!early || early.taken) return null;
  early.taken = true;
  early.worker.onmessage = null;
  early.worker.onerror = null;
  return early;
}

function ensureBoot() {
  if (engine.state === "loading" || engine.state === "ready") return;
  const early = takeEarlyWorker();
  engine.timing.bootStart = early ? early.bootStart : performance.now();
  engine.timing.ready = null; // this boot's, once it is ready
  engine.timing.startedInHead = !!early;
  engine.notice = "";
  setState("loading");
  let worker = early && early.worker;
  try {
    // The offline export installs its own transport (a Blob worker with the runtime inlined).
    if (!worker) {
      worker = window.RegelwerkTransport
        ? window.RegelwerkTransport.createWorker(assetBase)
        : new Worker(new URL("worker.js", assetBase), { type: "module" });
    }
  } catch (error) {
    failBoot(String(error));
    return;
  }
  engine.worker = worker;
  engine.timer = setTimeout(
    () => failBoot("Zeitüberschreitung: nach 2 Minuten noch nicht geladen"),
    BOOT_TIMEOUT_MS,
  );
  engine.slow = false;
  engine.slowTimer = setTimeout(() => {
    engine.slow = true;
    everyHelper(showState);
  }, slowBootMs);
  worker.addEventListener("error", onWorkerError);
  worker.addEventListener("message", onMessage);
  if (early) {
    // what arrived before this script ran, in order (the worker already has its "boot")
    for (const event of early.events) {
      if (engine.worker !== worker) break; // a failure there stopped it
      if (event.type === "error") onWorkerError(event);
      else onMessage(event);
    }
    return;
  }
  worker.postMessage(bootMessage(assetBase.href, runtimeKey()));
}

// The „Erneut versuchen“ button (its click is wired in page.js with the form's other buttons):
// after a failure, or while a slow boot still loads – then that worker is stopped and the
// requests waiting for it go to the new one.
export function retryBoot() {
  restart();
}

// A page with a helper or a dice button starts the engine at once: the boot runs in the
// worker, so the page's own work does not wait for it.
export function scheduleBoot() {
  if (engine.state === "idle") ensureBoot();
}

function send(entry) {
  const id = engine.nextId++;
  engine.pending.set(id, entry);
  entry.timer = setTimeout(() => {
    if (!engine.pending.has(id)) return;
    engine.pending.delete(id);
    entry.fail(new Error("Die Berechnung hat zu lange gedauert und wurde abgebrochen"));
    restart();
  }, requestTimeoutMs);
  engine.worker.postMessage(runMessage(id, entry.request));
}

// Resolves with the engine's answer ({ok, result | error, seed, …}) – or, with {raw: true},
// with the answer exactly as the engine wrote it (a JSON string). Before the engine is ready
// the request waits in the queue (and starts the boot).
export function runEngine(request, options = {}) {
  return new Promise((resolve, reject) => {
    const entry = {
      request,
      timer: null,
      answer(body) {
        clearTimeout(entry.timer);
        if (options.raw) return resolve(body);
        try {
          resolve(JSON.parse(body));
        } catch (error) {
          reject(new Error("Die Antwort des Würfelhelfers war unlesbar"));
        }
      },
      fail(error) {
        clearTimeout(entry.timer);
        reject(error);
      },
    };
    if (engine.state === "ready") {
      send(entry);
    } else {
      engine.queue.push(entry);
      ensureBoot();
    }
  });
}

// Hidden for hiddenFreeMs with nothing waiting: stop the worker (its memory goes back to the
// phone); shown again: start it, so the next roll does not wait for the whole start.
function freeWhileHidden() {
  clearTimeout(engine.hiddenTimer);
  if (document.visibilityState === "hidden") {
    engine.hiddenTimer = setTimeout(() => {
      const idle = !engine.pending.size && !engine.queue.length;
      if (document.visibilityState !== "hidden" || engine.state !== "ready" || !idle) return;
      stopWorker();
      engine.freed = true;
      engine.timing.freed += 1;
      engine.state = "idle"; // the helpers still say „Bereit.“: nobody sees a hidden tab
    }, hiddenFreeMs);
  } else if (engine.freed && engine.state === "idle") {
    ensureBoot();
  }
}

// The folder of regelwerk.js (assets/regelwerk/), for the scripts the page loads beside it
// (common/scripts.js); null before startEngineClient.
export function assetFolder() {
  return assetBase;
}

export function engineReady() {
  return engine.state === "ready";
}

export function newSeed() {
  const words = new Uint32Array(1);
  crypto.getRandomValues(words);
  return words[0];
}

// The bundle runs at the end of the page: a page with a helper or a dice button starts the
// engine right now, before Material has even announced the page (document$).
export function startEngineClient() {
  assetBase = new URL("./", document.currentScript.src);
  requestTimeoutMs = Number(window.__regelwerkRequestTimeoutMs) || requestTimeoutMs;
  slowBootMs = Number(window.__regelwerkSlowBootMs) || slowBootMs;
  hiddenFreeMs = Number(window.__regelwerkHiddenFreeMs) || hiddenFreeMs;
  window.__regelwerk = engine.timing; // read by the tests and the benchmarks
  document.addEventListener("visibilitychange", freeWhileHidden);
  if (document.querySelector(".rw-helper, .rw-dice")) scheduleBoot();
}
