// The end screen's way on: a rematch with the same players in the same seats and the same options,
// another game of the table's group, or home. Offline the rematch starts on the phone and is created
// when the connection is back. A rematch is handed over to the phones of the old table (they follow
// it, groups/evening.js) and filed in the old table's group: by the server with the old table's
// token, or by this phone with the group's key (offline: once it reaches the server).
import { h } from "../dom.js";
import { t } from "../i18n.js";
import * as api from "../api.js";
import * as store from "../store.js";
import { navigate } from "../router.js";
import { toastError } from "../toast.js";
import { createOffline } from "../sync/session.js";
import { fileSoon } from "../groups/filing.js";
import { adoptNext, handOver, handOverLater, tableGroup } from "../groups/evening.js";

/**
 * The request that starts the same table again (the seed is new: a rematch is a new game).
 * @param {import("kibitz-api").components["schemas"]["Table"]} table
 * @returns {import("kibitz-api").components["schemas"]["CreateTable"]}
 */
export function rematchBody(table) {
  // The same game's players and options as the table view gives them (tsc cannot pair game and options).
  return /** @type {import("kibitz-api").components["schemas"]["CreateTable"]} */ ({ game: table.game, players: table.players, options: table.options });
}

/**
 * @param {import("kibitz-api").components["schemas"]["Table"]} table
 * @param {string} title
 * @param {string} key
 * @returns {Promise<void>}
 */
async function rematch(table, title, key) {
  const body = rematchBody(table);
  try {
    const created = await api.createTable(body, key);
    store.setToken(created.id, created.write_token);
    if (created.seats?.length) store.setSeatLinks(created.id, created.seats);
    store.rememberTable(created.table, title);
    const next = await handOver(table.id, created, (seat) => seat); // the same players in the same seats
    if (next && next.table_id !== created.id) {
      navigate(adoptNext(next)); // another phone's rematch was a moment faster: everyone plays that one
      return;
    }
    const filing = tableGroup(table.id);
    if (filing?.seats.length && store.groupToken(filing.group) && !next?.group_ids.includes(filing.group)) {
      await fileSoon(filing.group, created.id, created.write_token, filing.seats).catch((err) => console.warn("group filing", err));
    }
    navigate(`/t/${encodeURIComponent(created.id)}`);
  } catch (err) {
    if (!(err instanceof api.OfflineError)) {
      toastError(err, t("error.generic"));
      return;
    }
    try {
      const id = await createOffline(body, key);
      store.rememberTable({ id, game: body.game, players: body.players, finished: false }, title);
      const filing = tableGroup(table.id);
      if (filing?.seats.length && store.groupToken(filing.group)) await fileSoon(filing.group, id, null, filing.seats);
      handOverLater(id, table.id, table.players.map((_, seat) => seat));
      navigate(`/t/${encodeURIComponent(id)}`);
    } catch (offlineErr) {
      toastError(offlineErr, t("offline.not_sent"));
    }
  }
}

/**
 * @param {import("kibitz-api").components["schemas"]["Table"]} table
 * @param {string} title
 * @returns {HTMLDivElement}
 */
export function endActions(table, title) {
  const key = api.newIdempotencyKey(); // a second tap on Rematch starts no second table
  const filing = tableGroup(table.id);
  const group = filing && store.groupToken(filing.group) ? filing.group : null;
  return h(
    "div",
    { class: "end-actions", testid: "end-actions" },
    h("button", { type: "button", class: "btn btn-primary btn-big", testid: "rematch", onclick: () => rematch(table, title, key) }, t("table.rematch")),
    // Another game of the group: its play tab, whose setup hands this table over to the new one.
    group ? h("a", { class: "btn btn-secondary btn-big", href: `#/g/${encodeURIComponent(group)}`, testid: "next-game" }, t("evening.another_game")) : null,
    h("a", { class: "btn btn-secondary btn-big", href: "#/", testid: "home" }, t("table.home")),
  );
}
