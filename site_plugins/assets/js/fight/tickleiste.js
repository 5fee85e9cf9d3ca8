// Regelwerk – tickleiste.js: the Ryssea Tickleiste widget (a custom widget, see page.js).
//
// Owns the one path every command takes: the engine applies the command to the board → the
// answer's state (one the engine accepts again) is a step of the fight (fight.js, the fight's
// one writer: {type: "board", state, next}) → shown. The board's truth is the fight's `board`;
// the widget keeps the last answer as shown (localStorage "regelwerk:tickleiste:<name>",
// tickleiste-state.js) so a reload draws it at once. „Rückgängig“ and „Wiederherstellen“ are
// the fight's – the same history as the fight bar's, 100 steps, kept across reloads; a step
// taken back that changed the board shows the board as it was. Nothing is written that the
// engine refused; a stored board the engine refuses is set aside as a backup (downloadable)
// with a German notice, and the board starts empty (a step too). Replacing a board with
// fighters (loading a file, starting anew) asks first and can be undone; a refused save says
// so; its moves are not rolls and stay out of the page's roll log (log.js); the board follows a step another tab made (the storage event) and, should a command
// race it, is read again before the command could overwrite it.
// (tickleiste-ui.js), RW.runEngine.

import { newSeed, runEngine } from "../runtime/engine-client.js";
import { clearErrors, showError } from "../helpers/forms.js";
import * as fight from "./fight.js";
import { effectsOf, lastStep, nextRedo, same } from "./journal.js";
import { announce, ask, notice, outcomeText, resultNodes } from "../helpers/results.js";
import * as store from "../common/store.js";
import * as boardState from "./tickleiste-state.js";
import { drawTimeline } from "./timeline.js";
import { el, ownValue } from "../common/util.js";

export function notices(helper) {
  return helper.querySelector(".rw-tl-notices");
}

export function current(helper) {
  return helper.rwSaved || boardState.normalize(null);
}

// Keeps the last answer as shown, for this visit and in the browser; a refused save is
// reported, not hidden.
export function persist(helper, saved) {
  helper.rwSaved = saved;
  const problem = store.write(boardState.key(helper), saved);
  helper.rwSaveProblem = problem;
  if (problem) notice(notices(helper), `Nicht gespeichert: ${problem}`, "error");
}

// The fight this board belongs to (fight.js), as this widget's view of it.
function viewOf(helper) {
  if (!helper.rwFight) {
    const view = { system: helper.dataset.system, notices: notices(helper) };
    view.connected = () => helper.isConnected;
    view.follow = () => followFight(helper);
    fight.load(view);
    helper.rwFight = view;
    fight.attach(view);
  }
  return helper.rwFight;
}

// The fight's board, shown: after a step taken back or put back, or one from another tab.
// Only a board different from the one shown is shown anew (the engine draws it).
export async function followFight(helper) {
  const view = viewOf(helper);
  const board = view.fight.board || {};
  if (same(board, current(helper).state || {})) {
    if (helper.rwDraw) helper.rwDraw(); // the board stands, a fighter's effects may not
    showSteps(helper);
    return;
  }
  const body = await drawn(helper, board);
  if (body && body.ok && helper.isConnected) showDrawn(helper, body);
}

// The engine draws a board („anzeigen“, nothing rolled) – and checks it in full (the browser
// only checks its outline). → its answer, or null when the engine is not reachable.
function drawn(helper, board) {
  return runEngine({ system: helper.dataset.system, action: helper.dataset.action, params: { command: "anzeigen", state: board }, seed: 0 }).catch(() => null);
}

// The engine's drawing of the board, kept and shown; the fight bar takes its fighters.
function showDrawn(helper, body) {
  const saved = { ...boardState.normalize(null), state: body.result.state, shown: shownOf(body) };
  persist(helper, saved);
  show(helper, saved);
  helper.dispatchEvent(new CustomEvent("regelwerk:board-shown", { detail: { board: body.result.board }, bubbles: true }));
}

// → true when the fight was changed in another tab and this page has not shown it yet: it is
// read again and shown, with a notice; the command is not given (it was meant for the board
// as it stood here).
async function changedElsewhere(helper) {
  const view = viewOf(helper);
  if (!fight.changedElsewhere(view)) return false;
  const before = view.fight.board;
  fight.load(view);
  if (same(before || {}, view.fight.board || {})) return false;
  await followFight(helper);
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
  const board = helper.querySelector(".rw-tl-board");
  const draw = () => drawTimeline(board, shown && shown.board, select.value, redraw, (name) => effectTexts(helper, name));
  const redraw = (name) => {
    select.value = name;
    draw();
    fillKept(helper);
    tellFighterChosen();
  };
  select.onchange = () => {
    draw();
    fillKept(helper);
    tellFighterChosen();
  };
  helper.rwDraw = draw;
  draw();
  helper.dataset.started = saved.state && saved.state.started ? "1" : "";
  fillKept(helper);
  showSteps(helper);
}

