// Regelwerk – common/scripts.js: a script of the site loaded when a page needs it.
//
// The page's own script (assets/regelwerk/regelwerk.js) loads the others that lie beside it –
// the helpers' code (pages.js), the QR decoder (players/scan.js) – as classic scripts (the
// offline export runs from file://, where module scripts do not load); the build lists them in
// the pages' policy by „self“, like every script of the site.

const OWN = /\/assets\/regelwerk\/regelwerk\.js(\?.*)?$/;
// Taken while regelwerk.js runs, on the page it was loaded for: a script's src is resolved
// against the page's address each time it is read, and after Material's instant navigation
// that is another page's (from /a/ the page's „../assets/…“ read on /a/b/ is /a/assets/…).
const running = typeof document === "undefined" ? null : document.currentScript;
const OWN_ADDRESS = running && OWN.test(running.src) ? running.src : null;

// The address of ``name`` beside regelwerk.js, or null (a page without it).
export function scriptBeside(name) {
  return OWN_ADDRESS ? OWN_ADDRESS.replace(OWN, `/assets/regelwerk/${name}`) : null;
}

// Loads ``name`` (beside regelwerk.js); resolves once it ran, rejects with a German reason.
export function loadScript(name) {
  return new Promise((resolve, reject) => {
    const address = scriptBeside(name);
    if (!address) {
      reject(new Error(`${name} nicht gefunden (die Seite hat regelwerk.js nicht)`));
      return;
    }
    const script = document.createElement("script");
    script.src = address;
    script.addEventListener("load", () => resolve());
    script.addEventListener("error", () => {
      script.remove(); // the next try adds it anew
      reject(new Error(`${name} konnte nicht geladen werden`));
    });
    document.head.appendChild(script);
  });
}
