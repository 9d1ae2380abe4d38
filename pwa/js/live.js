// Keep a table view fresh: a live stream (Server-Sent Events, GET …/stream) while one can be held
// open, else conditional polling (poll.js). The stream's first event is the table as it is now and
// the browser resumes it by itself with Last-Event-ID after a short drop. Each later change comes as
// a JSON Patch; once this phone's own referee holds the table (sync/refereed.js), the stream is
// opened again as `?view=log&since=<the version delivered last>`: the new log entries alone (about
// 200 bytes a change instead of ~1,800), the referee working out the rest — no change missed or
// doubled across the switch, and back to patches if the referee gives the table back.
import { lang, onLanguageChange } from "./i18n.js";
import { startPolling } from "./poll.js";
import { reachedServer } from "./api.js";
import { applyPatch } from "./sync/patch.js";
import { onRefereeHolds, refereeHas } from "./sync/refereed.js";

// Errors in a row before the stream is given up for polling (proxies that buffer, no SSE support).
const FAILURES_BEFORE_POLLING = 3;

/** @typedef {import("kibitz-api").components["schemas"]["TableStreamMessage"]} StreamMessage */
/** @typedef {import("kibitz-api").components["schemas"]["TableStreamPatch"]} StreamPatch */
/** @typedef {import("kibitz-api").components["schemas"]["TableStreamLog"]} StreamLog */
/** @typedef {import("kibitz-api").components["schemas"]["Table"]} Table */

/**
 * One table's live stream and what stands in for it.
 * @typedef {object} Stream
 * @property {string} tableId
 * @property {() => import("./poll.js").Poller} polling starts the polling that replaces the stream
 * @property {import("./poll.js").Follow["onTable"]} onTable
 * @property {EventSource | null} source
 * @property {import("./poll.js").Poller | null} poller
 * @property {number} failures errors in a row
 * @property {boolean} stopped
 * @property {Table | null} current the table as this stream last sent it: what its patches apply to
 * @property {boolean} lean the phone's referee derives the table: the log alone will do
 */

/**
 * @param {string} tableId
 * @param {import("./poll.js").Follow} follow
 * @returns {import("./poll.js").Poller}
 */
export function followTable(tableId, { etag = null, interval = 1000, onTable, onError }) {
  const polling = () => startPolling(tableId, { etag, interval, onTable, onError });
  if (typeof EventSource !== "function") return polling();
  /** @type {Stream} */
  const stream = { tableId, polling, onTable, source: null, poller: null, failures: 0, stopped: false, current: null, lean: refereeHas(tableId) };
  open(stream);
  /** The same stream opened again (in another language, or in the other form). */
  const reopen = () => {
    if (!stream.source || stream.stopped) return;
    stream.source.close();
    open(stream);
  };
  // Another language chosen: the stream starts again in it (its first event is the table now).
  const forgetLanguage = onLanguageChange(reopen);
  // The referee took the table over (or gave it back): the same stream in the other form.
  const forgetReferee = onRefereeHolds(tableId, (holds) => {
    stream.lean = holds;
    reopen();
  });
  return {
    stop() {
      stream.stopped = true;
      forgetLanguage();
      forgetReferee();
      if (stream.source) stream.source.close();
      if (stream.poller) stream.poller.stop();
    },
    /** Back online (or asked to refresh): try the stream again; it starts with the current table. */
    now() {
      if (stream.stopped) return;
      if (stream.poller) {
        stream.poller.stop();
        stream.poller = null;
      }
      if (stream.source && stream.source.readyState !== EventSource.CLOSED) return;
      stream.failures = 0;
      open(stream);
    },
  };
}

/**
 * @param {Stream} stream
 * @param {Table} table
 * @param {number} version
 * @param {StreamMessage["entries"]} list
 * @returns {void}
 */
function deliver(stream, table, version, list) {
  stream.current = table;
  const entries = Array.isArray(list) && list.length ? list : null;
  stream.onTable(table, { stale: false, live: true, entries, from: entries ? version - entries.length : null });
}

