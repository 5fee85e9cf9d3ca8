// Regelwerk – players/sdp.js: a WebRTC offer or answer packed small enough for a QR code, and
// the full SDP rebuilt from it (pure logic, no page; tests/js/sdp.test.mjs).
//
// The live table (live-gm.js, live-phone.js) has no signalling server: the game master's offer
// travels in the fragment of the players' link (beside the picture of the fight), the phone's
// answer back as a QR code or a short text. A browser's SDP for one data channel is ~600
// characters; what the other side really needs of it is little:
//   - ice-ufrag and ice-pwd (who may do the connectivity checks),
//   - the DTLS certificate's SHA-256 fingerprint (32 bytes: whom the channel is encrypted to),
//   - the DTLS role (the offer is always „actpass“; the answer „active“ or „passive“),
//   - the host candidates (UDP; an address: an mDNS name – a UUID with „.local“ –, IPv4 or
//     IPv6, and a port); no STUN/TURN, so there are no others.
// Everything else of a data-channel SDP is the same in every current browser and is written
// back by sdpOf. Packed: a few bytes of binary (ICE strings in 6 bits a character), written in
// the 42 characters a QR code stores compactly (base42.js), prefixed by the format's version
// („2.“; „1.“, base64url, is still read): Chromium's offer in 88 characters and about 27 more
// per mDNS candidate (one per network) – in a QR code a fifth less room than version 1's 78 and
// 25 took –; an answer 8 more, as it names the offer by the offer's ice-ufrag. Unpacking checks every byte and gives a German reason, never an
// exception.

import { fromBase42, toBase42 } from "./base42.js";
import { fromBase64url } from "./link.js";

export const VERSION = 2;
const BYTES_OF = { 1: fromBase64url, 2: fromBase42 }; // version → its decoder
export const CANDIDATES_MAX = 4;
const PACKED_MAX = 450; // characters of the packed text (300 bytes): more is no offer or answer
const ICE_CHAR = /^[A-Za-z0-9+/]+$/; // RFC 8839: ice-char
const UUID_LOCAL = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})\.local$/i;
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const ROLES = ["actpass", "active", "passive"];
const KIND = { offer: 1, answer: 2 };

// ------------------------------------------------------------------ reading an SDP

function ipv6Bytes(text) {
  if (!/^[0-9a-f:]+$/i.test(text) || text.split("::").length > 2) return null;
  const [head, tail] = text.includes("::") ? text.split("::") : [text, null];
  const part = (s) => (s ? s.split(":") : []);
  const left = part(head);
  const right = part(tail);
  const missing = 8 - left.length - right.length;
  if (tail === null ? missing !== 0 : missing < 1) return null;
  const groups = [...left, ...Array(tail === null ? 0 : missing).fill("0"), ...right];
  if (groups.some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return null;
  return groups.flatMap((g) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 255]);
}

// One „a=candidate:…“ line → {kind: "mdns"|"ipv4"|"ipv6", bytes, port} or null (not a UDP
// host candidate we can carry).
export function candidateOf(line) {
  const fields = line.replace(/^a=/, "").replace(/^candidate:/, "").trim().split(/\s+/);
  if (fields.length < 8 || fields[2].toLowerCase() !== "udp" || fields[6] !== "typ" || fields[7] !== "host") return null;
  const address = fields[4];
  const port = Number(fields[5]);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return null;
  const uuid = UUID_LOCAL.exec(address);
  if (uuid) {
    const hex = uuid.slice(1).join("");
    return { kind: "mdns", bytes: hex.match(/../g).map((h) => parseInt(h, 16)), port };
  }
  const v4 = IPV4.exec(address);
  if (v4) {
    const bytes = v4.slice(1).map(Number);
    return bytes.every((b) => b <= 255) ? { kind: "ipv4", bytes, port } : null;
  }
  const v6 = ipv6Bytes(address);
  return v6 ? { kind: "ipv6", bytes: v6, port } : null;
}

