// An evening of games (issue 33): which group a table is filed in (as this phone knows it), the
// hand-over of a table to its next game (a rematch, the group's next game) and, on the other phones
// of the old table, following it there without scanning a code again.
import * as api from "../api.js";
import * as store from "../store.js";
import { LOCAL_PREFIX } from "../sync/session.js";

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */
/** @typedef {{group: string, seats: string[]}} Filing */

const MAX_KEPT = 200;

/**
 * The group this phone knows a table to be filed in, with who sat where, or null.
 * @param {string} tableId
 * @returns {Filing | null}
 */
export function tableGroup(tableId) {
  return store.read("evening.table_groups", {})[tableId] || null;
}

/**
 * Remember that a table is filed in a group (and that it is the group's latest table here).
 * @param {string} tableId
 * @param {string} group
 * @param {string[]} seats
 * @returns {void}
 */
export function noteTableGroup(tableId, group, seats) {
  const all = store.read("evening.table_groups", {});
  delete all[tableId];
  all[tableId] = { group, seats };
  const ids = Object.keys(all);
  for (const old of ids.slice(0, Math.max(0, ids.length - MAX_KEPT))) delete all[old];
  store.write("evening.table_groups", all);
  noteLastTable(group, tableId);
}

/**
 * The group's table this phone sat at last (the one its next game is handed over from).
 * @param {string} groupId
 * @returns {string | null}
 */
export function lastTableOf(groupId) {
  return store.read("evening.last_tables", {})[groupId] || null;
}

/** @param {string} groupId @param {string} tableId @returns {void} */
export function noteLastTable(groupId, tableId) {
  const last = store.read("evening.last_tables", {});
  last[groupId] = tableId;
  store.write("evening.last_tables", last);
}

/**
 * The join (or read) link of a next game, as a route; its write token kept on this phone.
 * @param {Schemas["NextTable"]} next
 * @returns {string}
 */
export function adoptNext(next) {
  const token = next.join_path ? new URLSearchParams(next.join_path.split("?")[1] || "").get("k") : null;
  if (token) store.setToken(next.table_id, token);
  const own = next.seat_path ? new URLSearchParams(next.seat_path.split("?")[1] || "") : null;
  const seatToken = own?.get("sk");
  if (seatToken && /^\d+$/.test(own?.get("s") || "")) store.setMySeat(next.table_id, Number(own?.get("s")), seatToken);
  return `/t/${encodeURIComponent(next.table_id)}`;
}

/**
 * Tell the phones of table `fromId` that `created` is their next game (this phone needs both
 * tables' tokens). → the next game that stands (another phone's, when it was a moment faster), or
 * null when it could not be said (no token here, a local table, offline).
 * The players' own links this phone holds for the old table go along: `seatOf(seat)` is the same
 * player's seat at the new table (-1: not there).
 * @param {string | null} fromId
 * @param {{id: string, write_token: string, seats?: {seat: number, token: string}[]}} created
 * @param {(seat: number) => number} [seatOf]
 * @returns {Promise<Schemas["NextTable"] | null>}
 */
export async function handOver(fromId, created, seatOf = () => -1) {
  const token = fromId && store.getToken(fromId);
  if (!fromId || !token || fromId === created.id || fromId.startsWith(LOCAL_PREFIX)) return null;
  const fresh = new Map((created.seats || []).map((s) => [s.seat, s.token]));
  const seats = store.getSeatLinks(fromId).flatMap(({ seat, token: seatToken }) => {
    const nextToken = fresh.get(seatOf(seat));
    return seatOf(seat) >= 0 && nextToken ? [{ seat, token: seatToken, next_seat: seatOf(seat), next_token: nextToken }] : [];
  });
  try {
    const next = await api.handOverTable(fromId, token, { table_id: created.id, table_token: created.write_token, seats });
    const filing = tableGroup(fromId);
    if (filing && next.group_ids.includes(filing.group) && next.table_id === created.id) noteTableGroup(created.id, filing.group, filing.seats);
    return next;
  } catch (err) {
    console.warn("hand-over", err);
    return null;
  }
}

