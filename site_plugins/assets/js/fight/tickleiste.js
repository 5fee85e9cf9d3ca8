// Regelwerk – fight/tickleiste.js: the Ryssea Tickleiste widget, a view of the fight store.
//
// Owns the one path every command takes: the engine applies the command to the fight's board →
// the answer's state (one the engine accepts again) is a step of the fight ({type: "board",
// state, next}) → every view draws it. The board's truth is the fight's `board`; the widget
// keeps no copy of it – only the engine's last drawing (fight/tickleiste-state.js, the
// picture), used while the board is exactly the one drawn, so a reload shows it at once.
// The engine draws with the names of those who cannot act (the fight's states): the board
// marks them and its „Als Nächstes“ passes over them. „Rückgängig“ and „Wiederherstellen“ are
// the fight's (on a Kampfhelfer page only in the fight bar). Nothing is written that the engine
// refused; a board the engine refuses is set aside as a backup (downloadable) with a German
// notice, and the board starts empty (a step too). A roll of the board's (Kampfbeginn: the
// initiative) goes into the page's roll log; its other moves are not rolls. The board follows
// a step another tab made; a command given while another tab changed it is not given.
// The form's wiring: fight/tickleiste-ui.js.

import { clearErrors, formerNames, showError } from "../helpers/forms.js";
import { logRoll } from "../helpers/log.js";
import { announce, ask, hasDice, notice, outcomeText, resultNodes } from "../helpers/results.js";
import { newSeed, runEngine } from "../../../laufzeit/js/engine-client.js";
import * as storage from "../common/store.js";
import { el, ownValue } from "../common/util.js";
import { boardFighters, effectText, effectsOf } from "./effects.js";
import { same } from "./journal.js";
import { stateOfFighter } from "./reducer.js";
import * as roster from "./roster.js";
import { fightStore } from "./store.js";
import * as boardState from "./tickleiste-state.js";
import { drawTimeline } from "./timeline.js";

const views = new WeakMap(); // helper → {store, shown: {key, shown} | null}

export function notices(helper) {
  return helper.querySelector(".rw-tl-notices");
}

function viewOf(helper) {
  return views.get(helper);
}

export function boardOf(helper) {
  return viewOf(helper).store.state.board || {};
}

// What the engine draws: the board and who cannot act on it, with the word of his state.
function wanted(view) {
  const state = view.store.state;
  const unable = roster.unable(state, roster.names(state, true)).map((name) => ({ name, text: stateOfFighter(state, name).text }));
  return { board: state.board || {}, unable };
}

function params(key, fields = {}) {
  return { ...fields, state: key.board, ...(key.unable.length ? { unable: key.unable } : {}) };
}

function fighterBox(helper) {
  return helper.querySelector("select[data-path='fighter']");
}

// The fighters to choose from, where each stands („Alrik (Tick 5)“): the fight's board, read
// as the roster reads it (fight/effects.js boardFighters).
function fillFighters(helper, preferred) {
  const select = fighterBox(helper);
  const options = boardFighters(viewOf(helper).store.state.board).map((f) => [f.name, `${f.name} (${f.position})`]);
  const keep = preferred || select.value;
  select.replaceChildren(...options.map(([value, text]) => new Option(text, value)));
  if (keep && options.some(([value]) => value === keep)) select.value = keep;
}

// The texts of a fighter's effects as the fight keeps them („betäubt (noch 3 Ticks)“).
function effectTexts(view, name) {
  const state = view.store.state;
  return effectsOf(state, name).map((effect) => effectText(state, effect));
}

