// Regelwerk – players/live-phone.js: a phone's side of the live table (the player view,
// spieler/#s=3.…&o=2.…: the game master's offer beside the picture, wire.js).
//
// Owns: the box above the view („Live“) – the phone's answer as a QR code for the game
// master's camera and as a text to copy, then one line with the state of the connection –, the
// connection itself (live-rtc.js) and what arrives on it: every message is read like a link
// (wire.js readMessage: size-limited, checked field by field; a bad one is said in German and
// the last picture stays). The picture is drawn by the view (its ``show``, handed in: view.js
// imports this module).
// Waiting for the game master to scan the answer, the phone makes the same answer on a new
// connection every REARM_MS (Firefox ends its checks after 20–30 s without a reply).
// Reconnecting by itself (while the page is open, or after a reload in the same tab): the game
// master's page sends a spare offer over the channel (kept in sessionStorage, live-keep.js);
// when the channel drops, or the page wakes up without it, the phone answers the spare with
// its first answer's ice-ufrag/ice-pwd and its kept certificate – the answer the game master's
// page has already applied (live-gm.js) – and its checks reach that page. Where that is not to
// be had (no kept certificate, no spare, the browser refuses the answer), the box says what to
// do: „Neu verbinden“ on the game master's page and scan its code. The picture shown stays the
// last one that arrived.

import { CONNECT_MS, available, close, connection, localEssentials, opened, packed } from "./live-rtc.js";
import { certificate, remember, session } from "./live-keep.js";
import { qrOf, svgOf } from "./qr.js";
import { sdpOf, unpack } from "./sdp.js";
import { readMessage } from "./wire.js";
import { el } from "../common/util.js";

// what stays without a connection: the link's picture, or (an invitation with no room for it)
// the way to the picture without live
const KEEP = "Unten steht der Stand aus dem Link; für neue Stände den nächsten QR-Code der Spielleitung scannen.";
const NOTHING = "Den Stand ohne Live gibt der Link der Spielleitung („Für Spieler zeigen“ → „Link kopieren“).";
const TEXT = {
  noRtc: "Live geht mit diesem Browser nicht (WebRTC fehlt).",
  failed: "Keine Live-Verbindung zur Spielleitung: die Geräte erreichen sich in diesem Netz nicht (manche öffentlichen WLANs trennen sie voneinander). Beide Geräte in ein anderes WLAN bringen, etwa einen Hotspot, und neu scannen.",
  lost: "Verbindung getrennt. Unten steht der letzte Stand, den die Spielleitung geschickt hat. Zum Neuverbinden drückt die Spielleitung unter „Für Spieler zeigen“ bei diesem Handy „Neu verbinden“ – den neuen QR-Code dann hier scannen.",
  used: "Diese Live-Einladung ist schon benutzt. Zum Neuverbinden drückt die Spielleitung unter „Für Spieler zeigen“ bei diesem Handy „Neu verbinden“ – den neuen QR-Code dann hier scannen.",
  ended: "Die Spielleitung hat die Live-Verbindung beendet. Unten steht der letzte Stand.",
  connected: "Live verbunden: jeder Schritt der Spielleitung erscheint hier von selbst.",
  again: "Verbindung getrennt – verbinde neu …",
  waiting: "Diesen Code der Spielleitung zeigen (ihre Kamera liest ihn) – oder den Text darunter kopieren und ihr schicken. Danach verbindet sich dieses Handy von selbst.",
  unready: "Die Live-Verbindung ließ sich nicht vorbereiten.",
  stillWaiting: "Noch keine Verbindung: meldet die Seite der Spielleitung nach dem Scannen „keine Verbindung“, erreichen sich die Geräte in diesem WLAN nicht – dann gilt der Stand aus dem Link (für neue Stände den nächsten QR-Code scannen), oder beide Geräte in ein anderes WLAN bringen, etwa einen Hotspot.",
};
const DISCONNECTED_MS = 4000;
const WAIT_MS = 20000; // then the waiting phone says what a missing connection may mean
const REARM_MS = 12000; // a waiting phone's connection made anew (see answer) // a connection „disconnected“ this long is given up and renewed

let phone = null; // {root, show, box, status, pc, channel, open, ended, kept, cert, trying}

// ``text``, and for a failure before any live picture arrived what the phone still has
function say(text, kind = "", keep = false) {
  if (!phone) return;
  if (keep) text = `${text} ${phone.root.querySelector(".rw-player-list") ? KEEP : NOTHING}`;
  phone.status.textContent = text;
  phone.status.className = `rw-player-live-status${kind ? ` rw-player-live-status--${kind}` : ""}`;
}

