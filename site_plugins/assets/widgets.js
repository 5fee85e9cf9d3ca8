// Regelwerk roll helpers: forms generated at build time, the engine runs in a worker.
// A classic script (it must also run from file:// in the offline export). One worker per
// visit: Material's instant navigation keeps this script alive between pages.
(function () {
"use strict";
const ASSET_BASE = new URL("./", document.currentScript.src);
const BOOT_TIMEOUT_MS = 60000;

const STATUS_TEXT = {
  idle: "Würfelhelfer wird vorbereitet …",
  loading: "Würfelhelfer lädt …",
  ready: "Bereit.",
  failed: "Fehler: Die Regel-Engine konnte nicht geladen werden.",
};

const engine = {
  state: "idle",
  worker: null,
  error: "",
  nextId: 1,
  pending: new Map(),
  queue: [],
  timer: null,
  timing: { bootStart: null, ready: null, workerMs: null },
};
window.__regelwerk = engine.timing;

function everyHelper(fn) {
  document.querySelectorAll(".rw-helper[data-rw-ready]").forEach(fn);
}

function setState(state, error = "") {
  engine.state = state;
  engine.error = error;
  everyHelper(showState);
}

function showState(helper) {
  const status = helper.querySelector(".rw-status");
  const retry = helper.querySelector(".rw-retry");
  status.dataset.state = engine.state;
  let text = STATUS_TEXT[engine.state];
  if (engine.notice && engine.state !== "failed") text += ` ${engine.notice}`;
  if (engine.state === "failed" && engine.error) {
    text += ` (${engine.error}) Der Regeltext bleibt lesbar.`;
  }
  status.textContent = text;
  retry.hidden = engine.state !== "failed";
}

function failBoot(message) {
  clearTimeout(engine.timer);
  if (engine.worker) engine.worker.terminate();
  engine.worker = null;
  for (const [, entry] of engine.pending) entry.reject(new Error(message));
  engine.pending.clear();
  for (const entry of engine.queue) entry.reject(new Error(message));
  engine.queue = [];
  setState("failed", message);
}

function ensureBoot() {
  if (engine.state === "loading" || engine.state === "ready") return;
  const meta = document.querySelector('meta[name="regelwerk-engine"]');
  const key = meta ? meta.content : "";
  engine.timing.bootStart = performance.now();
  setState("loading");
  let worker;
  try {
    // The offline export installs its own transport (a Blob worker with the runtime inlined).
    worker = window.RegelwerkTransport
      ? window.RegelwerkTransport.createWorker(ASSET_BASE)
      : new Worker(new URL("worker.js", ASSET_BASE), { type: "module" });
  } catch (error) {
    failBoot(String(error));
    return;
  }
  engine.worker = worker;
  engine.timer = setTimeout(() => failBoot("Zeitüberschreitung beim Laden"), BOOT_TIMEOUT_MS);
  worker.addEventListener("error", (event) => {
    event.preventDefault();
    failBoot(event.message || "Worker-Fehler");
  });
  worker.addEventListener("message", (event) => {
    const message = event.data;
    if (message.type === "ready") {
      clearTimeout(engine.timer);
      engine.timing.ready = performance.now();
      engine.timing.workerMs = message.ms;
      engine.timing.mode = message.mode;
      setState("ready");
      const queued = engine.queue;
      engine.queue = [];
      for (const entry of queued) send(entry);
    } else if (message.type === "notice") {
      console.warn("[regelwerk]", message.text);
      engine.notice = message.text;
      everyHelper(showState);
    } else if (message.type === "failed") {
      failBoot(message.message);
    } else if (message.type === "result") {
      const entry = engine.pending.get(message.id);
      if (entry) {
        engine.pending.delete(message.id);
        entry.resolve(JSON.parse(message.body));
      }
    }
  });
  worker.postMessage({ type: "boot", base: ASSET_BASE.href, key, snapshot: !window.__regelwerkNoSnapshot });
}

function send(entry) {
  const id = engine.nextId++;
  engine.pending.set(id, entry);
  engine.worker.postMessage({ type: "run", id, request: entry.request });
}

function runEngine(request) {
  return new Promise((resolve, reject) => {
    const entry = { request, resolve, reject };
    if (engine.state === "ready") {
      send(entry);
    } else {
      engine.queue.push(entry);
      ensureBoot();
    }
  });
}

// ---------------------------------------------------------------- forms

function fieldKey(path) {
  const parts = path.split(".");
  return parts[parts.length - 1];
}

function readValue(input) {
  if (input.dataset.type === "bool") return input.checked;
  return input.value;
}

function collect(helper) {
  const form = helper.querySelector(".rw-form");
  const params = {};
  form.querySelectorAll(":scope .rw-list").forEach((list) => {
    const rows = [];
    list.querySelectorAll(":scope > .rw-rows > .rw-row").forEach((row) => {
      const record = {};
      row.querySelectorAll("[data-path][data-type]").forEach((input) => {
        record[fieldKey(input.dataset.path)] = readValue(input);
      });
      rows.push(record);
    });
    params[list.dataset.path] = rows;
  });
  form.querySelectorAll("[data-path][data-type]").forEach((input) => {
    if (input.closest(".rw-list") || input.dataset.type === "seed") return;
    params[input.dataset.path] = readValue(input);
  });
  return params;
}

function renumber(list) {
  const name = list.dataset.path;
  const rows = list.querySelectorAll(":scope > .rw-rows > .rw-row");
  rows.forEach((row, index) => {
    const old = row.dataset.index;
    row.dataset.index = String(index);
    row.querySelector(".rw-row-number").textContent = String(index + 1);
    const from = `${name}.${old}.`;
    const to = `${name}.${index}.`;
    const idFrom = `-${name}-${old}-`;
    const idTo = `-${name}-${index}-`;
    row.querySelectorAll("[data-path]").forEach((el) => {
      el.dataset.path = el.dataset.path.replace(from, to);
    });
    row.querySelectorAll("[id]").forEach((el) => {
      el.id = el.id.replace(idFrom, idTo);
    });
    row.querySelectorAll("label[for]").forEach((el) => {
      el.htmlFor = el.htmlFor.replace(idFrom, idTo);
    });
    row.querySelectorAll("[aria-describedby]").forEach((el) => {
      el.setAttribute("aria-describedby", el.getAttribute("aria-describedby").split(idFrom).join(idTo));
    });
  });
  const min = Number(list.dataset.min);
  const max = Number(list.dataset.max);
  list.querySelectorAll(":scope > .rw-rows > .rw-row > .rw-remove").forEach((button) => {
    button.disabled = rows.length <= min;
  });
  list.querySelector(":scope > .rw-add").disabled = rows.length >= max;
}

function addRow(list) {
  const template = list.querySelector(":scope > template");
  const rows = list.querySelector(":scope > .rw-rows");
  const index = rows.children.length;
  const html = template.innerHTML.split("__i__").join(String(index));
  rows.insertAdjacentHTML("beforeend", html);
  const row = rows.lastElementChild;
  row.querySelector(".rw-row-number").textContent = String(index + 1);
  const name = row.querySelector("input[data-type='text']");
  if (name && !name.value) name.value = `${list.dataset.label} ${index + 1}`;
  renumber(list);
  const first = row.querySelector("input, select");
  if (first) first.focus();
}

function removeRow(list, row) {
  const rows = list.querySelector(":scope > .rw-rows");
  const next = row.nextElementSibling || row.previousElementSibling;
  rows.removeChild(row);
  renumber(list);
  const focusTarget = next ? next.querySelector("input, select") : list.querySelector(".rw-add");
  if (focusTarget) focusTarget.focus();
}

function clearErrors(helper) {
  helper.querySelectorAll(".rw-field-error").forEach((el) => {
    el.hidden = true;
    el.textContent = "";
  });
  helper.querySelectorAll("[aria-invalid]").forEach((el) => el.removeAttribute("aria-invalid"));
}

function showError(helper, error) {
  const result = helper.querySelector(".rw-result");
  // [id]: a list's own box has the path too, but its message slot belongs to the labelled element
  let target = error.field ? helper.querySelector(`[data-path="${CSS.escape(error.field)}"][id]`) : null;
  if (target) {
    const slot = document.getElementById(`${target.id}-fehler`);
    if (slot) {
      slot.textContent = error.message;
      slot.hidden = false;
      target.setAttribute("aria-invalid", "true");
      const details = target.closest("details");
      if (details) details.open = true;
      target.focus();
      if (!helper.dataset.widget) result.replaceChildren(); // a board (Tickleiste) stays visible
      return;
    }
  }
  const box = el("p", "rw-error", error.message);
  box.setAttribute("role", "alert");
  result.replaceChildren(box);
}

// ---------------------------------------------------------------- results

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
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

const RENDERERS = { table: renderTable, rolls: renderRolls, chances: renderChances, notes: renderNotes };

function resultNodes(body) {
  const display = body.result.display;
  const out = [el("p", "rw-headline", display.headline), el("p", "rw-outcome", display.outcome)];
  for (const section of display.sections) {
    const render = RENDERERS[section.kind];
    if (render) out.push(render(section));
  }
  out.push(el("p", "rw-seed", `Seed: ${body.seed}`));
  return out;
}

// A result that names a row of a rule table (e.g. the Patzertabelle) marks that row on the page.
function markTableRow(helper, body) {
  const row = body.result.row;
  document.querySelectorAll(".rw-rule-table tr.rw-row-hit").forEach((tr) => {
    tr.classList.remove("rw-row-hit");
    tr.removeAttribute("aria-current");
  });
  if (!row || row.von === undefined) return;
  const selector = `.rw-rule-table[data-system="${CSS.escape(helper.dataset.system)}"] tr[data-von="${row.von}"][data-bis="${row.bis}"]`;
  const hit = document.querySelector(selector);
  if (!hit) return;
  hit.classList.add("rw-row-hit");
  hit.setAttribute("aria-current", "true");
  const note = el("p", "rw-row-note", "Die gewürfelte Zeile ist in der Tabelle auf dieser Seite markiert.");
  helper.querySelector(".rw-result").appendChild(note);
}

function renderResult(helper, body) {
  helper.querySelector(".rw-result").replaceChildren(...resultNodes(body));
}

// ---------------------------------------------------------------- page roll log

// One log per page (helpers and dice buttons); each entry can be rolled again from its seed.
function pageLog() {
  let log = document.getElementById("rw-page-log");
  if (log) return log;
  const article = document.querySelector("article.md-content__inner") || document.body;
  log = el("details", "rw-page-log");
  log.id = "rw-page-log";
  log.open = true;
  const summary = el("summary", "", "Wurfprotokoll dieser Seite");
  const list = el("ol", "rw-page-log-list");
  list.setAttribute("aria-live", "off");
  log.append(summary, el("p", "rw-help", "Jeder Wurf mit seinem Seed – „Wiederholen“ würfelt ihn mit demselben Seed noch einmal."), list);
  article.appendChild(log);
  return log;
}

function logRoll(label, body, replay) {
  const list = pageLog().querySelector("ol");
  const li = el("li", "");
  li.appendChild(el("span", "rw-log-label", `${label}: `));
  li.appendChild(el("span", "", `${body.result.display.outcome} `));
  li.appendChild(el("span", "rw-log-seed", `(Seed ${body.seed}) `));
  const again = el("button", "rw-repeat md-button", "Wiederholen");
  again.type = "button";
  again.setAttribute("aria-label", `${label} mit Seed ${body.seed} wiederholen`);
  again.addEventListener("click", replay);
  li.appendChild(again);
  list.insertBefore(li, list.firstChild);
  while (list.children.length > 50) list.removeChild(list.lastChild);
}

// ---------------------------------------------------------------- dice buttons in the text

let popoverOwner = null;

function dicePopover() {
  let pop = document.getElementById("rw-dice-popover");
  if (pop) return pop;
  pop = el("div", "rw-dice-popover");
  pop.id = "rw-dice-popover";
  pop.setAttribute("role", "dialog");
  pop.setAttribute("aria-label", "Würfelergebnis");
  pop.hidden = true;
  const body = el("div", "rw-dice-popover-body");
  body.setAttribute("aria-live", "polite");
  const bar = el("div", "rw-dice-popover-actions");
  pop.append(body, bar);
  document.body.appendChild(pop);
  pop.addEventListener("keydown", (event) => {
    if (event.key === "Escape") closePopover(true);
  });
  return pop;
}

function closePopover(returnFocus) {
  const pop = document.getElementById("rw-dice-popover");
  if (!pop || pop.hidden) return;
  pop.hidden = true;
  if (popoverOwner) {
    popoverOwner.setAttribute("aria-expanded", "false");
    if (returnFocus) popoverOwner.focus();
  }
  popoverOwner = null;
}

function placePopover(pop, button) {
  const rect = button.getBoundingClientRect();
  const width = Math.min(360, document.documentElement.clientWidth - 16);
  pop.style.width = `${width}px`;
  const left = Math.max(8, Math.min(rect.left + window.scrollX, window.scrollX + document.documentElement.clientWidth - width - 8));
  pop.style.left = `${left}px`;
  pop.style.top = `${rect.bottom + window.scrollY + 6}px`;
}

function actionButton(label, onClick) {
  const button = el("button", "md-button", label);
  button.type = "button";
  button.addEventListener("click", onClick);
  return button;
}

async function rollDice(button, mode, seed) {
  const pop = dicePopover();
  const body = pop.querySelector(".rw-dice-popover-body");
  const bar = pop.querySelector(".rw-dice-popover-actions");
  if (popoverOwner && popoverOwner !== button) popoverOwner.setAttribute("aria-expanded", "false");
  popoverOwner = button;
  button.setAttribute("aria-expanded", "true");
  button.setAttribute("aria-controls", pop.id);
  pop.hidden = false;
  placePopover(pop, button);
  if (engine.state !== "ready") body.replaceChildren(el("p", "rw-pending", "Würfelhelfer lädt …"));
  const request = {
    system: "allgemein",
    action: "wurf",
    params: { notation: button.dataset.notation, mode },
    seed: seed === undefined ? newSeed() : seed,
  };
  let answer;
  try {
    answer = await runEngine(request);
  } catch (error) {
    body.replaceChildren(el("p", "rw-error", `Würfeln nicht möglich: ${error.message}`));
    return;
  }
  if (popoverOwner !== button) return;
  if (!answer.ok) {
    body.replaceChildren(el("p", "rw-error", answer.error.message));
    return;
  }
  body.replaceChildren(...resultNodes(answer));
  const buttons = [actionButton("Nochmal", () => rollDice(button, mode))];
  if (button.hasAttribute("data-vorteil")) {
    buttons.push(actionButton("Mit Vorteil", () => rollDice(button, "vorteil")));
    buttons.push(actionButton("Mit Nachteil", () => rollDice(button, "nachteil")));
  }
  buttons.push(actionButton("Schließen", () => closePopover(true)));
  bar.replaceChildren(...buttons);
  const label = `${button.dataset.notation}${mode === "normal" ? "" : mode === "vorteil" ? " (Vorteil)" : " (Nachteil)"}`;
  logRoll(label, answer, () => rollDice(button.isConnected ? button : document.querySelector(`.rw-dice[data-notation="${CSS.escape(button.dataset.notation)}"]`) || button, mode, answer.seed));
  bar.firstChild.focus({ preventScroll: true });
}

document.addEventListener("click", (event) => {
  const button = event.target.closest && event.target.closest(".rw-dice");
  if (button) {
    event.preventDefault();
    const vorteil = button.hasAttribute("data-vorteil");
    let mode = "normal";
    if (vorteil && event.shiftKey) mode = "vorteil";
    if (vorteil && (event.ctrlKey || event.metaKey)) mode = "nachteil";
    rollDice(button, mode);
    return;
  }
  const pop = document.getElementById("rw-dice-popover");
  const replay = event.target.closest && event.target.closest(".rw-repeat");
  if (pop && !pop.hidden && !pop.contains(event.target) && !replay) closePopover(false);
});

function newSeed() {
  const words = new Uint32Array(1);
  crypto.getRandomValues(words);
  return words[0];
}

async function submit(helper, request) {
  clearErrors(helper);
  const result = helper.querySelector(".rw-result");
  if (engine.state !== "ready") {
    result.replaceChildren(el("p", "rw-pending", "Wird gewürfelt, sobald der Würfelhelfer bereit ist …"));
  }
  let body;
  const started = performance.now();
  try {
    body = await runEngine(request);
  } catch (error) {
    showError(helper, { field: "", message: `Würfeln nicht möglich: ${error.message}` });
    return;
  }
  engine.timing.lastRoundTrip = performance.now() - started;
  if (!helper.isConnected) return;
  if (!body.ok) {
    showError(helper, body.error);
    return;
  }
  renderResult(helper, body);
  markTableRow(helper, body);
  const title = helper.querySelector(".rw-title");
  logRoll(title ? title.textContent.replace("Würfelhelfer: ", "") : "Würfelhelfer", body, () =>
    submit(helper, { ...request, seed: body.seed }),
  );
  helper.dispatchEvent(new CustomEvent("regelwerk:result", { detail: body, bubbles: true }));
}

// Custom widgets (e.g. the Tickleiste) register in window.RegelwerkWidgets from their own
// script, as name → function(helper, api); load order does not matter (see refresh()).
const WIDGETS = (window.RegelwerkWidgets = window.RegelwerkWidgets || {});

function setup(helper) {
  if (helper.dataset.rwReady) return;
  if (helper.dataset.widget && !WIDGETS[helper.dataset.widget]) return; // its script comes later
  helper.dataset.rwReady = "1";
  const form = helper.querySelector(".rw-form");
  form.querySelectorAll(".rw-list").forEach(renumber);
  form.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button) return;
    const list = button.closest(".rw-list");
    if (button.classList.contains("rw-add") && list) addRow(list);
    if (button.classList.contains("rw-remove") && list) removeRow(list, button.closest(".rw-row"));
    if (button.classList.contains("rw-retry")) {
      engine.state = "idle";
      ensureBoot();
    }
  });
  const custom = helper.dataset.widget && WIDGETS[helper.dataset.widget];
  if (custom) {
    custom(helper, window.Regelwerk);
    showState(helper);
    return;
  }
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const seedInput = form.querySelector("[data-type='seed']");
    const seedText = seedInput.value.trim();
    const request = {
      system: helper.dataset.system,
      action: helper.dataset.action,
      params: collect(helper),
      seed: seedText === "" ? newSeed() : seedText,
    };
    submit(helper, request);
  });
  showState(helper);
}

function scheduleBoot() {
  if (engine.state !== "idle") return;
  const start = () => ensureBoot();
  if ("requestIdleCallback" in window) {
    requestIdleCallback(start, { timeout: 2000 });
  } else {
    setTimeout(start, 300);
  }
}

function initPage() {
  closePopover(false);
  const helpers = document.querySelectorAll(".rw-helper");
  helpers.forEach(setup);
  if (helpers.length || document.querySelector(".rw-dice")) scheduleBoot();
}

// The small API custom widgets use (see tickleiste.js).
window.Regelwerk = {
  refresh: () => initPage(),
  engineReady: () => engine.state === "ready",
  collect,
  runEngine,
  resultNodes,
  showError,
  clearErrors,
  newSeed,
  logRoll,
  el,
};

if (window.document$ && typeof window.document$.subscribe === "function") {
  window.document$.subscribe(initPage);
} else if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", initPage);
} else {
  initPage();
}
})();
