// Regelwerk – worker-snapshot.js: the engine snapshot's bytes for the engine worker's boot.
//
// Owns: the snapshot to restore (snapshotBytes: the copy kept in OPFS, else the download,
// inflated, with the wasm's data segments put back – snapshot-codec.js; offline the part,
// decoded in worker-parts.js) and that copy: kept after a boot from a download, forgotten
// when the boot rejects it ("the inflated snapshot, kept" below).

import { OFFLINE, describe } from "./worker-common.js";
import { ourFile } from "./worker-fetch.js";
import { step } from "./worker-steps.js";
import { decideWasmCopy, wasmBytes } from "./worker-wasm.js";
import { xorWasmData } from "./snapshot-codec.js";

// ------------------------------------------------------------------ the inflated snapshot, kept
// Online the snapshot arrives gzip-compressed (4.6 MB) and inflates to 31.5 MB: about 0.3 s
// of this worker's time on a PC (more on a phone) on every page load that boots. After a
// boot from a downloaded snapshot its inflated bytes are kept in the origin's private file
// system (OPFS), named like the snapshot – the name changes with the engine, Pyodide and the
// maker, so a stale copy is never used, and older copies are removed when a new one is kept.
// The next page load reads them back with a synchronous file handle (a few milliseconds;
// Cache Storage took as long as inflating). A copy is written under a temporary name and
// renamed when complete, so a half-written one is never read; one that the boot rejects is
// removed. Nothing here is essential: without OPFS (plain http, a full disk, another tab
// holding the file) the snapshot is downloaded and inflated as before.
const KEPT_FOLDER = "regelwerk-schnellstart";
// kept this long after "ready" (worker.js)
export const KEEP_AFTER_MS = 3000;

function snapshotName(config) {
  return OFFLINE ? "snapshot" : `engine-${config.key}.snap`;
}

async function keptFolder() {
  if (OFFLINE || !self.navigator || !navigator.storage || !navigator.storage.getDirectory) {
    return null;
  }
  const root = await navigator.storage.getDirectory();
  return root.getDirectoryHandle(KEPT_FOLDER, { create: true });
}

async function keptSnapshot(config) {
  let access = null;
  try {
    const folder = await keptFolder();
    if (!folder) return null;
    const file = await folder.getFileHandle(snapshotName(config));
    access = await file.createSyncAccessHandle();
    const bytes = new Uint8Array(access.getSize());
    return access.read(bytes, { at: 0 }) === bytes.length && bytes.length > 0 ? bytes : null;
  } catch (error) {
    return null; // none kept yet (NotFoundError), or not readable now: download it
  } finally {
    if (access) access.close();
  }
}

export async function keepSnapshot(config, bytes) {
  let access = null;
  try {
    const folder = await keptFolder();
    if (!folder) return;
    const name = snapshotName(config);
    const partial = `${name}.teil`;
    const file = await folder.getFileHandle(partial, { create: true });
    access = await file.createSyncAccessHandle();
    access.truncate(0);
    if (access.write(bytes, { at: 0 }) !== bytes.length) throw new Error("unvollständig");
    access.flush();
    access.close();
    access = null;
    const others = [];
    for await (const entry of folder.keys()) if (entry !== partial) others.push(entry);
    for (const entry of others) await folder.removeEntry(entry);
    await file.move(name);
  } catch (error) {
    console.warn("[regelwerk]", `Schnellstart-Abbild nicht gespeichert (${describe(error)})`);
  } finally {
    if (access) access.close();
  }
}

export async function forgetSnapshot(config) {
  try {
    const folder = await keptFolder();
    if (folder) await folder.removeEntry(snapshotName(config));
  } catch (error) {
    // nothing kept, nothing to forget
  }
}

// ------------------------------------------------------------------ the snapshot for the boot

// {bytes, kept}: the kept copy if there is one (kept decoded), else the download, inflated
// and with the wasm's data segments put back (snapshot-codec.js)
export async function snapshotBytes(config) {
  try {
    const kept = await keptSnapshot(config);
    if (kept) return { bytes: kept, kept: true };
    const wasm = wasmBytes().then((bytes) => {
      step("wasm");
      return bytes;
    });
    wasm.catch(() => {}); // awaited below, unless the download failed first
    const shipped = await ourFile(config, snapshotName(config));
    return { bytes: xorWasmData(shipped, await wasm), kept: false };
  } finally {
    decideWasmCopy(false); // kept, or failed: Pyodide gets the response as it is
  }
}
