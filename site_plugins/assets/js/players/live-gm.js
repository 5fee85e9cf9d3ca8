// Regelwerk – players/live-gm.js: the game master's side of the live table (no DOM; the box
// that shows it is live-box.js).
//
// Owns: the phones connected to this page over WebRTC (live-rtc.js), one data channel each,
// and what goes over them – only the picture the second screen gets (show.js publish: the
// game master's choice per fighter, compact as in the link), never the journal.
// - An offer is open for one phone: it travels in the QR code's link (wire.js withOffer, packed
//   with this page's host candidates: without them Firefox on a phone gives up after 5 s,
//   and where this page cannot resolve the phone's mDNS name only the phone's checks find the
//   way); the answer comes back as a code (scanned or pasted: accept). A new offer is
//   made as soon as one is used, so the code always invites the next phone. Offers stay valid
//   until used or until live ends (at most OFFERS_MAX: the oldest is dropped).
// - Per phone a number („Handy 1“), a state (see STATES) and, once connected, a spare
//   offer sent over its channel (wire.js „reserve“), to which the phone's known answer is
//   applied at once (its persisted certificate's fingerprint, its first ice-ufrag/ice-pwd,
//   live-phone.js): a phone that slept or reloaded answers the spare with exactly that answer,
//   and its connectivity checks reach this page as peer-reflexive candidates – it reconnects
//   without a new code. A phone that cannot: „Neu verbinden“ makes an offer for it (reconnect).
// - Not connected within CONNECT_MS after its answer (e.g. a public Wi-Fi that keeps devices
//   apart): „keine Verbindung“, and the box says what to do; the link and its picture work as
//   before.

import { close, connection, localEssentials, opened, packed } from "./live-rtc.js";
import { message } from "./wire.js";
import { sdpOf, unpack } from "./sdp.js";

export const STATES = {
  wartet: "verbindet …",
  verbunden: "verbunden",
  getrennt: "getrennt",
  fehlgeschlagen: "keine Verbindung",
};
const OFFERS_MAX = 8;

let live = null; // {system, offers: Map(id → offer), current, peers: [], last, onChange}

function changed() {
  if (live && live.onChange) live.onChange();
}

export function isOn(system) {
  return Boolean(live && live.system === system);
}

// A new offer ({pc, channel, text, peer}; named by its ice-ufrag) – for a new phone or, with
// ``peer``, to reconnect that one – becomes the one in the QR code.
async function newOffer(peer = null) {
  const state = live;
  const { pc, channel } = connection();
  await pc.setLocalDescription(await pc.createOffer());
  const essentials = await localEssentials(pc);
  if (state !== live || essentials.problem) {
    close(pc);
    if (essentials.problem) throw new Error(essentials.problem);
    return null;
  }
  const offer = { pc, channel, peer, text: packed("offer", essentials) };
  state.offers.set(essentials.ufrag, offer);
  while (state.offers.size > OFFERS_MAX) {
    const [oldest, dropped] = state.offers.entries().next().value;
    state.offers.delete(oldest);
    close(dropped.pc);
  }
  state.current = offer;
  return offer;
}

// Live on for ``system``: → null, or a German problem (no WebRTC in this browser).
export async function start(system, onChange) {
  if (isOn(system)) return null;
  stop();
  if (typeof RTCPeerConnection !== "function") {
    return "Dieser Browser kann keine Live-Verbindung aufbauen (WebRTC fehlt) – der Link und QR-Code zeigen weiter den Stand.";
  }
  live = { system, offers: new Map(), current: null, peers: [], last: null, onChange };
  try {
    await newOffer();
  } catch (error) {
    stop();
    return "Die Live-Verbindung ließ sich nicht vorbereiten – der Link und QR-Code zeigen weiter den Stand.";
  }
  changed();
  return null;
}

export function stop() {
  if (!live) return;
  const state = live;
  live = null;
  for (const peer of state.peers) end(peer);
  for (const offer of state.offers.values()) close(offer.pc);
}

// The box to redraw when something changes (the Kampfhelfer page drawn anew after instant
// navigation has a new box; the connections stay).
export function listen(system, onChange) {
  if (isOn(system)) live.onChange = onChange;
}

// → {text, peer} of the offer in the QR code, or null.
export function currentOffer(system) {
  if (!isOn(system) || !live.current) return null;
  return { text: live.current.text, peer: live.current.peer ? live.current.peer.number : null };
}

export function phones(system) {
  if (!isOn(system)) return [];
  return live.peers.map((p) => ({ number: p.number, state: p.state }));
}

function setState(peer, state) {
  if (peer.state === state) return;
  peer.state = state;
  changed();
}

function sendTo(peer, text) {
  if (!peer.channel || peer.channel.readyState !== "open") return;
  try {
    peer.channel.send(text);
  } catch (error) {
    setState(peer, "getrennt");
  }
}

