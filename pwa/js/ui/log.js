// The move log of a table, on the table page (issue 26): every entry in words (the game's own
// describe.js, as the toasts say it), who recorded it (this phone or another: the server's log does
// not say which phone or seat sent an entry) and when (local time), undo entries with what they took
// back — and a replay that steps through the game: the table after entry k, drawn read-only by the
// game (`game.replayState`). From the phone's own store and referee (session.history()), so it
// works offline for a table already on the phone; a table whose dice or cards the server draws is
// replayed by the server (GET …/replay), so its log needs the network.
import { h, s } from "../dom.js";
import { t, locale } from "../i18n.js";

/** A stored time as a Date, or null. The server's times are UTC; a database without time zones
 * (SQLite) answers them without one, which a browser would read as local time. */
function parseAt(iso) {
  if (!iso) return null;
  const zoned = /(Z|[+-]\d\d:?\d\d)$/i.test(iso) ? iso : `${iso}Z`;
  const date = new Date(zoned);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "14:03:21" in the phone's own time zone, with the day in front when it was not today. */
function when(date) {
  if (!date) return t("log.time_unknown");
  const today = new Date().toDateString() === date.toDateString();
  /** @type {Intl.DateTimeFormatOptions} */
  const options = today ? { hour: "2-digit", minute: "2-digit", second: "2-digit" } : { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" };
  return new Intl.DateTimeFormat(locale(), options).format(date);
}

/** A step button's picture (its name is its aria-label). */
function icon(paths) {
  return s("svg", { class: "log-icon", viewBox: "0 0 24 24", width: 24, height: 24, "aria-hidden": "true", focusable: "false" }, ...paths.map((d) => s("path", { d })));
}

/** What each entry did, in the game's words: texts[i] for entry i + 1. */
function describeAll(game, history) {
  const { entries, views } = history;
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
 */
export function openLog({ session, game, onClose = () => {} }) {
  const titleId = `log-title-${Math.random().toString(36).slice(2)}`;
  const opener = /** @type {HTMLElement | null} */ (document.activeElement);
  let history = null;
  let texts = [];
  let step = 0;
  let closed = false;
  let asked = 0;

  const closeBtn = h("button", { type: "button", class: "btn btn-small btn-secondary", testid: "log-close", onclick: close }, t("common.close"));
  const status = h("p", { class: "log-step", testid: "replay-step", "aria-live": "polite" });
  const stateHost = h("div", { class: "log-state", testid: "replay-state" });
  const list = h("ol", { class: "log-list", testid: "log-list", "aria-label": t("log.entries") });
  const note = h("p", { class: "muted small log-note" }, t("log.who_note"));
  const body = h("div", { class: "log-scroll" }, h("p", { class: "muted loading" }, t("log.loading")));
  // Two panes, each scrolling by itself: the table at the step stays in sight while the list
  // follows the step (the replay pane takes the keyboard's focus to scroll: it holds no control).
  const replayPane = h("section", { class: "log-replay", "aria-label": t("log.replay"), tabindex: 0 }, status, stateHost);
  const entriesPane = h(
    "section",
    { class: "log-entries", "aria-labelledby": `${titleId}-entries` },
    h("h3", { class: "log-subtitle", id: `${titleId}-entries` }, t("log.entries")),
    note,
    list,
  );

  const slider = h("input", { type: "range", class: "log-slider", testid: "replay-slider", min: 0, max: 0, step: 1, value: 0, "aria-label": t("log.slider") });
  slider.addEventListener("input", () => show(Number(slider.value), { scroll: true }));
  const control = (testid, shapes, label, to) =>
    h("button", { type: "button", class: "btn btn-secondary log-btn", testid, "aria-label": label, title: label, onclick: () => show(to(), { scroll: true }) }, icon(shapes));
  const left = "M17 5 L7 12 L17 19 Z";
  const right = "M7 5 L17 12 L7 19 Z";
  const first = control("replay-first", ["M5 5 H8 V19 H5 Z", "M19 5 L9 12 L19 19 Z"], t("log.first"), () => 0);
  const prev = control("replay-prev", [left], t("log.prev"), () => step - 1);
  const next = control("replay-next", [right], t("log.next"), () => step + 1);
  const last = control("replay-last", ["M5 5 L15 12 L5 19 Z", "M16 5 H19 V19 H16 Z"], t("log.last"), () => total());
  const controls = h("div", { class: "log-controls", role: "group", "aria-label": t("log.replay") }, slider, h("div", { class: "log-buttons" }, first, prev, next, last));
  controls.hidden = true;

  const dialog = h(
    "div",
    { class: "log-view", role: "dialog", "aria-modal": "true", "aria-labelledby": titleId, testid: "log-view" },
    h("div", { class: "log-head" }, h("h2", { class: "log-title", id: titleId }, t("log.title")), closeBtn),
    body,
    controls,
  );
  const backdrop = h("div", { class: "log-backdrop" }, dialog);
  const onKey = (event) => {
    if (event.key === "Escape") close();
  };
  document.addEventListener("keydown", onKey);
  document.body.append(backdrop);
  closeBtn.focus({ preventScroll: true });

  const total = () => (history ? history.entries.length : 0);

  function show(k, { scroll = false } = {}) {
    if (!history) return;
    step = Math.max(0, Math.min(total(), k));
    slider.value = String(step);
    slider.setAttribute("aria-valuetext", step ? t("log.step", { n: step, total: total() }) : t("log.start"));
    status.replaceChildren(
      h("strong", {}, step ? t("log.step", { n: step, total: total() }) : t("log.start")),
      step ? h("span", { class: "log-step-text", testid: "replay-step-text" }, texts[step - 1]) : null,
    );
    status.dataset.step = String(step);
    first.disabled = prev.disabled = step === 0;
    next.disabled = last.disabled = step === total();
    try {
      stateHost.replaceChildren(...[game.replayState ? game.replayState(history.views[step]) : null].flat().filter(Boolean));
    } catch (err) {
      console.warn("replay", err);
      stateHost.replaceChildren();
    }
    for (const item of /** @type {HTMLCollectionOf<HTMLElement>} */ (list.children)) {
      const current = Number(item.dataset.seq) === step;
      item.classList.toggle("is-current", current);
      const button = item.querySelector("button");
      if (current) button.setAttribute("aria-current", "step");
      else button.removeAttribute("aria-current");
      if (current && scroll) item.scrollIntoView({ block: "nearest" });
    }
  }

  function entryItem(entry, index) {
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
        { type: "button", class: "log-entry-btn", onclick: () => show(entry.seq) },
        h("span", { class: "log-n" }, `${entry.seq}.`),
        " ",
        h("span", { class: "log-text", testid: "log-text" }, texts[index]),
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

  async function refresh() {
    const mine = ++asked;
    const atEnd = !history || step === total();
    let answer = null;
    try {
      answer = await session.history();
    } catch (err) {
      console.warn("log", err);
    }
    if (closed || mine !== asked) return;
    if (!answer) {
      history = null;
      controls.hidden = true;
      body.replaceChildren(h("p", { class: "log-server-only", testid: "log-unavailable" }, t("log.server_only")));
      return;
    }
    history = answer;
    texts = describeAll(game, history);
    list.replaceChildren(...history.entries.map(entryItem));
    // Kept while the log is open, so a new entry from another phone does not scroll the list away.
    if (!total()) body.replaceChildren(h("p", { class: "muted", testid: "log-empty" }, t("log.empty")));
    else if (!replayPane.isConnected) body.replaceChildren(replayPane, entriesPane);
    controls.hidden = !total();
    slider.max = String(total());
    show(atEnd ? total() : step);
  }

  function close() {
    if (closed) return;
    closed = true;
    document.removeEventListener("keydown", onKey);
    backdrop.remove();
    if (opener && opener.isConnected) opener.focus({ preventScroll: true });
    onClose();
  }

  refresh();
  return { close, refresh, get closed() { return closed; } };
}
