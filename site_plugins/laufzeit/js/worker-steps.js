// Regelwerk – worker-steps.js: the engine worker's clock of its boot.
//
// Owns: when "boot" arrived (startClock) and when each step of the boot was done (steps, sent
// with "ready", see protocol.js).

// When each step of the boot was done, ms after "boot" arrived (the benchmarks print them):
// wasm (its bytes: offline inflated), snapshot (its bytes: kept, or downloaded, inflated and
// decoded), pyodide (Python ready: the wasm compiled, the snapshot restored).
let bootStarted = 0;
export const steps = {};

export function startClock() {
  bootStarted = performance.now();
}

// ms since "boot" arrived
export function sinceBoot() {
  return performance.now() - bootStarted;
}

export function step(name) {
  if (!(name in steps)) steps[name] = Math.round(performance.now() - bootStarted);
}
