// Regelwerk – players/live-rtc.js: one WebRTC data channel of the live table, as both sides
// make it (the game master's page: live-gm.js; a phone: live-phone.js).
//
// Owns: the peer connection's settings – no ICE servers at all (host candidates only: no STUN,
// no TURN, no request to anyone; the two devices must reach each other in the same network),
// one negotiated, ordered data channel (id 0, both sides make it before the SDP, so no
// „datachannel“ event is needed) –, waiting for the local candidates, and the local
// description packed (sdp.js). Nothing here trusts the other side: what arrives is read by
// wire.js.

import { essentialsOf, pack } from "./sdp.js";

export const GATHER_MS = 3000; // host candidates come within milliseconds; a cap, not a wait
export const CONNECT_MS = 10000; // ICE and DTLS on a local network take well under a second

export function available() {
  return typeof RTCPeerConnection === "function";
}

// → {pc, channel}; ``certificate`` (an RTCCertificate) keeps the phone's fingerprint.
export function connection(certificate) {
  const settings = { iceServers: [] };
  if (certificate) settings.certificates = [certificate];
  const pc = new RTCPeerConnection(settings);
  const channel = pc.createDataChannel("regelwerk-spieler", { negotiated: true, id: 0, ordered: true });
  return { pc, channel };
}

export function gathered(pc, ms = GATHER_MS) {
  return new Promise((resolve) => {
    if (pc.iceGatheringState === "complete") return resolve();
    const done = () => {
      if (pc.iceGatheringState === "complete") resolve();
    };
    pc.addEventListener("icegatheringstatechange", done);
    setTimeout(resolve, ms);
  });
}

// → the local description's essentials (sdp.js) or {problem}.
export async function localEssentials(pc) {
  await gathered(pc);
  return essentialsOf(pc.localDescription && pc.localDescription.sdp);
}

// → "1.<…>" (sdp.js pack); ``offerUfrag``: for an answer, the offer's ice-ufrag.
export function packed(kind, essentials, { candidates = true, offerUfrag = null } = {}) {
  return pack(kind, candidates ? essentials : { ...essentials, candidates: [] }, offerUfrag);
}

// Resolves true once the channel is open, false after ``ms`` or when the connection failed.
export function opened(pc, channel, ms = CONNECT_MS) {
  return new Promise((resolve) => {
    if (channel.readyState === "open") return resolve(true);
    const timer = setTimeout(() => resolve(false), ms);
    channel.addEventListener("open", () => {
      clearTimeout(timer);
      resolve(true);
    });
    pc.addEventListener("connectionstatechange", () => {
      if (pc.connectionState === "failed" || pc.connectionState === "closed") {
        clearTimeout(timer);
        resolve(false);
      }
    });
  });
}

export function close(pc) {
  try {
    if (pc) pc.close();
  } catch (error) {
    // closed already
  }
}
