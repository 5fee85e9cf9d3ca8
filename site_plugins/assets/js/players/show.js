// Regelwerk – players/show.js: „Für Spieler zeigen“ on a Kampfhelfer page (a view of the fight store).
//
// Owns: the picture of the fight the players see (pictureOf: the order with each fighter's
// place, who acts now and next, round or tick, per fighter what the game master chose to show,
// the effects on him), the box in „Kämpfer im Überblick“ that shows it as a link and a QR code,
// and the live picture for a second screen on this device.
// - Per fighter the game master chooses what the players see: „Werte“ (his resources, for the
//   own heroes), „grob“ (unverletzt / angeschlagen / schwer verletzt / kampfunfähig / tot, for
//   enemies), „nichts“ (only the name, in its turn: no values, state, effects or place) or
//   „verbergen“ (left out: not in the order, not as the actor or the next; the players do not
//   learn he is there). What the players could infer follows the choice: „Als Nächstes“ passes
//   over a fighter who cannot act only where they see his state (Werte, grob); a hidden
//   fighter is skipped as if absent. Only this picture leaves the device (link, QR code,
//   second screen). The choice is kept per system in the browser
//   (localStorage "regelwerk:spieler-sicht:<system>"); without a choice a fighter of the side
//   „Helden“ shows „Werte“, everyone else „grob“.
// - „grob“ compares the system's first life value (the fight contract's: LeP, Trefferpunkte,
//   Gesundheit: a pool a hit lowers) with the highest value the journal has seen for him: ≥ 100 % unverletzt, ≥ 50 %
//   angeschlagen, below schwer verletzt; kampfunfähig / tot from his state. Where the page
//   tracks no resource (the Tickleiste alone), only „kampffähig“ or the state is said.
// - The link (player-link.js) carries the picture in its fragment; the QR code (qr.js) holds at
//   most version 10. A picture too big for it is sent with less – first without the effects,
//   then only the order – and the box says so; too big even then, there is no code, only the
//   link.
// - The second screen: spieler/#live=<system> in another window of this browser follows the
//   fight – every time the overview is drawn the picture is written to localStorage
//   ("regelwerk:spieler-live:<system>", the storage event reaches the other window) and sent on
//   a BroadcastChannel ("regelwerk-spieler").
// - The live table: the same picture, at the same moment, goes to every phone connected over
//   WebRTC (live-gm.js send); while live is on, the QR code's link carries the offer for the
//   next phone beside the picture (wire.js withOffer; the picture reduced as far as needed to
//   stay within version 10, or left out: the phone gets it once connected) and the box shows
//   the live part (live-box.js).

import { boardNow, boardOrder, downNames, effectLeft, effectsOf } from "../fight/effects.js";
import { canAct, stateOfFighter } from "../fight/reducer.js";
import * as roster from "../fight/roster.js";
import { LEVELS, compact, fragmentOf, reduced } from "./link.js";
import { VERSION_MAX, qrOf, svgOf } from "./qr.js";
import { currentOffer, isOn as liveOn, send as sendLive } from "./live-gm.js";
import { drawLive } from "./live-box.js";
import { CHANNEL, liveKey, withOffer } from "./wire.js";
import * as store from "../common/store.js";
import { el, germanNumber, isObject, ownValue } from "../common/util.js";

const SHOW_TEXT = { werte: "Werte", grob: "grob", nichts: "nichts", verbergen: "verbergen" };

function showKey(system) {
  return `spieler-sicht:${system}`;
}

// The game master's choices per system, as stored (read each time: another tab may have
// changed them, and a page of this visit is no cache of them).
function shows(system) {
  const { value } = store.read(showKey(system), (v) => (isObject(v) ? "" : "keine Auswahl"));
  return isObject(value) ? value : {};
}

// The game master's choice; without one, a fighter on the side „Helden“ (DSA's initiative
// names the heroes' side so by default) shows his values, everyone else „grob“.
function showOf(table, name) {
  const choice = ownValue(shows(table.system), name);
  if (Object.hasOwn(SHOW_TEXT, choice)) return choice;
  const record = ownValue(table.store.state.fighters, name);
  return isObject(record) && typeof record.side === "string" && /^held/i.test(record.side.trim()) ? "werte" : "grob";
}

function number(value) {
  if (value === undefined || value === null || value === "") return null;
  const n = Number(String(value).replace("−", "-"));
  return Number.isFinite(n) ? n : null;
}