/** @param {Stream} stream @returns {void} */
function open(stream) {
  // The language the player chose in the app (an EventSource cannot send Accept-Language itself).
  // After its first event (the whole table) the stream sends each change as a JSON Patch; a lean
  // stream names the version delivered last (`since`, what Last-Event-ID says on a resume) and
  // sends only the entries after it.
  const since = stream.lean && stream.current ? `&since=${stream.current.version}` : "";
  if (!stream.lean) stream.current = null;
  const form = stream.lean ? "view=log" : "patches=true";
  const source = new EventSource(
    `/api/tables/${encodeURIComponent(stream.tableId)}/stream?${form}${since}&lang=${encodeURIComponent(lang())}`,
  );
  stream.source = source;
  source.addEventListener("open", () => reachedServer()); // back after a drop: say so at once
  source.addEventListener("table", (message) => onWhole(stream, message));
  source.addEventListener("patch", (message) => onPatch(stream, message));
  source.addEventListener("log", (message) => onLog(stream, message));
  source.onerror = () => {
    stream.failures += 1;
    // CLOSED: the server refused the stream (e.g. 429, too many streams from this address) and
    // the browser will not try again by itself: poll at once. Otherwise it is retrying a drop.
    if (source.readyState === EventSource.CLOSED || stream.failures >= FAILURES_BEFORE_POLLING) fallBack(stream);
  };
}

/** The whole table (the stream's first event). @param {Stream} stream @param {MessageEvent} message @returns {void} */
function onWhole(stream, message) {
  stream.failures = 0;
  reachedServer();
  /** @type {StreamMessage} */
  let data;
  try {
    data = JSON.parse(message.data);
  } catch (err) {
    console.warn("stream", err);
    return;
  }
  deliver(stream, data.table, data.version, data.entries);
}

/** A change as a JSON Patch of the table last sent. @param {Stream} stream @param {MessageEvent} message @returns {void} */
function onPatch(stream, message) {
  stream.failures = 0;
  reachedServer();
  /** @type {Table} */
  let table;
  /** @type {StreamPatch} */
  let data;
  try {
    data = JSON.parse(message.data);
    const current = stream.current;
    if (!current || current.version !== data.base) throw new Error(`no table at version ${data.base}`);
    table = applyPatch(current, data.patch);
  } catch (err) {
    // Not the table the patch is for (or a broken one): start again from the whole table.
    console.warn("stream", err);
    restart(stream);
    return;
  }
  deliver(stream, table, data.version, data.entries);
}

/** A change as its log entries alone (a lean stream). @param {Stream} stream @param {MessageEvent} message @returns {void} */
function onLog(stream, message) {
  stream.failures = 0;
  reachedServer();
  /** @type {StreamLog} */
  let data;
  /** @type {Table} */
  let current;
  try {
    data = JSON.parse(message.data);
    const from = data.version - data.entries.length;
    if (!stream.current || stream.current.version !== from) throw new Error(`no table at version ${from}`);
    current = stream.current;
  } catch (err) {
    console.warn("stream", err);
    restart(stream);
    return;
  }
  // What the referee cannot derive; the rest of `current` stays as it was (the session's referee
  // replays the entries and composes the view itself).
  const at = data.entries[data.entries.length - 1].at;
  deliver(stream, { ...current, version: data.version, updated_at: at, seed: data.seed ?? null }, data.version, data.entries);
}

/** @param {Stream} stream @returns {void} */
function restart(stream) {
  if (stream.source) stream.source.close();
  if (!stream.stopped) open(stream); // a new EventSource sends no Last-Event-ID: its first event is the whole table
}

/** @param {Stream} stream @returns {void} */
function fallBack(stream) {
  if (stream.source) stream.source.close();
  stream.source = null;
  if (!stream.poller && !stream.stopped) stream.poller = stream.polling();
}
