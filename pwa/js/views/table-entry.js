// One tap, one entry: the propose → (confirm sheet) → record cycle of a table's screen, the toast
// that says what an entry did (with Undo), a late duplicate tap (issue 33) and a refused write.
import { h, present } from "../dom.js";
import { t } from "../i18n.js";
import * as api from "../api.js";
import { openSheet } from "../ui/sheet.js";
import { showConflict } from "../ui/sync.js";
import { clearToasts, toast, toastError, undoToast } from "../toast.js";
import { adopt } from "./table-view.js";

/** A tap this soon after another phone's entry redrew the screen is asked about (issue 33). */
export const LATE_TAP_MS = 700;

/** @typedef {import("./table.js").TableScreen} TableScreen */
/** @typedef {import("./table.js").Table} Table */
/** @typedef {import("../games/registry.js").GameEvent} GameEvent */
/** @typedef {import("../games/registry.js").LoggedEvent} LoggedEvent */
/**
 * What propose() takes: the game's options, and a late tap's sheet (its words and its lead line).
 * @typedef {import("../games/registry.js").ProposeOptions & {cancelLabel?: string, lead?: HTMLElement, testid?: string}} EntryOptions
 */

/**
 * One tap, one entry: the event is recorded at once and a toast says what it did, with Undo.
 * A confirm sheet comes first only where a mistake is costly: the game names those entries
 * (`game.confirmFirst`: ending a round, scoring, a secret card), and a caller may ask for one.
 * @param {TableScreen} st
 * @param {GameEvent} event
 * @param {EntryOptions} [opts]
 * @returns {void}
 */
export function propose(st, event, opts = {}) {
  if (!mayRecord(st, event) || st.pending) return;
  if (lateTap(st, event)) return;
  if (opts.confirm || st.game.confirmFirst?.(event, st.table)) {
    proposeWithSheet(st, event, opts);
    return;
  }
  tapNow(st, event);
}

/**
 * The table's key records anything; a player's own link alone records that player's own entries
 * (the Magellan A slide typed on the slider's phone, MG-8): the server takes a seat token for them.
 * @param {TableScreen} st
 * @param {GameEvent} event
 * @returns {boolean}
 */
function mayRecord(st, event) {
  const seat = "seat" in event ? event.seat : undefined;
  return !st.readOnly || (st.mySeat !== null && Number.isInteger(seat) && seat === st.mySeat.seat);
}

/**
 * What an undo takes back: the last entry still in effect, as the game words it.
 * @param {TableScreen} st
 * @param {Table} before
 * @param {Table | null} after
 * @returns {string}
 */
function undoneText(st, before, after) {
  const undone = st.session.lastInEffect(before.version);
  return undone ? st.game.describe(after, before, undone) : "";
}

/**
 * The toast after an entry says news: after a confirm sheet (which showed what the entry does, or
 * asked "End the game now?") only that it is recorded, and nothing once that entry ended the game
 * (the result says who won).
 * @param {TableScreen} st
 * @param {Table} before
 * @param {Table | null} after the answer to the entry
 * @param {GameEvent} event
 * @param {{confirmed?: boolean}} [how]
 * @returns {void}
 */
function afterEntry(st, before, after, event, { confirmed = false } = {}) {
  if (event.type !== "undo" && confirmed && after?.finished && !before?.finished) {
    clearToasts();
    return;
  }
  if (event.type === "undo") {
    const what = undoneText(st, before, after);
    toast(what ? t("table.undone", { what }) : t("table.undone_plain"));
    return;
  }
  const said = confirmed ? t("news.recorded") : st.game.describe(before, after, /** @type {LoggedEvent} */ (event));
  if (st.readOnly) toast(said); // undo needs the table's key
  // GEN-1: a die or card the server drew stands, so nothing is offered that it would refuse.
  else if (after?.legal_actions?.undo?.possible === false) undoToast(said, null);
  // The toast's Undo takes back this very entry (it names it), never whatever came after it.
  else undoToast(said, () => tapNow(st, { type: "undo", undoes: present(after, "the entry's table").version }));
}

/**
 * Issue 33, a late duplicate tap: another phone's entry redrew this screen a moment ago
 * (LATE_TAP_MS), faster than a person can see it, so a tap now was very likely meant for the
 * screen before — the same die typed on two phones. It is not applied to the new state silently:
 * a sheet says what the other phone recorded and asks whether this one is another entry. True when
 * the tap went to that sheet.
 * @param {TableScreen} st
 * @param {GameEvent} event
 * @returns {boolean}
 */
function lateTap(st, event) {
  const foreign = st.foreign;
  if (!foreign || event.type === "undo" || performance.now() - foreign.at > LATE_TAP_MS) return false;
  const theirs = foreign.event ? st.game.describe(foreign.before, foreign.after, foreign.event) : "";
  st.foreign = null; // asked once: the player has seen the new screen now
  proposeWithSheet(st, event, {
    title: t("late_tap.title"),
    confirmLabel: t("late_tap.confirm"),
    cancelLabel: t("late_tap.cancel"),
    lead: h("p", { class: "late-lead", testid: "late-tap-theirs" }, theirs ? t("late_tap.theirs", { what: theirs }) : t("late_tap.theirs_plain")),
    testid: "late-tap-sheet",
  });
  return true;
}

/**
 * Record at once (the phone's referee answers in about a millisecond; else the server).
 * @param {TableScreen} st
 * @param {GameEvent} event
 * @returns {Promise<void>}
 */
