// Regelwerk – fight-bar.js: the fight bar of a Kampfhelfer page (.rw-workbench).
//
// Owns: the bar above the page's helpers – „Am Zug“ (the acting fighter), „Ziel“ (the
// target), for the systems with an initiative order „Zurück“/„Weiter“ through the acting
// order of the round, „Rückgängig“/„Wiederherstellen“ for every step of the fight (named:
// „Rückgängig: Schaden: Ork LeP 30 → 24“), and on narrow screens two jumps: to the fight and
// to the open helper's „Würfeln“. It takes the fighters from the Tickleiste (Ryssea; the actor
// follows the fighter chosen there) or from the page's initiative roll. Every change is a step
// given to fight.js (the fight's one writer); the overview (fight-overview.js) shows the
// fighters. A fight changed in another tab is read again and shown.

import * as fight from "./fight.js";
import { renderOverview, setupOverview } from "./overview.js";
import * as journalOf from "./journal.js";
import { collect, defaultValue, fill } from "../helpers/forms.js";
import { announce, notice } from "../helpers/results.js";
import { el, ownValue } from "../common/util.js";

function turnsFrom(result) {
  if (Array.isArray(result.turns)) return result.turns.filter((t) => t && typeof t.name === "string");
  if (Array.isArray(result.phases)) {
    return result.phases.map((p) => ({ name: p.name, label: `Phase ${p.phase}${p.action === 2 ? ", 2. Aktion" : ""}` }));
  }
  if (Array.isArray(result.order)) return result.order.map((o, i) => ({ name: o.name, label: `Platz ${i + 1}` }));
  return [];
}

function select(label, css) {
  const wrap = el("label", "rw-fight-field");
  wrap.appendChild(el("span", "", label));
  const box = el("select", css);
  wrap.appendChild(box);
  return [wrap, box];
}

function button(label, css, onClick) {
  const b = el("button", `md-button ${css}`, label);
  b.type = "button";
  b.addEventListener("click", onClick);
  return b;
}

// A fighter who cannot act is marked in the lists („Ork (tot)“) and still choosable.
function options(bench, box, names, chosen, empty) {
  const label = (name) => {
    const state = fight.stateOf(bench.fight, name);
    return state && state.zustand !== "kampffähig" ? `${name} (${state.text})` : name;
  };
  box.replaceChildren(new Option(empty, ""), ...names.map((n) => new Option(label(n), n)));
  box.value = names.includes(chosen) ? chosen : "";
}

// The actor's opponents first (where the fight knows the sides, e.g. DSA's „Seite“), then his
// companions – the order of the fight otherwise.
function opponentsFirst(bench, names) {
  const sideOf = (name) => {
    const record = ownValue(bench.fight.fighters, name);
    return record && typeof record.side === "string" ? record.side : null;
  };
  const own = bench.fight.actor ? sideOf(bench.fight.actor) : null;
  if (!own) return names;
  return [...names.filter((n) => sideOf(n) !== own), ...names.filter((n) => sideOf(n) === own)];
}

function renderHistoryButtons(bench) {
  const last = journalOf.lastStep(bench.journal);
  const next = journalOf.nextRedo(bench.journal);
  bench.undoButton.disabled = !last;
  bench.undoButton.title = last ? `Rückgängig: ${last.label}` : "Nichts rückgängig zu machen";
  bench.undoButton.setAttribute("aria-label", bench.undoButton.title);
  bench.redoButton.disabled = !next;
  bench.redoButton.title = next ? `Wiederherstellen: ${next.label}` : "Nichts wiederherzustellen";
  bench.redoButton.setAttribute("aria-label", bench.redoButton.title);
}

function render(bench) {
  const names = fight.names(bench);
  options(bench, bench.actorBox, names, bench.fight.actor, names.length ? "—" : "noch niemand im Kampf");
  options(bench, bench.targetBox, opponentsFirst(bench, names.filter((n) => n !== bench.fight.actor)), bench.fight.target, "—");
  const turns = bench.fight.turns || [];
  bench.turnBox.hidden = bench.hasBoard || !turns.length;
  const turn = turns[bench.fight.turn];
  // „Phase 16 – Zug 1 von 8“: the phase names the initiative, the count the turns of the round
  bench.turnText.textContent = turn ? `${turn.label} – Zug ${bench.fight.turn + 1} von ${turns.length}` : "";
  bench.roundText.textContent = turn ? `Runde ${bench.fight.round || 1}` : "";
  renderHistoryButtons(bench);
  renderOverview(bench);
}

