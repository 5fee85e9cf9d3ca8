// Regelwerk roll helpers 6/6 – page.js: the page wiring (last of the six, after dice.js).
// Load order, namespace convention (RW = window.Regelwerk, RW._internal): see engine-client.js.
//
// Owns: setting up each helper (.rw-helper) once: list buttons, „Erneut versuchen“, and either
// a custom widget or the plain form (submit → engine → result, marked table row, roll log,
// a regelwerk:result event); the custom-widget registry window.RegelwerkWidgets; initPage,
// run for every page (Material's document$ under instant navigation, else on DOM ready).
// Exposes: RW.refresh (= initPage) and completes the public API window.Regelwerk:
//   refresh, engineReady, collect, runEngine, resultNodes, showError, clearErrors, newSeed,
//   logRoll, el   (tests and tickleiste.js use it)
// Uses: all of the above and RW._internal from the five scripts before it.
(function () {
"use strict";
const RW = (window.Regelwerk = window.Regelwerk || {});
const internal = RW._internal;
const { engineReady, runEngine, newSeed, collect, showError, clearErrors, logRoll, el } = RW;
const { showState, scheduleBoot, retryBoot, timing, renderResult, markTableRow } = internal;
const { renumber, addRow, removeRow, closePopover, remember, share } = internal;

// One roll of a plain helper. options: {shared: true, note} for a roll opened from a link
// (it is shown as replayed and does not replace the reader's remembered input).
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
  if (options.note) {
    result.prepend(el("p", "rw-replayed", options.note));
  } else {
    remember.store(helper, request.params, body);
  }
  const hit = markTableRow(helper, body);
  internal.announce(helper.querySelector(".rw-announce"), internal.outcomeText(body, hit));
  share.addButton(helper, request.params, body.seed);
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
    if (button.classList.contains("rw-retry")) retryBoot();
  });
  const custom = helper.dataset.widget && WIDGETS[helper.dataset.widget];
  if (custom) {
    internal.setupValues(helper);
    custom(helper, window.Regelwerk);
    showState(helper);
    return;
  }
  internal.keepInitialRows(helper);
  const conditions = () => internal.applyConditions(helper);
  form.addEventListener("change", conditions);
  form.addEventListener("rw-filled", conditions);
  conditions();
  helper.rwDefaults = collect(helper); // as the page built it: what shared links leave out
  internal.setupValues(helper);
  const remembered = remember.restore(helper);
  if (remembered && remembered.shown) share.addButton(helper, remembered.values, remembered.shown.seed);
  helper.querySelector(".rw-reset").addEventListener("click", () => remember.reset(helper));
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

function initPage() {
  const started = performance.now();
  closePopover(false);
  const helpers = document.querySelectorAll(".rw-helper");
  helpers.forEach(setup);
  if (helpers.length || document.querySelector(".rw-dice")) scheduleBoot();
  internal.fightBar.initPage();
  share.openFromAddress(submit, takePastedLink() || location.hash);
  // after Material has wrapped the page's tables (its own subscriber to the same page event)
  setTimeout(() => internal.watchScrolling(document), 0);
  // our longest stretch on the main thread while a page loads (scripts/benchmark*.py)
  timing.initPageMs = Math.max(timing.initPageMs || 0, performance.now() - started);
}

RW.refresh = () => initPage();

// A shared roll pasted into the address bar of the page already open only changes the
// fragment: no load, no new page for initPage – so it is opened here (other fragments,
// e.g. the table of contents' anchors, are left to the browser). The link is read from the
// event: at phone width Material's anchor tracking may already have put the current
// section's anchor back into the address by the time the event arrives. Material's instant
// navigation may also render the page's content afresh for that address (it does for the
// first change of address after a full load); the link is then kept for that content's
// initPage, which opens it again – the first replay went with the old content.
const PASTED_LINK_MS = 10000;
let pastedLink = null; // {hash, path, at}

function takePastedLink() {
  const pasted = pastedLink;
  pastedLink = null;
  const fresh = pasted && pasted.path === location.pathname && performance.now() - pasted.at < PASTED_LINK_MS;
  return fresh ? pasted.hash : null;
}

window.addEventListener("hashchange", (event) => {
  const hash = new URL(event.newURL).hash;
  if (share.isLink(hash)) pastedLink = { hash, path: location.pathname, at: performance.now() };
  share.openFromAddress(submit, hash);
});

if (window.document$ && typeof window.document$.subscribe === "function") {
  window.document$.subscribe(initPage);
} else if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", initPage);
} else {
  initPage();
}
})();