// A browser's SDP (one data channel) → {ufrag, pwd, fingerprint: 32 bytes, role, candidates}
// or {problem} (German).
export function essentialsOf(sdp) {
  const lines = String(sdp || "").split(/\r?\n/);
  const value = (name) => {
    const line = lines.find((l) => l.startsWith(`a=${name}:`));
    return line ? line.slice(name.length + 3).trim() : null;
  };
  const ufrag = value("ice-ufrag");
  const pwd = value("ice-pwd");
  const print = value("fingerprint");
  const role = value("setup");
  if (!ufrag || !pwd || !ICE_CHAR.test(ufrag) || !ICE_CHAR.test(pwd) || ufrag.length > 32 || pwd.length > 64) {
    return { problem: "Die Verbindungsdaten des Browsers sind unvollständig (ICE)." };
  }
  const match = /^sha-256 ((?:[0-9A-F]{2}:){31}[0-9A-F]{2})$/i.exec(print || "");
  if (!match) return { problem: "Der Browser nennt keinen SHA-256-Fingerabdruck für die Verschlüsselung." };
  if (!ROLES.includes(role)) return { problem: "Die Verbindungsdaten des Browsers sind unvollständig (DTLS)." };
  const candidates = lines
    .filter((l) => l.startsWith("a=candidate:"))
    .map(candidateOf)
    .filter(Boolean)
    .slice(0, CANDIDATES_MAX);
  return {
    ufrag,
    pwd,
    fingerprint: match[1].split(":").map((h) => parseInt(h, 16)),
    role,
    candidates,
  };
}

// ------------------------------------------------------------------ packing

// ICE characters are exactly base64's alphabet: 6 bits each, 4 characters in 3 bytes.
const ICE_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

function iceBytes(text) {
  const out = [text.length];
  let bits = 0;
  let count = 0;
  for (const c of text) {
    bits = (bits << 6) | ICE_ALPHABET.indexOf(c);
    count += 6;
    while (count >= 8) {
      count -= 8;
      out.push((bits >> count) & 255);
    }
  }
  if (count) out.push((bits << (8 - count)) & 255);
  return out;
}

// bytes: kind × 4 + role; for an answer the offer's ice-ufrag (it names the offer answered: an
// offer is named by its own); ice-ufrag; ice-pwd (each: length in characters, then 6 bits a
// character); the fingerprint (32); the candidate count, per candidate: kind (0 mDNS, 4 IPv4,
// 6 IPv6), port (2), address (16, 4 or 16 bytes).
const ADDRESS = { mdns: [0, 16], ipv4: [4, 4], ipv6: [6, 16] };
const ADDRESS_OF = { 0: "mdns", 4: "ipv4", 6: "ipv6" };

// → "2.<base42>"; ``offerUfrag``: for an answer, the ice-ufrag of the offer it answers.
export function pack(kind, essentials, offerUfrag = null) {
  const bytes = [KIND[kind] * 4 + ROLES.indexOf(essentials.role)];
  if (kind === "answer") bytes.push(...iceBytes(offerUfrag));
  bytes.push(...iceBytes(essentials.ufrag), ...iceBytes(essentials.pwd), ...essentials.fingerprint);
  const candidates = essentials.candidates.slice(0, CANDIDATES_MAX);
  bytes.push(candidates.length);
  for (const c of candidates) bytes.push(ADDRESS[c.kind][0], c.port >> 8, c.port & 255, ...c.bytes);
  return `${VERSION}.${toBase42(Uint8Array.from(bytes))}`;
}

class Bad extends Error {}

