// Regelwerk – forms.js: the helper forms built at build time
// (site_plugins/forms.py).
//
// Owns: reading a form into the engine's params (collect: lists as arrays of records, the seed
// field left out), list rows (add, remove, renumber paths, ids, labels and the +/− buttons'
// limits) and field errors (showError at the field, else as an alert in the result; clearErrors).
// Also filling a form from values (saved values, shared links, remembered input, a fighter's
// values), resetting it to what the page built, and the values of one roll (data-per-roll:
// cleared after the roll, left out of what is remembered). Values under a field's former name
// (the engine's `formerly`, data-formerly on the helper: saved before a rename) fill that field.

import { el, isObject, renameValues } from "../common/util.js";

// {old: new}: the former names of the fields of the helper's system (site_plugins/forms.py
// former_names, from the engine's `formerly`); {} when none or unreadable.
export function formerNames(helper) {
  try {
    const map = JSON.parse(helper.dataset.formerly || "{}");
    return isObject(map) ? map : {};
  } catch (error) {
    return {};
  }
}

function fieldKey(path) {
  const parts = path.split(".");
  return parts[parts.length - 1];
}

function readValue(input) {
  if (input.dataset.type === "bool") return input.checked;
  return input.value;
}

// Fields that do not apply to the current choices (the schema's `when`, rendered as
// data-when) are hidden and disabled: they are not sent, so the engine takes its default
// and never complains about a leftover value. Groups whose fields are all hidden go too.
export function defaultValue(input) {
  if (input.dataset.type === "bool") return input.defaultChecked;
  if (input.tagName === "SELECT") {
    const preset = [...input.options].find((o) => o.defaultSelected) || input.options[0];
    return preset ? preset.value : "";
  }
  return input.defaultValue;
}

// What the engine will see of a field: nothing is sent for a hidden one, so its default.
function effectiveValue(input) {
  if (input.disabled) return defaultValue(input);
  return input.dataset.type === "bool" ? input.checked : input.value;
}

export function applyConditions(helper) {
  const form = helper.querySelector(".rw-form");
  const fields = [...form.querySelectorAll(".rw-field[data-when]")];
  // a hidden field can hide others in turn: repeat until nothing changes
  for (let pass = 0; pass < 5; pass++) {
    let changed = false;
    for (const field of fields) {
      let applies = true;
      try {
        for (const [name, allowed] of Object.entries(JSON.parse(field.dataset.when))) {
          const input = form.querySelector(`[data-path="${CSS.escape(name)}"][data-type]`);
          if (input && !allowed.map(String).includes(String(effectiveValue(input)))) applies = false;
        }
      } catch (error) {
        applies = true; // a broken hint never hides a field
      }
      if (field.hidden === applies) changed = true;
      field.hidden = !applies;
      field.querySelectorAll("input, select").forEach((input) => {
        input.disabled = !applies;
      });
    }
    if (!changed) break;
  }
  form.querySelectorAll("fieldset.rw-group, .rw-more").forEach((group) => {
    const inGroup = [...group.querySelectorAll(".rw-field")];
    group.hidden = inGroup.length > 0 && inGroup.every((f) => f.hidden);
  });
}

export function collect(helper) {
  const form = helper.querySelector(".rw-form");
  const params = {};
  form.querySelectorAll(":scope .rw-list").forEach((list) => {
    const rows = [];
    list.querySelectorAll(":scope > .rw-rows > .rw-row").forEach((row) => {
      const record = {};
      row.querySelectorAll("[data-path][data-type]").forEach((input) => {
        if (input.disabled) return;
        record[fieldKey(input.dataset.path)] = readValue(input);
      });
      rows.push(record);
    });
    params[list.dataset.path] = rows;
  });
  form.querySelectorAll("[data-path][data-type]").forEach((input) => {
    if (input.closest(".rw-list") || input.dataset.type === "seed" || input.disabled) return;
    params[input.dataset.path] = readValue(input);
  });
  return params;
}

function writeValue(input, value) {
  if (input.dataset.type === "bool") input.checked = value === true || value === "true" || value === "ja";
  else input.value = value === null || value === undefined ? "" : String(value);
}

// Values of one roll (the schema's per_roll, rendered as data-per-roll on the field: a die
// result typed in, „Abwehr gelungen“ and its Güte, the TP a follow-up brought …): page.js puts
// them back to their defaults after every roll, remember.js never keeps them – the next roll,
// maybe another fighter's, and a reload start without them.
function perRollInputs(helper) {
  return [...helper.querySelectorAll(".rw-form .rw-field[data-per-roll] [data-path][data-type]")];
}

