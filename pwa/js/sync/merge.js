// What a phone shows, as one function of (the server's log as it knows it, its own waiting entries).
// Pure (no DOM, no network, no referee), so tests run it against a real server in the browser.
//
// Every waiting entry was made at a log position (`base`: the server version it was recorded on)
// and is applied at that position only (the append's `expected_version`). A log entry is identified
// by its position: entry n is the n-th (seq n, counted from 1). Undo entries name the entry they take
// back (`undoes`). Nothing here knows a game rule: the phone's referee checks the events.

/** The same event, whatever the order of its fields. */
export function sameEvent(a, b) {
  return canonical(a) === canonical(b);
}

function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

export const isUndo = (event) => event?.type === "undo";

/** The entries in effect after a log (their seqs, oldest first): an undo takes back the last one. */
export function inEffect(events) {
  const stack = [];
  events.forEach((event, index) => {
    if (isUndo(event)) stack.pop();
    else stack.push(index + 1);
  });
  return stack;
}

/** The seq of the last entry in effect after a log; 0 when nothing is. */
export function headOf(events) {
  const stack = inEffect(events);
  return stack.length ? stack[stack.length - 1] : 0;
}

/** An undo tapped on a log names what it takes back: the last entry in effect there. */
export function namedUndo(event, events) {
  if (!isUndo(event) || event.undoes != null) return event;
  return { ...event, undoes: headOf(events) };
}

/**
 * The phone's table from the server's log and the waiting entries ({key, event, base}):
 * - `confirmed`: the first waiting entries the server's log already shows at their very position
 *   (sent and stored, the answer not here yet — or another phone's identical entry: the send tells);
 * - `waiting`: the entries after those;
 * - `met`: true when the server's log moved on past the position the next waiting entry was made at
 *   with another entry there (another phone's): it is not applied across it; the players decide;
 * - `shown`: the events the screen shows: the server's log, then the waiting entries unless `met`.
 */
export function reconcile(serverEvents, queue, { conflict = false } = {}) {
  let confirmed = 0;
  if (!conflict) {
    while (
      confirmed < queue.length &&
      queue[confirmed].base < serverEvents.length &&
      sameEvent(serverEvents[queue[confirmed].base], queue[confirmed].event)
    ) {
      confirmed += 1;
    }
  }
  const waiting = queue.slice(confirmed);
  const met = conflict || (waiting.length > 0 && waiting[0].base !== serverEvents.length);
  const shown = met ? [...serverEvents] : [...serverEvents, ...waiting.map((item) => item.event)];
  return { confirmed, waiting, met, shown };
}

/** A waiting entry made now, on the shown log (`at`: when it was tapped, for the log view). */
export function waitingEntry(event, shown, key) {
  return { key, event: namedUndo(event, shown), base: shown.length, at: new Date().toISOString() };
}

/**
 * My entries made at `base`, moved to `newBase`: an undo of one of my own entries follows it; an
 * undo naming an entry from before `base` keeps naming it (the referee says whether it still can).
 */
export function moved(mine, base, newBase, newKey) {
  const shift = newBase - base;
  return mine.map((item, index) => {
    let event = item.event;
    if (isUndo(event) && event.undoes > base) event = { ...event, undoes: event.undoes + shift };
    return { key: newKey(), event, base: newBase + index, origin: item.origin ?? item.key, at: item.at };
  });
}

/**
 * The undos that take back the other phones' entries recorded since `base`, newest first, each
 * naming its entry; null when that cannot restore the table as it was at `base` (they took back an
 * entry from before it: an undo cannot be taken back).
 */
export function theirsTakenBack(serverEvents, base) {
  const before = inEffect(serverEvents.slice(0, base));
  const now = inEffect(serverEvents);
  if (now.length < before.length || before.some((seq, index) => now[index] !== seq)) return null;
  return now
    .slice(before.length)
    .reverse()
    .map((seq) => ({ type: "undo", undoes: seq }));
}

/**
 * The players' choice when their waiting entries met another phone's (`mine`: every waiting entry,
 * all made from `base` on). Returns the new waiting entries, or null when the choice cannot be made:
 * - "after": keep mine after theirs (both stay);
 * - "back": take theirs back (recorded undos, each naming its entry), then mine;
 * - "drop": drop mine, keep theirs.
 */
