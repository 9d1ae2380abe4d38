// One table, local first. The phone's referee (the server's own rules under Pyodide) applies a tap
// at once; the entry waits in IndexedDB and is sent in order with its Idempotency-Key whenever the
// server can be reached. The server stays the authority: it applies every entry again.
//
// An entry means what its player saw: it is made at a log position and applied at that position
// only. When another phone's entries got there first, the phone never appends its own across them:
// it shows the players both, in words, and they decide (keep mine after theirs, take theirs back,
// drop mine). Tables the phone cannot referee (digital chance, hidden hands) go through the server.
//
// The rooms: record.js changes the record (pure), merge.js is the log arithmetic, view.js the view
// of a record, held.js the referee's tables, sender.js the sending, history.js and choices.js the
// log view and the conflict's sheet. This module wires them: the record is replaced whole, one step
// at a time (a stream's catch-up and a tap never replace one without the other), and the view is
// always made from it by `rebuild`.
import * as api from "../api.js";
import * as store from "../store.js";
import { startReferee } from "../referee/client.js";
import * as localdb from "./localdb.js";
import { refereeHolds } from "./refereed.js"; // the live stream takes the log alone while the referee holds the table
import { refusalText } from "../i18n.js";
import { namedUndo } from "./merge.js";
import * as R from "./record.js";
import { HeldTable, applyOn, closeOn, opening, refer } from "./held.js";
import { tableView } from "./view.js";
import { createSender } from "./sender.js";
import * as H from "./history.js";
import { conflictChoices, tryChoice } from "./choices.js";

export const LOCAL_PREFIX = "local-";

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */
/** @typedef {import("./merge.js").GameEvent} GameEvent */
/** @typedef {import("./merge.js").Choice} Choice */
/** @typedef {import("./record.js").Problem} Problem */
/** @typedef {import("./record.js").SyncRecord} SyncRecord */
/** @typedef {import("./view.js").SyncedTable} SyncedTable */
/** @typedef {(session: Session, reason?: string) => void} OnChange */
/** @typedef {(newId: string, localId: string) => void} OnRenamed */
/** @typedef {{record: SyncRecord | null, serverView: Schemas["Table"] | null, serverEtag: string | null}} Loaded */

/**
 * A refusal of the local referee, shaped like the server's problem answers.
 * @param {Problem} problem
 */
function refusal(problem) {
  return new api.ApiError({ title: "Refused", ...problem, detail: refusalText(problem) }, problem.status || 422);
}

const decideFirst = () => refusal({ status: 409, code: "sync-conflict", detail: "" });
const movedOn = () => refusal({ status: 409, code: "tap-on-old-table", detail: "" });

function randomSeed() {
  const words = crypto.getRandomValues(new Uint32Array(2));
  return words[0] * 2 ** 21 + (words[1] >>> 11); // a 53-bit integer
}

/**
 * Start a table on this phone only (no network): checked by the local referee, created on the
 * server when the phone is back. Resolves the local id, or rejects the referee's refusal.
 * @param {Schemas["CreateTable"]} body
 * @param {string} idempotencyKey
 * @returns {Promise<string>}
 */
export async function createOffline(body, idempotencyKey) {
  const id = `${LOCAL_PREFIX}${api.newIdempotencyKey()}`;
  const seed = randomSeed();
  const table = { game: body.game, players: body.players, options: body.options || {}, seed };
  const answer = await refer(opening(table, id, []));
  await closeOn(id);
  if (!answer.ok) throw refusal(answer.error);
  const created = { body: { ...body, seed }, key: idempotencyKey };
  await localdb.putTable(R.startedHere(id, created, answer.options || table.options, seed));
  return id;
}

/**
 * The stored record of a table and the server's view of it (when it can be reached).
 * @param {string} id
 * @returns {Promise<Loaded>}
 */
