// Regelwerk – bundle-helpers.js: the code of pages with helpers, a fight or „Meine Werte“,
// bundled by the build into assets/regelwerk/regelwerk-helfer.js – a classic
// script that pages.js (in regelwerk.js) loads where a page has any of them. The modules of
// regelwerk.js it imports are that script's own (window.__regelwerkKern, laufzeit/bundle.mjs):
// one engine client, one fight store, one roll log. What runs when it loads runs here; then it
// hands pages.js what sets a page up.
import { initPage, onHashChange, startHelpers } from "./page.js";
import { partLoaded } from "./pages.js";
import { collect, fill } from "./helpers/forms.js";
import { offerSurprisedOnBoard, setupTickleiste } from "./fight/tickleiste-ui.js";
import { registerWidget } from "./widgets.js";

startHelpers();
offerSurprisedOnBoard();
registerWidget("tickleiste", setupTickleiste);
partLoaded("regelwerk-helfer.js", { initPage, onHashChange, collect, fill });
