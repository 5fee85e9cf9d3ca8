// In-page helpers of the accessibility tests (tests/browser/a11y.py injects this file with
// page.evaluate, after axe-core; the site never loads either). window.__rwA11y:
//   axe(rules)     axe-core's violations (of the given rules, else all), each node marked
//                  as ours or Material's
//   nonText()      our visible controls: how far the border or fill stands out (WCAG 1.4.11)
//   darkestText()  the text of ours with the lowest contrast on the page
//   focus()        how the focused element shows its focus, and whether it is covered
// Ours: the page's article (our content and helpers) and every element of ours outside it
// (classes or ids rw-…: the dice popover, the roll announcements, the search results' system
// label, the web app's footer line and notice). Everything else (header, navigation, the
// search and its result list, footer) is Material's template.
(() => {
  "use strict";
  const canvas = document.createElement("canvas").getContext("2d", { willReadFrequently: true });

  // any CSS colour as [r, g, b, alpha]
  function rgba(css) {
    canvas.clearRect(0, 0, 1, 1);
    canvas.fillStyle = "#000";
    canvas.fillStyle = css;
    canvas.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = canvas.getImageData(0, 0, 1, 1).data;
    return [r, g, b, a / 255];
  }

  function over(top, below) {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + below[i] * (1 - a)).concat(1);
  }

  function luminance(c) {
    const f = (v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  }

  function ratio(a, b) {
    const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
    return Math.round(((x + 0.05) / (y + 0.05)) * 100) / 100;
  }

  function hex(c) {
    return `#${c.slice(0, 3).map((v) => Math.round(v).toString(16).padStart(2, "0")).join("")}`;
  }

  // the opaque colour behind `el` (its own background only with `self`)
  function behind(el, self) {
    const layers = [];
    for (let node = self ? el : el.parentElement; node; node = node.parentElement) {
      const bg = rgba(getComputedStyle(node).backgroundColor);
      if (bg[3] > 0) layers.push(bg);
      if (bg[3] >= 1) break;
    }
    let colour = [255, 255, 255, 1];
    for (const layer of layers.reverse()) colour = over(layer, colour);
    return colour;
  }

  function ours(el) {
    if (!el) return false;
    if (el.closest("article.md-content__inner")) return true;
    for (let node = el; node && node.classList; node = node.parentElement) {
      if ([...node.classList].some((c) => c.startsWith("rw-"))) return true;
      if ((node.id || "").startsWith("rw-")) return true;
    }
    return false;
  }

  function visible(el) {
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return box.width > 2 && box.height > 2 && style.visibility !== "hidden" && style.opacity !== "0";
  }

  function name(el) {
    const text = el.textContent.trim();
    const id = el.id ? `#${el.id}` : "";
    return `${el.tagName.toLowerCase()}${id}.${[...el.classList].join(".")}${text ? ` „${text.slice(0, 30)}“` : ""}`;
  }

  // rules: axe's rule ids to run (all of them when absent)
  async function axe(rules) {
    const options = { resultTypes: ["violations"] };
    if (rules) options.runOnly = { type: "rule", values: rules };
    const result = await window.axe.run(document, options);
    const out = [];
    for (const rule of result.violations) {
      for (const node of rule.nodes) {
        let el = null;
        try {
          el = node.target.length === 1 ? document.querySelector(node.target[0]) : null;
        } catch (error) {
          el = null;
        }
        out.push({
          rule: rule.id,
          impact: node.impact || rule.impact,
          help: rule.help,
          target: node.target.join(" "),
          ours: ours(el),
          summary: (node.failureSummary || "").split("\n").slice(1, 3).join(" ").trim().slice(0, 300),
        });
      }
    }
    return out;
  }

  const CONTROLS = [
    "input:not([type=checkbox]):not([type=radio]):not([type=file]):not([type=hidden])",
    "select", "textarea", "button", ".md-button", ".rw-die", ".rw-tl-marker",
  ].join(", ");

  // Our visible controls: the border, or the control's own fill, against what is behind it.
  // A dice expression in the text is a link (its colour is text contrast, axe's part).
  function nonText() {
    const out = [];
    for (const el of document.querySelectorAll(CONTROLS)) {
      if (!ours(el) || !visible(el) || el.classList.contains("rw-dice")) continue;
      const style = getComputedStyle(el);
      const outside = behind(el, false);
      let best = ratio(over(rgba(style.backgroundColor), outside), outside);
      let what = "fill";
      for (const side of ["Top", "Right", "Bottom", "Left"]) {
        if (parseFloat(style[`border${side}Width`]) < 1) continue;
        if (style[`border${side}Style`] === "none") continue;
        const border = over(rgba(style[`border${side}Color`]), outside);
        const r = ratio(border, outside);
        if (r > best) {
          best = r;
          what = `border ${hex(border)}`;
        }
      }
      // a control without border and fill (e.g. „×“) is told by its glyph: the text colour
      if (what === "fill" && best < 1.01) {
        best = ratio(over(rgba(style.color), outside), outside);
        what = `glyph ${hex(rgba(style.color))}`;
      }
      out.push({ control: name(el), ratio: best, what, behind: hex(outside) });
    }
    return out;
  }

  // The text of ours with the lowest contrast (axe decides pass or fail; this names the
  // darkest remaining pair for the report). Opacity of the ancestors is taken into account.
  function darkestText() {
    let worst = null;
    const seen = new Set();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || seen.has(el) || !node.textContent.trim()) continue;
      seen.add(el);
      if (!ours(el) || !visible(el) || el.closest(".rw-sr-only, [aria-hidden=true], [disabled]")) continue;
      const bg = behind(el, true);
      const colour = rgba(getComputedStyle(el).color);
      let opacity = 1;
      for (let n = el; n; n = n.parentElement) opacity *= parseFloat(getComputedStyle(n).opacity);
      const fg = over([colour[0], colour[1], colour[2], colour[3] * opacity], bg);
      const r = ratio(fg, bg);
      if (!worst || r < worst.ratio) {
        const text = node.textContent.trim().slice(0, 40);
        worst = { ratio: r, text, element: name(el), fg: hex(fg), bg: hex(bg) };
      }
    }
    return worst;
  }

  // What shows the focus: a content tab's hidden radio button is shown by the tab labels, a
  // hidden file input by its label, Material's palette switch by its label.
  function standIn(el) {
    if (el.matches(".tabbed-set > input")) return el.parentElement.querySelector(":scope > .tabbed-labels");
    if (el.matches("input[type=file]") && el.labels && el.labels.length) return el.labels[0];
    if (el.matches("input.md-option") && el.nextElementSibling) return el.nextElementSibling;
    return el;
  }

  // The focused element: an outline (3:1 against what is behind it; Chrome's own `auto`
  // ring counts as its colour) or a box-shadow; on screen and not covered by anything
  // (a sticky bar) at its middle (WCAG 2.2 2.4.7, 2.4.11, 1.4.11).
  function focus() {
    const active = document.activeElement;
    if (!active || active === document.body) return { element: "body", ok: false };
    const el = standIn(active);
    const style = getComputedStyle(el);
    const width = parseFloat(style.outlineWidth) || 0;
    const outline = style.outlineStyle !== "none" && (width >= 2 || style.outlineStyle === "auto");
    const shadow = Boolean(style.boxShadow && style.boxShadow !== "none");
    const back = behind(el, false);
    const contrast = outline ? ratio(over(rgba(style.outlineColor), back), back) : null;
    const box = el.getBoundingClientRect();
    const onScreen = box.bottom > 0 && box.top < innerHeight && box.right > 0 && box.left < innerWidth;
    const x = Math.min(Math.max(box.left + box.width / 2, 1), innerWidth - 1);
    const y = Math.min(Math.max(box.top + Math.min(box.height / 2, 10), 1), innerHeight - 1);
    let hit = document.elementFromPoint(x, y);
    // Material's search overlay fades out for 250 ms after the search closed (Tab out of it):
    // it is leaving, not covering
    const search = document.getElementById("__search");
    if (hit && hit.matches(".md-search__overlay") && search && !search.checked) hit = null;
    const mine = (node) => el.contains(node) || node.contains(el)
      || Boolean(active.labels && [...active.labels].some((label) => label.contains(node)));
    return {
      element: name(active),
      shown: name(el),
      outline: outline ? `${style.outlineStyle} ${style.outlineWidth} ${hex(rgba(style.outlineColor))}` : "none",
      shadow: shadow ? style.boxShadow : "none",
      ratio: contrast,
      ok: (outline && contrast >= 3) || (!outline && shadow),
      onScreen,
      covered: onScreen && Boolean(hit) && !mine(hit),
      by: hit ? name(hit).slice(0, 60) : "",
    };
  }

  window.__rwA11y = { axe, nonText, darkestText, focus, ratio, rgba };
})();