export function resolved(serverEvents, mine, choice, newKey) {
  if (choice === "drop" || !mine.length) return [];
  const base = mine[0].base;
  const end = serverEvents.length;
  if (choice === "after") return moved(mine, base, end, newKey);
  const undos = theirsTakenBack(serverEvents, base);
  if (!undos) return null;
  const at = new Date().toISOString();
  const takeBack = undos.map((event, index) => ({ key: newKey(), event, base: end + index, at }));
  return [...takeBack, ...moved(mine, base, end + undos.length, newKey)];
}

// ---------- the steps of a phone's sync, on its record {serverEvents, serverVersion, queue, conflict} ----------
// session.js runs them one at a time with the referee and IndexedDB; tests run them against a server.
// Beside the events the record keeps, for the log view, when each server entry was stored
// (`serverAt`, parallel to serverEvents) and which entries this phone sent (`sentHere`: their seqs);
// the server's log does not say which phone or seat recorded an entry.

/** The first `n` stored times (null where an older record did not keep them). */
function timesUpTo(record, n) {
  return Array.from({ length: n }, (_, index) => record.serverAt?.[index] ?? null);
}

/** Note that this phone sent the entry at `seq` (a log position never changes: append-only). */
function sentHere(record, seq) {
  record.sentHere = [...new Set([...(record.sentHere || []), seq])];
}

/** A tap on the table the player saw (`seen`: its log position): {item} to wait, or {refused}. */
export function tapped(record, event, key, seen = null) {
  if (record.conflict) return { refused: "sync-conflict" };
  const merged = reconcile(record.serverEvents, record.queue);
  if (merged.met) return { refused: "sync-conflict" };
  if (seen !== null && seen !== merged.shown.length) return { refused: "tap-on-old-table" };
  return { item: waitingEntry(event, merged.shown, key), shown: merged.shown };
}

/** Entries the server's log gained (the stream's, from position `from` to `version`); false when
 * they do not follow on from what the phone knows (then it reads the whole log). */
export function extended(record, entries, from, version) {
  if (version <= record.serverVersion) return true;
  if (!entries || from !== record.serverVersion || from + entries.length !== version) return false;
  record.serverEvents.push(...entries.map((entry) => entry.event));
  record.serverAt = [...timesUpTo(record, from), ...entries.map((entry) => entry.at ?? null)];
  record.serverVersion = version;
  return true;
}

/** The whole log read from the server. */
export function replaced(record, log) {
  record.serverEvents = log.events.map((entry) => entry.event);
  record.serverAt = log.events.map((entry) => entry.at ?? null);
  record.serverVersion = log.version;
}

/** A waiting entry the server stored at `seq` (its very position); false when the phone's log is
 * behind that (then it reads the whole log). */
export function stored(record, item, seq) {
  if (record.queue[0] !== item) return true;
  record.queue.shift();
  sentHere(record, seq);
  if (record.serverEvents.length === seq - 1) {
    record.serverEvents.push(item.event);
    record.serverAt = [...timesUpTo(record, seq - 1), item.at ?? new Date().toISOString()];
    record.serverVersion = seq;
  }
  return record.serverEvents.length >= seq;
}

/** The server refused a waiting entry at its position (another phone's entry is there): the
 * players decide. `problem`: a refusal for good instead (they can only drop it). */
export function refused(record, item, problem = null) {
  if (record.queue[0] !== item) return false;
  record.conflict = problem ? { base: item.base, refused: true, error: problem } : { base: item.base };
  return true;
}

/** Note a conflict the phone can see by itself: another entry sits where its first waiting one was made. */
export function noteMet(record) {
  const merged = reconcile(record.serverEvents, record.queue, { conflict: !!record.conflict });
  if (merged.met && !record.conflict && merged.confirmed === 0) record.conflict = { base: merged.waiting[0].base };
  return reconcile(record.serverEvents, record.queue, { conflict: !!record.conflict });
}

/** What to send next: the first waiting entry, at the very position it was made at (never the
 * server's position now: that would append it across another phone's entries). Null when nothing
 * is to be sent (nothing waits, or the players decide first). */
export function nextToSend(record) {
  if (record.conflict || !record.queue.length) return null;
  const item = record.queue[0];
  return { item, expectedVersion: item.base };
}
