// Regelwerk – chart.js: the odds drawn as inline SVG (a result's distribution, „Was wäre wenn“).
//
// Owns: drawing a `distribution` section as a bar chart (numeric: bars by value, the mean
// marked, „mindestens“/„genau“/„höchstens“ of the bar pointed at; named outcomes: a bar per
// outcome) and a „Was wäre wenn“ answer as lines (x: the opponent's values, y: each chance, the
// current value marked); the readout line (aria-live polite) for the bar or value under the
// pointer, a tap or the keyboard (the chart is focusable: arrows, Home/End, PageUp/PageDown);
// the text alternative – the same numbers as a table, read by screen readers and shown on
// demand („Als Tabelle“). The SVG is role="img" with a summary as its name.
// Built with DOM calls only (user text as text nodes); colours and lines come from classes in
// regelwerk.css (the CSP allows no style attributes). Geometry: chart-scale.js.

import { el } from "../common/util.js";
import {
  DIST_BOX,
  LINE_BOX,
  ROW,
  barReadout,
  categoricalGeometry,
  lineGeometry,
  nearestIndex,
  numericGeometry,
  rowReadout,
  stepIndex,
  whatIfSeries,
} from "./chart-scale.js";

const SVG = "http://www.w3.org/2000/svg";
let nextId = 1;

function svgEl(tag, className, attributes = {}) {
  const node = document.createElementNS(SVG, tag);
  if (className) node.setAttribute("class", className);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(round(value)));
  return node;
}

function round(value) {
  return typeof value === "number" ? Math.round(value * 100) / 100 : value;
}

function svgText(className, x, y, text, anchor = "middle") {
  const node = svgEl("text", className, { x, y, "text-anchor": anchor });
  node.textContent = text;
  return node;
}

function svgRoot(width, height, label) {
  const svg = svgEl("svg", "rw-chart-svg", { viewBox: `0 0 ${width} ${height}`, role: "img" });
  svg.setAttribute("aria-label", label);
  svg.setAttribute("tabindex", "0");
  return svg;
}

// The selection of a chart: pointer, tap and keys pick an index, `show(index)` draws it and
// fills the readout. positions: the x (or, for rows, y) of each item in viewBox units.
function interact(svg, positions, { vertical = false, size, show }) {
  let index = -1;
  const pick = (next) => {
    if (next === index || next < 0) return;
    index = next;
    show(index);
  };
  const fromPointer = (event) => {
    const box = svg.getBoundingClientRect();
    if (!box.width || !box.height) return;
    const at = vertical
      ? ((event.clientY - box.top) / box.height) * size
      : ((event.clientX - box.left) / box.width) * size;
    pick(nearestIndex(positions, at));
  };
  svg.addEventListener("pointermove", fromPointer);
  svg.addEventListener("pointerdown", fromPointer);
  svg.addEventListener("focus", () => {
    if (index < 0) pick(0);
  });
  svg.addEventListener("keydown", (event) => {
    const next = stepIndex(index, positions.length, event.key);
    if (next === null) return;
    event.preventDefault();
    pick(next);
  });
  return { select: (i) => pick(i) };
}

// The text alternative: a table for screen readers, shown on screen by the toggle.
// watch: results.js watchTable (a shown table that scrolls sideways becomes a focusable region).
function tableBlock(caption, heads, rows, { currentRow = -1, watch = null } = {}) {
  const wrap = el("div", "rw-chart-table-wrap rw-sr-only");
  wrap.id = `rw-chart-table-${nextId++}`;
  wrap.appendChild(chartTable(caption, heads, rows, currentRow));
  const toggle = el("button", "md-button rw-chart-toggle", "Als Tabelle");
  toggle.type = "button";
  toggle.setAttribute("aria-expanded", "false");
  toggle.setAttribute("aria-controls", wrap.id);
  const show = (shown) => {
    wrap.classList.toggle("rw-sr-only", !shown);
    wrap.classList.toggle("rw-table-wrap", shown);
    if (!shown) ["tabindex", "role", "aria-label", "data-rw-scrolls"].forEach((name) => wrap.removeAttribute(name));
    else if (watch) watch(wrap);
    toggle.setAttribute("aria-expanded", String(shown));
    toggle.textContent = shown ? "Tabelle ausblenden" : "Als Tabelle";
  };
  toggle.addEventListener("click", () => show(wrap.classList.contains("rw-sr-only")));
  return { wrap, toggle, show };
}

