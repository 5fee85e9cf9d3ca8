// Regelwerk – page.js: the wiring of a page with helpers (part of regelwerk-helfer.js, which
// pages.js loads where a page has any).
//
// Owns: setting up each helper (.rw-helper) once: list buttons, „Erneut versuchen“, and either
// a custom widget (widgets.js) or the plain form (submit → engine → result, marked table row,
// roll log, a regelwerk:result event); initPage, run by pages.js for every such page: helpers,
// the Kampfhelfer page's fight (fight/workbench.js), the page „Meine Werte“, a shared roll in
// the address (also one pasted into it: onHashChange). The player view is a script of its own
// (bundle-players.js).

import { engineReady, newSeed, retryBoot, runEngine, showState, timing } from "../../laufzeit/js/engine-client.js";
import { openedStore } from "./fight/store.js";
import { finishWorkbenches, initWorkbenches } from "./fight/workbench.js";
import {
  addRow,
  applyConditions,
  clearErrors,
  clearPerRoll,
  collect,
  keepBuiltValues,
  keepInitialRows,
  removeRow,
  renumber,
  showError,
} from "./helpers/forms.js";
import { keepJumpsClear } from "./helpers/jump-offset.js";
import { logRoll, replayWith, showStoredLog } from "./helpers/log.js";
import { setupOdds } from "./helpers/odds.js";
import * as remember from "./helpers/remember.js";
import { announce, markTableRow, outcomeText, renderResult } from "./helpers/results.js";
import { setupValues } from "./helpers/saved.js";
import { initSavedPage } from "./helpers/saved-page.js";
import * as share from "./helpers/share.js";
import * as store from "./common/store.js";
import { el } from "./common/util.js";
import { whenRegistered, widgetOf } from "./widgets.js";

