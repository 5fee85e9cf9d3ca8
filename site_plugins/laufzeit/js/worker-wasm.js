// Regelwerk – worker-wasm.js: Pyodide's wasm (pyodide.asm.wasm) in the engine worker.
//
// Owns: online, the wasm's response (downloaded as pyodide.asm.wasm.gz and inflated while it
// arrives), requested early at the start of the boot and handed to Pyodide when it asks
// (takeEarlyWasm, from its fetch in worker-fetch.js); the wasm's bytes for the snapshot
// (wasmBytes: online a copy of that response, offline the part); and a wasm that does not
// compile ending the boot at once (watchWasmCompile). Offline the wasm is a part and compiled
// early in worker-parts.js.

import { AssetError, OFFLINE, WASM, WASM_GZ, describe } from "./worker-common.js";
import { hasPart, offlinePart } from "./worker-parts.js";

// A wasm that arrives but does not compile: Pyodide 314.0.7 (pyodide.mjs,
// getInstantiateWasmFunc) only warns – console.warn("wasm instantiation failed!"), then the
// error – and waits for ever. This worker's console (nothing of the page's) passes every
// warning on and ends the boot at once, naming the file and the browser's reason.
const WASM_FAILED = "wasm instantiation failed!";

export function watchWasmCompile(onFailure) {
  const warn = console.warn.bind(console);
  let failing = false;
  console.warn = (...args) => {
    warn(...args);
    if (args[0] === WASM_FAILED) {
      failing = true;
      setTimeout(() => onFailure(new AssetError("pyodide.asm.wasm nicht ausführbar")), 0);
    } else if (failing) {
      failing = false;
      onFailure(new AssetError(`pyodide.asm.wasm nicht ausführbar (${describe(args[0])})`));
    }
  };
}

// Online the site ships the wasm gzip-compressed (pyodide.asm.wasm.gz: 3.5 MB instead of
// 9.6 MB, also from a host that does not compress). Pyodide asks for pyodide.asm.wasm; it
// gets a Response over the .gz's body inflated by the browser's DecompressionStream while it
// downloads, typed application/wasm, so that its streaming compile still starts with the
// first bytes. A host that already undid the compression (Content-Encoding) sends the wasm
// itself: the first two bytes decide. Bytes that do not inflate (a damaged or truncated
// file) fail the boot at once, naming the file – the compile would only report that the
// stream broke off.
async function wasmResponse(response, onFailure) {
  if (!response.ok || !response.body) return response;
  const fail = (what, error) => {
    const failure = new AssetError(`${WASM_GZ} ${what} (${describe(error)})`);
    onFailure(failure);
    return failure;
  };
  const source = response.body.getReader();
  let head = new Uint8Array(0);
  let ended = false;
  try {
    while (head.length < 2 && !ended) {
      const { done, value } = await source.read();
      if (done) ended = true;
      else head = joined(head, value);
    }
  } catch (error) {
    throw fail("nicht ladbar", error);
  }
  const arriving = pass(source, (error) => fail("nicht ladbar", error), head, ended);
  if (!(head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b)) return typedWasm(arriving);
  if (typeof DecompressionStream !== "function") {
    throw fail("nicht entpackbar", "dieser Browser hat kein DecompressionStream");
  }
  const inflating = arriving.pipeThrough(new DecompressionStream("gzip")).getReader();
  return typedWasm(
    pass(inflating, (error) =>
      error instanceof AssetError ? error : fail("beschädigt, nicht entpackbar", error),
    ),
  );
}

function joined(a, b) {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

// A stream of what `reader` reads, after `head` (bytes already read; `ended`: nothing
// follows); an error while reading becomes wrap(error).
function pass(reader, wrap, head = null, ended = false) {
  return new ReadableStream({
    start(controller) {
      if (head && head.length) controller.enqueue(head);
      if (ended) controller.close();
    },
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        controller.error(wrap(error));
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

function typedWasm(body) {
  return new Response(body, { status: 200, headers: { "Content-Type": "application/wasm" } });
}

// The browser's own fetch, taken when the worker loads: watchFetch (worker-fetch.js) puts
// its own in self.fetch at the start of the boot.
export const networkFetch = self.fetch.bind(self);

// The wasm from the site: the .gz beside the address Pyodide asks for, inflated.
export function fetchWasm(url, onFailure) {
  const gz = new URL(WASM_GZ, url).href;
  return networkFetch(gz).then((response) => wasmResponse(response, onFailure));
}

// Online the wasm is requested at the start of the boot (wasmEarly): its download runs
// beside the snapshot's, and Pyodide, asking for it (it does so at once, before it takes the
// snapshot), gets that very response – once it is decided whether the snapshot needs a copy
// of its bytes (wasmBytes), so that the copy is made before Pyodide reads the response.
let wasmEarly = null; // see requestWasmEarly; null once Pyodide took the response
let wasmRecord = null; // the same, kept for wasmBytes

// needCopy: settled by decideWasmCopy (true: wasmBytes made `copy`, a clone of the response)
export function requestWasmEarly(config, onFailure) {
  if (OFFLINE) return;
  const url = new URL(`../pyodide/${WASM}`, config.base).href;
  const response = fetchWasm(url, onFailure);
  response.catch(() => {}); // Pyodide's own request reports the failure
  let decide;
  const needCopy = new Promise((resolve) => {
    decide = resolve;
  });
  wasmEarly = wasmRecord = { url, response, needCopy, decide, copy: null };
}

// Pyodide's request for `url`: the early request if it is the one for that address (once;
// then null, as for every other address).
export function takeEarlyWasm(url) {
  if (!(wasmEarly && url === wasmEarly.url)) return null;
  const early = wasmEarly;
  wasmEarly = null;
  return early;
}

// The first decision counts (a settled promise stays settled): without a decision Pyodide
// would wait for the wasm for ever, so every way through snapshotBytes ends with one.
export function decideWasmCopy(needed) {
  if (wasmRecord) wasmRecord.decide(needed);
}

// The wasm's bytes, to put its data segments back into a downloaded snapshot
// (snapshot-codec.js). Online read from a clone of the early response, made before Pyodide
// gets the original for its streaming compile.
export function wasmBytes() {
  if (OFFLINE) {
    if (!hasPart("wasm")) {
      return Promise.reject(new AssetError("pyodide.asm.wasm fehlt in der Offline-Version"));
    }
    return offlinePart("wasm");
  }
  const early = wasmRecord;
  if (!early.copy) {
    early.copy = early.response.then((response) => response.clone());
    early.copy.catch(() => {});
  }
  early.decide(true);
  return early.copy.then(
    async (copy) => {
      if (!copy.ok) throw new AssetError(`${WASM_GZ} nicht ladbar (HTTP ${copy.status})`);
      try {
        return new Uint8Array(await copy.arrayBuffer());
      } catch (error) {
        // the inflating's own error (wasmResponse), or the stream's
        throw error instanceof AssetError ? error : new AssetError(`${WASM_GZ} nicht ladbar`);
      }
    },
    (error) => {
      throw error instanceof AssetError
        ? error
        : new AssetError(`${WASM_GZ} nicht ladbar (${describe(error)})`);
    },
  );
}
