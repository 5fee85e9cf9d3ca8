// Regelwerk – fight/bar.js: the fight bar of a Kampfhelfer page (a view of the fight store).
//
// Owns the bar above the page's helpers: „Am Zug“ (the acting fighter), „Ziel“ (the target),
// for the systems with an initiative order „◀ Zurück“/„Weiter ▶“ through the acting order of
// the round, „↶ Rückgängig“/„↷“ for every step of the fight (named: „Rückgängig: Schaden: Ork
// LeP 30 → 24“), the jumps to the fight and to the open helper's „Würfeln“, and the bar's notices
// („Übersprungen: Alrik (kampfunfähig).“, „Rückgängig gemacht: …“) – inside the bar, which
// sticks to the top of the window, so they stand where the game master looks. On a phone the
// controls wrap onto a second row: every one of them within the screen, ≥ 44 px to touch.
// Every change is a named step given to the store; the bar draws what the store holds.

import { el } from "../common/util.js";
import { announce, notice } from "../helpers/results.js";
import * as roster from "./roster.js";

function select(label, css) {
  const wrap = el("label", "rw-fight-field");
  wrap.appendChild(el("span", "", label));
  const box = el("select", css);
  wrap.appendChild(box);
  return [wrap, box];
}

function button(label, css, onClick, name = "") {
  const b = el("button", `md-button ${css}`, label);
  b.type = "button";
  if (name) {
    b.title = name;
    b.setAttribute("aria-label", name);
  }
  b.addEventListener("click", onClick);
  return b;
}

// A fighter who cannot act is marked in the lists („Ork (tot)“) and still choosable.
function options(state, box, list, chosen, empty) {
  box.replaceChildren(new Option(empty, ""), ...list.map((n) => new Option(roster.shownName(state, n), n)));
  box.value = list.includes(chosen) ? chosen : "";
}

export function createBar(table) {
  const { store } = table;
  const bar = el("div", "rw-fight-bar");
  bar.setAttribute("role", "region");
  bar.setAttribute("aria-label", "Kampf: wer handelt, gegen wen");
  const [actorWrap, actorBox] = select("Am Zug", "rw-fight-actor");
  const [targetWrap, targetBox] = select("Ziel", "rw-fight-target");
  const notices = el("div", "rw-fight-notices");
  notices.setAttribute("aria-live", "polite");
  const announcer = el("p", "rw-sr-only");
  announcer.setAttribute("aria-live", "polite");
  const say = (text, kind = "") => {
    if (kind) notice(notices, text, kind);
    else notices.replaceChildren(...(text ? [el("p", "rw-fight-note", text)] : []));
  };

  const choose = (actor, target) => {
    const state = store.state;
    const inFight = table.names();
    const nextActor = actor === undefined ? state.actor : actor || null;
    let nextTarget = target === undefined ? state.target : target || null;
    if (actor !== undefined && nextActor !== state.actor && target === undefined) nextTarget = roster.lastTargetOf(state, nextActor, inFight);
    if (nextTarget === nextActor) nextTarget = null;
    store.dispatch(roster.choiceText(nextActor, nextTarget), { type: "choose", actor: nextActor, target: nextTarget });
  };

  const step = (by) => {
    const next = roster.nextTurn(store.state, by, table.names());
    if (!next) return;
    store.dispatch(next.label, next.event);
    say(next.passed.length ? `Übersprungen: ${next.passed.join(", ")}.` : "");
  };

  const history = (direction) => {
    const moved = direction === "redo" ? store.redo() : store.undo();
    if (!moved) return;
    const said = `${direction === "redo" ? "Wiederhergestellt" : "Rückgängig gemacht"}: ${moved.label}`;
    say(`${said}.`);
    announce(announcer, said);
  };

  const undoButton = button("↶ Rückgängig", "rw-fight-undo", () => history("undo"));
  // „↷“ alone keeps the bar one line on a laptop; its name („Wiederherstellen: …“) is in
  // aria-label and title
  const redoButton = button("↷", "rw-fight-redo", () => history("redo"));
  const prev = button("◀", "rw-fight-prev", () => step(-1), "Zurück");
  prev.appendChild(el("span", "rw-fight-wide", " Zurück")); // narrow: „◀“ alone, named „Zurück“
  const next = button("Weiter ▶", "rw-fight-next", () => step(1));
  const turnText = el("span", "rw-fight-turn-text");
  const roundText = el("span", "rw-fight-round");
  // only on narrow screens, where the fight stands above the helpers
  const toFight = button("Kampf ↑", "rw-fight-to-fight", () => table.root.querySelector(".rw-workbench-fight").scrollIntoView({ block: "start" }), "Zum Kampf");
  const toRoll = button("Würfeln ↓", "rw-fight-to-roll", () => table.toRoll(), "Zum Würfeln");
  const who = el("div", "rw-fight-who");
  who.append(actorWrap, targetWrap, prev, next);
  const tools = el("div", "rw-fight-tools");
  tools.append(undoButton, redoButton, roundText, turnText, toRoll, toFight);
  bar.append(who, tools, notices);

  actorBox.addEventListener("change", () => choose(actorBox.value));
  targetBox.addEventListener("change", () => choose(undefined, targetBox.value));

  const draw = () => {
    const state = store.state;
    const list = table.names();
    options(state, actorBox, list, state.actor, list.length ? "—" : "noch niemand im Kampf");
    options(state, targetBox, roster.opponentsFirst(state, list.filter((n) => n !== state.actor)), state.target, "—");
    const turns = state.turns || [];
    const ordered = !table.hasBoard && turns.length > 0;
    prev.hidden = !ordered;
    next.hidden = !ordered;
    const turn = ordered ? turns[state.turn] : null;
    // „Phase 16 – Zug 1 von 8“: the phase names the initiative, the count the turns of the round
    turnText.textContent = turn ? `${turn.label} – Zug ${state.turn + 1} von ${turns.length}` : "";
    turnText.hidden = !turn;
    roundText.textContent = turn ? `Runde ${state.round || 1}` : "";
    roundText.hidden = !turn;
    const last = store.lastStep();
    const again = store.nextRedo();
    undoButton.disabled = !last;
    undoButton.title = last ? `Rückgängig: ${last.label}` : "Nichts rückgängig zu machen";
    undoButton.setAttribute("aria-label", undoButton.title);
    redoButton.disabled = !again;
    redoButton.title = again ? `Wiederherstellen: ${again.label}` : "Nichts wiederherzustellen";
    redoButton.setAttribute("aria-label", redoButton.title);
  };

  return { element: bar, draw, say, choose, announce: (text) => announce(announcer, text), announcer };
}
