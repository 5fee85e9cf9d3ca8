// Regelwerk – fight/tickleiste-state.js: the Tickleiste's files, its picture cache and the
// board older pages kept (pure shapes, checked before anything is used or written).
//
// The board itself is part of the fight (the store's journal: `board`, with the fight's undo);
// nothing here is a second copy of it:
// - the picture (localStorage "regelwerk:tickleiste-bild:<system>", version 1): the engine's
//   last drawing of the board – {version, key, shown} with `key` the board and who cannot act as
//   drawn, `shown` {display, board, next, seed} – used only while the fight's board is exactly
//   the one it was drawn for, so a reload draws the board at once; otherwise the engine draws it.
// - the board older pages kept beside the fight (localStorage "regelwerk:tickleiste:<name>",
//   versions 1 and 2: {state, shown | body, undo, redo}): read once by `legacyBoard`; it becomes
//   the fight's board only when the fight holds nothing at all (no step, none to put back, no
//   board), then it is set aside as the backup either way – never taken over again.
// - the file a reader saves and loads: {format: "regelwerk-tickleiste", version: 1, saved,
//   state}; loading accepts nothing else and says in German what is wrong.

import { isObject, versionText } from "../common/util.js";

const PICTURE_VERSION = 1;
const FILE_FORMAT = "regelwerk-tickleiste";
const FILE_VERSION = 1;
export const FILE_MAX_BYTES = 200000;

// The key of the board older pages kept (`data-storage` of the widget, else „ryssea“).
export function legacyKey(helper) {
  return `tickleiste:${helper.dataset.storage || "ryssea"}`;
}

export function pictureKey(system) {
  return `tickleiste-bild:${system}`;
}

function checkShown(shown) {
  if (!isObject(shown) || !isObject(shown.display)) return "die letzte Anzeige fehlt";
  const display = shown.display;
  if (typeof display.headline !== "string" || !Array.isArray(display.sections)) return "die letzte Anzeige ist unvollständig";
  if (!display.sections.every((s) => isObject(s) && typeof s.kind === "string")) return "die letzte Anzeige ist unvollständig";
  if (shown.board !== undefined && (!isObject(shown.board) || !Array.isArray(shown.board.fields))) return "der Zeitstrahl ist unvollständig";
  return "";
}

// "" when a stored picture can be drawn, else a German reason (it is then set aside).
export function checkPicture(value) {
  if (!isObject(value) || value.version !== PICTURE_VERSION) return "kein Bild der Tickleiste";
  if (!isObject(value.key)) return "das Bild nennt seinen Stand nicht";
  return checkShown(value.shown);
}

export function picture(key, shown) {
  return { version: PICTURE_VERSION, key, shown };
}

// "" when an older page's stored board can be read, else a German reason.
export function checkLegacy(value) {
  if (!isObject(value)) return "kein Speicherstand der Tickleiste";
  if (!isObject(value.state)) return "der Stand der Tickleiste fehlt";
  if (value.version !== undefined && value.version !== 2) return `der Speicherstand ${versionText(value.version)}, erwartet ist 2`;
  if (value.state.fighters !== undefined && !Array.isArray(value.state.fighters)) return "die Kämpferliste ist beschädigt";
  return "";
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
