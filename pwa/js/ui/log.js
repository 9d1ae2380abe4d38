// The move log of a table, on the table page (issue 26): every entry in words (the game's own
// describe.js, as the toasts say it), who recorded it (this phone or another: the server's log does
// not say which phone or seat sent an entry) and when (local time), undo entries with what they took
// back — and a replay that steps through the game: the table after entry k, drawn read-only by the
// game (`game.replayState`). From the phone's own store and referee (session.history()), so it
// works offline for a table already on the phone; a table whose dice or cards the server draws is
// replayed by the server (GET …/replay), so its log needs the network.
import { h, s, present } from "../dom.js";
import { t, locale } from "../i18n.js";


/** @typedef {import("../games/registry.js").GameClient} GameClient */
/** A game's client with its replay: the table read-only at a step of the log. @typedef {GameClient & {replayState?: (table: any) => Node | (Node | null)[] | null}} ReplayGame */
/** @typedef {import("kibitz-api").components["schemas"]["LoggedEvent"]} LoggedEvent */
/**
 * One entry of the log as the session tells it (sync/session.js history()).
 * @typedef {{seq: number, event: LoggedEvent, at: string | null, here: boolean, waiting: boolean, inEffect?: boolean, undid?: {seq: number, event: LoggedEvent | null}, undoneBy?: number}} LogEntry
 */
/** The entries, and the table before any entry (views[0]) and after each. @typedef {{entries: LogEntry[], views: any[]}} LogHistory */
/** What the log reads of the table's sync session. @typedef {{history: () => Promise<LogHistory | null>}} LogSession */
/**
 * The open log: its parts and where the replay stands.
 * @typedef {object} LogView
 * @property {LogSession} session
 * @property {GameClient} game
 * @property {() => void} onClose
 * @property {HTMLElement | null} opener what had the focus before (it gets it back)
 * @property {LogHistory | null} history
 * @property {string[]} texts
 * @property {number} step
 * @property {boolean} closed
 * @property {number} asked the newest ask for the history (the newest answer wins)
 * @property {LogParts} parts
 * @property {(event: KeyboardEvent) => unknown} onKey
 */
/**
 * @typedef {object} LogParts
 * @property {HTMLElement} backdrop
 * @property {HTMLElement} closeBtn
 * @property {HTMLElement} status
 * @property {HTMLElement} stateHost
 * @property {HTMLElement} list
 * @property {HTMLElement} body
 * @property {HTMLElement} replayPane
 * @property {HTMLElement} entriesPane
 * @property {HTMLInputElement} slider
 * @property {HTMLElement} controls
 * @property {{first: HTMLButtonElement, prev: HTMLButtonElement, next: HTMLButtonElement, last: HTMLButtonElement}} steps
 */

/**
 * A stored time as a Date, or null. The server's times are UTC; a database without time zones
 * (SQLite) answers them without one, which a browser would read as local time.
 * @param {string | null | undefined} iso
 * @returns {Date | null}
 */
