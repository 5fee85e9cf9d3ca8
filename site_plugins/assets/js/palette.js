// Regelwerk – palette.js: the header's switch between the light and the dark colour scheme.
// The switch is Material's markup (overrides/partials/palette.html, Material's partial with
// data-rw-palette in place of data-md-component="palette"); this module does for a reader what
// Material's palette component does – the switch shows the other scheme, a change is applied to
// <body> and kept in Material's "__palette" entry (so Material's inline script in <head> sets it
// on every later page before anything is drawn), Enter on the switch turns it, a palette that
// follows the system („(prefers-color-scheme)“) follows it – with one difference: on a page load
// it touches only what differs. Material's component marks the body „switching“, sets the scheme
// the inline script has just set and reads the header's computed colour, on every load: two
// full style recalculations of the page inside the bundle's evaluation (at 4× CPU, longest of
// 3 loads: 1,629 → 872 ms on the Kampfhelfer page, 556 → 478 ms on a text page;
// scripts/benchmark_lighthouse.py --lange-aufgaben).

import { whenIdle } from "./common/util.js";

const KEYS = ["media", "scheme", "primary", "accent"];
const SYSTEM = "(prefers-color-scheme)";
const LIGHT = "(prefers-color-scheme: light)";
const DARK = "(prefers-color-scheme: dark)";
const STORE_KEY = "__palette";

/** The colours one switch input stands for (its data-md-color-* attributes). */
export function colorOf(input) {
  const color = {};
  for (const key of KEYS) color[key] = input.getAttribute(`data-md-color-${key}`);
  return color;
}

/**
 * The colours a palette choice applies: a choice that follows the system takes the scheme of
 * the input made for the system's current preference (Material's rule; its media stays
 * „(prefers-color-scheme)“, so a later change of the system is followed too). The system is
 * asked only then (prefersLight: a function).
 */
export function resolvedColor(color, inputs, prefersLight) {
  if (color.media !== SYSTEM) return color;
  const wanted = prefersLight() ? LIGHT : DARK;
  const input = inputs.find((candidate) => candidate.getAttribute("data-md-color-media") === wanted);
  return input ? { ...colorOf(input), media: SYSTEM } : color;
}

/**
 * Which switch input is chosen: the stored choice (kept within the inputs there are), else the
 * first whose media query matches (an input without one matches), else the first.
 */
export function chosenIndex(stored, inputs, matches) {
  const count = inputs.length;
  if (stored && Number.isInteger(stored.index)) return Math.max(0, Math.min(stored.index, count - 1));
  return Math.max(0, inputs.findIndex((input) => matches(input.getAttribute("data-md-color-media") || "")));
}

function readStored() {
  try {
    const stored = window.__md_get?.(STORE_KEY);
    return stored && typeof stored === "object" ? stored : null;
  } catch {
    return null; // storage blocked or damaged: the page's own scheme stays
  }
}

function keep(palette) {
  try {
    window.__md_set?.(STORE_KEY, palette);
  } catch {
    // a full or blocked storage: the choice holds for this page
  }
}

function setIfChanged(element, name, value) {
  if (value === null || value === undefined) return;
  if (element.getAttribute(name) !== value) element.setAttribute(name, value);
}

function meta(name) {
  let tag = document.head.querySelector(`meta[name="${name}"]`);
  if (!tag) {
    tag = document.createElement("meta");
    tag.name = name;
    document.head.append(tag);
  }
  return tag;
}

function hex(rgb) {
  const parts = rgb.match(/\d+/g);
  if (!parts || parts.length < 3) return null;
  return `#${parts.slice(0, 3).map((part) => Number(part).toString(16).padStart(2, "0")).join("")}`;
}

// The browser's own parts (scrollbars, a phone's address bar) take the scheme's colours from the
// header, as Material's component sets them: read from the header's style when a reader
// switches (the page is restyled then anyway) and kept per scheme, so a later page load sets
// them from storage instead of forcing the page's style to read them (Material's component
// read them on every load: 250–320 ms at 4× CPU when done at idle on a helper page, measured
// with scripts/benchmark_lighthouse.py --lange-aufgaben). A page in the site's first scheme
// needs none: its head carries that theme colour, and „normal“ is the default.
const COLOURS_KEY = "__palette_colours";

function readColours() {
  try {
    const kept = window.__md_get?.(COLOURS_KEY);
    return kept && typeof kept === "object" ? kept : {};
  } catch {
    return {};
  }
}

function setBrowserColours(colours) {
  if (typeof colours?.colorScheme === "string") meta("color-scheme").content = colours.colorScheme;
  if (typeof colours?.themeColor === "string") meta("theme-color").content = colours.themeColor;
}

// the header's colours follow the scheme and the primary colour
function coloursKey(color) {
  return `${color.scheme} ${color.primary}`;
}

function readBrowserColours(key) {
  const header = document.querySelector("[data-md-component='header']");
  if (!header) return;
  const style = getComputedStyle(header);
  const colours = { colorScheme: style.colorScheme, themeColor: hex(style.backgroundColor) };
  setBrowserColours(colours);
  try {
    window.__md_set?.(COLOURS_KEY, { ...readColours(), [key]: colours });
  } catch {
    // not kept: the next page reads them again
  }
}

/** Wires the switch of the page's header (once; the header stays across instant navigation). */
export function startPalette() {
  const form = document.querySelector("form[data-rw-palette]");
  if (!form || form.dataset.rwPalette === "on") return;
  form.dataset.rwPalette = "on";
  const inputs = [...form.querySelectorAll("input[name='__palette']")];
  if (!inputs.length) return;
  const prefersLight = matchMedia(LIGHT);
  let stored = readStored(); // the choice as kept: written only when a choice differs from it
  let index = chosenIndex(stored, inputs, (query) => matchMedia(query).matches);

  const apply = (chosen, { switching }) => {
    index = chosen;
    const color = resolvedColor(colorOf(inputs[chosen]), inputs, () => prefersLight.matches);
    const body = document.body;
    // the colours change at once, not through every transition of the page (Material's mark)
    if (switching) body.setAttribute("data-md-color-switching", "");
    for (const key of KEYS) setIfChanged(body, `data-md-color-${key}`, color[key]);
    inputs.forEach((input, at) => {
      if (at === chosen && !input.checked) input.checked = true;
      const label = input.nextElementSibling;
      if (label instanceof HTMLElement && label.hidden !== (at !== chosen)) label.hidden = at !== chosen;
    });
    const palette = { index: chosen, color };
    if (!stored || JSON.stringify(stored) !== JSON.stringify(palette)) {
      keep(palette);
      stored = palette;
    }
    const key = coloursKey(color);
    if (switching) {
      readBrowserColours(key); // reads the new style while transitions are off
      setTimeout(() => body.removeAttribute("data-md-color-switching"));
    } else if (key !== coloursKey(colorOf(inputs[0]))) {
      const kept = readColours()[key];
      if (kept) setBrowserColours(kept);
      else whenIdle(5000, 500).then(() => readBrowserColours(key));
    }
  };

  apply(index, { switching: false });
  form.addEventListener("change", (event) => {
    const chosen = inputs.indexOf(event.target);
    if (chosen >= 0) apply(chosen, { switching: true });
  });
  // Enter on the focused switch turns it to the next scheme, as in Material (the arrow keys do
  // by the radio group's nature)
  form.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    const next = inputs[(index + 1) % inputs.length];
    next.click();
    next.focus();
  });
  prefersLight.addEventListener("change", () => {
    if (inputs[index].getAttribute("data-md-color-media") === SYSTEM) apply(index, { switching: true });
  });
}