// A table of the chart's numbers: a caption, the heads, a row per value (its first cell the
// row's head; `currentRow` marked). A cell is its text, or {text} for the best value of its
// column (emphasised, and said for screen readers) – „Vergleichen“ uses the same table.
export function chartTable(caption, heads, rows, currentRow = -1) {
  const table = el("table", "rw-chart-table");
  table.appendChild(el("caption", "", caption));
  const head = table.createTHead().insertRow();
  for (const text of heads) {
    const th = el("th", "", text);
    th.scope = "col";
    head.appendChild(th);
  }
  fillRows(table.createTBody(), rows, currentRow, 0);
  return table;
}

// A long table (a wide distribution: up to 200 rows) is filled ROWS_AT_ONCE rows per frame:
// its layout (≈ 0.1 ms a row) would otherwise hold up the chart's first frame.
const ROWS_AT_ONCE = 40;

function fillRows(body, rows, currentRow, start) {
  const end = Math.min(rows.length, start + ROWS_AT_ONCE);
  for (let r = start; r < end; r++) {
    const tr = body.insertRow();
    if (r === currentRow) {
      tr.className = "rw-chart-current";
      tr.setAttribute("aria-current", "true");
    }
    rows[r].forEach((cell, c) => {
      const best = typeof cell === "object" && cell !== null;
      const td = el(c === 0 ? "th" : "td", best ? "rw-best" : "");
      if (c === 0) td.scope = "row";
      if (best) td.append(el("strong", "", cell.text), el("span", "rw-sr-only", " (höchster Wert)"));
      else td.textContent = cell;
      tr.appendChild(td);
    });
  }
  if (end < rows.length) requestAnimationFrame(() => setTimeout(() => fillRows(body, rows, currentRow, end)));
}

function figure(kind, caption) {
  const box = el("figure", `rw-chart rw-chart--${kind}`);
  if (caption) box.appendChild(el("figcaption", "rw-section-caption", caption));
  return box;
}

function readoutLine(hint) {
  const line = el("p", "rw-chart-readout", hint);
  line.setAttribute("aria-live", "polite");
  return line;
}

// A `distribution` section (engine/display.py Display.distribution) as a chart with its table.
// options.watch: see tableBlock.
export function drawDistribution(section, options = {}) {
  const started = performance.now();
  const bars = Array.isArray(section.bars) ? section.bars : [];
  const numeric = !!section.numeric;
  const box = figure("distribution", section.caption);
  const readout = readoutLine(bars.length ? "Auf einen Balken zeigen oder tippen (oder mit den Pfeiltasten wählen): die Chance dieses Werts." : "");
  let svg;
  if (numeric && bars.length) svg = numericChart(section, bars, readout);
  else if (bars.length) svg = namedChart(section, bars, readout);
  if (svg) box.appendChild(svg);
  const foot = el("div", "rw-chart-foot");
  if (numeric && section.mean) {
    foot.appendChild(el("p", "rw-chart-mean", `${section.mean.label || `Mittelwert ${section.axis}`}: ${section.mean.text}`));
  }
  if (numeric && section.width > 1) {
    foot.appendChild(el("p", "rw-chart-width", `Je Balken ${section.width} Werte (zu viele für einen Balken je Wert).`));
  }
  box.appendChild(readout);
  const ranges = numeric && section.width > 1;
  const heads = numeric
    ? [section.axis, ranges ? "Chance" : "genau", ranges ? "mindestens (ab Anfang)" : "mindestens", ranges ? "höchstens (bis Ende)" : "höchstens"]
    : [section.axis || "Ergebnis", "Chance"];
  const rows = bars.map((bar) => (numeric
    ? [bar.label, `${bar.percent} (${bar.fraction})`, `${bar.at_least_percent} (${bar.at_least})`, `${bar.at_most_percent} (${bar.at_most})`]
    : [bar.label, `${bar.percent} (${bar.fraction})`]));
  const { wrap, toggle } = tableBlock(section.caption || section.axis, heads, rows, { watch: options.watch });
  foot.appendChild(toggle);
  box.append(foot, wrap);
  try {
    performance.measure("regelwerk:chart", { start: started, detail: { bars: bars.length } });
  } catch (error) {
    // an old browser without measure options: the benchmark then has no figure
  }
  return box;
}

function summary(section, bars) {
  const parts = [section.caption || section.axis, "Balkendiagramm"];
  if (section.numeric) {
    parts.push(`${section.axis} von ${bars[0].label} bis ${bars[bars.length - 1].label}`);
    if (section.mean) parts.push(`${section.mean.label || "Mittelwert"} ${section.mean.text}`);
  } else {
    parts.push(`${bars.length} Ergebnisse`);
  }
  return `${parts.filter(Boolean).join(", ")}.`;
}

