// Covers protocol.js: the messages between the page and the engine worker – every message
// constructor builds exactly the shape the header of protocol.js documents, endsBoot tells
// which worker messages end the boot, runtimeKey reads the build's <meta> from a given
// document (a stand-in with querySelector – the function takes the document as a parameter).

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  MESSAGE,
  bootMessage,
  endsBoot,
  failedMessage,
  noticeMessage,
  readyMessage,
  resultMessage,
  runMessage,
  runtimeKey,
} from "../../site_plugins/laufzeit/js/protocol.js";

test("protocol.js: the message types are the documented ones and cannot be changed", () => {
  assert.deepEqual({ ...MESSAGE }, {
    PART: "part",
    BOOT: "boot",
    RUN: "run",
    NOTICE: "notice",
    READY: "ready",
    FAILED: "failed",
    RESULT: "result",
  });
  assert.equal(Object.isFrozen(MESSAGE), true);
});

test("protocol.js: boot asks for the memory snapshot first and sends the base URL as text (protocol.js header: page → worker „boot“)", () => {
  const base = new URL("https://example.org/assets/regelwerk/");
  const message = bootMessage(base, "abc123def");
  assert.deepEqual(message, {
    type: "boot",
    base: "https://example.org/assets/regelwerk/",
    key: "abc123def",
    snapshot: true,
  });
  assert.equal(typeof message.base, "string"); // a URL object cannot be posted to a worker
});

test("protocol.js: run carries the id and the request unchanged (protocol.js header: page → worker „run“)", () => {
  const request = { system: "ryssea", action: "attack", params: { eig1: "14" }, seed: 4242 };
  assert.deepEqual(runMessage(7, request), { type: "run", id: 7, request });
  assert.equal(runMessage(7, request).request, request);
});

test("protocol.js: the worker's answers have the documented shapes (notice, ready, failed, result)", () => {
  assert.deepEqual(noticeMessage("Schnellstart nicht nutzbar"), { type: "notice", text: "Schnellstart nicht nutzbar" });
  assert.deepEqual(readyMessage(1234, "snapshot", 1, { pyodide: 900 }), {
    type: "ready",
    ms: 1234,
    mode: "snapshot",
    kept: true,
    steps: { pyodide: 900 },
  });
  assert.deepEqual(readyMessage(2500, "plain"), {
    type: "ready",
    ms: 2500,
    mode: "plain",
    kept: false,
    steps: {},
  });
  assert.deepEqual(failedMessage("engine-x.zip fehlt"), { type: "failed", message: "engine-x.zip fehlt" });
  assert.deepEqual(resultMessage(7, '{"ok": true}'), { type: "result", id: 7, body: '{"ok": true}' });
});

test("protocol.js: endsBoot is true for „ready“ and „failed“ only (a notice or a result does not end the boot)", () => {
  assert.equal(endsBoot(readyMessage(1, "plain", false)), true);
  assert.equal(endsBoot(failedMessage("kaputt")), true);
  assert.equal(endsBoot(noticeMessage("Hinweis")), false);
  assert.equal(endsBoot(resultMessage(1, "{}")), false);
  assert.equal(endsBoot(runMessage(1, {})), false);
  assert.equal(endsBoot({ type: "part", name: "x", index: 0, text: "" }), false);
  for (const nothing of [null, undefined, {}, "ready"]) assert.equal(endsBoot(nothing), false, String(nothing));
});

test("protocol.js: runtimeKey reads <meta name=\"regelwerk-engine\"> of the given document, \"\" without one", () => {
  const page = (meta) => ({
    querySelector(selector) {
      assert.equal(selector, 'meta[name="regelwerk-engine"]');
      return meta;
    },
  });
  assert.equal(runtimeKey(page({ content: "0123456789abcdef" })), "0123456789abcdef");
  assert.equal(runtimeKey(page(null)), "");
});