// A field's path split into its name, or its list, row and name („fighters.0.willenswurf“).
function pathParts(path) {
  const [name, index, key] = path.split(".");
  return key === undefined ? { name } : { name, index: Number(index), key };
}

// `values` (the engine's params) without the helper's values of one roll, also in list rows.
export function withoutPerRoll(helper, values) {
  const out = { ...(values || {}) };
  for (const input of perRollInputs(helper)) {
    const { name, key } = pathParts(input.dataset.path);
    if (key === undefined) delete out[name];
    else if (Array.isArray(out[name])) {
      out[name] = out[name].map((row) => {
        if (!row || typeof row !== "object") return row;
        const kept = { ...row };
        delete kept[key];
        return kept;
      });
    }
  }
  return out;
}

// After a roll: every value of one roll back to the form's default (what the page built).
export function clearPerRoll(helper) {
  const values = {};
  for (const input of perRollInputs(helper)) {
    const { name, index, key } = pathParts(input.dataset.path);
    if (key === undefined) {
      values[name] = defaultValue(input);
      continue;
    }
    // a list is filled row by row: every row is named, so none is added or removed
    const rows = input.closest(".rw-rows").children.length;
    if (!values[name]) values[name] = Array.from({ length: rows }, () => ({}));
    values[name][index][key] = defaultValue(input);
  }
  if (Object.keys(values).length) fill(helper, values);
}

// Puts `values` (the engine's params; a former name counts as the field's name now) into the
// form: lists get as many rows as needed.
// Fields in `skip` stay as they are. Returns the names the form has no field for – a caller
// reports them instead of dropping them silently.
export function fill(helper, values, skip = []) {
  const form = helper.querySelector(".rw-form");
  const unknown = [];
  for (const [name, value] of Object.entries(renameValues(values || {}, formerNames(helper)))) {
    if (skip.includes(name)) continue;
    const list = form.querySelector(`.rw-list[data-path="${CSS.escape(name)}"]`);
    if (list && Array.isArray(value)) {
      const rows = () => list.querySelectorAll(":scope > .rw-rows > .rw-row");
      const max = Number(list.dataset.max);
      while (rows().length < Math.min(value.length, max)) addRow(list, false);
      while (rows().length > Math.max(value.length, Number(list.dataset.min))) {
        list.querySelector(":scope > .rw-rows").lastElementChild.remove();
      }
      renumber(list);
      value.slice(0, max).forEach((record, index) => {
        for (const [key, item] of Object.entries(record || {})) {
          const input = list.querySelector(`[data-path="${CSS.escape(`${name}.${index}.${key}`)}"]`);
          if (input) writeValue(input, item);
          else unknown.push(`${name}.${key}`);
        }
      });
      continue;
    }
    const input = form.querySelector(`[data-path="${CSS.escape(name)}"][data-type]:not(.rw-list)`);
    if (input && input.dataset.type !== "seed") writeValue(input, value);
    else unknown.push(name);
  }
  form.dispatchEvent(new Event("rw-filled", { bubbles: true }));
  return [...new Set(unknown)];
}

// The form as the page built it (its defaults and the page's presets).
export function resetForm(helper) {
  const form = helper.querySelector(".rw-form");
  form.querySelectorAll(".rw-list").forEach((list) => {
    const rows = list.querySelector(":scope > .rw-rows");
    if (!initialRows.has(list)) return;
    rows.innerHTML = initialRows.get(list);
    renumber(list);
  });
  form.querySelectorAll("[data-path][data-type]").forEach((input) => writeValue(input, defaultValue(input)));
  form.dispatchEvent(new Event("rw-filled", { bubbles: true }));
}

// Remembers the rows as built, for resetForm, and the form's values as built – what shared
// links leave out (helpers/share.js) – called once when a helper is set up.
const initialRows = new WeakMap(); // list → its rows' markup as built
const builtValues = new WeakMap(); // helper → collect() of the form as the page built it

export function keepInitialRows(helper) {
  helper.querySelectorAll(".rw-form .rw-list").forEach((list) => {
    initialRows.set(list, list.querySelector(":scope > .rw-rows").innerHTML);
  });
}

export function keepBuiltValues(helper, values = collect(helper)) {
  builtValues.set(helper, values);
}

export function builtValuesOf(helper) {
  return builtValues.get(helper) || {};
}

