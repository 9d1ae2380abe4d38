// The sender: the waiting entries go to the server in order, each with its Idempotency-Key (a retry
// after a lost answer is answered from the server's memory, never stored twice) and at the very
// position it was made at. It stops offline, on a conflict (409 stale-version: another phone's
// entry is there; the players decide), or when everything is on the server. What an answer does to
// the record is the session's (`port`); here only the order and the meaning of the answers.
import * as api from "../api.js";
import * as store from "../store.js";

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */
/** @typedef {import("./merge.js").Waiting} Waiting */
/** @typedef {import("./record.js").Problem} Problem */
/**
 * @typedef {object} SenderPort
 * @property {() => boolean} ready something is to be sent and may be (local, no conflict, page shown)
 * @property {() => Promise<void>} create create a table started offline first (nothing when it exists)
 * @property {() => {id: string, item: Waiting, expectedVersion: number} | null} next what to send next
 * @property {(item: Waiting, appended: Schemas["Appended"]) => Promise<void>} stored the server stored it
 * @property {(item: Waiting, problem: Problem | null) => Promise<boolean>} refused it was refused:
 *   `problem` null for another phone's entry at its position, else a refusal for good; false when
 *   the players chose meanwhile (`item` no longer waits first: go on)
 * @property {() => void} changed tell the screen
 */

/**
 * @param {SenderPort} port
 * @returns {{flush: () => Promise<void>}}
 */
export function createSender(port) {
  /** @type {Promise<void> | null} */
  let running = null;
  let again = false;

  /**
   * Send the waiting entries; resolves when this sending (or the one it joined) is over.
   * @returns {Promise<void>}
   */
  function flush() {
    if (running) {
      again = true; // asked while sending (e.g. a choice made meanwhile): look again after
      return running;
    }
    if (!port.ready()) return Promise.resolve();
    again = false;
    const run = sendAll()
      .catch((err) => {
        if (!(err instanceof api.OfflineError)) console.warn("sync", err);
      })
      .finally(() => {
        running = null;
        port.changed();
      });
    running = run.then(() => (again ? flush() : undefined));
    return running;
  }

  async function sendAll() {
    await port.create();
    for (let next = port.next(); next; next = port.next()) {
      const { id, item, expectedVersion } = next;
      /** @type {Schemas["Appended"]} */
      let appended;
      try {
        const event = /** @type {Schemas["AnyEvent"]} */ (item.event);
        appended = await api.postEvent(id, store.getToken(id), expectedVersion, event, item.key);
      } catch (err) {
        if (err instanceof api.OfflineError) {
          again = false; // offline: the next tap, the "online" event or the timer tries again
          return;
        }
        if (await port.refused(item, refusalOf(err))) return;
        continue;
      }
      await port.stored(item, appended); // at appended.seq, its very position (sent before when `replayed`)
      port.changed();
    }
  }

  return { flush };
}

/**
 * What a refusal of the server means for a waiting entry: null when it was not stored because
 * another phone's entry is at its position (409 stale-version: its key was not used), else the
 * problem that refuses it for good (a link no longer accepted, a rule the phone's older rules
 * allowed): the players see why and drop it; it is never dropped unasked.
 * @param {unknown} err
 * @returns {Problem | null}
 */
export function refusalOf(err) {
  if (err instanceof api.ApiError) return err.code === "stale-version" ? null : err.problem || { detail: String(err) };
  return { detail: String(err) };
}
