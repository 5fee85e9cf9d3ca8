// Regelwerk – worker-bytes.js: the engine worker's bytes of a file, decoded.
//
// Owns: base64 (the offline export's parts arrive as base64 text) and gzip (our files and,
// offline, every runtime file may come compressed): whether bytes are gzip, inflating them in
// full, and InflateError when that is not possible.

import { describe } from "./worker-common.js";

export function decodeBase64(chunks) {
  const text = chunks.join("");
  if (typeof Uint8Array.fromBase64 === "function") return Uint8Array.fromBase64(text);
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function isGzip(bytes) {
  return bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

// Inflating failed (no DecompressionStream in this browser, or the bytes were unreadable):
// offline every file needs it, so the plain boot could not succeed either.
export class InflateError extends Error {}

// Read through a Response's body, not a Blob's stream: WebKit refuses to read a Blob built
// from bytes in a worker started from file:// („NotReadableError: The I/O read operation
// failed.“). Inflated in full here, so that a failure surfaces as this boot's error – a
// stream handed to Pyodide that failed later left it waiting for ever.
export async function gunzip(bytes) {
  if (typeof DecompressionStream !== "function") {
    throw new InflateError("dieser Browser kann nicht entpacken (DecompressionStream fehlt)");
  }
  try {
    const stream = new Response(bytes).body.pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  } catch (error) {
    throw new InflateError(`Entpacken fehlgeschlagen (${describe(error)})`);
  }
}
