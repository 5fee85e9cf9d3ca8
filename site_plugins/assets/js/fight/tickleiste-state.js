// Regelwerk – tickleiste-state.js: what the browser keeps of a Tickleiste, and its files.
//
// Owns the shapes, checked before anything is used or written:
// - the stored value (localStorage "regelwerk:tickleiste:<name>", version 2):
//     {version: 2, state, shown, undo: [], redo: []}
//   the board as last shown: `state` is the engine's state, `shown` the engine's last answer
//   as displayed ({display, board, next, event, seed}) so a reload draws the board at once.
//   The board's truth is the fight's (fight.js: its `board`, with the fight's undo/redo); the
//   undo/redo lists of earlier pages are read and no longer kept. The stored value of
//   version 1 ({state, next, body}) is taken over.
// - the file a reader saves and loads: {format: "regelwerk-tickleiste", version: 1, saved,
//   state}; loading accepts nothing else and says in German what is wrong.

import { isObject, versionText } from "../common/util.js";

const VERSION = 2;
const FILE_FORMAT = "regelwerk-tickleiste";
const FILE_VERSION = 1;
export const FILE_MAX_BYTES = 200000;


export function key(helper) {
  return `tickleiste:${helper.dataset.storage || "ryssea"}`;
}

function checkShown(shown) {
  if (shown === null || shown === undefined) return "";
  if (!isObject(shown) || !isObject(shown.display)) return "die letzte Anzeige fehlt";
  const display = shown.display;
  if (typeof display.headline !== "string" || !Array.isArray(display.sections)) {
    return "die letzte Anzeige ist unvollständig";
  }
  if (!display.sections.every((s) => isObject(s) && typeof s.kind === "string")) {
    return "die letzte Anzeige ist unvollständig";
  }
  const board = shown.board;
  if (board !== undefined && (!isObject(board) || !Array.isArray(board.fields))) {
    return "der Zeitstrahl ist unvollständig";
  }
  return "";
}

function checkStack(stack) {
  if (stack === undefined) return "";
  if (!Array.isArray(stack) || !stack.every((e) => isObject(e) && isObject(e.state))) {
    return "die Liste zum Rückgängigmachen ist beschädigt";
  }
  return "";
}

// "" when `value` can be used, else a German description of what is wrong.
export function check(value) {
  if (!isObject(value)) return "kein Speicherstand der Tickleiste";
  if (!isObject(value.state)) return "der Stand der Tickleiste fehlt";
  if (value.version === undefined) return ""; // version 1: {state, next, body}; see normalize
  if (value.version !== VERSION) return `der Speicherstand ${versionText(value.version)}, erwartet ist ${VERSION}`;
  const fighters = value.state.fighters;
  if (fighters !== undefined && !Array.isArray(fighters)) return "die Kämpferliste ist beschädigt";
  return checkShown(value.shown) || checkStack(value.undo) || checkStack(value.redo);
}

function bodyShown(body) {
  const result = isObject(body.result) ? body.result : {};
  return { display: result.display, board: result.board, next: result.next, event: result.event, seed: body.seed };
}

export function normalize(value) {
  if (!value) return { version: VERSION, state: {}, shown: null, undo: [], redo: [] };
  if (value.version === undefined) {
    // version 1 kept the whole last answer; its display is used only if it is complete
    const shown = isObject(value.body) ? bodyShown(value.body) : null;
    const usable = shown && checkShown(shown) === "" ? shown : null;
    return { version: VERSION, state: value.state, shown: usable, undo: [], redo: [] };
  }
  return { version: VERSION, state: value.state, shown: value.shown || null, undo: [], redo: [] };
}

export function isEmpty(state) {
  return !isObject(state) || !Array.isArray(state.fighters) || state.fighters.length === 0;
}

export function fileText(state) {
  const file = { format: FILE_FORMAT, version: FILE_VERSION, saved: new Date().toISOString(), state };
  return JSON.stringify(file, null, 2);
}

// → {state, problem}: the board of a saved file, or a German reason why it cannot be loaded.
export function parseFile(text, name) {
  const label = name.length > 40 ? `${name.slice(0, 39)}…` : name;
  let data;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { state: null, problem: `„${label}“ ist keine lesbare Datei (der Inhalt ist beschädigt).` };
  }
  if (!isObject(data) || data.format !== FILE_FORMAT) {
    return { state: null, problem: `„${label}“ ist keine Tickleisten-Datei (es fehlt die Angabe „format: ${FILE_FORMAT}“).` };
  }
  if (data.version !== FILE_VERSION) {
    return { state: null, problem: `„${label}“ ${versionText(data.version)}; diese Seite liest Version ${FILE_VERSION}.` };
  }
  if (!isObject(data.state)) return { state: null, problem: `In „${label}“ fehlt der Stand der Tickleiste („state“).` };
  return { state: data.state, problem: "" };
}