// The target belongs to the actor: a new actor gets the target he had last (if still in the
// fight), never the previous actor's – Bruna does not inherit Alrik's opponent, or end up
// attacking Alrik. The game master's choice of a target is kept for that actor.
function lastTargetOf(bench, actor) {
  const record = actor ? ownValue(bench.fight.fighters, actor) : undefined;
  const last = record && typeof record.lastTarget === "string" ? record.lastTarget : null;
  return last && last !== actor && fight.names(bench).includes(last) ? last : null;
}

function who(actor, target) {
  if (!actor) return target ? `Ziel: ${target}` : "niemand gewählt";
  return target ? `${actor} gegen ${target}` : `${actor} am Zug`;
}

// Gives a step and fills the helpers for whoever is chosen now.
function change(bench, label, event) {
  const before = { actor: bench.fight.actor, target: bench.fight.target };
  fight.dispatch(bench, label, event);
  refill(bench, before);
}

function refill(bench, before) {
  const changed = {
    actor: before.actor !== bench.fight.actor,
    target: before.target !== bench.fight.target || before.actor !== bench.fight.actor,
  };
  if (changed.actor || changed.target) fight.fillAll(bench, changed);
  turnSituation(bench);
}

// The situation the acting order gives a turn (DSA: the second action's „Zweite
// Angriffsaktion“, engine/systems/dsa/initiative.py) is set in the helpers while that turn's
// fighter acts, and said beside the form; on any other turn (or another fighter chosen by
// hand) those fields are back at their defaults. The game master can change them as always.
function turnSituation(bench) {
  const turns = bench.fight.turns || [];
  const keys = new Set(turns.flatMap((t) => (t.situation ? Object.keys(t.situation) : [])));
  const turn = turns[bench.fight.turn];
  const current = turn && turn.name === bench.fight.actor && turn.situation ? turn.situation : {};
  for (const helper of bench.helpers()) {
    const values = {};
    const said = [];
    for (const key of keys) {
      const input = helper.querySelector(`.rw-form [data-path="${CSS.escape(key)}"][data-type]`);
      if (!input) continue;
      values[key] = Object.hasOwn(current, key) ? current[key] : defaultValue(input);
      if (Object.hasOwn(current, key)) said.push(fight.labelOf(helper, input));
    }
    if (!Object.keys(values).length) continue;
    fill(helper, values);
    const note = helper.querySelector(".rw-turn-note") || el("p", "rw-fight-note rw-turn-note");
    note.textContent = said.length ? `${turn.label}: „${said.join("“, „")}“ ist gesetzt – abwählen, wenn es für diesen Zug nicht zutrifft.` : "";
    note.hidden = !said.length;
    if (!note.isConnected) helper.querySelector(".rw-form .rw-summary").after(note);
  }
}

export function choose(bench, actor, target) {
  const nextActor = actor === undefined ? bench.fight.actor : actor || null;
  let nextTarget = target === undefined ? bench.fight.target : target || null;
  if (actor !== undefined && nextActor !== bench.fight.actor && target === undefined) nextTarget = lastTargetOf(bench, nextActor);
  if (nextTarget === nextActor) nextTarget = null;
  change(bench, who(nextActor, nextTarget), { type: "choose", actor: nextActor, target: nextTarget });
}

// „Weiter“/„Zurück“ pass over the turns of fighters who cannot act (kampfunfähig, tot – the
// fight knows it from a damage result or the overview) and say whom they passed; if nobody
// can act, the next turn is taken all the same. The game master can still choose anyone.
function step(bench, by) {
  const turns = bench.fight.turns || [];
  if (!turns.length) return;
  const passed = [];
  let turn = bench.fight.turn;
  for (let tries = 0; tries < turns.length; tries++) {
    turn = (turn + by + turns.length) % turns.length;
    const name = turns[turn].name;
    if (fight.canAct(bench.fight, name)) break;
    passed.push(`${name} (${fight.stateOf(bench.fight, name).text})`);
  }
  if (passed.length === turns.length) {
    passed.length = 0;
    turn = (bench.fight.turn + by + turns.length) % turns.length;
  }
  const actor = turns[turn].name;
  const target = actor === bench.fight.actor ? bench.fight.target : lastTargetOf(bench, actor);
  // past the last turn a new round begins (and „Zurück“ over the first goes back one)
  const was = bench.fight.round || 1;
  const round = by > 0 && turn <= bench.fight.turn ? was + 1 : by < 0 && turn >= bench.fight.turn ? Math.max(1, was - 1) : was;
  const newRound = round > was ? `Runde ${round}: ` : "";
  const label = `${by > 0 ? "Weiter" : "Zurück"}: ${newRound}${actor} am Zug (${turns[turn].label})`;
  change(bench, label, { type: "turn", turn, actor, target, round });
  bench.notices.replaceChildren(...(passed.length ? [el("p", "rw-fight-note", `Übersprungen: ${[...new Set(passed)].join(", ")}.`)] : []));
}

