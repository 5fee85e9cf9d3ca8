// Regelwerk – results.js: an engine answer as DOM.
//
// Owns: the small element helper el(), rendering the engine's `display` block (headline,
// outcome, the sections table/rolls/chances/notes/distribution, the seed – only for a result with dice:
// hasDice), where a helper's result is read (its headline brought into view beside
// „Würfeln“, renderResult) and marking the rolled row of a rule table on the page (e.g. the
// Patzertabelle).
// Also the page's small message boxes: notice() and ask() (a question answered in the page).
// And the announcement of a roll for screen readers: one short sentence, outcome first, in a
// visually hidden live region (the result block itself is not live: it is read on demand).
// A table that scrolls sideways (a narrow screen) can be scrolled with the keys: while it
// overflows, its wrapper is a focusable region named after the table.

import { el } from "../common/util.js";
import { drawDistribution } from "./chart.js";

function markScrollable(wrap) {
  const scrolls = wrap.scrollWidth > wrap.clientWidth + 1;
  if (scrolls && !wrap.hasAttribute("tabindex")) {
    const table = wrap.querySelector("table");
    const caption = table && table.caption ? table.caption.textContent : "";
    const heads = table ? [...table.querySelectorAll("thead th")].slice(0, 3).map((th) => th.textContent) : [];
    wrap.tabIndex = 0;
    wrap.setAttribute("role", "region");
    wrap.setAttribute("aria-label", `Tabelle ${caption || heads.join(", ")} (seitlich verschiebbar)`.replace("  ", " "));
    wrap.dataset.rwScrolls = "1";
  } else if (!scrolls && wrap.dataset.rwScrolls) {
    ["tabindex", "role", "aria-label", "data-rw-scrolls"].forEach((name) => wrap.removeAttribute(name));
  }
}

// the box and its table are both watched: the table may grow (a font arrives) in a box that keeps its size
const WRAPS = ".rw-table-wrap, .md-typeset__scrollwrap";
const sizes = typeof ResizeObserver === "function"
  ? new ResizeObserver((entries) => entries.forEach((entry) => {
    const wrap = entry.target.matches(WRAPS) ? entry.target : entry.target.closest(WRAPS);
    if (wrap) markScrollable(wrap);
  }))
  : null;

export function watchScrolling(root) {
  root.querySelectorAll(WRAPS).forEach(watchOne);
}

const watched = new WeakSet(); // the table boxes already watched

// a table box made later (a chart's table shown, „Vergleichen“: chart.js, odds.js)
export const watchTable = (wrap) => watchOne(wrap);

function watchOne(wrap) {
  if (watched.has(wrap)) return;
  watched.add(wrap);
  if (sizes) {
    sizes.observe(wrap);
    const table = wrap.querySelector("table");
    if (table) sizes.observe(table);
  } else if (wrap.isConnected) markScrollable(wrap);
}

function renderTable(section) {
  const wrap = el("div", "rw-table-wrap");
  const table = el("table", "rw-table");
  if (section.caption) table.appendChild(el("caption", "", section.caption));
  const head = table.createTHead().insertRow();
  for (const column of section.columns) {
    const th = el("th", "", column);
    th.scope = "col";
    head.appendChild(th);
  }
  const body = table.createTBody();
  for (const row of section.rows) {
    const tr = body.insertRow();
    for (const cell of row) tr.appendChild(el("td", "", cell));
  }
  wrap.appendChild(table);
  watchOne(wrap);
  return wrap;
}

function renderRolls(section) {
  const list = el("ul", "rw-rolls");
  for (const item of section.items) {
    const li = el("li", "rw-roll");
    li.appendChild(el("span", "rw-roll-label", `${item.label}:`));
    li.appendChild(document.createTextNode(" "));
    li.appendChild(el("span", "rw-notation", item.notation));
    for (const die of item.dice) {
      const face = el("span", die.kept ? "rw-die" : "rw-die rw-die--dropped", String(die.value));
      face.setAttribute("role", "img");
      face.setAttribute(
        "aria-label",
        `W${die.sides} zeigt ${die.value}${die.kept ? "" : " (verworfen)"}`,
      );
      face.dataset.sides = String(die.sides);
      li.appendChild(face);
    }
    for (const modifier of item.modifiers) {
      li.appendChild(el("span", "rw-modifier", `${modifier.label} ${modifier.value}`));
    }
    li.appendChild(el("span", "rw-total", `= ${item.total}`));
    // what this roll decided (a Bestätigungswurf: „gegen RK 15: bestätigt – kritischer Treffer“)
    if (item.decision) li.appendChild(el("span", "rw-decision", ` ${item.decision}`));
    list.appendChild(li);
  }
  return list;
}

function renderChances(section) {
  const wrap = el("div", "rw-chances");
  wrap.appendChild(el("p", "rw-section-caption", section.caption));
  const list = el("dl", "rw-chance-list");
  for (const item of section.items) {
    list.appendChild(el("dt", "", item.label));
    const dd = el("dd", "");
    dd.appendChild(el("span", "rw-percent", item.percent));
    dd.appendChild(el("span", "rw-fraction", ` (${item.fraction})`));
    list.appendChild(dd);
  }
  wrap.appendChild(list);
  return wrap;
}

