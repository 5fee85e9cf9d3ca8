// Test support (not a test file): a stand-in for the browser's localStorage, which store.js
// reads as `globalThis.localStorage` on every call – so each test installs its own.
//
// useStorage(entries, {refuse}) installs a FakeStorage holding `entries` (key → stored text);
// `refuse` is true (every write throws, as a full storage does: QuotaExceededError) or a
// function (key) → true for the keys whose writes throw. blockStorage() makes the getter
// throw (cookies blocked: SecurityError), noStorage() makes it null. fakeFile() is the part of
// a File that store.readFile uses (name, size, text()).

export class FakeStorage {
  constructor(entries = {}, { refuse = false } = {}) {
    this.items = new Map(Object.entries(entries));
    this.refuse = typeof refuse === "function" ? refuse : () => refuse;
  }

  getItem(key) {
    return this.items.has(key) ? this.items.get(key) : null;
  }

  setItem(key, value) {
    if (this.refuse(key)) throw new DOMException("Der Speicher ist voll", "QuotaExceededError");
    this.items.set(key, String(value));
  }

  removeItem(key) {
    this.items.delete(key);
  }

  // key → stored text, for assertions
  dump() {
    return Object.fromEntries(this.items);
  }
}

function install(descriptor) {
  Object.defineProperty(globalThis, "localStorage", { configurable: true, ...descriptor });
}

export function useStorage(entries = {}, options = {}) {
  const box = new FakeStorage(entries, options);
  install({ value: box, writable: true });
  return box;
}

export function blockStorage() {
  install({
    get() {
      throw new DOMException("Zugriff verweigert", "SecurityError");
    },
  });
}

export function noStorage() {
  install({ value: null, writable: true });
}

// A stored value as the browser code writes it (JSON text).
export function stored(value) {
  return JSON.stringify(value);
}

export function fakeFile(name, content, { size = content.length, unreadable = false } = {}) {
  return {
    name,
    size,
    read: 0, // how often text() was called
    async text() {
      this.read += 1;
      if (unreadable) throw new DOMException("nicht lesbar", "NotReadableError");
      return content;
    },
  };
}
