// Covers chart-scale.js, the pure arithmetic of the odds charts (issue #44 „See the odds“): the
// engine's fractions read and compared exactly, scales, the bars of a distribution (by value,
// gaps kept, the mean on the same scale), labels that do not overlap, the bar nearest to a
// pointer and the keys that step through them, the lines of a „Was wäre wenn“ answer and the
// best cells of a „Vergleichen“ answer. The engine's side (what the sections and answers hold)
// is tests/engine/test_odds.py; the drawing itself is tests/browser/test_odds.py.

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  DIST_BOX,
  LINE_BOX,
  barReadout,
  bestCells,
  categoricalGeometry,
  compareFractions,
  fractionValue,
  labelStep,
  lineGeometry,
  linearScale,
  nearestIndex,
  numericGeometry,
  rowReadout,
  stepIndex,
  whatIfSeries,
} from "../../site_plugins/assets/js/helpers/chart-scale.js";

const bar = (value, fraction) => ({ value, label: String(value), fraction, percent: "", at_least: "", at_least_percent: "", at_most: "", at_most_percent: "" });

test("chart-scale.js: fractions as the engine writes them („3/8“, „1“, „0“) are read; anything else is NaN", () => {
  assert.equal(fractionValue("3/8"), 0.375);
  assert.equal(fractionValue("1"), 1);
  assert.equal(fractionValue("0"), 0);
  assert.equal(fractionValue("-1/2"), -0.5);
  // as engine/formatting.py fraction_text writes them: thousands with a point, a real minus sign
  assert.equal(fractionValue("1.833/3.200"), 1833 / 3200);
  assert.equal(fractionValue("\u22121/3"), -1 / 3);
  assert.equal(fractionValue("1.000"), 1000);
  for (const bad of ["", "x", "1/0", "1/2/3", null]) assert.ok(Number.isNaN(fractionValue(bad)), String(bad));
});

test("chart-scale.js: compareFractions is exact where floating point is not", () => {
  assert.equal(compareFractions("1/3", "2/6"), 0);
  assert.ok(compareFractions("13/20", "3/5") > 0);
  assert.ok(compareFractions("0", "1/400") < 0);
  assert.equal(compareFractions("1.833/3.200", "3.666/6.400"), 0);
  assert.ok(compareFractions("\u22121/3", "0") < 0);
  // 10^20 + 1 over 10^20 against 1: equal as doubles, not as fractions
  assert.ok(compareFractions("100000000000000000001/100000000000000000000", "1") > 0);
});

test("chart-scale.js: linearScale maps the domain's ends onto the range's (inverted too); a one-point domain goes to the middle", () => {
  const y = linearScale(0, 1, 100, 0);
  assert.equal(y(0), 100);
  assert.equal(y(1), 0);
  assert.equal(y(0.25), 75);
  assert.equal(linearScale(5, 5, 0, 10)(5), 5);
});

test("chart-scale.js: numericGeometry puts each bar at its value (a missing value is a gap), the tallest fills the height, the mean on the same scale", () => {
  const section = { numeric: true, bars: [bar(2, "1/4"), bar(3, "1/2"), bar(5, "1/4")], mean: { fraction: "13/4", text: "3,25" } };
  const g = numericGeometry(section, DIST_BOX);
  assert.equal(g.bars.length, 3);
  const unit = (DIST_BOX.right - DIST_BOX.left) / 4; // values 2..5
  assert.ok(Math.abs(g.unit - unit) < 1e-9);
  assert.ok(Math.abs(g.bars[0].center - (DIST_BOX.left + unit / 2)) < 1e-9);
  assert.ok(Math.abs(g.bars[2].center - g.bars[1].center - 2 * unit) < 1e-9, "value 4 is left out: a gap of one bar");
  assert.equal(g.bars[1].y, DIST_BOX.top);
  assert.equal(g.bars[1].height, DIST_BOX.bottom - DIST_BOX.top);
  assert.ok(Math.abs(g.bars[0].height - g.bars[1].height / 2) < 1e-9);
  assert.ok(Math.abs(g.mean.x - (DIST_BOX.left + 1.75 * unit)) < 1e-9, "3,25 lies a quarter past the centre of 3");
  for (const b of g.bars) assert.ok(b.x >= DIST_BOX.left - 1e-9 && b.x + b.width <= DIST_BOX.right + 1e-9);
});

