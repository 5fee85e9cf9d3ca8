// Regelwerk – share.js: „Link kopieren“ for every result with dice, and opening such a link.
//
// Owns the link format (in the address's #fragment, so it works online and from file:// and
// no server ever sees it):
//   #wurf=1/<engine>/<system>.<action>[@<helper id>]/<seed>/<field>=<value>;…
// <engine> is the start of the runtime key (a link from another version says so when
// opened); fields are those that differ from the form as the page built it, plus the page's
// presets; list rows as <list>.<row>.<field>; booleans as ja/nein; everything URL-encoded.
// Opening a link fills the helper's form, rolls with that seed – the same answer as
// `python -m engine <system> <action> … --seed <seed> --json` – and marks the result as a
// replayed roll. A malformed link gives a German message and an empty form, never an error.
//
// Where the link points (`pageAddress`): the page's own address online. In the offline export
// (file://) that would be a path on this computer – it opens nowhere else –, so the export
// links to the published site's page when its build knew it (<meta name="regelwerk-online">,
// site_plugins/offline/plugin.py), and otherwise the button copies the roll as text instead
// (`rollText`: the helper, the values, the dice, the result in words and the Wurfnummer) and
// says so („Wurf als Text kopieren“).

import { builtValuesOf, collect, fill, resetForm } from "./forms.js";
import { runtimeKey } from "../../../laufzeit/js/protocol.js";
import { openHelper } from "./open.js";
import { hasDice } from "./results.js";
import { el } from "../common/util.js";

const PREFIX = "#wurf=";
const FORMAT = "1";

class LinkError extends Error {}

// names no helper field has, and that would reach an object's prototype
const RESERVED = new Set(["__proto__", "constructor", "prototype"]);

function engineKey() {
  return runtimeKey().slice(0, 6);
}

function flatten(params) {
  const out = {};
  for (const [name, value] of Object.entries(params)) {
    if (Array.isArray(value)) {
      value.forEach((row, index) => {
        for (const [field, item] of Object.entries(row)) out[`${name}.${index}.${field}`] = item;
      });
      out[`${name}.#`] = value.length;
    } else out[name] = value;
  }
  return out;
}

function text(value) {
  if (value === true) return "ja";
  if (value === false) return "nein";
  return String(value);
}

// The fields a roll sends that differ from the form as the page built it, plus the page's
// presets (a list: all its rows once one of them changed) → [name, value as text] pairs.
function changedValues(helper, params) {
  const now = flatten(params);
  const base = flatten(builtValuesOf(helper));
  const presets = (helper.dataset.preset || "").split(",").filter(Boolean);
  const lists = new Set(Object.keys(now).filter((k) => k.endsWith(".#")).map((k) => k.slice(0, -2)));
  const changedList = (name) => Object.keys(now).some((k) => k.startsWith(`${name}.`) && text(now[k]) !== text(base[k]));
  const pairs = [];
  for (const [name, value] of Object.entries(now)) {
    const list = name.split(".")[0];
    if (name.endsWith(".#")) continue;
    const keep = lists.has(list) ? changedList(list) : text(value) !== text(base[name]) || presets.includes(name);
    if (keep) pairs.push([name, text(value)]);
  }
  return pairs;
}

// The address a link to a roll on this page starts with, or null if there is none another
// computer could open: the published page the offline export names, else the page's own
// address – unless that is a file on this computer.
export function pageAddress() {
  const published = document.querySelector('meta[name="regelwerk-online"]');
  if (published && published.content) return published.content;
  const address = String(location.href).split("#")[0];
  return address.startsWith("file:") ? null : address;
}

// `address`: where the link points (default: pageAddress(); a link needs one).
export function link(helper, params, seed, address = pageAddress()) {
  const pairs = changedValues(helper, params).map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  const defaultId = `helfer-${helper.dataset.system}-${helper.dataset.action}`;
  const target = `${helper.dataset.system}.${helper.dataset.action}${helper.id === defaultId ? "" : `@${helper.id}`}`;
  return `${address}${PREFIX}${FORMAT}/${engineKey()}/${target}/${seed}/${pairs.join(";")}`;
}

// A field's label as the form shows it (without the soft hyphens of forms.py), or its name.
function fieldLabel(helper, input, name) {
  const label = input && input.id ? helper.querySelector(`label[for="${CSS.escape(input.id)}"]`) : null;
  const row = /^[a-z_0-9]+\.([0-9]+)\./.exec(name);
  const words = label ? label.textContent.replace(/\u00ad/g, "").trim() : name;
  return row ? `${words} (Zeile ${Number(row[1]) + 1})` : words;
}