// The texts of a fighter's effects as the fight keeps them („betäubt (noch 3 Ticks)“).
function effectTexts(helper, name) {
  const state = viewOf(helper).fight;
  return effectsOf(state, name).map((effect) => fight.effectText(state, effect));
}

// The chosen fighter's own values (fields the schema marks `subject: actor`: his Ticks per
// action, 000 L186) as the fight keeps them from his last command; else the defaults.
export function fillKept(helper) {
  const view = viewOf(helper);
  const name = helper.querySelector("select[data-path='fighter']").value;
  const record = name ? ownValue(view.fight.fighters, name) : undefined;
  const kept = (record && ownValue(record.actions, helper.dataset.action)) || {};
  for (const input of helper.querySelectorAll('.rw-tl-act .rw-field[data-subject="actor"] [data-path][data-type]')) {
    const value = Object.hasOwn(kept, input.dataset.path) ? kept[input.dataset.path] : null;
    if (input.dataset.type === "bool") input.checked = value === null ? input.defaultChecked : !!value;
    else input.value = value === null ? input.defaultValue : String(value);
  }
}

// „Rückgängig“/„Wiederherstellen“ name the fight's last step and the next to put back.
function showSteps(helper) {
  const view = viewOf(helper);
  const undo = helper.querySelector(".rw-tl-undo");
  const redo = helper.querySelector(".rw-tl-redo");
  const last = lastStep(view.journal);
  const next = nextRedo(view.journal);
  undo.disabled = !last;
  undo.title = last ? `Rückgängig: ${last.label}` : "";
  redo.disabled = !next;
  redo.title = next ? `Wiederherstellen: ${next.label}` : "";
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

// The one path of a command. options: {state, seed, label} (a replay, a file, starting anew
// give their own), keep: {fighter, values} – the acting fighter's own values, kept for him.
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
    // the fight's board itself is refused: keep it as a backup, the board starts empty
    refused(helper, state, body.error.message);
    return null;
  }
  if (!body.ok) {
    showError(helper, body.error);
    return null;
  }
  const shown = shownOf(body);
  const changed = command !== "anzeigen" || options.state !== undefined;
  const label = body.result.event || options.label || "Befehl";
  const next = { ...saved, state: body.result.state, shown };
  persist(helper, next);
  if (changed) {
    const event = { type: "board", state: body.result.state, next: body.result.next || null };
    if (options.keep) Object.assign(event, { fighter: options.keep.fighter, action: helper.dataset.action, values: options.keep.values });
    fight.dispatch(viewOf(helper), `Tickleiste: ${label}`, event);
  }
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

// Undo/redo: the fight's step is taken back or put back; the board shows the fight's board
// again (nothing new is rolled).
export async function step(helper, direction) {
  if (await changedElsewhere(helper)) return;
  const moved = fight.undo(viewOf(helper), direction);
  if (!moved) return;
  await followFight(helper);
  notice(notices(helper), `${direction === "undo" ? "Rückgängig gemacht" : "Wiederhergestellt"}: ${moved.label}`);
}

// A board the engine refuses (damaged, from an older page): kept as the backup, said in
// German, and the board starts empty – as a step of the fight, so nothing goes unseen.
// `kept`: the board is the one stored for this widget (then the stored text is the backup).
function refused(helper, state, why, kept = false) {
  const key = boardState.key(helper);
  if (!kept) store.write(key, { ...boardState.normalize(null), state });
  store.setAside(key);
  helper.rwSaved = boardState.normalize(null);
  persist(helper, helper.rwSaved);
  fight.dispatch(viewOf(helper), "Tickleiste geleert (gespeicherter Stand unbrauchbar)", { type: "board", state: {} });
  show(helper, helper.rwSaved);
  setAsideNotice(helper, why);
}

// The board as last shown, checked, drawn at once; then the fight's board (the truth), checked
// by the engine („anzeigen“; a refused one is set aside). A board kept before the fight held
// it (an older page) becomes the fight's board as a step of its own.
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
  if (problem) setAsideNotice(helper, problem);
  if (saved.state.started) boardIntoView(helper);
  const view = viewOf(helper);
  const taken = !view.fight.board && Object.keys(saved.state).length > 0;
  const board = taken ? saved.state : view.fight.board || {};
  if (Object.keys(board).length === 0) {
    if (!boardState.isEmpty(saved.state)) await followFight(helper);
    return;
  }
  const body = await drawn(helper, board);
  if (!body || !helper.isConnected) return;
  if (!body.ok) {
    refused(helper, board, body.error.message, taken);
    return;
  }
  if (taken) fight.dispatch(view, "Tickleiste übernommen", { type: "board", state: body.result.state });
  showDrawn(helper, body); // the engine's view (a stored display may be from an older version)
}
