// Regelwerk – saved-page.js: the page „Meine Werte“ – every saved set, and their file.
//
// Owns: the list in .rw-werte-verwaltung (built by the plugin's ```meine-werte``` block, which
// names every helper in data-titles): sets grouped by system and helper, renamed or deleted
// in place (deleting offers „Rückgängig“); all sets saved to one file and loaded from one
// (checked; sets that would replace existing ones are named and replaced only when asked).

import { ask, askText, notice } from "./results.js";
import * as savedValues from "./saved.js";
import * as store from "../common/store.js";
import { el } from "../common/util.js";

const FILE_MAX_BYTES = 1000000;

function button(label, onClick, css = "") {
  const b = el("button", `md-button ${css}`.trim(), label);
  b.type = "button";
  b.addEventListener("click", onClick);
  return b;
}

function when(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : date.toLocaleString("de-DE", { dateStyle: "medium", timeStyle: "short" });
}

function render(root) {
  const titles = JSON.parse(root.dataset.titles || "{}");
  const list = root.querySelector(".rw-werte-list");
  const entries = savedValues.entries();
  if (!entries.length) {
    list.replaceChildren(el("p", "rw-help", "Noch keine Werte gespeichert. In jedem Würfelhelfer speichert „Werte speichern …“ die Eingaben unter einem Namen."));
    return;
  }
  const groups = new Map();
  for (const entry of [...entries].sort((a, b) => a.name.localeCompare(b.name, "de"))) {
    const group = `${entry.system}.${entry.action}`;
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group).push(entry);
  }
  const nodes = [];
  for (const [group, items] of [...groups].sort()) {
    const title = titles[group] || group;
    nodes.push(el("h3", "rw-werte-group", title));
    const ul = el("ul", "rw-werte-entries");
    for (const entry of items) {
      const li = el("li", "rw-werte-entry");
      li.append(el("span", "rw-werte-name", entry.name), el("span", "rw-werte-meta", ` ${Object.keys(entry.values).length} Felder, gespeichert ${when(entry.saved)} `));
      li.append(
        button("Umbenennen …", () => renameEntry(root, entry)),
        button("Löschen", () => deleteEntry(root, entry)),
      );
      ul.appendChild(li);
    }
    nodes.push(ul);
  }
  list.replaceChildren(...nodes);
}

function notices(root) {
  return root.querySelector(".rw-werte-notices");
}

async function renameEntry(root, entry) {
  const name = await askText(notices(root), `Neuer Name für „${entry.name}“:`, entry.name, "Umbenennen");
  if (name === null) return;
  const failure = savedValues.rename(entry.id, name);
  notice(notices(root), failure ? `Nicht umbenannt: ${failure}` : "Umbenannt.", failure ? "error" : "info");
}

function deleteEntry(root, entry) {
  const before = savedValues.entries();
  const failure = savedValues.remove(entry.id);
  if (failure) {
    notice(notices(root), `Nicht gelöscht: ${failure}`, "error");
    return;
  }
  notice(notices(root), `„${entry.name}“ gelöscht.`, "info", [
    { label: "Rückgängig", onClick: (box) => { savedValues.commit(before); box.remove(); } },
  ]);
}

async function importFile(root, file) {
  const host = notices(root);
  const { text, problem } = await store.readFile(file, FILE_MAX_BYTES);
  const parsed = problem ? { problem } : savedValues.importText(text, file.name);
  if (parsed.problem) {
    notice(host, `Laden nicht möglich: ${parsed.problem}`, "error");
    return;
  }
  if (parsed.clashes.length) {
    const names = parsed.clashes.slice(0, 5).map((e) => `„${e.name}“`).join(", ");
    const more = parsed.clashes.length > 5 ? ` und ${parsed.clashes.length - 5} weitere` : "";
    const ok = await ask(host, `${parsed.clashes.length} der ${parsed.incoming.length} Einträge gibt es schon (${names}${more}). Durch die aus der Datei ersetzen?`, "Ja, ersetzen");
    if (!ok) return;
  }
  const before = savedValues.entries();
  const failure = savedValues.commit(parsed.merged);
  if (failure) {
    notice(host, `Nicht gespeichert: ${failure}`, "error");
    return;
  }
  notice(host, `${parsed.incoming.length} Einträge aus „${file.name.slice(0, 40)}“ geladen.`, "info", [
    { label: "Rückgängig", onClick: (box) => { savedValues.commit(before); box.remove(); } },
  ]);
}

function setup(root) {
  if (root.dataset.rwReady) return;
  root.dataset.rwReady = "1";
  const id = `rw-werte-datei-${Math.random().toString(36).slice(2, 7)}`;
  const bar = el("div", "rw-werte-tools");
  const label = el("label", "md-button", "Aus Datei laden");
  label.htmlFor = id;
  const input = el("input", "rw-werte-import");
  input.type = "file";
  input.id = id;
  input.accept = "application/json,.json";
  input.addEventListener("change", () => {
    const file = input.files && input.files[0];
    input.value = "";
    if (file) importFile(root, file);
  });
  bar.append(button("Alle als Datei sichern", () => store.download("meine-werte.json", savedValues.fileText())), label, input);
  const live = el("div", "rw-werte-notices");
  live.setAttribute("aria-live", "polite");
  const heading = root.querySelector(":scope > h2");
  root.replaceChildren(...(heading ? [heading] : []), bar, live, el("div", "rw-werte-list"));
  render(root);
  savedValues.onChange(() => root.isConnected && render(root));
}

export function initSavedPage() {
  document.querySelectorAll(".rw-werte-verwaltung").forEach(setup);
}
