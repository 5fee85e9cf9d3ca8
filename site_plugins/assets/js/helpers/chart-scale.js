// Regelwerk – chart-scale.js: the pure arithmetic of the odds charts (no DOM, tested by Node).
//
// Owns: reading the engine's exact fractions („13/400“) as numbers and comparing them exactly
// (BigInt), linear scales, the geometry of a distribution's bars (numeric: by value, with gaps
// where values are missing; named outcomes: one row each) and of its mean, which axis labels
// fit without overlapping, picking the bar or point nearest to a pointer, the series of a
// „Was wäre wenn“ answer (x: the opponent's values, y: each chance) and the best cells of a
// „Vergleichen“ answer (the highest expected value per mean column).
// Every text shown comes from the engine: nothing here formats a probability.

// The coordinate systems of the two charts (viewBox units; the SVG scales to its box).
export const DIST_BOX = Object.freeze({ width: 400, height: 170, left: 8, right: 392, top: 24, bottom: 138, labels: 156 });
export const LINE_BOX = Object.freeze({ width: 400, height: 200, left: 40, right: 390, top: 12, bottom: 160, labels: 178 });
// a named outcome's row: its label above a bar
export const ROW = Object.freeze({ height: 34, label: 13, bar: 14, top: 4, left: 4, right: 396 });
// the width (viewBox units) one character of an axis label needs at the chart's font size
export const CHAR_WIDTH = 7.5;

// The engine writes its fractions as German readers do (engine/formatting.py fraction_text):
// „247/3.200“ (a point between thousands), „−1/3“ (a minus sign); read as plain digits.
const FRACTION = /^\s*(-?\d+)(?:\s*\/\s*(\d+))?\s*$/;

function plain(text) {
  return String(text).replace(/\./g, "").replace(/\u2212/g, "-");
}

// „3/8“, „1“, „0“, „−1/2“, „1.833/3.200“ → its value as a number (NaN for anything else)
export function fractionValue(text) {
  const match = FRACTION.exec(plain(text));
  if (!match) return Number.NaN;
  const denominator = match[2] === undefined ? 1 : Number(match[2]);
  return denominator === 0 ? Number.NaN : Number(match[1]) / denominator;
}

// [numerator, denominator] as BigInt, or null
function exact(text) {
  const match = FRACTION.exec(plain(text));
  if (!match) return null;
  const denominator = BigInt(match[2] === undefined ? 1 : match[2]);
  return denominator === 0n ? null : [BigInt(match[1]), denominator];
}

// < 0, 0, > 0 as a < b, a = b, a > b – exact for the engine's fractions of any size
export function compareFractions(a, b) {
  const x = exact(a);
  const y = exact(b);
  if (!x || !y) return fractionValue(a) - fractionValue(b);
  const left = x[0] * y[1];
  const right = y[0] * x[1];
  return left < right ? -1 : left > right ? 1 : 0;
}

// A linear map from [d0, d1] onto [r0, r1]; a domain of one point maps to the range's middle.
export function linearScale(d0, d1, r0, r1) {
  if (d1 === d0) return () => (r0 + r1) / 2;
  const k = (r1 - r0) / (d1 - d0);
  return (value) => r0 + (value - d0) * k;
}

// Every step-th label (step ≥ 1) so that labels of `chars` characters, `spacing` units apart,
// do not touch.
export function labelStep(spacing, chars, charWidth = CHAR_WIDTH) {
  const needed = chars * charWidth + 6;
  if (!(spacing > 0)) return 1;
  return Math.max(1, Math.ceil(needed / spacing));
}

