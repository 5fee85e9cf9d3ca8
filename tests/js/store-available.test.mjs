// Covers store.js's available(): whether this browser can keep anything for the next visit
// (no when storage is blocked, missing or refuses writes – some private modes), asked once
// per visit, and the probe leaves nothing behind. Each case imports a fresh copy of store.js
// (a query string makes a new module instance), because the answer is kept for the visit.

import assert from "node:assert/strict";
import { test } from "node:test";

import { blockStorage, noStorage, useStorage } from "./support/storage.mjs";

let copies = 0;
function freshStore() {
  copies += 1;
  return import(`../../site_plugins/assets/js/common/store.js?visit=${copies}`);
}

test("store.js: available() is true where the browser keeps what is written, and the probe leaves nothing behind", async () => {
  const store = await freshStore();
  const box = useStorage({ "regelwerk:werte": "{}" });
  assert.equal(store.available(), true);
  assert.deepEqual(box.dump(), { "regelwerk:werte": "{}" });
});

for (const [how, setUp] of [
  ["blocked (the getter throws)", () => blockStorage()],
  ["missing (null)", () => noStorage()],
  ["refusing every write (full, or a private mode)", () => useStorage({}, { refuse: true })],
]) {
  test(`store.js: available() is false where storage is ${how}`, async () => {
    const store = await freshStore();
    setUp();
    assert.equal(store.available(), false);
  });
}

test("store.js: available() asks the browser once per visit", async () => {
  const store = await freshStore();
  const box = useStorage();
  let writes = 0;
  const setItem = box.setItem.bind(box);
  box.setItem = (key, value) => {
    writes += 1;
    setItem(key, value);
  };
  assert.equal(store.available(), true);
  assert.equal(store.available(), true);
  assert.equal(writes, 1);
});
