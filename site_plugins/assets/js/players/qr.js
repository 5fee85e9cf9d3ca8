// Regelwerk – qr.js: a QR code of a link, drawn as SVG through the DOM.
//
// The encoder is lean-qr (npm, MIT; bundled into the page's script, so it works offline). It
// splits the text into the QR modes that store it smallest: the address in byte mode, the
// fight and the live offer – written in base42.js's characters – in alphanumeric mode (11 bits
// for two characters instead of 16). The code is error correction level L, raised as far as
// the version allows, with a quiet zone of four modules, black on white whatever the colour
// scheme (phone cameras read dark on light). A link longer than version VERSION_MAX holds
// gets no code at all (qrOf → null): a bigger one is too fine for a phone across the table, so
// the caller sends less (show.js linkFor).
// The SVG is built with createElementNS and presentation attributes only (no style attribute,
// nothing inline a strict CSP would block).

import { correction, generate } from "lean-qr";

export const VERSION_MAX = 10; // 57 × 57 modules: what phone cameras read reliably
const QUIET = 4;
const SVG = "http://www.w3.org/2000/svg";

// → {version, size, data: boolean[][]} (data with the quiet zone) or null when it does not fit.
export function qrOf(text, maxVersion = VERSION_MAX) {
  let code;
  try {
    code = generate(text, { minCorrectionLevel: correction.L, maxVersion });
  } catch (error) {
    return null; // more than version maxVersion holds
  }
  const size = code.size + 2 * QUIET;
  const data = Array.from({ length: size }, (_, y) =>
    Array.from({ length: size }, (_, x) => code.get(x - QUIET, y - QUIET)),
  );
  return { version: (code.size - 17) / 4, size, data };
}

// One path of unit squares (a run of dark modules in a row is one rectangle).
export function pathOf(qr) {
  const parts = [];
  qr.data.forEach((row, y) => {
    for (let x = 0; x < row.length; x++) {
      if (!row[x]) continue;
      let run = 1;
      while (x + run < row.length && row[x + run]) run++;
      parts.push(`M${x} ${y}h${run}v1h-${run}z`);
      x += run - 1;
    }
  });
  return parts.join("");
}

export function svgOf(qr, label) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${qr.size} ${qr.size}`);
  svg.setAttribute("class", "rw-qr");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  svg.setAttribute("shape-rendering", "crispEdges");
  const back = document.createElementNS(SVG, "rect");
  back.setAttribute("width", String(qr.size));
  back.setAttribute("height", String(qr.size));
  back.setAttribute("fill", "#ffffff");
  const dark = document.createElementNS(SVG, "path");
  dark.setAttribute("d", pathOf(qr));
  dark.setAttribute("fill", "#000000");
  svg.append(back, dark);
  return svg;
}
