// Regelwerk – bundle.js: the page's browser code, bundled by the build into one classic script
// (assets/regelwerk/regelwerk.js; classic, so the offline export runs it from file://).
// Every module only declares; what runs when the bundle loads runs here, in this order.
//
// The facade window.Regelwerk is the only name this code puts on the page: the API that the
// tests, the benchmarks and custom widgets from a script of their own use (CONTRIBUTING.md,
// „Wo was im Browser passiert“). Besides it: window.__regelwerk (timings, engine-client.js)
// and, read from other scripts, window.RegelwerkTransport (the offline export's worker),
// window.__regelwerkEarlyWorker (engine-start.js) and Material's window.document$.
import { listenForDice } from "./helpers/dice.js";
import { engineReady, newSeed, runEngine, startEngineClient } from "../../laufzeit/js/engine-client.js";
import { current as currentFight } from "./fight/store.js";
import { collect, fill, listenForFieldHelp } from "./helpers/forms.js";
import { initPage, registerWidget, startPages } from "./page.js";
import { startSearchHold } from "../../laufzeit/js/search-hold.js";
import { offerSurprisedOnBoard, setupTickleiste } from "./fight/tickleiste-ui.js";
import { keepTooltipsInWindow } from "./helpers/tooltips.js";

window.Regelwerk = Object.freeze({
  runEngine, // (request, {raw}) → the engine's answer
  engineReady,
  newSeed,
  collect, // (helper) → its form's params
  fill, // (helper, values) → fields it does not know
  registerWidget, // (name, function (helper, api))
  fight: currentFight, // (system) → the fight as it stands (frozen: the fight store is its one owner)
  refresh: () => initPage(),
});

startSearchHold();
startEngineClient();
listenForDice();
listenForFieldHelp();
keepTooltipsInWindow();
offerSurprisedOnBoard();
registerWidget("tickleiste", setupTickleiste);
startPages();
