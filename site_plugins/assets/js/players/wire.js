// Regelwerk – players/wire.js: what travels on the live table besides the SDP (pure logic, no
// page; tests/js/live-wire.test.mjs).
//
// Owns:
// - the players' link with the game master's offer beside the picture: spieler/#s=3.<picture>
//   &o=2.<offer> (sdp.js packs the offer; neither base42 nor base64url has „&“ or „=“), or
//   #o=2.<offer> alone when not even the names fit beside it into a QR code of version ≤ 10 –
//   splitFragment and withOffer;
// - the messages on a live data channel, game master → phone, as JSON text:
//     {"v": 1, "t": "bild", "d": <the picture, compact as in the link (link.js)>}
//     {"v": 1, "t": "reserve", "d": <a spare offer, packed (sdp.js): for reconnecting>}
//     {"v": 1, "t": "ende"} (the game master ended the connection).
//   readMessage takes nothing on trust, like a link: the size is limited, the shape checked,
//   the picture expanded and checked field by field (link.js expand); bad data gives a German
//   problem, never an exception.

import { FUTURE_MS, expand } from "./link.js";

export const WIRE = 1;
// The second screen on the game master's own device (show.js publishes, view.js follows): the
// picture in localStorage under liveKey and on this BroadcastChannel.
export const CHANNEL = "regelwerk-spieler";

export function liveKey(system) {
  return `spieler-live:${system}`;
}
export const MESSAGE_MAX = 40000; // characters; a picture of 40 fighters is well below
const OFFER = /^[0-9]{1,3}\.[A-Za-z0-9_$*+./-]{1,450}$/; // sdp.js unpack checks it further

// "#s=3.…&o=2.…" → {link: "#s=3.…" | "", offer: "2.…" | null}
export function splitFragment(hash) {
  const text = String(hash || "");
  const at = text.search(/[#&]o=/);
  if (at < 0) return { link: text, offer: null };
  const offer = text.slice(at + 3);
  const link = text.slice(0, at);
  return { link: link === "#" ? "" : link, offer };
}

// A fragment ("#s=3.…" or "") with the offer beside it.
export function withOffer(fragment, offer) {
  return fragment ? `${fragment}&o=${offer}` : `#o=${offer}`;
}

export function message(kind, data) {
  return JSON.stringify(data === undefined ? { v: WIRE, t: kind } : { v: WIRE, t: kind, d: data });
}

const BAD = "Die Spielleitung hat Unlesbares geschickt – der Stand bleibt, wie er war.";

// A message from the channel → {picture} | {spare} | {end: true} | {problem} (German).
export function readMessage(data, now = Date.now()) {
  if (typeof data !== "string") return { problem: BAD };
  if (data.length > MESSAGE_MAX) return { problem: "Die Spielleitung hat zu viel auf einmal geschickt – der Stand bleibt, wie er war." };
  let parsed;
  try {
    parsed = JSON.parse(data);
  } catch (error) {
    return { problem: BAD };
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return { problem: BAD };
  if (parsed.v !== WIRE) return { problem: "Die Seite der Spielleitung ist eine andere Version – bitte beide Seiten neu laden." };
  if (parsed.t === "ende" && !("d" in parsed)) return { end: true };
  if (parsed.t === "reserve" && typeof parsed.d === "string" && OFFER.test(parsed.d)) return { spare: parsed.d };
  if (parsed.t !== "bild" || typeof parsed.d !== "string") return { problem: BAD };
  try {
    const picture = expand(parsed.d);
    if (picture.at > now + FUTURE_MS) return { problem: "Der Stand der Spielleitung trägt einen Zeitpunkt in der Zukunft – eine der Uhren geht falsch." };
    return { picture };
  } catch (error) {
    return { problem: BAD };
  }
}