// The highest value of a resource the fight has known for a fighter (what he started with).
function peakOf(journal, name, key) {
  let peak = null;
  const seen = (values) => {
    const n = isObject(values) ? number(ownValue(values, key)) : null;
    if (n !== null && (peak === null || n > peak)) peak = n;
  };
  const base = ownValue(journal.base.fighters, name);
  if (isObject(base)) seen(base.stats);
  for (const { event } of journal.steps) {
    if (event.type === "roll" && event.target === name) {
      seen(event.targetValues);
      seen(event.update);
    } else if ((event.type === "values" && !event.action) && event.fighter === name) {
      seen(event.values);
    } else if (event.type === "correct" && event.fighter === name && event.field === key) {
      seen({ [key]: event.value });
    }
  }
  return peak;
}

export function healthOf(journal, fight, name, resources) {
  const state = stateOfFighter(fight, name);
  if (state && state.zustand !== "kampffähig") return state.zustand;
  if (!resources.length) return "kampffähig";
  const record = ownValue(fight.fighters, name);
  const now = isObject(record) ? number(ownValue(record.stats, resources[0].key)) : null;
  const peak = peakOf(journal, name, resources[0].key);
  if (now === null || peak === null || peak <= 0 || now >= peak) return "unverletzt";
  return now / peak >= 0.5 ? "angeschlagen" : "schwer verletzt";
}

// Who acts after the actor, as the players may know it: the next turn (or the Tickleiste's
// next fighter) among the fighters they see, passing over one who cannot act only where they
// see his state (``known``) – a „nichts“ fighter who is down is not given away by a skip.
function nextOf(table, fight, names, known) {
  const passes = (name) => names.includes(name) && (!known(name) || canAct(fight, name));
  if (table.hasBoard) {
    const line = boardOrder(fight.board).filter((n) => canAct(fight, n) || (names.includes(n) && !known(n)));
    const after = line.slice(1).filter(passes);
    return after.length ? names.indexOf(after[0]) : -1;
  }
  const turns = fight.turns || [];
  for (let i = 1; i <= turns.length; i++) {
    const turn = turns[(fight.turn + i) % turns.length];
    if (turn.name !== fight.actor && passes(turn.name)) return names.indexOf(turn.name);
  }
  return -1;
}

function clockOf(table, fight) {
  if (table.hasBoard) {
    const now = boardNow(fight.board, downNames(fight));
    return now === null ? "" : `Tick ${String(now).replace("-", "−")}`;
  }
  const turns = fight.turns || [];
  const turn = turns[fight.turn];
  return turn ? `Runde ${germanNumber(fight.round || 1)} · ${turn.label}` : "";
}

// The fight as the players see it (player-link.js describes the shape).
export function pictureOf(table, at = Date.now()) {
  const { journal, state: fight } = table.store;
  const chosen = new Map(table.names().map((name) => [name, showOf(table, name)]));
  const names = [...chosen.keys()].filter((name) => chosen.get(name) !== "verbergen");
  const known = (name) => chosen.get(name) === "werte" || chosen.get(name) === "grob";
  const places = roster.positions(fight, table.hasBoard);
  const resources = table.contract.values;
  const fighters = names.map((name) => {
    const show = chosen.get(name);
    const out = { name, place: show === "nichts" ? "" : places.get(name) || "", show };
    if (show === "grob") out.health = healthOf(journal, fight, name, resources);
    if (show === "werte") {
      const record = ownValue(fight.fighters, name);
      out.values = resources.map((r) => (isObject(record) ? number(ownValue(record.stats, r.key)) : null));
      const state = stateOfFighter(fight, name); // beside his values: kampfunfähig or tot
      if (state && state.zustand !== "kampffähig") out.health = state.zustand;
    }
    out.effects =
      show === "nichts" ? [] : effectsOf(fight, name).map((e) => ({ name: e.name, left: effectLeft(fight, e.until) }));
    return out;
  });
  return {
    system: table.system,
    at: Math.floor(at / 1000) * 1000,
    clock: clockOf(table, fight),
    actor: names.indexOf(fight.actor), // −1 while a hidden fighter acts: „Noch niemand am Zug“
    next: nextOf(table, fight, names, known),
    resources: resources.map((r) => r.name),
    level: "voll",
    fighters,
  };
}

// The player view's address: spieler/ online; from the offline export (file://, a page no
// phone can open) the published site's spieler/ when the export's build knew that site
// (<meta name="regelwerk-online-root">, site_plugins/offline), else its own spieler.html.
export function playerPage() {
  const published = document.querySelector('meta[name="regelwerk-online-root"]');
  if (location.protocol === "file:" && published && /^https?:\/\//.test(published.content)) {
    return new URL("spieler/", published.content);
  }
  let base = ".";
  const config = document.getElementById("__config");
  try {
    base = JSON.parse(config.textContent).base || ".";
  } catch (error) {
    base = ".";
  }
  const files = /\.html$/.test(location.pathname);
  return new URL(`${base}/${files ? "spieler.html" : "spieler/"}`, location.href);
}

