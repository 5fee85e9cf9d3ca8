// Regelwerk – worker-common.js: what every part of the engine worker (worker.js) shares.
//
// Owns: which door the worker runs behind (OFFLINE: the offline export's runtime, or null
// online), the names of Pyodide's essential files (a boot without one of them cannot succeed,
// snapshot or plain), the error that names a file (AssetError) and how an error is told in a
// message (describe).

export const OFFLINE = self.RegelwerkOfflineRuntime || null;
// Pyodide's own files; the standard library is one of the archives the build cut from its
// python_stdlib.zip (site_plugins/laufzeit/snapshot.py): python_stdlib-<key>.zip for the snapshot
// boot, python_stdlib-plain-<key>.zip for the plain boot (offline: python_stdlib.zip, the
// plain one, for both). Online the wasm comes as pyodide.asm.wasm.gz (see wasmResponse in
// worker-wasm.js).
const ESSENTIAL =
  /^(pyodide\.asm\.wasm(\.gz)?|pyodide-lock\.json|python_stdlib(-plain)?(-[0-9a-f]+)?\.zip)$/;
export const WASM = "pyodide.asm.wasm";
export const WASM_GZ = `${WASM}.gz`;

export function isEssential(name) {
  return ESSENTIAL.test(name);
}

// A file the boot needs could not be had; the message begins with the file's name.
export class AssetError extends Error {}

export function fileName(url) {
  return String(url).split(/[?#]/)[0].split("/").pop();
}

export function describe(error) {
  return String(error && error.message ? error.message : error);
}
