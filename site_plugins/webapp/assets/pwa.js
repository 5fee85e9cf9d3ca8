// Regelwerk web app – pwa.js: the page side of the service worker (online site only).
// An ES module using workbox-window; site_plugins/webapp/assets/build.mjs bundles it (rollup, IIFE,
// from node_modules – nothing from a CDN) into the site as assets/pwa/pwa.js, a classic
// script loaded with `defer` from <head> (see site_plugins/webapp/pwa.py).
//
// Owns: registering sw.js (site root, only on http(s) pages), after the page has loaded and
// its engine has started, and then only when the page is idle (requestIdleCallback, in slices:
// registering, update checks, the status, what to store), so the first visit does not compete
// with itself and nothing of ours blocks the page for long; asking the worker
// to store the other pages in the background – not while the browser saves data
// (navigator.connection.saveData), unless the reader presses „Trotzdem offline speichern“ –
// and the engine's runtime once a page with helpers is open (it has just loaded the same
// files, so the worker gets them back from the HTTP cache; a player who only opens the
// player view never downloads them; „Trotzdem offline speichern“ stores them too);
// and showing what is stored: a line in the footer („Offline bereit · 24,6 MB gespeichert“)
// and a small dismissible notice (aria-live polite) when something changes – it lies in
// Material's header over the page's title, so it moves nothing and covers no control; the
// update:
// a new deployment's worker waits (workbox-window's "waiting" event) until the reader presses
// „Neue Version – neu laden“; then workbox-window sends it {type: "SKIP_WAITING"}, it takes
// over, and every open page of the site reloads ("controlling"), so a page never runs next
// to the engine of another version.
// Exposes: window.RegelwerkOffline.status (the worker's last status; for tests/benchmarks).
// its ES modules, like sw.js takes Workbox's: the package's "module" entry is an ES5 build
// (the bundle 10.3 KB instead of 8.9 KB)
import { Workbox, messageSW } from "workbox-window/index.mjs";

// work that can wait: when the page is idle, at the latest after 2 s (common/util.js)
import { whenIdle } from "../../assets/js/common/util.js";

const TRUST_KEY = "regelwerk-offline-trotzdem"; // localStorage: the reader said „trotzdem“
const SAVE_DATA_SHOWN = "regelwerk-offline-datensparen"; // sessionStorage: notice shown
const UPDATE_EVERY_MS = 60 * 60 * 1000;
const ENGINE_WAIT_MS = 20000;
const READY_NOTICE_MS = 12000;
// The bundle runs as a classic script, so document.currentScript is this file.
const script = document.currentScript;
if (script && "serviceWorker" in navigator && /^https?:$/.test(location.protocol)) {
  webApp(new URL("../../", script.src)); // assets/pwa/pwa.js → the site root
} else if (script && location.protocol === "http:" && !window.isSecureContext) {
  noOfflineHere(); // a LAN address (http://192.168…): no service worker – the footer says so
}

// Browsers keep pages for offline use only from https:// or this computer: opened at a
// network address over http (a laptop serving the site to the table's phones), the footer says
// that nothing is stored and what works instead – on every page (instant navigation replaces
// the footer).
function noOfflineHere() {
  const address = location.host.slice(0, 60);
  const draw = () => {
    const inner = document.querySelector(".md-footer-meta__inner");
    if (!inner || inner.querySelector(".rw-pwa-status")) return;
    const line = document.createElement("div");
    line.className = "rw-pwa-status md-copyright";
    line.textContent =
      `Offline nicht möglich unter http://${address}: Browser speichern Seiten nur von https:// ` +
      "oder diesem Rechner. Für den Tisch ohne Netz: die veröffentlichte Seite einmal öffnen " +
      "oder die Offline-Version nehmen.";
    inner.appendChild(line);
  };
  draw();
  if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(draw);
}

