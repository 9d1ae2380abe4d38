// Everything this phone remembers, in localStorage: language, write tokens, the players' own
// links of tables made here, "my seat" at a table, known tables.

const PREFIX = "kibitz.";

/** The JSON stored under "kibitz.<key>", or fallback (nothing stored, unreadable, no storage). */
export function read(key, fallback) {
  try {
    const raw = localStorage.getItem(PREFIX + key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch {
    return fallback;
  }
}

/** Store value as JSON under "kibitz.<key>" (quietly not, when storage is full or disabled). */
export function write(key, value) {
  try {
    localStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    /* storage full or disabled: the app still works for this session */
  }
}

export function getLang() {
  return read("lang", null);
}

export function setLang(lang) {
  write("lang", lang);
}

/** Write tokens, keyed by table id. */
export function getToken(tableId) {
  return read("tokens", {})[tableId] || null;
}

export function setToken(tableId, token) {
  const tokens = read("tokens", {});
  tokens[tableId] = token;
  write("tokens", tokens);
}

/** The players' own links of a table made on this phone: [{seat, token}] (seat tokens, keyed by table id). */
export function getSeatLinks(tableId) {
  return read("seat_links", {})[tableId] || [];
}

export function setSeatLinks(tableId, seats) {
  const links = read("seat_links", {});
  links[tableId] = (seats || []).map(({ seat, token }) => ({ seat, token }));
  write("seat_links", links);
}

/** "My seat" at a table, from a player's own link: {seat, token} or null. */
export function getMySeat(tableId) {
  const mine = read("my_seats", {})[tableId];
  return mine && Number.isInteger(mine.seat) && mine.token ? mine : null;
}

export function setMySeat(tableId, seat, token) {
  const seats = read("my_seats", {});
  seats[tableId] = { seat, token };
  write("my_seats", seats);
}

export function forgetMySeat(tableId) {
  const seats = read("my_seats", {});
  delete seats[tableId];
  write("my_seats", seats);
}

/** Tables this phone has seen, newest first: [{id, game, title, players, finished, updated_at, seen_at}]. */
export function knownTables() {
  return read("tables", []);
}

/**
 * @param {Pick<import("kibitz-api").components["schemas"]["Table"], "id" | "game" | "players" | "finished"> & {updated_at?: string, created_at?: string}} table
 *   a table view, or what the phone knows of a table it started offline
 * @param {string} title
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

/** Groups this phone knows, newest first: [{id, name, token|null, seen_at}] (token: may change it). */
export function knownGroups() {
  return read("groups", []);
}

/**
 * @param {Pick<import("kibitz-api").components["schemas"]["Group"], "id" | "name">} group
 * @param {string | null} [token]
 */
export function rememberGroup(group, token) {
  const groups = knownGroups();
  const old = groups.find((g) => g.id === group.id);
  const entry = { id: group.id, name: group.name, token: token || old?.token || null, seen_at: new Date().toISOString() };
  write("groups", [entry, ...groups.filter((g) => g.id !== group.id)].slice(0, 50));
}

export function groupToken(groupId) {
  return knownGroups().find((g) => g.id === groupId)?.token || null;
}

export function forgetGroup(groupId) {
  write("groups", knownGroups().filter((g) => g.id !== groupId));
}

/** Groups started while offline: [{id: "local-…", key, body}], created on the server (with their
 * Idempotency-Key: a lost answer leaves no twin) once the phone is back. */
export function pendingGroups() {
  return read("group_creations", []);
}

export function setPendingGroups(items) {
  write("group_creations", items);
}

/** Tables started for a group while offline (local ids), to be filed in it once they have their id. */
export function pendingGroupTables() {
  return read("group_pending", []);
}

export function setPendingGroupTables(items) {
  write("group_pending", items);
}

/** A table (or a group) started offline got its server id: remember it, so pending group filings
 * and old links can follow. */
export function noteRenamed(localId, newId) {
  const renamed = read("renamed", {});
  renamed[localId] = newId;
  write("renamed", renamed);
}

export function renamedTo(localId) {
  return read("renamed", {})[localId] || null;
}

/** A table's name as the players set it on this phone ("" / null: players and start time). */
export function tableName(tableId) {
  return read("table_names", {})[tableId] || null;
}

export function setTableName(tableId, name) {
  const names = read("table_names", {});
  if (name) names[tableId] = name;
  else delete names[tableId];
  write("table_names", names);
}
