// The table on screen: drawn by the game, with a finished game's share, rematch and home buttons
// under its result, and replaced by a newer view (a poll, this phone's own entry, a 409 answer).
import { present } from "../dom.js";
import { t } from "../i18n.js";
import { shareResultButton } from "../ui/share-card.js";
import { clearToasts, toast } from "../toast.js";
import * as store from "../store.js";
import { endActions } from "./rematch.js";
import { refreshMine } from "./table-seat.js";

/** @typedef {import("./table.js").TableScreen} TableScreen */
/** @typedef {import("./table.js").Table} Table */
/** @typedef {import("../ui/share-card.js").ResultSection} ResultSection */

/**
 * The share card's data (issue 26): the game, this table's name, the day it ended, the result.
 * @param {TableScreen} st
 * @returns {import("../ui/share-card.js").Card}
 */
function resultCard(st) {
  const shown = /** @type {ResultSection | null} */ (st.body.querySelector("[data-testid=result]"))?.shareCard;
  const table = st.table;
  const when = table.finished && table.updated_at ? table.updated_at : table.created_at;
  // The button is in the result's section, which carries the card's data.
  return { game: st.game.title, tableName: st.bar.name(), date: when ? new Date(when) : new Date(), ...present(shown, "the result's card") };
}

/**
 * Draw the table; under a finished game's result: share it (anyone), rematch and home.
 * @param {TableScreen} st
 * @returns {void}
 */
export function draw(st) {
  st.screen.update(st.table);
  st.bar.showClock();
  const result = /** @type {ResultSection | null} */ (st.body.querySelector("[data-testid=result]"));
  if (result?.shareCard && !result.querySelector("[data-testid=share-result]")) result.append(shareResultButton(() => resultCard(st)));
  if (result && !st.readOnly && !result.querySelector("[data-testid=end-actions]")) result.append(endActions(st.table, st.game.title));
  st.nextGame.update(!!st.table.finished);
}

/**
 * Take a newer table view (from a poll, our own write, or a 409 answer).
 * @param {TableScreen} st
 * @param {Table | null | undefined} next
 * @param {{own?: boolean}} [how] own: this phone's own entry (may be a version it already shows)
 * @returns {void}
 */
export function adopt(st, next, { own = false } = {}) {
  if (!next || st.destroyed) return;
  const table = st.table;
  if (!own && next.version < table.version) return; // never step back to an older view
  const versionChanged = next.version !== table.version;
  const changed = versionChanged || JSON.stringify(next) !== JSON.stringify(table);
  if (next.finished && !table.finished) clearToasts(); // "… then it is Bruno's turn" is no news now
  st.table = next;
  if (changed) {
    draw(st);
    store.rememberTable(next, st.game.title);
  }
  // A game without secrets answers null: then one check of the link is enough.
  const mine = st.mine;
  if (versionChanged && mine && (mine.view !== null || mine.status !== "fresh")) refreshMine(st);
  if (versionChanged && !own && st.pending && !st.pending.committing) {
    st.pending.sheet.close();
    st.pending = null;
    toast(t("table.updated_elsewhere"));
  }
}