async function load(id) {
  const record = R.upgraded(await localdb.getTable(id).catch(() => null));
  /** @type {Loaded} */
  const loaded = { record, serverView: null, serverEtag: null };
  if (!id.startsWith(LOCAL_PREFIX)) {
    try {
      const res = await api.getTable(id);
      if (!res.stale) Object.assign(loaded, { serverView: res.data, serverEtag: res.etag });
      else if (!record) loaded.serverView = res.data; // the cached copy is better than nothing
    } catch (err) {
      if (!(err instanceof api.OfflineError) || !record) throw err;
    }
  }
  if (!record && !loaded.serverView) throw new api.OfflineError("offline");
  return loaded;
}

/**
 * Open a table: resolves the session, or rejects (OfflineError when it is neither stored here nor
 * reachable, ApiError from the server). onChange(session) is called whenever the view, the
 * connection, the waiting entries or a conflict changes; onRenamed(newId) once a table started
 * offline got its server id.
 * @param {string} initialId
 * @param {{onChange?: OnChange, onRenamed?: OnRenamed}} [options]
 * @returns {Promise<Session>}
 */
export async function openSession(initialId, { onChange = () => {}, onRenamed = () => {} } = {}) {
  const session = new Session(initialId, await load(initialId), onChange, onRenamed);
  await session.started();
  return session;
}

/** One open table: its record, the server's view, the referee's copy; see openSession. */
class Session {
  /** @type {"server" | "local"} "local" once the phone's referee holds the table */
  #mode = "server";
  /** @type {SyncedTable | null} the view while the phone referees (made by `rebuild` only) */
  #localView = null;
  #closed = false;
  #hidden = false;
  /** @type {GameEvent | null} */
  #news = null;
  #posting = 0; // this phone's own entries on their way to a server-refereed table
  /** @type {Promise<unknown>} */
  #steps = Promise.resolve(); // every change to the log or the waiting entries, one at a time

