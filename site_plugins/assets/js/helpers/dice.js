// Regelwerk – dice.js: the dice buttons in the text (.rw-dice, made at build
// time by site_plugins/inline_dice.py) and their popover.
//
// Owns: one click listener on the document (listenForDice, called by bundle.js): a dice button
// rolls its notation (with data-vorteil: Shift = Vorteil, Ctrl/Cmd = Nachteil) and shows the
// result in a single popover (#rw-dice-popover: Nochmal, Mit Vorteil/Nachteil, Schließen;
// Escape or a click outside closes it); every roll goes into the page roll log. Screen readers
// hear the outcome once from a visually hidden live region (#rw-dice-announce).

import { engineReady, newSeed, runEngine } from "../../../laufzeit/js/engine-client.js";
import { logRoll } from "./log.js";
import { announce, outcomeText, resultNodes } from "./results.js";
import { el } from "../common/util.js";

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
  const bar = el("div", "rw-dice-popover-actions");
  pop.append(body, bar);
  document.body.appendChild(pop);
  pop.addEventListener("keydown", (event) => {
    if (event.key === "Escape") closePopover(true);
    if (event.key === "Tab") tabOut(pop, event);
  });
  return pop;
}

// Outside the popover (a hidden region is not read) and made before the first result.
function diceAnnouncer() {
  let region = document.getElementById("rw-dice-announce");
  if (region) return region;
  region = el("div", "rw-announce rw-sr-only");
  region.id = "rw-dice-announce";
  region.setAttribute("aria-live", "polite");
  region.setAttribute("aria-atomic", "true");
  document.body.appendChild(region);
  return region;
}

// The popover sits at the end of the page: Tab past its last button (or Shift+Tab before its
// first) closes it and goes on from the dice expression, as if the popover stood right after it.
const FOCUSABLE = "a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex='-1'])";

function tabOut(pop, event) {
  const inside = [...pop.querySelectorAll(FOCUSABLE)];
  const edge = event.shiftKey ? inside[0] : inside[inside.length - 1];
  if (!popoverOwner || event.target !== edge) return;
  event.preventDefault();
  const owner = popoverOwner;
  closePopover(false);
  if (event.shiftKey) {
    owner.focus();
    return;
  }
  const all = [...document.querySelectorAll(FOCUSABLE)].filter((node) => !pop.contains(node) && node.getClientRects().length);
  const next = all[all.indexOf(owner) + 1];
  (next || owner).focus();
}

export function closePopover(returnFocus) {
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

function errorBox(text) {
  const box = el("p", "rw-error", text);
  box.setAttribute("role", "alert");
  return box;
}

async function rollDice(button, mode, seed) {
  const pop = dicePopover();
  const region = diceAnnouncer();
  const body = pop.querySelector(".rw-dice-popover-body");
  const bar = pop.querySelector(".rw-dice-popover-actions");
  if (popoverOwner && popoverOwner !== button) popoverOwner.setAttribute("aria-expanded", "false");
  popoverOwner = button;
  button.setAttribute("aria-expanded", "true");
  button.setAttribute("aria-controls", pop.id);
  pop.hidden = false;
  placePopover(pop, button);
  // never the previous roll's result (or its buttons) while this one is on its way
  body.replaceChildren(el("p", "rw-pending", engineReady() ? "Würfelt …" : "Würfelhelfer lädt …"));
  bar.replaceChildren();
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
    body.replaceChildren(errorBox(`Würfeln nicht möglich: ${error.message}`));
    return;
  }
  if (popoverOwner !== button) return;
  if (!answer.ok) {
    body.replaceChildren(errorBox(answer.error.message));
    return;
  }
  body.replaceChildren(...resultNodes(answer, { foldCharts: true }));
  const buttons = [actionButton("Nochmal", () => rollDice(button, mode))];
  if (button.hasAttribute("data-vorteil")) {
    buttons.push(actionButton("Mit Vorteil", () => rollDice(button, "vorteil")));
    buttons.push(actionButton("Mit Nachteil", () => rollDice(button, "nachteil")));
  }
  buttons.push(actionButton("Schließen", () => closePopover(true)));
  bar.replaceChildren(...buttons);
  const label = `${button.dataset.notation}${mode === "normal" ? "" : mode === "vorteil" ? " (Vorteil)" : " (Nachteil)"}`;
  announce(region, `${outcomeText(answer)} (${label})`);
  logRoll(label, answer, () => rollDice(button.isConnected ? button : document.querySelector(`.rw-dice[data-notation="${CSS.escape(button.dataset.notation)}"]`) || button, mode, answer.seed));
  bar.firstChild.focus({ preventScroll: true });
}

// One click listener on the document for every dice button of every page of the visit.
export function listenForDice() {
  document.addEventListener("click", onClick);
}

function onClick(event) {
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
}