// The bars of a numeric distribution section in DIST_BOX: {bars: [{x, y, width, height, center,
// index}], mean: {x} | null, labels: [{x, text}], unit}. Values sit on one scale (a missing
// value leaves a gap); the tallest bar fills the height.
export function numericGeometry(section, box = DIST_BOX) {
  const bars = Array.isArray(section.bars) ? section.bars : [];
  if (!bars.length) return { bars: [], mean: null, labels: [], unit: 0 };
  const values = bars.map((bar) => Number(bar.value));
  // a bar of a wide distribution is a range of values: `value` … `to` (the engine's `width`)
  const ends = bars.map((bar, index) => (bar.to === undefined ? values[index] : Number(bar.to)));
  const span = Number(section.width) > 1 ? Number(section.width) : 1;
  const low = Math.min(...values);
  const high = Math.max(...ends);
  const x = linearScale(low - 0.5, high + 0.5, box.left, box.right);
  const unit = ((box.right - box.left) / (high - low + 1)) * span;
  const chances = bars.map((bar) => fractionValue(bar.fraction));
  const top = Math.max(...chances.filter((p) => p > 0), 0);
  const y = linearScale(0, top || 1, box.bottom, box.top);
  const width = Math.max(unit * 0.8, Math.min(unit, 0.6));
  const out = bars.map((bar, index) => {
    const center = x((values[index] + values[index] + span - 1) / 2);
    const barTop = chances[index] > 0 ? Math.min(y(chances[index]), box.bottom - 0.75) : box.bottom;
    return { index, center, x: center - width / 2, width, y: barTop, height: box.bottom - barTop, bottom: box.bottom };
  });
  let mean = null;
  const meanValue = section.mean ? fractionValue(section.mean.fraction) : Number.NaN;
  if (Number.isFinite(meanValue)) mean = { x: Math.min(box.right, Math.max(box.left, x(meanValue))) };
  const longest = Math.max(...bars.map((bar) => String(bar.label).length));
  const step = labelStep(unit, longest);
  const labels = [];
  for (let i = 0; i < bars.length; i += step) labels.push({ x: out[i].center, text: String(bars[i].label), index: i });
  const last = bars.length - 1;
  if (labels[labels.length - 1].index !== last && out[last].center - labels[labels.length - 1].x >= longest * CHAR_WIDTH + 6) {
    labels.push({ x: out[last].center, text: String(bars[last].label), index: last });
  }
  return { bars: out, mean, labels, unit };
}

// Named outcomes: one row each (label above, bar below), bar length by chance against the
// largest. → {height, rows: [{y, labelY, width, center}]}
export function categoricalGeometry(section, row = ROW) {
  const bars = Array.isArray(section.bars) ? section.bars : [];
  const chances = bars.map((bar) => fractionValue(bar.fraction));
  const top = Math.max(...chances.filter((p) => p > 0), 0) || 1;
  const length = linearScale(0, top, 0, row.right - row.left);
  const rows = bars.map((bar, index) => {
    const y = row.top + index * row.height + row.label + 4;
    const width = chances[index] > 0 ? Math.max(1, length(chances[index])) : 0;
    return { index, y, labelY: y - 4, width, height: row.bar, center: y + row.bar / 2 };
  });
  return { height: row.top + bars.length * row.height + 4, rows };
}

// The index of the position in `positions` (sorted ascending) nearest to `at`; -1 when empty.
// Ties go to the lower one.
export function nearestIndex(positions, at) {
  if (!positions.length) return -1;
  let lo = 0;
  let hi = positions.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (positions[mid] < at) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0 && at - positions[lo - 1] <= positions[lo] - at) return lo - 1;
  return lo;
}

// The next index for a key on a focused chart: arrows step, Home/End jump, PageUp/PageDown
// step by a tenth; null for other keys.
export function stepIndex(index, count, key) {
  if (count <= 0) return null;
  const page = Math.max(1, Math.round(count / 10));
  const moves = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1, PageUp: page, PageDown: -page };
  let next;
  if (key === "Home") next = 0;
  else if (key === "End") next = count - 1;
  else if (Object.hasOwn(moves, key)) next = (index < 0 ? 0 : index + moves[key]);
  else return null;
  return Math.min(count - 1, Math.max(0, next));
}

