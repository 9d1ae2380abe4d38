// A table's record on this phone (kept in IndexedDB by localdb.js) and every change made to it.
// This module is the record's only writer: each function takes a record and returns a new one (or
// the same one when nothing changes), never changing its argument, so the session holds one value
// it replaces whole and a test can replay any sequence of changes.
//
// Beside the events the record keeps, for the log view, when each server entry was stored
// (`serverAt`, parallel to serverEvents) and which entries this phone sent (`sentHere`: their seqs):
// the server's log does not say which phone or seat recorded an entry.
import { headOf, inEffect, reconcile, sameEvent, waitingEntry } from "./merge.js";

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */
/** @typedef {import("./merge.js").GameEvent} GameEvent */
/** @typedef {import("./merge.js").Waiting} Waiting */
/** @typedef {import("./merge.js").Merged} Merged */
/** @typedef {{detail?: string, code?: string, status?: number, [field: string]: unknown}} Problem */
/**
 * The players must decide about the waiting entries made from `base` on: another phone's entry is
 * there (or, `refused`, the rules or the server refuse them for good: they can only drop them).
 * @typedef {{base: number, refused?: boolean, error?: Problem}} Conflict
 */
/** @typedef {{body: Schemas["CreateTable"] & {seed?: number}, key: string}} Creation */
/**
 * @typedef {object} SyncRecord
 * @property {string} id
 * @property {string} game
 * @property {Schemas["CreateTable"]["players"]} players
 * @property {Record<string, unknown>} options
 * @property {string | number | null} seed the server's seed (format 3: its digits), or this phone's
 * @property {number} serverVersion the server's log position known here; -1: the log never read
 * @property {GameEvent[]} serverEvents
 * @property {(string | null)[]} [serverAt]
 * @property {number[]} [sentHere]
 * @property {Waiting[]} queue
 * @property {Conflict | null} conflict
 * @property {Creation | null} created the creation of a table started offline, until the server has it
 * @property {string} createdAt
 */
/** @typedef {{events: {event: GameEvent, at?: string | null}[], version: number}} LogRead */

/**
 * A table this phone starts keeping (the server's log not read yet).
 * @param {string} id
 * @param {{game: string, players: unknown, options: unknown, seed?: string | number | null, created_at?: string}} table
 * @returns {SyncRecord}
 */
export function fresh(id, table) {
  return {
    id,
    game: table.game,
    players: /** @type {SyncRecord["players"]} */ (table.players),
    options: /** @type {Record<string, unknown>} */ (table.options),
    seed: table.seed ?? null,
    serverVersion: -1,
    serverEvents: [],
    serverAt: [],
    sentHere: [],
    queue: [],
    conflict: null,
    created: null,
    createdAt: table.created_at || new Date().toISOString(),
  };
}

/**
 * A table started on this phone only, to be created on the server with `created` once it is back.
 * @param {string} id
 * @param {Creation} created
 * @param {Record<string, unknown>} options the options as the referee completed them
 * @param {number} seed
 * @returns {SyncRecord}
 */
export function startedHere(id, created, options, seed) {
  return { ...fresh(id, { ...created.body, options, seed }), serverVersion: 0, created };
}

/**
 * A record stored by an older version of the app: each waiting entry gets the position it was
 * made at, a conflict the position it is about.
 * @param {any} stored
 * @returns {SyncRecord | null}
 */
export function upgraded(stored) {
  if (!stored) return null;
  const { queueBase, conflictPrefix, ...record } = stored;
  const start = queueBase ?? record.serverVersion;
  /** @type {Waiting[]} */
  const queue = (record.queue || []).map((/** @type {Waiting} */ item, /** @type {number} */ index) => ({ ...item, base: item.base ?? start + index }));
  /** @type {Conflict | null} */
  let conflict = record.conflict || null;
  if (conflict && conflict.base === undefined) conflict = { base: queue[0]?.base ?? start };
  if (!queue.length) conflict = null;
  return { ...record, queue, conflict };
}

/**
 * What the phone shows of its record: merge.js's one function of (log, queue, conflict).
 * @param {SyncRecord} record
 * @returns {Merged}
 */
export function merged(record) {
  return reconcile(record.serverEvents, record.queue, !!record.conflict);
}

/**
 * The first `n` stored times (null where an older record did not keep them).
 * @param {SyncRecord} record
 * @param {number} n
 */
function timesUpTo(record, n) {
  return Array.from({ length: n }, (_, index) => record.serverAt?.[index] ?? null);
}

/**
 * The whole log read from the server.
 * @param {SyncRecord} record
 * @param {LogRead} log
 * @returns {SyncRecord}
 */
export function withLog(record, log) {
  return {
    ...record,
    serverEvents: log.events.map((entry) => entry.event),
    serverAt: log.events.map((entry) => entry.at ?? null),
    serverVersion: log.version,
  };
}

/**
 * Entries the server's log gained (the stream's, from position `from` to `version`); null when
 * they do not follow on from what the phone knows (then it reads the whole log).
 * @param {SyncRecord} record
 * @param {{event: GameEvent, at?: string | null}[] | null} entries
 * @param {number | null} from
 * @param {number} version
 * @returns {SyncRecord | null}
 */
export function extended(record, entries, from, version) {
  if (version <= record.serverVersion) return record;
  if (!entries || from !== record.serverVersion || from + entries.length !== version) return null;
  return {
    ...record,
    serverEvents: [...record.serverEvents, ...entries.map((entry) => entry.event)],
    serverAt: [...timesUpTo(record, from), ...entries.map((entry) => entry.at ?? null)],
    serverVersion: version,
  };
}

