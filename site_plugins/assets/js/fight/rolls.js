// Regelwerk – fight/rolls.js: what a roll on a Kampfhelfer page makes of the fight.
//
// After a roll the values are kept for its fighters (the actor's for that helper, the target's
// as his); a result's `target_update` (LeP after damage …) and `target_state` (the engine's
// state for them) are written to the target – one step, named with the values before („Ork LeP
// 30 → 24 – Ork ist jetzt kampfunfähig“), shown right below the result's outcome with its own
// „Rückgängig“; a value of the target the fight did not know yet and the roll wrote is named
// too („Wunden – → 0“). Then the ways on: `follow_ups` (fight/follow-ups.js) and `effect_offers`
// (an effect the rules put on a fighter, with the durations to choose from – Güte's fall: how
// long he lies depends on his FP(Gaukeleien), which the game master rolls at the table). A
// shared roll (a link, the roll log's „Wiederholen“) is shown beside the fight and written only
// with „In den Kampf übernehmen“.

import { fill, withoutPerRoll } from "../helpers/forms.js";
import { outcomeEnd, resultNodes } from "../helpers/results.js";
import { el, isObject, ownValue } from "../common/util.js";
import { effectId, effectLeft, untilFromDuration } from "./effects.js";
import { fieldsOf, fillAll, fillOne, labelOf, shown, titleOf, valuesOf } from "./fill.js";
import { followUpBar, forgetOther, isForOther, rollThen, takeChainHost } from "./follow-ups.js";
import { openHelper } from "../helpers/open.js";

// What the fight makes of a result stands right below its outcome, beside „Würfeln“ – not
// under the dice and chances a screen further down.
function placeAfterOutcome(helper, node) {
  const result = helper.querySelector(".rw-result");
  const after = outcomeEnd(result);
  if (after) after.after(node);
  else result.appendChild(node);
}

// The name of a value of the target as the rules call it: the contract's („LeP“), else the
// field's label – never the raw key.
function valueName(table, helper, key) {
  const known = table.contract.values.find((v) => v.key === key);
  if (known) return known.name;
  const input = helper.querySelector(`.rw-form [data-path="${CSS.escape(key)}"]`);
  const field = input && input.closest(".rw-field");
  if (field && field.dataset.resource) return field.dataset.resource;
  return input ? labelOf(helper, input) : key;
}

// „LeP 30 → 24, Wunden 0 → 1“: what a result writes, with the value before – in the order of
// the system's life values (the engine's answer has its keys sorted).
function changesText(table, helper, before, update) {
  const order = table.contract.values.map((v) => v.key);
  const rank = (key) => (order.includes(key) ? order.indexOf(key) : order.length);
  return Object.entries(update)
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([k, v]) => {
      const was = ownValue(before, k);
      const from = shown(was) === shown(v) ? "" : `${shown(was)} → `;
      return `${valueName(table, helper, k)} ${from}${shown(v)}`;
    })
    .join(", ");
}

// The target's values this roll writes that the fight had otherwise (or not at all): „Wunden – → 0“.
function newlyWritten(table, helper, known, values) {
  return Object.entries(values)
    .filter(([k, v]) => shown(ownValue(known, k)) !== shown(v))
    .map(([k, v]) => `${valueName(table, helper, k)} ${shown(ownValue(known, k))} → ${shown(v)}`)
    .join(", ");
}

export function undoButton(table, label) {
  const button = el("button", "md-button rw-step-undo", "Rückgängig");
  button.type = "button";
  button.setAttribute("aria-label", `Rückgängig: ${label}`);
  button.addEventListener("click", () => table.undoStep(label));
  return button;
}

function writtenNote(table, text, label, changed) {
  const note = el("p", "rw-fight-note rw-fight-written", `${text} `);
  if (changed) note.appendChild(undoButton(table, label));
  return note;
}

// A roll made by a one-tap follow-up, shown as the next link of the chain in the helper the game
// master is in: its headline, outcome and dice (the rest stands in its own helper, one click
// away), then what it wrote and where the rules go on. → the element the fight's lines go into.
function chainLink(host, helper, body) {
  const link = el("div", "rw-chain-step");
  link.dataset.from = helper.id;
  link.setAttribute("role", "group");
  link.setAttribute("aria-label", titleOf(helper));
  const shown = resultNodes(body).filter((node) => node.matches(".rw-headline, .rw-outcome, .rw-rolls, .rw-seed"));
  const whole = el("button", "md-button rw-chain-open", `${titleOf(helper)}: alles zum Wurf ▸`);
  whole.type = "button";
  whole.addEventListener("click", () => openHelper(helper));
  link.append(...shown, whole);
  placeAfterOutcome(host, link);
  requestAnimationFrame(() => link.scrollIntoView({ block: "nearest" }));
  return link;
}

