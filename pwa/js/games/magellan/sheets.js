// Board sheets (MG-2) on this phone and on the server: ids and edit tokens are kept in
// localStorage like table tokens; the numbers themselves live at /api/sheets.
import { ApiError, OfflineError } from "../../api.js";
import { read, write } from "../../store.js";
import { GAME } from "./common.js";

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */
/** @typedef {{id: string, name: string, token: string | null, seen_at: string}} KnownSheet */
/** The published sheet a table started from (or published). */
/** @typedef {{id: string, edition: string, confirmed?: boolean}} TablePublication */

const SHEETS_KEY = "magellan.sheets"; // kibitz.magellan.sheets: [{id, name, token, seen_at}], newest first
const LINKS_KEY = "magellan.table_sheets"; // kibitz.magellan.table_sheets: {tableId: sheetId}

/**
 * Sheets this phone knows, newest first.
 * @returns {KnownSheet[]}
 */
export function knownSheets() {
  return read(SHEETS_KEY, []);
}

/**
 * @param {{id: string, name?: string, token?: string | null}} sheet
 * @returns {KnownSheet}
 */
export function rememberSheet({ id, name, token }) {
  const old = knownSheets().find((s) => s.id === id);
  const entry = { id, name: name || old?.name || id, token: token || old?.token || null, seen_at: new Date().toISOString() };
  write(SHEETS_KEY, [entry, ...knownSheets().filter((s) => s.id !== id)].slice(0, 30));
  return entry;
}

/** @param {string} id */
export function forgetSheet(id) {
  write(SHEETS_KEY, knownSheets().filter((s) => s.id !== id));
}

/**
 * The sheet's edit token, when this phone made it.
 * @param {string} id
 * @returns {string | null}
 */
export function sheetToken(id) {
  return knownSheets().find((s) => s.id === id)?.token || null;
}

/**
 * @param {string} tableId
 * @param {string} sheetId
 */
export function linkTable(tableId, sheetId) {
  /** @type {Record<string, string>} */
  const links = read(LINKS_KEY, {});
  links[tableId] = sheetId;
  write(LINKS_KEY, links);
}

/**
 * The sheet a table was set up with on this phone.
 * @param {string} tableId
 * @returns {string | null}
 */
export function linkedSheet(tableId) {
  return read(LINKS_KEY, {})[tableId] || null;
}

/**
 * @param {string} method
 * @param {string} path
 * @param {{body?: unknown, token?: string | null}} [options]
 * @returns {Promise<any>} the operation's answer (each caller below names its type)
 */
async function request(method, path, { body, token } = {}) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json, application/problem+json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(`/api${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: "no-store" });
  } catch {
    throw new OfflineError("offline");
  }
  let data = null;
  if ((res.headers.get("Content-Type") || "").includes("json")) data = await res.json().catch(() => null);
  if (res.headers.get("X-Kibitz-Offline") === "1" && !res.ok) throw new OfflineError("offline");
  if (!res.ok) throw new ApiError(data && typeof data === "object" ? data : { title: res.statusText, status: res.status }, res.status);
  return data;
}

const enc = encodeURIComponent;

/** @returns {Promise<Schemas["SheetTemplate"]>} */
export function getTemplate() {
  return request("GET", `/sheets/template?game=${GAME}`);
}

/**
 * @param {string} id
 * @returns {Promise<Schemas["Sheet"]>}
 */
export function getSheet(id) {
  return request("GET", `/sheets/${enc(id)}`);
}

/**
 * POST a new sheet; remembers its id and edit token. → the sheet view {id, name, version, data, missing, complete}.
 * @param {string} name
 * @param {Schemas["BoardSheet"]} data
 * @returns {Promise<Schemas["Sheet"]>}
 */
export async function createSheet(name, data) {
  /** @type {Schemas["CreatedSheet"]} */
  const created = await request("POST", "/sheets", { body: { game: GAME, name, data } });
  rememberSheet({ id: created.id, name: created.sheet.name, token: created.edit_token });
  return created.sheet;
}

/**
 * PUT with the edit token, against the version just read (two people typing cannot overwrite each other).
 * @param {string} id
 * @param {string} name
 * @param {Schemas["BoardSheet"]} data
 * @returns {Promise<Schemas["Sheet"]>}
 */
export async function updateSheet(id, name, data) {
  const token = sheetToken(id);
  const current = await getSheet(id);
  const sheet = await request("PUT", `/sheets/${enc(id)}`, { body: { name, data, expected_version: current.version }, token });
  rememberSheet({ id, name: sheet.name });
  return sheet;
}

/**
 * Save: update our own sheet (we hold its edit token), else create a new one.
 * @param {string | null} id
 * @param {string} name
 * @param {Schemas["BoardSheet"]} data
 * @returns {Promise<Schemas["Sheet"]>}
 */
export async function saveSheet(id, name, data) {
  if (id && sheetToken(id)) return updateSheet(id, name, data);
  return createSheet(name, data);
}

// ---------- the shared library (MG-2): sheets published for an edition, confirmed by tables ----------

const PUBLISHED_KEY = "magellan.table_publications"; // kibitz.magellan.table_publications: {tableId: {id, edition, confirmed}}

/**
 * The published sheets by edition.
 * @returns {Promise<Schemas["Library"]>}
 */
export function getLibrary() {
  return request("GET", `/sheets/library?game=${GAME}`);
}

/**
 * Publish our own sheet (we hold its edit token) for an edition.
 * @param {string} id
 * @param {string} edition
 * @returns {Promise<Schemas["Published"]>}
 */
export function publishSheet(id, edition) {
  return request("POST", `/sheets/${enc(id)}/publish`, { body: { edition }, token: sheetToken(id) });
}

/**
 * The players of `tableId` found the published numbers equal to their board (the table's write token).
 * @param {string} publicationId
 * @param {string} tableId
 * @param {string | null} token
 * @returns {Promise<Schemas["Confirmed"]>}
 */
export async function confirmPublication(publicationId, tableId, token) {
  /** @type {Schemas["Confirmed"]} */
  const answer = await request("POST", `/sheets/library/${enc(publicationId)}/confirm`, { body: { table_id: tableId }, token });
  linkPublication(tableId, { ...(tablePublication(tableId) || {}), id: publicationId, edition: answer.publication.edition, confirmed: true });
  return answer;
}

/**
 * @param {string} tableId
 * @param {TablePublication} entry
 */
export function linkPublication(tableId, entry) {
  /** @type {Record<string, TablePublication>} */
  const links = read(PUBLISHED_KEY, {});
  links[tableId] = entry;
  write(PUBLISHED_KEY, links);
}

/**
 * The published sheet a table started from (or published), or null.
 * @param {string} tableId
 * @returns {TablePublication | null}
 */
export function tablePublication(tableId) {
  return read(PUBLISHED_KEY, {})[tableId] || null;
}
