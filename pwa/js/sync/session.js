// One table, local first. The phone's referee (the server's own rules under Pyodide) applies a tap
// at once; the entry waits in IndexedDB and is sent in order with its Idempotency-Key whenever the
// server can be reached. The server stays the authority: it applies every entry again.
//
// An entry means what its player saw: it is made at a log position and applied at that position
// only. When another phone's entries got there first, the phone never appends its own across them:
// it shows the players both, in words, and they decide (keep mine after theirs, take theirs back,
// drop mine). What the phone shows is always one function of (the server's log as it knows it, its
// own waiting entries): merge.js; every change to either goes through one queue of steps here, so a
// stream's catch-up and a tap can never replace one without the other.
// Tables the phone cannot referee (digital chance, hidden hands) go through the server as before.
import * as api from "../api.js";
import * as store from "../store.js";
import { ask, startReferee } from "../referee/client.js";
import * as localdb from "./localdb.js";
import { refereeHolds } from "./refereed.js"; // wire: the live stream takes the log alone while the referee holds the table
import { refusalText } from "../i18n.js";
import { extended, headOf, inEffect, namedUndo, nextToSend, noteMet, reconcile, refused, replaced, resolved, sameEvent, stored, tapped } from "./merge.js";

export const LOCAL_PREFIX = "local-";

/** A refusal of the local referee, shaped like the server's problem answers. */
function refusal(problem) {
  return new api.ApiError({ title: "Refused", ...problem, detail: refusalText(problem) }, problem.status || 422);
}

function randomSeed() {
  const words = crypto.getRandomValues(new Uint32Array(2));
  return words[0] * 2 ** 21 + (words[1] >>> 11); // a 53-bit integer
}

/**
 * Start a table on this phone only (no network): checked by the local referee, created on the
 * server when the phone is back. Resolves the local id, or rejects the referee's refusal.
 */
export async function createOffline(body, idempotencyKey) {
  const id = `${LOCAL_PREFIX}${api.newIdempotencyKey()}`;
  const seed = randomSeed();
  const answer = await ask({ op: "open", id, game: body.game, players: body.players, options: body.options || {}, seed, events: [] });
  await ask({ op: "close", id });
  if (!answer.ok) throw refusal(answer.error);
  const now = new Date().toISOString();
  await localdb.putTable({
    id,
    game: body.game,
    players: body.players,
    options: answer.options,
    seed,
    serverVersion: 0,
    serverEvents: [],
    queue: [],
    conflict: null,
    created: { body: { ...body, seed }, key: idempotencyKey },
    createdAt: now,
  });
  return id;
}

/**
 * Open a table: resolves the session, or rejects (OfflineError when it is neither stored here nor
 * reachable, ApiError from the server). onChange(session) is called whenever the view, the
 * connection, the waiting entries or a conflict changes; onRenamed(newId) once a table started
 * offline got its server id.
 */
/**
 * @param {string} initialId
 * @param {{onChange?: (session: object, reason?: string) => void, onRenamed?: (newId: string, localId: string) => void}} [options]
 */