function theBox(root) {
  let box = root.parentElement.querySelector(":scope > .rw-player-live");
  if (!box) {
    box = el("section", "rw-player-live");
    box.setAttribute("aria-label", "Live-Verbindung");
    root.before(box);
  }
  const status = el("p", "rw-player-live-status");
  status.setAttribute("role", "status");
  box.replaceChildren(status);
  return { box, status };
}

export function stopPhone() {
  if (!phone) return;
  phone.ended = true;
  clearInterval(phone.rearm);
  close(phone.pc);
  phone.box.remove();
  phone = null;
}

// The picture view ``root`` follows the game master live; ``offerText`` is the fragment's
// packed offer, ``show(root, picture)`` the view's drawing.
export async function startPhone(root, offerText, show) {
  // the same invitation opened again (a second „hashchange“ for one scan, or the view drawn
  // anew by the page): this connection goes on, above the view as it is now
  if (phone && phone.offerText === offerText && !phone.ended) {
    if (phone.root !== root) {
      phone.root = root;
      root.before(phone.box);
      if (phone.open) root.dataset.live = "verbunden";
    }
    return;
  }
  stopPhone();
  const { box, status } = theBox(root);
  const me = { root, show, box, status, offerText, pc: null, channel: null, open: false, ended: false, trying: false };
  phone = me;
  if (!available()) return say(TEXT.noRtc, "fehler", true);
  const offer = unpack(offerText, "offer");
  if (offer.problem) return say(offer.problem, "fehler", true);
  say("Live-Verbindung wird vorbereitet …");
  const { certificate: cert, kept } = await certificate();
  if (phone !== me) return;
  Object.assign(me, { cert, kept });
  const record = session();
  if (record && record.first === offer.id) {
    // this tab answered this offer before (reloaded): the spare offer, if there is one
    if (record.spare && kept) return renew();
    return say(TEXT.used, "fehler");
  }
  try {
    await answer(offer);
  } catch (error) {
    if (phone === me) say(TEXT.unready, "fehler", true);
  }
}

function follow(pc, channel) {
  const me = phone;
  me.pc = pc;
  me.channel = channel;
  me.open = false;
  channel.addEventListener("open", () => {
    if (phone !== me || me.pc !== pc) return;
    me.open = true;
    clearInterval(me.rearm);
    me.root.dataset.live = "verbunden";
    me.box.querySelectorAll(".rw-player-live-answer").forEach((n) => n.remove());
    say(TEXT.connected, "ok");
  });
  channel.addEventListener("message", (event) => {
    if (phone !== me || me.pc !== pc) return;
    const read = readMessage(event.data);
    if (read.picture) {
      me.show(me.root, read.picture);
      if (me.status.classList.contains("rw-player-live-status--fehler")) say(TEXT.connected, "ok");
    } else if (read.spare) {
      const record = session();
      if (record) remember({ ...record, spare: read.spare });
    } else if (read.end) {
      me.ended = true;
      delete me.root.dataset.live;
      close(pc);
      say(TEXT.ended, "fehler");
    } else say(read.problem, "fehler");
  });
  const dropped = () => {
    if (phone !== me || me.pc !== pc || me.ended || !me.open) return;
    me.open = false;
    delete me.root.dataset.live;
    renew();
  };
  channel.addEventListener("close", dropped);
  pc.addEventListener("connectionstatechange", () => {
    if (pc.connectionState === "failed" || pc.connectionState === "closed") dropped();
    if (pc.connectionState === "disconnected") {
      setTimeout(() => {
        if (pc.connectionState === "disconnected") dropped();
      }, DISCONNECTED_MS);
    }
  });
}

async function answer(offer) {
  const me = phone;
  const { pc, channel } = connection(me.cert);
  follow(pc, channel);
  await pc.setRemoteDescription({ type: "offer", sdp: sdpOf(offer) });
  await pc.setLocalDescription(await pc.createAnswer());
  const essentials = await localEssentials(pc);
  if (phone !== me) return;
  if (essentials.problem) return say(essentials.problem, "fehler", true);
  me.known = { ufrag: essentials.ufrag, pwd: essentials.pwd };
  remember({ first: offer.id, ...me.known, spare: null });
  const code = packed("answer", essentials, { offerUfrag: offer.id });
  drawAnswer(code);
  // Whether the game master has the answer yet, the phone cannot know (its checks go out at
  // once; the game master's page answers them only with the answer applied, and says itself
  // when no connection comes about). A hint after WAIT_MS; a failure when the browser gives up.
  setTimeout(() => {
    if (phone === me && !me.open && !me.failed) say(`${TEXT.waiting} ${TEXT.stillWaiting}`);
  }, WAIT_MS);
  watchFirst(pc);
  // Firefox ends its checks after 20–30 s without a reply (measured: a code scanned after 20 s
  // connects, after 30 s not): until connected, the same answer on a new connection every
  // REARM_MS – the game master's page has only the offer's candidates to go by anyway.
  me.rearm = setInterval(() => rearm(offer), REARM_MS);
}

