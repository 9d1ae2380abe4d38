// What a phone shows, as one function of (the server's log as it knows it, its own waiting entries,
// whether the players must decide first). Pure (no DOM, no network, no referee, nothing changed in
// place): record.js builds the phone's record from these, and tests run them in the browser.
//
// Every waiting entry was made at a log position (`base`: the server version it was recorded on)
// and is applied at that position only (the append's `expected_version`). A log entry is identified
// by its position: entry n is the n-th (seq n, counted from 1). Undo entries name the entry they take
// back (`undoes`). Nothing here knows a game rule: the phone's referee checks the events.

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */
/** @typedef {Schemas["AnyEvent"] | Schemas["LoggedEvent"]} GameEvent */
/** @typedef {Extract<GameEvent, {type: "undo"}>} UndoEvent */
/**
 * A waiting entry: recorded here at log position `base`, sent with Idempotency-Key `key`; `origin`
 * the key of the tap it was made from (a players' choice gives it a new key); `at` when it was tapped.
 * @typedef {{key: string, event: GameEvent, base: number, at?: string, origin?: string}} Waiting
 */
/**
 * @typedef {object} Merged
 * @property {number} confirmed the first waiting entries the server's log already shows at their
 *   very position (sent and stored, the answer not here yet — or another phone's identical entry)
 * @property {Waiting[]} waiting the entries after those
 * @property {boolean} met the next waiting entry cannot follow the server's log: the players decide
 * @property {GameEvent[]} shown the events the screen shows
 */

/**
 * The same event, whatever the order of its fields.
 * @param {unknown} a
 * @param {unknown} b
 */
export function sameEvent(a, b) {
  return canonical(a) === canonical(b);
}

/**
 * @param {unknown} value
 * @returns {string}
 */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const object = /** @type {Record<string, unknown>} */ (value);
    return `{${Object.keys(object)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(object[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * @param {GameEvent | null | undefined} event
 * @returns {event is UndoEvent}
 */
export const isUndo = (event) => event?.type === "undo";

/**
 * The entries in effect after a log (their seqs, oldest first): an undo takes back the last one.
 * @param {readonly GameEvent[]} events
 * @returns {number[]}
 */
export function inEffect(events) {
  /** @type {number[]} */
  const stack = [];
  events.forEach((event, index) => {
    if (isUndo(event)) stack.pop();
    else stack.push(index + 1);
  });
  return stack;
}

/**
 * The seq of the last entry in effect after a log; 0 when nothing is.
 * @param {readonly GameEvent[]} events
 */
export function headOf(events) {
  const stack = inEffect(events);
  return stack.length ? stack[stack.length - 1] : 0;
}

/**
 * An undo tapped on a log names what it takes back: the last entry in effect there.
 * @template {GameEvent} E
 * @param {E} event
 * @param {readonly GameEvent[]} events
 * @returns {E}
 */
export function namedUndo(event, events) {
  if (!isUndo(event) || event.undoes != null) return event;
  return { ...event, undoes: headOf(events) };
}

/**
 * The phone's table from the server's log and the waiting entries; `conflict`: the players must
 * decide first (then nothing waiting is shown, nor taken as confirmed).
 * `met` is true when the server's log moved on past the position the next waiting entry was made
 * at with another entry there (another phone's): it is not applied across it.
 * @param {readonly GameEvent[]} serverEvents
 * @param {readonly Waiting[]} queue
 * @param {boolean} conflict
 * @returns {Merged}
 */
export function reconcile(serverEvents, queue, conflict) {
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

/**
 * A waiting entry made now, on the shown log (`at`: when it was tapped, for the log view).
 * @param {GameEvent} event
 * @param {readonly GameEvent[]} shown
 * @param {string} key
 * @returns {Waiting}
 */
export function waitingEntry(event, shown, key) {
  return { key, event: namedUndo(event, shown), base: shown.length, at: new Date().toISOString() };
}

/**
 * My entries made at `base`, moved to `newBase`: an undo of one of my own entries follows it; an
 * undo naming an entry from before `base` keeps naming it (the referee says whether it still can).
 * @param {readonly Waiting[]} mine
 * @param {number} base
 * @param {number} newBase
 * @param {() => string} newKey
 * @returns {Waiting[]}
 */
export function moved(mine, base, newBase, newKey) {
  const shift = newBase - base;
  return mine.map((item, index) => {
    let event = item.event;
    if (isUndo(event) && event.undoes != null && event.undoes > base) event = { ...event, undoes: event.undoes + shift };
    return { key: newKey(), event, base: newBase + index, origin: item.origin ?? item.key, at: item.at };
  });
}

/**
 * The undos that take back the other phones' entries recorded since `base`, newest first, each
 * naming its entry; null when that cannot restore the table as it was at `base` (they took back an
 * entry from before it: an undo cannot be taken back).
 * @param {readonly GameEvent[]} serverEvents
 * @param {number} base
 * @returns {UndoEvent[] | null}
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
 * @param {readonly GameEvent[]} serverEvents
 * @param {readonly Waiting[]} mine
 * @param {Choice} choice
 * @param {() => string} newKey
 * @returns {Waiting[] | null}
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

/** @typedef {"after" | "back" | "drop"} Choice */
