// Regelwerk – jump-offset.js: a jump (a heading from the table of contents, a search hit, a
// shared roll) lands below the sticky bars, in every browser engine.
//
// The page's scroll-padding-top comes from the bars' measured height (Material's header and,
// where it sticks – a Kampfhelfer page below 1100 px – the fight bar), set in px as the CSS
// variable --rw-jump-top (regelwerk.css). A fixed offset in rem resolved differently: WebKit
// (Safari, every iPhone) computed scroll-padding-top: 6.4rem as 102.4 px, Chromium and
// Firefox as 128 px, so in WebKit the target landed under the fight bar.
const GAP_PX = 8;

let observer = null;
let watched = [];

function stickyHeight(node) {
  if (!node) return 0;
  const position = getComputedStyle(node).position;
  return position === "sticky" || position === "fixed" ? node.getBoundingClientRect().height : 0;
}

export function measureJumpOffset() {
  const header = document.querySelector(".md-header");
  const bar = document.querySelector(".rw-fight-bar");
  const top = stickyHeight(header) + stickyHeight(bar) + GAP_PX;
  document.documentElement.style.setProperty("--rw-jump-top", `${Math.ceil(top)}px`);
  return top;
}

// Measured now and again whenever a bar changes its size (it wraps on narrow screens, the
// window turns); called for every page, since instant navigation brings a new fight bar.
export function keepJumpsClear() {
  measureJumpOffset();
  if (typeof ResizeObserver !== "function") return;
  const nodes = [document.querySelector(".md-header"), document.querySelector(".rw-fight-bar")];
  if (observer && nodes.every((node, index) => node === watched[index])) return;
  if (observer) observer.disconnect();
  observer = new ResizeObserver(() => measureJumpOffset());
  watched = nodes;
  for (const node of nodes) if (node) observer.observe(node);
}
