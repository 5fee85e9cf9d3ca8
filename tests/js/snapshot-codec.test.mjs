// Covers snapshot-codec.js: the shipped snapshot is Pyodide's with the wasm's active data
// segments XOR-ed out of its memory (after the header, whose second word is its length);
// the same function puts them back, passive segments and the header are left alone, and a
// wasm it cannot read fails loudly instead of giving a broken snapshot.
// Rules: issue 29 (deliverable 2: a smaller snapshot, the load-back check kept),
// snapshot-codec.js's header.

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  dataSegments,
  unsparse,
  xorWasmData,
} from "../../site_plugins/laufzeit/js/snapshot-codec.js";

// A wasm with only a data section: an active segment at 3 (flags 0), a passive one (flags 1)
// and an active one with an explicit memory index at 200 (flags 2, offset as signed LEB128).
function wasmWithData() {
  const body = [
    3, // three segments
    0, 0x41, 3, 0x0b, 4, 1, 2, 3, 4,
    1, 2, 9, 9,
    2, 0, 0x41, 0xc8, 0x01, 0x0b, 2, 0xff, 0x80,
  ];
  return new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 11, body.length, ...body]);
}

function snapshotWith(header, memory) {
  const bytes = new Uint8Array(header + memory.length);
  new DataView(bytes.buffer).setUint32(4, header, true);
  bytes.fill(7, 8, header); // stands for the header's JSON: never touched
  bytes.set(memory, header);
  return bytes;
}

test("the active segments are found where the wasm puts them in memory", () => {
  const wasm = wasmWithData();
  const segments = dataSegments(wasm).map(({ memory, start, length }) => [
    memory,
    [...wasm.subarray(start, start + length)],
  ]);
  assert.deepEqual(segments, [
    [3, [1, 2, 3, 4]],
    [200, [0xff, 0x80]],
  ]);
});

test("memory equal to the wasm's data becomes zeros, and comes back unchanged", () => {
  const memory = new Uint8Array(256);
  memory.set([1, 2, 3, 5], 3); // the program changed the fourth byte
  memory.set([0xff, 0x80], 200);
  memory[100] = 42; // the heap: no segment there
  const original = snapshotWith(16, memory);
  const shipped = xorWasmData(original.slice(), wasmWithData());
  assert.deepEqual([...shipped.subarray(16 + 3, 16 + 7)], [0, 0, 0, 5 ^ 4]);
  assert.deepEqual([...shipped.subarray(16 + 200, 16 + 202)], [0, 0]);
  assert.equal(shipped[16 + 100], 42);
  assert.deepEqual(shipped.subarray(0, 16), original.subarray(0, 16));
  assert.deepEqual(xorWasmData(shipped, wasmWithData()), original);
});

test("a snapshot too small for the wasm's data, or no wasm at all, fails loudly", () => {
  assert.throws(() => xorWasmData(snapshotWith(16, new Uint8Array(100)), wasmWithData()), /zu klein/);
  assert.throws(() => dataSegments(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])), /keine WebAssembly/);
  const noData = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
  assert.throws(() => dataSegments(noData), /keine Datensegmente/);
});

test("the XOR is the same at every alignment of memory and wasm", () => {
  // four bytes at a time where the memory is aligned: every offset of the segment in memory
  // (header 16 + 3 + shift) against the wasm's (odd) position gives the byte loop's result
  for (let shift = 0; shift < 8; shift++) {
    const memory = new Uint8Array(300);
    for (let i = 0; i < memory.length; i++) memory[i] = (i * 37 + shift) & 0xff;
    const original = snapshotWith(16 + shift, memory);
    const shipped = xorWasmData(original.slice(), wasmWithData());
    const expected = original.slice();
    for (const [at, bytes] of [[3, [1, 2, 3, 4]], [200, [0xff, 0x80]]]) {
      bytes.forEach((byte, i) => (expected[16 + shift + at + i] ^= byte));
    }
    assert.deepEqual(shipped, expected, `shift ${shift}`);
  }
});

test("the export's snapshot: its non-zero runs go back where the layout says", () => {
  const layout = { length: 20, runs: [[0, 4], [12, 6]] };
  const payload = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  assert.deepEqual(
    [...unsparse(payload, layout)],
    [1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 5, 6, 7, 8, 9, 10, 0, 0],
  );
  // a payload that does not fit its layout fails loudly, never a half-filled snapshot
  assert.throws(() => unsparse(payload.subarray(0, 9), layout), /passt nicht/);
  assert.throws(() => unsparse(new Uint8Array(11), layout), /passt nicht/);
  assert.throws(() => unsparse(payload, { length: 16, runs: layout.runs }), /passt nicht/);
});
