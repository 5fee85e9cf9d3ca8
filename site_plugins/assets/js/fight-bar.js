// Regelwerk – fight-bar.js: the fight bar of a Kampfhelfer page (.rw-workbench).
//
// Owns: the bar above the page's helpers – „Am Zug“ (the acting fighter), „Ziel“ (the
// target), for the systems with an initiative order „Zurück“/„Weiter“ through the acting
// order of the round, and on narrow screens two jumps: to the fight and to the open helper's
// „Würfeln“ (the bar stays at the top of the window). It takes the fighters from the
// Tickleiste (Ryssea; the actor follows the fighter chosen there) or from the page's
// initiative roll, and tells fight.js when the actor or target changes or a helper rolled.

import * as fight from "./fight.js";
import { el, ownValue } from "./util.js";

function turnsFrom(result) {
  if (Array.isArray(result.turns)) return result.turns;
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

function render(bench) {
  const names = fight.names(bench);
  options(bench, bench.actorBox, names, bench.fight.actor, names.length ? "—" : "noch niemand im Kampf");
  options(bench, bench.targetBox, names.filter((n) => n !== bench.fight.actor), bench.fight.target, "—");
  const turns = bench.fight.turns || [];
  bench.turnBox.hidden = bench.system === "ryssea" || !turns.length;
  const turn = turns[bench.fight.turn];
  // „Phase 16 – Zug 1 von 8“: the phase names the initiative, the count the turns of the round
  bench.turnText.textContent = turn ? `${turn.label} – Zug ${bench.fight.turn + 1} von ${turns.length}` : "";
}

// The target belongs to the actor: a new actor gets the target he had last (if still in the
// fight), never the previous actor's – Bruna does not inherit Alrik's opponent, or end up
// attacking Alrik. The game master's choice of a target is kept for that actor.
function lastTargetOf(bench, actor) {
  const record = actor ? ownValue(bench.fight.fighters, actor) : undefined;
  const last = record && typeof record.lastTarget === "string" ? record.lastTarget : null;
  return last && last !== actor && fight.names(bench).includes(last) ? last : null;
}

function choose(bench, actor, target) {
  const changed = { actor: actor !== undefined && actor !== bench.fight.actor, target: false };
  if (changed.actor) {
    bench.fight.actor = actor || null;
    if (target === undefined) target = lastTargetOf(bench, bench.fight.actor) || "";
  }
  if (target !== undefined && (target || null) !== bench.fight.target) {
    bench.fight.target = target || null;
    changed.target = true;
  }
  if (bench.fight.target && bench.fight.target === bench.fight.actor) {
    bench.fight.target = null;
    changed.target = true;
  }
  if (changed.actor && !bench.fight.target) changed.target = true;
  if (bench.fight.actor && bench.fight.target) {
    fight.fighter(bench.fight, bench.fight.actor).lastTarget = bench.fight.target;
  }
  fight.save(bench);
  render(bench);
  if (changed.actor || changed.target) fight.fillAll(bench, changed);
}

// „Weiter“/„Zurück“ pass over the turns of fighters who cannot act (kampfunfähig, tot – the
// fight knows it from a damage result) and say whom they passed; if nobody can act, the next
// turn is taken all the same. The game master can still choose anyone in „Am Zug“.
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
  bench.fight.turn = turn;
  bench.notices.replaceChildren(...(passed.length ? [el("p", "rw-fight-note", `Übersprungen: ${[...new Set(passed)].join(", ")}.`)] : []));
  choose(bench, turns[turn].name);
}

function fromTickleiste(bench, board) {
  const inBoard = [];
  if (board) {
    for (const field of board.fields || []) for (const m of field.markers) inBoard.push(m.name);
    for (const w of board.waiting || []) inBoard.push(w.name);
    for (const name of board.ready || []) inBoard.push(name);
  }
  bench.roster = inBoard;
}

function wire(bench, root) {
  root.addEventListener("regelwerk:result", (event) => {
    const helper = event.target.closest(".rw-helper");
    const result = event.detail && event.detail.result;
    if (!helper || !result) return;
    if (helper.dataset.widget === "tickleiste") {
      fromTickleiste(bench, result.board);
      render(bench);
      if (result.next) choose(bench, result.next);
    } else if (helper.dataset.action === "initiative") {
      bench.fight.turns = turnsFrom(result);
      bench.fight.turn = 0;
      bench.roster = [...new Set(bench.fight.turns.map((t) => t.name))];
      choose(bench, bench.fight.turns.length ? bench.fight.turns[0].name : null);
    } else if (event.detail.shared) {
      fight.offerSharedRoll(bench, helper, event.detail);
    } else {
      fight.afterRoll(bench, helper, event.detail);
      render(bench); // a fighter the roll put down is marked in the lists at once
    }
  });
  root.addEventListener("regelwerk:fighter", (event) => choose(bench, event.detail.name));
  bench.actorBox.addEventListener("change", () => choose(bench, bench.actorBox.value));
  bench.targetBox.addEventListener("change", () => choose(bench, undefined, bench.targetBox.value));
}

function setup(root) {
  if (root.dataset.rwFight) return;
  root.dataset.rwFight = "1";
  const first = root.querySelector(".rw-helper");
  if (!first) return;
  const bench = { system: first.dataset.system, roster: [], helpers: () => [...root.querySelectorAll(".rw-helper:not([data-widget])")] };
  bench.fight = fight.load(bench.system);
  const bar = el("div", "rw-fight-bar");
  bar.setAttribute("role", "region");
  bar.setAttribute("aria-label", "Kampf: wer handelt, gegen wen");
  const [actorWrap, actorBox] = select("Am Zug", "rw-fight-actor");
  const [targetWrap, targetBox] = select("Ziel", "rw-fight-target");
  const turnBox = el("span", "rw-fight-turn");
  const turnText = el("span", "rw-fight-turn-text");
  Object.assign(bench, { actorBox, targetBox, turnBox, turnText });
  turnBox.append(button("◀ Zurück", "rw-fight-prev", () => step(bench, -1)), turnText, button("Weiter ▶", "rw-fight-next", () => step(bench, 1)));
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
  bar.append(actorWrap, targetWrap, turnBox, jumps, bench.notices);
  root.prepend(bar);
  const board = root.querySelector(".rw-tickleiste");
  if (board && board.rwSaved && board.rwSaved.shown) fromTickleiste(bench, board.rwSaved.shown.board);
  if (!board) bench.roster = [...new Set((bench.fight.turns || []).map((t) => t.name))];
  wire(bench, root);
  render(bench);
  // on opening the page: the fighters' values, but the situation as remembered
  fight.fillAll(bench, { actor: !!bench.fight.actor, target: !!bench.fight.target, initial: true });
}

export function initFightBar() {
  document.querySelectorAll(".rw-workbench").forEach(setup);
}