/**
 * A next game started offline: handed over once it has its server id (handOverLater → handOverNow,
 * called when the table is renamed). `seats[i]` is the new seat of the old table's seat i (-1: none).
 * @param {string} localId
 * @param {string | null} fromId
 * @param {number[]} seats
 * @returns {void}
 */
export function handOverLater(localId, fromId, seats) {
  if (!fromId || !store.getToken(fromId)) return;
  store.write("evening.pending", { ...store.read("evening.pending", {}), [localId]: { from: fromId, seats } });
}

/**
 * The table started offline as `localId` is `created` on the server now: hand its old table over.
 * @param {string} localId
 * @param {string} newId
 * @returns {Promise<void>}
 */
export async function handOverNow(localId, newId) {
  const pending = store.read("evening.pending", {});
  /** @type {{from: string, seats: number[]} | undefined} */
  const item = pending[localId];
  const token = store.getToken(newId);
  if (!item || !token) return;
  const seats = store.getSeatLinks(newId);
  const next = await handOver(item.from, { id: newId, write_token: token, seats }, (seat) => item.seats[seat] ?? -1);
  if (!next) return; // offline again, or refused: kept for the next rename is pointless, so dropped
  delete pending[localId];
  store.write("evening.pending", pending);
}

/**
 * Follow a table to its next game: the phone asks every few seconds while the table is finished,
 * and now and then while it is not (a phone whose view lags behind still follows). A phone that
 * watched the game (or heard no next game at first) opens the next one at once (no tap); one that
 * opened an old finished table (from the history, say) is offered it (one tap).
 * @param {{tableId: () => string, offer: (next: Schemas["NextTable"] | null, go: () => void) => void, go: (path: string) => void, every?: number, meanwhile?: number}} options
 * @returns {{update: (finished: boolean) => void, stop: () => void}}
 */
export function followNext({ tableId, offer, go, every = 2500, meanwhile = 15000 }) {
  /** @type {number | null} */
  let timer = null;
  let period = 0;
  let stopped = false;
  let asked = 0; // answers heard: a next game in the first one was there before this visit
  let sawPlaying = false; // the game was on while this phone watched
  let busy = false;
  /** @returns {Promise<void>} */
  async function ask() {
    const id = tableId();
    if (stopped || busy || id.startsWith(LOCAL_PREFIX) || document.visibilityState === "hidden") return;
    busy = true;
    try {
      const key = store.getToken(id);
      const own = key ? null : store.getMySeat(id); // a player's own link alone: ask as that seat
      const next = await api.getNextTable(id, key || own?.token || null, own ? own.seat : null);
      if (stopped) return;
      asked += 1;
      if (!next) return;
      const path = adoptNext(next);
      const filing = tableGroup(id);
      for (const group of next.group_ids) noteTableGroup(next.table_id, group, filing?.group === group ? filing.seats : []);
      stop();
      if (asked === 1 && !sawPlaying) offer(next, () => go(path));
      else go(path);
    } catch {
      /* offline or a hiccup: ask again at the next tick */
    } finally {
      busy = false;
    }
  }
  /** @param {number} ms @param {boolean} now ask at once too @returns {void} */
  function askEvery(ms, now) {
    if (stopped || period === ms) return;
    if (timer) clearInterval(timer);
    period = ms;
    timer = setInterval(ask, ms);
    if (now) ask();
  }
  /** @returns {void} */
  function stop() {
    stopped = true;
    if (timer) clearInterval(timer);
    timer = null;
  }
  return {
    /** Ask often once the game is over, seldom while it is on. */
    update(finished) {
      if (!finished) sawPlaying = true;
      askEvery(finished ? every : meanwhile, finished);
    },
    stop,
  };
}
