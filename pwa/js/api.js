// The Kibitz HTTP API: fetch, problem+json errors, idempotency keys, connectivity state.
import { getMySeat, getSeatLinks } from "./store.js";
import { lang } from "./i18n.js";

const BASE = "/api";

// Types from openapi.yaml (openapi-typescript; tests/contract/test_pwa_types.py runs `tsc --checkJs`):
// a field renamed on the server fails that check, not a phone at the table.
/** @typedef {import("kibitz-api").components["schemas"]} Schemas */
/** @typedef {{body?: unknown, token?: string | null, idempotencyKey?: string, etag?: string | null}} RequestOptions */
/**
 * @template T
 * @typedef {{status: number, data: T, etag: string | null, stale: boolean}} Answer
 */

/**
 * An application/problem+json body ({type, title, status, detail, code, …}): the document's fields,
 * plus what a refusal adds (e.g. `seat` with `seat-token-required`), and codes the phone's own
 * referee and sync give (`sync-conflict`, `tap-on-old-table`).
 * @typedef {Omit<Schemas["Problem"], "code"> & {code?: string, [extra: string]: unknown}} Problem
 */

export class ApiError extends Error {
  /**
   * @param {Problem} problem the application/problem+json body
   * @param {number} status
   */
  constructor(problem, status) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.problem = problem;
    this.status = status;
    this.code = problem.code || null;
  }
}

/** The network (or the server) could not be reached. */
export class OfflineError extends Error {}

let online = true;
/** @type {Set<(online: boolean) => void>} */
const connectivityListeners = new Set();

/** @param {boolean} value @returns {void} */
function setOnline(value) {
  if (value === online) return;
  online = value;
  connectivityListeners.forEach((fn) => fn(online));
}

/**
 * The server answered outside a request (the live stream opened again or brought a table): the
 * phone is online — the badge must not say "Offline" until the next entry (issue 33).
 * @returns {void}
 */
export function reachedServer() {
  setOnline(true);
}

/** @returns {boolean} */
export function isOnline() {
  return online;
}

/**
 * @param {(online: boolean) => void} fn called when the phone goes offline or comes back
 * @returns {() => boolean} forgets fn
 */
export function onConnectivity(fn) {
  connectivityListeners.add(fn);
  return () => connectivityListeners.delete(fn);
}

/**
 * A fresh key per user action; reuse it when retrying the same action.
 * @returns {string}
 */
export function newIdempotencyKey() {
  if (typeof globalThis.crypto?.randomUUID === "function") return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16)); // randomUUID needs a secure context
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * One request. Resolves {status, data, etag, stale}; `stale` marks an answer the service worker
 * served from its cache because the network failed. Rejects ApiError (4xx/5xx) or OfflineError.
 * @param {string} method
 * @param {string} path
 * @param {RequestOptions} [options]
 * @returns {Promise<Answer<any>>}
 */
async function request(method, path, { body, token, idempotencyKey, etag } = {}) {
  // Refusals come back in the language on screen (the server's catalogs; the `code` stays the same).
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json, application/problem+json", "Accept-Language": `${lang()}, en;q=0.5` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
  if (etag) headers["If-None-Match"] = etag;
  let res;
  try {
    res = await fetch(BASE + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
  } catch {
    setOnline(false);
    throw new OfflineError("offline");
  }
  const stale = res.headers.get("X-Kibitz-Offline") === "1";
  if (stale && !res.ok) {
    setOnline(false);
    throw new OfflineError("offline");
  }
  setOnline(!stale);
  if (res.status === 304) return { status: 304, data: null, etag: etag ?? null, stale };
  let data = null;
  const type = res.headers.get("Content-Type") || "";
  if (type.includes("json")) {
    try {
      data = await res.json();
    } catch {
      data = null;
    }
  }
  if (!res.ok) {
    const problem = data && typeof data === "object" ? data : { title: res.statusText, status: res.status };
    throw new ApiError(problem, res.status);
  }
  return { status: res.status, data, etag: res.headers.get("ETag"), stale };
}

/** @param {number} ms @returns {Promise<void>} */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Retry a write a few times on network failure, always with the same idempotency key.
 * @template T
 * @param {() => Promise<T>} fn
 * @param {number[]} [delays]
 * @returns {Promise<T>}
 */
async function withRetry(fn, delays = [500, 1500]) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof OfflineError) || attempt >= delays.length) throw err;
      await sleep(delays[attempt]);
    }
  }
}

const enc = encodeURIComponent;

/** @type {Promise<Schemas["GameInfo"][]> | null} */
let gamesAsked = null;

/**
 * The games and their rules as data: the same for a whole release, so asked once per page (the
 * home list and Magellan's powers both need it on opening); a failed answer is asked again.
 * @returns {Promise<Schemas["GameInfo"][]>}
 */
export function listGames() {
  gamesAsked ??= request("GET", "/games").then(
    (answer) => answer.data,
    (err) => {
      gamesAsked = null;
      throw err;
    },
  );
  return gamesAsked;
}

