// Charts where players would rather look than read, drawn by uPlot (npm, pinned, served by our own
// app from /vendor/). Every chart comes with its numbers as a table (the accessible reading, and the
// one a screen reader gets): the chart itself is one labelled image.
import { h } from "../dom.js";
import { number, t } from "../i18n.js";

const COLOURS = ["#0e5a6b", "#c0392b", "#d4a017", "#2e7d32", "#6a1b9a", "#1d3f9a", "#ef6c00", "#455a64"];
let library = null;

/** uPlot and its stylesheet, loaded the first time a chart is drawn. */
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
        h("tr", {}, h("th", { scope: "row" }, String(label)), ...series.map((s) => h("td", {}, s.values[i] === null ? "–" : number(s.values[i])))),
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
    figure.querySelector("details").open = true;
  });
  return figure;
}

/**
 * `text` cut to at most `most` characters as people count them (graphemes: an emoji sequence or a
 * letter with its marks is one), with an ellipsis when cut.
 * @param {string} text
 * @param {number} most
 */
export function shorten(text, most) {
  const parts = [...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text)].map((s) => s.segment);
  return parts.length <= Math.max(most, 2) ? text : `${parts.slice(0, Math.max(most, 2) - 1).join("")}…`;
}

async function draw(plot, figure, { kind, labels, series, xLabel }) {
  const U = await uPlot();
  await new Promise((resolve) => requestAnimationFrame(resolve)); // laid out: the width is known
  const width = Math.max(260, Math.min(plot.clientWidth || figure.clientWidth || 320, 640));
  const xs = labels.map((_, i) => i);
  const bars = kind === "bars" ? U.paths.bars({ size: [0.7 / Math.max(1, series.length), 60], align: 0 }) : undefined;
  const options = {
    width,
    height: 200,
    legend: { show: series.length > 1, live: false },
    cursor: { show: false },
    scales: { x: { time: false, range: kind === "bars" ? [-0.6, labels.length - 0.4] : undefined } },
    axes: [
      {
        // Canvas text does not wrap: a long name is cut to its share of the width (the data table has it whole).
        values: (_u, splits) => splits.map((v) => (Number.isInteger(v) && labels[v] !== undefined ? shorten(String(labels[v]), Math.floor(width / labels.length / 9)) : "")),
        gap: 4,
        size: 36,
      },
      // Counts and scores are whole numbers: no ticks between them.
      { size: 44, incrs: [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000] },
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
  const data = [xs, ...series.map((s) => s.values)];
  new U(options, data, plot);
  plot.dataset.drawn = "true";
}
