// Everything this phone remembers, in localStorage: language, write tokens, the players' own
// links of tables made here, "my seat" at a table, known tables.

const PREFIX = "kibitz.";

/** @typedef {{seat: number, token: string}} SeatKey a seat and its token (a player's own link) */
/** @typedef {{id: string, game: string, title: string, players: string[], finished: boolean, updated_at: string | null, created_at: string | null, seen_at: string}} KnownTable */
/** @typedef {{id: string, name: string, token: string | null, seen_at: string}} KnownGroup */
/** @typedef {{id: string, key: string, body: import("kibitz-api").components["schemas"]["GroupCreate"]}} PendingGroup a group started offline */
/** @typedef {{group: string, table: string, seats: string[]}} PendingGroupTable a table waiting to be filed in a group */

/**
 * The JSON stored under "kibitz.<key>", or fallback (nothing stored, unreadable, no storage).
 * @param {string} key
 * @param {any} fallback
 * @returns {any} whatever was stored there (JSON)
 */
export function read(key, fallback) {
  try {
    const raw = localStorage.getItem(PREFIX + key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch {
    return fallback;
  }
}

/**
 * Store value as JSON under "kibitz.<key>" (quietly not, when storage is full or disabled).
 * @param {string} key
 * @param {unknown} value
 * @returns {void}
 */
export function write(key, value) {
  try {
    localStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    /* storage full or disabled: the app still works for this session */
  }
}

/** @returns {string | null} */
export function getLang() {
  return read("lang", null);
}

/** @param {string} lang @returns {void} */
export function setLang(lang) {
  write("lang", lang);
}

/**
 * Write tokens, keyed by table id.
 * @param {string} tableId
 * @returns {string | null}
 */
export function getToken(tableId) {
  return read("tokens", {})[tableId] || null;
}

/** @param {string} tableId @param {string} token @returns {void} */
export function setToken(tableId, token) {
  const tokens = read("tokens", {});
  tokens[tableId] = token;
  write("tokens", tokens);
}

/**
 * The players' own links of a table made on this phone: [{seat, token}] (seat tokens, keyed by table id).
 * @param {string} tableId
 * @returns {SeatKey[]}
 */
export function getSeatLinks(tableId) {
  return read("seat_links", {})[tableId] || [];
}

/** @param {string} tableId @param {SeatKey[] | null | undefined} seats @returns {void} */
export function setSeatLinks(tableId, seats) {
  const links = read("seat_links", {});
  links[tableId] = (seats || []).map(({ seat, token }) => ({ seat, token }));
  write("seat_links", links);
}

/**
 * "My seat" at a table, from a player's own link: {seat, token} or null.
 * @param {string} tableId
 * @returns {SeatKey | null}
 */
export function getMySeat(tableId) {
  const mine = read("my_seats", {})[tableId];
  return mine && Number.isInteger(mine.seat) && mine.token ? mine : null;
}

/** @param {string} tableId @param {number} seat @param {string} token @returns {void} */
export function setMySeat(tableId, seat, token) {
  const seats = read("my_seats", {});
  seats[tableId] = { seat, token };
  write("my_seats", seats);
}

/** @param {string} tableId @returns {void} */
export function forgetMySeat(tableId) {
  const seats = read("my_seats", {});
  delete seats[tableId];
  write("my_seats", seats);
}

/**
 * Tables this phone has seen, newest first.
 * @returns {KnownTable[]}
 */
export function knownTables() {
  return read("tables", []);
}

/**
 * @param {Pick<import("kibitz-api").components["schemas"]["Table"], "id" | "game" | "players" | "finished"> & {updated_at?: string, created_at?: string}} table
 *   a table view, or what the phone knows of a table it started offline
 * @param {string} title
 * @returns {void}
 */
export function rememberTable(table, title) {
  const entry = {
    id: table.id,
    game: table.game,
    title: title || table.game,
    players: (table.players || []).map((p) => p.name),
    finished: !!table.finished,
    updated_at: table.updated_at || null,
    created_at: table.created_at || null,
    seen_at: new Date().toISOString(),
  };
  const rest = knownTables().filter((t) => t.id !== table.id);
  write("tables", [entry, ...rest].slice(0, 50));
}

/** @param {string} tableId @returns {void} */
export function forgetTable(tableId) {
  write("tables", knownTables().filter((t) => t.id !== tableId));
  const tokens = read("tokens", {});
  delete tokens[tableId];
  write("tokens", tokens);
  const links = read("seat_links", {});
  delete links[tableId];
  write("seat_links", links);
  forgetMySeat(tableId);
}

/**
 * Groups this phone knows, newest first (token: may change it).
 * @returns {KnownGroup[]}
 */
export function knownGroups() {
  return read("groups", []);
}

/**
 * @param {Pick<import("kibitz-api").components["schemas"]["Group"], "id" | "name">} group
 * @param {string | null} [token]
 * @returns {void}
 */
export function rememberGroup(group, token) {
  const groups = knownGroups();
  const old = groups.find((g) => g.id === group.id);
  const entry = { id: group.id, name: group.name, token: token || old?.token || null, seen_at: new Date().toISOString() };
  write("groups", [entry, ...groups.filter((g) => g.id !== group.id)].slice(0, 50));
}

/** @param {string} groupId @returns {string | null} */
export function groupToken(groupId) {
  return knownGroups().find((g) => g.id === groupId)?.token || null;
}

/** @param {string} groupId @returns {void} */
export function forgetGroup(groupId) {
  write("groups", knownGroups().filter((g) => g.id !== groupId));
}

/** Groups started while offline: [{id: "local-…", key, body}], created on the server (with their
 * Idempotency-Key: a lost answer leaves no twin) once the phone is back.
 * @returns {PendingGroup[]} */
export function pendingGroups() {
  return read("group_creations", []);
}

/** @param {PendingGroup[]} items @returns {void} */
export function setPendingGroups(items) {
  write("group_creations", items);
}

/**
 * Tables started for a group while offline (local ids), to be filed in it once they have their id.
 * @returns {PendingGroupTable[]}
 */
export function pendingGroupTables() {
  return read("group_pending", []);
}

/** @param {PendingGroupTable[]} items @returns {void} */
export function setPendingGroupTables(items) {
  write("group_pending", items);
}

/** A table (or a group) started offline got its server id: remember it, so pending group filings
 * and old links can follow.
 * @param {string} localId
 * @param {string} newId
 * @returns {void} */
export function noteRenamed(localId, newId) {
  const renamed = read("renamed", {});
  renamed[localId] = newId;
  write("renamed", renamed);
}

/** @param {string} localId @returns {string | null} */
export function renamedTo(localId) {
  return read("renamed", {})[localId] || null;
}

/**
 * A table's name as the players set it on this phone ("" / null: players and start time).
 * @param {string} tableId
 * @returns {string | null}
 */
export function tableName(tableId) {
  return read("table_names", {})[tableId] || null;
}

/** @param {string} tableId @param {string} name @returns {void} */
export function setTableName(tableId, name) {
  const names = read("table_names", {});
  if (name) names[tableId] = name;
  else delete names[tableId];
  write("table_names", names);
}