// A value as the form shows it: a choice by its text, a checkbox as ja/nein.
function shownValue(input, value) {
  if (input && input.tagName === "SELECT") {
    const option = [...input.options].find((o) => o.value === value);
    if (option) return option.textContent.trim();
  }
  return value;
}

function rollLine(item) {
  const dice = (item.dice || []).map((die) => (die.kept ? String(die.value) : `(${die.value})`));
  const modifiers = (item.modifiers || []).map((m) => ` ${m.label} ${m.value}`).join("");
  const decision = item.decision ? ` ${item.decision}` : "";
  return `${item.label}: ${item.notation} [${dice.join(", ")}]${modifiers} = ${item.total}${decision}`;
}

// The roll as text to paste where a link cannot go: what was rolled (the helper and the page),
// with which values, the dice, the result in words and the Wurfnummer that repeats it.
export function rollText(helper, params, seed, display) {
  const title = helper.querySelector(".rw-title");
  const name = title ? title.textContent.replace("Würfelhelfer: ", "").trim() : `${helper.dataset.system}.${helper.dataset.action}`;
  const heading = document.querySelector("article h1");
  const page = heading ? heading.textContent.trim() : "";
  const values = changedValues(helper, params).map(([path, value]) => {
    const input = helper.querySelector(`[data-path="${CSS.escape(path)}"]`);
    return `${fieldLabel(helper, input, path)}: ${shownValue(input, value)}`;
  });
  const rolls = (display.sections || []).filter((section) => section.kind === "rolls").flatMap((section) => section.items.map(rollLine));
  return [
    `${name}${page ? ` (${page})` : ""}`,
    `Werte: ${values.length ? values.join("; ") : "die üblichen des Helfers"}`,
    ...rolls,
    `Ergebnis: ${[display.headline, display.outcome].filter(Boolean).join(" – ")}`,
    `Wurfnummer ${seed} (mit denselben Werten und dieser Wurfnummer ergibt der Helfer denselben Wurf)`,
  ].join("\n");
}

// → {system, action, id, seed, values, engine}; throws LinkError with a German reason.
export function parse(fragment) {
  const parts = fragment.slice(PREFIX.length).split("/");
  if (parts.length !== 5) throw new LinkError("er hat nicht die erwartete Form");
  const [format, engine, target, seed, body] = parts;
  if (format !== FORMAT) throw new LinkError(`unbekanntes Linkformat „${format.slice(0, 10)}“`);
  const match = /^([a-z]+)\.([a-z_]+)(?:@([A-Za-z0-9_-]+))?$/.exec(target);
  if (!match) throw new LinkError("der Helfer fehlt oder ist unlesbar");
  if (!/^[0-9]{1,16}$/.test(seed)) throw new LinkError("die Wurfnummer fehlt oder ist keine Zahl");
  // prototype-free: names from the link never reach Object.prototype
  const values = Object.create(null);
  for (const pair of body ? body.split(";") : []) {
    const at = pair.indexOf("=");
    if (at < 1) throw new LinkError("ein Feld ist unlesbar");
    let name;
    let value;
    try {
      name = decodeURIComponent(pair.slice(0, at));
      value = decodeURIComponent(pair.slice(at + 1));
    } catch (error) {
      throw new LinkError("ein Feld ist falsch kodiert");
    }
    const row = /^([a-z_][a-z_0-9]*)\.([0-9]{1,2})\.([a-z_0-9]+)$/.exec(name);
    if ((row ? [row[1], row[3]] : [name]).some((part) => RESERVED.has(part))) {
      throw new LinkError(`unbekanntes Feld „${name.slice(0, 40)}“`);
    }
    if (row) {
      const list = (values[row[1]] = values[row[1]] || []);
      if (!Array.isArray(list)) throw new LinkError(`das Feld „${row[1]}“ steht doppelt darin`);
      list[Number(row[2])] = { ...(list[Number(row[2])] || {}), [row[3]]: value };
    } else if (/^[a-z_0-9]+$/.test(name)) {
      if (name in values) throw new LinkError(`das Feld „${name.slice(0, 40)}“ steht doppelt darin`);
      values[name] = value;
    } else throw new LinkError(`unbekanntes Feld „${name.slice(0, 40)}“`);
  }
  for (const value of Object.values(values)) {
    // (Array.from: `some` would skip the holes a missing row leaves)
    if (Array.isArray(value) && Array.from(value).some((row) => row === undefined)) throw new LinkError("eine Zeile einer Liste fehlt");
  }
  return { system: match[1], action: match[2], id: match[3] || "", seed, values, engine };
}

