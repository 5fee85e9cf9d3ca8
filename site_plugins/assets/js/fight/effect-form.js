// Regelwerk – fight/effect-form.js: „Wirkung auf einen Kämpfer legen“ below the overview.
//
// Owns the form that puts an effect on a fighter (betäubt, a spell …) with a duration in this
// fight's own time: Ticks where the Tickleiste keeps the time, Runden where an acting order
// does, turns of a fighter („bis … handelt“) in both. The conditions the system's text names
// (the fight contract's `conditions`) are offered as suggestions; any other name may be typed.
// Checked first (a German message naming the field), then a named step through the store.

import { el } from "../common/util.js";
import { EFFECT_NAME_MAX, EFFECT_REF_MAX, boardNow, downNames, effectId, effectLeft } from "./effects.js";

// The durations this fight can count, in its own time.
export function unitsOf(hasBoard) {
  return [hasBoard ? ["ticks", "Ticks"] : ["runden", "Runden"], ["zuege", "Züge von …"]];
}

// → {until} for a duration typed in the form, or {problem} (German, naming the field).
export function untilOf(fight, unit, countText, who) {
  const text = String(countText).trim();
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 1000) return { problem: "Dauer: bitte eine ganze Zahl von 1 bis 1.000 eintragen." };
  const count = Number(text);
  if (unit === "ticks") {
    const now = boardNow(fight.board, downNames(fight));
    if (now === null) return { problem: "Dauer: die Tickleiste hat noch keinen aktuellen Tick – erst den Kampf beginnen." };
    return { until: { unit: "ticks", tick: now + count } };
  }
  if (unit === "zuege") {
    if (!who) return { problem: "Bis wer handelt: bitte einen Kämpfer wählen." };
    return { until: { unit: "zuege", who, left: count } };
  }
  if (!(fight.turns || []).length) return { problem: "Dauer: Runden zählen erst mit einer Reihenfolge – erst die Initiative würfeln." };
  return { until: { unit: "runden", round: (fight.round || 1) + count, turn: fight.turn } };
}

function labelled(text, control) {
  const wrap = el("label", "rw-effect-field");
  wrap.append(el("span", "", text), control);
  return wrap;
}

function textInput(css, max, placeholder) {
  const input = el("input", css);
  input.type = "text";
  input.maxLength = max;
  input.placeholder = placeholder;
  input.autocomplete = "off";
  return input;
}

// → {element, draw}: the form, and how it follows the fight (its lists of fighters).
export function effectForm(table) {
  const { store } = table;
  const form = el("form", "rw-effect-form");
  form.noValidate = true;
  const fighter = el("select", "rw-effect-fighter");
  const name = textInput("rw-effect-name", EFFECT_NAME_MAX, "z. B. betäubt");
  const ref = textInput("rw-effect-ref", EFFECT_REF_MAX, "z. B. Angriff +2 erschwert");
  if (table.contract.conditions.length) {
    const list = el("datalist", "");
    list.id = `rw-effect-names-${table.system}`;
    list.append(...table.contract.conditions.map((c) => new Option(c, c)));
    name.setAttribute("list", list.id);
    form.appendChild(list);
  }
  const count = textInput("rw-effect-count", 4, "");
  count.inputMode = "numeric";
  count.value = "1";
  const unit = el("select", "rw-effect-unit");
  const who = el("select", "rw-effect-who");
  const whoField = labelled("Bis wer handelt", who);
  const error = el("p", "rw-effect-error rw-error");
  error.setAttribute("role", "alert");
  error.hidden = true;
  const add = el("button", "md-button rw-effect-add", "Wirkung hinzufügen");
  add.type = "submit";
  const sync = () => {
    whoField.hidden = unit.value !== "zuege";
  };
  unit.addEventListener("change", sync);
  const say = (problem) => {
    error.textContent = problem;
    error.hidden = !problem;
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (!fighter.value) return say("Kämpfer: bitte einen Kämpfer wählen.");
    if (!name.value.trim()) return say("Wirkung: bitte einen Namen eintragen (z. B. betäubt).");
    const fight = store.state;
    const { until, problem } = untilOf(fight, unit.value, count.value, who.value);
    if (problem) return say(problem);
    say("");
    const effect = { id: effectId(), name: name.value.trim(), until };
    if (ref.value.trim()) effect.ref = ref.value.trim();
    store.dispatch(`${fighter.value}: ${effect.name} (${effectLeft(fight, until)})`, { type: "effect", fighter: fighter.value, effect });
    name.value = "";
    ref.value = "";
  });
  form.append(
    el("p", "rw-effect-form-title", "Wirkung auf einen Kämpfer legen (läuft von selbst ab)"),
    labelled("Kämpfer", fighter),
    labelled("Wirkung", name),
    labelled("Regel (optional)", ref),
    labelled("Dauer", count),
    labelled("Einheit", unit),
    whoField,
    add,
    error,
  );
  const draw = () => {
    const names = table.names();
    for (const box of [fighter, who]) {
      const was = box.value;
      box.replaceChildren(...names.map((n) => new Option(n, n)));
      if (names.includes(was)) box.value = was;
    }
    const was = unit.value;
    unit.replaceChildren(...unitsOf(table.hasBoard).map(([value, text]) => new Option(text, value)));
    if ([...unit.options].some((o) => o.value === was)) unit.value = was;
    sync();
    form.hidden = !names.length;
  };
  return { element: form, draw };
}
