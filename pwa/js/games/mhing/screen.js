// The Mhing table screen. Modes:
//   home      — end result (when over), standings, round history; the bar offers how a round ended
//   winner    — "who went out?"            (bar)
//   discarder — "where did the last card come from?" (bar)
//   hand      — the winner's hand with the card picker and the live breakdown → round_won
//   points    — points or premiums typed in → round_points
// The bar is fixed at the bottom so the big buttons sit under the thumb.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { OfflineError } from "../../api.js";
import { createBarHost } from "../../ui/action-bar.js";
import { standings, history, resultPanel } from "./standings.js";
import { renderBar } from "./controls.js";
import { createHandView, createPicker } from "./entry.js";
import { openClaims } from "./claims.js";
import * as D from "./draft.js";
import { scoreHand, waitsFor } from "./api.js";

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */
/** @typedef {Schemas["MhingTable"]} MhingTable */

const DEBOUNCE_MS = 250;

/**
 * @param {HTMLElement} container
 * @param {import("../registry.js").Controller} ctl
 * @returns {import("../registry.js").Screen}
 */
export function createScreen(container, ctl) {
  const mainHost = h("div", { class: "mh-main" });
  const bar = createBarHost();
  const barHost = bar.el;
  container.classList.add("mhing");
  container.append(mainHost, barHost);

  /** @type {MhingTable | null} */
  let table = null;
  const ui = {
    mode: "home",
    flow: null, // "hand" | "points": what follows the winner and discarder steps
    draft: D.newDraft(),
    tab: "b",
    pointsMode: "points",
    premiums: 1,
    live: { status: "idle" },
    awaiting: null, // {version, round, winner, type, hidden} of an action sent for confirmation
  };
  let handView = null;
  let picker = null;
  let timer = null;
  let seq = 0;
  let claimsSheet = null;

  // ---------- live scoring (POST /api/mhing/score, /waits; debounced) ----------
  function scheduleScore() {
    clearTimeout(timer);
    seq++; // any answer still on its way is for an older hand
    const d = ui.draft;
    if (D.isEmpty(d)) {
      ui.live = { status: "idle" };
      return;
    }
    const problems = D.groupProblems(d);
    if (problems.length) {
      ui.live = { status: "local", problems };
      return;
    }
    ui.live = { ...ui.live, status: "loading" };
    if (ui.live.score === undefined) ui.live.score = null;
    timer = setTimeout(runScore, DEBOUNCE_MS);
  }

  async function runScore() {
    const mine = ++seq;
    const d = ui.draft;
    const hand = D.toHand(d);
    const key = D.handKey(d);
    const count = D.cardCount(d);
    try {
      const discard = d.discarder !== null && d.discarder !== undefined;
      const [score, waits] = await Promise.all([
        scoreHand(hand, discard),
        count === 13 ? waitsFor(hand, discard).catch(() => null) : Promise.resolve(null),
      ]);
      if (mine !== seq) return;
      ui.live = { status: "done", key, score, waits };
    } catch (err) {
      if (mine !== seq) return;
      ui.live = err instanceof OfflineError ? { status: "offline" } : { status: "error", problem: err.problem || { detail: String(err.message || err) } };
    }
    refreshLive();
  }

  function refreshLive() {
    if (ui.mode !== "hand" || !handView) return;
    handView.renderLive(ui.draft, ui.live);
    picker.update(ui.draft, ui);
  }

  function draftChanged() {
    scheduleScore();
    if (ui.mode !== "hand" || !handView) return;
    handView.renderHand(ui.draft);
    handView.renderLive(ui.draft, ui.live);
    picker.update(ui.draft, ui);
  }

  // ---------- actions ----------
  function setMode(mode) {
    ui.mode = mode;
    render();
    if (mode === "hand" || mode === "home") window.scrollTo(0, 0);
  }

  /**
   * @param {Schemas["MhingEvent"] & {winner?: number, hand?: Schemas["Hand"]}} event
   * @param {import("../registry.js").ProposeOptions} [opts]
   */
  function propose(event, opts = {}) {
    ui.awaiting = {
      version: table.version,
      round: table.state.round,
      type: event.type,
      winner: event.winner,
      hidden: event.hand ? event.hand.hidden : null,
    };
    ctl.propose(event, opts);
  }

  const act = {
    start(flow) {
      ui.flow = flow;
      setMode("winner");
    },
    back() {
      if (ui.mode === "points") setMode("discarder");
      else if (ui.mode === "discarder") setMode("winner");
      else setMode("home");
    },
    pickWinner(seat) {
      if (ui.draft.winner !== seat) ui.draft.discarder = undefined;
      ui.draft.winner = seat;
      setMode("discarder");
    },
    pickDiscarder(seat) {
      ui.draft.discarder = seat;
      if (ui.flow === "points") {
        setMode("points");
      } else {
        setMode("hand");
        scheduleScore(); // the discard flag is part of the hand sent to the referee
        refreshLive();
      }
    },
    propose,
    claims() {
      if (claimsSheet && !claimsSheet.closed) return;
      claimsSheet = openClaims(table);
    },
    setPointsMode(mode) {
      ui.pointsMode = mode;
      render();
    },
    setPremiums(n) {
      ui.premiums = Math.max(0, n);
      render();
    },
  };

  const handAct = {
    changeWinner() {
      ui.flow = "hand";
      setMode("winner");
    },
    cancel() {
      setMode("home");
    },
    remove(id) {
      D.remove(ui.draft, id);
      draftChanged();
    },
    selectGroup(index) {
      D.selectGroup(ui.draft, index);
      draftChanged();
    },
    clear() {
      D.clearCards(ui.draft);
      draftChanged();
    },
    add(card) {
      if (D.add(ui.draft, card)) draftChanged();
    },
  };

  const pickAct = {
    add: handAct.add,
    undoLast() {
      D.undoLast(ui.draft);
      draftChanged();
    },
    toggleGroup() {
      if (D.activeGroup(ui.draft)) D.toHidden(ui.draft);
      else D.startGroup(ui.draft);
      draftChanged();
    },
    setTab(tab) {
      ui.tab = tab;
      picker.update(ui.draft, ui);
    },
    record() {
      const d = ui.draft;
      const s = ui.live;
      if (!s.score?.wins || s.key !== D.handKey(d)) return;
      propose(
        { type: "round_won", winner: d.winner, discarder: d.discarder ?? null, hand: D.toHand(d) },
        { title: t("mhing.record_title") },
      );
    },
  };

  // ---------- rendering ----------
  function renderMain() {
    if (ui.mode === "hand") {
      if (!handView) handView = createHandView(handAct);
      handView.renderHead(table, ui.draft);
      handView.renderHand(ui.draft);
      handView.renderLive(ui.draft, ui.live);
      mainHost.replaceChildren(handView.el);
      return;
    }
    mainHost.replaceChildren(
      ...[table.finished ? resultPanel(table, ctl.id) : null, standings(table), history(table)].filter(Boolean),
    );
  }

  function renderBarNow() {
    if (ui.mode === "hand") {
      if (!picker) picker = createPicker(pickAct);
      picker.update(ui.draft, ui);
      if (barHost.firstChild !== picker.el) barHost.replaceChildren(picker.el);
      return;
    }
    barHost.replaceChildren(renderBar(table, ctl, ui, act));
  }

  function render() {
    if (!table) return;
    container.dataset.mode = ui.mode;
    renderMain();
    renderBarNow();
  }

  /** After our own action was recorded: back to the standings, the entered hand done with. */
  /** @param {MhingTable} next */
  function settleAwaiting(next) {
    const a = ui.awaiting;
    if (!a || next.version <= a.version) return;
    ui.awaiting = null;
    const r = next.state.last_round;
    const mine =
      r &&
      r.number === a.round &&
      ((a.type === "round_won" && r.outcome === "won" && r.winner === a.winner && r.score?.hand?.hidden === a.hidden) ||
        (a.type === "round_points" && r.outcome === "points" && r.winner === a.winner) ||
        (a.type === "round_drawn" && r.outcome === "drawn"));
    if (!mine) return;
    if (a.type === "round_won") {
      ui.draft = D.newDraft();
      ui.live = { status: "idle" };
      ui.tab = "b";
    }
    ui.mode = "home";
    ui.flow = null;
    window.scrollTo(0, 0);
  }

  return {
    /** @param {MhingTable} next */
    update(next) {
      const first = table === null;
      table = next;
      settleAwaiting(next);
      if ((next.finished || next.state.finished) && ui.mode !== "home") ui.mode = "home";
      if (ctl.readOnly) ui.mode = "home";
      if (!first && ui.mode === "hand" && handView) {
        // Keep the picker and the hand as they are; only names/round may have changed.
        handView.renderHead(table, ui.draft);
        container.dataset.mode = ui.mode;
        return;
      }
      render();
    },
    destroy() {
      clearTimeout(timer);
      seq++;
      bar.destroy();
      if (claimsSheet && !claimsSheet.closed) claimsSheet.close();
    },
  };
}
