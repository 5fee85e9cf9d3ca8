// Covers players/sdp.js (issue #45, deliverable 1: the live table without a server): a
// browser's data-channel SDP packed to its essentials – ice-ufrag, ice-pwd, the SHA-256
// fingerprint, the DTLS role, UDP host candidates (mDNS, IPv4, IPv6) – small enough for a QR
// code beside the picture, and a full SDP rebuilt from them; hostile codes give a German
// problem and never throw. The sizes are printed by scripts/benchmark_live_table.py.

import assert from "node:assert/strict";
import { test } from "node:test";

import { fromBase42 } from "../../site_plugins/assets/js/players/base42.js";
import { toBase64url } from "../../site_plugins/assets/js/players/link.js";
import { candidateOf, essentialsOf, pack, sdpOf, unpack } from "../../site_plugins/assets/js/players/sdp.js";

// Chromium 156's offer for one data channel (iceServers: [], two mDNS host candidates)
export const OFFER = [
  "v=0",
  "o=- 2536931645562639666 2 IN IP4 127.0.0.1",
  "s=-",
  "t=0 0",
  "a=group:BUNDLE 0",
  "a=extmap-allow-mixed",
  "a=msid-semantic: WMS",
  "m=application 9 UDP/DTLS/SCTP webrtc-datachannel",
  "c=IN IP4 0.0.0.0",
  "a=candidate:2108323390 1 udp 2113937151 49f91ce6-fff6-4754-91a3-7bc111999250.local 56177 typ host generation 0 network-cost 999",
  "a=candidate:3066869726 1 udp 2113942271 eeac8e6b-4845-46e7-86d7-d45387e18394.local 58582 typ host generation 0 network-cost 999",
  "a=candidate:1 1 tcp 1518280447 192.168.1.20 9 typ host tcptype active",
  "a=ice-ufrag:wwNT",
  "a=ice-pwd:DzrQBdoj9NqRd6l9fGrEx3nm",
  "a=ice-options:trickle",
  "a=fingerprint:sha-256 FC:5A:33:F7:19:B8:D8:B1:B5:C8:A4:EB:A8:F0:5B:C9:6B:24:EB:0B:56:72:CF:BA:CD:C7:4E:ED:38:4E:E8:3B",
  "a=setup:actpass",
  "a=mid:0",
  "a=sctp-port:5000",
  "a=max-message-size:262144",
  "",
].join("\r\n");


test("an offer keeps what the other side needs, and nothing of TCP", () => {
  const e = essentialsOf(OFFER);
  assert.equal(e.ufrag, "wwNT");
  assert.equal(e.pwd, "DzrQBdoj9NqRd6l9fGrEx3nm");
  assert.equal(e.role, "actpass");
  assert.equal(e.fingerprint.length, 32);
  assert.deepEqual(e.candidates.map((c) => [c.kind, c.port]), [["mdns", 56177], ["mdns", 58582]]);
  const back = unpack(pack("offer", e), "offer");
  assert.deepEqual(back, { kind: "offer", id: "wwNT", ...e });
});

test("the rebuilt SDP has the same credentials, fingerprint, role and candidates", () => {
  const e = essentialsOf(OFFER);
  const sdp = sdpOf(unpack(pack("offer", e), "offer"));
  const again = essentialsOf(sdp);
  assert.deepEqual(again, e);
  assert.match(sdp, /49f91ce6-fff6-4754-91a3-7bc111999250\.local 56177 typ host/);
  assert.match(sdp, /^m=application 9 UDP\/DTLS\/SCTP webrtc-datachannel$/m);
  assert.ok(sdp.endsWith("\r\n"));
});

test("IPv4 and IPv6 host candidates round-trip", () => {
  for (const address of ["192.168.178.23", "fe80::1c2d:3e4f:5a6b:7c8d", "2001:db8::1", "::1"]) {
    const c = candidateOf(`a=candidate:1 1 udp 2113937151 ${address} 50000 typ host generation 0`);
    assert.ok(c, address);
    const e = { ...essentialsOf(OFFER), candidates: [c] };
    const answer = unpack(pack("answer", { ...e, role: "active" }, "Ab+/"), "answer");
    assert.equal(answer.id, "Ab+/");
    const sdp = sdpOf(answer);
    assert.deepEqual(essentialsOf(sdp).candidates, [c], address);
  }
  assert.equal(candidateOf("a=candidate:1 1 udp 1 203.0.113.9 5000 typ srflx raddr 0.0.0.0 rport 0"), null);
  assert.equal(candidateOf("a=candidate:1 1 udp 1 300.1.1.1 5000 typ host"), null);
});

test("an offer is small: 88 characters a QR code stores in alphanumeric mode, 28.5 more per mDNS candidate", () => {
  const e = essentialsOf(OFFER);
  const bare = pack("offer", { ...e, candidates: [] });
  const full = pack("offer", e);
  assert.equal(bare.length, 88);
  assert.equal(full.length, 88 + 57); // two mDNS candidates: 2 × 19 bytes, 3 characters for 2
  // 11 bits for two characters: 145 characters take 798 bits of a code, version 1's 129
  // characters of base64url in byte mode took 1,032
  assert.match(full, /^[0-9A-Z$%*+./: -]+$/);
  assert.deepEqual(unpack(bare, "offer").candidates, []);
});

test("an offer or answer of version 1 (base64url, kept by a phone before an update) still reads", () => {
  const e = essentialsOf(OFFER);
  const now = unpack(pack("answer", { ...e, role: "active" }, "wwNT"), "answer");
  const bytes = fromBase42(pack("answer", { ...e, role: "active" }, "wwNT").slice(2));
  const older = unpack(`1.${toBase64url(bytes)}`, "answer");
  assert.deepEqual(older, now);
  assert.match(unpack("3.ABC", "answer").problem, /Version 3/);
});

test("ICE strings of any length and every ICE character survive the 6-bit packing", () => {
  const e = essentialsOf(OFFER);
  for (const [ufrag, pwd] of [["abcd", "A".repeat(22)], ["+/+/x", "z9+/".repeat(8)], ["0123456789abcdef", "Q".repeat(64)]]) {
    const back = unpack(pack("offer", { ...e, ufrag, pwd }), "offer");
    assert.equal(back.ufrag, ufrag);
    assert.equal(back.pwd, pwd);
  }
});

test("hostile or foreign codes give a German problem, never an exception", () => {
  const e = essentialsOf(OFFER);
  const offer = pack("offer", e);
  const answer = pack("answer", { ...e, role: "active" }, "wwNT");
  const cases = [
    ["", "offer"],
    ["1.", "offer"],
    ["9.AAAA", "offer"],
    ["1.%%%", "offer"],
    ["1." + "A".repeat(401), "offer"],
    [offer, "answer"], // the game master's code held to the game master's camera
    [answer, "offer"],
    [offer.slice(0, -4), "offer"], // cut short
    [offer + "AAAA", "offer"], // too long
    [pack("offer", { ...e, role: "active" }), "offer"],
    [pack("offer", { ...e, pwd: "short" }), "offer"],
    [null, "answer"],
  ];
  for (const [text, kind] of cases) {
    const out = unpack(text, kind);
    assert.ok(out.problem, String(text));
    assert.match(out.problem, /Live-Verbindung|Antwort-Code|Code der Spielleitung|Version/);
  }
  assert.ok(essentialsOf("v=0\r\n").problem);
  assert.ok(essentialsOf(OFFER.replace("sha-256", "sha-1")).problem);
});
