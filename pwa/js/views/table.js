// "#/t/<id>?k=<token>&s=<seat>&sk=<seat token>": one table. Loads the view, keeps it fresh
// (polling), and runs the propose → preview → confirm → post cycle for the game screen. With a
// player's own link (s, sk) the phone knows "my seat" and keeps that seat's private view (e.g. the
// Magellan hand) fresh with the table's version. Game-specific drawing lives in js/games/<game>/.
// The screen's parts: the bar (table-bar.js), my seat (table-seat.js), the table drawn and
// replaced by newer views (table-view.js), the entry cycle (table-entry.js); this module opens the
// table and wires them to its sync session and the network.
import { h, present } from "../dom.js";
import { t } from "../i18n.js";
import * as api from "../api.js";
import * as store from "../store.js";
import { navigate, replacePath } from "../router.js";
import { loadGame } from "../games/registry.js";
import { setRulesGame } from "../ui/header.js";
import { followTable } from "../live.js";
import { toast } from "../toast.js";
import { openSession } from "../sync/session.js";
import { syncBadge, showConflict } from "../ui/sync.js";
import { openLog } from "../ui/log.js";
import { flushPending } from "../groups/filing.js";
import { followNext, handOverNow, noteLastTable, tableGroup } from "../groups/evening.js";
import { tableBar, shareSeats } from "./table-bar.js";
import { refreshMine } from "./table-seat.js";
import { adopt, draw } from "./table-view.js";
import { dropUndoToasts, propose, tapNow } from "./table-entry.js";

export { LATE_TAP_MS } from "./table-entry.js";

/** @typedef {import("kibitz-api").components["schemas"]["Table"]} Table */
/** @typedef {Awaited<ReturnType<typeof openSession>>} Session */
/** @typedef {import("../games/registry.js").GameClient} GameClient */
/** @typedef {import("../games/registry.js").LoggedEvent} LoggedEvent */
/** @typedef {{close: () => void, setBusy: (busy: boolean, opts?: {lock?: boolean}) => void, setBody?: (body: import("../dom.js").Child) => void}} PendingSheet */
/**
 * The action waiting in the confirm sheet, or being recorded.
 * @typedef {{event: import("../games/registry.js").GameEvent, key: string, version: number, committing: boolean, previewed?: boolean, sheet: PendingSheet}} Pending
 */
/**
 * When another phone's entry last changed this screen (performance.now()), and what it did.
 * @typedef {{at: number, before: Table, after: Table, event: LoggedEvent | null}} Foreign
 */
/**
 * What one table's screen knows.
 * @typedef {object} TableState
 * @property {string} id the table's id (a table started offline gets its server id once)
 * @property {string | null} token the table's write token, where this phone has it
 * @property {boolean} readOnly
 * @property {Session} session
 * @property {GameClient} game
 * @property {Table} table the view on screen
 * @property {boolean} destroyed
 * @property {Foreign | null} foreign
 * @property {Pending | null} pending
 * @property {import("../store.js").SeatKey | null} mySeat from a player's own link
 * @property {import("../games/registry.js").Mine | null} mine my seat's private view
 * @property {number} seatAsk the newest ask for it (the newest answer wins)
 */
/**
 * A table's screen: what it knows and its parts.
 * @typedef {TableState & {
 *   body: HTMLElement,
 *   seatNotice: HTMLElement,
 *   bar: import("./table-bar.js").TableBar,
 *   badge: ReturnType<typeof syncBadge>,
 *   screen: import("../games/registry.js").Screen,
 *   nextGame: ReturnType<typeof followNext>,
 *   log: ReturnType<typeof openLog> | null,
 *   poller: import("./../poll.js").Poller,
 * }} TableScreen
 */
/** What the session tells the screen (set once the screen exists). */
/** @typedef {{change: (reason?: string) => void, renamed: (newId: string, localId: string) => void}} SessionHooks */

/**
 * @param {HTMLElement} container
 * @param {string} message
 * @returns {void}
 */
function errorScreen(container, message) {
  container.replaceChildren(
    h("div", { class: "empty-state" }, h("p", { testid: "table-error" }, message), h("a", { class: "btn btn-secondary", href: "#/" }, t("common.back_home"))),
  );
}

/**
 * @param {HTMLElement} container
 * @param {import("../router.js").RouteContext} route
 * @returns {Promise<(() => void) | undefined>} the screen's cleanup
 */
