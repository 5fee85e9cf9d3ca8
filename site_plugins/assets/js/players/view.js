// Regelwerk – player-view.js: the player view (spieler.md, the element .rw-player).
//
// Owns: showing a fight as the game master shared it, read-only and phone-first – the time in
// the fight (round and turn, or the tick), who acts now and who next, the order with every
// fighter's place, what the game master let the players see of him, the effects on him, and
// „Stand von …“ with its age (older than STALE_MS it is marked: scan the next code). Where the
// picture comes from:
// - a link (#s=1.…, player-link.js): unpacked and checked; a bad or foreign link gives a German
//   message on the page, never an error page. Scanning the next code opens the same page with
//   the new fragment (hashchange): the view shows the new state;
// - #live=<system>: the second screen on the game master's device – the picture the
//   Kampfhelfer page writes at every change (fight-share.js: localStorage, the storage event,
//   and a BroadcastChannel), followed live;
// - a link with the game master's offer beside the picture (#s=3.…&o=2.…, wire.js): the
//   picture at once, then live over WebRTC from the game master's page (live-phone.js draws
//   each picture that arrives through ``show``); a link of only the offer (#o=2.…) says the
//   fight comes once connected. Without a connection the link's picture stays.
// „Das bin ich“ marks the player's own fighter, remembered per system in this browser
// (localStorage "regelwerk:spieler-ich:<system>"). Needs no engine: no Python, no network.

import { expand, unpack } from "./link.js";
import { listenForWaking, startPhone, stopPhone } from "./live-phone.js";
import { CHANNEL, liveKey, splitFragment } from "./wire.js";
import * as store from "../common/store.js";
import { el, germanNumber } from "../common/util.js";

const STALE_MS = 5 * 60 * 1000;
const LEVEL_TEXT = { "ohne Wirkungen": "Ohne Wirkungen", "nur Reihenfolge": "Nur die Reihenfolge", "nur Namen": "Nur die Namen in ihrer Reihenfolge" };
const TICK_MS = 15 * 1000;

function meKey(system) {
  return `spieler-ich:${system}`;
}

function myName(system) {
  const { value } = store.read(meKey(system), (v) => (typeof v === "string" ? "" : "kein Name"));
  return typeof value === "string" ? value : "";
}

function ageText(at, now = Date.now()) {
  const minutes = Math.floor(Math.max(0, now - at) / 60000); // a clock a little ahead: „gerade eben“
  if (minutes < 1) return "gerade eben";
  if (minutes < 60) return `vor ${germanNumber(minutes)} Min.`;
  const hours = Math.floor(minutes / 60);
  return `vor ${germanNumber(hours)} Std.`;
}

function stamp(root, picture) {
  const line = root.querySelector(".rw-player-stamp");
  if (!line) return;
  const when = new Date(picture.at);
  const day = when.toDateString() === new Date().toDateString() ? "" : `${when.toLocaleDateString("de-DE")}, `;
  const stale = Date.now() - picture.at > STALE_MS;
  line.textContent = `Stand von ${day}${when.toLocaleTimeString("de-DE", { hour: "2-digit", minute: "2-digit", second: "2-digit" })} Uhr (${ageText(picture.at)})${stale && !root.dataset.live ? " – nicht mehr frisch: den neuen QR-Code scannen" : ""}`;
  line.classList.toggle("rw-player-stale", stale && !root.dataset.live);
}

function statusOf(picture, fighter) {
  if (fighter.show === "grob") return fighter.health;
  if (fighter.show === "werte") {
    // only the values the game master's fight knows („LeP 18 · Wunden 1“), no row of dashes
    // and his state where he cannot act („tot · Trefferpunkte −14“)
    const values = picture.resources.map((name, i) => (fighter.values[i] === null ? "" : `${name} ${germanNumber(fighter.values[i])}`));
    return [fighter.health || "", ...values].filter(Boolean).join(" · ");
  }
  return "";
}

function badge(text, kind) {
  return el("span", `rw-player-badge rw-player-badge--${kind}`, text);
}

function fighterRow(picture, fighter, index, me) {
  const item = el("li", "rw-player-fighter");
  if (index === picture.actor) item.classList.add("rw-player-actor");
  if (index === picture.next) item.classList.add("rw-player-next");
  if (fighter.name === me) item.classList.add("rw-player-me");
  if (fighter.health === "kampfunfähig" || fighter.health === "tot") item.classList.add("rw-player-down");
  const head = el("p", "rw-player-head");
  head.appendChild(el("span", "rw-player-place", fighter.place || "–"));
  head.appendChild(el("span", "rw-player-name", fighter.name));
  if (index === picture.actor) head.appendChild(badge("am Zug", "actor"));
  else if (index === picture.next) head.appendChild(badge("als Nächstes", "next"));
  if (fighter.name === me) head.appendChild(badge("ich", "me"));
  item.appendChild(head);
  const status = statusOf(picture, fighter);
  if (status) item.appendChild(el("p", "rw-player-status", status));
  if (fighter.effects.length) {
    item.appendChild(el("p", "rw-player-effects", fighter.effects.map((e) => `${e.name} (${e.left})`).join(" · ")));
  }
  return item;
}