function numericChart(section, bars, readout) {
  const geometry = numericGeometry(section, DIST_BOX);
  const svg = svgRoot(DIST_BOX.width, DIST_BOX.height, summary(section, bars));
  svg.appendChild(svgEl("line", "rw-chart-axis", { x1: DIST_BOX.left, x2: DIST_BOX.right, y1: DIST_BOX.bottom, y2: DIST_BOX.bottom }));
  // every bar in one path (400 bars: one element, not 400); the bar chosen is drawn over it
  const outline = geometry.bars
    .filter((g) => g.height > 0)
    .map((g) => `M${round(g.x)} ${round(g.bottom)}V${round(g.y)}H${round(g.x + g.width)}V${round(g.bottom)}Z`)
    .join("");
  svg.appendChild(svgEl("path", "rw-chart-bar", { d: outline }));
  const chosen = svgEl("rect", "rw-chart-bar rw-chart-bar--on", { x: 0, y: 0, width: 0, height: 0 });
  chosen.setAttribute("visibility", "hidden");
  svg.appendChild(chosen);
  for (const label of geometry.labels) svg.appendChild(svgText("rw-chart-label", label.x, DIST_BOX.labels, label.text));
  if (geometry.mean) {
    const { x } = geometry.mean;
    svg.appendChild(svgEl("line", "rw-chart-mean-line", { x1: x, x2: x, y1: DIST_BOX.top - 4, y2: DIST_BOX.bottom }));
    const anchor = x < DIST_BOX.left + 40 ? "start" : x > DIST_BOX.right - 40 ? "end" : "middle";
    svg.appendChild(svgText("rw-chart-label rw-chart-mean-label", x, DIST_BOX.top - 8, `Ø ${section.mean.text}`, anchor));
  }
  const guide = svgEl("rect", "rw-chart-hit", { x: 0, y: DIST_BOX.top - 4, width: 0, height: DIST_BOX.bottom - DIST_BOX.top + 4 });
  svg.appendChild(guide);
  interact(svg, geometry.bars.map((g) => g.center), {
    size: DIST_BOX.width,
    show(index) {
      const g = geometry.bars[index];
      for (const [name, value] of [["x", g.x], ["y", g.y], ["width", g.width], ["height", g.height]]) {
        chosen.setAttribute(name, String(round(value)));
      }
      chosen.setAttribute("visibility", "visible");
      const width = Math.max(g.width, 3);
      guide.setAttribute("x", String(round(g.center - width / 2 - 1)));
      guide.setAttribute("width", String(round(width + 2)));
      readout.textContent = barReadout(bars[index], true);
    },
  });
  return svg;
}

function namedChart(section, bars, readout) {
  const geometry = categoricalGeometry(section, ROW);
  const svg = svgRoot(DIST_BOX.width, geometry.height, summary(section, bars));
  const rects = geometry.rows.map((g, i) => {
    const label = String(bars[i].label);
    const text = `${label.length > 44 ? `${label.slice(0, 43)}…` : label} – ${bars[i].percent}`;
    svg.appendChild(svgText("rw-chart-label", ROW.left, g.labelY, text, "start"));
    svg.appendChild(svgEl("rect", "rw-chart-track", { x: ROW.left, y: g.y, width: ROW.right - ROW.left, height: g.height }));
    const rect = svgEl("rect", "rw-chart-bar", { x: ROW.left, y: g.y, width: g.width, height: g.height });
    svg.appendChild(rect);
    return rect;
  });
  let shown = null;
  interact(svg, geometry.rows.map((g) => g.center), {
    vertical: true,
    size: geometry.height,
    show(index) {
      if (shown) shown.classList.remove("rw-chart-bar--on");
      shown = rects[index];
      shown.classList.add("rw-chart-bar--on");
      readout.textContent = barReadout(bars[index], false);
    },
  });
  return svg;
}

// A „Was wäre wenn“ answer (engine/odds.py what_if): lines, legend, readout and table.
export function drawWhatIf(answer, options = {}) {
  const lines = whatIfSeries(answer);
  const box = figure("what-if", "");
  const readout = readoutLine("Auf einen Wert zeigen oder tippen (oder mit den Pfeiltasten wählen): alle Chancen bei diesem Wert.");
  if (lines.xs.length && lines.series.length) {
    box.appendChild(lineChart(answer, lines, readout));
    const legend = el("ul", "rw-chart-legend");
    lines.series.forEach((series, i) => {
      const item = el("li", `rw-series-${i % 6}`);
      const swatch = el("span", "rw-chart-swatch");
      swatch.setAttribute("aria-hidden", "true");
      item.append(swatch, document.createTextNode(series.label));
      legend.appendChild(item);
    });
    box.appendChild(legend);
  }
  box.appendChild(readout);
  const heads = [answer.label, ...answer.columns.map((column) => column.label)];
  const rows = answer.rows.map((row) => [
    row.label + (row.current ? " (jetzt)" : ""),
    ...row.cells.map((cell) => (cell ? cell.text : "–")),
  ]);
  const { wrap, toggle, show } = tableBlock(`Chancen je ${answer.label}`, heads, rows, { currentRow: lines.current, watch: options.watch });
  show(true); // the table of „Was wäre wenn“ is the answer itself: shown at once, the chart above it
  const foot = el("div", "rw-chart-foot");
  foot.appendChild(toggle);
  box.append(foot, wrap);
  return box;
}