export async function mountTable(container, { params, query }) {
  const id = takeLinkSecrets(params.id, query);
  const token = store.getToken(id);
  container.classList.add("table-screen");
  container.append(h("p", { class: "muted loading" }, t("common.loading")));
  /** @type {SessionHooks} */
  const hooks = { change: () => {}, renamed: () => {} };
  let session;
  try {
    session = await openSession(id, { onChange: (_session, reason) => hooks.change(reason), onRenamed: (newId, localId) => hooks.renamed(newId, localId) });
  } catch (err) {
    if (err instanceof api.OfflineError) errorScreen(container, t("offline.no_table"));
    else if (err instanceof api.ApiError && err.status === 404) errorScreen(container, t("error.table_not_found"));
    else errorScreen(container, (err instanceof api.ApiError && err.problem.detail) || t("error.generic"));
    return;
  }
  const table = present(session.view, "the table's view"); // an open session has one
  const game = await loadGame(table.game);
  if (!game) {
    errorScreen(container, t("error.unknown_game"));
    return;
  }
  setRulesGame(game.name);
  store.rememberTable(table, game.title);
  const mySeat = store.getMySeat(id);
  /** @type {TableState} */
  const state = {
    ...{ id, token, readOnly: !token && !session.startedHere, session, game, table, destroyed: false },
    ...{ foreign: null, pending: null, mySeat, seatAsk: 0 },
    mine: mySeat ? { seat: mySeat.seat, view: null, version: null, status: "loading" } : null,
  };
  return showTable(container, state, hooks);
}

/**
 * The table's key and a player's own link (seat and its token) are kept on the phone and taken out
 * of the visible URL.
 * @param {string} id
 * @param {URLSearchParams} query
 * @returns {string} the table's id
 */
function takeLinkSecrets(id, query) {
  const k = query.get("k");
  if (k) store.setToken(id, k);
  const s = query.get("s");
  const sk = query.get("sk");
  if (s !== null && /^\d+$/.test(s) && sk) store.setMySeat(id, Number(s), sk);
  if (k || s !== null || sk !== null) replacePath(`/t/${encodeURIComponent(id)}`); // keep the secrets out of the visible URL
  return id;
}

/**
 * The game's controller: what a game's screen may read and do.
 * @param {TableState} state
 * @param {() => TableScreen} screen the whole screen (once it exists)
 * @returns {import("../games/registry.js").Controller}
 */
function controllerOf(state, screen) {
  return {
    get id() {
      return state.id;
    },
    readOnly: state.readOnly,
    game: state.game,
    get table() {
      return state.table;
    },
    propose: (event, opts) => propose(screen(), event, opts),
    /** Record without a confirm step (e.g. the digital first die, which has no choice in it). */
    commitNow: (event) => tapNow(screen(), event),
    /** What `event` would make, from the phone's referee (else the server); throws the refusal. */
    check: (event) => state.session.preview(event),
    /** My seat number (from a player's own link), or null. */
    get seat() {
      return state.mySeat ? state.mySeat.seat : null;
    },
    /** A player's own link: [{seat, name, url}] this phone holds (the phone the table was made on). */
    seatLinks: () => shareSeats(state) || [],
    /** My seat's private view {seat, view, version, status}, or null. */
    get mine() {
      return state.mine;
    },
  };
}

/**
 * Build the screen over an open session and follow the table; → the screen's cleanup.
 * @param {HTMLElement} container
 * @param {TableState} state
 * @param {SessionHooks} hooks
 * @returns {() => void}
 */
function showTable(container, state, hooks) {
  const st = buildScreen(container, state);
  draw(st);
  refreshMine(st);
  st.poller = st.id.startsWith("local-") ? { stop() {}, now() {} } : follow(st);
  hooks.renamed = (newId, localId) => renamed(st, newId, localId);
  hooks.change = (reason) => sessionChanged(st, reason);
  sessionChanged(st);
  const stopWatching = watchNetwork(st);
  return () => {
    st.destroyed = true;
    st.nextGame.stop();
    st.bar.stop();
    stopWatching();
    st.session.close();
    st.poller.stop();
    if (st.pending) st.pending.sheet.close();
    if (st.log) st.log.close();
    if (st.screen.destroy) st.screen.destroy();
  };
}

/**
 * The screen's parts, laid out: the bar, the table's messages, my seat's notice, the next game's
 * offer, and the game's own screen.
 * @param {HTMLElement} container
 * @param {TableState} state
 * @returns {TableScreen}
 */
function buildScreen(container, state) {
  /** @type {TableScreen} */
  let st;
  const seatNotice = h("div", { class: "seat-notice-host" });
  const nextHost = h("div", { class: "next-table-host", "aria-live": "polite" });
  const body = h("div", { class: "table-body" });
  // The badge opens the conflict sheet again whenever the players closed it to look at the table.
  const badge = syncBadge({ onConflict: () => showConflict(state.session, state.game, { force: true }) });
  const bar = tableBar(state, { badge: badge.element, onLog: () => showLog(st) });
  body.addEventListener("click", dropUndoToasts, { capture: true });
  container.replaceChildren(
    bar.element,
    // The table's messages (toast.js): in the flow, so none ever lies over the game (issue 33).
    h("div", { class: "table-news", id: "table-news", testid: "table-news", role: "status", "aria-live": "polite" }),
    seatNotice,
    nextHost,
    body,
  );
  bar.showSeat();
  bar.showClock();
  const nextGame = followNextGame(state, nextHost);
  const filed = tableGroup(state.id);
  if (filed) noteLastTable(filed.group, state.id); // this group's next game is handed over from here
  const parts = { body, seatNotice, bar, badge, nextGame, log: null, poller: { stop() {}, now() {} } };
  // The game's screen reads the controller as it draws; it exists once createScreen returns.
  st = Object.assign(state, parts, { screen: { update() {} } });
  st.screen = state.game.createScreen(body, controllerOf(state, () => st));
  return st;
}

