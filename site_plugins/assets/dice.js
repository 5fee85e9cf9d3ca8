// Regelwerk roll helpers 5/6 – dice.js: the dice buttons in the text (.rw-dice, made at build
// time by site_plugins/inline_dice.py) and their popover.
// Load order, namespace convention (RW = window.Regelwerk, RW._internal): see engine-client.js.
//
// Owns: one click listener on the document (registered when this script loads): a dice button
// rolls its notation (with data-vorteil: Shift = Vorteil, Ctrl/Cmd = Nachteil) and shows the
// result in a single popover (#rw-dice-popover: Nochmal, Mit Vorteil/Nachteil, Schließen;
// Escape or a click outside closes it); every roll goes into the page roll log.
// Exposes: RW._internal.closePopover(returnFocus).
// Uses: RW.runEngine, RW.engineReady, RW.newSeed, RW.el, RW.resultNodes, RW.logRoll.
(function () {
"use strict";
const RW = (window.Regelwerk = window.Regelwerk || {});
const internal = RW._internal;
const { runEngine, engineReady, newSeed, el, resultNodes, logRoll } = RW;

let popoverOwner = null;

function dicePopover() {
  let pop = document.getElementById("rw-dice-popover");
  if (pop) return pop;
  pop = el("div", "rw-dice-popover");
  pop.id = "rw-dice-popover";
  pop.setAttribute("role", "dialog");
  pop.setAttribute("aria-label", "Würfelergebnis");
  pop.hidden = true;
  const body = el("div", "rw-dice-popover-body");
  body.setAttribute("aria-live", "polite");
  const bar = el("div", "rw-dice-popover-actions");
  pop.append(body, bar);
  document.body.appendChild(pop);
  pop.addEventListener("keydown", (event) => {
    if (event.key === "Escape") closePopover(true);
  });
  return pop;
}

function closePopover(returnFocus) {
  const pop = document.getElementById("rw-dice-popover");
  if (!pop || pop.hidden) return;
  pop.hidden = true;
  if (popoverOwner) {
    popoverOwner.setAttribute("aria-expanded", "false");
    if (returnFocus) popoverOwner.focus();
  }
  popoverOwner = null;
}

function placePopover(pop, button) {
  const rect = button.getBoundingClientRect();
  const width = Math.min(360, document.documentElement.clientWidth - 16);
  pop.style.width = `${width}px`;
  const left = Math.max(8, Math.min(rect.left + window.scrollX, window.scrollX + document.documentElement.clientWidth - width - 8));
  pop.style.left = `${left}px`;
  pop.style.top = `${rect.bottom + window.scrollY + 6}px`;
}

function actionButton(label, onClick) {
  const button = el("button", "md-button", label);
  button.type = "button";
  button.addEventListener("click", onClick);
  return button;
}

async function rollDice(button, mode, seed) {
  const pop = dicePopover();
  const body = pop.querySelector(".rw-dice-popover-body");
  const bar = pop.querySelector(".rw-dice-popover-actions");
  if (popoverOwner && popoverOwner !== button) popoverOwner.setAttribute("aria-expanded", "false");
  popoverOwner = button;
  button.setAttribute("aria-expanded", "true");
  button.setAttribute("aria-controls", pop.id);
  pop.hidden = false;
  placePopover(pop, button);
  if (!engineReady()) body.replaceChildren(el("p", "rw-pending", "Würfelhelfer lädt …"));
  const request = {
    system: "allgemein",
    action: "wurf",
    params: { notation: button.dataset.notation, mode },
    seed: seed === undefined ? newSeed() : seed,
  };
  let answer;
  try {
    answer = await runEngine(request);
  } catch (error) {
    body.replaceChildren(el("p", "rw-error", `Würfeln nicht möglich: ${error.message}`));
    return;
  }
  if (popoverOwner !== button) return;
  if (!answer.ok) {
    body.replaceChildren(el("p", "rw-error", answer.error.message));
    return;
  }
  body.replaceChildren(...resultNodes(answer));
  const buttons = [actionButton("Nochmal", () => rollDice(button, mode))];
  if (button.hasAttribute("data-vorteil")) {
    buttons.push(actionButton("Mit Vorteil", () => rollDice(button, "vorteil")));
    buttons.push(actionButton("Mit Nachteil", () => rollDice(button, "nachteil")));
  }
  buttons.push(actionButton("Schließen", () => closePopover(true)));
  bar.replaceChildren(...buttons);
  const label = `${button.dataset.notation}${mode === "normal" ? "" : mode === "vorteil" ? " (Vorteil)" : " (Nachteil)"}`;
  logRoll(label, answer, () => rollDice(button.isConnected ? button : document.querySelector(`.rw-dice[data-notation="${CSS.escape(button.dataset.notation)}"]`) || button, mode, answer.seed));
  bar.firstChild.focus({ preventScroll: true });
}

document.addEventListener("click", (event) => {
  const button = event.target.closest && event.target.closest(".rw-dice");
  if (button) {
    event.preventDefault();
    const vorteil = button.hasAttribute("data-vorteil");
    let mode = "normal";
    if (vorteil && event.shiftKey) mode = "vorteil";
    if (vorteil && (event.ctrlKey || event.metaKey)) mode = "nachteil";
    rollDice(button, mode);
    return;
  }
  const pop = document.getElementById("rw-dice-popover");
  const replay = event.target.closest && event.target.closest(".rw-repeat");
  if (pop && !pop.hidden && !pop.contains(event.target) && !replay) closePopover(false);
});

internal.closePopover = closePopover;
})();