/**
 * @param {Schemas["CreateTable"]} body
 * @param {string} [idempotencyKey]
 * @returns {Promise<Schemas["CreatedTable"]>}
 */
export async function createTable(body, idempotencyKey) {
  return (await withRetry(() => request("POST", "/tables", { body, idempotencyKey }))).data;
}

/**
 * GET the table view; with etag → {status: 304} when unchanged.
 * @param {string} id
 * @param {string | null} [etag]
 * @returns {Promise<Answer<Schemas["Table"] | null>>}
 */
export function getTable(id, etag) {
  return request("GET", `/tables/${enc(id)}`, { etag });
}

/**
 * A player's own view (GET …/seats/<seat> with the seat's token) → {seat, view}; `stale` from the cache.
 * @param {string} id
 * @param {number} seat
 * @param {string} seatToken
 * @returns {Promise<Schemas["PrivateView"] & {stale: boolean}>}
 */
export async function getSeatView(id, seat, seatToken) {
  const res = await request("GET", `/tables/${enc(id)}/seats/${enc(seat)}`, { token: seatToken });
  return { ...res.data, stale: res.stale };
}

/**
 * An event that depends on a player's hidden cards (Magellan ledger: their bid, payment, slide …) is
 * refused unless it comes with that player's own seat token (`seat-token-required`, naming the
 * seat). The server decides which events those are; a phone holding that seat's link (the phone the
 * table was made on holds every seat's link) sends the event again with it.
 * @template T
 * @param {string} id
 * @param {(seatToken: string | undefined) => Promise<T>} send
 * @returns {Promise<T>}
 */
async function asSeatWhenAsked(id, send) {
  try {
    return await send(undefined);
  } catch (err) {
    const seat = err instanceof ApiError && err.code === "seat-token-required" ? err.problem.seat : null;
    const token = typeof seat === "number" && Number.isInteger(seat) ? seatToken(id, seat) : null;
    if (!token) throw err;
    return send(token);
  }
}

/** @param {string} id @param {number} seat @returns {string | null} */
function seatToken(id, seat) {
  const mine = getMySeat(id);
  if (mine && mine.seat === seat) return mine.token;
  return getSeatLinks(id).find((link) => link.seat === seat)?.token || null;
}

/**
 * @param {string} id
 * @param {string | null} token
 * @param {number} expectedVersion
 * @param {Schemas["AnyEvent"]} event
 * @param {string} idempotencyKey
 * @returns {Promise<Schemas["Appended"]>}
 */
export async function postEvent(id, token, expectedVersion, event, idempotencyKey) {
  const body = { expected_version: expectedVersion, event };
  const own = token ? null : getMySeat(id)?.token; // a player's own link alone: its seat token
  const send = (/** @type {string | undefined} */ seatTok) =>
    withRetry(() => request("POST", `/tables/${enc(id)}/events`, { body, token: seatTok || token || own, idempotencyKey }));
  return (await asSeatWhenAsked(id, send)).data;
}

/**
 * @param {string} id
 * @param {number} expectedVersion
 * @param {Schemas["AnyEvent"]} event
 * @returns {Promise<Schemas["PreviewResult"]>}
 */
export async function preview(id, expectedVersion, event) {
  const body = { expected_version: expectedVersion, event };
  const send = (/** @type {string | undefined} */ seatTok) => request("POST", `/tables/${enc(id)}/preview`, { body, token: seatTok });
  return (await asSeatWhenAsked(id, send)).data;
}

/**
 * @param {string} id
 * @returns {Promise<Schemas["Log"]>}
 */
export async function listEvents(id) {
  return (await request("GET", `/tables/${enc(id)}/events`)).data;
}

/**
 * The table after each log entry, replayed by the server (for a table whose dice or cards it draws).
 * @param {string} id
 * @returns {Promise<Schemas["Replay"]>}
 */
export async function getReplay(id) {
  return (await request("GET", `/tables/${enc(id)}/replay`)).data;
}

/**
 * @param {string} id
 * @returns {Promise<Schemas["BgStats"]>}
 */
export async function bgStatsLink(id) {
  return (await request("GET", `/tables/${enc(id)}/export/bgstats`)).data;
}

/**
 * @param {string} id
 * @param {"csv" | "json"} kind
 * @returns {string}
 */
export function exportUrl(id, kind) {
  return kind === "csv" ? `${BASE}/tables/${enc(id)}/export.csv` : `${BASE}/tables/${enc(id)}/export`;
}

// ---------- groups: players kept between games, their history and statistics ----------

/**
 * @param {Schemas["GroupCreate"]} body
 * @param {string} [idempotencyKey]
 * @returns {Promise<Schemas["CreatedGroup"]>}
 */
export async function createGroup(body, idempotencyKey) {
  return (await withRetry(() => request("POST", "/groups", { body, idempotencyKey }))).data;
}

