// "#/t/<id>?k=<token>&s=<seat>&sk=<seat token>": one table. Loads the view, keeps it fresh
// (polling), and runs the propose → preview → confirm → post cycle for the game screen. With a
// player's own link (s, sk) the phone knows "my seat" and keeps that seat's private view (e.g. the
// Magellan hand) fresh with the table's version. Game-specific drawing lives in js/games/<game>/.
import { h } from "../dom.js";
import { t, list, locale } from "../i18n.js";
import * as api from "../api.js";
import * as store from "../store.js";
import { navigate, replacePath } from "../router.js";
import { loadGame } from "../games/registry.js";
import { setRulesGame } from "../ui/header.js";
import { openSheet } from "../ui/sheet.js";
import { needsSeatLinks, seatLink, shareTable } from "../ui/share.js";
import { shareResultButton } from "../ui/share-card.js";
import { followTable } from "../live.js";
import { clearToasts, toast, toastError, undoToast } from "../toast.js";
import { openSession } from "../sync/session.js";
import { syncBadge, showConflict } from "../ui/sync.js";
import { openLog } from "../ui/log.js";
import { endActions } from "./rematch.js";
import { flushPending } from "../groups/filing.js";
import { followNext, handOverNow, noteLastTable, tableGroup } from "../groups/evening.js";

/** A tap this soon after another phone's entry redrew the screen is asked about (issue 33). */
export const LATE_TAP_MS = 700;

function errorScreen(container, message) {
  container.replaceChildren(
    h("div", { class: "empty-state" }, h("p", { testid: "table-error" }, message), h("a", { class: "btn btn-secondary", href: "#/" }, t("common.back_home"))),
  );
}

