// The phone's referee (the server's rules under Pyodide, referee/client.js) and the tables it holds
// for a session: the table shown (kept in step with the shown log, applying only what is new) and
// scratch tables for the log view and a conflict's sheet. Nothing here knows the record's shape.
import { ask } from "../referee/client.js";
import { sameEvent } from "./merge.js";

/** @typedef {import("./merge.js").GameEvent} GameEvent */
/** @typedef {import("./record.js").Problem} Problem */
/** @typedef {import("./record.js").SyncRecord} SyncRecord */
/**
 * What the referee makes of a log: the game's state, what may be recorded next, the result.
 * @typedef {{state: unknown, legal_actions: unknown, finished: boolean, result: unknown}} Rules
 */
/**
 * The referee's answer: its view, or its refusal (`index`: of the event it refused, when opening).
 * @typedef {{ok: true, view: Rules, options?: Record<string, unknown>, error?: undefined, index?: undefined} | {ok: false, error: Problem, index?: number, view?: undefined, options?: undefined}} Answer
 */

/**
 * The request that opens a referee table `as` on a record's game with `events`.
 * @param {Pick<SyncRecord, "game" | "players" | "options" | "seed">} record
 * @param {string} as
 * @param {readonly GameEvent[]} events
 */
export function opening(record, as, events) {
  return { op: "open", id: as, game: record.game, players: record.players, options: record.options, seed: record.seed ?? 0, events };
}

/**
 * One request to the referee.
 * @param {Record<string, unknown>} request
 * @returns {Promise<Answer>}
 */
export function refer(request) {
  return ask(request);
}

/**
 * Apply `event` to the referee's table `id` (`commit` false: only to see the result).
 * @param {string} id
 * @param {GameEvent} event
 * @param {boolean} [commit]
 */
export function applyOn(id, event, commit = true) {
  return refer({ op: "apply", id, event, commit });
}

/** @param {string} id */
export function closeOn(id) {
  return refer({ op: "close", id });
}

/**
 * A scratch table on the referee: opened on `start`, handed to `work`, always closed after.
 * @template T
 * @param {Pick<SyncRecord, "game" | "players" | "options" | "seed">} record
 * @param {string} scratch
 * @param {readonly GameEvent[]} start
 * @param {(opened: Answer) => Promise<T>} work
 * @returns {Promise<T>}
 */
export async function onScratch(record, scratch, start, work) {
  try {
    return await work(await refer(opening(record, scratch, start)));
  } finally {
    await closeOn(scratch);
  }
}

/** The session's table on the referee: which events it holds (`events`) and its view of them. */
export class HeldTable {
  /** @param {string} id */
  constructor(id) {
    this.id = id;
    /** @type {GameEvent[] | null} the events the referee's copy holds (always the shown log once local) */
    this.events = null;
    /** @type {Rules | null} */
    this.view = null;
  }

  /**
   * The referee's table becomes `events`: only what is new is applied, else it is opened again.
   * @param {Pick<SyncRecord, "game" | "players" | "options" | "seed">} record
   * @param {readonly GameEvent[]} events
   * @returns {Promise<Answer>}
   */
  async hold(record, events) {
    const held = this.events;
    const extends_ = held && held.length <= events.length && held.every((event, index) => sameEvent(event, events[index]));
    if (held && extends_ && held.length === events.length && this.view) return { ok: true, view: this.view };
    if (held && extends_) {
      /** @type {Answer | null} */
      let answer = null;
      for (const event of events.slice(held.length)) {
        answer = await applyOn(this.id, event);
        if (!answer.ok) break;
      }
      if (answer?.ok) return this.keep(events, answer.view);
    }
    const answer = await refer(opening(record, this.id, events)); // from scratch (and the index of a refusal)
    if (answer.ok) return this.keep(events, answer.view);
    this.forget();
    return { ok: false, error: answer.error, index: answer.index ?? -1 };
  }

  /**
   * The referee's table holds `events` now, making `view`.
   * @param {readonly GameEvent[]} events
   * @param {Rules} view
   * @returns {Answer}
   */
  keep(events, view) {
    this.events = [...events];
    this.view = view;
    return { ok: true, view };
  }

  /** Nothing is known of the referee's table (it is opened again on the next `hold`). */
  forget() {
    this.events = null;
    this.view = null;
  }
}
