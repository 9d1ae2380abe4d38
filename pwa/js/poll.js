// Keep a table view fresh: GET every ~1 s with If-None-Match; paused while the page is hidden.
import { getTable, OfflineError } from "./api.js";

/** @typedef {import("kibitz-api").components["schemas"]["Table"]} Table */
/**
 * @typedef {object} Follow
 * @property {string | null} [etag]
 * @property {number} [interval]
 * @property {(table: Table, how: {stale: boolean, live?: boolean, entries?: any[] | null, from?: number | null}) => void} onTable
 * @property {(err: unknown) => void} [onError]
 */
/** @typedef {{stop: () => void, now: () => void}} Poller what keeps a table fresh: stop it, or ask at once */

/**
 * @param {string} tableId
 * @param {Follow} follow
 * @returns {Poller}
 */
export function startPolling(tableId, { etag = null, interval = 1000, onTable, onError }) {
  /** @type {number | undefined} */
  let timer;
  let stopped = false;
  let inFlight = false;

  /** @returns {Promise<void>} */
  async function tick() {
    timer = undefined;
    if (stopped || document.hidden || inFlight) return;
    inFlight = true;
    try {
      const res = await getTable(tableId, etag);
      if (res.status === 200 && res.data) {
        if (!res.stale) etag = res.etag || null;
        onTable(res.data, { stale: res.stale });
      }
    } catch (err) {
      if (onError) onError(err);
      else if (!(err instanceof OfflineError)) console.warn("poll", err);
    } finally {
      inFlight = false;
      schedule();
    }
  }

  /** @param {number} [delay] @returns {void} */
  function schedule(delay = interval) {
    if (stopped || document.hidden || timer) return;
    timer = setTimeout(tick, delay);
  }

  /** @returns {void} */
  function onVisibility() {
    if (document.hidden) {
      clearTimeout(timer);
      timer = undefined;
    } else {
      schedule(0);
    }
  }

  document.addEventListener("visibilitychange", onVisibility);
  schedule();

  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisibility);
    },
    /** Poll right away (e.g. after the connection came back). */
    now() {
      clearTimeout(timer);
      timer = undefined;
      schedule(0);
    },
  };
}
