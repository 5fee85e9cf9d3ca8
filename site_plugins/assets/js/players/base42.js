// Regelwerk – players/base42.js: bytes as text in 42 characters a QR code stores compactly
// (pure logic, no page; tests/js/player-link.test.mjs).
//
// A QR code stores text in one of a few modes. Its „alphanumeric“ mode knows 45 characters
// (0–9, A–Z, space, $ % * + - . / :) and stores two of them in 11 bits; any other text goes in
// byte mode, 8 bits a character. The players' link (link.js) and the game master's offer
// (sdp.js) are binary data: as base64url (6 bits in a character stored in 8) a version-10 code
// held 8 fighters without their effects; written in these 42 characters – no space and no „%“
// (a browser changes them in a link), no „:“ – two bytes become three characters, 16 bits in
// 16.5, and the QR encoder (lean-qr) stores that part of the link in alphanumeric mode: the
// same code holds about 30 % more of the fight (scripts/benchmark_player_link.py).
//
// Like RFC 9285 (Base45) with 42 characters: each pair of bytes n = 256·a + b is written as
// c0 c1 c2 with n = c0 + 42·c1 + 42²·c2 (42³ = 74 088 ≥ 65 536), a last single byte as two
// characters. Every character is one a link carries unchanged in its fragment.

export const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ$*+-./";
const BASE = ALPHABET.length;
const INDEX = new Map([...ALPHABET].map((c, i) => [c, i]));

// Bytes → text in ALPHABET.
export function toBase42(bytes) {
  let out = "";
  for (let i = 0; i + 1 < bytes.length; i += 2) {
    let n = bytes[i] * 256 + bytes[i + 1];
    for (let k = 0; k < 3; k++) {
      out += ALPHABET[n % BASE];
      n = Math.floor(n / BASE);
    }
  }
  if (bytes.length % 2) {
    const n = bytes[bytes.length - 1];
    out += ALPHABET[n % BASE] + ALPHABET[Math.floor(n / BASE)];
  }
  return out;
}

// Text → bytes, or null when it is no such text (a foreign character, a length no bytes have,
// a group above its bytes' range).
export function fromBase42(text) {
  if (typeof text !== "string" || text.length % 3 === 1) return null;
  const out = new Uint8Array(Math.floor(text.length / 3) * 2 + (text.length % 3 ? 1 : 0));
  let at = 0;
  for (let i = 0; i < text.length; i += 3) {
    const group = text.slice(i, i + 3);
    let n = 0;
    for (let k = group.length - 1; k >= 0; k--) {
      const digit = INDEX.get(group[k]);
      if (digit === undefined) return null;
      n = n * BASE + digit;
    }
    if (group.length === 3) {
      if (n > 0xffff) return null;
      out[at++] = n >> 8;
      out[at++] = n & 0xff;
    } else {
      if (n > 0xff) return null;
      out[at++] = n;
    }
  }
  return out;
}