// One roll of a plain helper. options: {shared: true, note} for a roll opened from a link
// (it is shown as replayed and does not replace the reader's remembered input); fromLog: a
// repeat from the roll log (not logged again).
async function submit(helper, request, options = {}) {
  clearErrors(helper);
  const result = helper.querySelector(".rw-result");
  if (!engineReady()) {
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
  timing.lastRoundTrip = performance.now() - started;
  if (!helper.isConnected) return;
  if (!body.ok) {
    showError(helper, body.error);
    return;
  }
  renderResult(helper, body);
  clearSeed(helper);
  clearPerRoll(helper); // a die result typed for this roll is not the next roll's (forms.js)
  if (options.note) {
    result.prepend(el("p", "rw-replayed", options.note));
  } else {
    remember.keepRoll(helper, request.params, body);
  }
  const hit = markTableRow(helper, body);
  announce(helper.querySelector(".rw-announce"), outcomeText(body, hit));
  share.addButton(helper, request.params, body.seed, body.result.display);
  const title = helper.querySelector(".rw-title");
  const label = logLabel(title ? title.textContent.replace("Würfelhelfer: ", "") : "Würfelhelfer", body);
  // a shared roll is shown beside the fight, never written into it (fight/rolls.js offers
  // „In den Kampf übernehmen“ with the link's values: request.params)
  const detail = options.shared ? { ...body, shared: true, fromLog: !!options.fromLog, params: request.params } : body;
  // the roll's step of the fight (a Kampfhelfer page makes it while the event is handled) is
  // named in the log, which then says when that step is taken back
  const fight = openedStore(helper.dataset.system);
  const before = fight ? fight.journal.seq : null;
  helper.dispatchEvent(new CustomEvent("regelwerk:result", { detail, bubbles: true }));
  const step = fight && fight.journal.seq > before ? { system: helper.dataset.system, n: before } : null;
  if (!options.fromLog) logRoll(label, body, null, { request, helper: helper.id, step });
}

// The roll log's name of a roll: the helper's title and what the result says it was („Angriff
// und Wunde – Festhalten gelungen“: a Kampfmanöver is not logged as a plain attack).
function logLabel(title, body) {
  const headline = body.result.display && typeof body.result.display.headline === "string" ? body.result.display.headline.trim() : "";
  return headline && !headline.startsWith(title) ? `${title} – ${headline}` : title;
}

// A typed Wurfnummer repeats one roll, once: the next roll – maybe another fighter's – gets
// its own dice (the log's „Wiederholen“ and a shared link keep their number themselves).
function clearSeed(helper) {
  const seed = helper.querySelector(".rw-form [data-type='seed']");
  if (seed) seed.value = ""; // a helper that rolls no dice has no Wurfnummer
}

// The roll log's „Wiederholen“ (also after a reload): the logged request, with its Wurfnummer,
// into its helper on this page (the logged id first, else the first with that system and
// action). Shown like a shared roll – beside the fight, not written into it – and not logged
// again. → false when the page has no such helper.
function replayLogged(request, id) {
  const selector = `.rw-helper[data-system="${CSS.escape(request.system)}"][data-action="${CSS.escape(request.action)}"]:not([data-widget])`;
  const helpers = [...document.querySelectorAll(selector)];
  const helper = helpers.find((h) => h.id === id) || helpers[0];
  if (!helper) return false;
  helper.scrollIntoView({ block: "start" });
  const note = `Aus dem Wurfprotokoll: mit Wurfnummer ${request.seed} wiederholt.`;
  submit(helper, request, { shared: true, fromLog: true, note });
  return true;
}

// A helper whose block names a custom widget (e.g. the Tickleiste) is set up by it (widgets.js),
// as function(helper, api) – api is the facade window.Regelwerk (bundle.js); one registered
// later is set up then (startHelpers).
function setup(helper) {
  if (helper.dataset.rwReady) return;
  if (helper.dataset.widget && !widgetOf(helper.dataset.widget)) return; // registered later
  helper.dataset.rwReady = "1";
  const form = helper.querySelector(".rw-form");
  form.querySelectorAll(".rw-list").forEach(renumber);
  form.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button) return;
    const list = button.closest(".rw-list");
    if (button.classList.contains("rw-add") && list) addRow(list);
    if (button.classList.contains("rw-remove") && list) removeRow(list, button.closest(".rw-row"));
    if (button.classList.contains("rw-retry")) retryBoot();
  });
  const custom = helper.dataset.widget && widgetOf(helper.dataset.widget);
  if (custom) {
    setupValues(helper);
    custom(helper, window.Regelwerk);
    showState(helper);
    return;
  }
  keepInitialRows(helper);
  setupOdds(helper); // „Was wäre wenn?“ and „Vergleichen“ below the result, where the action has them
  const conditions = () => applyConditions(helper);
  form.addEventListener("change", conditions);
  form.addEventListener("rw-filled", conditions);
  conditions();
  keepBuiltValues(helper); // as the page built it: what shared links leave out
  setupValues(helper);
  const remembered = remember.restore(helper);
  if (remembered && remembered.shown) share.addButton(helper, remembered.values, remembered.shown.seed, remembered.shown.display);
  helper.querySelector(".rw-reset").addEventListener("click", () => remember.reset(helper));
  form.addEventListener("change", (event) => {
    if (event.target.matches("[data-path][data-type]:not([data-type='seed'])")) remember.keepTyped(helper);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const seedInput = form.querySelector("[data-type='seed']");
    const seedText = seedInput ? seedInput.value.trim() : "";
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

// Where the browser keeps nothing, the page says so once, above what would be lost.
const NOT_KEPT =
  "Dieser Browser lässt die Seite nichts speichern: Eingaben, Kampf, Tickleiste und „Meine " +
  "Werte“ gelten nur, solange die Seite offen ist.";

function sayIfNothingIsKept(helpers) {
  if (store.available() || document.querySelector(".rw-not-kept")) return;
  const first = helpers[0] || document.querySelector(".rw-werte-verwaltung");
  if (!first) return;
  const box = el("p", "rw-notice rw-notice--info rw-not-kept", NOT_KEPT);
  box.setAttribute("role", "status");
  first.before(box);
}

// Sets up the page (pages.js calls it for every page that has something of this script's), in
// slices (issue #46: „nothing of ours runs over 50 ms on the main thread of a 4× slowed
// phone“): the helpers one after another until SLICE_MS have passed, then the page may paint
// and answer a tap before the next; the fight drawn with the last of them (it reads their
// forms) and filled in the next slice, then the rest in this order. A newer call (the next
// page, or refresh) ends an older one where it yields.
const SLICE_MS = 15;
let setUps = 0;

function nextTask() {
  if (globalThis.scheduler && typeof globalThis.scheduler.yield === "function") return globalThis.scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

// The target of the address (a heading of the table of contents, a shared roll's helper) is
// jumped to before the helpers and the fight are built: by the browser or Material (after
// instant navigation) once the page's text is in, by openFromAddress before the slices after
// it are done. What is built above it then pushes it away, and Material may scroll after a
// quick setup: once the page is set up and has been drawn, the target is brought back – unless
// the reader has scrolled, tapped or typed since (issue #46, seen at 360 px: a heading of the
// table of contents landed 820 px down).
const READER_MOVES = ["wheel", "touchstart", "keydown", "mousedown"];

function keepTargetInView() {
  let moved = false;
  const mark = () => {
    moved = true;
  };
  for (const type of READER_MOVES) window.addEventListener(type, mark, { passive: true, capture: true, once: true });
  return (found) => {
    const place = found || anchorOfAddress();
    requestAnimationFrame(() =>
      setTimeout(() => {
        for (const type of READER_MOVES) window.removeEventListener(type, mark, { capture: true });
        if (!moved && place && place.isConnected) place.scrollIntoView({ block: "start" });
      }, 0),
    );
  };
}

function anchorOfAddress() {
  const hash = location.hash;
  if (hash.length < 2 || share.isLink(hash)) return null;
  try {
    const anchor = document.getElementById(decodeURIComponent(hash.slice(1)));
    // a content tab's anchor is its hidden input: Material opens and shows that tab itself
    return anchor && anchor.tagName !== "INPUT" && anchor.getClientRects().length ? anchor : null;
  } catch (error) {
    return null; // not a valid escape: no anchor
  }
}

export async function initPage() {
  const mine = ++setUps;
  const backToTarget = location.hash.length > 1 ? keepTargetInView() : null;
  let slice = performance.now();
  // our longest stretch on the main thread while a page loads (scripts/benchmark*.py)
  const endSlice = () => {
    timing.initPageMs = Math.max(timing.initPageMs || 0, performance.now() - slice);
  };
  const pause = async () => {
    endSlice();
    await nextTask();
    slice = performance.now();
    return mine === setUps;
  };
  const helpers = document.querySelectorAll(".rw-helper");
  for (const helper of helpers) {
    if (performance.now() - slice > SLICE_MS && !(await pause())) return;
    setup(helper);
  }
  // the rest in the task of the last helper and the next: once every helper is set up and
  // every fight filled, so is the page
  sayIfNothingIsKept(helpers);
  initWorkbenches();
  if (!(await pause())) return;
  finishWorkbenches(); // before a shared roll fills its helper
  initSavedPage();
  showStoredLog();
  const address = takePastedLink() || location.hash;
  keepJumpsClear({ now: share.isLink(address) }); // measured before a shared roll scrolls to its helper
  const opened = share.openFromAddress(submit, address);
  if (backToTarget) backToTarget(opened);
  endSlice();
}

// A shared roll pasted into the address bar of the page already open only changes the
// fragment: no load, no new page for initPage – so it is opened here (other fragments,
// e.g. the table of contents' anchors, are left to the browser). The link is read from the
// event (pages.js passes its new fragment): at phone width Material's anchor tracking may
// already have put the current section's anchor back into the address by the time the event
// arrives. Material's instant navigation may also render the page's content afresh for that
// address (it does for the first change of address after a full load); the link is then kept
// for that content's initPage, which opens it again – the first replay went with the old
// content.
const PASTED_LINK_MS = 10000;
let pastedLink = null; // {hash, path, at}

function takePastedLink() {
  const pasted = pastedLink;
  pastedLink = null;
  const fresh = pasted && pasted.path === location.pathname && performance.now() - pasted.at < PASTED_LINK_MS;
  return fresh ? pasted.hash : null;
}

export function onHashChange(hash) {
  if (share.isLink(hash)) pastedLink = { hash, path: location.pathname, at: performance.now() };
  share.openFromAddress(submit, hash);
}

// What runs once, when regelwerk-helfer.js loads: the roll log's „Wiederholen“ into a helper,
// and the helpers of a widget registered later.
export function startHelpers() {
  replayWith(replayLogged);
  whenRegistered(() => {
    if (setUps) document.querySelectorAll(".rw-helper").forEach(setup); // not before initPage
  });
}