function lineChart(answer, lines, readout) {
  const B = LINE_BOX;
  const geometry = lineGeometry(lines, B);
  const first = lines.labels[0];
  const last = lines.labels[lines.labels.length - 1];
  const names = lines.series.map((s) => s.label).join(", ");
  const current = lines.current >= 0 ? `, jetzt ${lines.labels[lines.current]}` : "";
  const svg = svgRoot(B.width, B.height, `Was wäre wenn: ${names} je ${answer.label} von ${first} bis ${last}${current}.`);
  // the chance axis: 0 % to 100 % (for expected values: 0 to the largest, as the engine wrote it)
  const ticks = lines.percent ? [[0, "0 %"], [0.5, "50 %"], [1, "100 %"]] : [[lines.yMin, ""], [lines.yMax, largestText(lines)]];
  for (const [value, text] of ticks) {
    const y = geometry.y(value);
    svg.appendChild(svgEl("line", "rw-chart-grid", { x1: B.left, x2: B.right, y1: y, y2: y }));
    if (text) svg.appendChild(svgText("rw-chart-label", B.left - 4, y + 4, text, "end"));
  }
  const longest = Math.max(...lines.labels.map((l) => l.length));
  const spacing = lines.xs.length > 1 ? (B.right - B.left) / (lines.xs.length - 1) : B.right - B.left;
  const step = Math.max(1, Math.ceil((longest * 7.5 + 8) / spacing));
  lines.labels.forEach((label, i) => {
    if (i % step === 0 || i === lines.current) svg.appendChild(svgText("rw-chart-label", geometry.xs[i], B.labels, label));
  });
  if (lines.current >= 0) {
    const x = geometry.xs[lines.current];
    svg.appendChild(svgEl("line", "rw-chart-current", { x1: x, x2: x, y1: B.top, y2: B.bottom }));
    svg.appendChild(svgText("rw-chart-label rw-chart-current-label", x, B.labels + 16, "jetzt"));
  }
  const dots = [];
  lines.series.forEach((series, s) => {
    const group = svgEl("g", `rw-series-${s % 6}`);
    let path = "";
    let open = false;
    series.points.forEach((point, i) => {
      if (!point) {
        open = false;
        return;
      }
      path += `${open ? "L" : "M"}${round(geometry.xs[i])} ${round(geometry.y(point.y))} `;
      open = true;
    });
    group.appendChild(svgEl("path", "rw-chart-line", { d: path.trim() }));
    series.points.forEach((point, i) => {
      if (!point) return;
      const dot = svgEl("circle", "rw-chart-dot", { cx: geometry.xs[i], cy: geometry.y(point.y), r: 2.5 });
      (dots[i] = dots[i] || []).push(dot);
      group.appendChild(dot);
    });
    svg.appendChild(group);
  });
  const guide = svgEl("line", "rw-chart-guide", { x1: 0, x2: 0, y1: B.top, y2: B.bottom });
  guide.setAttribute("visibility", "hidden");
  svg.appendChild(guide);
  let shown = [];
  interact(svg, geometry.xs, {
    size: B.width,
    show(index) {
      shown.forEach((dot) => dot.classList.remove("rw-chart-dot--on"));
      shown = dots[index] || [];
      shown.forEach((dot) => dot.classList.add("rw-chart-dot--on"));
      guide.setAttribute("x1", String(round(geometry.xs[index])));
      guide.setAttribute("x2", String(round(geometry.xs[index])));
      guide.setAttribute("visibility", "visible");
      readout.textContent = rowReadout(answer, index);
    },
  });
  return svg;
}

// the text of the largest expected value (the engine's), for the top of the axis
function largestText(lines) {
  let best = null;
  for (const series of lines.series) {
    for (const point of series.points) if (point && (!best || point.y > best.y)) best = point;
  }
  return best ? best.text : "";
}