function fromTickleiste(bench, board) {
  const inBoard = [];
  const positions = new Map();
  if (board) {
    for (const field of board.fields || []) {
      for (const m of field.markers) {
        inBoard.push(m.name);
        positions.set(m.name, `Tick ${String(field.tick).replace("-", "−")}`);
      }
    }
    for (const w of board.waiting || []) {
      inBoard.push(w.name);
      positions.set(w.name, w.status === "bereithalten" ? "hält bereit" : "wartet ab");
    }
    for (const name of board.ready || []) {
      inBoard.push(name);
      positions.set(name, "vor Kampfbeginn");
    }
  }
  bench.roster = inBoard;
  bench.positions = positions;
}

function fromTurns(bench) {
  const turns = bench.fight.turns || [];
  bench.roster = [...new Set(turns.map((t) => t.name))];
  bench.positions = new Map();
  // his first turn of the round names his place (a second action follows from the rules)
  for (const t of turns) if (!bench.positions.has(t.name)) bench.positions.set(t.name, t.label);
}

function newOrder(bench, helper, result) {
  const turns = turnsFrom(result);
  const actor = turns.length ? turns[0].name : null;
  const sides = {};
  const values = collect(helper);
  for (const f of Array.isArray(values.fighters) ? values.fighters : []) {
    if (f && typeof f.name === "string" && typeof f.seite === "string") sides[f.name.trim()] = f.seite;
  }
  const order = turns.map((t) => t.name).filter((n, i, all) => all.indexOf(n) === i);
  const listed = order.length > 4 ? `${order.slice(0, 4).join(", ")} …` : order.join(", ");
  const before = { actor: bench.fight.actor, target: bench.fight.target };
  // an initiative rolled while an order stands begins the next round (Neuer Kampf: round 1)
  const round = (bench.fight.turns || []).length ? (bench.fight.round || 1) + 1 : 1;
  const said = round > 1 ? ` (Runde ${round})` : "";
  fight.dispatch(bench, `Neue Reihenfolge${said}: ${listed}`, { type: "order", turns, actor, target: lastTargetOf(bench, actor), sides, round });
  refill(bench, before);
}

// The step a result's own „Rückgängig“ names, if it is still the last one; else the reader is
// told where to find it (nothing is taken back that came after it).
function undoStep(bench, label) {
  const last = journalOf.lastStep(bench.journal);
  if (!last || last.label !== label) {
    notice(bench.notices, `„${label}“ ist nicht mehr der letzte Schritt – „Rückgängig“ oben nimmt die späteren zuerst zurück.`, "info");
    return;
  }
  history(bench, "undo");
}

function history(bench, direction) {
  const moved = fight.undo(bench, direction);
  if (!moved) return;
  follow(bench);
  const said = `${direction === "redo" ? "Wiederhergestellt" : "Rückgängig gemacht"}: ${moved.label}`;
  bench.notices.replaceChildren(el("p", "rw-fight-note", `${said}.`));
  announce(bench.announcer, said);
}

// The fight changed elsewhere (the Tickleiste, another tab; fight.js has read it again): show
// it – a value typed here was already kept as a step; the situation fields stay as they are.
function follow(bench) {
  bench.changed();
  fight.fillAll(bench, { actor: true, target: true, initial: true });
  turnSituation(bench);
}

function wire(bench, root) {
  root.addEventListener("regelwerk:result", (event) => {
    const helper = event.target.closest(".rw-helper");
    const result = event.detail && event.detail.result;
    if (!helper || !result) return;
    if (helper.dataset.widget === "tickleiste") {
      // the command was a step of the fight with who is next on the board (fight-journal.js)
      fromTickleiste(bench, result.board);
      render(bench);
    } else if (helper.dataset.action === "initiative") {
      newOrder(bench, helper, result);
    } else if (event.detail.shared) {
      fight.offerSharedRoll(bench, helper, event.detail);
    } else {
      fight.afterRoll(bench, helper, event.detail);
    }
  });
  // a value typed into a fighter's field (not a fill: fill() sends no change event)
  root.addEventListener("change", (event) => {
    const helper = event.target.closest(".rw-workbench .rw-helper:not([data-widget])");
    if (helper && event.target.matches("[data-path][data-type]")) fight.keepTyped(bench, helper, event.target);
  });
  // the board shown again (a step taken back, another tab): its fighters are the roster
  root.addEventListener("regelwerk:board-shown", (event) => {
    fromTickleiste(bench, event.detail.board);
    render(bench);
  });
  // the fighter chosen in the Tickleiste's „Kämpfer“ (who acts there, or reacts: an Aktive
  // Abwehr costs him Ticks in another's turn) is the actor; the fight's target stays (it was
  // replaced by his last target, mostly none). A fighter is never his own target: one who was
  // the target gets the fighter he answers as his, and the bar says so.
  root.addEventListener("regelwerk:fighter", (event) => {
    const name = event.detail.name;
    const { actor, target } = bench.fight;
    if (name === actor) return;
    if (name && name === target) {
      choose(bench, name, actor || "");
      const now = actor ? `Ziel ist nun ${actor}` : "kein Ziel gewählt";
      bench.notices.replaceChildren(el("p", "rw-fight-note", `${name} war das Ziel und handelt jetzt selbst – niemand ist sein eigenes Ziel: ${now}.`));
    } else {
      choose(bench, name, target || lastTargetOf(bench, name) || "");
    }
  });
  bench.actorBox.addEventListener("change", () => choose(bench, bench.actorBox.value));
  bench.targetBox.addEventListener("change", () => choose(bench, undefined, bench.targetBox.value));
}