// The chosen fighter's own values (fields the schema marks `subject: actor`: his Ticks per
// action, 000 L186) as the fight keeps them from his last command; else the defaults.
export function fillKept(helper) {
  const view = viewOf(helper);
  const name = fighterBox(helper).value;
  const record = name ? ownValue(view.store.state.fighters, name) : undefined;
  const kept = (record && ownValue(record.actions, helper.dataset.action)) || {};
  for (const input of helper.querySelectorAll('.rw-tl-act .rw-field[data-subject="actor"] [data-path][data-type]')) {
    const value = Object.hasOwn(kept, input.dataset.path) ? kept[input.dataset.path] : null;
    if (input.dataset.type === "bool") input.checked = value === null ? input.defaultChecked : !!value;
    else input.value = value === null ? input.defaultValue : String(value);
  }
}

function redrawTimeline(helper) {
  const view = viewOf(helper);
  const shown = view.shown && view.shown.shown;
  drawTimeline(helper.querySelector(".rw-tl-board"), shown && shown.board, fighterBox(helper).value, (name) => choose(helper, name), (name) => effectTexts(view, name));
}

function tellFighterChosen(helper) {
  helper.dispatchEvent(new CustomEvent("regelwerk:fighter", { bubbles: true, detail: { name: fighterBox(helper).value } }));
}

function choose(helper, name) {
  fighterBox(helper).value = name;
  redrawTimeline(helper);
  fillKept(helper);
  tellFighterChosen(helper);
}

// Shows an engine drawing: the result, the fighters to choose from, the time line.
function show(helper, key, shown, preferred) {
  const view = viewOf(helper);
  view.shown = { key, shown };
  const result = helper.querySelector(".rw-result");
  // on a Kampfhelfer page the fight's „Verlauf“ lists every command: the board's own is left
  // out, and what the last command did stands right below the headline instead
  const inFight = !!helper.closest(".rw-workbench");
  const sections = shown && shown.display ? shown.display.sections.filter((s) => !(inFight && s.role === "history")) : [];
  if (shown && shown.display) {
    const nodes = resultNodes({ result: { display: { ...shown.display, sections } }, seed: shown.seed });
    if (inFight && shown.event) nodes.splice(1, 0, el("p", "rw-fight-note rw-tl-event", shown.event));
    result.replaceChildren(...nodes);
  }
  else result.replaceChildren(el("p", "rw-help", "Noch keine Kämpfer auf der Tickleiste."));
  fillFighters(helper, preferred || (shown && shown.next));
  helper.dataset.started = view.store.state.board && view.store.state.board.started ? "1" : "";
  redrawTimeline(helper);
  fillKept(helper);
  showSteps(helper);
}

function shownOf(body) {
  const r = body.result;
  return { display: r.display, board: r.board, next: r.next, event: r.event || "", seed: body.seed };
}

function keepPicture(helper, key, shown) {
  storage.write(boardState.pictureKey(helper.dataset.system), boardState.picture(key, shown));
}

// „Rückgängig“/„Wiederherstellen“ name the fight's last step and the next to put back.
function showSteps(helper) {
  const view = viewOf(helper);
  const undo = helper.querySelector(".rw-tl-undo");
  const redo = helper.querySelector(".rw-tl-redo");
  const last = view.store.lastStep();
  const next = view.store.nextRedo();
  undo.disabled = !last;
  undo.title = last ? `Rückgängig: ${last.label}` : "";
  redo.disabled = !next;
  redo.title = next ? `Wiederherstellen: ${next.label}` : "";
}

// The fight's board, drawn: at once from the picture while it is the one drawn, else by the
// engine („anzeigen“, nothing rolled – which also checks the board in full).
async function drawBoard(helper) {
  const view = viewOf(helper);
  const key = wanted(view);
  if (view.shown && same(view.shown.key, key)) {
    redrawTimeline(helper); // the board stands; a fighter's effects may not
    showSteps(helper);
    return;
  }
  const { value } = storage.read(boardState.pictureKey(helper.dataset.system), boardState.checkPicture);
  if (value && same(value.key, key)) {
    show(helper, key, value.shown);
    return;
  }
  if (Object.keys(key.board).length === 0) {
    show(helper, key, null);
    return;
  }
  const request = { system: helper.dataset.system, action: helper.dataset.action, params: params(key, { command: "anzeigen" }), seed: 0 };
  const body = await runEngine(request).catch(() => null);
  if (!body || !helper.isConnected || !same(wanted(view), key)) return;
  if (!body.ok) {
    refused(helper, key.board, body.error.message);
    return;
  }
  keepPicture(helper, key, shownOf(body));
  show(helper, key, shownOf(body));
}

