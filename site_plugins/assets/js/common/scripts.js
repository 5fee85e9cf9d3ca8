// Regelwerk – common/scripts.js: a script of the site loaded when a page needs it.
//
// The page's own script (assets/regelwerk/regelwerk.js) loads the others that lie beside it –
// the parts of a page (pages.js), the QR decoder (players/scan.js) – as classic scripts (the
// offline export runs from file://, where module scripts do not load); the build lists them in
// the pages' policy by „self“, like every script of the site. Their folder is the engine
// client's (assetFolder: taken while regelwerk.js first runs – a script's src read later
// resolves against the address instant navigation has moved to).

import { assetFolder } from "../../../laufzeit/js/engine-client.js";

// Loads ``name`` (beside regelwerk.js); resolves once it ran, rejects with a German reason.
export function loadScript(name) {
  return new Promise((resolve, reject) => {
    const folder = assetFolder();
    if (!folder) {
      reject(new Error(`${name} nicht gefunden (die Seite hat regelwerk.js nicht gestartet)`));
      return;
    }
    const script = document.createElement("script");
    script.src = new URL(name, folder).href;
    script.addEventListener("load", () => resolve());
    script.addEventListener("error", () => {
      script.remove(); // the next try adds it anew
      reject(new Error(`${name} konnte nicht geladen werden`));
    });
    document.head.appendChild(script);
  });
}