export function renumber(list) {
  const name = list.dataset.path;
  const rows = list.querySelectorAll(":scope > .rw-rows > .rw-row");
  rows.forEach((row, index) => {
    const old = row.dataset.index;
    row.dataset.index = String(index);
    row.querySelector(".rw-row-number").textContent = String(index + 1);
    const from = `${name}.${old}.`;
    const to = `${name}.${index}.`;
    const idFrom = `-${name}-${old}-`;
    const idTo = `-${name}-${index}-`;
    row.querySelectorAll("[data-path]").forEach((el) => {
      el.dataset.path = el.dataset.path.replace(from, to);
    });
    row.querySelectorAll("[id]").forEach((el) => {
      el.id = el.id.replace(idFrom, idTo);
    });
    row.querySelectorAll("label[for]").forEach((el) => {
      el.htmlFor = el.htmlFor.replace(idFrom, idTo);
    });
    row.querySelectorAll("[aria-controls]").forEach((el) => {
      el.setAttribute("aria-controls", el.getAttribute("aria-controls").split(idFrom).join(idTo));
    });
    row.querySelectorAll("[aria-describedby]").forEach((el) => {
      el.setAttribute("aria-describedby", el.getAttribute("aria-describedby").split(idFrom).join(idTo));
    });
  });
  const min = Number(list.dataset.min);
  const max = Number(list.dataset.max);
  list.querySelectorAll(":scope > .rw-rows > .rw-row > .rw-remove").forEach((button) => {
    button.disabled = rows.length <= min;
  });
  list.querySelector(":scope > .rw-add").disabled = rows.length >= max;
}

export function addRow(list, focus = true) {
  const template = list.querySelector(":scope > template");
  const rows = list.querySelector(":scope > .rw-rows");
  const index = rows.children.length;
  const html = template.innerHTML.split("__i__").join(String(index));
  rows.insertAdjacentHTML("beforeend", html);
  const row = rows.lastElementChild;
  row.querySelector(".rw-row-number").textContent = String(index + 1);
  const name = row.querySelector("input[data-type='text']");
  if (name && !name.value) name.value = `${list.dataset.label} ${index + 1}`;
  renumber(list);
  const first = row.querySelector("input, select");
  if (first && focus) first.focus();
}

export function removeRow(list, row) {
  const rows = list.querySelector(":scope > .rw-rows");
  const next = row.nextElementSibling || row.previousElementSibling;
  rows.removeChild(row);
  renumber(list);
  const focusTarget = next ? next.querySelector("input, select") : list.querySelector(".rw-add");
  if (focusTarget) focusTarget.focus();
}

export function clearErrors(helper) {
  helper.querySelectorAll(".rw-field-error").forEach((el) => {
    el.hidden = true;
    el.textContent = "";
  });
  helper.querySelectorAll("[aria-invalid]").forEach((el) => el.removeAttribute("aria-invalid"));
}

// options.host: where a message without a field goes instead of the result, which then stays
// as it is (an error of „Was wäre wenn“ keeps the roll on screen: helpers/odds.js)
export function showError(helper, error, options = {}) {
  const result = helper.querySelector(".rw-result");
  // [id]: a list's own box has the path too, but its message slot belongs to the labelled element
  let target = error.field ? helper.querySelector(`[data-path="${CSS.escape(error.field)}"][id]`) : null;
  if (target) {
    const slot = document.getElementById(`${target.id}-fehler`);
    if (slot) {
      slot.textContent = error.message;
      slot.hidden = false;
      target.setAttribute("aria-invalid", "true");
      const details = target.closest("details");
      if (details) details.open = true;
      target.focus();
      // a board (Tickleiste) stays visible
      if (!helper.dataset.widget && !options.host) result.replaceChildren();
      return;
    }
  }
  const box = el("p", "rw-error", error.message);
  box.setAttribute("role", "alert");
  (options.host || result).replaceChildren(box);
}

// The „?“ next to a label opens and closes that field's help (any helper, any page): one
// listener on the document for the whole visit (bundle.js).
export function listenForFieldHelp() {
  document.addEventListener("click", toggleFieldHelp);
}

function toggleFieldHelp(event) {
  const toggle = event.target.closest && event.target.closest(".rw-help-toggle");
  if (!toggle) return;
  const help = document.getElementById(toggle.getAttribute("aria-controls"));
  if (!help) return;
  help.hidden = !help.hidden;
  toggle.setAttribute("aria-expanded", String(!help.hidden));
}
