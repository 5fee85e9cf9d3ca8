// Regelwerk – bundle-players.js: the player view (spieler/: the fight as the players see it, by
// link, as the second screen or live from the game master's page), bundled by the build into
// assets/regelwerk/regelwerk-spieler.js – a classic script that pages.js (in regelwerk.js)
// loads on that page only: a player's phone gets the code of every page and this, not the
// helpers and the fight (regelwerk-helfer.js). The modules of regelwerk.js it imports are that
// script's own (window.__regelwerkKern, laufzeit/bundle.mjs).
import { keepJumpsClear } from "./helpers/jump-offset.js";
import { showStoredLog } from "./helpers/log.js";
import { partLoaded } from "./pages.js";
import { initPlayerView } from "./players/view.js";

partLoaded("regelwerk-spieler.js", {
  initPage() {
    initPlayerView();
    showStoredLog();
    keepJumpsClear();
  },
});
