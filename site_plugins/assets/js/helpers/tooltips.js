// Regelwerk – tooltips.js: Material's tooltips (mkdocs.yml `content.tooltips`: the glossary's
// abbreviations, links with a title) stay inside the window.
//
// Material puts such a tooltip (role="tooltip") below its host whatever the room there: under an
// abbreviation near the bottom edge it reached past the screen (a phone at 375 px, issue #30).
// Here a tooltip without room below goes above its host when there is room there – the
// placement Material uses for its other tooltips (class md-tooltip2--top). Material writes the
// position when a tooltip opens and again when the window scrolls or resizes; a
// MutationObserver on each tooltip corrects it after every such write (a microtask: before the
// browser draws). Left and right Material keeps inside the window itself (its CSS clamps).

const GAP = 8; // px between host and tooltip, as Material's own placement below (8 + height)
const watched = new WeakSet();

function hostOf(tip) {
  return tip.id ? document.querySelector(`[aria-describedby~="${CSS.escape(tip.id)}"]`) : null;
}

// Above or below the host: below if it fits there (Material's choice), else above if it fits
// there; where neither fits (a tooltip taller than both), below as Material has it.
export function place(tip) {
  if (tip.getAttribute("role") !== "tooltip" || !tip.classList.contains("md-tooltip2--active")) return;
  const host = hostOf(tip);
  const inner = tip.firstElementChild;
  if (!host || !inner) return;
  const box = host.getBoundingClientRect();
  const height = inner.getBoundingClientRect().height;
  const room = document.documentElement.clientHeight;
  const above = height > room - box.bottom - GAP && height <= box.top - GAP;
  const y = `${above ? -GAP - height : GAP + box.height}px`;
  if (tip.style.getPropertyValue("--md-tooltip-y") !== y) tip.style.setProperty("--md-tooltip-y", y);
  tip.classList.toggle("md-tooltip2--top", above);
  tip.classList.toggle("md-tooltip2--bottom", !above);
}

function watch(node) {
  if (!(node instanceof HTMLElement) || !node.classList.contains("md-tooltip2") || watched.has(node)) return;
  watched.add(node);
  new MutationObserver(() => place(node)).observe(node, { attributes: true, attributeFilter: ["class", "style"] });
  place(node);
}

// Material adds a tooltip to <body> when it opens for the first time.
export function keepTooltipsInWindow() {
  if (typeof MutationObserver === "undefined" || !document.body) return;
  document.body.querySelectorAll(":scope > .md-tooltip2").forEach(watch);
  new MutationObserver((records) => {
    for (const record of records) record.addedNodes.forEach(watch);
  }).observe(document.body, { childList: true });
}
