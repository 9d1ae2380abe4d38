// The Mhing table screen. Modes:
//   home      — end result (when over), standings, round history; the bar offers how a round ended
//   winner    — "who went out?"            (bar)
//   discarder — "where did the last card come from?" (bar)
//   hand      — the winner's hand with the card picker and the live breakdown → round_won
//   points    — points or premiums typed in → round_points
// The bar is fixed at the bottom so the big buttons sit under the thumb.
import { h, present } from "../../dom.js";
import { t } from "../../i18n.js";
import { createBarHost } from "../../ui/action-bar.js";
import { standings, history, resultPanel } from "./standings.js";
import { renderBar } from "./controls.js";
import { createHandView, createPicker } from "./entry.js";
import { openClaims } from "./claims.js";
import * as D from "./draft.js";
import { createLiveScore } from "./live.js";
import { newUi, awaitingOf, settleAwaiting } from "./state.js";

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */
/** @typedef {Schemas["MhingTable"]} MhingTable */
/** @typedef {import("./state.js").Ui} Ui */
/** @typedef {import("./state.js").Mode} Mode */
/** @typedef {import("./entry.js").HandView} HandView */
/** @typedef {import("./entry.js").Picker} Picker */
/** @typedef {import("./entry.js").HandActions} HandActions */
/** @typedef {import("./entry.js").PickActions} PickActions */
/** @typedef {Schemas["MhingEvent"] & {winner?: number, hand?: Schemas["Hand"]}} Proposal */
/**
 * The hand entry's two parts (see handEntry).
 * @typedef {object} HandEntry
 * @property {(hand: HandActions, pick: PickActions) => void} wire the taps, once the screen has made them
 * @property {() => boolean} built whether the hand view exists yet
 * @property {() => void} updatePicker
 * @property {() => void} refreshLive the live answer changed
 * @property {() => void} draftChanged the hand changed
 * @property {(table: MhingTable) => void} renderHead
 * @property {(table: MhingTable) => HTMLElement} handEl the hand view, drawn for `table`
 * @property {(barHost: HTMLElement) => void} showPicker
 */
/**
 * What the screen's parts share: the state, the table last shown, and the two redraws.
 * @typedef {object} Screen
 * @property {Ui} ui
 * @property {() => MhingTable} table the table last shown (there is one once anything is tapped)
 * @property {(mode: Mode) => void} setMode
 * @property {() => void} render
 * @property {(event: Proposal, opts?: import("../registry.js").ProposeOptions) => void} propose
 */

/**
 * The bar's taps outside the hand entry: how a round ended, who went out, from where, points.
 * @param {Screen} screen
 * @param {() => void} scheduleScore
 * @param {() => void} refreshLive
 * @param {() => void} openClaimsOnce
 * @returns {import("./controls.js").BarActions}
 */
function barActions({ ui, setMode, render, propose }, scheduleScore, refreshLive, openClaimsOnce) {
  return {
    /** @param {import("./state.js").Flow} flow */
    start(flow) {
      ui.flow = flow;
      setMode("winner");
    },
    back() {
      if (ui.mode === "points") setMode("discarder");
      else if (ui.mode === "discarder") setMode("winner");
      else setMode("home");
    },
    /** @param {number} seat */
    pickWinner(seat) {
      if (ui.draft.winner !== seat) ui.draft.discarder = undefined;
      ui.draft.winner = seat;
      setMode("discarder");
    },
    /** @param {number | null} seat */
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
    claims: openClaimsOnce,
    /** @param {"points" | "premiums"} mode */
    setPointsMode(mode) {
      ui.pointsMode = mode;
      render();
    },
    /** @param {number} n */
    setPremiums(n) {
      ui.premiums = Math.max(0, n);
      render();
    },
  };
}

/**
 * Taps on the hand being entered (above the picker).
 * @param {Screen} screen
 * @param {() => void} draftChanged
 * @returns {HandActions}
 */
function handActions({ ui, setMode }, draftChanged) {
  return {
    changeWinner() {
      ui.flow = "hand";
      setMode("winner");
    },
    cancel() {
      setMode("home");
    },
    /** @param {number} id */
    remove(id) {
      D.remove(ui.draft, id);
      draftChanged();
    },
    /** @param {number} index */
    selectGroup(index) {
      D.selectGroup(ui.draft, index);
      draftChanged();
    },
    clear() {
      D.clearCards(ui.draft);
      draftChanged();
    },
    /** @param {string} card */
    add(card) {
      if (D.add(ui.draft, card)) draftChanged();
    },
  };
}

/**
 * Taps on the card picker in the bar.
 * @param {Screen} screen
 * @param {HandActions} handAct
 * @param {() => void} draftChanged
 * @param {() => void} updatePicker
 * @returns {PickActions}
 */
