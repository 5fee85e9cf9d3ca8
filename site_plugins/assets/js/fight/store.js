// Regelwerk – fight/store.js: the fight store – the one owner of a system's fight in a window.
//
// One store per system (fightStore(system)); it alone holds the journal (fight/journal.js),
// reads and writes it (localStorage "regelwerk:kampf:<system>", through common/store.js: checked,
// an unusable one set aside as a backup with a German reason), and keeps it in step with the
// other tabs and pages of the same fight. Nothing writes fight data but a named step through
// `dispatch` (or `undo`/`redo`); what it hands out (`state`, `journal`) is frozen, so no view can
// change the fight by a side door, and no view keeps a copy of its own: every view (the fight
// bar, the overview, the Tickleiste, the helpers it fills, the player link) subscribes and
// draws from the store when it tells them.
// Tab sync: another tab's step arrives by the storage event and a BroadcastChannel message; the
// store also reads again when the window gets the focus, becomes visible or is shown from the
// back-forward cache, and before every step – WebKit's pages from file:// get neither the
// channel's messages nor, after a reload, storage events.
// A step that moves the fight's time on (Weiter, a new order, a Tickleiste command) is followed
// by a step of its own for the effects that have run out by it (named, undoable like any other).

import * as storage from "../common/store.js";
import { deepFreeze, isObject } from "../common/util.js";
import { expiredText, expiring, movesTime } from "./effects.js";
import * as journalOf from "./journal.js";

const CHANNEL = "regelwerk-kampf";

export function key(system) {
  return `kampf:${system}`;
}

function freeze(journal, state = journalOf.stateOf(journal)) {
  return { journal: deepFreeze(journal), state: deepFreeze(state) };
}

class FightStore {
  constructor(system, formerly) {
    this.system = system;
    this.formerly = isObject(formerly) ? formerly : {};
    this.views = new Set();
    this.problem = "";
    this.saveProblem = "";
    this.load();
  }

  // The stored journal, read (again); a problem reading it stays in `problem` for the views.
  load() {
    const { value, problem } = storage.read(key(this.system), journalOf.check);
    if (problem) this.problem = problem;
    const journal = journalOf.renamed(journalOf.fromStored(value), this.formerly);
    ({ journal: this.journal, state: this.state } = freeze(journal));
    this.source = storage.peek(key(this.system));
  }

  changedElsewhere() {
    return storage.peek(key(this.system)) !== this.source;
  }

  // Reads the fight again if another tab or page wrote it since; → true when it did (the
  // views have then been told).
  refresh() {
    if (!this.changedElsewhere()) return false;
    const before = this.state;
    this.load();
    this.tell({ kind: "elsewhere", before, step: null });
    return true;
  }

  // view: {alive() → false once its page is gone, draw(change)}; change: {kind: "step" | "undo"
  // | "redo" | "elsewhere", before: the state before, step}. → a function that unsubscribes.
  subscribe(view) {
    this.views.add(view);
    return () => this.views.delete(view);
  }

  tell(change) {
    for (const view of [...this.views]) {
      if (!view.alive()) this.views.delete(view);
    }
    for (const view of [...this.views]) view.draw(change);
  }

  write(journal, change, state = undefined) {
    const before = this.state;
    ({ journal: this.journal, state: this.state } = freeze(journal, state));
    this.saveProblem = storage.write(key(this.system), journal);
    this.source = storage.peek(key(this.system));
    if (!this.saveProblem) announceElsewhere(this.system);
    this.tell({ ...change, before });
  }

  // The one way to change the fight: a named step. → {changed, step} (step: the step recorded).
  dispatch(label, event) {
    if (this.changedElsewhere()) this.load(); // the newest fight, then this step on top
    let { journal, changed, state, step } = journalOf.record(this.journal, label, event, this.state);
    if (!changed) return { changed: false, step: null };
    if (movesTime(event)) {
      const ends = expiring(state);
      if (ends.length) {
        const end = { type: "effect-end", ends: ends.map(({ fighter, id }) => ({ fighter, id })), expired: true };
        ({ journal, state } = journalOf.record(journal, `Abgelaufen: ${expiredText(ends)}`, end, state));
      }
    }
    this.write(journal, { kind: "step", step }, state);
    return { changed: true, step };
  }

  // „Rückgängig“ / „Wiederherstellen“: → the step taken back (or put back), or null.
  undo() {
    return this.move("undo");
  }

  redo() {
    return this.move("redo");
  }

  move(direction) {
    if (this.changedElsewhere()) this.load();
    const moved = direction === "redo" ? journalOf.redo(this.journal) : journalOf.undo(this.journal);
    if (!moved) return null;
    this.write(moved.journal, { kind: direction, step: moved.step });
    return moved.step;
  }

  lastStep() {
    return journalOf.lastStep(this.journal);
  }

  nextRedo() {
    return journalOf.nextRedo(this.journal);
  }

  stepStands(n) {
    return journalOf.stepStands(this.journal, n);
  }
}

// A store of its own, outside the window's registry (the tests' second tab).
export function openStore(system, formerly = {}) {
  return new FightStore(system, formerly);
}

const stores = new Map();

// The store of a system's fight in this window (made on first use). formerly: {old: new}, the
// former names of the system's fields (helpers/forms.js formerNames), read when it is made.
export function fightStore(system, formerly = {}) {
  if (!stores.has(system)) {
    stores.set(system, new FightStore(system, formerly));
    listen();
  }
  return stores.get(system);
}

// The store of a system if this window has one (a Kampfhelfer page, a Tickleiste made it), else
// null – for the roll log, which names the step a roll made.
export function openedStore(system) {
  return stores.get(system) || null;
}

// The fight of a system as stored (a frozen copy, read anew): for tests and custom widgets (the
// facade's Regelwerk.fight) – changing it is impossible, and would change nothing.
export function current(system) {
  const store = fightStore(system);
  store.refresh();
  return store.state;
}

// ------------------------------------------------------------------ the other tabs

let channel = null;
let listening = false;

function announceElsewhere(system) {
  try {
    if (channel) channel.postMessage({ system });
  } catch (error) {
    // a closed channel: the storage event and the re-read on focus still carry it
  }
}

function refreshAll() {
  for (const store of stores.values()) store.refresh();
}

function listen() {
  if (listening || typeof window === "undefined" || typeof window.addEventListener !== "function") return;
  listening = true;
  window.addEventListener("storage", (event) => {
    if (event.key === null || String(event.key).startsWith("regelwerk:kampf:")) refreshAll();
  });
  window.addEventListener("focus", refreshAll);
  window.addEventListener("pageshow", refreshAll);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refreshAll();
  });
  try {
    channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL) : null;
    if (channel) channel.onmessage = refreshAll;
  } catch (error) {
    channel = null;
  }
}
