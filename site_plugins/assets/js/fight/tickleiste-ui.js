// Regelwerk – fight/tickleiste-ui.js: wires the Tickleiste's form and tools (registers the widget).
//
// Owns: setting up a .rw-tickleiste once per page: the fight's board is shown (fight/
// tickleiste.js attach: at once from its picture, else drawn by the engine); the buttons
// (each sends the fields of its own fieldset; Enter runs the command of the fieldset in
// focus); after every command the values that belong to one action (action, ticks, free
// movement) and the add form go back to their defaults, the next actor is preselected;
// the tools: undo/redo, removing the selected fighter (asks), file save/load (versioned,
// checked, asks before replacing), starting anew (asks; undoable).
// Exposes: setupTickleiste (the custom widget „tickleiste“, registered by bundle.js) and
// offerSurprisedOnBoard (the Überraschung helper's button to mark them on the board).

import { runEngine } from "../../../laufzeit/js/engine-client.js";
import { ask, notice } from "../helpers/results.js";
import * as store from "../common/store.js";
import * as tickleiste from "./tickleiste.js";
import * as boardState from "./tickleiste-state.js";
import { el } from "../common/util.js";

function fieldsOf(container) {
  const params = {};
  container.querySelectorAll("[data-path][data-type]").forEach((input) => {
    if (input.dataset.type === "seed") return;
    params[input.dataset.path] = input.dataset.type === "bool" ? input.checked : input.value;
  });
  return params;
}

function resetFields(container) {
  container.querySelectorAll("[data-path][data-type]").forEach((input) => {
    if (input.dataset.path === "fighter") return;
    if (input.closest(".rw-field[data-subject]")) return; // the fighter's own: tickleiste.fillKept
    if (input.dataset.type === "bool") input.checked = input.defaultChecked;
    else if (input.tagName === "SELECT") input.value = input.dataset.rwDefault;
    else input.value = input.defaultValue;
  });
}

function rememberDefaults(helper) {
  helper.querySelectorAll("select[data-path]").forEach((select) => {
    select.dataset.rwDefault = select.value;
  });
}


// The acting fighter's own values in a command (fields marked `subject: actor`: his Ticks).
function ownValues(fieldset, fields) {
  const values = {};
  fieldset.querySelectorAll('.rw-field[data-subject="actor"] [data-path][data-type]').forEach((input) => {
    values[input.dataset.path] = fields[input.dataset.path];
  });
  return Object.keys(values).length && fields.fighter ? { fighter: fields.fighter, values } : undefined;
}

async function run(helper, command, fieldset) {
  const fields = fieldsOf(fieldset);
  const keep = command === "handeln" ? ownValues(fieldset, fields) : undefined;
  const body = await tickleiste.send(helper, command, fields, { keep });
  if (!body) return;
  if (command === "hinzufuegen") {
    resetFields(fieldset);
    fieldset.querySelector("[data-path='name']").focus();
  } else if (command !== "start") {
    resetFields(helper.querySelector(".rw-tl-act"));
  }
}

async function importFile(helper, file) {
  const host = tickleiste.notices(helper);
  const { text, problem } = await store.readFile(file, boardState.FILE_MAX_BYTES);
  const parsed = problem ? { problem } : boardState.parseFile(text, file.name);
  if (parsed.problem) {
    notice(host, `Laden nicht möglich: ${parsed.problem}`, "error");
    return;
  }
  // the engine checks the board before anything is replaced
  const check = await runEngine({ system: helper.dataset.system, action: helper.dataset.action, params: { command: "anzeigen", state: parsed.state }, seed: 0 }).catch((e) => ({ ok: false, error: { message: e.message } }));
  if (!check.ok) {
    notice(host, `Laden nicht möglich: ${check.error.message}`, "error");
    return;
  }
  if (!(await tickleiste.replace(helper, "Die Tickleiste hat schon Kämpfer. Durch den Stand aus der Datei ersetzen? (Mit „Rückgängig“ umkehrbar.)"))) return;
  const body = await tickleiste.send(helper, "anzeigen", {}, { state: parsed.state, label: `aus „${file.name.slice(0, 40)}“ geladen` });
  if (body) notice(host, `Tickleiste aus „${file.name.slice(0, 40)}“ geladen.`);
}

