// Regelwerk – tickleiste.js: the Ryssea Tickleiste widget (a custom widget, see page.js).
//
// Owns the one path every command takes: load (checked) → the engine applies the command to
// the state → the answer's state (one the engine accepts again) → save → show. Nothing is
// written that the engine refused; a stored state the engine refuses is set aside as a
// backup (downloadable) with a German notice, and the board starts empty. „Rückgängig“ and
// „Wiederherstellen“ step through the last 30 states (kept across reloads); replacing a board
// with fighters (loading a file, starting anew) asks first and can be undone; its moves are
// not rolls and stay out of the page's roll log (log.js); a refused save says so; a board
// another tab saved meanwhile is read again before a command here could overwrite it.
// (tickleiste-ui.js), RW.runEngine.

import { newSeed, runEngine } from "./engine-client.js";
import { clearErrors, showError } from "./forms.js";
import { announce, ask, notice, outcomeText, resultNodes } from "./results.js";
import * as store from "./store.js";
import * as boardState from "./tickleiste-state.js";
import { drawTimeline } from "./timeline.js";
import { el } from "./util.js";

export function notices(helper) {
  return helper.querySelector(".rw-tl-notices");
}

export function current(helper) {
  return helper.rwSaved || boardState.normalize(null);
}

// Keeps the value for this visit and in the browser; a refused save is reported, not hidden.
export function persist(helper, saved) {
  helper.rwSaved = saved;
  const problem = store.write(boardState.key(helper), saved);
  helper.rwSaveProblem = problem;
  remember(helper);
  if (problem) notice(notices(helper), `Nicht gespeichert: ${problem}`, "error");
}

// The stored text this board was read from or last wrote. Another tab (the rule page and the
// Kampfhelfer page both carry the board) may have saved since: then a command here would
// write this tab's older board over it. When the browser refuses to store, the stored text
// stays as it was and the board lives on for this visit.
export function remember(helper) {
  helper.rwSource = store.peek(boardState.key(helper));
}

// → true when the board was changed in another tab: it is read again and shown, with a
// notice; the command is not given (it was meant for the board as it stood here).
async function changedElsewhere(helper) {
  if (helper.rwSource === undefined || store.peek(boardState.key(helper)) === helper.rwSource) return false;
  await loadBoard(helper);
  notice(notices(helper), "Die Tickleiste wurde inzwischen in einem anderen Tab geändert. Hier steht jetzt ihr aktueller Stand; bitte den Befehl noch einmal geben.", "error");
  return true;
}

export function setAsideNotice(helper, why) {
  const key = boardState.key(helper);
  notice(
    notices(helper),
    `Der gespeicherte Stand der Tickleiste ließ sich nicht verwenden (${why}). Er wurde als ` +
      "Sicherung beiseitegelegt; die Tickleiste beginnt leer.",
    "error",
    [
      { label: "Sicherung herunterladen", onClick: () => store.download("tickleiste-sicherung.json", store.backup(key) || "") },
      { label: "Sicherung verwerfen", onClick: (box) => { store.dropBackup(key); box.remove(); } },
    ],
  );
}

function fillFighters(helper, shown, preferred) {
  const select = helper.querySelector("select[data-path='fighter']");
  const board = shown && shown.board;
  const options = [];
  if (board) {
    for (const field of board.fields) {
      for (const m of field.markers) options.push([m.name, `${m.name} (Tick ${String(field.tick).replace("-", "−")})`]);
    }
    for (const w of board.waiting) options.push([w.name, `${w.name} (${w.status === "bereithalten" ? "hält bereit" : "wartet ab"})`]);
    for (const name of board.ready) options.push([name, `${name} (vor Kampfbeginn)`]);
  }
  const keep = preferred || select.value;
  select.replaceChildren(...options.map(([value, text]) => new Option(text, value)));
  if (keep && options.some(([value]) => value === keep)) select.value = keep;
}

export function show(helper, saved, preferred) {
  const shown = saved.shown;
  const result = helper.querySelector(".rw-result");
  if (shown && shown.display) {
    result.replaceChildren(...resultNodes({ result: { display: shown.display }, seed: shown.seed }));
  } else {
    result.replaceChildren(el("p", "rw-help", "Noch keine Kämpfer auf der Tickleiste."));
  }
  fillFighters(helper, shown, preferred);
  const select = helper.querySelector("select[data-path='fighter']");
  const tellFighterChosen = () => helper.dispatchEvent(new CustomEvent("regelwerk:fighter", { bubbles: true, detail: { name: select.value } }));
  const redraw = (name) => {
    select.value = name;
    drawTimeline(board, shown && shown.board, name, redraw);
    tellFighterChosen();
  };
  select.onchange = () => {
    drawTimeline(board, shown && shown.board, select.value, redraw);
    tellFighterChosen();
  };
  const board = helper.querySelector(".rw-tl-board");
  drawTimeline(board, shown && shown.board, select.value, redraw);
  helper.dataset.started = saved.state && saved.state.started ? "1" : "";
  const undo = helper.querySelector(".rw-tl-undo");
  const redo = helper.querySelector(".rw-tl-redo");
  const last = saved.undo[saved.undo.length - 1];
  undo.disabled = !last;
  undo.title = last ? `Rückgängig: ${last.label}` : "";
  redo.disabled = !saved.redo.length;
  redo.title = saved.redo.length ? `Wiederherstellen: ${saved.redo[saved.redo.length - 1].label}` : "";
}

