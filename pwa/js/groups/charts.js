// Charts where players would rather look than read, drawn by uPlot (npm, pinned, served by our own
// app from /vendor/). Every chart comes with its numbers as a table (the accessible reading, and the
// one a screen reader gets): the chart itself is one labelled image.
import { h, present } from "../dom.js";
import { number, t } from "../i18n.js";

/** @typedef {typeof import("/vendor/uplot/uPlot.esm.js")} UPlot */
/** @typedef {import("/vendor/uplot/uPlot.esm.js").Options} PlotOptions */
/** One line or one colour of bars: a value (or none) per label. @typedef {{label: string, values: (number | null)[]}} Series */
/**
 * A chart: its title, lines or bars, the x positions' names, the series, its test id and the x axis's name.
 * @typedef {{title: string, kind: "lines" | "bars", labels: (string | number)[], series: Series[], testid: string, xLabel?: string}} ChartSpec
 */

const FONT = "12px system-ui, -apple-system, sans-serif";
/**
 * How wide `text` is drawn in the axes' font (px).
 * @param {string} text
 * @returns {number}
 */
function textWidth(text) {
  const ctx = document.createElement("canvas").getContext("2d");
  if (!ctx) return String(text).length * 7;
  ctx.font = FONT;
  return ctx.measureText(String(text)).width;
}

/**
 * The x axis at any width (issue 33): every label upright when they fit side by side; else slanted,
 * with only every k-th label where even slanted ones would touch — never two over each other, and
 * the first and last inside the chart (the x range has half a step of room on both sides).
 * @param {string[]} labels
 * @param {number} plotWidth
 * @returns {{rotate: number, every: number, size: number}}
 */
export function xAxisLayout(labels, plotWidth) {
  const n = Math.max(1, labels.length);
  const step = plotWidth / n;
  const widest = Math.max(0, ...labels.map(textWidth));
  if (widest + 8 <= step) return { rotate: 0, every: 1, size: 30 };
  const lineHeight = 16;
  const every = Math.max(1, Math.ceil((lineHeight * 1.5) / step));
  return { rotate: -50, every, size: Math.min(130, Math.ceil(widest * Math.sin((50 * Math.PI) / 180) + 18)) };
}

const COLOURS = ["#0e5a6b", "#c0392b", "#d4a017", "#2e7d32", "#6a1b9a", "#1d3f9a", "#ef6c00", "#455a64"];
/** @type {Promise<UPlot> | null} */
let library = null;

/**
 * uPlot and its stylesheet, loaded the first time a chart is drawn.
 * @returns {Promise<UPlot>}
 */
async function uPlot() {
  if (!library) {
    if (!document.querySelector("link[data-uplot]")) {
      document.head.append(h("link", { rel: "stylesheet", href: "/vendor/uplot/uPlot.min.css", "data-uplot": "" }));
    }
    library = import("/vendor/uplot/uPlot.esm.js").then((module) => module.default);
  }
  return library;
}

/**
 * chart({title, kind: "lines" | "bars", labels, series: [{label, values}], testid, xLabel})
 * → <figure> holding the chart (drawn as soon as uPlot is there) and its data table.
 * labels: the x positions' names (players, rounds, dates); series: one value per label each.
 * @param {ChartSpec} spec
 * @returns {HTMLElement}
 */
export function chart({ title, kind, labels, series, testid, xLabel = "" }) {
  const plot = h("div", { class: "chart-plot", role: "img", "aria-label": title, testid: `${testid}-plot` });
  const table = h(
    "table",
    { class: "chart-table", testid: `${testid}-table` },
    h("caption", {}, title),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, xLabel), ...series.map((s) => h("th", { scope: "col" }, s.label)))),
    h(
      "tbody",
      {},
      labels.map((label, i) =>
        h("tr", {}, h("th", { scope: "row" }, String(label)), ...series.map((s) => cell(s.values[i]))),
      ),
    ),
  );
  const figure = h(
    "figure",
    { class: "chart", testid, "data-kind": kind },
    h("figcaption", { class: "section-title" }, title),
    plot,
    h("details", { class: "chart-data" }, h("summary", {}, t("group.chart_data")), table),
  );
  draw(plot, figure, { kind, labels, series, xLabel }).catch((err) => {
    console.warn("chart", err);
    plot.hidden = true; // the table still tells everything
    present(figure.querySelector("details"), "the chart's data").open = true;
  });
  return figure;
}