export async function openSession(initialId, { onChange = () => {}, onRenamed = () => {} } = {}) {
  let id = initialId;
  let record = upgraded(await localdb.getTable(id).catch(() => null));
  let serverView = null;
  let serverEtag = null;
  if (!id.startsWith(LOCAL_PREFIX)) {
    try {
      const res = await api.getTable(id);
      if (!res.stale) {
        serverView = res.data;
        serverEtag = res.etag;
      } else if (!record) serverView = res.data; // the cached copy is better than nothing
    } catch (err) {
      if (!(err instanceof api.OfflineError) || !record) throw err;
    }
  }
  if (!record && !serverView) throw new api.OfflineError("offline");

  let mode = "server"; // "local" once the phone's referee holds the table
  let view = serverView;
  let flushing = false;
  let flushAgain = false;
  let closed = false;
  let localSince = null;
  let news = null;
  let posting = 0; // this phone's own entries on their way to a server-refereed table
  let held = null; // the events the referee's copy of this table holds (always `shown` once local)
  let heldView = null; // and the referee's view of them
  /** @type {Promise<unknown>} */
  let steps = Promise.resolve(); // every change to the log or the waiting entries, one at a time

  const session = {
    get id() {
      return id;
    },
    get view() {
      return view;
    },
    get etag() {
      return serverEtag;
    },
    get mode() {
      return mode;
    },
    get waiting() {
      return record ? record.queue.length : 0;
    },
    get conflict() {
      return record?.conflict || null;
    },
    /** The server's log position this phone knows (a conflict sheet redraws when it moves on). */
    get serverVersion() {
      return record ? record.serverVersion : -1;
    },
    /** Writable without a token while the table exists only here (it gets one when created). */
    get startedHere() {
      return !!record?.created;
    },
    preview,
    privateView,
    /** The event an undo recorded now would take back, as of log position `version`. */
    lastInEffect(version) {
      if (!record || mode !== "local" || !held) return null;
      const events = held.slice(0, version);
      const head = headOf(events);
      return head ? events[head - 1] : null;
    },
    /** What the last catch-up brought: the event another phone's undo took back (once). */
    takeNews() {
      const undone = news;
      news = null;
      return undone;
    },
    record: recordEvent,
    history,
    serverChanged,
    flush,
    resolveConflict,
    conflictChoices,
    describeConflict,
    close() {
      closed = true;
      refereeHolds(id, false); // wire
      ask({ op: "close", id }).catch(() => undefined);
    },
  };

  /**
   * One step at a time: the referee's table, the log and the waiting entries change together.
   * @template T
   * @param {() => T | Promise<T>} work
   * @returns {Promise<T>}
   */
  function exclusive(work) {
    const run = steps.then(work);
    steps = run.catch(() => undefined);
    return run;
  }

  /** Tell the screen; `reason` "server" marks news from another phone (a pending confirm closes). */
  function changed(reason = "local") {
    if (!closed) onChange(session, reason);
  }

  function fresh(table) {
    return {
      id,
      game: table.game,
      players: table.players,
      options: table.options,
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

  async function save() {
    if (record) await localdb.putTable(record).catch((err) => console.warn("localdb", err));
  }

  /** The table view the screens draw, from the local referee's answer. */
  function compose(rules, version) {
    return {
      id,
      game: record.game,
      version,
      finished: rules.finished,
      players: record.players,
      options: record.options,
      state: rules.state,
      legal_actions: rules.legal_actions,
      result: rules.result,
      seed: null,
      created_at: serverView?.created_at || record.createdAt,
      updated_at: serverView?.updated_at || record.createdAt,
      local: { waiting: record.queue.length, since: localSince },
    };
  }

  const opening = (events, as = id) => ({ op: "open", id: as, game: record.game, players: record.players, options: record.options, seed: record.seed ?? 0, events });

  /** The server's whole log (the open log: what any phone at the table may read). */
  async function pullLog() {
    replaced(record, await api.listEvents(id));
  }

  /** Notice an undo among entries that other phones added after position `from` (this phone's own
   * entries, come back on the stream before their answer, are not news). */
  function noteUndo(from) {
    const events = record.serverEvents;
    const own = new Set(record.queue.filter((item) => item.base >= from && sameEvent(events[item.base], item.event)).map((item) => item.base));
    for (let i = events.length - 1; i >= from; i--) {
      if (events[i].type === "undo" && !own.has(i)) {
        const before = inEffect(events.slice(0, i));
        const seq = events[i].undoes ?? before[before.length - 1];
        news = seq ? events[seq - 1] : null;
        return;
      }
    }
  }

  /**
   * Show what (the server's log, the waiting entries) make — the one way the view is ever set while
   * the phone referees. When a waiting entry meets another phone's, the conflict is noted (the
   * players decide). False when this table is the server's to referee.
   */
  async function rebuild() {
    // Another phone's entry may sit at the position my first waiting entry was made at.
    let merged = noteMet(record);
    let answer = await hold(merged.shown);
    if (!answer.ok && (answer.index ?? -1) >= record.serverEvents.length) {
      // A waiting entry the rules no longer take on the server's log (newer rules): the players decide.
      record.conflict = { base: record.queue[0].base, refused: true, error: answer.error };
      merged = reconcile(record.serverEvents, record.queue, { conflict: true });
      answer = await hold(merged.shown);
    }
    if (!answer.ok) {
      mode = "server"; // server-drawn chance, hidden hands, or a log this phone cannot follow
      held = null;
      view = serverView || view;
      refereeHolds(id, false); // wire: whole tables again on the stream
      return false;
    }
    mode = "local";
    refereeHolds(id, true); // wire: the stream may send the log alone
    if (!record.queue.length) localSince = null;
    view = compose(answer.view, merged.shown.length);
    return true;
  }

  /** The referee's table becomes `events`: only what is new is applied, else it is opened again. */
  async function hold(events) {
    const extends_ = held && held.length <= events.length && held.every((event, index) => sameEvent(event, events[index]));
    if (extends_ && held.length === events.length && heldView) return { ok: true, view: heldView };
    if (extends_) {
      let answer = null;
      for (const event of events.slice(held.length)) {
        answer = await ask({ op: "apply", id, event, commit: true });
        if (!answer.ok) break;
      }
      if (answer?.ok) return keep(events, answer);
    }
    const answer = await ask(opening(events)); // from scratch (and the index of a refusal)
    if (answer.ok) return keep(events, answer);
    held = null;
    heldView = null;
    return { ...answer, index: answer.index ?? -1 };
  }

  function keep(events, answer) {
    held = [...events];
    heldView = answer.view;
    return answer;
  }

  async function becomeLocal() {
    if (!(await startReferee())) return;
    const ok = await exclusive(async () => {
      if (!record) record = fresh(serverView);
      const behind = record.serverVersion < 0 || record.serverVersion !== serverView?.version;
      if (!record.created && serverView && behind) {
        try {
          await pullLog();
        } catch (err) {
          if (!(err instanceof api.OfflineError)) console.warn("log", err);
        }
      }
      if (record.serverVersion < 0) return false; // never had the log: the server's view it is
      const local = await rebuild();
      if (local) await save();
      return local;
    });
    if (ok) {
      changed();
      flush();
    }
  }

  /** A seat's own view: worked out here when the phone referees (the open log shows it anyway). */
  async function privateView(seat, seatToken) {
    if (mode !== "local") return api.getSeatView(id, seat, seatToken);
    const answer = await ask({ op: "private", id, seat });
    if (!answer.ok) throw refusal(answer.error);
    return { seat, view: answer.view ?? null, stale: false };
  }

  async function preview(event) {
    if (mode !== "local") return (await api.preview(id, view.version, event)).table;
    return exclusive(async () => {
      const shown = held || [];
      const answer = await ask({ op: "apply", id, event: namedUndo(event, shown), commit: false });
      if (!answer.ok) throw refusal(answer.error);
      return compose(answer.view, shown.length + 1);
    });
  }

  /**
   * Record an event: locally at once (then waiting for the server), or through the server.
   * `seen`: the log position the player's screen showed when they tapped; a tap on a table that
   * changed meanwhile (another phone's entry arrived that instant) is not recorded: they look again.
   */
  async function recordEvent(event, key = api.newIdempotencyKey(), { seen = null } = {}) {
    if (mode !== "local") {
      if (record?.conflict) throw decideFirst();
      // The answer (or the stream, which may bring it first) is this phone's own entry, not
      // another phone's: it must not count as news that redrew the screen under a tap (issue 33).
      posting += 1;
      try {
        const res = await api.postEvent(id, store.getToken(id), view.version, event, key);
        serverChanged(res.table);
      } finally {
        posting -= 1;
      }
      return view;
    }
    const after = await exclusive(async () => {
      const { item, shown, refused: why } = tapped(record, event, key, seen);
      if (why) throw why === "sync-conflict" ? decideFirst() : movedOn();
      const before = await hold(shown); // already so, unless a step failed half-way
      if (!before.ok) throw refusal(before.error);
      const answer = await ask({ op: "apply", id, event: item.event, commit: true });
      if (!answer.ok) throw refusal(answer.error);
      keep([...shown, item.event], answer);
      if (!record.queue.length) localSince = new Date().toISOString();
      record.queue.push(item);
      view = compose(answer.view, held.length);
      await save();
      return view;
    });
    changed();
    flush();
    return after;
  }

  function decideFirst() {
    return refusal({ status: 409, code: "sync-conflict", detail: "" });
  }

  function movedOn() {
    return refusal({ status: 409, code: "tap-on-old-table", detail: "" });
  }

  /** A newer table from the live stream (entries: the log entries since `from`, when known). */
  async function serverChanged(table, { entries = null, from = null } = {}) {
    if (!table || table.id !== id) return;
    if (mode !== "local") {
      if (!view || table.version >= view.version) {
        view = table;
        serverView = table;
        changed(posting ? "local" : "server");
      }
      return;
    }
    serverView = table;
    let moved = false;
    try {
      moved = await exclusive(async () => {
        if (table.version <= record.serverVersion) return false;
        const known = record.serverEvents.length;
        if (!extended(record, entries, from, table.version)) await pullLog();
        noteUndo(known);
        await rebuild();
        await save();
        return true;
      });
    } catch (err) {
      if (!(err instanceof api.OfflineError)) console.warn("catch up", err);
    }
    if (moved) {
      changed("server");
      flush();
    }
  }

  /** Create a table started offline, keeping what was recorded on it (its key: never a twin). */
  async function createOnServer() {
    const created = await api.createTable(record.created.body, record.created.key);
    const localId = id;
    store.setToken(created.id, created.write_token);
    if (created.seats?.length) store.setSeatLinks(created.id, created.seats);
    await exclusive(async () => {
      id = created.id;
      serverView = created.table;
      // What was recorded here before the table reached the server is this phone's, in order.
      const sent = record.queue.map((item) => item.base + 1);
      record = { ...record, id, created: null, serverVersion: 0, serverEvents: [], serverAt: [], sentHere: sent };
      // A retried creation: what was sent before the answer got lost is on the server already.
      if (created.table.version > 0) await pullLog();
      await localdb.putTable(record);
      await localdb.deleteTable(localId);
      await ask({ op: "close", id: localId });
      held = null;
      await rebuild();
    });
    onRenamed(id, localId);
  }

  /** Send the waiting entries in order, each at the position it was made at. Stops offline, on a
   * conflict, or when everything is on the server. */
  async function flush() {
    if (flushing) {
      flushAgain = true; // asked while sending (e.g. a choice made meanwhile): look again after
      return;
    }
    if (closed || mode !== "local" || !record || record.conflict) return;
    if (!record.queue.length && !record.created) return;
    if (hidden) return;
    flushing = true;
    flushAgain = false;
    try {
      if (record.created) await createOnServer();
      for (let next = nextToSend(record); next && !closed; next = nextToSend(record)) {
        const { item, expectedVersion } = next;
        let res;
        try {
          res = await api.postEvent(id, store.getToken(id), expectedVersion, item.event, item.key);
        } catch (err) {
          if (err instanceof api.OfflineError) {
            flushAgain = false; // offline: the next tap, the "online" event or the timer tries again
            break;
          }
          const current = await exclusive(async () => {
            if (record.queue[0] !== item) return false; // the players chose meanwhile
            if (err.code === "stale-version") {
              // Not stored (its key was not used): another phone's entry is at its position.
              await pullLog();
              refused(record, item);
            } else {
              // The server refuses it for good (a link it no longer accepts, a rule the phone's
              // older rules allowed): the players see why and drop it; never dropped unasked.
              refused(record, item, err.problem || { detail: String(err) });
            }
            await rebuild();
            await save();
            return true;
          });
          if (current) break;
          continue;
        }
        await exclusive(async () => {
          // Stored at res.seq, its very position (sent before when `replayed`).
          if (!stored(record, item, res.seq)) await pullLog();
          serverView = res.table;
          await rebuild();
          await save();
        });
        changed();
      }
    } catch (err) {
      if (!(err instanceof api.OfflineError)) console.warn("sync", err);
    } finally {
      flushing = false;
      changed();
    }
    if (flushAgain) flush();
  }

  /**
   * The log as this phone holds it, for the log view (offline too): every entry the screen shows,
   * oldest first, as {seq, event, at (ISO time: stored on the server, or tapped here while it
   * waits), here (this phone recorded it), waiting (not on the server yet), inEffect, undid
   * ({seq, event}: what an undo took back), undoneBy (the seq of the undo that took it back)}, and
   * `views`: the table before any entry (views[0]) and after each (views[k]: after entry k), from
   * the phone's referee; from the server's replay while the server referees this table (serverHistory).
   */
  async function history() {
    if (mode !== "local") return serverHistory();
    if (!record) return null;
    /** @typedef {import("kibitz-api").components["schemas"]["LoggedEvent"]} LoggedEvent */
    /** @type {{seq: number, event: LoggedEvent, at: string | null, here: boolean, waiting: boolean, inEffect?: boolean, undid?: {seq: number, event: LoggedEvent | null}, undoneBy?: number}[]} */
    const entries = await exclusive(async () => {
      const merged = reconcile(record.serverEvents, record.queue, { conflict: !!record.conflict });
      const known = record.serverEvents.length;
      const here = new Set(record.sentHere || []);
      // Sent from here and already in the server's log, its answer not here yet.
      const sentAt = new Map(record.queue.slice(0, merged.confirmed).map((item) => [item.base, item.at]));
      return merged.shown.map((event, index) => {
        if (index < known) {
          const at = record.serverAt?.[index] ?? sentAt.get(index) ?? null;
          return { seq: index + 1, event, at, here: here.has(index + 1) || sentAt.has(index), waiting: false };
        }
        return { seq: index + 1, event, at: merged.waiting[index - known]?.at ?? null, here: true, waiting: true };
      });
    });
    const scratch = `${id}#log`;
    let answer = await ask(opening([], scratch));
    if (!answer.ok) {
      await ask({ op: "close", id: scratch });
      return null;
    }
    const views = [compose(answer.view, 0)];
    const log = [];
    for (const entry of entries) {
      answer = await ask({ op: "apply", id: scratch, event: entry.event, commit: true });
      if (!answer.ok) break;
      if (entry.event.type === "undo") {
        const seq = entry.event.undoes ?? headOf(log);
        entry.undid = { seq, event: log[seq - 1] ?? null };
      }
      log.push(entry.event);
      views.push(compose(answer.view, log.length));
    }
    await ask({ op: "close", id: scratch });
    const effective = new Set(inEffect(log));
    const shown = entries.slice(0, log.length);
    for (const entry of shown) {
      entry.inEffect = entry.event.type !== "undo" && effective.has(entry.seq);
      if (entry.undid && shown[entry.undid.seq - 1]) shown[entry.undid.seq - 1].undoneBy = entry.seq;
    }
    return { entries: shown, views };
  }

  /**
   * The same for a table the server referees (its dice or cards come from the server's secret seed,
   * so no phone can replay it): the open log and the server's replay of it, when the network is
   * there; null offline.
   */
  async function serverHistory() {
    let log, replay;
    try {
      [log, replay] = await Promise.all([api.listEvents(id), api.getReplay(id)]);
    } catch (err) {
      if (!(err instanceof api.OfflineError)) console.warn("log", err);
      return null;
    }
    const table = serverView || view;
    if (!table) return null;
    const here = new Set(record?.sentHere || []);
    const known = Math.min(log.events.length, replay.version, replay.steps.length - 1); // read a moment apart
    const logged = log.events.slice(0, known);
    /** @type {{seq: number, event: import("kibitz-api").components["schemas"]["LoggedEvent"], at: string | null, here: boolean, waiting: boolean, inEffect?: boolean, undid?: {seq: number, event: import("kibitz-api").components["schemas"]["LoggedEvent"] | null}, undoneBy?: number}[]} */
    const entries = logged.map((entry) => ({
      seq: entry.seq,
      event: entry.event,
      at: entry.at,
      here: here.has(entry.seq),
      waiting: false,
      inEffect: entry.in_effect,
      ...(entry.kind === "undo" ? { undid: { seq: entry.undoes, event: logged[entry.undoes - 1]?.event ?? null } } : {}),
    }));
    for (const entry of entries) if (entry.undid && entries[entry.undid.seq - 1]) entries[entry.undid.seq - 1].undoneBy = entry.seq;
    const views = replay.steps.slice(0, known + 1).map((step) => ({ ...table, ...step, version: step.seq, seed: null }));
    return { entries, views };
  }

  /** The entries of a log from position `base` on, each with the views around it, described later
   * by the game: [{before, after, event, undone}] (`undone`: the event an undo took back). */
  async function stepsFrom(start, events, scratch) {
    let answer = await ask(opening(start, scratch));
    const log = [...start];
    const described = [];
    for (const event of events) {
      if (!answer.ok) break;
      const before = compose(answer.view, log.length);
      answer = await ask({ op: "apply", id: scratch, event, commit: true });
      if (!answer.ok) break;
      const undone = event.type === "undo" ? log[(event.undoes ?? headOf(log)) - 1] ?? null : null;
      log.push(event);
      described.push({ before, after: compose(answer.view, log.length), event, undone });
    }
    await ask({ op: "close", id: scratch });
    return described;
  }

  /** What met: the other phones' entries since my first waiting one was made, and mine. */
  async function describeConflict() {
    const conflict = record?.conflict;
    if (!conflict) return { theirs: [], mine: [] };
    const base = Math.max(0, Math.min(conflict.base, record.serverEvents.length));
    const start = record.serverEvents.slice(0, base);
    const theirs = await stepsFrom(start, record.serverEvents.slice(base), `${id}#theirs`);
    const mine = await stepsFrom(start, record.queue.map((item) => item.event), `${id}#mine`);
    return { theirs, mine };
  }

  /** Whether each choice can be made now: {after, back, drop}: {ok, reason?, error?}. */
  async function conflictChoices() {
    const choices = { drop: { ok: true } };
    for (const choice of ["after", "back"]) choices[choice] = await tryChoice(choice);
    return choices;
  }

  async function tryChoice(choice) {
    const conflict = record?.conflict;
    if (!conflict) return { ok: false, reason: "none" };
    if (conflict.refused) return { ok: false, reason: "refused", error: conflict.error };
    const queue = resolved(record.serverEvents, record.queue, choice, api.newIdempotencyKey);
    if (!queue) return { ok: false, reason: "cannot-take-back" };
    const scratch = `${id}#choice`;
    const answer = await ask(opening([...record.serverEvents, ...queue.map((item) => item.event)], scratch));
    await ask({ op: "close", id: scratch });
    if (!answer.ok) return { ok: false, reason: "does-not-fit", error: answer.error };
    return { ok: true, queue };
  }

  /**
   * The players' choice: "after" keeps mine after theirs, "back" takes theirs back (recorded undos,
   * each naming its entry) and keeps mine, "drop" drops mine. Resolves {ok} — false (with the
   * reason) when that choice cannot be made; the conflict then stays for another choice.
   */
  async function resolveConflict(choice) {
    const outcome = await exclusive(async () => {
      if (!record?.conflict) return { ok: true };
      const tried = choice === "drop" ? { ok: true, queue: [] } : await tryChoice(choice);
      if (!tried.ok) return tried;
      record.queue = tried.queue;
      record.conflict = null;
      await rebuild();
      await save();
      return { ok: true };
    });
    changed();
    flush();
    return outcome;
  }

  // A page being closed sends nothing more (its network may be gone, or come back for an instant).
  let hidden = false;
  addEventListener("pagehide", () => (hidden = true));
  addEventListener("pageshow", () => (hidden = false));

  // The referee boots after the first paint; until then (or for good) the server referees.
  if (record && (record.created || !serverView)) {
    if (!(await startReferee())) throw new api.OfflineError("offline");
    await exclusive(rebuild);
    if (mode !== "local") throw new api.OfflineError("offline");
  } else {
    setTimeout(() => becomeLocal().catch((err) => console.warn("referee", err)), 0);
  }
  return session;
}

/** A record stored by an older version of the app: each waiting entry gets the position it was
 * made at, a conflict the position it is about. */
function upgraded(record) {
  if (!record) return record;
  const start = record.queueBase ?? record.serverVersion;
  record.queue = (record.queue || []).map((item, index) => ({ ...item, base: item.base ?? start + index }));
  if (record.conflict && record.conflict.base === undefined) record.conflict = { base: record.queue[0]?.base ?? start };
  if (record.conflict && !record.queue.length) record.conflict = null;
  delete record.queueBase;
  delete record.conflictPrefix;
  return record;
}