export async function mountTable(container, { params, query }) {
  let id = params.id;
  const k = query.get("k");
  if (k) store.setToken(id, k);
  const s = query.get("s");
  const sk = query.get("sk");
  if (s !== null && /^\d+$/.test(s) && sk) store.setMySeat(id, Number(s), sk);
  if (k || s !== null || sk !== null) replacePath(`/t/${encodeURIComponent(id)}`); // keep the secrets out of the visible URL
  let token = store.getToken(id);
  container.classList.add("table-screen");
  container.append(h("p", { class: "muted loading" }, t("common.loading")));

  // Set once the screen exists; the session reports every change of view, queue or connection.
  /** @type {(reason?: string) => void} */
  let onSessionChange = () => {};
  let session;
  try {
    session = await openSession(id, {
      onChange: (_session, reason) => onSessionChange(reason),
      onRenamed: (newId, localId) => {
        // A table started offline got its server id: the same table under its real address.
        store.forgetTable(localId);
        store.noteRenamed(localId, newId);
        flushPending().catch(() => undefined); // a group waiting to file it can now
        handOverNow(localId, newId).catch(() => undefined); // the old table's phones can follow now
        store.rememberTable(session.view, game.title);
        id = newId;
        controller.id = newId;
        token = store.getToken(newId);
        replacePath(`/t/${encodeURIComponent(newId)}`);
        poller.stop();
        poller = follow();
      },
    });
  } catch (err) {
    if (err instanceof api.OfflineError) errorScreen(container, t("offline.no_table"));
    else if (err.status === 404) errorScreen(container, t("error.table_not_found"));
    else errorScreen(container, err.problem?.detail || t("error.generic"));
    return;
  }
  const readOnly = !token && !session.startedHere;
  let table = session.view;
  const game = await loadGame(table.game);
  if (!game) {
    errorScreen(container, t("error.unknown_game"));
    return;
  }
  setRulesGame(game.name);
  store.rememberTable(table, game.title);

  let destroyed = false;
  /** When another phone's entry last changed this screen: {at (performance.now()), before, after, event}. */
  let foreign = null;
  let pending = null; // the action waiting in the confirm sheet: {event, key, version, sheet, committing}
  let mySeat = store.getMySeat(id); // {seat, token} from a player's own link, or null
  // The seat's private view: {seat, view, version (of the table when asked), status: "loading" | "fresh" | "failed"}.
  /** @type {import("../games/registry.js").Mine | null} */
  let mine = mySeat ? { seat: mySeat.seat, view: null, version: null, status: "loading" } : null;
  let seatAsk = 0;

  const controller = {
    id,
    readOnly,
    game,
    get table() {
      return table;
    },
    propose,
    commitNow,
    /** What `event` would make, from the phone's referee (else the server); throws the refusal. */
    check: (event) => session.preview(event),
    /** My seat number (from a player's own link), or null. */
    get seat() {
      return mySeat ? mySeat.seat : null;
    },
    /** A player's own link: [{seat, name, url}] this phone holds (the phone the table was made on). */
    seatLinks: () => shareSeats() || [],
    /** My seat's private view {seat, view, version, status}, or null. */
    get mine() {
      return mine;
    },
  };

  const seatHost = h("span", { class: "my-seat-host" });
  const seatNotice = h("div", { class: "seat-notice-host" });
  // The next game (a rematch, the group's next game) started on another phone: followed at once,
  // or offered with one tap when it was there before this visit (issue 33).
  const nextHost = h("div", { class: "next-table-host", "aria-live": "polite" });
  const nextGame = followNext({
    tableId: () => id,
    go: (path) => navigate(path),
    offer: (_next, go) =>
      nextHost.replaceChildren(
        h("p", { class: "seat-notice", testid: "next-table-offer" }, t("evening.next_there"), " ", h("button", { type: "button", class: "btn btn-primary btn-small", testid: "next-table", onclick: go }, t("evening.next_open"))),
      ),
  });
  const filed = tableGroup(id);
  if (filed) noteLastTable(filed.group, id); // this group's next game is handed over from here
  const viewOnlyBadge = readOnly ? h("span", { class: "badge badge-view", testid: "view-only" }, t("table.view_only")) : null;
  /** "You are <name>" in the bar; on a seat link alone it stands for "view only" too (the bar says so). */
  function showSeat() {
    const name = mySeat ? table.players?.[mySeat.seat]?.name : null;
    const label = name ? t("seat.you_are", { name }) : "";
    const title = name && readOnly ? `${label} · ${t("table.view_only")}` : label;
    seatHost.replaceChildren(name ? h("span", { class: "badge badge-seat", testid: "my-seat", title }, label) : "");
    if (viewOnlyBadge) viewOnlyBadge.hidden = !!name;
  }
  function shareSeats() {
    if (!needsSeatLinks(table)) return null;
    return store.getSeatLinks(id).map(({ seat, token: seatToken }) => ({
      seat,
      name: table.players?.[seat]?.name ?? String(seat + 1),
      url: seatLink(id, seat, seatToken),
    }));
  }

  // The table's name (players and start time unless the players renamed it on this phone) and how
  // long the game has run (to its last entry once it is over).
  const nameButton = h("button", { type: "button", class: "table-name", testid: "table-name", title: t("table.rename"), onclick: rename });
  const clock = h("span", { class: "table-clock", testid: "table-clock", title: t("table.played"), "aria-label": t("table.played") });
  function defaultName() {
    const start = table.created_at ? new Intl.DateTimeFormat(locale(), { weekday: "short", hour: "2-digit", minute: "2-digit" }).format(new Date(table.created_at)) : "";
    return [game.title, list((table.players || []).map((p) => p.name)), start].filter(Boolean).join(" · ");
  }
  function showName() {
    nameButton.textContent = store.tableName(id) || defaultName();
  }
  function showClock() {
    if (!table.created_at) return;
    const end = table.finished && table.updated_at ? new Date(table.updated_at) : new Date();
    const minutes = Math.max(0, Math.floor((end.getTime() - new Date(table.created_at).getTime()) / 60000));
    clock.textContent = minutes < 60 ? t("table.minutes", { count: minutes }) : t("table.hours", { h: Math.floor(minutes / 60), m: String(minutes % 60).padStart(2, "0") });
    clock.dataset.minutes = String(minutes);
  }
  const clockTimer = setInterval(showClock, 30_000);
  function rename() {
    const input = h("input", { type: "text", class: "input", testid: "rename-input", maxlength: 60, value: nameButton.textContent, "aria-label": t("table.rename") });
    const sheet = openSheet({
      title: t("table.rename"),
      confirmLabel: t("table.rename_save"),
      testid: "rename-sheet",
      onConfirm: () => {
        store.setTableName(id, input.value.trim());
        showName();
        sheet.close();
      },
    });
    sheet.setBody([input]);
    input.focus();
  }

  // The move log with its replay, over the table (from the phone's own store: offline too).
  let log = null;
  function showLog() {
    if (log && !log.closed) return;
    document.querySelectorAll("[data-testid=undo-toast]").forEach((old) => old.remove()); // it would cover the log
    log = openLog({ session, game, onClose: () => (log = null) });
  }

  const body = h("div", { class: "table-body" });
  // The badge opens the conflict sheet again whenever the players closed it to look at the table.
  const badge = syncBadge({ onConflict: () => showConflict(session, game, { force: true }) });
  // A new tap makes the last entry's undo toast stale: it goes at once.
  const dropUndoToasts = () => document.querySelectorAll("[data-testid=undo-toast]").forEach((old) => old.remove());
  body.addEventListener("click", dropUndoToasts, { capture: true });
  container.replaceChildren(
    h(
      "div",
      { class: "table-bar" },
      nameButton,
      clock,
      seatHost,
      viewOnlyBadge,
      badge.element,
      h("button", { type: "button", class: "btn btn-small btn-secondary", testid: "open-log", onclick: showLog }, t("log.open")),
      h(
        "button",
        { type: "button", class: "btn btn-small btn-secondary", testid: "share", onclick: () => shareTable(id, token, game.title, { seats: shareSeats() }) },
        t("table.share"),
      ),
    ),
    // The table's messages (toast.js): in the flow, so none ever lies over the game (issue 33).
    h("div", { class: "table-news", id: "table-news", testid: "table-news", role: "status", "aria-live": "polite" }),
    seatNotice,
    nextHost,
    body,
  );
  showSeat();
  showName();
  showClock();
  const screen = game.createScreen(body, controller);
  /** The share card's data (issue 26): the game, this table's name, the day it ended, the result. */
  function resultCard() {
    const shown = /** @type {import("../ui/share-card.js").ResultSection | null} */ (body.querySelector("[data-testid=result]"))?.shareCard;
    const when = table.finished && table.updated_at ? table.updated_at : table.created_at;
    return { game: game.title, tableName: nameButton.textContent, date: when ? new Date(when) : new Date(), ...shown };
  }
  /** Draw the table; under a finished game's result: share it (anyone), rematch and home. */
  function draw() {
    screen.update(table);
    showClock();
    const result = /** @type {import("../ui/share-card.js").ResultSection | null} */ (body.querySelector("[data-testid=result]"));
    if (result?.shareCard && !result.querySelector("[data-testid=share-result]")) result.append(shareResultButton(resultCard));
    if (result && !readOnly && !result.querySelector("[data-testid=end-actions]")) result.append(endActions(table, game.title));
    nextGame.update(!!table.finished);
  }
  draw();

  /** The player's link was refused (401/403, or no such seat): forget it and say so. */
  function dropSeat() {
    store.forgetMySeat(id);
    mySeat = null;
    mine = null;
    showSeat();
    seatNotice.replaceChildren(h("p", { class: "seat-notice", role: "alert", testid: "seat-error" }, t("seat.link_invalid")));
    if (screen.updateMine) screen.updateMine();
  }

  /** Ask for my seat's private view as of the table's current version (newest answer wins). */
  async function refreshMine() {
    if (!mySeat || destroyed) return;
    const ask = ++seatAsk;
    const version = table.version;
    const asked = mySeat;
    try {
      const res = await session.privateView(asked.seat, asked.token);
      if (destroyed || ask !== seatAsk || mySeat !== asked) return;
      mine = { seat: asked.seat, view: res.view ?? null, version, status: res.stale ? "failed" : "fresh" };
    } catch (err) {
      if (destroyed || ask !== seatAsk || mySeat !== asked) return;
      if (err instanceof api.ApiError && (err.status === 401 || err.status === 403 || err.code === "seat-not-found")) {
        dropSeat();
        return;
      }
      mine = { ...mine, status: "failed" }; // offline or a server error: keep what we knew
    }
    if (screen.updateMine) screen.updateMine();
  }

  /** Take a newer table view (from a poll, our own write, or a 409 answer). */
  function adopt(next, { own = false } = {}) {
    if (!next || destroyed) return;
    if (!own && next.version < table.version) return; // never step back to an older view
    const versionChanged = next.version !== table.version;
    const changed = versionChanged || JSON.stringify(next) !== JSON.stringify(table);
    if (next.finished && !table.finished) clearToasts(); // "… then it is Bruno's turn" is no news now
    table = next;
    if (changed) {
      draw();
      store.rememberTable(table, game.title);
    }
    // A game without secrets answers null: then one check of the link is enough.
    if (versionChanged && mine && (mine.view !== null || mine.status !== "fresh")) refreshMine();
    if (versionChanged && !own && pending && !pending.committing) {
      pending.sheet.close();
      pending = null;
      toast(t("table.updated_elsewhere"));
    }
  }

  function handleWriteError(err) {
    if (err.code === "sync-conflict") {
      // Another phone's entries met this phone's: nothing more is recorded until the players decide.
      toast(t("sync.decide_first"));
      showConflict(session, game, { force: true });
    } else if (err.code === "tap-on-old-table") {
      toast(t("sync.tap_not_recorded"), { timeout: 6000 });
    } else if (err.code === "stale-version" && err.problem?.table) {
      adopt(err.problem.table, { own: true });
      toast(t("table.someone_faster"));
    } else if (err instanceof api.OfflineError) {
      toast(t("offline.not_sent"), { kind: "error" });
    } else {
      toastError(err, t("error.generic"));
    }
  }

  /**
   * One tap, one entry: the event is recorded at once and a toast says what it did, with Undo.
   * A confirm sheet comes first only where a mistake is costly: the game names those entries
   * (`game.confirmFirst`: ending a round, scoring, a secret card), and a caller may ask for one.
   */
  function propose(event, opts = {}) {
    if (!mayRecord(event) || pending) return;
    if (lateTap(event)) return;
    if (opts.confirm || game.confirmFirst?.(event, table)) {
      proposeWithSheet(event, opts);
      return;
    }
    tapNow(event);
  }

  /**
   * The table's key records anything; a player's own link alone records that player's own entries
   * (the Magellan A slide typed on the slider's phone, MG-8): the server takes a seat token for them.
   */
  function mayRecord(event) {
    return !readOnly || (mySeat !== null && Number.isInteger(event.seat) && event.seat === mySeat.seat);
  }

  /** What an undo takes back: the last entry still in effect, as the game words it. */
  function undoneText(before, after) {
    const undone = session.lastInEffect(before.version);
    return undone ? game.describe(after, before, undone) : "";
  }

  /**
   * The toast after an entry says news: after a confirm sheet (which showed what the entry does, or
   * asked "End the game now?") only that it is recorded, and nothing once that entry ended the game
   * (the result says who won).
   */
  function afterEntry(before, after, event, { confirmed = false } = {}) {
    if (event.type !== "undo" && confirmed && after?.finished && !before?.finished) {
      clearToasts();
      return;
    }
    if (event.type === "undo") {
      const what = undoneText(before, after);
      toast(what ? t("table.undone", { what }) : t("table.undone_plain"));
      return;
    }
    const said = confirmed ? t("news.recorded") : game.describe(before, after, event);
    if (readOnly) toast(said); // undo needs the table's key
    // GEN-1: a die or card the server drew stands, so nothing is offered that it would refuse.
    else if (after?.legal_actions?.undo?.possible === false) undoToast(said, null);
    // The toast's Undo takes back this very entry (it names it), never whatever came after it.
    else undoToast(said, () => tapNow({ type: "undo", undoes: after.version }));
  }

  /**
   * Issue 33, a late duplicate tap: another phone's entry redrew this screen a moment ago
   * (LATE_TAP_MS), faster than a person can see it, so a tap now was very likely meant for the
   * screen before — the same die typed on two phones. It is not applied to the new state silently:
   * a sheet says what the other phone recorded and asks whether this one is another entry. True when
   * the tap went to that sheet.
   */
  function lateTap(event) {
    if (!foreign || event.type === "undo" || performance.now() - foreign.at > LATE_TAP_MS) return false;
    const theirs = foreign.event ? game.describe(foreign.before, foreign.after, foreign.event) : "";
    foreign = null; // asked once: the player has seen the new screen now
    proposeWithSheet(event, {
      title: t("late_tap.title"),
      confirmLabel: t("late_tap.confirm"),
      cancelLabel: t("late_tap.cancel"),
      lead: h("p", { class: "late-lead", testid: "late-tap-theirs" }, theirs ? t("late_tap.theirs", { what: theirs }) : t("late_tap.theirs_plain")),
      testid: "late-tap-sheet",
    });
    return true;
  }

  /** Record at once (the phone's referee answers in about a millisecond; else the server). */
  async function tapNow(event) {
    if (!mayRecord(event) || pending) return;
    if (lateTap(event)) return;
    const before = table;
    const mine = { event, key: api.newIdempotencyKey(), version: table.version, committing: true, sheet: { close() {}, setBusy() {} } };
    pending = mine;
    body.setAttribute("aria-busy", "true");
    dropUndoToasts();
    try {
      const after = await session.record(event, mine.key, { seen: before.version });
      adopt(after, { own: true });
      afterEntry(before, after, event);
    } catch (err) {
      handleWriteError(err);
    } finally {
      if (pending === mine) pending = null;
      body.removeAttribute("aria-busy");
    }
  }

  /**
   * Show what `event` would do and record it on Confirm.
   * opts.preview === false: no preview (digital dice must not be rolled in advance); opts.text is
   * shown instead.
   */
  async function proposeWithSheet(event, opts = {}) {
    if (!mayRecord(event) || pending) return;
    const version = table.version;
    const mine = { event, key: api.newIdempotencyKey(), version, committing: false };
    pending = mine;
    mine.sheet = openSheet({
      title: opts.title || t("confirm.title"),
      confirmLabel: opts.confirmLabel,
      cancelLabel: opts.cancelLabel,
      testid: opts.testid,
      onConfirm: () => commit(mine),
      onCancel: () => {
        if (pending === mine) pending = null;
      },
    });
    if (opts.preview === false) {
      mine.sheet.setBody(opts.text || "");
      return;
    }
    const lead = opts.lead || null;
    mine.sheet.setBody([lead, h("p", { class: "muted" }, t("confirm.previewing"))].filter(Boolean));
    mine.sheet.setBusy(true);
    try {
      const after = await session.preview(event);
      if (pending !== mine) return;
      const yours = h("p", { class: "preview-text", testid: "preview-text" }, game.describe(table, after, event));
      mine.sheet.setBody(lead ? [lead, h("p", { class: "small muted" }, t("late_tap.yours")), yours] : yours);
      mine.previewed = true; // the sheet said what it does: the toast after it need not again
      mine.sheet.setBusy(false);
    } catch (err) {
      if (pending !== mine) return;
      if (err instanceof api.OfflineError) {
        mine.sheet.setBody([opts.lead || null, h("p", { class: "muted" }, t("offline.no_preview"))].filter(Boolean));
        mine.sheet.setBusy(false);
        return;
      }
      pending = null;
      mine.sheet.close();
      handleWriteError(err);
    }
  }

  async function commit(mine) {
    if (pending !== mine || mine.committing) return;
    mine.committing = true;
    mine.sheet.setBusy(true, { lock: true });
    const before = table;
    try {
      const next = await session.record(mine.event, mine.key, { seen: mine.version });
      if (pending === mine) pending = null;
      mine.sheet.close();
      adopt(next, { own: true });
      afterEntry(before, next, mine.event, { confirmed: !!mine.previewed });
    } catch (err) {
      mine.committing = false;
      if (err instanceof api.OfflineError) {
        // Keep the sheet and the idempotency key: Confirm again retries the very same action.
        mine.sheet.setBusy(false);
        mine.sheet.setBody(h("p", { class: "muted" }, t("offline.not_sent_retry")));
        return;
      }
      if (pending === mine) pending = null;
      mine.sheet.close();
      handleWriteError(err);
    }
  }

  /** Record without a confirm step (e.g. the digital first die, which has no choice in it). */
  function commitNow(event) {
    return tapNow(event);
  }

  refreshMine();
  const follow = () =>
    followTable(id, {
      etag: session.etag,
      onTable: (data, { stale, entries, from }) => {
        if (!stale) session.serverChanged(data, { entries, from });
      },
    });
  let poller = id.startsWith("local-") ? { stop() {}, now() {} } : follow();
  onSessionChange = (reason) => {
    const before = table;
    adopt(session.view, { own: reason !== "server" });
    const undone = reason === "server" ? session.takeNews() : null;
    // While this phone's own entry is being sent, news from the server is that entry coming back
    // (the answer to the write, or the live stream echoing it first): not another phone's. Another
    // phone's entry in that moment makes the write itself fail (it names the version it saw).
    const ownEcho = !!pending?.committing;
    if (reason === "server" && !ownEcho && table !== before && table.version > before.version) {
      // Another phone's entry redrew the screen now: a tap in the next moment is asked about (named
      // when it is one entry and not an undo).
      const one = table.version === before.version + 1 && !undone;
      foreign = { at: performance.now(), before, after: table, event: one ? session.lastInEffect(table.version) : null };
    }
    if (undone && !destroyed) {
      // Every phone is told what an undo took back ("Undone on another phone: 4 for red").
      const what = game.describe(table, before, undone);
      toast(what ? t("table.undone_elsewhere", { what }) : t("table.undone_elsewhere_plain"), { timeout: 6000 });
    }
    badge.show(session);
    if (session.conflict) showConflict(session, game);
    if (log && !log.closed) log.refresh();
  };
  onSessionChange();
  // Back online: send what waits, catch up, and ask again for my cards if the last try failed.
  const retryMine = () => mine?.status === "failed" && refreshMine();
  const back = () => {
    session.flush();
    poller.now();
    retryMine();
    badge.show(session);
  };
  const offConnectivity = api.onConnectivity((online) => (online ? back() : badge.show(session)));
  const onOffline = () => badge.show(session);
  window.addEventListener("online", back);
  window.addEventListener("offline", onOffline);
  // A safety net for networks that come back without an "online" event.
  const retry = setInterval(() => session.waiting && session.flush(), 5000);

  return () => {
    destroyed = true;
    nextGame.stop();
    clearInterval(clockTimer);
    clearInterval(retry);
    window.removeEventListener("offline", onOffline);
    session.close();
    poller.stop();
    offConnectivity();
    window.removeEventListener("online", back);
    if (pending) pending.sheet.close();
    if (log) log.close();
    if (screen.destroy) screen.destroy();
  };
}