function pickActions({ ui, propose }, handAct, draftChanged, updatePicker) {
  return {
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
    /** @param {string} tab */
    setTab(tab) {
      ui.tab = tab;
      updatePicker();
    },
    record() {
      const d = ui.draft;
      const s = ui.live;
      if (!s.score?.wins || s.key !== D.handKey(d)) return;
      propose(
        { type: "round_won", winner: present(d.winner, "the winner"), discarder: d.discarder ?? null, hand: D.toHand(d) },
        { title: t("mhing.record_title") },
      );
    },
  };
}

/**
 * The standings (the result first once the game is over) and the round history.
 * @param {MhingTable} table
 * @param {import("../registry.js").Controller} ctl
 * @returns {HTMLElement[]}
 */
function homeParts(table, ctl) {
  return [table.finished ? resultPanel(table, ctl.id) : null, standings(table), history(table)].filter((el) => el !== null);
}

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
  const ui = newUi();
  const shown = () => present(table, "the table");
  /** @type {ReturnType<typeof import("../../ui/sheet.js").openSheet> | null} */
  let claimsSheet = null;
  const live = createLiveScore(ui, refreshLive);
  const views = handEntry(ui);

  function refreshLive() {
    if (ui.mode === "hand") views.refreshLive();
  }
  function draftChanged() {
    live.schedule();
    if (ui.mode === "hand") views.draftChanged();
  }
  /** @param {Mode} mode */
  function setMode(mode) {
    ui.mode = mode;
    render();
    if (mode === "hand" || mode === "home") window.scrollTo(0, 0);
  }
  /** @type {Screen["propose"]} */
  function propose(event, opts = {}) {
    ui.awaiting = awaitingOf(shown(), event);
    ctl.propose(event, opts);
  }
  function openClaimsOnce() {
    if (claimsSheet && !claimsSheet.closed) return;
    claimsSheet = openClaims(shown());
  }

  /** @type {Screen} */
  const screen = { ui, table: shown, setMode, render, propose };
  const act = barActions(screen, live.schedule, refreshLive, openClaimsOnce);
  const handAct = handActions(screen, draftChanged);
  views.wire(handAct, pickActions(screen, handAct, draftChanged, () => views.updatePicker()));

  function render() {
    if (!table) return;
    container.dataset.mode = ui.mode;
    if (ui.mode === "hand") {
      mainHost.replaceChildren(views.handEl(table));
      views.showPicker(barHost);
      return;
    }
    mainHost.replaceChildren(...homeParts(table, ctl));
    barHost.replaceChildren(renderBar(table, ctl, ui, act));
  }

  return {
    /** @param {MhingTable} next */
    update(next) {
      const first = table === null;
      table = next;
      if (settleAwaiting(ui, next)) window.scrollTo(0, 0);
      if ((next.finished || next.state.finished) && ui.mode !== "home") ui.mode = "home";
      if (ctl.readOnly) ui.mode = "home";
      if (!first && ui.mode === "hand" && views.built()) {
        // Keep the picker and the hand as they are; only names/round may have changed.
        views.renderHead(next);
        container.dataset.mode = ui.mode;
        return;
      }
      render();
    },
    destroy() {
      live.stop();
      bar.destroy();
      if (claimsSheet && !claimsSheet.closed) claimsSheet.close();
    },
  };
}

/**
 * The hand entry's two parts, built on first use and kept (a late answer never swaps a button away
 * under a finger): the hand with its live breakdown, and the card picker in the bar.
 * @param {Ui} ui
 * @returns {HandEntry}
 */
function handEntry(ui) {
  /** @type {HandView | null} */
  let handView = null;
  /** @type {Picker | null} */
  let picker = null;
  /** @type {HandActions | null} */
  let handAct = null;
  /** @type {PickActions | null} */
  let pickAct = null;
  const updatePicker = () => {
    picker?.update(ui.draft, ui);
  };
  return {
    /**
     * @param {HandActions} hand
     * @param {PickActions} pick
     */
    wire(hand, pick) {
      handAct = hand;
      pickAct = pick;
    },
    built: () => handView !== null,
    updatePicker,
    refreshLive() {
      if (!handView) return;
      handView.renderLive(ui.draft, ui.live);
      updatePicker();
    },
    draftChanged() {
      if (!handView) return;
      handView.renderHand(ui.draft);
      handView.renderLive(ui.draft, ui.live);
      updatePicker();
    },
    /** @param {MhingTable} table */
    renderHead(table) {
      handView?.renderHead(table, ui.draft);
    },
    /**
     * @param {MhingTable} table
     * @returns {HTMLElement}
     */
    handEl(table) {
      if (!handView) handView = createHandView(present(handAct, "the hand's actions"));
      handView.renderHead(table, ui.draft);
      handView.renderHand(ui.draft);
      handView.renderLive(ui.draft, ui.live);
      return handView.el;
    },
    /** @param {HTMLElement} barHost */
    showPicker(barHost) {
      if (!picker) picker = createPicker(present(pickAct, "the picker's actions"));
      picker.update(ui.draft, ui);
      if (barHost.firstChild !== picker.el) barHost.replaceChildren(picker.el);
    },
  };
}
