// Regelwerk – worker-fetch.js: how the engine worker's boot gets its files.
//
// Owns: our own files (ourFile: the snapshot, the engine archive – online from the site,
// offline from the parts) and Pyodide's (watchFetch: its fetch, online from the site with the
// wasm from worker-wasm.js, offline from the parts by offlineFetch in worker-parts.js), where
// a failure of an essential file ends the boot at once.

import {
  AssetError,
  OFFLINE,
  WASM,
  WASM_GZ,
  describe,
  fileName,
  isEssential,
} from "./worker-common.js";
import { gunzip, isGzip } from "./worker-bytes.js";
import { hasPart, offlineFetch, offlinePart } from "./worker-parts.js";
import { fetchWasm, networkFetch, takeEarlyWasm } from "./worker-wasm.js";

// A file of ours (snapshot, engine archive), gzip-compressed or not: a server may already
// have undone the compression.
export async function ourFile(config, name) {
  let bytes;
  if (OFFLINE) {
    if (!hasPart(name)) throw new AssetError(`${name} fehlt in der Offline-Version`);
    return offlinePart(name);
  } else {
    const url = new URL(name, config.base).href;
    const response = await fetch(url);
    if (!response.ok) throw new AssetError(`${fileName(url)}: HTTP ${response.status}`);
    bytes = new Uint8Array(await response.arrayBuffer());
  }
  return isGzip(bytes) ? gunzip(bytes) : bytes;
}

// Pyodide fetches its own files. Offline they come from the parts (a virtual address that
// can reach no network); online from the site. Either way a failure of an essential file
// ends the boot at once (Pyodide itself would wait for ever or blame something else).
// Online the wasm requested at the start of the boot (requestWasmEarly, worker-wasm.js) is
// the response Pyodide gets for it.
export function watchFetch(onFailure) {
  const original = OFFLINE ? offlineFetch : networkFetch;
  self.fetch = async function (input, init) {
    const url = String(input && input.url !== undefined ? input.url : input);
    const isWasm = !OFFLINE && fileName(url) === WASM;
    const name = isWasm ? WASM_GZ : fileName(url);
    const essential = isEssential(name);
    let response;
    try {
      const early = takeEarlyWasm(url);
      if (early) {
        response = await early.response;
        if (await early.needCopy) await early.copy.catch(() => {});
      } else if (isWasm) {
        response = await fetchWasm(url, onFailure); // again (the plain boot after a failure)
      } else {
        response = await original(input, init);
      }
    } catch (error) {
      if (essential) onFailure(new AssetError(`${name} nicht ladbar (${describe(error)})`));
      throw error;
    }
    if (essential && !response.ok) {
      onFailure(new AssetError(`${name} nicht ladbar (HTTP ${response.status})`));
    }
    return response;
  };
}
