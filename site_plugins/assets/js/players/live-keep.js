// Regelwerk – players/live-keep.js: what a phone keeps to reconnect to the game master by
// itself (live-phone.js).
//
// Owns:
// - the phone's DTLS certificate (an RTCCertificate, ECDSA P-256), kept in IndexedDB
//   (database „regelwerk-live“, store „zertifikat“): the same fingerprint in every answer, so
//   the game master's page can apply the phone's known answer to a spare offer in advance
//   (live-gm.js). Where IndexedDB or the certificate is not to be had (a private window, an
//   old browser), a fresh one per connection: live works, only reconnecting needs a new code;
// - per tab (sessionStorage „regelwerk:spieler-verbindung“, a reload keeps it, another tab has
//   its own): the first offer's ice-ufrag, the ice-ufrag and ice-pwd of the first answer, and the
//   spare offer the game master sent last. Only connection data, nothing of the fight.

const DB = "regelwerk-live";
const STORE = "zertifikat";
const KEY = "handy";
const SESSION = "regelwerk:spieler-verbindung";
const DAY_MS = 24 * 60 * 60 * 1000;

function request(r) {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

function openDb() {
  return new Promise((resolve, reject) => {
    const r = indexedDB.open(DB, 1);
    r.onupgradeneeded = () => r.result.createObjectStore(STORE);
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
    r.onblocked = () => reject(new Error("blockiert"));
  });
}

async function stored() {
  const db = await openDb();
  try {
    return await request(db.transaction(STORE).objectStore(STORE).get(KEY));
  } finally {
    db.close();
  }
}

async function keep(certificate) {
  const db = await openDb();
  try {
    const tx = db.transaction(STORE, "readwrite");
    tx.objectStore(STORE).put(certificate, KEY);
    await new Promise((resolve, reject) => {
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

function withTimeout(promise, ms) {
  return Promise.race([promise, new Promise((resolve, reject) => setTimeout(() => reject(new Error("Zeit")), ms))]);
}

// → {certificate, kept}: the phone's certificate (kept: the same one as before and after).
export async function certificate() {
  if (typeof RTCPeerConnection !== "function" || typeof RTCPeerConnection.generateCertificate !== "function") {
    return { certificate: null, kept: false };
  }
  try {
    const old = await withTimeout(stored(), 2000);
    if (old && typeof old.expires === "number" && old.expires > Date.now() + DAY_MS) return { certificate: old, kept: true };
  } catch (error) {
    // no IndexedDB here: a fresh certificate below
  }
  let made;
  try {
    made = await RTCPeerConnection.generateCertificate({ name: "ECDSA", namedCurve: "P-256" });
  } catch (error) {
    return { certificate: null, kept: false };
  }
  try {
    await withTimeout(keep(made), 2000);
    return { certificate: made, kept: true };
  } catch (error) {
    return { certificate: made, kept: false };
  }
}

const ICE = /^[A-Za-z0-9+/]{4,64}$/;

// → {first, ufrag, pwd, spare} of this tab, or null.
export function session() {
  try {
    const value = JSON.parse(sessionStorage.getItem(SESSION) || "null");
    if (!value || typeof value !== "object") return null;
    const { first, ufrag, pwd, spare } = value;
    if (!ICE.test(first) || !ICE.test(ufrag) || !ICE.test(pwd)) return null;
    return { first, ufrag, pwd, spare: typeof spare === "string" ? spare : null };
  } catch (error) {
    return null;
  }
}

export function remember(record) {
  try {
    sessionStorage.setItem(SESSION, JSON.stringify(record));
  } catch (error) {
    // no sessionStorage: reconnecting needs a new code
  }
}

export function forget() {
  try {
    sessionStorage.removeItem(SESSION);
  } catch (error) {
    // nothing kept
  }
}