export async function tapNow(st, event) {
  if (!mayRecord(st, event) || st.pending) return;
  if (lateTap(st, event)) return;
  const before = st.table;
  /** @type {import("./table.js").Pending} */
  const mine = { event, key: api.newIdempotencyKey(), version: before.version, committing: true, sheet: { close() {}, setBusy() {} } };
  st.pending = mine;
  st.body.setAttribute("aria-busy", "true");
  dropUndoToasts();
  try {
    const after = await st.session.record(event, mine.key, seenOption(before.version));
    adopt(st, after, { own: true });
    afterEntry(st, before, after, event);
  } catch (err) {
    handleWriteError(st, err);
  } finally {
    if (st.pending === mine) st.pending = null;
    st.body.removeAttribute("aria-busy");
  }
}

/**
 * Show what `event` would do and record it on Confirm.
 * opts.preview === false: no preview (digital dice must not be rolled in advance); opts.text is
 * shown instead.
 * @param {TableScreen} st
 * @param {GameEvent} event
 * @param {EntryOptions} [opts]
 * @returns {Promise<void>}
 */
async function proposeWithSheet(st, event, opts = {}) {
  if (!mayRecord(st, event) || st.pending) return;
  const sheet = openSheet({
    title: opts.title || t("confirm.title"),
    confirmLabel: opts.confirmLabel,
    cancelLabel: opts.cancelLabel,
    testid: opts.testid,
    onConfirm: () => commit(st, mine),
    onCancel: () => {
      if (st.pending === mine) st.pending = null;
    },
  });
  /** @type {import("./table.js").Pending} */
  const mine = { event, key: api.newIdempotencyKey(), version: st.table.version, committing: false, sheet };
  st.pending = mine;
  if (opts.preview === false) {
    sheet.setBody(opts.text || "");
    return;
  }
  const lead = opts.lead || null;
  sheet.setBody([lead, h("p", { class: "muted" }, t("confirm.previewing"))].filter(Boolean));
  sheet.setBusy(true);
  try {
    const after = await st.session.preview(event);
    if (st.pending !== mine) return;
    const yours = h("p", { class: "preview-text", testid: "preview-text" }, st.game.describe(st.table, after, /** @type {LoggedEvent} */ (event)));
    sheet.setBody(lead ? [lead, h("p", { class: "small muted" }, t("late_tap.yours")), yours] : yours);
    mine.previewed = true; // the sheet said what it does: the toast after it need not again
    sheet.setBusy(false);
  } catch (err) {
    if (st.pending !== mine) return;
    if (err instanceof api.OfflineError) {
      sheet.setBody([opts.lead || null, h("p", { class: "muted" }, t("offline.no_preview"))].filter(Boolean));
      sheet.setBusy(false);
      return;
    }
    st.pending = null;
    sheet.close();
    handleWriteError(st, err);
  }
}

/**
 * The confirm sheet's Confirm: record the entry it shows.
 * @param {TableScreen} st
 * @param {import("./table.js").Pending} mine
 * @returns {Promise<void>}
 */
async function commit(st, mine) {
  if (st.pending !== mine || mine.committing) return;
  mine.committing = true;
  mine.sheet.setBusy(true, { lock: true });
  const before = st.table;
  try {
    const next = await st.session.record(mine.event, mine.key, seenOption(mine.version));
    if (st.pending === mine) st.pending = null;
    mine.sheet.close();
    adopt(st, next, { own: true });
    afterEntry(st, before, next, mine.event, { confirmed: !!mine.previewed });
  } catch (err) {
    mine.committing = false;
    if (err instanceof api.OfflineError) {
      // Keep the sheet and the idempotency key: Confirm again retries the very same action.
      mine.sheet.setBusy(false);
      mine.sheet.setBody?.(h("p", { class: "muted" }, t("offline.not_sent_retry")));
      return;
    }
    if (st.pending === mine) st.pending = null;
    mine.sheet.close();
    handleWriteError(st, err);
  }
}

/**
 * The options of session.record(): the version the entry was made on (sync/session.js does not
 * type them yet; the call stays as it is).
 * @param {number} version
 * @returns {Parameters<import("./table.js").Session["record"]>[2]}
 */
function seenOption(version) {
  return /** @type {any} */ ({ seen: version });
}

/**
 * A write the referee or the server refused, or that could not be sent.
 * @param {TableScreen} st
 * @param {unknown} err
 * @returns {void}
 */
function handleWriteError(st, err) {
  const refusal = err instanceof api.ApiError ? err : null;
  if (refusal?.code === "sync-conflict") {
    // Another phone's entries met this phone's: nothing more is recorded until the players decide.
    toast(t("sync.decide_first"));
    showConflict(st.session, st.game, { force: true });
  } else if (refusal?.code === "tap-on-old-table") {
    toast(t("sync.tap_not_recorded"), { timeout: 6000 });
  } else if (refusal?.code === "stale-version" && refusal.problem.table) {
    adopt(st, refusal.problem.table, { own: true });
    toast(t("table.someone_faster"));
  } else if (err instanceof api.OfflineError) {
    toast(t("offline.not_sent"), { kind: "error" });
  } else {
    toastError(err, t("error.generic"));
  }
}

/**
 * A new tap makes the last entry's undo toast stale: it goes at once.
 * @returns {void}
 */
export function dropUndoToasts() {
  document.querySelectorAll("[data-testid=undo-toast]").forEach((old) => old.remove());
}
