// Keep a table view fresh: a live stream (Server-Sent Events, GET …/stream) while one can be held
// open, else conditional polling (poll.js). The stream's first event is the table as it is now and
// the browser resumes it by itself with Last-Event-ID after a short drop.
import { lang, onLanguageChange } from "./i18n.js";
import { startPolling } from "./poll.js";
import { reachedServer } from "./api.js";

// Errors in a row before the stream is given up for polling (proxies that buffer, no SSE support).
const FAILURES_BEFORE_POLLING = 3;

/** @typedef {import("kibitz-api").components["schemas"]["TableStreamMessage"]} StreamMessage */

/**
 * @param {string} tableId
 * @param {import("./poll.js").Follow} follow
 */
export function followTable(tableId, { etag = null, interval = 1000, onTable, onError }) {
  const polling = () => startPolling(tableId, { etag, interval, onTable, onError });
  if (typeof EventSource !== "function") return polling();
  let source = null;
  let poller = null;
  let failures = 0;
  let stopped = false;

  function open() {
    // The language the player chose in the app (an EventSource cannot send Accept-Language itself).
    source = new EventSource(`/api/tables/${encodeURIComponent(tableId)}/stream?lang=${encodeURIComponent(lang())}`);
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
      const entries = Array.isArray(data.entries) && data.entries.length ? data.entries : null;
      onTable(data.table, { stale: false, live: true, entries, from: entries ? data.version - entries.length : null });
    });
    source.onerror = () => {
      failures += 1;
      // CLOSED: the server refused the stream (e.g. 429, too many streams from this address) and
      // the browser will not try again by itself: poll at once. Otherwise it is retrying a drop.
      if (source.readyState === EventSource.CLOSED || failures >= FAILURES_BEFORE_POLLING) fallBack();
    };
  }

  function fallBack() {
    if (source) source.close();
    source = null;
    if (!poller && !stopped) poller = polling();
  }

  open();
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