function watchFirst(pc) {
  const me = phone;
  pc.addEventListener("connectionstatechange", () => {
    if (pc.connectionState !== "failed" || phone !== me || me.pc !== pc || me.open) return;
    me.failed = true;
    clearInterval(me.rearm);
    me.box.querySelectorAll(".rw-player-live-answer").forEach((n) => n.remove());
    say(TEXT.failed, "fehler", true);
  });
}

async function rearm(offer) {
  const me = phone;
  if (!me || me.open || me.failed || me.trying) {
    if (me) clearInterval(me.rearm);
    return;
  }
  let next;
  try {
    next = await knownAnswer(offer, me.known);
  } catch (error) {
    clearInterval(me.rearm); // the browser refuses the known answer: the first connection waits on
    return;
  }
  if (phone !== me || me.open) return close(next.pc);
  const before = me.pc;
  follow(next.pc, next.channel);
  watchFirst(next.pc);
  close(before);
}

// The phone's known answer – its certificate, the first answer's ice-ufrag and ice-pwd – to
// ``offer`` on a new connection (→ {pc, channel}); throws where the browser refuses it.
async function knownAnswer(offer, known) {
  const { pc, channel } = connection(phone.cert);
  try {
    await pc.setRemoteDescription({ type: "offer", sdp: sdpOf(offer) });
    const made = await pc.createAnswer();
    const sdp = made.sdp
      .replace(/^a=ice-ufrag:.*$/m, `a=ice-ufrag:${known.ufrag}`)
      .replace(/^a=ice-pwd:.*$/m, `a=ice-pwd:${known.pwd}`);
    await pc.setLocalDescription({ type: "answer", sdp });
  } catch (error) {
    close(pc);
    throw error;
  }
  return { pc, channel };
}

function drawAnswer(code) {
  const part = el("div", "rw-player-live-answer");
  const qr = qrOf(code);
  if (qr) {
    const figure = el("figure", "rw-player-live-qr");
    figure.appendChild(svgOf(qr, "Antwort-Code für die Spielleitung"));
    part.appendChild(figure);
  }
  const field = el("input", "rw-player-live-code");
  field.type = "text";
  field.readOnly = true;
  field.value = code;
  field.setAttribute("aria-label", "Antwort-Code als Text");
  const copy = el("button", "md-button rw-player-live-copy", "Code kopieren");
  copy.type = "button";
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(code);
      copy.textContent = "Kopiert";
    } catch (error) {
      field.select();
      copy.textContent = "Bitte markierten Code kopieren";
    }
  });
  const row = el("p", "rw-player-live-row");
  row.append(field, copy);
  part.appendChild(row);
  phone.box.appendChild(part);
  say(TEXT.waiting);
}

// The spare offer answered with the phone's first answer (see the head of this file).
async function renew() {
  const me = phone;
  if (!me || me.ended || me.trying) return;
  const record = session();
  if (!record || !record.spare || !me.kept) return say(TEXT.lost, "fehler");
  me.trying = true;
  say(TEXT.again);
  remember({ ...record, spare: null }); // an offer answers once
  const offer = unpack(record.spare, "offer");
  let ok = false;
  if (!offer.problem) {
    try {
      const { pc, channel } = await knownAnswer(offer, record);
      close(me.pc);
      follow(pc, channel);
      ok = await opened(pc, channel, CONNECT_MS);
    } catch (error) {
      ok = false; // the browser refused the known answer
    }
  }
  me.trying = false;
  if (phone !== me) return;
  if (!ok) {
    close(me.pc);
    say(TEXT.lost, "fehler");
  }
}

let listening = false;

// A phone that wakes up without its channel tries the spare at once.
export function listenForWaking() {
  if (listening) return;
  listening = true;
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible" || !phone || phone.open || phone.ended || !phone.pc) return;
    if (phone.pc.connectionState !== "connected" && phone.pc.connectionState !== "new" && phone.pc.connectionState !== "connecting") renew();
  });
}