function renderNotes(section) {
  const wrap = el("div", "rw-notes");
  wrap.appendChild(el("p", "rw-section-caption", section.caption));
  const list = el("ul");
  for (const item of section.items) list.appendChild(el("li", "", item));
  wrap.appendChild(list);
  return wrap;
}

// a distribution: a bar chart with its table (helpers/chart.js)
const RENDERERS = { table: renderTable, rolls: renderRolls, chances: renderChances, notes: renderNotes, distribution: (section) => drawDistribution(section, { watch: watchOne }) };

// Whether a result rolled dice: some roll of its display shows a die. The engine puts every
// die it rolls there (CONTRIBUTING: „damit jeder Würfel in der Erklärung steht“; tests/engine/
// test_display_words.py checks that a result without one does not depend on the seed), so a
// result without dice – a table read, a sum of entered values, a text that says there is no
// rule – has no Wurfnummer: none is shown, shared („Link kopieren“) or logged.
export function hasDice(display) {
  const sections = display && Array.isArray(display.sections) ? display.sections : [];
  return sections.some(
    (section) => section && section.kind === "rolls" && Array.isArray(section.items) &&
      section.items.some((item) => item && Array.isArray(item.dice) && item.dice.length > 0),
  );
}

// `foldCharts`: a small box (the dice popover in the text) shows each chart behind its caption,
// opened on demand, so the box stays short and its buttons on screen.
export function resultNodes(body, { foldCharts = false } = {}) {
  const display = body.result.display;
  const out = [el("p", "rw-headline", display.headline), el("p", "rw-outcome", display.outcome)];
  for (const section of display.sections) {
    const render = RENDERERS[section.kind];
    if (!render) continue;
    if (foldCharts && section.kind === "distribution") {
      const box = el("details", "rw-chart-fold");
      box.append(el("summary", "", section.caption || "Verteilung"), render(section));
      out.push(box);
    } else out.push(render(section));
  }
  if (hasDice(display)) out.push(el("p", "rw-seed", `Wurfnummer ${body.seed}`));
  return out;
}

// A result that names a row of a rule table (e.g. the Patzertabelle) marks that row on the
// page; returns the marked row (or null).
export function markTableRow(helper, body) {
  const row = body.result.row;
  document.querySelectorAll(".rw-rule-table tr.rw-row-hit").forEach((tr) => {
    tr.classList.remove("rw-row-hit");
    tr.removeAttribute("aria-current");
  });
  if (!row || row.von === undefined) return null;
  const selector = `.rw-rule-table[data-system="${CSS.escape(helper.dataset.system)}"] tr[data-von="${row.von}"][data-bis="${row.bis}"]`;
  const hit = document.querySelector(selector);
  if (!hit) return null;
  hit.classList.add("rw-row-hit");
  hit.setAttribute("aria-current", "true");
  const note = el("p", "rw-row-note", "Die gewürfelte Zeile ist in der Tabelle auf dieser Seite markiert.");
  helper.querySelector(".rw-result").appendChild(note);
  return hit;
}

// The sentence a screen reader hears after a roll: the outcome first; with a marked table row
// that row's first cells (e.g. „Markierte Tabellenzeile: 12–13, schwer.“).
export function outcomeText(body, hit) {
  const display = body.result && body.result.display;
  let text = display ? display.outcome || display.headline || "" : "";
  if (hit) {
    const cells = [...hit.cells].slice(0, 2).map((cell) => cell.textContent.trim());
    text += ` Markierte Tabellenzeile: ${cells.join(", ")}.`;
  }
  return text.trim();
}

// Puts `text` into a live region (emptied first and filled a moment later, so the same
// sentence after a second roll is read again).
const announcing = new WeakMap(); // live region → the timer of its next sentence

export function announce(region, text) {
  if (!region) return;
  clearTimeout(announcing.get(region));
  region.textContent = "";
  announcing.set(region, setTimeout(() => {
    region.textContent = text;
  }, 80));
}

// A message inside `host` (it replaces the previous one there): kind "info" or "error";
// buttons: [{label, onClick}]. Errors are announced at once (role=alert).
export function notice(host, text, kind = "info", buttons = []) {
  const box = el("div", `rw-notice rw-notice--${kind}`);
  if (kind === "error") box.setAttribute("role", "alert");
  box.appendChild(el("p", "", text));
  if (buttons.length) {
    const bar = el("div", "rw-notice-actions");
    for (const { label, onClick } of buttons) {
      const button = el("button", "md-button", label);
      button.type = "button";
      button.addEventListener("click", () => onClick(box));
      bar.appendChild(button);
    }
    box.appendChild(bar);
  }
  host.replaceChildren(box);
  return box;
}