function webApp(root) {
  const api = (window.RegelwerkOffline = { status: null });
  const view = {
    registering: false,
    notice: null,
    wasIncomplete: false,
    textsMissing: false,
    runtimeAsked: false, // this page asked the worker to store the runtime
  };
  const wb = new Workbox(new URL("sw.js", root).href, {
    scope: root.pathname,
    updateViaCache: "none",
  });

  // ------------------------------------------------------------------ display

  // „24,6 MB“ by hand, not with Intl: the page's first German number format loads the
  // locale's data – measured 170 ms of main thread at 4× CPU (a Lighthouse phone), the one
  // long task of ours on a text page
  function megabytes(bytes) {
    const [whole, tenth] = (bytes / 1e6).toFixed(1).split(".");
    return `${whole.replace(/\B(?=(\d{3})+$)/g, ".")},${tenth} MB`;
  }

  function saveData() {
    return Boolean(navigator.connection && navigator.connection.saveData);
  }

  function trusted() {
    try {
      return localStorage.getItem(TRUST_KEY) === "1";
    } catch (error) {
      return false;
    }
  }

  // The data saver notice comes once per visit (the footer keeps the button).
  function shownThisVisit() {
    try {
      const shown = sessionStorage.getItem(SAVE_DATA_SHOWN) === "1";
      sessionStorage.setItem(SAVE_DATA_SHOWN, "1");
      return shown;
    } catch (error) {
      return false;
    }
  }

  function button(text, onClick, extraClass = "") {
    const node = document.createElement("button");
    node.type = "button";
    node.className = `rw-pwa-button ${extraClass}`.trim();
    node.textContent = text;
    node.addEventListener("click", onClick);
    return node;
  }

  // The notice lies over the title in Material's header (the site's and the page's name):
  // it moves nothing on the page – in the page's flow it pushed everything down a second
  // after the first visit (issue #46: layout shift 0.15) – and covers no control (lying
  // over the window's bottom it covered „Würfeln“; issue 26, point 7). Where the header is
  // narrow (a phone) it says its short text; the long one where there is room. Put back
  // into the header of every page instant navigation brings.
  const toast = document.createElement("div");
  toast.className = "rw-pwa-toast";
  toast.setAttribute("role", "status");
  toast.setAttribute("aria-live", "polite");
  toast.hidden = true;
  placeToast();
  let toastTimer = null;

  function placeToast() {
    const title = document.querySelector(".md-header__title");
    if (title) {
      if (toast.parentElement !== title) title.append(toast);
    } else if (!toast.isConnected) {
      document.body.appendChild(toast);
    }
  }

  // kind: "update" | "ready" | "savedata"; an update notice is never replaced by another.
  // ``short``: what fits a phone's header beside the buttons (the long text where it fits).
  function notify(kind, text, short, action) {
    if (view.notice === "update" && kind !== "update") return;
    clearTimeout(toastTimer);
    view.notice = kind;
    toast.dataset.kind = kind;
    const message = document.createElement("span");
    message.className = "rw-pwa-text";
    const long = document.createElement("span");
    long.className = "rw-pwa-long";
    long.textContent = text;
    const brief = document.createElement("span");
    brief.className = "rw-pwa-short";
    brief.textContent = short;
    message.append(long, brief);
    message.title = text;
    const close = button("×", dismiss, "rw-pwa-close");
    close.setAttribute("aria-label", "Hinweis schließen");
    close.title = "Hinweis schließen";
    toast.replaceChildren(message, ...(action ? [action] : []), close);
    toast.hidden = false;
    if (kind === "ready") toastTimer = setTimeout(dismiss, READY_NOTICE_MS);
  }

  function dismiss() {
    clearTimeout(toastTimer);
    view.notice = null;
    toast.hidden = true;
    toast.replaceChildren();
  }

  // The runtime's list (a worker of an earlier deployment kept it in its core: none).
  function runtimeOf(status) {
    return status.runtime || { files: 0, cached: 0, bytes: 0, cachedBytes: 0 };
  }

  // What is stored, and what is meant to be: the runtime counts once it is wanted (a page
  // with helpers asked for it, or the reader stores everything) or partly there.
  function amounts(status) {
    const runtime = runtimeOf(status);
    const wanted = view.runtimeAsked || runtime.cached > 0;
    return {
      stored: status.core.cachedBytes + status.pages.cachedBytes + runtime.cachedBytes,
      total: status.core.bytes + status.pages.bytes + (wanted ? runtime.bytes : 0),
    };
  }

  function statusText(status) {
    if (!status) return view.registering ? "Offline-Speicher wird vorbereitet …" : "";
    const { stored, total } = amounts(status);
    if (status.complete) return `Offline bereit · ${megabytes(stored)} gespeichert`;
    if (status.filling) return `Offline-Speicher: ${megabytes(stored)} von ${megabytes(total)} …`;
    if (status.texts) {
      return `Offline bereit ohne Würfelhelfer · ${megabytes(stored)} gespeichert`;
    }
    if (saveData() && !trusted()) {
      return `Offline gespeichert: ${megabytes(stored)} von ${megabytes(total)} (Datensparmodus)`;
    }
    return `Offline gespeichert: ${megabytes(stored)} von ${megabytes(total)}`;
  }

  // The footer belongs to the page: instant navigation replaces it, so this runs again for
  // every page (Material's document$) and after every status change.
  function renderFooter() {
    const inner = document.querySelector(".md-footer-meta__inner");
    if (!inner) return;
    let line = inner.querySelector(".rw-pwa-status");
    const text = statusText(api.status);
    if (!text) {
      if (line) line.remove();
      return;
    }
    if (!line) {
      line = document.createElement("div");
      line.className = "rw-pwa-status md-copyright";
      inner.appendChild(line);
    }
    const parts = [document.createTextNode(text)];
    const status = api.status;
    if (status && !status.complete && !status.filling && saveData() && !trusted()) {
      parts.push(button("Trotzdem offline speichern", storeAnyway));
    }
    line.replaceChildren(...parts);
  }

  // ------------------------------------------------------------------ the stored files

  // The status and the filling are asked of the active worker, the one that serves this
  // page (not of a new version's worker that installs or waits).
  // what: {pages, runtime} (see sw.js)
  function fill(worker, what) {
    if (what.runtime) view.runtimeAsked = true;
    worker.postMessage({ type: "fill", ...what });
  }

  function storeAnyway() {
    try {
      localStorage.setItem(TRUST_KEY, "1");
    } catch (error) {
      // private mode: it applies to this visit only
    }
    if (view.notice === "savedata") dismiss();
    navigator.serviceWorker.ready.then((registration) =>
      fill(registration.active, { pages: true, runtime: true }),
    );
  }

  // A page whose helpers boot the engine (engine-client.js), e.g. after instant navigation.
  function hasHelpers() {
    return Boolean(document.querySelector(".rw-helper, .rw-dice"));
  }

  function runtimeMissing(status) {
    const runtime = runtimeOf(status);
    return runtime.cached < runtime.files;
  }

  function show(status) {
    const before = api.status;
    api.status = status;
    if (!status.complete) view.wasIncomplete = true;
    if (!status.texts) view.textsMissing = true;
    const { stored } = amounts(status);
    if (status.complete && view.wasIncomplete && !(before && before.complete)) {
      notify(
        "ready",
        "Offline bereit: Das Regelwerk funktioniert jetzt auch ohne Netz " +
          `(${megabytes(stored)} gespeichert).`,
        "Offline bereit",
      );
    } else if (
      status.texts &&
      !status.complete &&
      !status.filling &&
      view.textsMissing &&
      !(before && before.texts)
    ) {
      notify(
        "ready",
        "Offline bereit: Regeltext, Suche und Spielersicht funktionieren jetzt auch ohne Netz " +
          `(${megabytes(stored)} gespeichert). Die Würfelhelfer kommen dazu, sobald du eine ` +
          "Seite mit Helfern öffnest.",
        "Offline bereit (ohne Helfer)",
      );
    }
    if (status.error) console.warn("[regelwerk] Offline-Speicher:", status.error);
    renderFooter();
  }

  // A page with helpers asks for the runtime once its engine has loaded it (also after
  // instant navigation from a page without helpers; also while the browser saves data:
  // the files come from the HTTP cache).
  async function storeRuntime() {
    if (view.runtimeAsked || !hasHelpers() || !api.status || !runtimeMissing(api.status)) return;
    view.runtimeAsked = true;
    await engineSettled();
    const registration = await navigator.serviceWorker.ready;
    fill(registration.active, { pages: false, runtime: true });
  }

  async function refresh(registration) {
    const status = await messageSW(registration.active, { type: "status" });
    await whenIdle();
    show(status);
    if (status.filling) return;
    await whenIdle();
    const runtime = hasHelpers() && runtimeMissing(status);
    const pagesMissing = status.pages.cached < status.pages.files;
    const pages = pagesMissing && (!saveData() || trusted());
    if (pages || runtime) fill(registration.active, { pages, runtime });
    if (pagesMissing && !pages && !shownThisVisit()) {
      notify(
        "savedata",
        "Datensparmodus: Nur das Nötigste ist offline gespeichert, nicht alle Seiten.",
        "Datensparmodus",
        button("Trotzdem offline speichern", storeAnyway),
      );
    }
  }

  // The worker's progress reaches every window of the site. Not workbox-window's "message"
  // event: that passes only messages of a worker this instance counts as its own (a new
  // version's worker that an update check found later is not).
  navigator.serviceWorker.addEventListener("message", (event) => {
    if (event.data && event.data.type === "regelwerk-offline") show(event.data.status);
  });

  // ------------------------------------------------------------------ updates

  // A new deployment's worker has installed and waits (also one that already waited when
  // this page loaded, or one a later update check found). workbox-window stops following
  // the registration's updates after the first one its register() did not start: a page
  // kept open whose notice was closed learns of a deployment after that one only when it is
  // loaded again (the notice's button always takes the newest waiting worker).
  wb.addEventListener("waiting", () => {
    if (!navigator.serviceWorker.controller) return; // the first install takes over by itself
    notify(
      "update",
      "Eine neue Version des Regelwerks ist da.",
      "",
      button("Neue Version – neu laden", () => wb.messageSkipWaiting(), "rw-pwa-reload"),
    );
  });

  // A worker took over. If another one controlled this page before, a new version is now
  // active (this page or another tab said „neu laden“): this page is of the old version.
  let controller = navigator.serviceWorker.controller;
  function controllerChanged() {
    const now = navigator.serviceWorker.controller;
    if (now === controller) return false;
    const reload = Boolean(controller);
    controller = now;
    if (reload) location.reload();
    return reload;
  }
  wb.addEventListener("controlling", controllerChanged);

  function watchUpdates() {
    const update = () => wb.update().catch(() => {});
    let lastCheck = Date.now();
    const check = () => {
      if (Date.now() - lastCheck < 60000) return;
      lastCheck = Date.now();
      update();
    };
    setInterval(update, UPDATE_EVERY_MS);
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") check();
    });
    window.addEventListener("online", check);
  }

  // ------------------------------------------------------------------ start

  function pageLoaded() {
    if (document.readyState === "complete") return Promise.resolve();
    return new Promise((resolve) => window.addEventListener("load", resolve, { once: true }));
  }

  // Let a booting engine have the line first (it needs the same runtime files).
  async function engineSettled() {
    const started = Date.now();
    for (;;) {
      const timing = window.__regelwerk;
      if (!timing || !timing.bootStart || timing.ready || Date.now() - started > ENGINE_WAIT_MS) {
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  // The slices, each when the page is idle: registering; the update checks; the status and
  // what to store.
  async function start() {
    await pageLoaded();
    await engineSettled();
    await whenIdle();
    let registration;
    try {
      registration = await wb.register();
    } catch (error) {
      console.warn("[regelwerk] Service Worker nicht registriert:", error);
      return;
    }
    // workbox-window watches the controller from register() on: a new version that took
    // over while this page waited for its engine (another tab said „neu laden“) counts too
    if (controllerChanged()) return;
    if (!registration.active) {
      view.registering = true;
      view.wasIncomplete = true;
      renderFooter();
    }
    await whenIdle();
    watchUpdates();
    await navigator.serviceWorker.ready;
    await whenIdle();
    await refresh(registration);
  }

  if (window.document$ && typeof window.document$.subscribe === "function") {
    // each page of instant navigation: the notice into its header and the footer line at
    // once (nothing moves later), the runtime's storing when the page is idle
    window.document$.subscribe(() => {
      placeToast();
      renderFooter();
      whenIdle().then(storeRuntime);
    });
  }
  start();
}
