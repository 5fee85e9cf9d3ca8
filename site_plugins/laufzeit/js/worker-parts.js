// Regelwerk – worker-parts.js: the runtime files of the offline export, in the engine worker.
//
// Owns: the parts the page hands over before "boot" (base64 chunks by postMessage, see
// protocol.js "part"), each part's bytes decoded once and as early as possible (the wasm also
// compiled early, the snapshot put together from its pages), and the fetch that serves
// Pyodide its own files from them (offlineFetch: Pyodide's virtual address, no network).
// Online no part arrives and nothing here runs.

import { OFFLINE, fileName } from "./worker-common.js";
import { decodeBase64, gunzip, isGzip } from "./worker-bytes.js";
import { unsparse } from "./snapshot-codec.js";

const parts = new Map(); // name → base64 chunks
const counts = new Map(); // part → how many chunks it has (each "part" message says)

// A "part" message: one chunk of a part (protocol.js).
export function receivePart(message) {
  if (!parts.has(message.name)) parts.set(message.name, []);
  parts.get(message.name)[message.index] = message.text;
  counts.set(message.name, message.count);
  decodeWhenComplete();
}

export function hasPart(name) {
  return parts.has(name);
}

// offline: a part's bytes (inflated if gzip), once: the wasm serves Pyodide and the
// snapshot's decoding. The wasm and the snapshot are decoded as soon as their last chunk
// arrives (decodeWhenComplete): while the page still hands over the other parts. The snapshot
// comes as its non-zero pages, gzipped, with their layout (SNAPSHOT_LAYOUT, unsparse).
const inflated = new Map();
const EARLY_PARTS = ["wasm", "snapshot"];
const SNAPSHOT_LAYOUT = "snapshotLayout";

export function offlinePart(part) {
  if (!inflated.has(part)) {
    const result = decodedPart(part);
    if (part === "wasm") compileEarly(result);
    result.catch(() => {}); // reported where the boot awaits it
    inflated.set(part, result);
  }
  return inflated.get(part);
}

// Decoded synchronously up to the inflating (an async function runs until its first await).
async function decodedPart(part) {
  const bytes = decodeBase64(parts.get(part));
  const plain = isGzip(bytes) ? await gunzip(bytes) : bytes;
  if (part !== "snapshot") return plain;
  if (!parts.has(SNAPSHOT_LAYOUT)) throw new Error("Seitenliste des Abbilds fehlt");
  return unsparse(plain, JSON.parse(parts.get(SNAPSHOT_LAYOUT).join("")));
}

// offline: the wasm is compiled as soon as it is inflated – by the browser's own threads,
// while this one decodes the snapshot – and Pyodide's instantiateStreaming gets that module
// for the response offlineFetch made of it (≈ 0.1 s of compiling off the boot's path).
// Pyodide 314.0.7 (pyodide.mjs, getInstantiateWasmFunc) calls
// WebAssembly.instantiateStreaming(response, imports) with the response of its fetch; any
// other call goes to the browser's own function unchanged. A wasm that does not compile
// fails there, as before (watchWasmCompile in worker-wasm.js).
const compiledFor = new WeakMap(); // the wasm's Response → its compiled module (a promise)
let compiledWasm = null;

function compileEarly(bytes) {
  if (compiledWasm || typeof WebAssembly.compile !== "function") return;
  compiledWasm = bytes.then((wasm) => WebAssembly.compile(wasm));
  compiledWasm.catch(() => {}); // reported where Pyodide instantiates it
  const instantiateStreaming = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = async function (source, imports) {
    const response = await source;
    const compiled = response && compiledFor.get(response);
    if (!compiled) return instantiateStreaming.call(WebAssembly, response, imports);
    const module = await compiled;
    return { module, instance: await WebAssembly.instantiate(module, imports) };
  };
}

function complete(part) {
  const chunks = parts.get(part);
  const count = counts.get(part);
  if (!chunks || chunks.length !== count) return false;
  for (let i = 0; i < count; i++) if (typeof chunks[i] !== "string") return false;
  return true;
}

// The chunks arrive in the order their scripts load: the snapshot is put together once its
// layout is here too.
function decodeWhenComplete() {
  for (const part of EARLY_PARTS) {
    if (inflated.has(part) || !complete(part)) continue;
    if (part === "snapshot" && !complete(SNAPSHOT_LAYOUT)) continue;
    offlinePart(part);
  }
}

// Pyodide's fetch offline (through watchFetch, worker-fetch.js): its wasm and standard
// library from the parts, anything else refused.
export async function offlineFetch(input) {
  const url = String(input && input.url !== undefined ? input.url : input);
  const types = { "pyodide.asm.wasm": "application/wasm", "python_stdlib.zip": "application/zip" };
  const part = { "pyodide.asm.wasm": "wasm", "python_stdlib.zip": "stdlib" }[fileName(url)];
  if (url.startsWith(OFFLINE.virtualIndex) && part && parts.has(part)) {
    const body = await offlinePart(part);
    const headers = { "Content-Type": types[fileName(url)] };
    const response = new Response(body, { headers });
    if (part === "wasm" && compiledWasm) compiledFor.set(response, compiledWasm);
    return response;
  }
  throw new TypeError(`Offline-Version: kein Netzwerkzugriff (${url})`);
}