function setup(root) {
  if (root.dataset.rwFight) return;
  root.dataset.rwFight = "1";
  const first = root.querySelector(".rw-helper");
  if (!first) return;
  const board = root.querySelector(".rw-tickleiste");
  const bench = {
    system: first.dataset.system,
    roster: [],
    positions: new Map(),
    hasBoard: !!board,
    helpers: () => [...root.querySelectorAll(".rw-helper:not([data-widget])")],
    widgets: () => [...root.querySelectorAll(".rw-helper[data-widget]")],
  };
  bench.changed = () => {
    if (!bench.hasBoard) fromTurns(bench);
    render(bench);
  };
  bench.undoStep = (label) => undoStep(bench, label);
  bench.choose = (actor, target) => choose(bench, actor, target);
  bench.connected = () => root.isConnected;
  bench.follow = () => follow(bench);
  const bar = el("div", "rw-fight-bar");
  bar.setAttribute("role", "region");
  bar.setAttribute("aria-label", "Kampf: wer handelt, gegen wen");
  const [actorWrap, actorBox] = select("Am Zug", "rw-fight-actor");
  const [targetWrap, targetBox] = select("Ziel", "rw-fight-target");
  const turnBox = el("span", "rw-fight-turn");
  const turnText = el("span", "rw-fight-turn-text");
  const roundText = el("span", "rw-fight-round");
  const undoButton = button("↶ Rückgängig", "rw-fight-undo", () => history(bench, "undo"));
  // „↷“ alone keeps the bar one line on a laptop; its name („Wiederherstellen: …“) is in
  // aria-label and title (renderHistoryButtons)
  const redoButton = button("↷", "rw-fight-redo", () => history(bench, "redo"));
  Object.assign(bench, { actorBox, targetBox, turnBox, turnText, roundText, undoButton, redoButton });
  turnBox.append(button("◀ Zurück", "rw-fight-prev", () => step(bench, -1)), roundText, turnText, button("Weiter ▶", "rw-fight-next", () => step(bench, 1)));
  const jumps = el("span", "rw-fight-jumps");
  jumps.append(
    button("Zum Kampf", "rw-fight-to-fight", () => root.querySelector(".rw-workbench-fight").scrollIntoView({ block: "start" })),
    button("Zum Würfeln", "rw-fight-to-roll", () => {
      const tools = bench.helpers().filter((h) => h.closest(".rw-workbench-tools"));
      const open = tools.find((h) => h.offsetParent !== null) || tools[0];
      if (!open) return;
      fight.openHelper(open);
      open.querySelector(".rw-submit").focus({ preventScroll: true });
    }),
  );
  bench.notices = el("div", "rw-fight-notices");
  bench.notices.setAttribute("aria-live", "polite");
  bench.announcer = el("p", "rw-sr-only");
  bench.announcer.setAttribute("aria-live", "polite");
  // on a phone the bar is one sticky line: its notices („Übersprungen: …“) go below it
  bar.append(actorWrap, targetWrap, turnBox, undoButton, redoButton, jumps);
  root.prepend(bar);
  bar.after(bench.notices, bench.announcer);
  const problem = fight.load(bench);
  if (problem) notice(bench.notices, `Der gespeicherte Kampf ließ sich nicht verwenden (${problem}). Er wurde als Sicherung beiseitegelegt.`, "error");
  if (board && board.rwSaved && board.rwSaved.shown) fromTickleiste(bench, board.rwSaved.shown.board);
  setupOverview(bench, root.querySelector(".rw-workbench-fight") || root);
  fight.attach(bench);
  wire(bench, root);
  bench.changed();
  // on opening the page: the fighters' values, but the situation as remembered
  fight.fillAll(bench, { actor: !!bench.fight.actor, target: !!bench.fight.target, initial: true });
}

export function initFightBar() {
  document.querySelectorAll(".rw-workbench").forEach(setup);
}