export function shownOf(body) {
  const r = body.result;
  return { display: r.display, board: r.board, next: r.next, event: r.event, seed: body.seed };
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
  // the keyboard's focus stays in sight, clear of the column's scroll padding (a notice may
  // stand there): scroll only as far as the focused control allows
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

// The one path of a command. options: {state, seed, fields} (a replay gives its own).
export async function send(helper, command, fields, options = {}) {
  clearErrors(helper);
  if (await changedElsewhere(helper)) return null;
  const saved = current(helper);
  const state = options.state !== undefined ? options.state : saved.state;
  const seed = options.seed !== undefined ? options.seed : seedOf(helper);
  const request = { system: helper.dataset.system, action: helper.dataset.action, params: { ...fields, command, state }, seed };
  let body;
  try {
    body = await runEngine(request);
  } catch (error) {
    showError(helper, { field: "", message: `Tickleiste nicht erreichbar: ${error.message}` });
    return null;
  }
  if (!helper.isConnected) return null;
  if (!body.ok && body.error.field === "state" && options.state === undefined) {
    // the stored board itself is refused (e.g. changed in another tab): keep it as a backup
    store.setAside(boardState.key(helper));
    helper.rwSaved = boardState.normalize(null);
    show(helper, helper.rwSaved);
    setAsideNotice(helper, body.error.message);
    return null;
  }
  if (!body.ok) {
    showError(helper, body.error);
    return null;
  }
  const shown = shownOf(body);
  const changed = command !== "anzeigen" || options.state !== undefined;
  const label = body.result.event || options.label || "Befehl";
  const next = changed ? boardState.withUndo(saved, body.result.state, shown, label) : { ...saved, shown };
  persist(helper, next);
  show(helper, next, body.result.next);
  boardIntoView(helper);
  // heard once: what happened, then who is next
  const said = [body.result.event, outcomeText(body)].filter(Boolean).join(" ");
  announce(helper.querySelector(".rw-announce"), said);
  helper.dispatchEvent(new CustomEvent("regelwerk:result", { detail: body, bubbles: true }));
  return body;
}

export async function replace(helper, question) {
  if (boardState.isEmpty(current(helper).state)) return true;
  return ask(notices(helper), question, "Ja, ersetzen");
}

// Undo/redo: the engine shows the restored state again (nothing new is rolled).
export async function step(helper, from, to) {
  if (await changedElsewhere(helper)) return;
  const saved = current(helper);
  const entry = saved[from][saved[from].length - 1];
  if (!entry) return;
  const body = await runEngine({ system: helper.dataset.system, action: helper.dataset.action, params: { command: "anzeigen", state: entry.state }, seed: 0 }).catch(() => null);
  if (!body || !body.ok) return;
  const moved = { state: saved.state, label: entry.label };
  const next = { ...saved, state: entry.state, shown: shownOf(body), [from]: saved[from].slice(0, -1), [to]: [...saved[to], moved].slice(-boardState.UNDO_MAX) };
  persist(helper, next);
  show(helper, next);
  notice(notices(helper), `${from === "undo" ? "Rückgängig gemacht" : "Wiederhergestellt"}: ${entry.label}`);
}

// The stored board, checked, shown at once, then checked by the engine („anzeigen“; a refused
// state is set aside). Also when another tab changed it (see reloadIfChanged).
export async function loadBoard(helper) {
  const key = boardState.key(helper);
  const { value, problem } = store.read(key, boardState.check);
  let saved = boardState.normalize(value);
  try {
    show(helper, saved);
  } catch (error) {
    store.setAside(key);
    saved = boardState.normalize(null);
    show(helper, saved);
    setAsideNotice(helper, "die Anzeige war beschädigt");
  }
  helper.rwSaved = saved;
  remember(helper);
  if (problem) setAsideNotice(helper, problem);
  if (saved.state.started) boardIntoView(helper);
  if (Object.keys(saved.state).length === 0) return;
  // the engine checks the stored state in full (the browser only checks its outline)
  const body = await runEngine({ system: helper.dataset.system, action: helper.dataset.action, params: { command: "anzeigen", state: saved.state }, seed: 0 }).catch(() => null);
  if (!body || !helper.isConnected) return;
  if (!body.ok) {
    store.setAside(key);
    helper.rwSaved = boardState.normalize(null);
    remember(helper);
    show(helper, helper.rwSaved);
    setAsideNotice(helper, body.error.message);
    return;
  }
  // the engine's view of the stored state (a stored display may be from an older version)
  const refreshed = { ...helper.rwSaved, shown: shownOf(body) };
  persist(helper, refreshed);
  show(helper, refreshed);
}
