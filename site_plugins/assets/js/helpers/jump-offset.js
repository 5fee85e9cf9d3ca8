// Regelwerk – jump-offset.js: a jump (a heading from the table of contents, a search hit, a
// shared roll, „Zum Würfeln“) lands right below what sticks to the top of the window, in every
// browser engine.
//
// The page's scroll-padding-top is the measured height of what sticks there – Material's header
// (not on a Kampfhelfer page on a phone: it scrolls away there) and, on a Kampfhelfer page, the
// fight bar – set in px as the CSS variable --rw-jump-top (regelwerk.css), exactly that height:
// a jump neither lands under a bar nor leaves a gap (issue 26, point 7). A fixed offset in rem
// resolved differently: WebKit (Safari, every iPhone) computed scroll-padding-top: 6.4rem as
// 102.4 px, Chromium and Firefox as 128 px, so in WebKit the target landed under the fight bar.

let observer = null;
let watched = [];
let resizing = false;

function stickyHeight(node) {
  if (!node) return 0;
  const position = getComputedStyle(node).position;
  return position === "sticky" || position === "fixed" ? node.getBoundingClientRect().height : 0;
}

// The value goes to the two elements that use it – the page (scroll-padding-top) and the fight
// column (it sticks below the bar) –, each only when it changed: --rw-jump-top is registered
// as not inherited (regelwerk.css), so a new height restyles those two, not the whole page
// (issue #46: a custom property set on the root restyled every element, 100 ms on a 4×
// slowed phone).
function setJumpTop(node, value) {
  if (node && node.style.getPropertyValue("--rw-jump-top") !== value) node.style.setProperty("--rw-jump-top", value);
}

export function measureJumpOffset() {
  const header = document.querySelector(".md-header");
  const bar = document.querySelector(".rw-fight-bar");
  const top = stickyHeight(header) + stickyHeight(bar);
  const value = `${Math.ceil(top)}px`;
  setJumpTop(document.documentElement, value);
  setJumpTop(document.querySelector(".rw-workbench-fight"), value);
  return top;
}

// On a narrow window the fight bar is one line that scrolls sideways (regelwerk.css): who acts,
// the target and „Weiter“ at its start, the jumps further on. A jump that takes the reader's
// focus away (to „Würfeln“), or a tap that gives none (Safari), brings the line back to its
// start: who acts and the target are in view again. A control that keeps the focus stays in
// view (WCAG 2.4.11).
function lineBackToStart(event) {
  const bar = event.currentTarget;
  if (!event.target.closest("button") || bar.scrollLeft === 0) return;
  if (!bar.contains(document.activeElement)) bar.scrollLeft = 0;
}

// Measured now and again whenever a bar changes its size (it wraps, the window turns) or stops
// sticking (the header on a phone); called for every page, since instant navigation brings a
// new fight bar.
const watchedBars = new WeakSet();

// A ResizeObserver reports every watched element once when it starts watching, after the
// browser's next layout: the first measurement waits for it instead of forcing the style and
// layout of a page just built (issue #46: 100–170 ms of a 4× slowed phone). `now`: measure at
// once (a shared roll scrolls to its helper right away).
export function keepJumpsClear({ now = false } = {}) {
  if (now || typeof ResizeObserver !== "function") measureJumpOffset();
  const bar = document.querySelector(".rw-fight-bar");
  if (bar && !watchedBars.has(bar)) {
    watchedBars.add(bar);
    bar.addEventListener("click", lineBackToStart);
  }
  if (!resizing) {
    resizing = true;
    window.addEventListener("resize", () => measureJumpOffset());
  }
  if (typeof ResizeObserver !== "function") return;
  const nodes = [document.querySelector(".md-header"), document.querySelector(".rw-fight-bar")];
  if (observer && nodes.every((node, index) => node === watched[index])) return;
  if (observer) observer.disconnect();
  observer = new ResizeObserver(() => measureJumpOffset());
  watched = nodes;
  for (const node of nodes) if (node) observer.observe(node);
}
