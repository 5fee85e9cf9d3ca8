// Regelwerk – players/qr-decoder.js: the entry of the script assets/regelwerk/qr-decoder.js,
// which scan.js loads only when the game master opens the camera (bundle.mjs bundles it on
// its own: jsQR is ≈ 130 kB minified, more than the rest of the page's code needs).
//
// Owns nothing but the hand-over: jsQR (npm, Apache-2.0, a UMD file that bundle.mjs wraps into
// a module) goes to scan.js in the event „regelwerk:qr-decoder“ – no global name.

import jsQR from "jsqr";

document.dispatchEvent(new CustomEvent("regelwerk:qr-decoder", { detail: jsQR }));