/**
 * `text` cut to at most `most` characters as people count them (graphemes: an emoji sequence or a
 * letter with its marks is one), with an ellipsis when cut.
 * @param {string} text
 * @param {number} most
 * @returns {string}
 */
export function shorten(text, most) {
  const parts = [...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text)].map((s) => s.segment);
  return parts.length <= Math.max(most, 2) ? text : `${parts.slice(0, Math.max(most, 2) - 1).join("")}…`;
}

/**
 * A value in the data table: "–" for none.
 * @param {number | null} value
 * @returns {HTMLTableCellElement}
 */
function cell(value) {
  return h("td", {}, value === null || !Number.isFinite(value) ? "–" : number(value));
}

/**
 * Draw the chart into `plot` once uPlot is there and the figure is laid out.
 * @param {HTMLElement} plot
 * @param {HTMLElement} figure
 * @param {Required<Omit<ChartSpec, "title" | "testid">>} spec
 * @returns {Promise<void>}
 */
async function draw(plot, figure, { kind, labels, series, xLabel }) {
  const U = await uPlot();
  await new Promise((resolve) => requestAnimationFrame(resolve)); // laid out: the width is known
  const width = Math.max(260, Math.min(plot.clientWidth || figure.clientWidth || 320, 640));
  const xs = labels.map((_, i) => i);
  const bars = kind === "bars" ? present(U.paths.bars, "uPlot's bars")({ size: [0.7 / Math.max(1, series.length), 60], align: 0 }) : undefined;
  // Canvas text does not wrap: a long name is cut (the data table has it whole), then laid out.
  const names = labels.map((label) => shorten(String(label), 14));
  const yWidth = Math.ceil(Math.max(28, ...series.flatMap((s) => s.values).filter((v) => v !== null).map((v) => textWidth(number(v)))) + 14);
  const x = xAxisLayout(names, width - yWidth - 8);
  plot.dataset.xEvery = String(x.every);
  plot.dataset.xRotate = String(x.rotate);
  /** @type {PlotOptions} */
  const options = {
    width,
    height: 200 + Math.max(0, x.size - 30),
    legend: { show: series.length > 1, live: false },
    cursor: { show: false },
    // Half a step of room left and right: the first and last labels are never cut.
    scales: {
      x: { time: false, range: [-0.6, labels.length - 0.4] },
      // Axes from zero (issue 33): a bar of 1 is not drawn as nothing.
      y: { range: (_u, _min, max) => [0, Math.max(1, Math.ceil((max || 0) * 1.1))] },
    },
    axes: [
      {
        splits: () => xs.filter((i) => i % x.every === 0),
        values: (_u, splits) => splits.map((v) => (Number.isInteger(v) && names[v] !== undefined ? names[v] : "")),
        rotate: x.rotate,
        gap: 4,
        size: x.size,
        font: FONT,
      },
      // Counts and scores are whole numbers: no ticks between them, written the phone's way.
      { size: yWidth, font: FONT, incrs: [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000], values: (_u, splits) => splits.map((v) => number(v)) },
    ],
    series: [
      { label: xLabel },
      ...series.map((s, i) => ({
        label: s.label,
        stroke: COLOURS[i % COLOURS.length],
        fill: kind === "bars" ? `${COLOURS[i % COLOURS.length]}cc` : undefined,
        width: 2,
        paths: bars,
        points: { show: kind !== "bars" && labels.length < 40 },
      })),
    ],
  };
  const data = /** @type {import("/vendor/uplot/uPlot.esm.js").AlignedData} */ ([xs, ...series.map((s) => s.values)]);
  new U(options, data, plot);
  plot.dataset.drawn = "true";
}
