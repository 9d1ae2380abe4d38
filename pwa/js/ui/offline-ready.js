// "Ready offline" in the top bar (issue 36). A first visit downloads the offline referee (Pyodide,
// the rules, the whole app: ~3.2 MB, ~20 s on a slow phone network); until the service worker holds
// all of it a table cannot play on without signal. While it arrives the bar shows how far
// (the service worker posts {type: "precache", done, total}, sw.js); once the worker is active
// — it activates only with every file kept — the mark says the phone is ready. A phone already
// controlled by the worker (a repeat visit) shows the mark at once. Without service workers
// (plain HTTP on a network) nothing is shown: nothing will arrive.
import { h } from "../dom.js";
import { t, percent, onLanguageChange } from "../i18n.js";

/** @type {{shown: boolean, ready: boolean, done: number, total: number}} */
const state = { shown: false, ready: false, done: 0, total: 0 };
/** @type {{bar: HTMLElement, text: HTMLElement, fill: HTMLElement, mark: HTMLElement, markText: HTMLElement} | null} */
let parts = null;

/** @param {HTMLElement} host @returns {NonNullable<typeof parts>} */
function build(host) {
  const text = h("span", { class: "offline-progress-text" });
  const fill = h("span", { class: "offline-progress-fill" });
  const bar = h(
    "div",
    { class: "offline-progress", role: "progressbar", testid: "offline-progress", "aria-valuemin": "0", "aria-valuemax": "100" },
    text,
    h("span", { class: "offline-progress-track", "aria-hidden": "true" }, fill),
  );
  const markText = h("span", { class: "offline-mark-text" });
  const mark = h("span", { class: "offline-mark", role: "status", testid: "offline-ready-mark" }, h("span", { class: "offline-mark-icon", "aria-hidden": "true", text: "✓" }), markText);
  host.append(bar, mark);
  return { bar, text, fill, mark, markText };
}

/** @returns {void} */
function draw() {
  const host = document.getElementById("offline-ready");
  if (!host) return;
  host.hidden = !state.shown;
  if (!state.shown) return;
  parts ??= build(host);
  const fraction = state.ready ? 1 : state.total > 0 ? Math.min(state.done / state.total, 1) : 0;
  const shown = percent(fraction);
  parts.bar.hidden = state.ready;
  parts.bar.setAttribute("aria-label", t("offline_ready.arriving_label"));
  parts.bar.setAttribute("aria-valuenow", String(Math.floor(fraction * 100)));
  parts.bar.setAttribute("aria-valuetext", shown);
  parts.text.textContent = t("offline_ready.arriving", { percent: shown });
  parts.fill.style.width = `${(fraction * 100).toFixed(1)}%`;
  parts.mark.hidden = !state.ready;
  parts.markText.textContent = t("offline_ready.ready");
  parts.mark.title = t("offline_ready.ready_title");
  parts.mark.setAttribute("aria-label", t("offline_ready.ready_title"));
}

/**
 * Follows the service worker's precache from the page's start: `registering` is the promise of
 * `navigator.serviceWorker.register` (a failure hides the bar).
 * @param {Promise<unknown>} registering
 * @returns {void}
 */
export function initOfflineReady(registering) {
  if (!("serviceWorker" in navigator)) return;
  const container = navigator.serviceWorker;
  state.shown = true;
  state.ready = !!container.controller;
  container.addEventListener("message", ({ data }) => {
    if (state.ready || !data || data.type !== "precache") return;
    state.done = Math.max(state.done, Number(data.done) || 0);
    state.total = Number(data.total) || 0;
    draw();
  });
  container.startMessages();
  container.ready.then(() => {
    state.ready = true;
    draw();
  });
  registering.catch(() => {
    state.shown = state.ready;
    draw();
  });
  onLanguageChange(draw);
  draw();
}

/**
 * True once this phone holds everything it needs to play on offline.
 * @returns {boolean}
 */
export function offlineReady() {
  return state.ready;
}