function parseAt(iso) {
  if (!iso) return null;
  const zoned = /(Z|[+-]\d\d:?\d\d)$/i.test(iso) ? iso : `${iso}Z`;
  const date = new Date(zoned);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * "14:03:21" in the phone's own time zone, with the day in front when it was not today.
 * @param {Date | null} date
 * @returns {string}
 */
function when(date) {
  if (!date) return t("log.time_unknown");
  const today = new Date().toDateString() === date.toDateString();
  /** @type {Intl.DateTimeFormatOptions} */
  const options = today ? { hour: "2-digit", minute: "2-digit", second: "2-digit" } : { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" };
  return new Intl.DateTimeFormat(locale(), options).format(date);
}

/**
 * A step button's picture (its name is its aria-label).
 * @param {string[]} paths
 * @returns {SVGSVGElement}
 */
function icon(paths) {
  return s("svg", { class: "log-icon", viewBox: "0 0 24 24", width: 24, height: 24, "aria-hidden": "true", focusable: "false" }, ...paths.map((d) => s("path", { d })));
}

/**
 * What each entry did, in the game's words: texts[i] for entry i + 1.
 * @param {GameClient} game
 * @param {LogHistory} history
 * @returns {string[]}
 */
function describeAll(game, history) {
  const { entries, views } = history;
  /** @type {string[]} */
  const texts = [];
  entries.forEach((entry, index) => {
    if (entry.undid) {
      const what = texts[entry.undid.seq - 1] || "";
      texts.push(what ? t("log.undo", { n: entry.undid.seq, what }) : t("log.undo_plain", { n: entry.undid.seq }));
      return;
    }
    let text = "";
    try {
      text = game.describe(views[index], views[index + 1], entry.event);
    } catch (err) {
      console.warn("describe", err);
    }
    texts.push(text || t("log.entry_plain", { n: entry.seq }));
  });
  return texts;
}

/**
 * Open the log over the table screen. session: the table's sync session; game: its client.
 * Returns {close, refresh} (refresh: the log changed while open; it follows to the newest entry
 * when the replay showed the newest).
 * @param {{session: LogSession, game: GameClient, onClose?: () => void}} options
 * @returns {{close: () => void, refresh: () => Promise<void>, readonly closed: boolean}}
 */
export function openLog({ session, game, onClose = () => {} }) {
  const opener = /** @type {HTMLElement | null} */ (document.activeElement);
  const parts = buildParts(() => log); // its buttons act on the log once it is open
  /** @type {LogView} */
  const log = { session, game, onClose, opener, history: null, texts: [], step: 0, closed: false, asked: 0, parts, onKey: (event) => event.key === "Escape" && close(log) };
  document.addEventListener("keydown", log.onKey);
  document.body.append(log.parts.backdrop);
  log.parts.closeBtn.focus({ preventScroll: true });
  refresh(log);
  return { close: () => close(log), refresh: () => refresh(log), get closed() { return log.closed; } };
}

/**
 * The dialog: two panes, each scrolling by itself — the table at the step stays in sight while the
 * list follows the step (the replay pane takes the keyboard's focus to scroll: it holds no control).
 * @param {() => LogView} log
 * @returns {LogParts}
 */
function buildParts(log) {
  const titleId = `log-title-${Math.random().toString(36).slice(2)}`;
  const closeBtn = h("button", { type: "button", class: "btn btn-small btn-secondary", testid: "log-close", onclick: () => close(log()) }, t("common.close"));
  const status = h("p", { class: "log-step", testid: "replay-step", "aria-live": "polite" });
  const stateHost = h("div", { class: "log-state", testid: "replay-state" });
  const list = h("ol", { class: "log-list", testid: "log-list", "aria-label": t("log.entries") });
  const note = h("p", { class: "muted small log-note" }, t("log.who_note"));
  const body = h("div", { class: "log-scroll" }, h("p", { class: "muted loading" }, t("log.loading")));
  const replayPane = h("section", { class: "log-replay", "aria-label": t("log.replay"), tabindex: 0 }, status, stateHost);
  const entriesPane = h(
    "section",
    { class: "log-entries", "aria-labelledby": `${titleId}-entries` },
    h("h3", { class: "log-subtitle", id: `${titleId}-entries` }, t("log.entries")),
    note,
    list,
  );
  const { slider, controls, steps } = replayControls(log);
  const dialog = h(
    "div",
    { class: "log-view", role: "dialog", "aria-modal": "true", "aria-labelledby": titleId, testid: "log-view" },
    h("div", { class: "log-head" }, h("h2", { class: "log-title", id: titleId }, t("log.title")), closeBtn),
    body,
    controls,
  );
  const backdrop = h("div", { class: "log-backdrop" }, dialog);
  return { backdrop, closeBtn, status, stateHost, list, body, replayPane, entriesPane, slider, controls, steps };
}

/**
 * The replay's slider and its first / previous / next / last buttons (hidden until there is a log).
 * @param {() => LogView} log
 * @returns {{slider: HTMLInputElement, controls: HTMLElement, steps: LogParts["steps"]}}
 */
function replayControls(log) {
  const slider = h("input", { type: "range", class: "log-slider", testid: "replay-slider", min: 0, max: 0, step: 1, value: 0, "aria-label": t("log.slider") });
  slider.addEventListener("input", () => show(log(), Number(slider.value), { scroll: true }));
  /** @type {(testid: string, shapes: string[], label: string, to: () => number) => HTMLButtonElement} */
  const control = (testid, shapes, label, to) =>
    h("button", { type: "button", class: "btn btn-secondary log-btn", testid, "aria-label": label, title: label, onclick: () => show(log(), to(), { scroll: true }) }, icon(shapes));
  const left = "M17 5 L7 12 L17 19 Z";
  const right = "M7 5 L17 12 L7 19 Z";
  const first = control("replay-first", ["M5 5 H8 V19 H5 Z", "M19 5 L9 12 L19 19 Z"], t("log.first"), () => 0);
  const prev = control("replay-prev", [left], t("log.prev"), () => log().step - 1);
  const next = control("replay-next", [right], t("log.next"), () => log().step + 1);
  const last = control("replay-last", ["M5 5 L15 12 L5 19 Z", "M16 5 H19 V19 H16 Z"], t("log.last"), () => total(log()));
  const controls = h("div", { class: "log-controls", role: "group", "aria-label": t("log.replay") }, slider, h("div", { class: "log-buttons" }, first, prev, next, last));
  controls.hidden = true;
  return { slider, controls, steps: { first, prev, next, last } };
}

/** @param {LogView} log @returns {number} the entries in the log */
function total(log) {
  return log.history ? log.history.entries.length : 0;
}

/**
 * The replay at step k (the table after entry k), the list marking that entry.
 * @param {LogView} log
 * @param {number} k
 * @param {{scroll?: boolean}} [how] scroll: the list follows to the entry
 * @returns {void}
 */
function show(log, k, { scroll = false } = {}) {
  const history = log.history;
  if (!history) return;
  const { slider, status, stateHost, list, steps } = log.parts;
  const step = (log.step = Math.max(0, Math.min(total(log), k)));
  slider.value = String(step);
  slider.setAttribute("aria-valuetext", step ? t("log.step", { n: step, total: total(log) }) : t("log.start"));
  const heading = h("strong", {}, step ? t("log.step", { n: step, total: total(log) }) : t("log.start"));
  // At the start there is no entry's text (a null here would be drawn as the word "null").
  if (step) status.replaceChildren(heading, h("span", { class: "log-step-text", testid: "replay-step-text" }, log.texts[step - 1]));
  else status.replaceChildren(heading);
  status.dataset.step = String(step);
  steps.first.disabled = steps.prev.disabled = step === 0;
  steps.next.disabled = steps.last.disabled = step === total(log);
  try {
    const replayState = /** @type {ReplayGame} */ (log.game).replayState;
    stateHost.replaceChildren(...[replayState ? replayState(history.views[step]) : null].flat().filter((node) => node !== null));
  } catch (err) {
    console.warn("replay", err);
    stateHost.replaceChildren();
  }
  for (const item of /** @type {HTMLCollectionOf<HTMLElement>} */ (list.children)) {
    const current = Number(item.dataset.seq) === step;
    item.classList.toggle("is-current", current);
    const button = present(item.querySelector("button"), "an entry's button");
    if (current) button.setAttribute("aria-current", "step");
    else button.removeAttribute("aria-current");
    if (current && scroll) item.scrollIntoView({ block: "nearest" });
  }
}

/**
 * One entry of the list: what it did, who recorded it, when; waiting or undone.
 * @param {LogView} log
 * @param {LogEntry} entry
 * @param {number} index
 * @returns {HTMLLIElement}
 */
function entryItem(log, entry, index) {
  const who = entry.here ? t("log.by_here") : t("log.by_other");
  const at = parseAt(entry.at);
  const marks = [
    entry.waiting ? h("span", { class: "badge log-badge", testid: "log-waiting" }, t("log.waiting")) : null,
    entry.undoneBy ? h("span", { class: "badge log-badge log-undone", testid: "log-undone-by" }, t("log.undone_by", { n: entry.undoneBy })) : null,
  ];
  return h(
    "li",
    { class: ["log-entry", entry.undid && "is-undo", entry.undoneBy && "is-undone"], testid: `log-entry-${entry.seq}`, "data-seq": entry.seq, "data-kind": entry.undid ? "undo" : "game" },
    h(
      "button",
      { type: "button", class: "log-entry-btn", onclick: () => show(log, entry.seq) },
      h("span", { class: "log-n" }, `${entry.seq}.`),
      " ",
      h("span", { class: "log-text", testid: "log-text" }, log.texts[index]),
    ),
    h(
      "p",
      { class: "log-meta" },
      h("span", { testid: "log-who", "data-here": entry.here ? "true" : "false" }, who),
      " · ",
      h("time", { testid: "log-when", datetime: at ? at.toISOString() : null }, when(at)),
      ...marks.filter(Boolean).map((mark) => [" ", mark]),
    ),
  );
}

/**
 * Ask the session for the log again (the newest answer wins) and draw it.
 * @param {LogView} log
 * @returns {Promise<void>}
 */
async function refresh(log) {
  const mine = ++log.asked;
  const atEnd = !log.history || log.step === total(log);
  let answer = null;
  try {
    answer = await log.session.history();
  } catch (err) {
    console.warn("log", err);
  }
  if (log.closed || mine !== log.asked) return;
  const { body, controls, list, slider, replayPane, entriesPane } = log.parts;
  if (!answer) {
    log.history = null;
    controls.hidden = true;
    body.replaceChildren(h("p", { class: "log-server-only", testid: "log-unavailable" }, t("log.server_only")));
    return;
  }
  log.history = answer;
  log.texts = describeAll(log.game, answer);
  list.replaceChildren(...answer.entries.map((entry, index) => entryItem(log, entry, index)));
  // Kept while the log is open, so a new entry from another phone does not scroll the list away.
  if (!total(log)) body.replaceChildren(h("p", { class: "muted", testid: "log-empty" }, t("log.empty")));
  else if (!replayPane.isConnected) body.replaceChildren(replayPane, entriesPane);
  controls.hidden = !total(log);
  slider.max = String(total(log));
  show(log, atEnd ? total(log) : log.step);
}

/** @param {LogView} log @returns {void} */
function close(log) {
  if (log.closed) return;
  log.closed = true;
  document.removeEventListener("keydown", log.onKey);
  log.parts.backdrop.remove();
  if (log.opener && log.opener.isConnected) log.opener.focus({ preventScroll: true });
  log.onClose();
}
