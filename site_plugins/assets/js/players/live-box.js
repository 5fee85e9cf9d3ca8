// Regelwerk – players/live-box.js: „Live verbinden“ in the box „Für Spieler zeigen“ (the game
// master's view of the live table; the connections themselves are live-gm.js').
//
// Owns: the button that starts and ends live, the answer code's way back – „Antwort-Code
// scannen“ (the camera: scan.js) or pasted as text –, the list of phones („Handy 1 –
// verbunden“, aria-live, with „Trennen“ or „Neu verbinden“ each) and the messages of the
// live table. The QR code with the offer is drawn by show.js (its link, wire.js withOffer).

import * as gm from "./live-gm.js";
import { cameraAvailable, scan } from "./scan.js";
import { el } from "../common/util.js";

function button(text, className, action) {
  const b = el("button", `md-button ${className}`, text);
  b.type = "button";
  b.addEventListener("click", action);
  return b;
}

// The list of phones, kept in place (each state changes its own line's text: a screen reader
// hears „Handy 2: getrennt“, not the whole list again).
function drawPhones(list, system) {
  const phones = gm.phones(system);
  const seen = new Set();
  for (const phone of phones) {
    seen.add(String(phone.number));
    let item = list.querySelector(`[data-handy="${phone.number}"]`);
    if (!item) {
      item = el("li", "rw-live-phone");
      item.dataset.handy = String(phone.number);
      item.append(el("span", "rw-live-phone-name", `Handy ${phone.number}`), el("span", "rw-live-phone-state"), el("span", "rw-live-phone-actions"));
      list.appendChild(item);
    }
    const state = item.querySelector(".rw-live-phone-state");
    const text = gm.STATES[phone.state];
    if (state.textContent !== text) state.textContent = text;
    if (item.dataset.state === phone.state) continue;
    item.dataset.state = phone.state;
    const actions = item.querySelector(".rw-live-phone-actions");
    const connected = phone.state === "verbunden" || phone.state === "wartet";
    actions.replaceChildren(
      connected
        ? button("Trennen", "rw-live-drop", () => gm.disconnect(system, phone.number))
        : button("Neu verbinden", "rw-live-again", () => gm.reconnect(system, phone.number)),
    );
    actions.firstChild.setAttribute("aria-label", `${connected ? "Trennen" : "Neu verbinden"}: Handy ${phone.number}`);
  }
  for (const item of [...list.children]) if (!seen.has(item.dataset.handy)) item.remove();
  list.hidden = phones.length === 0;
}

const parts = new WeakMap(); // the container → its elements, kept across redraws

// The live part of the box, in ``container``; ``redraw`` draws the whole box anew (the QR
// code with the new offer).
export function drawLive(container, table, redraw) {
  const system = table.system;
  let own = parts.get(container);
  const on = gm.isOn(system);
  if (!own || own.on !== on) {
    own = build(container, system, redraw, on);
    parts.set(container, own);
  }
  if (on) {
    gm.listen(system, redraw);
    drawPhones(own.list, system);
  }
}

function build(container, system, redraw, on) {
  const status = el("p", "rw-live-status");
  status.setAttribute("role", "status");
  const say = (text, bad = false) => {
    status.textContent = text;
    status.classList.toggle("rw-error", bad);
  };
  if (!on) {
    const go = button("Live verbinden", "rw-live-start", async () => {
      go.disabled = true;
      say("Die Live-Verbindung wird vorbereitet …");
      const problem = await gm.start(system, redraw);
      if (problem) {
        go.disabled = false;
        say(problem, true);
      }
    });
    container.replaceChildren(
      el("p", "rw-help", "Live: die Handys im selben WLAN folgen dem Kampf Schritt für Schritt – direkt von diesem Gerät, ohne Server. Jedes Handy scannt den QR-Code und zeigt dann einen Antwort-Code, den dieses Gerät mit der Kamera liest (oder als Text bekommt)."),
      el("p", "rw-share-actions", ""),
      status,
    );
    container.children[1].appendChild(go);
    return { on };
  }
  const list = el("ul", "rw-live-phones");
  list.setAttribute("aria-live", "polite");
  list.setAttribute("aria-label", "Verbundene Handys");
  const field = el("input", "rw-live-answer");
  field.type = "text";
  field.autocomplete = "off";
  field.spellcheck = false;
  field.id = `rw-live-answer-${system}`;
  const label = el("label", "rw-live-answer-label", "Antwort-Code des Handys (als Text)");
  label.htmlFor = field.id;
  const camera = el("div", "rw-live-camera");
  let stopScan = null;
  const accept = async (text) => {
    say("Verbinde …");
    const result = await gm.accept(text);
    if (result.problem) say(result.problem, true);
    else {
      say(`Handy ${result.number} ist verbunden.`);
      field.value = "";
    }
  };
  const pasteForm = el("form", "rw-live-paste");
  pasteForm.addEventListener("submit", (event) => {
    event.preventDefault();
    if (field.value.trim()) accept(field.value.trim());
    else say("Bitte zuerst den Antwort-Code einfügen.", true);
  });
  const connect = el("button", "md-button rw-live-connect", "Verbinden");
  connect.type = "submit";
  pasteForm.append(label, field, connect);
  const scanButton = button("Antwort-Code scannen", "rw-live-scan", () => {
    if (stopScan) {
      stopScan();
      stopScan = null;
      scanButton.textContent = "Antwort-Code scannen";
      say("");
      return;
    }
    scanButton.textContent = "Kamera schließen";
    say("Den Antwort-Code auf dem Handy vor die Kamera halten …");
    stopScan = scan(
      camera,
      (text) => {
        stopScan = null;
        scanButton.textContent = "Antwort-Code scannen";
        accept(text);
      },
      (problem) => {
        stopScan = null;
        scanButton.textContent = "Antwort-Code scannen";
        say(problem, true);
      },
    );
  });
  const row = el("p", "rw-share-actions");
  if (cameraAvailable()) row.appendChild(scanButton);
  row.appendChild(button("Neues Handy einladen", "rw-live-invite", () => gm.inviteNew(system)));
  row.appendChild(
    button("Live beenden", "rw-live-stop", () => {
      if (stopScan) stopScan();
      gm.stop();
      redraw();
    }),
  );
  container.replaceChildren(
    el("p", "rw-help", "Live ist an: der QR-Code oben lädt ein Handy ein. Es zeigt danach einen Antwort-Code – hier scannen oder als Text einfügen. Jedes weitere Handy scannt den nächsten Code."),
    row,
    camera,
    pasteForm,
    status,
    list,
  );
  return { on, list };
}
