// Regelwerk – fight/workbench.js: a Kampfhelfer page (.rw-workbench) set up around its fight.
//
// Owns the wiring of the page's views to the system's fight store (fight/store.js): the fight
// bar (fight/bar.js), „Kämpfer im Überblick“ (fight/overview.js), the player link
// (players/show.js) and the helpers, which the page fills from the fight (fight/fill.js) – each
// subscribes and draws what the store holds. It turns what happens on the page into named
// steps: an initiative roll into a new acting order, any other roll into its consequence
// (fight/rolls.js), a value typed into a fighter's field into that fighter's value, the fighter
// chosen on the Tickleiste into the actor. Who fights: the Tickleiste's fighters (Ryssea) or
// the acting order of the last initiative roll (fight/roster.js).
// What the views share is `table`, frozen: the store, the system's fight contract
// (fight/contract.js) and how to find the page's helpers – no view holds fight data of its own.

import { collect, formerNames } from "../helpers/forms.js";
import { createBar } from "./bar.js";
import { contractOf } from "./contract.js";
import { fillAll, keepTyped } from "./fill.js";
import { forgetOther, isForOther } from "./follow-ups.js";
import { openHelper } from "../helpers/open.js";
import { setupOverview } from "./overview.js";
import * as roster from "./roster.js";
import { afterRoll, offerSharedRoll } from "./rolls.js";
import { same } from "./journal.js";
import { fightStore } from "./store.js";
import { setupShare } from "../players/show.js";

function turnsFrom(result) {
  if (Array.isArray(result.turns)) return result.turns.filter((t) => t && typeof t.name === "string");
  if (Array.isArray(result.phases)) {
    return result.phases.map((p) => ({ name: p.name, label: `Phase ${p.phase}${p.action === 2 ? ", 2. Aktion" : ""}` }));
  }
  if (Array.isArray(result.order)) return result.order.map((o, i) => ({ name: o.name, label: `Platz ${i + 1}` }));
  return [];
}

// An initiative roll: a new acting order (while one stands: the next round; „Neuer Kampf“ → 1).
function newOrder(table, helper, result) {
  const state = table.store.state;
  const turns = turnsFrom(result);
  const actor = turns.length ? turns[0].name : null;
  const sides = {};
  const values = collect(helper);
  for (const f of Array.isArray(values.fighters) ? values.fighters : []) {
    if (f && typeof f.name === "string" && typeof f.seite === "string") sides[f.name.trim()] = f.seite;
  }
  const order = turns.map((t) => t.name).filter((n, i, all) => all.indexOf(n) === i);
  const listed = order.length > 4 ? `${order.slice(0, 4).join(", ")} …` : order.join(", ");
  const round = (state.turns || []).length ? (state.round || 1) + 1 : 1;
  const said = round > 1 ? ` (Runde ${round})` : "";
  const target = roster.lastTargetOf(state, actor, order);
  return table.store.dispatch(`Neue Reihenfolge${said}: ${listed}`, { type: "order", turns, actor, target, sides, round });
}

function changedChoice(before, after) {
  return {
    actor: !before || before.actor !== after.actor,
    target: !before || before.target !== after.target || before.actor !== after.actor,
    // every step hands out a new state: the order is compared by what it holds
    turn: !before || before.turn !== after.turn || before.round !== after.round || !same(before.turns, after.turns),
  };
}