  /**
   * @param {string} id
   * @param {Loaded} loaded
   * @param {OnChange} onChange
   * @param {OnRenamed} onRenamed
   */
  constructor(id, { record, serverView, serverEtag }, onChange, onRenamed) {
    this.#id = id;
    this.#record = record;
    this.#serverView = serverView;
    this.#serverEtag = serverEtag;
    this.#onChange = onChange;
    this.#onRenamed = onRenamed;
    this.#held = new HeldTable(id);
    this.#sender = createSender(this.#senderPort());
    // A page being closed sends nothing more (its network may be gone, or come back for an instant).
    addEventListener("pagehide", () => (this.#hidden = true));
    addEventListener("pageshow", () => (this.#hidden = false));
  }

  /** @type {string} */ #id;
  /** @type {SyncRecord | null} replaced whole (record.js), never changed in place */ #record;
  /** @type {Schemas["Table"] | null} */ #serverView;
  /** @type {string | null} */ #serverEtag;
  /** @type {OnChange} */ #onChange;
  /** @type {OnRenamed} */ #onRenamed;
  /** @type {HeldTable} */ #held;
  /** @type {{flush: () => Promise<void>}} */ #sender;

  get id() {
    return this.#id;
  }
  /** @returns {SyncedTable} */
  get view() {
    return /** @type {SyncedTable} */ (this.#mode === "local" ? this.#localView : this.#serverView ?? this.#localView);
  }
  get etag() {
    return this.#serverEtag;
  }
  get mode() {
    return this.#mode;
  }
  get waiting() {
    return this.#record ? this.#record.queue.length : 0;
  }
  get conflict() {
    return this.#record?.conflict || null;
  }
  /** The server's log position this phone knows (a conflict sheet redraws when it moves on). */
  get serverVersion() {
    return this.#record ? this.#record.serverVersion : -1;
  }
  /** Writable without a token while the table exists only here (it gets one when created). */
  get startedHere() {
    return !!this.#record?.created;
  }
  /** The record as it is now (record.js never changes one: safe to keep; the model test reads it). */
  get snapshot() {
    return this.#record;
  }

  /** The referee boots after the first paint; until then (or for good) the server referees. */
  async started() {
    const record = this.#record;
    if (record && (record.created || !this.#serverView)) {
      if (!(await startReferee())) throw new api.OfflineError("offline");
      await this.#exclusive(() => this.#rebuild());
      if (this.#mode !== "local") throw new api.OfflineError("offline");
    } else {
      setTimeout(() => this.#becomeLocal().catch((err) => console.warn("referee", err)), 0);
    }
  }

  /**
   * One step at a time: the referee's table, the log and the waiting entries change together.
   * @template T
   * @param {() => T | Promise<T>} work
   * @returns {Promise<T>}
   */
  #exclusive(work) {
    const run = this.#steps.then(work);
    this.#steps = run.catch(() => undefined);
    return run;
  }

  /** Tell the screen; `reason` "server" marks news from another phone (a pending confirm closes). */
  #changed(reason = "local") {
    if (!this.#closed) this.#onChange(this, reason);
  }

  /** The record, present once the phone referees (or keeps the table). */
  get #kept() {
    if (!this.#record) throw new Error("no record");
    return this.#record;
  }

  async #save() {
    if (this.#record) await localdb.putTable(this.#record).catch((err) => console.warn("localdb", err));
  }

  /** The server's whole log (the open log: what any phone at the table may read). */
  async #pullLog() {
    this.#record = R.withLog(this.#kept, await api.listEvents(this.#id));
  }

  /**
   * Show what the record makes — the one way the view is ever set while the phone referees. When a
   * waiting entry meets another phone's, the conflict is noted (the players decide). False when
   * this table is the server's to referee.
   */
  async #rebuild() {
    // Another phone's entry may sit at the position my first waiting entry was made at.
    this.#record = R.noteMet(this.#kept);
    let answer = await this.#held.hold(this.#record, R.merged(this.#record).shown);
    if (!answer.ok && (answer.index ?? -1) >= this.#record.serverEvents.length) {
      // A waiting entry the rules no longer take on the server's log (newer rules): the players decide.
      this.#record = R.refusedByRules(this.#record, answer.error);
      answer = await this.#held.hold(this.#record, R.merged(this.#record).shown);
    }
    if (!answer.ok) {
      this.#mode = "server"; // server-drawn chance, hidden hands, or a log this phone cannot follow
      this.#held.forget();
      refereeHolds(this.#id, false); // whole tables again on the stream
      return false;
    }
    this.#mode = "local";
    refereeHolds(this.#id, true); // the stream may send the log alone
    this.#localView = tableView(this.#record, answer.view, R.merged(this.#record).shown.length, this.#serverView);
    return true;
  }

  /**
   * The record becomes `next` (a record.js change): shown and kept.
   * @param {SyncRecord} next
   */
  async #commit(next) {
    this.#record = next;
    const local = await this.#rebuild();
    await this.#save();
    return local;
  }

  /** The phone's referee is ready: it holds the table from now on (when it can follow it). */
  async #becomeLocal() {
    if (!(await startReferee())) return;
    const ok = await this.#exclusive(async () => {
      const serverView = this.#serverView;
      if (!this.#record && serverView) this.#record = R.fresh(this.#id, serverView);
      const behind = this.#kept.serverVersion < 0 || this.#kept.serverVersion !== serverView?.version;
      if (!this.#kept.created && serverView && behind) {
        try {
          await this.#pullLog();
        } catch (err) {
          if (!(err instanceof api.OfflineError)) console.warn("log", err);
        }
      }
      if (this.#kept.serverVersion < 0) return false; // never had the log: the server's view it is
      const local = await this.#rebuild();
      if (local) await this.#save();
      return local;
    });
    if (ok) {
      this.#changed();
      this.flush();
    }
  }

  /**
   * A seat's own view: worked out here when the phone referees (the open log shows it anyway).
   * @param {number} seat
   * @param {string} seatToken
   */
  async privateView(seat, seatToken) {
    if (this.#mode !== "local") return api.getSeatView(this.#id, seat, seatToken);
    const answer = await refer({ op: "private", id: this.#id, seat });
    if (!answer.ok) throw refusal(answer.error);
    return { seat, view: answer.view ?? null, stale: false };
  }

  /**
   * The table `event` would make, recorded on the table shown (nothing is recorded).
   * @param {GameEvent} event
   * @returns {Promise<SyncedTable>}
   */
  async preview(event) {
    if (this.#mode !== "local") return (await api.preview(this.#id, this.view.version, /** @type {Schemas["AnyEvent"]} */ (event))).table;
    return this.#exclusive(async () => {
      const shown = this.#held.events || [];
      const answer = await applyOn(this.#id, namedUndo(event, shown), false);
      if (!answer.ok) throw refusal(answer.error);
      return tableView(this.#kept, answer.view, shown.length + 1, this.#serverView);
    });
  }

  /**
   * The event an undo recorded now would take back, as of log position `version`.
   * @param {number} version
   */
  lastInEffect(version) {
    if (!this.#record || this.#mode !== "local" || !this.#held.events) return null;
    return R.lastInEffectAt(this.#held.events, version);
  }

  /** What the last catch-up brought: the event another phone's undo took back (once). */
  takeNews() {
    const undone = this.#news;
    this.#news = null;
    return undone;
  }

  /**
   * Record an event: locally at once (then waiting for the server), or through the server.
   * `seen`: the log position the player's screen showed when they tapped; a tap on a table that
   * changed meanwhile (another phone's entry arrived that instant) is not recorded: they look again.
   * @param {GameEvent} event
   * @param {string} [key]
   * @param {{seen?: number | null}} [options]
   * @returns {Promise<SyncedTable>}
   */
  async record(event, key = api.newIdempotencyKey(), { seen = null } = {}) {
    if (this.#mode !== "local") return this.#recordOnServer(event, key);
    const after = await this.#exclusive(async () => {
      const tap = R.tapped(this.#kept, event, key, seen);
      if ("refused" in tap) throw tap.refused === "sync-conflict" ? decideFirst() : movedOn();
      const before = await this.#held.hold(this.#kept, tap.shown); // already so, unless a step failed half-way
      if (!before.ok) throw refusal(before.error);
      const answer = await applyOn(this.#id, tap.item.event);
      if (!answer.ok) throw refusal(answer.error);
      this.#held.keep([...tap.shown, tap.item.event], answer.view);
      await this.#commit(R.waiting(this.#kept, tap.item));
      return this.view;
    });
    this.#changed();
    this.flush();
    return after;
  }

  /**
   * A table the server referees: the entry goes there at once.
   * @param {GameEvent} event
   * @param {string} key
   */
  async #recordOnServer(event, key) {
    if (this.#record?.conflict) throw decideFirst();
    // The answer (or the stream, which may bring it first) is this phone's own entry, not
    // another phone's: it must not count as news that redrew the screen under a tap (issue 33).
    this.#posting += 1;
    try {
      const res = await api.postEvent(this.#id, store.getToken(this.#id), this.view.version, /** @type {Schemas["AnyEvent"]} */ (event), key);
      await this.serverChanged(res.table);
    } finally {
      this.#posting -= 1;
    }
    return this.view;
  }

  /**
   * A newer table from the live stream (entries: the log entries since `from`, when known).
   * @param {Schemas["Table"] | null} table
   * @param {{entries?: {event: GameEvent, at?: string | null}[] | null, from?: number | null}} [news]
   */
  async serverChanged(table, { entries = null, from = null } = {}) {
    if (!table || table.id !== this.#id) return;
    if (this.#mode !== "local") {
      const view = this.view;
      if (!view || table.version >= view.version) {
        this.#serverView = table;
        this.#changed(this.#posting ? "local" : "server");
      }
      return;
    }
    this.#serverView = table;
    let moved = false;
    try {
      moved = await this.#exclusive(() => this.#caughtUp(table.version, entries, from));
    } catch (err) {
      if (!(err instanceof api.OfflineError)) console.warn("catch up", err);
    }
    if (moved) {
      this.#changed("server");
      this.flush();
    }
  }

  /**
   * The server's log reached `version`: the stream's entries, or the whole log read again.
   * @param {number} version
   * @param {{event: GameEvent, at?: string | null}[] | null} entries
   * @param {number | null} from
   */
  async #caughtUp(version, entries, from) {
    const record = this.#kept;
    if (version <= record.serverVersion) return false;
    const known = record.serverEvents.length;
    const extended = R.extended(record, entries, from, version);
    if (extended) this.#record = extended;
    else await this.#pullLog();
    const undo = R.othersUndo(this.#kept, known);
    if (undo) this.#news = undo.undone;
    await this.#commit(this.#kept);
    return true;
  }

  /** Create a table started offline, keeping what was recorded on it (its key: never a twin). */
  async #createOnServer() {
    const creation = this.#kept.created;
    if (!creation) return;
    const created = await api.createTable(creation.body, creation.key);
    const localId = this.#id;
    store.setToken(created.id, created.write_token);
    if (created.seats?.length) store.setSeatLinks(created.id, created.seats);
    await this.#exclusive(async () => {
      this.#id = created.id;
      this.#held = new HeldTable(created.id);
      this.#serverView = created.table;
      this.#record = R.onServer(this.#kept, created.id);
      // A retried creation: what was sent before the answer got lost is on the server already.
      if (created.table.version > 0) await this.#pullLog();
      await localdb.putTable(this.#kept);
      await localdb.deleteTable(localId);
      await closeOn(localId);
      await this.#rebuild();
    });
    this.#onRenamed(this.#id, localId);
  }

  /** @returns {import("./sender.js").SenderPort} */
  #senderPort() {
    return {
      ready: () => {
        const record = this.#record;
        if (this.#closed || this.#mode !== "local" || !record || record.conflict) return false;
        return (record.queue.length > 0 || !!record.created) && !this.#hidden;
      },
      create: () => this.#createOnServer(),
      next: () => {
        const next = this.#closed || !this.#record ? null : R.nextToSend(this.#record);
        return next && { id: this.#id, ...next };
      },
      stored: (item, appended) =>
        this.#exclusive(async () => {
          const { record, known } = R.stored(this.#kept, item, appended.seq);
          this.#record = record;
          if (!known) await this.#pullLog();
          this.#serverView = appended.table;
          await this.#commit(this.#kept);
        }),
      refused: (item, problem) =>
        this.#exclusive(async () => {
          if (this.#kept.queue[0] !== item) return false; // the players chose meanwhile
          if (!problem) await this.#pullLog(); // not stored: another phone's entry is at its position
          await this.#commit(R.refused(this.#kept, item, problem) ?? this.#kept);
          return true;
        }),
      changed: () => this.#changed(),
    };
  }

  /** Send the waiting entries in order (sender.js); resolves when that sending is over. */
  flush() {
    return this.#sender.flush();
  }

  /**
   * The log as this phone holds it, for the log view (offline too): history.js `localHistory`; from
   * the server's replay while the server referees this table (`serverHistory`).
   */
  async history() {
    if (this.#mode !== "local") return H.serverHistory(this.#id, this.#record, this.#serverView || this.view);
    if (!this.#record) return null;
    return H.localHistory(this.#record, this.#serverView);
  }

  /** What met: the other phones' entries since my first waiting one was made, and mine. */
  describeConflict() {
    return H.describeConflict(this.#record, this.#serverView);
  }

  /** Whether each choice can be made now: {after, back, drop}: {ok, reason?, error?}. */
  conflictChoices() {
    return conflictChoices(this.#record);
  }

  /**
   * The players' choice: "after" keeps mine after theirs, "back" takes theirs back (recorded undos,
   * each naming its entry) and keeps mine, "drop" drops mine. Resolves {ok} — false (with the
   * reason) when that choice cannot be made; the conflict then stays for another choice.
   * @param {Choice} choice
   */
  async resolveConflict(choice) {
    const outcome = await this.#exclusive(async () => {
      if (!this.#record?.conflict) return { ok: true };
      const tried = await tryChoice(this.#record, choice);
      if (!tried.ok) return tried;
      await this.#commit(R.chosen(this.#kept, tried.queue));
      return { ok: true };
    });
    this.#changed();
    this.flush();
    return outcome;
  }

  close() {
    this.#closed = true;
    refereeHolds(this.#id, false);
    closeOn(this.#id).catch(() => undefined);
  }
}
