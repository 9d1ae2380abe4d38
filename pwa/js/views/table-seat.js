// My seat at a table (a player's own link): its private view (e.g. the Magellan hand), asked again
// as the table's version moves on; a link the server refuses is forgotten, and the screen says so.
import { h, present } from "../dom.js";
import { t } from "../i18n.js";
import * as api from "../api.js";
import * as store from "../store.js";

/** @typedef {import("./table.js").TableScreen} TableScreen */

/**
 * The player's link was refused (401/403, or no such seat): forget it and say so.
 * @param {TableScreen} st
 * @returns {void}
 */
export function dropSeat(st) {
  store.forgetMySeat(st.id);
  st.mySeat = null;
  st.mine = null;
  st.bar.showSeat();
  st.seatNotice.replaceChildren(h("p", { class: "seat-notice", role: "alert", testid: "seat-error" }, t("seat.link_invalid")));
  if (st.screen.updateMine) st.screen.updateMine();
}

/**
 * Ask for my seat's private view as of the table's current version (newest answer wins).
 * @param {TableScreen} st
 * @returns {Promise<void>}
 */
export async function refreshMine(st) {
  if (!st.mySeat || st.destroyed) return;
  const ask = ++st.seatAsk;
  const version = st.table.version;
  const asked = st.mySeat;
  try {
    const res = await st.session.privateView(asked.seat, asked.token);
    if (st.destroyed || ask !== st.seatAsk || st.mySeat !== asked) return;
    st.mine = { seat: asked.seat, view: /** @type {import("../games/registry.js").Mine["view"]} */ (res.view ?? null), version, status: res.stale ? "failed" : "fresh" };
  } catch (err) {
    if (st.destroyed || ask !== st.seatAsk || st.mySeat !== asked) return;
    if (err instanceof api.ApiError && (err.status === 401 || err.status === 403 || err.code === "seat-not-found")) {
      dropSeat(st);
      return;
    }
    // Offline or a server error: keep what we knew (my seat's view exists while my seat does).
    st.mine = { ...present(st.mine, "my seat's view"), status: "failed" };
  }
  if (st.screen.updateMine) st.screen.updateMine();
}
