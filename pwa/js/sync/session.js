// One table, local first. The phone's referee (the server's own rules under Pyodide) applies a tap
// at once; the event is queued in IndexedDB and sent in order with its Idempotency-Key whenever the
// server can be reached. The server stays the authority: it applies every event again. When another
// phone got there first (409), the queued events are replayed onto the server's log; the first one
// that no longer fits becomes a conflict the players decide (nothing typed is dropped unasked).
// Tables the phone cannot referee (digital chance, hidden hands) go through the server as before.
import * as api from "../api.js";
import * as store from "../store.js";
import { ask, startReferee } from "../referee/client.js";
import * as localdb from "./localdb.js";
import { refusalText } from "../i18n.js";

export const LOCAL_PREFIX = "local-";

/** A refusal of the local referee, shaped like the server's problem answers. */
function refusal(problem) {
  return new api.ApiError({ title: "Refused", ...problem, detail: refusalText(problem) }, problem.status || 422);
}

/** The last event still in effect after a log (null when nothing is). */
function topOf(events) {
  const stack = [];
  for (const event of events) {
    if (event.type === "undo") stack.pop();
    else stack.push(event);
  }
  return stack.length ? stack[stack.length - 1] : null;
}

/** How many events are in effect after a log (an undo takes back the last one in effect). */
function depthAfter(events) {
  let depth = 0;
  let lowest = 0;
  for (const event of events) {
    depth = event.type === "undo" ? depth - 1 : depth + 1;
    lowest = Math.min(lowest, depth);
  }
  return { depth, lowest };
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
 * connection, the queue or a conflict changes; onRenamed(newId) once a table started offline got
 * its server id.
 */
export async function openSession(initialId, { onChange = () => {}, onRenamed = () => {} } = {}) {
  let id = initialId;
  let record = await localdb.getTable(id).catch(() => null);
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
  let closed = false;
  let localSince = null;
  let news = null;

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
    /** Writable without a token while the table exists only here (it gets one when created). */
    get startedHere() {
      return !!record?.created;
    },
    preview,
    privateView,
    /** The event an undo recorded now would take back, as of log position `version`. */
    lastInEffect(version) {
      if (!record || mode !== "local") return null;
      return topOf(allEvents().slice(0, version));
    },
    /** What the last catch-up brought: the event another phone's undo took back (once). */
    takeNews() {
      const undone = news;
      news = null;
      return undone;
    },
    record: recordEvent,
    serverChanged,
    flush,
    resolveConflict,
    describeTheirs,
    close() {
      closed = true;
      ask({ op: "close", id }).catch(() => undefined);
    },
  };

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
  function compose(rules) {
    return {
      id,
      game: record.game,
      version: record.serverVersion + record.queue.length,
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

  /** The server's whole log (the open log: what any phone at the table may read). */
  async function pullLog() {
    const log = await api.listEvents(id);
    record.serverEvents = log.events.map((entry) => entry.event);
    record.serverVersion = log.version;
  }

  function allEvents() {
    return [...record.serverEvents, ...record.queue.map((item) => item.event)];
  }

  /** Notice an undo among entries that other phones added after position `from`. */
  function noteUndo(from) {
    const events = record.serverEvents;
    for (let i = events.length - 1; i >= from; i--) {
      if (events[i].type === "undo") {
        news = topOf(events.slice(0, i));
        return;
      }
    }
  }

  /** Hand the log to the referee; false when this table is the server's to referee. */
  async function openLocal() {
    const events = allEvents();
    const answer = await ask({ op: "open", id, game: record.game, players: record.players, options: record.options, seed: record.seed ?? 0, events });
    if (answer.ok) {
      mode = "local";
      view = compose(answer.view);
      return true;
    }
    const index = answer.index ?? -1;
    if (index >= record.serverEvents.length) {
      // One of our queued events no longer fits the server's log: the players decide.
      const at = index - record.serverEvents.length;
      record.conflict = { at, error: answer.error, mine: record.queue[at].event, base: record.queueBase ?? 0 };
      await save();
      const prefix = await ask({ op: "open", id, game: record.game, players: record.players, options: record.options, seed: record.seed ?? 0, events: [...record.serverEvents, ...record.queue.slice(0, at).map((item) => item.event)] });
      if (prefix.ok) {
        mode = "local";
        record.conflictPrefix = at;
        view = compose(prefix.view);
        view.version = record.serverVersion + at;
      }
      return prefix.ok;
    }
    mode = "server"; // server-drawn chance, hidden hands, or a log this phone cannot follow
    return false;
  }

  async function becomeLocal() {
    if (!(await startReferee())) return;
    if (!record) record = fresh(serverView);
    const behind = record.serverVersion < 0 || (!record.queue.length && record.serverVersion !== serverView?.version);
    if (!record.created && serverView && behind) {
      try {
        await pullLog();
      } catch (err) {
        if (!(err instanceof api.OfflineError)) console.warn("log", err);
      }
    }
    if (record.serverVersion < 0) return; // never had the log: the server's view it is
    if (await openLocal()) {
      await save();
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
    const answer = await ask({ op: "apply", id, event, commit: false });
    if (!answer.ok) throw refusal(answer.error);
    const next = compose(answer.view);
    next.version += 1;
    return next;
  }

  /** Record an event: locally at once (then queued for the server), or through the server. */
  async function recordEvent(event, key = api.newIdempotencyKey()) {
    if (record?.conflict) throw refusal({ status: 409, code: "sync-conflict", detail: "" });
    if (mode !== "local") {
      const res = await api.postEvent(id, store.getToken(id), view.version, event, key);
      serverChanged(res.table);
      return view;
    }
    const answer = await ask({ op: "apply", id, event, commit: true });
    if (!answer.ok) throw refusal(answer.error);
    if (!record.queue.length) {
      localSince = new Date().toISOString();
      record.queueBase = record.serverVersion; // the server's log position the queue builds on
    }
    record.queue.push({ key, event });
    view = compose(answer.view);
    await save();
    changed();
    flush();
    return view;
  }

  /** A newer table from the live stream (entries: the log entries since `from`, when known). */
  async function serverChanged(table, { entries = null, from = null } = {}) {
    if (!table || table.id !== id) return;
    if (mode !== "local") {
      if (!view || table.version >= view.version) {
        view = table;
        serverView = table;
        changed("server");
      }
      return;
    }
    serverView = table;
    if (table.version <= record.serverVersion) return;
    if (record.queue.length) {
      flush(); // the server will answer 409 and the queue is replayed onto its log
      return;
    }
    try {
      const known = record.serverEvents.length;
      if (entries && from === record.serverVersion && from + entries.length === table.version) {
        record.serverEvents.push(...entries.map((entry) => entry.event));
        record.serverVersion = table.version;
      } else {
        await pullLog();
      }
      noteUndo(known);
      await openLocal();
      await save();
      changed("server");
    } catch (err) {
      if (!(err instanceof api.OfflineError)) console.warn("catch up", err);
    }
  }

  /** Create a table started offline, keeping what was recorded on it. */
  async function createOnServer() {
    const created = await api.createTable(record.created.body, record.created.key);
    const localId = id;
    store.setToken(created.id, created.write_token);
    if (created.seats?.length) store.setSeatLinks(created.id, created.seats);
    id = created.id;
    serverView = created.table;
    record = { ...record, id, created: null, serverVersion: created.table.version, serverEvents: [] };
    await localdb.putTable(record);
    await localdb.deleteTable(localId);
    await ask({ op: "close", id: localId });
    await openLocal();
    onRenamed(id, localId);
  }

  /** Send the queue in order. Stops offline, on a conflict, or when everything is on the server. */
  async function flush() {
    if (flushing || closed || mode !== "local" || !record || record.conflict) return;
    if (!record.queue.length && !record.created) return;
    flushing = true;
    try {
      if (record.created) await createOnServer();
      while (record.queue.length && !record.conflict) {
        const item = record.queue[0];
        let res;
        try {
          res = await api.postEvent(id, store.getToken(id), record.serverVersion, item.event, item.key);
        } catch (err) {
          if (err instanceof api.OfflineError) break;
          if (err.code === "stale-version") {
            await pullLog();
            const ok = await openLocal();
            await save();
            changed();
            if (!ok || record.conflict) break;
            continue;
          }
          // The server refuses it for good (a link it no longer accepts, a rule the phone's older
          // rules allowed): the players see why and drop it; it is never dropped unasked.
          const error = err.problem || { detail: String(err) };
          record.conflict = { at: 0, error, mine: item.event, base: record.queueBase ?? record.serverVersion, refused: true };
          await save();
          break;
        }
        if (res.replayed) {
          // Sent before (the answer was lost): the server's log is the truth from here.
          record.queue.shift();
          await pullLog();
          await openLocal();
        } else {
          record.serverEvents.push(item.event);
          record.serverVersion = res.seq;
          record.queue.shift();
        }
        record.queueBase = record.serverVersion;
        serverView = res.table;
        if (!record.queue.length) {
          localSince = null;
          record.queueBase = null;
        }
        view = { ...view, version: record.serverVersion + record.queue.length, local: { waiting: record.queue.length, since: localSince } };
        await save();
        changed();
      }
    } catch (err) {
      if (!(err instanceof api.OfflineError)) console.warn("sync", err);
    } finally {
      flushing = false;
      changed();
    }
  }

  /** The other phones' entries that the conflict is about, described by the game: [{before, after, event}]. */
  async function describeTheirs() {
    const conflict = record?.conflict;
    if (!conflict) return [];
    const base = Math.max(0, conflict.base);
    const start = record.serverEvents.slice(0, base);
    const scratch = `${id}#theirs`;
    let answer = await ask({ op: "open", id: scratch, game: record.game, players: record.players, options: record.options, seed: record.seed ?? 0, events: start });
    const steps = [];
    for (const event of record.serverEvents.slice(base)) {
      if (!answer.ok) break;
      const before = compose(answer.view);
      answer = await ask({ op: "apply", id: scratch, event, commit: true });
      if (answer.ok) steps.push({ before, after: compose(answer.view), event });
    }
    await ask({ op: "close", id: scratch });
    return steps;
  }

  /**
   * The players' choice: "mine" takes back the other phones' entries since this phone went
   * offline and keeps the queued events; "theirs" drops the queued events from the conflicting one.
   * Resolves false when "mine" is not possible (they undid further back than this phone's base).
   */
  async function resolveConflict(choice) {
    const conflict = record?.conflict;
    if (!conflict) return true;
    if (choice === "theirs") {
      record.queue = record.queue.slice(0, conflict.at);
    } else {
      const base = Math.max(0, conflict.base);
      const theirs = depthAfter(record.serverEvents.slice(base));
      if (theirs.lowest < 0) return false; // they took back more than they added since
      const undos = Array.from({ length: theirs.depth }, () => ({ key: api.newIdempotencyKey(), event: { type: "undo" } }));
      record.queue = [...undos, ...record.queue];
    }
    record.conflict = null;
    record.conflictPrefix = null;
    await openLocal();
    await save();
    changed();
    flush();
    return !record.conflict;
  }

  // The referee boots after the first paint; until then (or for good) the server referees.
  if (record && (record.created || !serverView)) {
    if (!(await startReferee())) throw new api.OfflineError("offline");
    await openLocal();
    if (mode !== "local") throw new api.OfflineError("offline");
  } else {
    setTimeout(() => becomeLocal().catch((err) => console.warn("referee", err)), 0);
  }
  return session;
}