// The phone's channel is ``pc``/``channel`` from now on (a first connection or a spare).
function attach(peer, pc, channel) {
  const before = peer.pc;
  peer.pc = pc;
  peer.channel = channel;
  if (before && before !== pc) close(before);
  const lost = () => {
    if (peer.pc === pc && peer.state === "verbunden") setState(peer, "getrennt");
  };
  channel.addEventListener("close", lost);
  pc.addEventListener("connectionstatechange", () => {
    if (peer.pc !== pc) return;
    if (pc.connectionState === "connected" && channel.readyState === "open") setState(peer, "verbunden");
    else if (["disconnected", "failed", "closed"].includes(pc.connectionState)) lost();
  });
}

function connected(peer) {
  setState(peer, "verbunden");
  if (live && live.last) sendTo(peer, message("bild", live.last));
  spare(peer).catch(() => {}); // without a spare, „Neu verbinden“ still works
}

// A spare offer for ``peer``, its known answer applied at once, sent over the channel.
async function spare(peer) {
  const state = live;
  if (!state || !peer.known) return;
  const { pc, channel } = connection();
  await pc.setLocalDescription(await pc.createOffer());
  const essentials = await localEssentials(pc);
  if (state !== live || peer.ended || essentials.problem) return close(pc);
  await pc.setRemoteDescription({ type: "answer", sdp: sdpOf({ ...peer.known, candidates: [] }) });
  close(peer.spare && peer.spare.pc);
  peer.spare = { pc, channel };
  channel.addEventListener("open", () => {
    if (live !== state || peer.ended || !peer.spare || peer.spare.pc !== pc) return close(pc);
    peer.spare = null;
    attach(peer, pc, channel);
    connected(peer);
  });
  sendTo(peer, message("reserve", packed("offer", essentials)));
}

// The phone's answer code (scanned or pasted) → {number} once connected, or {problem}.
export async function accept(text) {
  const state = live;
  if (!state) return { problem: "Erst „Live verbinden“ drücken." };
  const answer = unpack(text, "answer");
  if (answer.problem) return { problem: answer.problem };
  const offer = state.offers.get(answer.id);
  if (!offer) {
    return { problem: "Dieser Antwort-Code passt zu keinem offenen Code dieser Seite (schon benutzt, oder die Seite wurde neu geladen). Das Handy bitte den QR-Code hier noch einmal scannen lassen." };
  }
  state.offers.delete(answer.id);
  if (state.current === offer) state.current = null;
  try {
    await offer.pc.setRemoteDescription({ type: "answer", sdp: sdpOf(answer) });
  } catch (error) {
    close(offer.pc);
    return { problem: "Der Antwort-Code ließ sich nicht anwenden – bitte auf dem Handy den QR-Code der Spielleitung noch einmal scannen." };
  }
  let peer = offer.peer;
  if (!peer) {
    peer = { number: state.peers.length + 1, state: "wartet", pc: null, channel: null, spare: null, known: null };
    state.peers.push(peer);
  }
  peer.ended = false;
  peer.known = { ...answer };
  close(peer.spare && peer.spare.pc);
  peer.spare = null;
  attach(peer, offer.pc, offer.channel);
  setState(peer, "wartet");
  if (!state.current) newOffer().then(changed, changed);
  if (await opened(offer.pc, offer.channel)) {
    if (peer.pc === offer.pc) connected(peer);
    return { number: peer.number };
  }
  if (peer.pc === offer.pc) {
    close(offer.pc);
    setState(peer, "fehlgeschlagen");
  }
  return {
    number: peer.number,
    problem: `Handy ${peer.number}: keine Verbindung zustande gekommen. Beide Geräte müssen im selben Netz sein; manche öffentlichen WLANs trennen die Geräte voneinander – dann bleibt es beim Link und QR-Code (ein neuer Code für jeden neuen Stand), oder einen eigenen Hotspot nehmen.`,
  };
}

// The picture (compact text) to every connected phone, and to each one that connects later.
export function send(system, text) {
  if (!isOn(system) || text === live.last) return;
  live.last = text;
  const out = message("bild", text);
  for (const peer of live.peers) sendTo(peer, out);
}

function end(peer) {
  peer.ended = true;
  sendTo(peer, message("ende"));
  const { pc, spare: reserve } = peer;
  peer.channel = null;
  peer.pc = null;
  peer.spare = null;
  // the „ende“ message leaves before the connection closes
  setTimeout(() => {
    close(pc);
    close(reserve && reserve.pc);
  }, 200);
}

export function disconnect(system, number) {
  if (!isOn(system)) return;
  const peer = live.peers.find((p) => p.number === number);
  if (!peer) return;
  end(peer);
  setState(peer, "getrennt");
}

// „Neu verbinden“: an offer for that phone in the QR code (its answer reconnects it).
export async function reconnect(system, number) {
  if (!isOn(system)) return;
  const peer = live.peers.find((p) => p.number === number);
  if (!peer) return;
  await newOffer(peer);
  changed();
}

// Back to an offer for a new phone in the QR code.
export async function inviteNew(system) {
  if (!isOn(system)) return;
  await newOffer();
  changed();
}