export function setAsideNotice(helper, why) {
  const key = boardState.legacyKey(helper);
  notice(
    notices(helper),
    `Der gespeicherte Stand der Tickleiste ließ sich nicht verwenden (${why}). Er wurde als ` +
      "Sicherung beiseitegelegt; die Tickleiste beginnt leer.",
    "error",
    [
      { label: "Sicherung herunterladen", onClick: () => storage.download("tickleiste-sicherung.json", storage.backup(key) || "") },
      { label: "Sicherung verwerfen", onClick: (box) => { storage.dropBackup(key); box.remove(); } },
    ],
  );
}

// A board the engine refuses (damaged, from an older page): kept as the backup, said in
// German, and the board starts empty – as a step of the fight, so nothing goes unseen.
function refused(helper, state, why) {
  const key = boardState.legacyKey(helper);
  storage.write(key, { version: 2, state });
  storage.setAside(key);
  viewOf(helper).store.dispatch("Tickleiste geleert (gespeicherter Stand unbrauchbar)", { type: "board", state: {} });
  setAsideNotice(helper, why);
}

function seedOf(helper) {
  const input = helper.querySelector("[data-type='seed']");
  const text = input ? input.value.trim() : "";
  return text === "" ? newSeed() : text;
}

// On the working surface the fight column scrolls by itself: the time line (and „Handeln“
// right below it) is brought to its top after a command and when a running fight is opened.
export function boardIntoView(helper) {
  const column = helper.closest(".rw-workbench-fight");
  if (!column || column.scrollHeight <= column.clientHeight) return;
  const view = column.getBoundingClientRect();
  let shift = helper.querySelector(".rw-tl-board").getBoundingClientRect().top - view.top;
  // the keyboard's focus stays in sight, clear of the column's scroll padding
  const focus = document.activeElement;
  if (focus && focus !== column && column.contains(focus)) {
    const box = focus.getBoundingClientRect();
    const style = getComputedStyle(column);
    const most = box.top - view.top - (parseFloat(style.scrollPaddingTop) || 0);
    const least = box.bottom - view.bottom + (parseFloat(style.scrollPaddingBottom) || 0);
    shift = Math.max(least, Math.min(shift, most));
  }
  column.scrollTop += shift;
}

// The one path of a command. options: {state, seed, label} (a file, starting anew give their
// own board), keep: {fighter, values} – the acting fighter's own values, kept for him.
export async function send(helper, command, fields, options = {}) {
  clearErrors(helper);
  const view = viewOf(helper);
  const before = view.store.state.board;
  if (view.store.refresh() && !same(before || {}, view.store.state.board || {})) {
    notice(notices(helper), "Die Tickleiste wurde inzwischen in einem anderen Tab geändert. Hier steht jetzt ihr aktueller Stand; bitte den Befehl noch einmal geben.", "error");
    return null;
  }
  const key = wanted(view);
  const state = options.state !== undefined ? options.state : key.board;
  const request = { system: helper.dataset.system, action: helper.dataset.action, params: { ...params(key, fields), command, state }, seed: options.seed !== undefined ? options.seed : seedOf(helper) };
  let body;
  try {
    body = await runEngine(request);
  } catch (error) {
    showError(helper, { field: "", message: `Tickleiste nicht erreichbar: ${error.message}` });
    return null;
  }
  if (!helper.isConnected) return null;
  if (!body.ok && body.error.field === "state" && options.state === undefined) {
    refused(helper, state, body.error.message); // the fight's board itself is refused
    return null;
  }
  if (!body.ok) {
    showError(helper, body.error);
    return null;
  }
  const shown = shownOf(body);
  const event = { type: "board", state: body.result.state, next: body.result.next || null };
  if (options.keep) Object.assign(event, { fighter: options.keep.fighter, action: helper.dataset.action, values: options.keep.values });
  // the drawing is the one of the board the step makes: no second drawing after the step
  const after = { board: body.result.state, unable: key.unable };
  view.shown = { key: after, shown };
  keepPicture(helper, after, shown);
  const label = body.result.event || options.label || "Befehl";
  const { step } = view.store.dispatch(`Tickleiste: ${label}`, event);
  if (view.store.saveProblem) notice(notices(helper), `Nicht gespeichert: ${view.store.saveProblem}`, "error");
  show(helper, after, shown, body.result.next);
  boardIntoView(helper);
  // heard once: what happened, then who is next
  announce(helper.querySelector(".rw-announce"), [body.result.event, outcomeText(body)].filter(Boolean).join(" "));
  if (hasDice(body.result.display)) {
    logRoll(`Tickleiste: ${label}`, body, null, { request, helper: helper.id, step: step ? { system: helper.dataset.system, n: step.n } : null });
  }
  helper.dispatchEvent(new CustomEvent("regelwerk:result", { detail: body, bubbles: true }));
  return body;
}