export function afterRoll(table, helper, body, how = "") {
  const fight = table.store.state;
  const result = body.result;
  const host = takeChainHost(helper);
  // the fight's lines of this roll go below its outcome, and into the chain where it is shown
  const link = host ? chainLink(host, helper, body) : null;
  if (isForOther(helper)) {
    // one roll for the other person; then the helper holds the fight's fighters again
    forgetOther(helper);
    const note = helper.querySelector(".rw-other-note");
    if (note) note.hidden = true;
    fillOne(table, helper, { actor: true, target: true, initial: true });
    placeAfterOutcome(helper, el("p", "rw-fight-note rw-fight-written", "Für eine Person außerhalb der Wahl gewürfelt – der Kampf bleibt, wie er ist."));
    return;
  }
  const { actor, target } = fight;
  const update = isObject(result.target_update) ? result.target_update : null;
  const event = {
    type: "roll",
    action: helper.dataset.action,
    actor: actor && fieldsOf(helper, "actor").length ? actor : null,
    target: target && (fieldsOf(helper, "target").length || update) ? target : null,
    actorValues: valuesOf(helper, "actor"),
    targetValues: valuesOf(helper, "target"),
    update: target ? update : null,
    state: result.target_state || null,
  };
  if (event.actor || event.target) {
    const known = event.target ? { ...(ownValue(fight.fighters, target) || { stats: {} }).stats } : {};
    const before = { ...known, ...event.targetValues };
    const who = [event.actor, event.target].filter(Boolean).join(" und ");
    let label = `${how}${titleOf(helper)}: Werte von ${who}`;
    let said = "";
    if (event.update) {
      const changes = changesText(table, helper, before, event.update);
      const down = isObject(event.state) && event.state.zustand !== "kampffähig" ? ` – ${target} ist jetzt ${event.state.text}` : "";
      label = `${how}${titleOf(helper)}: ${target} ${changes}${down}`;
      said = `Für ${target} übernommen: ${changes}.${down ? ` ${target} ist jetzt ${event.state.text}.` : ""}`;
    } else if (event.target) {
      const newly = newlyWritten(table, helper, known, event.targetValues);
      if (newly) label += ` (${target}: ${newly})`;
    }
    const { changed } = table.store.dispatch(label, event);
    if (said) {
      if (link) link.insertBefore(writtenNote(table, said, label, changed), link.lastElementChild);
      placeAfterOutcome(helper, writtenNote(table, said, label, changed));
      fillAll(table, { target: true });
    }
  }
  const offers = effectOffers(table, result.effect_offers);
  const follow = followUpBar(table, result.follow_ups, helper);
  if (follow) placeAfterOutcome(helper, follow);
  if (link) {
    // what the rules make follow is rolled at once; the rest waits for the game master's tap
    const then = rollThen(table, result.follow_ups, host);
    const onward = then ? el("p", "rw-fight-note", `Weiter nach den Regeln: ${then} – gleich gewürfelt.`) : followUpBar(table, result.follow_ups, host);
    if (onward) link.insertBefore(onward, link.lastElementChild);
  }
  for (const offer of offers.reverse()) placeAfterOutcome(helper, offer);
}

// ------------------------------------------------------------------ effects the rules offer

// An engine `effect_offers` entry: {fighter: "actor"|"target", effect, ref, question, choices:
// [{label, meaning, duration: {runden, zuege}}]} – each answer a step that puts the effect on
// that fighter for the chosen duration, in this fight's time.
function effectOffers(table, offers) {
  if (!Array.isArray(offers)) return [];
  const bars = [];
  for (const offer of offers) {
    const name = isObject(offer) && (offer.fighter === "actor" || offer.fighter === "target") ? table.store.state[offer.fighter] : null;
    if (!name || typeof offer.effect !== "string" || !Array.isArray(offer.choices)) continue;
    const bar = el("div", "rw-follow-ups rw-effect-offer");
    bar.appendChild(el("span", "rw-follow-ups-title", typeof offer.question === "string" ? offer.question : `${name}: ${offer.effect}`));
    for (const choice of offer.choices) {
      if (!isObject(choice) || typeof choice.label !== "string") continue;
      const until = untilFromDuration(table.store.state, choice.duration, name);
      if (!until) continue;
      const text = choice.meaning ? `${choice.label}: ${choice.meaning}` : choice.label;
      const answer = el("button", "md-button", text);
      answer.type = "button";
      answer.addEventListener("click", () => {
        const fight = table.store.state;
        const effect = { id: effectId(), name: offer.effect, ref: `${offer.ref || ""}${offer.ref ? ", " : ""}${choice.label}`, until };
        const left = effectLeft(fight, until);
        const label = `${name}: ${offer.effect} (${left})`;
        const { changed } = table.store.dispatch(label, { type: "effect", fighter: name, effect });
        bar.replaceWith(writtenNote(table, `Für ${name} übernommen: ${offer.effect} (${left}).`, label, changed));
      });
      bar.appendChild(answer);
    }
    if (bar.children.length > 1) bars.push(bar);
  }
  return bars;
}

// ------------------------------------------------------------------ a shared roll

// A shared roll (a link, the roll log's „Wiederholen“) is shown beside the fight: the form goes
// back to the fighters' values at once, and only „In den Kampf übernehmen“ writes the link's
// values for the fighters now chosen (the same step as one of their own rolls).
export function offerSharedRoll(table, helper, detail) {
  const { actor, target } = table.store.state;
  if (!actor && !target) return; // nobody chosen: the link's roll is all there is
  fillOne(table, helper, { actor: !!actor, target: !!target });
  const who = [actor && `Werte für ${actor}`, target && `Ziel ${target}`].filter(Boolean).join(", ");
  const what = detail.fromLog ? "Wiederholter Wurf" : "Geteilter Wurf";
  const bar = el("div", "rw-follow-ups rw-shared-take");
  const take = el("button", "md-button", "In den Kampf übernehmen");
  take.type = "button";
  take.addEventListener("click", () => {
    // the link's values of the fighters; its per-roll values were for that roll only
    fill(helper, withoutPerRoll(helper, detail.params || {}));
    afterRoll(table, helper, detail, `${what} – `);
    bar.replaceChildren(el("span", "rw-fight-note", `In den Kampf übernommen (${who}).`));
  });
  bar.append(el("span", "rw-follow-ups-title", `${what} – der Kampf bleibt, wie er ist (${who}).`), take);
  placeAfterOutcome(helper, bar);
}
