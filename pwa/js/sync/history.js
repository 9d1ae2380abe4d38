// The log as this phone holds it, for the log view (offline too), and a conflict's two sides for
// the players' sheet: replays of a record's logs on scratch tables of the phone's referee. Reads a
// record, never changes one.
import * as api from "../api.js";
import { headOf, inEffect } from "./merge.js";
import { merged } from "./record.js";
import { applyOn, onScratch } from "./held.js";
import { tableView } from "./view.js";

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */
/** @typedef {import("./merge.js").GameEvent} GameEvent */
/** @typedef {import("./record.js").SyncRecord} SyncRecord */
/** @typedef {import("./view.js").SyncedTable} SyncedTable */
/**
 * One entry of the log view: `at` stored on the server, or tapped here while it waits; `here`: this
 * phone recorded it; `undid`: what an undo took back; `undoneBy`: the seq of the undo that took it back.
 * @typedef {{seq: number, event: GameEvent, at: string | null, here: boolean, waiting: boolean, inEffect?: boolean, undid?: {seq: number, event: GameEvent | null}, undoneBy?: number}} LogLine
 */
/** @typedef {{entries: LogLine[], views: SyncedTable[]}} History */
/** @typedef {{before: SyncedTable, after: SyncedTable, event: GameEvent, undone: GameEvent | null}} Step */
/** @typedef {{created_at?: string, updated_at?: string} | null} ServerTimes */

/**
 * The lines of the shown log, before the referee replays them.
 * @param {SyncRecord} record
 * @returns {LogLine[]}
 */
function logLines(record) {
  const now = merged(record);
  const known = record.serverEvents.length;
  const here = new Set(record.sentHere || []);
  // Sent from here and already in the server's log, its answer not here yet.
  const sentAt = new Map(record.queue.slice(0, now.confirmed).map((item) => [item.base, item.at ?? null]));
  return now.shown.map((event, index) => {
    if (index < known) {
      const at = record.serverAt?.[index] ?? sentAt.get(index) ?? null;
      return { seq: index + 1, event, at, here: here.has(index + 1) || sentAt.has(index), waiting: false };
    }
    return { seq: index + 1, event, at: now.waiting[index - known]?.at ?? null, here: true, waiting: true };
  });
}

/**
 * Each line's undo links and whether it is in effect, once `log` (the replayed part) is known.
 * @param {LogLine[]} shown
 * @param {GameEvent[]} log
 */
function linkUndos(shown, log) {
  const effective = new Set(inEffect(log));
  for (const entry of shown) {
    entry.inEffect = entry.event.type !== "undo" && effective.has(entry.seq);
    if (entry.undid && shown[entry.undid.seq - 1]) shown[entry.undid.seq - 1].undoneBy = entry.seq;
  }
}

/**
 * The log the phone referees, oldest first, and `views`: the table before any entry (views[0])
 * and after each (views[k]: after entry k), from the phone's referee. Null when it cannot open it.
 * @param {SyncRecord} record
 * @param {ServerTimes} server
 * @returns {Promise<History | null>}
 */
export async function localHistory(record, server) {
  const entries = logLines(record);
  const scratch = `${record.id}#log`;
  return onScratch(record, scratch, [], async (opened) => {
    if (!opened.ok) return null;
    const views = [tableView(record, opened.view, 0, server)];
    /** @type {GameEvent[]} */
    const log = [];
    for (const entry of entries) {
      const answer = await applyOn(scratch, entry.event);
      if (!answer.ok) break;
      if (entry.event.type === "undo") {
        const seq = entry.event.undoes ?? headOf(log);
        entry.undid = { seq, event: log[seq - 1] ?? null };
      }
      log.push(entry.event);
      views.push(tableView(record, answer.view, log.length, server));
    }
    const shown = entries.slice(0, log.length);
    linkUndos(shown, log);
    return { entries: shown, views };
  });
}

/**
 * The same for a table the server referees (its dice or cards come from the server's secret seed,
 * so no phone can replay it): the open log and the server's replay of it, when the network is
 * there; null offline.
 * @param {string} id
 * @param {SyncRecord | null} record
 * @param {Schemas["Table"] | null} table the server's view of it
 * @returns {Promise<History | null>}
 */
export async function serverHistory(id, record, table) {
  let log, replay;
  try {
    [log, replay] = await Promise.all([api.listEvents(id), api.getReplay(id)]);
  } catch (err) {
    if (!(err instanceof api.OfflineError)) console.warn("log", err);
    return null;
  }
  if (!table) return null;
  const here = new Set(record?.sentHere || []);
  const known = Math.min(log.events.length, replay.version, replay.steps.length - 1); // read a moment apart
  const logged = log.events.slice(0, known);
  /** @type {LogLine[]} */
  const entries = logged.map((entry) => ({
    seq: entry.seq,
    event: entry.event,
    at: entry.at,
    here: here.has(entry.seq),
    waiting: false,
    inEffect: entry.in_effect,
    ...(entry.kind === "undo" && entry.undoes != null ? { undid: { seq: entry.undoes, event: logged[entry.undoes - 1]?.event ?? null } } : {}),
  }));
  for (const entry of entries) if (entry.undid && entries[entry.undid.seq - 1]) entries[entry.undid.seq - 1].undoneBy = entry.seq;
  /** @type {{seq: number}[]} */
  const steps = replay.steps;
  const views = steps.slice(0, known + 1).map((step) => /** @type {SyncedTable} */ ({ ...table, ...step, version: step.seq, seed: null }));
  return { entries, views };
}

/**
 * The entries `events` played from the log `start`, each with the views around it:
 * [{before, after, event, undone}] (`undone`: the event an undo took back).
 * @param {SyncRecord} record
 * @param {GameEvent[]} start
 * @param {GameEvent[]} events
 * @param {string} scratch
 * @param {ServerTimes} server
 * @returns {Promise<Step[]>}
 */
function stepsFrom(record, start, events, scratch, server) {
  return onScratch(record, scratch, start, async (opened) => {
    let answer = opened;
    const log = [...start];
    /** @type {Step[]} */
    const described = [];
    for (const event of events) {
      if (!answer.ok) break;
      const before = tableView(record, answer.view, log.length, server);
      answer = await applyOn(scratch, event);
      if (!answer.ok) break;
      const undone = event.type === "undo" ? log[(event.undoes ?? headOf(log)) - 1] ?? null : null;
      log.push(event);
      described.push({ before, after: tableView(record, answer.view, log.length, server), event, undone });
    }
    return described;
  });
}

/**
 * What met: the other phones' entries since my first waiting one was made, and mine.
 * @param {SyncRecord | null} record
 * @param {ServerTimes} server
 * @returns {Promise<{theirs: Step[], mine: Step[]}>}
 */
export async function describeConflict(record, server) {
  const conflict = record?.conflict;
  if (!record || !conflict) return { theirs: [], mine: [] };
  const base = Math.max(0, Math.min(conflict.base, record.serverEvents.length));
  const start = record.serverEvents.slice(0, base);
  const theirs = await stepsFrom(record, start, record.serverEvents.slice(base), `${record.id}#theirs`, server);
  const mine = await stepsFrom(record, start, record.queue.map((item) => item.event), `${record.id}#mine`, server);
  return { theirs, mine };
}