// → {link, qr, level}: the fullest picture whose link fits a QR code of version ≤ 10 (qr null
// when even the order alone does not fit). With ``offer`` (live-gm.js, packed) the link
// carries it beside the picture; where not even the names fit beside it, the offer alone
// (level „nur Live“: the phone shows the fight once connected).
export async function linkFor(picture, offer = null) {
  const page = playerPage();
  let first = null;
  for (const level of LEVELS) {
    const fragment = await fragmentOf(reduced(picture, level));
    const link = `${page.href}${offer ? withOffer(fragment, offer) : fragment}`;
    if (!first) first = link;
    const qr = qrOf(link, VERSION_MAX);
    if (qr) return { link, qr, level };
  }
  if (offer) {
    const link = `${page.href}${withOffer("", offer)}`;
    const qr = qrOf(link, VERSION_MAX);
    if (qr) return { link, qr, level: "nur Live" };
  }
  return { link: first, qr: null, level: "voll" };
}

// ------------------------------------------------------------------ the second screen

let channel = null;

export function publish(table) {
  const picture = compact(pictureOf(table));
  store.write(liveKey(table.system), picture); // the text compact() makes
  sendLive(table.system, picture); // the phones connected live (nothing while live is off)
  try {
    if (!channel && typeof BroadcastChannel === "function") channel = new BroadcastChannel(CHANNEL);
    if (channel) channel.postMessage({ system: table.system, picture });
  } catch (error) {
    channel = null; // the storage event carries it all the same
  }
}

// ------------------------------------------------------------------ the box

function showChooser(table, redraw) {
  const list = el("ul", "rw-share-shows");
  for (const name of table.names()) {
    const item = el("li", "");
    const box = el("select", "rw-share-show");
    box.setAttribute("aria-label", `Was die Spieler von ${name} sehen`);
    box.replaceChildren(...Object.entries(SHOW_TEXT).map(([value, text]) => new Option(text, value)));
    box.value = showOf(table, name);
    box.addEventListener("change", () => {
      const next = { ...shows(table.system) };
      Object.defineProperty(next, name, { value: box.value, enumerable: true, writable: true, configurable: true });
      store.write(showKey(table.system), next);
      redraw();
    });
    item.append(el("span", "rw-share-show-name", name), box);
    list.appendChild(item);
  }
  return list;
}

const LEVEL_TEXT = {
  voll: "",
  "ohne Wirkungen": "Für einen lesbaren QR-Code ohne die Wirkungen (betäubt …) – der Link unten enthält sie auch nicht; auf dem zweiten Bildschirm stehen sie.",
  "nur Reihenfolge": "Für einen lesbaren QR-Code nur die Reihenfolge – ohne Werte, Zustände und Wirkungen.",
  "nur Namen": "Für einen lesbaren QR-Code nur die Namen in ihrer Reihenfolge und wer dran ist – ohne Plätze, Werte, Zustände und Wirkungen.",
};
const LIVE_LEVEL_TEXT = {
  voll: "",
  "ohne Wirkungen": "Neben der Live-Einladung hat der QR-Code den Stand ohne die Wirkungen – verbunden sieht das Handy alles.",
  "nur Reihenfolge": "Neben der Live-Einladung hat der QR-Code nur die Reihenfolge – verbunden sieht das Handy alles.",
  "nur Namen": "Neben der Live-Einladung hat der QR-Code nur die Namen – verbunden sieht das Handy alles.",
  "nur Live": "Der QR-Code hat nur die Live-Einladung (für den Stand daneben ist kein Platz): das Handy zeigt den Kampf, sobald es verbunden ist.",
};

let drawing = 0;