test("chart-scale.js: a bar of chance 0 has no height, a tiny one stays visible, 400 bars fit the box", () => {
  const g = numericGeometry({ numeric: true, bars: [bar(1, "0"), bar(2, "1/1000000"), bar(3, "999999/1000000")] });
  assert.equal(g.bars[0].height, 0);
  assert.ok(g.bars[1].height >= 0.75);
  const many = Array.from({ length: 400 }, (_, i) => bar(i, "1/400"));
  const wide = numericGeometry({ numeric: true, bars: many });
  assert.ok(wide.bars[399].x + wide.bars[399].width <= DIST_BOX.right + 1e-9);
  assert.ok(wide.labels.length < 40, "labels are thinned out");
  for (let i = 1; i < wide.labels.length; i++) assert.ok(wide.labels[i].x - wide.labels[i - 1].x >= 3 * 7.5, "labels do not touch");
});

test("chart-scale.js: a wide distribution in ranges – each bar spans its values, side by side, the readout names both ends", () => {
  // engine/display.py numeric_bars: more than 400 values are drawn in equal ranges (`width`)
  const ranged = (from, to, fraction) => ({ ...bar(from, fraction), to, label: `${from}–${to}`, from_label: String(from), to_label: String(to) });
  const section = { numeric: true, width: 5, bars: [ranged(10, 14, "1/4"), ranged(15, 19, "1/2"), ranged(20, 22, "1/4")] };
  const g = numericGeometry(section, DIST_BOX);
  const unit = (DIST_BOX.right - DIST_BOX.left) / 13; // values 10..22
  assert.ok(Math.abs(g.unit - 5 * unit) < 1e-9, "one bar's room is five values");
  assert.ok(Math.abs(g.bars[1].center - g.bars[0].center - 5 * unit) < 1e-9);
  assert.ok(Math.abs(g.bars[0].center - (DIST_BOX.left + 2.5 * unit)) < 1e-9, "centred on 12, the middle of 10–14");
  for (let i = 1; i < g.bars.length; i++) assert.ok(g.bars[i].x >= g.bars[i - 1].x + g.bars[i - 1].width - 1e-9, "no overlap");
  const text = barReadout({ ...section.bars[1], percent: "50,0 %", at_least: "3/4", at_least_percent: "75,0 %", at_most: "3/4", at_most_percent: "75,0 %" }, true);
  assert.equal(text, "15–19: 50,0 % (1/2) · mindestens 15: 75,0 % (3/4) · höchstens 19: 75,0 % (3/4)");
});

test("chart-scale.js: labelStep keeps labels apart; at least every label", () => {
  assert.equal(labelStep(100, 2), 1);
  assert.equal(labelStep(10, 2), 3); // 2 × 7,5 + 6 = 21 units needed
  assert.equal(labelStep(0, 2), 1);
});

test("chart-scale.js: categoricalGeometry gives each named outcome a row, bars by chance against the largest", () => {
  const g = categoricalGeometry({ numeric: false, bars: [{ label: "A", fraction: "1/2" }, { label: "B", fraction: "1/4" }, { label: "C", fraction: "0" }] });
  assert.equal(g.rows.length, 3);
  assert.ok(g.rows[1].y > g.rows[0].y);
  assert.ok(Math.abs(g.rows[1].width - g.rows[0].width / 2) < 1e-9);
  assert.equal(g.rows[2].width, 0);
  assert.ok(g.height > g.rows[2].y + g.rows[2].height);
});

test("chart-scale.js: nearestIndex picks the nearest position (ties to the lower), clamps outside, -1 for none", () => {
  const xs = [10, 20, 30, 40];
  assert.equal(nearestIndex(xs, 21), 1);
  assert.equal(nearestIndex(xs, 26), 2);
  assert.equal(nearestIndex(xs, 25), 1);
  assert.equal(nearestIndex(xs, -100), 0);
  assert.equal(nearestIndex(xs, 1000), 3);
  assert.equal(nearestIndex([], 5), -1);
  assert.equal(nearestIndex([7], 5), 0);
});

test("chart-scale.js: stepIndex – arrows step, Home/End jump, PageUp/PageDown a tenth, clamped; other keys null", () => {
  assert.equal(stepIndex(-1, 5, "ArrowRight"), 0, "the first key on a fresh chart picks the first bar");
  assert.equal(stepIndex(0, 5, "ArrowRight"), 1);
  assert.equal(stepIndex(0, 5, "ArrowLeft"), 0);
  assert.equal(stepIndex(4, 5, "ArrowUp"), 4);
  assert.equal(stepIndex(2, 5, "Home"), 0);
  assert.equal(stepIndex(2, 5, "End"), 4);
  assert.equal(stepIndex(0, 100, "PageUp"), 10);
  assert.equal(stepIndex(3, 5, "Enter"), null);
  assert.equal(stepIndex(0, 0, "ArrowRight"), null);
});

