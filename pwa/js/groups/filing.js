// Starting a game from a group: the players picked (one tap each) become the table's seats, the
// table is created (or started offline, like any table) and filed in the group with who sat where.
// A table started offline is filed once it has its server id (flushPending). A group started
// offline gets a local id and is created on the server when the phone is back (flushPendingGroups),
// with its creation's Idempotency-Key.
import * as api from "../api.js";
import * as store from "../store.js";
import { PALETTE } from "../games/mahe/colours.js";
import { createOffline, LOCAL_PREFIX } from "../sync/session.js";

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */

/**
 * The latest seating of `game` in the group ({seats, players, options}) or null.
 * @param {Schemas["Group"]} group
 * @param {string} game
 */
export function lastSeating(group, game) {
  return (group.last_seating || []).find((s) => s.game === game) || null;
}

/**
 * The players of the table body for `game`: Mahé seats get turtle colours (MA-2: two each with 2–3
 * players, one with more) — the ones each player had last time where they still fit, else the
 * player's own colour, else the first free colours of the palette.
 * @param {Schemas["Group"]} group
 * @param {"mahe" | "magellan" | "mhing"} game
 * @param {string[]} seatIds
 */
export function tablePlayers(group, game, seatIds) {
  const byId = new Map(group.players.map((p) => [p.id, p]));
  if (game !== "mahe") return seatIds.map((id) => ({ name: byId.get(id).name }));
  const each = seatIds.length <= 3 ? 2 : 1;
  const last = lastSeating(group, "mahe");
  const before = new Map((last?.seats || []).map((id, seat) => [id, last.players[seat]?.colours || []]));
  const taken = new Set();
  const chosen = seatIds.map((id) => {
    // Colours the palette knows (a group player's colour and a last seating's are any strings).
    const wanted = /** @type {import("../games/mahe/colours.js").Colour[]} */ ([...(before.get(id) || []), byId.get(id).colour].filter((c) => PALETTE.includes(/** @type {import("../games/mahe/colours.js").Colour} */ (c))));
    const mine = [];
    for (const colour of wanted) {
      if (mine.length < each && !taken.has(colour) && !mine.includes(colour)) mine.push(colour);
    }
    mine.forEach((c) => taken.add(c));
    return mine;
  });
  return seatIds.map((id, seat) => {
    const colours = chosen[seat];
    for (const colour of PALETTE) {
      if (colours.length >= each) break;
      if (!taken.has(colour)) {
        colours.push(colour);
        taken.add(colour);
      }
    }
    return { name: byId.get(id).name, colours };
  });
}

/**
 * Create the table for the group's players and file it; → the table id to open (maybe local).
 * @param {Schemas["Group"]} group
 * @param {"mahe" | "magellan" | "mhing"} game
 * @param {string[]} seatIds
 * @param {string} title
 */
export async function startGroupGame(group, game, seatIds, title) {
  const last = lastSeating(group, game);
  // One game's body, chosen at run time: Mahé players with colours, the last options of that game.
  const body = /** @type {Schemas["CreateTable"]} */ ({ game, players: tablePlayers(group, game, seatIds), options: last?.options || {} });
  const key = api.newIdempotencyKey();
  try {
    const created = await api.createTable(body, key);
    store.setToken(created.id, created.write_token);
    if (created.seats?.length) store.setSeatLinks(created.id, created.seats);
    store.rememberTable(created.table, title);
    await file(group.id, created.id, created.write_token, seatIds);
    return created.id;
  } catch (err) {
    if (!(err instanceof api.OfflineError)) throw err;
    const id = await createOffline(body, key);
    store.rememberTable({ id, game, players: body.players, finished: false }, title);
    queue({ group: group.id, table: id, seats: seatIds });
    return id;
  }
}

async function file(groupId, tableId, tableToken, seats) {
  try {
    await api.addGroupTable(groupId, store.groupToken(groupId), { table_id: tableId, table_token: tableToken, seats });
  } catch (err) {
    if (!(err instanceof api.OfflineError)) throw err;
    queue({ group: groupId, table: tableId, seats });
  }
}

function queue(item) {
  store.setPendingGroupTables([...store.pendingGroupTables().filter((p) => p.table !== item.table), item]);
}

/** File every table waiting for it whose id is known now; the rest keep waiting. */
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

let flushingGroups = null;

/** Create on the server every group started offline (then file the tables waiting for them). */
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