async function drawShare(table, parts) {
  const { box, shows: showsBox, out } = parts;
  publish(table);
  if (!box.open) return;
  drawLive(parts.live, table, () => drawShare(table, parts));
  const ticket = ++drawing;
  const picture = pictureOf(table);
  showsBox.replaceChildren(showChooser(table, () => drawShare(table, parts)));
  if (!picture.fighters.length) {
    out.replaceChildren(el("p", "rw-help", "Noch niemand im Kampf – erst die Reihenfolge würfeln bzw. Kämpfer in die Tickleiste eintragen."));
    return;
  }
  let made;
  const offer = liveOn(table.system) ? currentOffer(table.system) : null;
  let invite = null;
  try {
    made = await linkFor(picture);
    if (offer) invite = await linkFor(picture, offer.text);
  } catch (error) {
    out.replaceChildren(el("p", "rw-error", "Dieser Browser kann den Link nicht packen (CompressionStream fehlt) – bitte einen aktuellen Browser nehmen."));
    return;
  }
  if (ticket !== drawing) return; // a newer picture is on its way
  const shown = [];
  // a link into the offline export's own files opens on this device only; from an export
  // that knows the published site, the link and its code lead there (playerPage)
  const onlyHere = made.link.startsWith("file:");
  if (invite && invite.qr && !onlyHere) {
    const figure = el("figure", "rw-share-qr rw-live-qr");
    const whom = offer.peer ? `Handy ${offer.peer} (neu verbinden)` : "ein neues Handy";
    figure.appendChild(svgOf(invite.qr, `QR-Code der Spieleransicht mit Live-Einladung für ${whom}`));
    figure.appendChild(el("figcaption", "", `Live-Einladung für ${whom}: mit der Kamera scannen (QR-Version ${invite.qr.version}).`));
    shown.push(figure);
    if (LIVE_LEVEL_TEXT[invite.level]) shown.push(el("p", "rw-help rw-share-level", LIVE_LEVEL_TEXT[invite.level]));
    const inviteLink = el("input", "rw-share-link rw-live-link");
    inviteLink.type = "text";
    inviteLink.readOnly = true;
    inviteLink.value = invite.link;
    const inviteLabel = el("label", "rw-live-link-label");
    inviteLabel.append(el("span", "", `Link mit der Live-Einladung für ${whom} (gilt für ein Handy):`), inviteLink);
    shown.push(inviteLabel, el("p", "rw-help rw-live-plain", "Link ohne Live (der Stand von jetzt, für alle):"));
  } else if (made.qr && !onlyHere) {
    const figure = el("figure", "rw-share-qr");
    figure.appendChild(svgOf(made.qr, "QR-Code der Spieleransicht"));
    figure.appendChild(el("figcaption", "", `Mit der Kamera scannen – Stand ${new Date(picture.at).toLocaleTimeString("de-DE")} Uhr (QR-Version ${made.qr.version}).`));
    shown.push(figure);
    if (location.protocol === "file:") {
      shown.push(el("p", "rw-help", "Der Code führt zur veröffentlichten Seite: ein Handy braucht beim ersten Öffnen Netz, danach geht die Spieleransicht auch offline."));
    }
  } else if (onlyHere) {
    shown.push(el("p", "rw-help", "Aus der Offline-Version zeigt der Link nur auf diesem Gerät die Spieleransicht (etwa als zweiter Bildschirm); für die Handys der Spieler den QR-Code auf der Online-Seite zeigen."));
  } else {
    shown.push(el("p", "rw-help", "Zu viele Kämpfer für einen lesbaren QR-Code – bitte den Link teilen."));
  }
  if (LEVEL_TEXT[made.level] && !invite) shown.push(el("p", "rw-help rw-share-level", LEVEL_TEXT[made.level]));
  const link = el("input", "rw-share-link rw-player-link");
  link.type = "text";
  link.readOnly = true;
  link.value = made.link;
  link.setAttribute("aria-label", "Link für die Spieler");
  const copy = el("button", "md-button rw-share-copy", "Link kopieren");
  copy.type = "button";
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(made.link);
      copy.textContent = "Kopiert";
    } catch (error) {
      link.select();
      copy.textContent = "Bitte markierten Link kopieren";
    }
  });
  const open = el("a", "md-button rw-share-open", "Spieleransicht öffnen");
  open.href = made.link;
  open.target = "_blank";
  open.rel = "noopener";
  const live = el("a", "md-button rw-share-live", "Zweiter Bildschirm (folgt dem Kampf)");
  live.href = `${playerPage().href}#live=${encodeURIComponent(table.system)}`;
  live.target = "_blank";
  live.rel = "noopener";
  const row = el("p", "rw-share-actions");
  row.append(copy, open, live);
  shown.push(link, row, el("p", "rw-help", `Link: ${germanNumber(made.link.length)} Zeichen. Der Kampf steht im Link selbst (nach „#“) und geht an keinen Server.`));
  out.replaceChildren(...shown);
}

// → {draw}: the box „Für Spieler zeigen“ at the end of the overview's section, and how it
// follows the fight (the second screen's picture is published on every draw).
export function setupShare(table, section) {
  const box = el("details", "rw-share-players");
  box.appendChild(el("summary", "", "Für Spieler zeigen"));
  box.appendChild(el("p", "rw-help", "Ein Link und QR-Code mit der Reihenfolge, wer dran ist, und was die Spieler von jedem Kämpfer sehen sollen. Die Handys der Spieler brauchen dafür kein Konto und keinen Server."));
  const parts = { box, shows: el("div", "rw-share-choose"), out: el("div", "rw-share-out"), live: el("div", "rw-live") };
  box.append(parts.shows, parts.out, parts.live);
  box.addEventListener("toggle", () => drawShare(table, parts));
  section.appendChild(box);
  return { draw: () => drawShare(table, parts) };
}