// „Link kopieren“ under a result – not under one without dice (display: the result's; a link
// would only repeat what the form already says). Where no link can go (the offline export
// without a published site): „Wurf als Text kopieren“.
export function addButton(helper, params, seed, display) {
  if (!hasDice(display)) return;
  const address = pageAddress();
  const bar = el("div", "rw-share");
  const button = el("button", "md-button rw-share-copy", address ? "Link kopieren" : "Wurf als Text kopieren");
  button.type = "button";
  button.dataset.copies = address ? "link" : "text";
  const status = el("span", "rw-share-status");
  status.setAttribute("aria-live", "polite");
  button.addEventListener("click", async () => {
    const copy = address ? link(helper, params, seed, address) : rollText(helper, params, seed, display);
    let copied = false;
    try {
      await navigator.clipboard.writeText(copy);
      copied = true;
    } catch (error) {
      copied = false;
    }
    let field;
    if (address) {
      field = el("input", "rw-share-link");
      field.type = "text";
      field.setAttribute("aria-label", "Link zu diesem Wurf");
    } else {
      field = el("textarea", "rw-share-link rw-share-text");
      field.rows = Math.min(8, copy.split("\n").length);
      field.setAttribute("aria-label", "Dieser Wurf als Text");
    }
    field.readOnly = true;
    field.value = copy;
    const done = address
      ? (location.href.startsWith("file:") ? "Kopiert – der Link führt zur veröffentlichten Seite; wer ihn öffnet, sieht genau diesen Wurf. " : "Kopiert – wer den Link öffnet, sieht genau diesen Wurf. ")
      : "Kopiert – der Wurf als Text (diese Seite liegt nur auf diesem Gerät, ein Link darauf öffnet sich anderswo nicht). ";
    status.replaceChildren(el("span", "", copied ? done : address ? "Bitte den Link kopieren: " : "Bitte den Text kopieren: "), field);
    if (!copied) field.select();
  });
  bar.append(button, status);
  helper.querySelector(".rw-result").appendChild(bar);
}

function showProblem(helper, message) {
  const host = helper ? helper.querySelector(".rw-result") : document.querySelector("article") || document.body;
  const box = el("p", "rw-error rw-share-problem", `Der geteilte Wurf lässt sich nicht öffnen: ${message}. Das Formular zeigt die üblichen Werte.`);
  box.setAttribute("role", "alert");
  if (helper) host.replaceChildren(box);
  else host.prepend(box);
}

export function isLink(hash) {
  return hash.startsWith(PREFIX);
}

// A page opened with #wurf=… (`hash`: the address's fragment, or the one a hashchange brought,
// see page.js): fill, roll with that seed, mark as replayed.
// → {shared, problem}: the checked link, or a German reason why it cannot be opened; never
// throws, whatever the address holds.
export function readLink(fragment) {
  try {
    return { shared: parse(String(fragment)), problem: "" };
  } catch (error) {
    return { shared: null, problem: error instanceof LinkError ? error.message : "er ist beschädigt" };
  }
}

// → the helper it opened (null if none)
export function openFromAddress(submit, hash) {
  if (!isLink(hash)) return null;
  const { shared, problem } = readLink(hash);
  if (problem) {
    const first = document.querySelector(".rw-helper:not([data-widget])");
    if (first) resetForm(first);
    showProblem(first, problem);
    return null;
  }
  const helpers = [...document.querySelectorAll(`.rw-helper[data-system="${CSS.escape(shared.system)}"][data-action="${CSS.escape(shared.action)}"]:not([data-widget])`)];
  const helper = helpers.find((h) => h.id === shared.id) || helpers[0];
  if (!helper) {
    showProblem(null, `auf dieser Seite gibt es den Helfer „${shared.system}.${shared.action}“ nicht`);
    return null;
  }
  resetForm(helper);
  const unknown = fill(helper, shared.values);
  const notes = [`Geteilter Wurf: mit Wurfnummer ${shared.seed} nachgewürfelt.`];
  if (shared.engine && shared.engine !== engineKey()) notes.push("Der Link stammt von einer anderen Version des Regelwerks; das Ergebnis kann vom geteilten abweichen.");
  if (unknown.length) notes.push(`Nicht übernommen (diese Felder gibt es hier nicht): ${unknown.join(", ")}.`);
  openHelper(helper); // in its tab
  submit(helper, { system: shared.system, action: shared.action, params: collect(helper), seed: shared.seed }, { shared: true, note: notes.join(" ") });
  return helper;
}
