// Regelwerk – timeline.js: the Tickleiste drawn as the text describes it (000 L9–L45).
//
// Owns: drawing the board the engine returns (`result.board`): a horizontal strip of tick
// fields from the current tick on, each field with its markers stacked from the inside out
// in arrival order (L23), long empty stretches folded into one gap; beside it the
// Abwarten-Feld (L31–L33: waiting and bereithaltende fighters) and who waits for the start.
// The current tick and who acts next are marked. Markers are buttons: clicking one (or
// Enter/Space) selects that fighter for the next command; the arrow keys, Home and End move
// between markers (one tab stop for the whole board). A fighter's effects (the fight's:
// „betäubt (noch 3 Ticks)“) stand under his marker and in its label. The engine's table stays
// the textual view; the engine's state stays the only truth: this only draws it.

import { el } from "../common/util.js";

const SHOWN_EMPTY = 2; // empty ticks drawn between two fields; longer gaps are folded

function tickText(tick) {
  return String(tick).replace("-", "−");
}

function marker(name, label, classes, selected) {
  const button = el("button", `rw-tl-marker ${classes}`.trim(), name);
  button.type = "button";
  button.dataset.name = name;
  button.title = label;
  button.setAttribute("aria-label", label);
  button.setAttribute("aria-pressed", String(name === selected));
  button.tabIndex = -1;
  return button;
}

// A fighter's effects under his marker (and in its label, for a screen reader).
function withEffects(li, button, texts) {
  if (!texts.length) return li;
  button.title = `${button.title} – ${texts.join(", ")}`;
  button.setAttribute("aria-label", button.title);
  li.appendChild(el("span", "rw-tl-effects", texts.join(", ")));
  return li;
}

function fieldItem(field, now, selected, effectsOf) {
  const item = el("li", field.tick === now ? "rw-tl-field rw-tl-field--now" : "rw-tl-field");
  item.dataset.tick = String(field.tick);
  const head = el("span", "rw-tl-tick", tickText(field.tick));
  if (field.tick === now) head.appendChild(el("span", "rw-tl-now", " jetzt"));
  const stack = el("ol", "rw-tl-stack");
  for (const entry of field.markers) {
    const parts = [`${entry.name}: Tick ${tickText(field.tick)}, Platz ${entry.place}`];
    let classes = "";
    if (entry.place === 1) {
      parts.push("am Zug");
      classes = "rw-tl-marker--next";
    } else if (!entry.can_react) {
      parts.push("zu weit zurück für eine Reaktion");
      classes = "rw-tl-marker--far";
    }
    const li = el("li");
    const button = marker(entry.name, parts.join(" – "), classes, selected);
    li.appendChild(button);
    stack.appendChild(withEffects(li, button, effectsOf(entry.name)));
  }
  item.append(head, stack);
  return item;
}

function emptyItems(from, to) {
  const count = to - from - 1;
  if (count <= 0) return [];
  if (count <= SHOWN_EMPTY) {
    return Array.from({ length: count }, (_, i) => {
      const item = el("li", "rw-tl-field rw-tl-field--empty");
      item.setAttribute("aria-hidden", "true");
      item.appendChild(el("span", "rw-tl-tick", tickText(from + i + 1)));
      return item;
    });
  }
  const gap = el("li", "rw-tl-gap", `⋯ ${count} Ticks ⋯`);
  gap.setAttribute("aria-label", `${count} leere Ticks`);
  return [gap];
}

function strip(board, selected, effectsOf) {
  const wrap = el("div", "rw-tl-strip-wrap");
  const list = el("ol", "rw-tl-strip");
  list.setAttribute("aria-label", "Zeitstrahl: Tickfelder ab dem aktuellen Tick");
  let previous = null;
  for (const field of board.fields) {
    if (previous !== null) list.append(...emptyItems(previous, field.tick));
    list.appendChild(fieldItem(field, board.now, selected, effectsOf));
    previous = field.tick;
  }
  wrap.appendChild(list);
  return wrap;
}

function sideBox(title, entries, selected, effectsOf) {
  const box = el("div", "rw-tl-side-box");
  box.appendChild(el("p", "rw-tl-side-title", title));
  const list = el("ul", "rw-tl-stack rw-tl-stack--side");
  for (const entry of entries) {
    const li = el("li");
    const holds = entry.status === "bereithalten";
    const text = holds ? `${entry.name}: hält eine Aktion bereit` : `${entry.name}: ${entry.label}`;
    const button = marker(entry.name, text, holds ? "rw-tl-marker--holds" : "", selected);
    li.appendChild(button);
    if (holds) li.appendChild(el("span", "rw-tl-holds", "hält bereit"));
    list.appendChild(withEffects(li, button, effectsOf(entry.name)));
  }
  if (!entries.length) list.appendChild(el("li", "rw-help", "niemand"));
  box.appendChild(list);
  return box;
}

function keyboard(container, onSelect) {
  container.addEventListener("keydown", (event) => {
    const current = event.target.closest && event.target.closest(".rw-tl-marker");
    if (!current) return;
    const all = [...container.querySelectorAll(".rw-tl-marker")];
    const index = all.indexOf(current);
    const moves = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    let next = null;
    if (event.key in moves) next = all[Math.max(0, Math.min(all.length - 1, index + moves[event.key]))];
    if (event.key === "Home") next = all[0];
    if (event.key === "End") next = all[all.length - 1];
    if (!next) return;
    event.preventDefault();
    current.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
  });
  container.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest(".rw-tl-marker");
    if (button) onSelect(button.dataset.name);
  });
}

const selecting = new WeakMap(); // time line → what choosing a marker does now

// effectsOf(name) → the texts of a fighter's effects (none by default)
export function drawTimeline(container, board, selected, onSelect, effectsOf = () => []) {
  if (!container.dataset.rwKeys) {
    container.dataset.rwKeys = "1";
    keyboard(container, (name) => selecting.get(container)(name));
  }
  selecting.set(container, onSelect);
  const hadFocus = container.contains(document.activeElement);
  const nodes = [];
  if (!board || (!board.fields.length && !board.waiting.length && !board.ready.length)) {
    nodes.push(el("p", "rw-help", "Noch keine Kämpfer – unten Kämpfer hinzufügen."));
  } else {
    const now = board.now === null ? "kein Kämpfer auf dem Zeitstrahl" : `aktueller Tick ${tickText(board.now)}`;
    const next = board.fields.length ? ` – am Zug: ${board.fields[0].markers[0].name}` : "";
    nodes.push(el("p", "rw-tl-summary", `Zeitstrahl, ${now}${next}`));
    if (board.fields.length) nodes.push(strip(board, selected, effectsOf));
    const side = el("div", "rw-tl-side");
    side.appendChild(sideBox("Abwarten-Feld (Mitte der Tickleiste)", board.waiting, selected, effectsOf));
    if (board.ready.length) {
      const ready = board.ready.map((name) => ({ name, status: "bereit", label: "wartet auf Kampfbeginn" }));
      side.appendChild(sideBox("Vor dem Kampfbeginn", ready, selected, effectsOf));
    }
    nodes.push(side);
  }
  container.replaceChildren(...nodes);
  const markers = [...container.querySelectorAll(".rw-tl-marker")];
  const tabStop = markers.find((m) => m.dataset.name === selected) || markers[0];
  if (tabStop) tabStop.tabIndex = 0;
  if (hadFocus && tabStop) tabStop.focus({ preventScroll: true });
  const wrap = container.querySelector(".rw-tl-strip-wrap");
  if (wrap) wrap.scrollLeft = 0; // the strip starts at the current tick: the next actor is first
}