export async function replace(helper, question) {
  if (boardState.isEmpty(boardOf(helper))) return true;
  return ask(notices(helper), question, "Ja, ersetzen");
}

// Undo/redo from the widget's own buttons (the rule page): the fight's step.
export function step(helper, direction) {
  const store = viewOf(helper).store;
  const moved = direction === "undo" ? store.undo() : store.redo();
  if (moved) notice(notices(helper), `${direction === "undo" ? "Rückgängig gemacht" : "Wiederhergestellt"}: ${moved.label}`);
}

// A board an older page kept beside the fight becomes the fight's board only when the fight
// holds nothing at all, and only once the engine has accepted it; it is set aside as the
// backup either way (never read twice). One the engine refuses is said, and left as the backup.
async function takeLegacy(helper, store) {
  const key = boardState.legacyKey(helper);
  const { value, problem } = storage.read(key, boardState.checkLegacy);
  if (problem) setAsideNotice(helper, problem);
  if (!value) return;
  storage.setAside(key);
  const journal = store.journal;
  const untouched = !journal.steps.length && !journal.redo.length && !journal.base.board;
  if (!untouched || boardState.isEmpty(value.state)) return;
  const request = { system: helper.dataset.system, action: helper.dataset.action, params: { command: "anzeigen", state: value.state }, seed: 0 };
  const body = await runEngine(request).catch(() => null);
  if (!body || !helper.isConnected) return;
  if (!body.ok) {
    setAsideNotice(helper, body.error.message);
    return;
  }
  store.dispatch("Tickleiste übernommen", { type: "board", state: body.result.state });
}

// The widget as a view of its fight: drawn now and after every step.
export async function attach(helper) {
  const store = fightStore(helper.dataset.system, formerNames(helper));
  store.refresh();
  views.set(helper, { store, shown: null });
  store.subscribe({ alive: () => helper.isConnected, draw: () => drawBoard(helper) });
  const select = fighterBox(helper);
  select.addEventListener("change", () => choose(helper, select.value));
  // on a Kampfhelfer page the fight bar has „Rückgängig“ – one pair of buttons for one journal
  if (helper.closest(".rw-workbench")) helper.querySelectorAll(".rw-tl-undo, .rw-tl-redo").forEach((b) => { b.hidden = true; });
  if (store.problem && !helper.closest(".rw-workbench")) {
    notice(notices(helper), `Der gespeicherte Kampf ließ sich nicht verwenden (${store.problem}). Er wurde als Sicherung beiseitegelegt.`, "error");
  }
  await drawBoard(helper);
  await takeLegacy(helper, store);
  if (store.state.board && store.state.board.started) boardIntoView(helper);
}
