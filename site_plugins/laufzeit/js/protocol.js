// Regelwerk – protocol.js: the messages between the page and the engine worker (worker.js).
//
// The one place where their shapes are written; the page (engine-start.js, engine-client.js)
// and the worker build them with these functions and read them by MESSAGE type.
//   page → worker  {type: "part", name, index, count, text}  offline only, before "boot"
//                                                       (the offline transport sends these;
//                                                       count: the part's chunks)
//                  {type: "boot", base, key, snapshot} base: URL of assets/regelwerk/;
//                                                       key: the runtime key (engine-<key>.*)
//                  {type: "run", id, request}          request: {system, action, params, seed}
//   worker → page  {type: "notice", text}              the snapshot could not be used
//                  {type: "ready", ms, mode, kept, steps}  mode: "snapshot" | "plain"; kept:
//                                                       the snapshot came from the copy in
//                                                       OPFS; steps: {step: ms} (worker-steps.js)
//                  {type: "failed", message}           the boot failed (German, names the file)
//                  {type: "result", id, body}          body: the engine's JSON answer (a string)

export const MESSAGE = Object.freeze({
  PART: "part",
  BOOT: "boot",
  RUN: "run",
  NOTICE: "notice",
  READY: "ready",
  FAILED: "failed",
  RESULT: "result",
});

// The runtime key the build names in every page's <meta name="regelwerk-engine">.
export function runtimeKey(doc = document) {
  const meta = doc.querySelector('meta[name="regelwerk-engine"]');
  return meta ? meta.content : "";
}

// Always from the memory snapshot first (the worker falls back to the plain boot, announced).
export function bootMessage(base, key) {
  return { type: MESSAGE.BOOT, base: String(base), key, snapshot: true };
}

export function runMessage(id, request) {
  return { type: MESSAGE.RUN, id, request };
}

export function noticeMessage(text) {
  return { type: MESSAGE.NOTICE, text };
}

export function readyMessage(ms, mode, kept, steps = {}) {
  return { type: MESSAGE.READY, ms, mode, kept: !!kept, steps: { ...steps } };
}

export function failedMessage(message) {
  return { type: MESSAGE.FAILED, message };
}

export function resultMessage(id, body) {
  return { type: MESSAGE.RESULT, id, body };
}

// Does this worker message end the boot (either way)?
export function endsBoot(message) {
  return !!message && (message.type === MESSAGE.READY || message.type === MESSAGE.FAILED);
}