/**
 * A tap on the table the player saw (`seen`: its log position): the entry to wait ({item, shown}:
 * the log it is made on), or why it is refused ("sync-conflict": the players decide first;
 * "tap-on-old-table": another entry arrived meanwhile, they look again).
 * @param {SyncRecord} record
 * @param {GameEvent} event
 * @param {string} key
 * @param {number | null} seen
 * @returns {{item: Waiting, shown: GameEvent[]} | {refused: "sync-conflict" | "tap-on-old-table"}}
 */
export function tapped(record, event, key, seen = null) {
  const now = merged(record);
  if (now.met) return { refused: "sync-conflict" };
  if (seen !== null && seen !== now.shown.length) return { refused: "tap-on-old-table" };
  return { item: waitingEntry(event, now.shown, key), shown: now.shown };
}

/**
 * The tapped entry waits (the phone's referee took it).
 * @param {SyncRecord} record
 * @param {Waiting} item
 * @returns {SyncRecord}
 */
export function waiting(record, item) {
  return { ...record, queue: [...record.queue, item] };
}

/**
 * A waiting entry the server stored at `seq` (its very position); `known` false when the phone's
 * log is behind that (then it reads the whole log).
 * @param {SyncRecord} record
 * @param {Waiting} item
 * @param {number} seq
 * @returns {{record: SyncRecord, known: boolean}}
 */
export function stored(record, item, seq) {
  if (record.queue[0] !== item) return { record, known: true };
  const sentHere = [...new Set([...(record.sentHere || []), seq])]; // a position never changes
  let next = { ...record, queue: record.queue.slice(1), sentHere };
  if (record.serverEvents.length === seq - 1) {
    const at = item.at ?? new Date().toISOString();
    next = { ...next, serverEvents: [...record.serverEvents, item.event], serverAt: [...timesUpTo(record, seq - 1), at], serverVersion: seq };
  }
  return { record: next, known: next.serverEvents.length >= seq };
}

/**
 * The server refused the first waiting entry at its position (another phone's entry is there):
 * the players decide. `problem`: a refusal for good instead (they can only drop it). Null when
 * `item` no longer waits first (the players chose meanwhile).
 * @param {SyncRecord} record
 * @param {Waiting} item
 * @param {Problem | null} [problem]
 * @returns {SyncRecord | null}
 */
export function refused(record, item, problem = null) {
  if (record.queue[0] !== item) return null;
  return { ...record, conflict: problem ? { base: item.base, refused: true, error: problem } : { base: item.base } };
}

/**
 * The phone's referee refuses the first waiting entry on the server's log (newer rules there).
 * @param {SyncRecord} record
 * @param {Problem} error
 * @returns {SyncRecord}
 */
export function refusedByRules(record, error) {
  return { ...record, conflict: { base: record.queue[0].base, refused: true, error } };
}

/**
 * Note a conflict the phone can see by itself: another entry sits where its first waiting one was made.
 * @param {SyncRecord} record
 * @returns {SyncRecord}
 */
export function noteMet(record) {
  const now = merged(record);
  if (now.met && !record.conflict && now.confirmed === 0) return { ...record, conflict: { base: now.waiting[0].base } };
  return record;
}

/**
 * The players chose: `queue` (merge.js `resolved`) waits instead, the conflict is over.
 * @param {SyncRecord} record
 * @param {Waiting[]} queue
 * @returns {SyncRecord}
 */
export function chosen(record, queue) {
  return { ...record, queue, conflict: null };
}

/**
 * A table started here got its server id: what was recorded here before is this phone's, in order
 * (the server's log is read again when the creation was a retry).
 * @param {SyncRecord} record
 * @param {string} id
 * @returns {SyncRecord}
 */
export function onServer(record, id) {
  const sentHere = record.queue.map((item) => item.base + 1);
  return { ...record, id, created: null, serverVersion: 0, serverEvents: [], serverAt: [], sentHere };
}

/**
 * What to send next: the first waiting entry, at the very position it was made at (never the
 * server's position now: that would append it across another phone's entries). Null when nothing
 * is to be sent (nothing waits, or the players decide first).
 * @param {SyncRecord} record
 * @returns {{item: Waiting, expectedVersion: number} | null}
 */
export function nextToSend(record) {
  if (record.conflict || !record.queue.length) return null;
  const item = record.queue[0];
  return { item, expectedVersion: item.base };
}

/**
 * An undo among the entries other phones added after position `from` (this phone's own entries,
 * come back on the stream before their answer, are not news): {undone: the event it took back}, or
 * null when there is none.
 * @param {SyncRecord} record
 * @param {number} from
 * @returns {{undone: GameEvent | null} | null}
 */
export function othersUndo(record, from) {
  const events = record.serverEvents;
  const own = new Set(record.queue.filter((item) => item.base >= from && sameEvent(events[item.base], item.event)).map((item) => item.base));
  for (let i = events.length - 1; i >= from; i--) {
    const event = events[i];
    if (event.type === "undo" && !own.has(i)) {
      const before = inEffect(events.slice(0, i));
      const seq = event.undoes ?? before[before.length - 1];
      return { undone: seq ? events[seq - 1] : null };
    }
  }
  return null;
}

/**
 * The event an undo recorded now would take back, as of log position `version` of `events`.
 * @param {readonly GameEvent[]} events
 * @param {number} version
 */
export function lastInEffectAt(events, version) {
  const head = headOf(events.slice(0, version));
  return head ? events[head - 1] : null;
}