function setup(root) {
  const first = root.querySelector(".rw-helper");
  if (!first) return null;
  const system = first.dataset.system;
  const store = fightStore(system, formerNames(first));
  store.refresh();
  const hasBoard = !!root.querySelector(".rw-tickleiste");
  let bar = null;
  const table = Object.freeze({
    system,
    store,
    root,
    hasBoard,
    contract: contractOf(system),
    helpers: () => [...root.querySelectorAll(".rw-helper:not([data-widget])")],
    widgets: () => [...root.querySelectorAll(".rw-helper[data-widget]")],
    names: () => roster.names(store.state, hasBoard),
    say: (text, kind) => bar.say(text, kind),
    // a result's own „Rückgängig“: only while its step is the last one (nothing later is taken back)
    undoStep: (label) => {
      const last = store.lastStep();
      if (!last || last.label !== label) {
        bar.say(`„${label}“ ist nicht mehr der letzte Schritt – „Rückgängig“ oben nimmt die späteren zuerst zurück.`, "info");
        return;
      }
      const moved = store.undo();
      if (moved) bar.say(`Rückgängig gemacht: ${moved.label}.`);
    },
    toRoll: () => {
      const tools = table.helpers().filter((h) => h.closest(".rw-workbench-tools"));
      const open = tools.find((h) => h.offsetParent !== null) || tools[0];
      if (!open) return;
      openHelper(open);
      open.querySelector(".rw-submit").focus({ preventScroll: true });
    },
  });
  bar = createBar(table);
  root.prepend(bar.element);
  if (store.problem) bar.say(`Der gespeicherte Kampf ließ sich nicht verwenden (${store.problem}). Er wurde als Sicherung beiseitegelegt.`, "error");
  const overview = setupOverview(table, root.querySelector(".rw-workbench-fight") || root);
  const share = setupShare(table, overview.section);
  const draw = (change) => {
    bar.draw();
    overview.draw();
    share.draw();
    if (store.saveProblem) bar.say(`Nicht gespeichert: ${store.saveProblem}`, "error");
    if (!change) return;
    // a step taken back or put back, or one from another tab, may have changed any fighter's
    // values: every helper is filled again (the situation stays as it is)
    const initial = change.kind !== "step";
    const changed = initial ? { actor: true, target: true, turn: true } : changedChoice(change.before, store.state);
    if (changed.actor || changed.target) table.helpers().forEach(forgetOther);
    fillAll(table, { ...changed, initial });
  };
  store.subscribe({ alive: () => root.isConnected, draw });
  wire(table, root, bar);
  // what the game master sees first: the bar and the overview; the rest in the page's next
  // slice (issue #46: the whole set-up was one task of 340 ms on a 4× slowed phone) – the
  // closed „Für Spieler zeigen“ box and every helper filled with the fighters' values, which
  // changes no size on the page (nothing moves)
  bar.draw();
  overview.draw();
  return () => {
    share.draw();
    if (store.saveProblem) bar.say(`Nicht gespeichert: ${store.saveProblem}`, "error");
    // on opening the page: the fighters' values, but the situation as remembered
    const state = store.state;
    fillAll(table, { actor: !!state.actor, target: !!state.target, turn: true, initial: true });
  };
}

function wire(table, root, bar) {
  root.addEventListener("regelwerk:result", (event) => {
    const helper = event.target.closest(".rw-helper");
    const detail = event.detail;
    if (!helper || !detail || !detail.result || helper.dataset.widget) return;
    if (helper.dataset.action === "initiative") newOrder(table, helper, detail.result);
    else if (detail.shared) offerSharedRoll(table, helper, detail);
    else afterRoll(table, helper, detail);
  });
  // a value typed into a fighter's field (not a fill: fill() sends no change event)
  // (a helper that holds another person's roll – a stray shot's bystander – keeps none)
  root.addEventListener("change", (event) => {
    const helper = event.target.closest(".rw-workbench .rw-helper:not([data-widget])");
    if (!helper || isForOther(helper) || !event.target.matches("[data-path][data-type]")) return;
    keepTyped(table, helper, event.target);
  });
  // the fighter chosen in the Tickleiste's „Kämpfer“ (who acts there, or reacts: an Aktive
  // Abwehr costs him Ticks in another's turn) is the actor; the fight's target stays. A fighter
  // is never his own target: one who was the target gets the fighter he answers as his.
  root.addEventListener("regelwerk:fighter", (event) => {
    const name = event.detail.name;
    const { actor, target } = table.store.state;
    if (name === actor) return;
    if (name && name === target) {
      bar.choose(name, actor || "");
      const now = actor ? `Ziel ist nun ${actor}` : "kein Ziel gewählt";
      bar.say(`${name} war das Ziel und handelt jetzt selbst – niemand ist sein eigenes Ziel: ${now}.`);
    } else {
      bar.choose(name, target || roster.lastTargetOf(table.store.state, name, table.names()) || "");
    }
  });
}

// The page's fights in two steps, in two of its slices (page.js initPage): initWorkbenches
// draws each new one, finishWorkbenches fills its helpers; then it is „ready“ (data-rw-fight,
// what the tests wait for). A step left over by a page set-up that a newer one ended is done by
// the newer one.
const unfinished = [];

export function initWorkbenches() {
  document.querySelectorAll(".rw-workbench:not([data-rw-fight])").forEach((root) => {
    root.dataset.rwFight = "drawn";
    unfinished.push({ root, rest: setup(root) });
  });
}

export function finishWorkbenches() {
  for (const { root, rest } of unfinished.splice(0)) {
    if (!root.isConnected) continue;
    if (rest) rest();
    root.dataset.rwFight = "ready";
  }
}
