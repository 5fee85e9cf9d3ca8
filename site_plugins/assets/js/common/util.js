// Regelwerk – util.js: small helpers every part of the browser code uses.
//
// Owns: el() (an element with a class and text – user text only ever as textContent),
// isObject() (a plain record, not null, not an array: what stored and imported JSON is checked
// against), ownValue() (a map's own entry only: outside text – a fighter's name, a field from a
// link – never reaches Object.prototype), germanNumber() (numbers as German readers write
// them: „1.000“, „62,5“), renameValues() (values under a field's former name read as the field).

export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// The value and everything in it made read-only (a store hands out what no view may change).
export function deepFreeze(value) {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

export function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

// map[key] if the map itself has it: a fighter called „constructor“ or „__proto__“ is just a
// name, not Object.prototype's function or the prototype itself.
export function ownValue(map, key) {
  return Object.hasOwn(map, key) ? map[key] : undefined;
}

// Outside data quoted in a message: cut short, and never a throw (String() of a record whose
// „toString“ is no function throws; such a value is quoted as JSON).
export function quoted(value, max = 10) {
  let text;
  try {
    text = value !== null && typeof value === "object" ? JSON.stringify(value) : String(value);
  } catch (error) {
    text = "?";
  }
  return String(text).slice(0, max);
}

// „hat die Version 7“ – or, where a file or a stored value names none, „gibt keine Version an“
export function versionText(version) {
  if (version === undefined || version === null) return "gibt keine Version an";
  return `hat die Version ${quoted(version)}`;
}

// options: Intl.NumberFormat's (e.g. {maximumFractionDigits: 1}). A whole number without
// options is written here („-1.234“, as de-DE writes it): a page's first Intl formatter loads
// the locale's data, 40 ms on a laptop and over 100 ms on a 4× slowed phone (issue #46), and
// the Kampfhelfer's first draw needs nothing but whole numbers. Everything else: one Intl
// formatter per set of options, kept.
const formatters = new Map();

export function germanNumber(value, options = {}) {
  const number = Number(value);
  if (Number.isSafeInteger(number) && Object.keys(options).length === 0) {
    const digits = String(Math.abs(number)).replace(/\B(?=(\d{3})+$)/g, ".");
    return number < 0 ? `-${digits}` : digits;
  }
  const key = JSON.stringify(options);
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.NumberFormat("de-DE", options);
    formatters.set(key, format);
  }
  return format.format(number);
}

// `values` (a helper's params, a fighter's values) with every key that is a former name of a
// field (`formerly`: {old: new}, the engine's `formerly` as the page has it – forms.js
// formerNames) under the field's name now, in list rows too; a value under the new name wins
// over one under the old. A copy; anything that is not a record is returned as it is.
export function renameValues(values, formerly) {
  if (!isObject(values) || !isObject(formerly)) return values;
  const out = {};
  const put = (key, value) => Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  const renamedRows = (value) => (Array.isArray(value) ? value.map((row) => renameValues(row, formerly)) : value);
  for (const [key, value] of Object.entries(values)) {
    if (!Object.hasOwn(formerly, key)) put(key, renamedRows(value));
  }
  for (const [key, value] of Object.entries(values)) {
    if (Object.hasOwn(formerly, key) && !Object.hasOwn(out, formerly[key])) put(formerly[key], renamedRows(value));
  }
  return out;
}

// Work that can wait runs when the page is idle (no long task of ours while the page loads, or
// a reader scrolls or types): requestIdleCallback, at the latest after timeoutMs; without it
// (Safari) after fallbackMs. Used by pwa.js and palette.js.
export function whenIdle(timeoutMs = 2000, fallbackMs = 200) {
  return new Promise((resolve) => {
    if (typeof window.requestIdleCallback === "function") {
      window.requestIdleCallback(() => resolve(), { timeout: timeoutMs });
    } else {
      setTimeout(resolve, fallbackMs);
    }
  });
}
