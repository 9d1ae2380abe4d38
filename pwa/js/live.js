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
 * @param {string} tableId
 * @param {import("./poll.js").Follow} follow
 */
export function followTable(tableId, { etag = null, interval = 1000, onTable, onError }) {
  const polling = () => startPolling(tableId, { etag, interval, onTable, onError });
  if (typeof EventSource !== "function") return polling();
  /** @type {EventSource | null} */
  let source = null;
  /** @type {ReturnType<typeof startPolling> | null} */
  let poller = null;
  let failures = 0;
  let stopped = false;
  /** The table as this stream last sent it: what its patches apply to. @type {Table | null} */
  let current = null;
  let lean = refereeHas(tableId); // the phone's referee derives the table: the log alone will do

  /** @param {Table} table @param {number} version @param {StreamMessage["entries"]} list */
  function deliver(table, version, list) {
    current = table;
    const entries = Array.isArray(list) && list.length ? list : null;
    onTable(table, { stale: false, live: true, entries, from: entries ? version - entries.length : null });
  }

  function open() {
    // The language the player chose in the app (an EventSource cannot send Accept-Language itself).
    // After its first event (the whole table) the stream sends each change as a JSON Patch; a lean
    // stream names the version delivered last (`since`, what Last-Event-ID says on a resume) and
    // sends only the entries after it.
    const since = lean && current ? `&since=${current.version}` : "";
    if (!lean) current = null;
    const form = lean ? "view=log" : "patches=true";
    source = new EventSource(
      `/api/tables/${encodeURIComponent(tableId)}/stream?${form}${since}&lang=${encodeURIComponent(lang())}`,
    );
    source.addEventListener("open", () => reachedServer()); // back after a drop: say so at once
    source.addEventListener("table", (message) => {
      failures = 0;
      reachedServer();
      /** @type {StreamMessage} */
      let data;
      try {
        data = JSON.parse(message.data);
      } catch (err) {
        console.warn("stream", err);
        return;
      }
      deliver(data.table, data.version, data.entries);
    });
    source.addEventListener("patch", (message) => {
      failures = 0;
      reachedServer();
      /** @type {Table} */
      let table;
      /** @type {StreamPatch} */
      let data;
      try {
        data = JSON.parse(message.data);
        if (!current || current.version !== data.base) throw new Error(`no table at version ${data.base}`);
        table = applyPatch(current, data.patch);
      } catch (err) {
        // Not the table the patch is for (or a broken one): start again from the whole table.
        console.warn("stream", err);
        restart();
        return;
      }
      deliver(table, data.version, data.entries);
    });
    source.addEventListener("log", (message) => {
      failures = 0;
      reachedServer();
      /** @type {StreamLog} */
      let data;
      try {
        data = JSON.parse(message.data);
        const from = data.version - data.entries.length;
        if (!current || current.version !== from) throw new Error(`no table at version ${from}`);
      } catch (err) {
        console.warn("stream", err);
        restart();
        return;
      }
      // What the referee cannot derive; the rest of `current` stays as it was (the session's
      // referee replays the entries and composes the view itself).
      const at = data.entries[data.entries.length - 1].at;
      deliver({ ...current, version: data.version, updated_at: at, seed: data.seed ?? null }, data.version, data.entries);
    });
    source.onerror = () => {
      failures += 1;
      // CLOSED: the server refused the stream (e.g. 429, too many streams from this address) and
      // the browser will not try again by itself: poll at once. Otherwise it is retrying a drop.
      if (source?.readyState === EventSource.CLOSED || failures >= FAILURES_BEFORE_POLLING) fallBack();
    };
  }

  function restart() {
    if (source) source.close();
    if (!stopped) open(); // a new EventSource sends no Last-Event-ID: its first event is the whole table
  }

  function fallBack() {
    if (source) source.close();
    source = null;
    if (!poller && !stopped) poller = polling();
  }

  open();
  // The referee took the table over (or gave it back): the same stream in the other form.
  const forgetReferee = onRefereeHolds(tableId, (holds) => {
    lean = holds;
    if (!source || stopped) return;
    source.close();
    open();
  });
  // Another language chosen: the stream starts again in it (its first event is the table now).
  const forgetLanguage = onLanguageChange(() => {
    if (!source || stopped) return;
    source.close();
    open();
  });
  return {
    stop() {
      stopped = true;
      forgetLanguage();
      forgetReferee();
      if (source) source.close();
      if (poller) poller.stop();
    },
    /** Back online (or asked to refresh): try the stream again; it starts with the current table. */
    now() {
      if (stopped) return;
      if (poller) {
        poller.stop();
        poller = null;
      }
      if (source && source.readyState !== EventSource.CLOSED) return;
      failures = 0;
      open();
    },
  };
}