async function startAnew(helper) {
  if (!(await tickleiste.replace(helper, "Alle Kämpfer von der Tickleiste nehmen und neu beginnen? (Mit „Rückgängig“ umkehrbar.)"))) return;
  const body = await tickleiste.send(helper, "anzeigen", {}, { state: {}, label: "neu begonnen (leer)" });
  if (body) notice(tickleiste.notices(helper), "Die Tickleiste ist leer.");
}

async function removeSelected(helper) {
  const name = helper.querySelector("select[data-path='fighter']").value;
  if (!name) {
    notice(tickleiste.notices(helper), "Bitte zuerst einen Kämpfer auswählen (im Zeitstrahl oder in der Liste „Kämpfer“).", "error");
    return;
  }
  if (!(await ask(tickleiste.notices(helper), `${name} aus dem Kampf nehmen? (Mit „Rückgängig“ umkehrbar.)`, "Ja, entfernen"))) return;
  await tickleiste.send(helper, "entfernen", { fighter: name });
}

export function setupTickleiste(helper) {
  const form = helper.querySelector(".rw-form");
  rememberDefaults(helper);
  tickleiste.attach(helper);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const active = document.activeElement;
    const fieldset = (active && active.closest && active.closest("fieldset[data-command-default]")) || form.querySelector("fieldset[data-command-default]");
    run(helper, fieldset.dataset.commandDefault, fieldset);
  });
  form.addEventListener("click", (event) => {
    const button = event.target.closest("button.rw-command[type=button]");
    if (button) run(helper, button.dataset.command, button.closest("fieldset"));
  });
  // a step another helper proposed and the reader chose (e.g. the defender's Aktive Abwehr,
  // fight.js): the same path as a command given here, with its own undo
  helper.addEventListener("regelwerk:follow-up", (event) => {
    const { command, ...fields } = (event.detail && event.detail.params) || {};
    if (typeof command === "string") tickleiste.send(helper, command, fields);
  });
  helper.querySelector(".rw-tl-undo").addEventListener("click", () => tickleiste.step(helper, "undo"));
  helper.querySelector(".rw-tl-redo").addEventListener("click", () => tickleiste.step(helper, "redo"));
  helper.querySelector(".rw-tl-remove").addEventListener("click", () => removeSelected(helper));
  helper.querySelector(".rw-tl-reset").addEventListener("click", () => startAnew(helper));
  helper.querySelector(".rw-tl-export").addEventListener("click", () => {
    store.download("tickleiste.json", boardState.fileText(tickleiste.boardOf(helper)));
  });
  helper.querySelector(".rw-tl-import").addEventListener("change", (event) => {
    const file = event.target.files && event.target.files[0];
    event.target.value = "";
    if (file) importFile(helper, file);
  });
}

// The Überraschung helper on the same page: its surprised defenders can be marked on the
// Tickleiste with one click (before the start; those not on it are named).
export function offerSurprisedOnBoard() {
  document.addEventListener("regelwerk:result", markSurprised);
}

function markSurprised(event) {
  const source = event.target.closest && event.target.closest(".rw-helper[data-action='surprise']");
  const names = event.detail && event.detail.result && event.detail.result.surprised;
  const board = document.querySelector(".rw-tickleiste[data-rw-ready]");
  if (!source || !board || !Array.isArray(names) || !names.length) return;
  const button = el("button", "md-button rw-to-tickleiste", "Überraschte in der Tickleiste markieren");
  button.type = "button";
  const note = el("p", "rw-fight-note");
  note.setAttribute("aria-live", "polite");
  button.addEventListener("click", async () => {
    const known = new Set((tickleiste.boardOf(board).fighters || []).map((f) => f.name));
    const done = [];
    for (const name of names.filter((n) => known.has(n))) {
      if (await tickleiste.send(board, "ueberraschen", { fighter: name })) done.push(name);
    }
    const missing = names.filter((n) => !known.has(n));
    const parts = [];
    if (done.length) parts.push(`Als überrascht markiert: ${done.join(", ")}.`);
    if (missing.length) parts.push(`Nicht auf der Tickleiste: ${missing.join(", ")} – beim Eintragen „Überrascht“ ankreuzen.`);
    note.textContent = parts.join(" ") || "Nichts zu markieren.";
  });
  source.querySelector(".rw-result").append(button, note);
}
