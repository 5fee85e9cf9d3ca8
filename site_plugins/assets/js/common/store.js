// Regelwerk – store.js: what a reader keeps in the browser, kept safely.
//
// Owns: reading and writing localStorage ("regelwerk:…" keys) so that nothing is lost:
// - read(key, check): parses the stored JSON and checks its shape with `check` (returns a
//   German problem or ""); anything unreadable is moved aside as a backup (one per key, the
//   newest), never silently dropped, and reported to the caller;
// - write(key, value): returns "" or a German message when the browser refuses (storage full
//   or blocked) – the caller shows it; nothing pretends to be saved;
// - peek(key): the stored text as it is (or null), to notice that another tab changed it;
// - downloads of text files (exports, backups) and reading a chosen file with a size limit.

import { germanNumber } from "./util.js";

const PREFIX = "regelwerk:";
const BACKUP = `${PREFIX}sicherung:`;
const REFUSED =
  "Der Browser hat das Speichern abgelehnt (Speicher voll oder gesperrt) – " +
  "dieser Stand gilt nur, solange die Seite offen ist.";

function storage() {
  try {
    return globalThis.localStorage || null;
  } catch (error) {
    return null; // blocked (e.g. cookies off): everything works for this visit only
  }
}

// Can this browser keep anything for the next visit? (No: cookies/storage blocked, some private
// modes, or no localStorage at all.) Asked once per visit.
let usable = null;

export function available() {
  if (usable === null) {
    const box = storage();
    try {
      box.setItem(`${PREFIX}probe`, "1");
      box.removeItem(`${PREFIX}probe`);
      usable = true;
    } catch (error) {
      usable = false;
    }
  }
  return usable;
}

// → {value, problem}: value is null when nothing (usable) is stored; problem is a German text
// when something was stored but could not be used (it is then kept as a backup).
export function read(key, check) {
  const box = storage();
  let raw = null;
  try {
    raw = box ? box.getItem(PREFIX + key) : null;
  } catch (error) {
    raw = null;
  }
  if (raw === null) return { value: null, problem: "" };
  let value;
  let problem = "";
  try {
    value = JSON.parse(raw);
  } catch (error) {
    problem = "nicht lesbar (kein gültiger Speicherstand)";
  }
  if (!problem && check) problem = check(value) || "";
  if (!problem) return { value, problem: "" };
  keepBackup(key, raw);
  try {
    box.removeItem(PREFIX + key);
  } catch (error) {
    // nothing more to do: the backup is what matters
  }
  return { value: null, problem };
}

export function peek(key) {
  const box = storage();
  try {
    return box ? box.getItem(PREFIX + key) : null;
  } catch (error) {
    return null;
  }
}

function keepBackup(key, raw) {
  const box = storage();
  try {
    box.setItem(BACKUP + key, JSON.stringify({ at: new Date().toISOString(), raw }));
  } catch (error) {
    // too big or refused: keep it at least for this visit
    memoryBackups.set(key, raw);
  }
}
const memoryBackups = new Map(); // key → raw text, for this visit only

export function backup(key) {
  if (memoryBackups.has(key)) return memoryBackups.get(key);
  const box = storage();
  try {
    const saved = box && box.getItem(BACKUP + key);
    return saved ? JSON.parse(saved).raw : null;
  } catch (error) {
    return null;
  }
}

export function dropBackup(key) {
  memoryBackups.delete(key);
  const box = storage();
  try {
    if (box) box.removeItem(BACKUP + key);
  } catch (error) {
    // nothing stored
  }
}

// Moves what is stored under `key` aside as the backup (e.g. a state the engine refused).
export function setAside(key) {
  const box = storage();
  try {
    const raw = box && box.getItem(PREFIX + key);
    if (raw !== null && raw !== undefined) keepBackup(key, raw);
    if (box) box.removeItem(PREFIX + key);
  } catch (error) {
    // nothing stored
  }
}

export function write(key, value) {
  const box = storage();
  if (!box) return REFUSED;
  try {
    box.setItem(PREFIX + key, JSON.stringify(value));
    return "";
  } catch (error) {
    return REFUSED;
  }
}

export function remove(key) {
  const box = storage();
  try {
    if (box) box.removeItem(PREFIX + key);
  } catch (error) {
    // nothing stored
  }
}

export function download(filename, text, type = "application/json") {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type }));
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  setTimeout(() => {
    URL.revokeObjectURL(link.href);
    link.remove();
  }, 0);
}

// The text of a file the reader chose, or a German problem; files over maxBytes are refused
// before they are read.
export async function readFile(file, maxBytes) {
  const name = file.name.length > 40 ? `${file.name.slice(0, 39)}…` : file.name;
  if (file.size > maxBytes) {
    const limit = germanNumber(Math.round(maxBytes / 1000));
    return { text: null, problem: `„${name}“ ist zu groß (höchstens ${limit} KB).` };
  }
  try {
    return { text: await file.text(), problem: "" };
  } catch (error) {
    return { text: null, problem: `„${name}“ lässt sich nicht lesen.` };
  }
}