// Asks in the page (no browser dialog): resolves true when the reader confirms.
export function ask(host, text, yesLabel) {
  return new Promise((resolve) => {
    const done = (answer) => (box) => {
      box.remove();
      resolve(answer);
    };
    const box = notice(host, text, "question", [
      { label: yesLabel, onClick: done(true) },
      { label: "Abbrechen", onClick: done(false) },
    ]);
    box.setAttribute("role", "alertdialog");
    box.setAttribute("aria-label", text);
    box.querySelector("button").focus();
  });
}

// Asks for a short text in the page: resolves with the text, or null when cancelled.
export function askText(host, question, suggestion, yesLabel) {
  return new Promise((resolve) => {
    const box = el("form", "rw-notice rw-notice--question");
    const id = `rw-frage-${Math.random().toString(36).slice(2, 8)}`;
    const label = el("label", "", question);
    label.htmlFor = id;
    const input = el("input");
    input.type = "text";
    input.id = id;
    input.maxLength = 60;
    input.value = suggestion || "";
    input.autocomplete = "off";
    const bar = el("div", "rw-notice-actions");
    const yes = el("button", "md-button md-button--primary", yesLabel);
    yes.type = "submit";
    const no = el("button", "md-button", "Abbrechen");
    no.type = "button";
    bar.append(yes, no);
    box.append(label, input, bar);
    const finish = (value) => {
      box.remove();
      resolve(value);
    };
    box.addEventListener("submit", (event) => {
      event.preventDefault();
      finish(input.value);
    });
    no.addEventListener("click", () => finish(null));
    input.addEventListener("keydown", (event) => {
      if (event.key === "Escape") finish(null);
    });
    host.replaceChildren(box);
    input.focus();
    input.select();
  });
}

// The result is read where it was asked for: a roll made from the form on screen (its
// „Würfeln“ in the window) brings the result's headline into view right below „Würfeln“ –
// scrolling as little as needed, and never so far that the reader's focus in the form leaves
// the window. On a Kampfhelfer page the fight bar sticks at the top: who acts, the target,
// „Würfeln“ and the headline are then on one screen (issue 26, point 7). A shared roll (its
// note „Geteilter Wurf …“, .rw-replayed, is put first) keeps the helper's top in view, where
// share.js put it; a roll repeated from the page's log leaves the reader at the log.
export function renderResult(helper, body) {
  const submit = helper.querySelector(".rw-submit");
  const fromTheForm = submit !== null && inWindow(submit);
  const result = helper.querySelector(".rw-result");
  result.replaceChildren(...resultNodes(body));
  // after the caller has added its lines (the shared note, the follow-ups of the fight)
  if (fromTheForm) {
    queueMicrotask(() => {
      if (result.isConnected && !result.querySelector(":scope > .rw-replayed")) headlineIntoView(helper, result);
    });
  }
}

function inWindow(node) {
  const box = node.getBoundingClientRect();
  return box.width > 0 && box.bottom > 0 && box.top < window.innerHeight;
}

// The element that scrolls the helper: the fight column of a wide Kampfhelfer page, which
// scrolls by itself, or the page.
function scrollerOf(node) {
  for (let parent = node.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
    const overflow = getComputedStyle(parent).overflowY;
    if ((overflow === "auto" || overflow === "scroll") && parent.scrollHeight > parent.clientHeight) return parent;
  }
  return null;
}

// The last line of a result's outcome: the outcome itself, or the fight's lines right below
// it (.rw-fight-written, .rw-follow-ups, the chain of rolls that followed: fight/rolls.js puts
// them there); null without an outcome.
export function outcomeEnd(result) {
  let last = result.querySelector(":scope > .rw-outcome");
  while (last && last.nextElementSibling && last.nextElementSibling.matches(".rw-fight-written, .rw-follow-ups, .rw-chain-step")) {
    last = last.nextElementSibling;
  }
  return last;
}

// The headline – and, on a Kampfhelfer page, what the fight makes of it right below the
// outcome (what was written, the follow-ups: the next click), as far as the window allows
// with the headline still in it.
function headlineIntoView(helper, result) {
  const headline = result.querySelector(".rw-headline");
  if (!headline) return;
  const last = outcomeEnd(result) || headline;
  const scroller = scrollerOf(result);
  const style = getComputedStyle(scroller || document.documentElement);
  const frame = scroller ? scroller.getBoundingClientRect() : { top: 0, bottom: window.innerHeight };
  const top = frame.top + (parseFloat(style.scrollPaddingTop) || 0);
  const bottom = frame.bottom - (parseFloat(style.scrollPaddingBottom) || 0);
  const most = headline.getBoundingClientRect().top - top; // the headline stays in the window
  let shift = Math.min(last.getBoundingClientRect().bottom - bottom, most);
  if (shift <= 0) return;
  // a field the reader pressed Enter in stays in the window („Würfeln“ itself sticks)
  const focus = document.activeElement;
  if (focus && focus !== document.body && helper.contains(focus) && !focus.closest(".rw-actions")) {
    shift = Math.min(shift, Math.max(0, focus.getBoundingClientRect().top - top));
  }
  if (scroller) scroller.scrollTop += shift;
  else window.scrollBy(0, shift);
}