const answer = {
  label: "RK des Ziels",
  columns: [
    { key: "a", label: "Treffer", kind: "chance" },
    { key: "b", label: "Kritisch", kind: "chance" },
    { key: "m", label: "Erwarteter Schaden", kind: "mean" },
  ],
  rows: [
    { value: 14, label: "14", current: false, cells: [{ fraction: "7/10", text: "70,0 %" }, { fraction: "7/200", text: "3,5 %" }, { fraction: "91/20", text: "4,55" }] },
    { value: 15, label: "15", current: true, cells: [{ fraction: "13/20", text: "65,0 %" }, null, { fraction: "169/40", text: "4,23" }] },
    { value: 16, label: "16", current: false, cells: [{ fraction: "3/5", text: "60,0 %" }, { fraction: "3/100", text: "3,0 %" }, { fraction: "39/10", text: "3,9" }] },
  ],
};

test("chart-scale.js: whatIfSeries makes a line per chance column over the values, marks the current value, leaves an empty cell as a gap", () => {
  const lines = whatIfSeries(answer);
  assert.deepEqual(lines.xs, [14, 15, 16]);
  assert.equal(lines.current, 1);
  assert.equal(lines.percent, true);
  assert.equal(lines.yMax, 1);
  assert.deepEqual(lines.series.map((s) => s.label), ["Treffer", "Kritisch"], "expected values are not on the chance axis");
  assert.equal(lines.series[0].points[1].y, 0.65);
  assert.equal(lines.series[0].points[1].text, "65,0 %");
  assert.equal(lines.series[1].points[1], null);
});

test("chart-scale.js: whatIfSeries without chances draws the expected values, scaled to the largest", () => {
  const means = { ...answer, columns: [answer.columns[2]], rows: answer.rows.map((r) => ({ ...r, cells: [r.cells[2]] })) };
  const lines = whatIfSeries(means);
  assert.equal(lines.percent, false);
  assert.equal(lines.series.length, 1);
  assert.equal(lines.yMax, 4.55);
  const g = lineGeometry(lines, LINE_BOX);
  assert.ok(Math.abs(g.y(4.55) - LINE_BOX.top) < 1e-9);
  assert.ok(g.xs[0] < g.xs[1] && g.xs[1] < g.xs[2]);
  assert.deepEqual(whatIfSeries({}).series, []);
});

test("chart-scale.js: bestCells emphasises the highest expected value per mean column (ties all, none when every row is alike, chances never)", () => {
  assert.deepEqual([...bestCells(answer)], ["0:2"]);
  const tied = { ...answer, rows: answer.rows.map((r, i) => ({ ...r, cells: [r.cells[0], r.cells[1], { fraction: i === 2 ? "1" : "2", text: "" }] })) };
  assert.deepEqual([...bestCells(tied)].sort(), ["0:2", "1:2"]);
  const alike = { ...answer, rows: answer.rows.map((r) => ({ ...r, cells: [r.cells[0], r.cells[1], { fraction: "2", text: "2" }] })) };
  assert.equal(bestCells(alike).size, 0);
  assert.equal(bestCells({}).size, 0);
});

test("chart-scale.js: the readouts say the engine's texts: „genau“, „mindestens“, „höchstens“ of a bar; every column of a value", () => {
  const b = { label: "7", fraction: "1/8", percent: "12,5 %", at_least: "3/8", at_least_percent: "37,5 %", at_most: "3/4", at_most_percent: "75,0 %" };
  assert.equal(barReadout(b, true), "genau 7: 12,5 % (1/8) · mindestens 7: 37,5 % (3/8) · höchstens 7: 75,0 % (3/4)");
  assert.equal(barReadout({ label: "Platz 1", fraction: "1/2", percent: "50,0 %" }, false), "Platz 1: 50,0 % (1/2)");
  assert.equal(rowReadout(answer, 1), "RK des Ziels 15 (jetzt): Treffer 65,0 % · Erwarteter Schaden 4,23");
  assert.equal(rowReadout(answer, 9), "");
});
