// Regelwerk – bundle.js: the code of every page, bundled by the build into a classic script
// (assets/regelwerk/regelwerk.js; classic, so the offline export runs it from file://): the page
// loop, the engine client, dice buttons in the text, the roll log, tooltips, the colour scheme
// switch (palette.js). The helpers, the
// fight, „Meine Werte“ and the player view are a second script that pages.js loads where a page
// has them (bundle-helpers.js → assets/regelwerk/regelwerk-helfer.js; laufzeit/bundle.mjs says
// how the two share modules). Every module only declares; what runs when the script loads runs
// in start(), in this order (the build calls it once every module is handed over).
//
// The facade window.Regelwerk is the only name this code puts on the page: the API that the
// tests, the benchmarks and custom widgets from a script of their own use (CONTRIBUTING.md,
// „Wo was im Browser passiert“). Besides it: window.__regelwerk (timings, engine-client.js),
// window.__regelwerkKern (the modules handed to regelwerk-helfer.js) and, read from other
// scripts, window.RegelwerkTransport (the offline export's worker),
// window.__regelwerkEarlyWorker (engine-start.js) and Material's window.document$.
import { listenForDice } from "./helpers/dice.js";
import { engineReady, newSeed, runEngine, startEngineClient } from "../../laufzeit/js/engine-client.js";
import { current as currentFight } from "./fight/store.js";
import { helpersApi, initPage, startPages } from "./pages.js";
import { startSearchHold } from "../../laufzeit/js/search-hold.js";
import { registerWidget } from "./widgets.js";
import { keepTooltipsInWindow } from "./helpers/tooltips.js";
import { startPalette } from "./palette.js";

export function start() {
  window.Regelwerk = Object.freeze({
    runEngine, // (request, {raw}) → the engine's answer
    engineReady,
    newSeed,
    collect: (helper) => helpersApi().collect(helper), // (helper) → its form's params
    fill: (helper, values) => helpersApi().fill(helper, values), // (helper, values) → fields it does not know
    registerWidget, // (name, function (helper, api))
    fight: currentFight, // (system) → the fight as it stands (frozen: the fight store is its one owner)
    refresh: () => initPage(),
  });
  startPalette();
  startSearchHold();
  startEngineClient();
  listenForDice();
  keepTooltipsInWindow();
  startPages();
}