/**
 * The next game (a rematch, the group's next game) started on another phone: followed at once, or
 * offered with one tap when it was there before this visit (issue 33).
 * @param {TableState} state
 * @param {HTMLElement} nextHost
 * @returns {ReturnType<typeof followNext>}
 */
function followNextGame(state, nextHost) {
  return followNext({
    tableId: () => state.id,
    go: (path) => navigate(path),
    offer: (_next, go) =>
      nextHost.replaceChildren(
        h("p", { class: "seat-notice", testid: "next-table-offer" }, t("evening.next_there"), " ", h("button", { type: "button", class: "btn btn-primary btn-small", testid: "next-table", onclick: go }, t("evening.next_open"))),
      ),
  });
}

/**
 * The move log with its replay, over the table (from the phone's own store: offline too).
 * @param {TableScreen} st
 * @returns {void}
 */
function showLog(st) {
  if (st.log && !st.log.closed) return;
  dropUndoToasts(); // it would cover the log
  st.log = openLog({ session: st.session, game: st.game, onClose: () => (st.log = null) });
}

/**
 * The live stream (else polling) of the table; news goes to the session, which tells the screen.
 * @param {TableScreen} st
 * @returns {import("../poll.js").Poller}
 */
function follow(st) {
  return followTable(st.id, {
    etag: st.session.etag,
    onTable: (data, { stale, entries, from }) => {
      // sync/session.js does not type serverChanged's options yet: the stream's entries and position.
      if (!stale) st.session.serverChanged(data, /** @type {any} */ ({ entries, from }));
    },
  });
}

/**
 * A table started offline got its server id: the same table under its real address.
 * @param {TableScreen} st
 * @param {string} newId
 * @param {string} localId
 * @returns {void}
 */
function renamed(st, newId, localId) {
  store.forgetTable(localId);
  store.noteRenamed(localId, newId);
  flushPending().catch(() => undefined); // a group waiting to file it can now
  handOverNow(localId, newId).catch(() => undefined); // the old table's phones can follow now
  store.rememberTable(present(st.session.view, "the table's view"), st.game.title);
  st.id = newId;
  st.token = store.getToken(newId);
  replacePath(`/t/${encodeURIComponent(newId)}`);
  st.poller.stop();
  st.poller = follow(st);
}

/**
 * The session's view, queue or connection changed: adopt the view, note another phone's entry
 * (issue 33), say what an undo elsewhere took back, redraw the badge, the conflict and the log.
 * @param {TableScreen} st
 * @param {string} [reason] "server" for news from the server
 * @returns {void}
 */
function sessionChanged(st, reason) {
  const before = st.table;
  adopt(st, st.session.view, { own: reason !== "server" });
  const table = st.table;
  const undone = reason === "server" ? st.session.takeNews() : null;
  // While this phone's own entry is being sent, news from the server is that entry coming back
  // (the answer to the write, or the live stream echoing it first): not another phone's. Another
  // phone's entry in that moment makes the write itself fail (it names the version it saw).
  const ownEcho = !!st.pending?.committing;
  if (reason === "server" && !ownEcho && table !== before && table.version > before.version) {
    // Another phone's entry redrew the screen now: a tap in the next moment is asked about (named
    // when it is one entry and not an undo).
    const one = table.version === before.version + 1 && !undone;
    st.foreign = { at: performance.now(), before, after: table, event: one ? st.session.lastInEffect(table.version) : null };
  }
  if (undone && !st.destroyed) {
    // Every phone is told what an undo took back ("Undone on another phone: 4 for red").
    const what = st.game.describe(table, before, undone);
    toast(what ? t("table.undone_elsewhere", { what }) : t("table.undone_elsewhere_plain"), { timeout: 6000 });
  }
  st.badge.show(st.session);
  if (st.session.conflict) showConflict(st.session, st.game);
  if (st.log && !st.log.closed) st.log.refresh();
}

/**
 * Back online: send what waits, catch up, and ask again for my cards if the last try failed.
 * → stops watching.
 * @param {TableScreen} st
 * @returns {() => void}
 */
function watchNetwork(st) {
  const retryMine = () => st.mine?.status === "failed" && refreshMine(st);
  const back = () => {
    st.session.flush();
    st.poller.now();
    retryMine();
    st.badge.show(st.session);
  };
  const offConnectivity = api.onConnectivity((online) => (online ? back() : st.badge.show(st.session)));
  const onOffline = () => st.badge.show(st.session);
  window.addEventListener("online", back);
  window.addEventListener("offline", onOffline);
  // A safety net for networks that come back without an "online" event.
  const retry = setInterval(() => st.session.waiting && st.session.flush(), 5000);
  return () => {
    clearInterval(retry);
    window.removeEventListener("offline", onOffline);
    offConnectivity();
    window.removeEventListener("online", back);
  };
}
