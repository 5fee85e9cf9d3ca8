// The engine snapshot as the site ships it: Pyodide's memory snapshot with the wasm's own
// initial memory taken out.
//
// About 3.2 MB of a snapshot's memory are the static data that pyodide.asm.wasm brings along
// (its active data segments, copied into memory when the module starts) and that Python
// mostly leaves as it was. Every reader downloads the wasm anyway, so the build
// (site_plugins/laufzeit/make_snapshot.mjs) XORs those bytes out of the snapshot – where nothing
// changed there are zeros, which gzip takes to almost nothing (the compressed snapshot:
// 6.0 → 4.6 MB) – and the worker (worker.js) XORs them back in from the wasm it has before
// it hands the snapshot to Pyodide. XOR is its own inverse: one function does both.
//
// Layout (Pyodide 314.0.7, pyodide.asm.mjs makeSnapshot/restoreSnapshot): a header whose
// second 32-bit word is its length, then the memory. The data segments are read from the
// wasm's data section (id 11): "active" segments (flags 0, or 2 with a memory index) with an
// i32.const offset. Anything else fails loudly; the build's load-back check proves the rest.

export const SNAPSHOT_CODEC = "wasm-data-xor-1";

const DATA_SECTION = 11;
const I32_CONST = 0x41;
const END = 0x0b;

class Reader {
  constructor(bytes, at) {
    this.bytes = bytes;
    this.at = at;
  }

  byte() {
    if (this.at >= this.bytes.length) throw new Error("wasm: unerwartetes Ende");
    return this.bytes[this.at++];
  }

  unsigned() {
    let result = 0;
    let shift = 0;
    for (;;) {
      const byte = this.byte();
      result += (byte & 0x7f) * 2 ** shift;
      shift += 7;
      if (!(byte & 0x80)) return result;
    }
  }

  signed32() {
    let result = 0;
    let shift = 0;
    let byte;
    do {
      byte = this.byte();
      result |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte & 0x80);
    if (shift < 32 && byte & 0x40) result |= -1 << shift;
    return result >>> 0;
  }
}

// [{memory: offset in memory, start: offset in the wasm, length}] of every active segment
export function dataSegments(wasm) {
  const bytes = wasm instanceof Uint8Array ? wasm : new Uint8Array(wasm);
  if (bytes[0] !== 0 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) {
    throw new Error("wasm: keine WebAssembly-Datei");
  }
  const reader = new Reader(bytes, 8);
  const segments = [];
  while (reader.at < bytes.length) {
    const id = reader.byte();
    const size = reader.unsigned();
    const end = reader.at + size;
    if (id === DATA_SECTION) {
      const count = reader.unsigned();
      for (let i = 0; i < count; i++) {
        const flags = reader.unsigned();
        if (flags === 1) {
          const length = reader.unsigned(); // passive: copied by code, not at start
          reader.at += length;
          continue;
        }
        if (flags === 2 && reader.unsigned() !== 0) throw new Error("wasm: zweiter Speicher");
        if (flags !== 0 && flags !== 2) throw new Error(`wasm: Datensegment-Art ${flags}`);
        if (reader.byte() !== I32_CONST) throw new Error("wasm: Segment ohne feste Adresse");
        const memory = reader.signed32();
        if (reader.byte() !== END) throw new Error("wasm: Segment-Adresse unerwartet");
        const length = reader.unsigned();
        segments.push({ memory, start: reader.at, length });
        reader.at += length;
      }
    }
    reader.at = end;
  }
  if (!segments.length) throw new Error("wasm: keine Datensegmente gefunden");
  return segments;
}

// target ^= source, byte for byte (equal lengths): four bytes at a time where the target is
// aligned (the source copied to an aligned buffer first) – a byte loop over the 3.2 MB took
// the worker ≈ 50 ms on every boot from a downloaded snapshot
function xorBytes(target, source) {
  let i = 0;
  while (i < target.length && (target.byteOffset + i) % 4 !== 0) {
    target[i] ^= source[i];
    i++;
  }
  const count = (target.length - i) >> 2;
  if (count > 0) {
    const words = new Uint32Array(target.buffer, target.byteOffset + i, count);
    const aligned = new Uint8Array(count * 4);
    aligned.set(source.subarray(i, i + count * 4));
    const other = new Uint32Array(aligned.buffer);
    for (let k = 0; k < count; k++) words[k] ^= other[k];
    i += count * 4;
  }
  for (; i < target.length; i++) target[i] ^= source[i];
}

// XOR the wasm's data segments into (or out of) the snapshot's memory, in place
export function xorWasmData(snapshot, wasm) {
  const bytes = wasm instanceof Uint8Array ? wasm : new Uint8Array(wasm);
  const words = new DataView(snapshot.buffer, snapshot.byteOffset, snapshot.byteLength);
  const memory = snapshot.subarray(words.getUint32(4, true));
  for (const { memory: at, start, length } of dataSegments(bytes)) {
    if (at + length > memory.length) throw new Error("Schnellstart-Abbild: zu klein für das wasm");
    xorBytes(memory.subarray(at, at + length), bytes.subarray(start, start + length));
  }
  return snapshot;
}

// The offline export ships the snapshot as its pages that are not all zeros (gzipped;
// site_plugins/offline/plugin.py, sparse_snapshot): `payload` holds them back to back (inflated),
// `layout` says how long the snapshot is and where each run of them goes ({length, runs:
// [[offset, length], …]}). Putting them back is a few copies; the zeros are never inflated.
export function unsparse(payload, layout) {
  const memory = new Uint8Array(layout.length);
  let at = 0;
  for (const [offset, length] of layout.runs) {
    if (offset + length > memory.length || at + length > payload.length) {
      throw new Error("Schnellstart-Abbild: Seitenliste passt nicht zum Inhalt");
    }
    memory.set(payload.subarray(at, at + length), offset);
    at += length;
  }
  if (at !== payload.length) throw new Error("Schnellstart-Abbild: Seitenliste passt nicht zum Inhalt");
  return memory;
}