/**
 * @overload
 * @param {string} id
 * @param {""} [rest]
 * @returns {Promise<Answer<Schemas["Group"]>>}
 */
/**
 * @overload
 * @param {string} id
 * @param {`/history${string}`} rest
 * @returns {Promise<Answer<Schemas["History"]>>}
 */
/**
 * @overload
 * @param {string} id
 * @param {`/stats${string}`} rest
 * @returns {Promise<Answer<Schemas["Stats"]>>}
 */
/**
 * @overload
 * @param {string} id
 * @param {`/players/${string}`} rest
 * @returns {Promise<Answer<Schemas["PlayerPage"]>>}
 */
/**
 * @overload
 * @param {string} id
 * @param {`/head-to-head?${string}`} rest
 * @returns {Promise<Answer<Schemas["HeadToHead"]>>}
 */
/**
 * @overload
 * @param {string} id
 * @param {`/tables/${string}/progress`} rest
 * @returns {Promise<Answer<Schemas["Progress"]>>}
 */
/**
 * GET a group's resource ("" for the group itself, "/history?game=…", "/stats"): {data, stale}.
 * @param {string} id
 * @param {string} [rest]
 * @returns {Promise<Answer<unknown>>}
 */
export function readGroup(id, rest = "") {
  return request("GET", `/groups/${enc(id)}${rest}`);
}

/**
 * The group's whole CSV export as one text: every page (`Link: rel="next"`), the header row once.
 * Rejects OfflineError without a network, ApiError on a refusal.
 * @param {string} id
 * @returns {Promise<string>}
 */
export async function groupCsv(id) {
  /** @type {string | null} */
  let next = `${BASE}/groups/${enc(id)}/export.csv`;
  /** @type {string[]} */
  const parts = [];
  while (next) {
    let res;
    try {
      res = await fetch(next, { cache: "no-store", headers: { "Accept-Language": `${lang()}, en;q=0.5` } });
    } catch {
      throw new OfflineError("offline");
    }
    if (res.headers.get("X-Kibitz-Offline") === "1") throw new OfflineError("offline");
    if (!res.ok) throw new ApiError(await res.json().catch(() => ({ title: res.statusText, status: res.status })), res.status);
    const text = await res.text();
    parts.push(parts.length ? text.slice(text.indexOf("\n") + 1) : text);
    const link = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get("Link") || "");
    next = link ? link[1] : null;
  }
  return parts.join("");
}

/**
 * @param {string} id
 * @param {string} token
 * @param {Schemas["GroupUpdate"]} body
 * @returns {Promise<Schemas["Group"]>}
 */
export async function updateGroup(id, token, body) {
  return (await request("PUT", `/groups/${enc(id)}`, { body, token })).data;
}

/**
 * @param {string} id
 * @param {string | null} token
 * @param {Schemas["AddTable"]} body
 * @returns {Promise<Schemas["Membership"]>}
 */
export async function addGroupTable(id, token, body) {
  return (await withRetry(() => request("POST", `/groups/${enc(id)}/tables`, { body, token }))).data;
}

/**
 * Import a BG Stats export's plays into the group (all or nothing; again adds nothing).
 * @param {string} id
 * @param {string} token
 * @param {Schemas["BgStatsExport"]} body
 * @returns {Promise<Schemas["ImportResult"]>}
 */
export async function importBgStats(id, token, body) {
  return (await request("POST", `/groups/${enc(id)}/imports/bgstats`, { body, token })).data;
}

/**
 * @param {string} id
 * @param {string} token
 * @param {string} tableId
 * @param {boolean} abandoned
 * @returns {Promise<Schemas["Membership"]>}
 */
export async function abandonGroupTable(id, token, tableId, abandoned) {
  return (await request("PATCH", `/groups/${enc(id)}/tables/${enc(tableId)}`, { body: { abandoned }, token })).data;
}

// ---------- an evening: a table's next game (issue 33) ----------

/**
 * The next game started from a table (a rematch, the group's next game), or null while there is
 * none. With the table's write token the answer carries the next game's join link; with `seat` and
 * that seat's own token, the player's own link there.
 * @param {string} id
 * @param {string | null} token
 * @param {number | null} [seat]
 * @returns {Promise<Schemas["NextTable"] | null>}
 */
export async function getNextTable(id, token, seat = null) {
  try {
    return (await request("GET", `/tables/${enc(id)}/next${seat === null ? "" : `?seat=${seat}`}`, { token })).data;
  } catch (err) {
    if (err instanceof ApiError && err.code === "no-next-table") return null;
    throw err;
  }
}

/**
 * Name the next game of a table (both tables' write tokens); → the next game that stands.
 * @param {string} id
 * @param {string} token
 * @param {Schemas["HandOver"]} body
 * @returns {Promise<Schemas["NextTable"]>}
 */
export async function handOverTable(id, token, body) {
  return (await withRetry(() => request("POST", `/tables/${enc(id)}/next`, { body, token }))).data;
}