// A „Was wäre wenn“ answer as lines: x the field's values, one series per chance column (per
// mean column when it has no chance): {xs, labels, current, percent, series: [{column, label,
// points: [{value, y, text} | null]}], yMax}. A cell the engine left empty (null) is a gap.
export function whatIfSeries(answer) {
  const rows = Array.isArray(answer && answer.rows) ? answer.rows : [];
  const columns = Array.isArray(answer && answer.columns) ? answer.columns : [];
  const chance = columns.map((c, i) => [c, i]).filter(([c]) => c.kind === "chance");
  const percent = chance.length > 0;
  const chosen = percent ? chance : columns.map((c, i) => [c, i]).filter(([c]) => c.kind === "mean");
  const series = chosen.map(([column, i]) => ({
    column: i,
    label: column.label,
    points: rows.map((row) => {
      const cell = row.cells ? row.cells[i] : null;
      if (!cell) return null;
      const y = fractionValue(cell.fraction);
      return Number.isFinite(y) ? { value: Number(row.value), y, text: cell.text } : null;
    }),
  }));
  const ys = series.flatMap((s) => s.points.filter(Boolean).map((p) => p.y));
  const yMax = percent ? 1 : Math.max(0, ...ys) || 1;
  const yMin = percent ? 0 : Math.min(0, ...ys);
  return {
    xs: rows.map((row) => Number(row.value)),
    labels: rows.map((row) => String(row.label)),
    current: rows.findIndex((row) => row.current),
    percent,
    series,
    yMax,
    yMin,
  };
}

// Positions of the what-if chart in LINE_BOX: {x(value), y(number), xs: [positions]}.
export function lineGeometry(lines, box = LINE_BOX) {
  const low = lines.xs.length ? Math.min(...lines.xs) : 0;
  const high = lines.xs.length ? Math.max(...lines.xs) : 0;
  const x = linearScale(low, high, box.left + 6, box.right - 6);
  const y = linearScale(lines.yMin, lines.yMax, box.bottom, box.top);
  return { x, y, xs: lines.xs.map(x) };
}

// The best cells of a „Vergleichen“ answer: for each mean column, the rows with the highest
// expected value ("row:column" keys) – none where every row has the same (nothing stands out).
export function bestCells(answer) {
  const best = new Set();
  const rows = Array.isArray(answer && answer.rows) ? answer.rows : [];
  const columns = Array.isArray(answer && answer.columns) ? answer.columns : [];
  columns.forEach((column, c) => {
    if (column.kind !== "mean") return;
    const cells = rows.map((row, r) => [r, row.cells ? row.cells[c] : null]).filter(([, cell]) => cell);
    if (cells.length < 2) return;
    let top = cells[0][1].fraction;
    for (const [, cell] of cells) if (compareFractions(cell.fraction, top) > 0) top = cell.fraction;
    const winners = cells.filter(([, cell]) => compareFractions(cell.fraction, top) === 0);
    if (winners.length === cells.length) return;
    for (const [r] of winners) best.add(`${r}:${c}`);
  });
  return best;
}

// The readout of one bar, from the engine's texts only.
export function barReadout(bar, numeric) {
  if (!numeric) return `${bar.label}: ${bar.percent} (${bar.fraction})`;
  if (bar.to !== undefined) {
    return (
      `${bar.label}: ${bar.percent} (${bar.fraction}) · ` +
      `mindestens ${bar.from_label}: ${bar.at_least_percent} (${bar.at_least}) · ` +
      `höchstens ${bar.to_label}: ${bar.at_most_percent} (${bar.at_most})`
    );
  }
  return (
    `genau ${bar.label}: ${bar.percent} (${bar.fraction}) · ` +
    `mindestens ${bar.label}: ${bar.at_least_percent} (${bar.at_least}) · ` +
    `höchstens ${bar.label}: ${bar.at_most_percent} (${bar.at_most})`
  );
}

// The readout of one value of a „Was wäre wenn“ answer: every column's cell.
export function rowReadout(answer, index) {
  const row = answer.rows[index];
  if (!row) return "";
  const cells = answer.columns
    .map((column, i) => (row.cells[i] ? `${column.label} ${row.cells[i].text}` : null))
    .filter(Boolean);
  return `${answer.label} ${row.label}${row.current ? " (jetzt)" : ""}: ${cells.join(" · ")}`;
}