// "2.<base42>" (or "1.<base64url>") → {kind, id (the offer's ice-ufrag), role, ufrag, pwd, fingerprint,
// candidates} or {problem}.
export function unpack(text, kind) {
  const what = kind === "offer" ? "Die Live-Verbindung im Link" : "Der Antwort-Code";
  const match = /^(\d{1,3})\.([A-Za-z0-9_$*+./-]{1,450})$/.exec(String(text || "").trim());
  if (!match || match[2].length > PACKED_MAX) return { problem: `${what} ist unvollständig oder beschädigt.` };
  if (!Object.hasOwn(BYTES_OF, match[1])) {
    return { problem: `${what} hat die Version ${match[1]}; diese Seite liest Version ${VERSION}. Bitte beide Seiten neu laden.` };
  }
  const bytes = BYTES_OF[match[1]](match[2]);
  if (!bytes) return { problem: `${what} ist beschädigt (unerlaubte Zeichen).` };
  let at = 0;
  const take = (n) => {
    if (at + n > bytes.length) throw new Bad("zu kurz");
    const part = bytes.slice(at, at + n);
    at += n;
    return part;
  };
  const ice = (min, max) => {
    const [length] = take(1);
    if (length < min || length > max) throw new Bad("ICE");
    const packed = take(Math.ceil((length * 6) / 8));
    let bits = 0;
    let count = 0;
    let out = "";
    for (const b of packed) {
      bits = ((bits << 8) | b) & 0xffff;
      count += 8;
      while (count >= 6 && out.length < length) {
        count -= 6;
        out += ICE_ALPHABET[(bits >> count) & 63];
      }
    }
    return out;
  };
  try {
    const [head] = take(1);
    if (head >> 2 !== KIND[kind]) {
      return { problem: kind === "offer" ? "Dieser Link enthält keine Live-Verbindung der Spielleitung." : "Das ist kein Antwort-Code eines Handys (sondern der Code der Spielleitung)." };
    }
    const role = ROLES[head & 3];
    if (!role || (kind === "offer") !== (role === "actpass")) throw new Bad("DTLS");
    const offerUfrag = kind === "answer" ? ice(4, 32) : null;
    const ufrag = ice(4, 32);
    const pwd = ice(22, 64);
    const fingerprint = [...take(32)];
    const [count] = take(1);
    if (count > CANDIDATES_MAX) throw new Bad("Kandidaten");
    const candidates = [];
    for (let i = 0; i < count; i++) {
      const [code] = take(1);
      const kindOf = ADDRESS_OF[code];
      if (!kindOf) throw new Bad("Kandidat");
      const [high, low] = take(2);
      const port = (high << 8) | low;
      if (port < 1) throw new Bad("Kandidat");
      candidates.push({ kind: kindOf, port, bytes: [...take(ADDRESS[kindOf][1])] });
    }
    if (at !== bytes.length) throw new Bad("zu lang");
    return { kind, id: offerUfrag || ufrag, role, ufrag, pwd, fingerprint, candidates };
  } catch (error) {
    if (error instanceof Bad) return { problem: `${what} ist beschädigt.` };
    return { problem: `${what} ist nicht lesbar.` };
  }
}

// ------------------------------------------------------------------ the full SDP again

const hex = (b) => b.toString(16).padStart(2, "0");

export function addressOf(candidate) {
  const b = candidate.bytes;
  if (candidate.kind === "ipv4") return b.join(".");
  if (candidate.kind === "mdns") {
    const h = b.map(hex).join("");
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}.local`;
  }
  const groups = [];
  for (let i = 0; i < 16; i += 2) groups.push(((b[i] << 8) | b[i + 1]).toString(16));
  return groups.join(":");
}

// The essentials (unpacked) → an SDP a browser takes as the remote description of its type
// („offer“ or „answer“). The session id is made from the fingerprint (any number will do).
export function sdpOf(essentials) {
  const session = parseInt(essentials.fingerprint.slice(0, 6).map(hex).join(""), 16);
  const lines = [
    "v=0",
    `o=- ${session} 2 IN IP4 127.0.0.1`,
    "s=-",
    "t=0 0",
    "a=group:BUNDLE 0",
    "a=msid-semantic: WMS",
    "m=application 9 UDP/DTLS/SCTP webrtc-datachannel",
    "c=IN IP4 0.0.0.0",
  ];
  essentials.candidates.forEach((c, i) => {
    // host candidates, the first preferred (type preference 126, local preference falling)
    const priority = 126 * 2 ** 24 + (65535 - i) * 2 ** 8 + 255;
    lines.push(`a=candidate:${i + 1} 1 udp ${priority} ${addressOf(c)} ${c.port} typ host`);
  });
  lines.push(
    `a=ice-ufrag:${essentials.ufrag}`,
    `a=ice-pwd:${essentials.pwd}`,
    "a=ice-options:trickle",
    `a=fingerprint:sha-256 ${essentials.fingerprint.map((b) => hex(b).toUpperCase()).join(":")}`,
    `a=setup:${essentials.role}`,
    "a=mid:0",
    "a=sctp-port:5000",
    "a=max-message-size:262144",
  );
  return `${lines.join("\r\n")}\r\n`;
}