function nowLine(picture) {
  const box = el("div", "rw-player-now");
  if (picture.clock) box.appendChild(el("p", "rw-player-clock", picture.clock));
  const actor = picture.fighters[picture.actor];
  const next = picture.fighters[picture.next];
  box.appendChild(el("p", "rw-player-actor-line", actor ? `Am Zug: ${actor.name}` : "Noch niemand am Zug"));
  if (next) box.appendChild(el("p", "rw-player-next-line", `Als Nächstes: ${next.name}`));
  return box;
}

function meChooser(root, picture, me) {
  const wrap = el("label", "rw-player-me-field");
  wrap.appendChild(el("span", "", "Das bin ich:"));
  const box = el("select", "rw-player-me-select");
  box.replaceChildren(new Option("— niemand —", ""), ...picture.fighters.map((f) => new Option(f.name, f.name)));
  box.value = picture.fighters.some((f) => f.name === me) ? me : "";
  box.addEventListener("change", () => {
    store.write(meKey(picture.system), box.value);
    show(root, picture);
  });
  wrap.appendChild(box);
  return wrap;
}

const shownPicture = new WeakMap(); // the view → the picture it shows (its „Stand von …“ ages)

export function show(root, picture) {
  const me = myName(picture.system);
  shownPicture.set(root, picture);
  const parts = [];
  parts.push(el("p", "rw-player-stamp"));
  parts.push(nowLine(picture));
  if (picture.level !== "voll") parts.push(el("p", "rw-player-level", `${LEVEL_TEXT[picture.level]} (der Kampf war zu groß für den QR-Code).`));
  const list = el("ol", "rw-player-list");
  picture.fighters.forEach((fighter, i) => list.appendChild(fighterRow(picture, fighter, i, me)));
  parts.push(list, meChooser(root, picture, me));
  root.replaceChildren(...parts);
  root.setAttribute("aria-busy", "false");
  stamp(root, picture);
}

function problem(root, text) {
  shownPicture.delete(root);
  const box = el("p", "rw-notice rw-notice--error rw-player-problem", text);
  box.setAttribute("role", "alert");
  root.replaceChildren(box);
  root.setAttribute("aria-busy", "false");
}

// ------------------------------------------------------------------ where the picture comes from

async function fromLink(root, hash) {
  delete root.dataset.live;
  const { picture, problem: bad } = await unpack(hash);
  if (bad) problem(root, bad);
  else show(root, picture);
}

function liveSystem(hash) {
  const match = /^#live=([a-z0-9_-]{1,30})$/.exec(hash);
  return match ? match[1] : null;
}

function fromStored(root, system) {
  const { value, problem: bad } = store.read(liveKey(system), (v) => (typeof v === "string" ? "" : "kein Bild eines Kampfes"));
  if (bad || !value) {
    problem(root, "Noch kein Kampf zu zeigen: die Kampfhelfer-Seite dieses Systems in einem anderen Fenster dieses Browsers öffnen – dieses Fenster folgt ihr dann.");
    return;
  }
  try {
    show(root, expand(value));
  } catch (error) {
    problem(root, "Der Stand des Kampfes ließ sich nicht lesen – bitte auf der Kampfhelfer-Seite einen Schritt machen.");
  }
}

let following = null; // {root, system}
let channel = null;

function follow(root, system) {
  root.dataset.live = system;
  following = { root, system };
  fromStored(root, system);
  if (!channel && typeof BroadcastChannel === "function") {
    try {
      channel = new BroadcastChannel(CHANNEL);
      channel.addEventListener("message", (event) => {
        const data = event.data;
        if (!following || !data || data.system !== following.system) return;
        try {
          show(following.root, expand(data.picture));
        } catch (error) {
          // a damaged message: the stored picture (the storage event) still comes
        }
      });
    } catch (error) {
      channel = null;
    }
  }
}

async function open(root) {
  const hash = location.hash;
  const system = liveSystem(hash);
  following = null;
  if (system) {
    stopPhone();
    follow(root, system);
    return;
  }
  const { link, offer } = splitFragment(hash);
  if (!offer) {
    fromLink(root, hash); // a phone connected live stays so: the next step comes over it
    return;
  }
  if (link) await fromLink(root, link); // the picture first: the live box says what stays
  else {
    delete root.dataset.live;
    shownPicture.delete(root);
    root.replaceChildren(el("p", "rw-help rw-player-waiting", "Der Kampf erscheint hier, sobald dieses Handy live mit der Spielleitung verbunden ist."));
    root.setAttribute("aria-busy", "false");
  }
  startPhone(root, offer, show);
}

let listening = false;

export function initPlayerView() {
  const root = document.querySelector(".rw-player");
  if (!root || root.dataset.rwPlayer) return;
  root.dataset.rwPlayer = "1";
  root.setAttribute("aria-live", "polite");
  open(root);
  if (listening) return;
  listening = true;
  listenForWaking();
  window.addEventListener("hashchange", () => {
    const current = document.querySelector(".rw-player");
    if (current) open(current);
  });
  window.addEventListener("storage", (event) => {
    if (following && event.key === `regelwerk:${liveKey(following.system)}` && following.root.isConnected) fromStored(following.root, following.system);
  });
  setInterval(() => {
    const current = document.querySelector(".rw-player");
    if (current && shownPicture.has(current)) stamp(current, shownPicture.get(current));
  }, TICK_MS);
}
