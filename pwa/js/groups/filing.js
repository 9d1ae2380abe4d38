// Filing a game in a group: the players picked (one tap each, views/setup.js) become the table's
// seats, and the table is filed in the group with who sat where.
// A table started offline is filed once it has its server id (flushPending). A group started
// offline gets a local id and is created on the server when the phone is back (flushPendingGroups),
// with its creation's Idempotency-Key.
import { present } from "../dom.js";
import * as api from "../api.js";
import * as store from "../store.js";
import { manifestOf } from "../games/registry.js";
import { LOCAL_PREFIX } from "../sync/session.js";
import { noteTableGroup } from "./evening.js";

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */

/**
 * The latest seating of `game` in the group ({seats, players, options}) or null.
 * @param {Schemas["Group"]} group
 * @param {string} game
 * @returns {Schemas["LastSeating"] | null}
 */
export function lastSeating(group, game) {
  return (group.last_seating || []).find((s) => s.game === game) || null;
}

/**
 * The players of the table body for `game`: their names, and what the game has each bring (its
 * manifest's seatPlayers: Mahé's turtle colours, as last time where they still fit).
 * @param {Schemas["Group"]} group
 * @param {string} game
 * @param {string[]} seatIds the group's players, seat by seat
 * @returns {{name: string, colours?: string[]}[]}
 */
export function tablePlayers(group, game, seatIds) {
  const seatPlayers = manifestOf(game)?.seatPlayers;
  if (seatPlayers) return seatPlayers(group, seatIds, lastSeating(group, game));
  const byId = new Map(group.players.map((p) => [p.id, p]));
  return seatIds.map((id) => ({ name: present(byId.get(id), `the group's player ${id}`).name }));
}

/**
 * File a table in a group now, or once it can be: offline, or (token null) a table started offline
 * that has no server id yet (flushPending files it when it has).
 * @param {string} groupId
 * @param {string} tableId
 * @param {string | null} tableToken
 * @param {string[]} seats
 * @returns {Promise<void>}
 */
export async function fileSoon(groupId, tableId, tableToken, seats) {
  if (!tableToken || tableId.startsWith(LOCAL_PREFIX)) {
    queue({ group: groupId, table: tableId, seats });
    return;
  }
  await file(groupId, tableId, tableToken, seats);
}

/**
 * @param {string} groupId
 * @param {string} tableId
 * @param {string} tableToken
 * @param {string[]} seats
 * @returns {Promise<void>}
 */
async function file(groupId, tableId, tableToken, seats) {
  try {
    await api.addGroupTable(groupId, store.groupToken(groupId), { table_id: tableId, table_token: tableToken, seats });
    noteTableGroup(tableId, groupId, seats);
  } catch (err) {
    if (!(err instanceof api.OfflineError)) throw err;
    queue({ group: groupId, table: tableId, seats });
  }
}

/** @param {import("../store.js").PendingGroupTable} item @returns {void} */
function queue(item) {
  store.setPendingGroupTables([...store.pendingGroupTables().filter((p) => p.table !== item.table), item]);
}

/**
 * File every table waiting for it whose id is known now; the rest keep waiting.
 * @returns {Promise<void>}
 */
export async function flushPending() {
  const waiting = [];
  for (const item of store.pendingGroupTables()) {
    const id = item.table.startsWith(LOCAL_PREFIX) ? store.renamedTo(item.table) : item.table;
    const token = id && store.getToken(id);
    if (!id || !token) {
      waiting.push(item);
      continue;
    }
    try {
      await api.addGroupTable(item.group, store.groupToken(item.group), { table_id: id, table_token: token, seats: item.seats });
      noteTableGroup(id, item.group, item.seats);
    } catch (err) {
      if (err instanceof api.OfflineError) waiting.push({ ...item, table: id });
      else console.warn("group filing", err);
    }
  }
  store.setPendingGroupTables(waiting);
}

/**
 * Create a group, or keep it on this phone when offline (created later by flushPendingGroups).
 * `key` is the creation's Idempotency-Key, the same for every try of one form. → the id to open.
 * @param {Schemas["GroupCreate"]} body
 * @param {string} key
 * @returns {Promise<string>}
 */
export async function createGroupSoon(body, key) {
  try {
    const created = await api.createGroup(body, key);
    store.rememberGroup(created.group, created.edit_token);
    return created.id;
  } catch (err) {
    if (!(err instanceof api.OfflineError)) throw err;
    const id = `${LOCAL_PREFIX}${key}`;
    store.setPendingGroups([...store.pendingGroups().filter((g) => g.id !== id), { id, key, body }]);
    store.rememberGroup({ id, name: body.name }, null);
    return id;
  }
}

/** @type {Promise<void> | null} */
let flushingGroups = null;

/**
 * Create on the server every group started offline (then file the tables waiting for them).
 * @returns {Promise<void>}
 */
export function flushPendingGroups() {
  flushingGroups ||= (async () => {
    try {
      for (const item of store.pendingGroups()) {
        try {
          const created = await api.createGroup(item.body, item.key);
          store.noteRenamed(item.id, created.id);
          store.forgetGroup(item.id);
          store.rememberGroup(created.group, created.edit_token);
          store.setPendingGroups(store.pendingGroups().filter((g) => g.id !== item.id));
        } catch (err) {
          if (err instanceof api.OfflineError) break;
          console.warn("group creation", err);
        }
      }
      await flushPending();
    } finally {
      flushingGroups = null;
    }
  })();
  return flushingGroups;
}
