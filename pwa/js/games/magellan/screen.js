// The Magellan table screen: end result (when over), standings, the card up and the decks, the
// board, players, phase-end money, cards so far, board-sheet state; the action bar fixed at the
// bottom so the big buttons sit under the thumb.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import * as api from "../../api.js";
import { toast, toastError } from "../../toast.js";
import { createBarHost } from "../../ui/action-bar.js";
import { boardPanel } from "./board.js";
import { notes, renderControls } from "./controls.js";
import { describe, describeEvent } from "./describe.js";
import { confirmFirst } from "./common.js";
import { makeLibraryPanel } from "./library.js";
import { handFor, minePanel } from "./mine.js";
import { cardPanel, historyPanel, phaseEndPanel, playersPanel, sheetPanel } from "./panels.js";
import { openQuickEntry } from "./quick.js";
import { openHandsSheet, resultPanel, standingsPanel } from "./scoring.js";
import { openSheetForm } from "./sheetform.js";
import * as sheets from "./sheets.js";
import { POWERS_CHANGED } from "./powers.js";

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */
/** @typedef {Schemas["MagellanTable"]} MagellanTable */
/** @typedef {import("./controls.js").Ui} Ui */
/** @typedef {import("./controls.js").Env} Env */
/** @typedef {import("../registry.js").Controller} Controller */
/** @typedef {import("../registry.js").ProposeOptions & {reveals?: boolean}} MagellanProposeOptions */

/**
 * The bar's local state for one table version; set(patch) changes it and redraws the bar.
 * @param {() => void} redraw
 * @returns {Ui}
 */
function newUi(redraw) {
  /** @type {Ui} */
  const ui = {
    version: null,
    bid: null,
    bidTyped: "",
    hands: {}, // end of game (MG-10): money cards typed per seat, not yet recorded
    kept: [], // the seats whose typed hand is done (listed in the one confirm sheet)
    picked: [],
    seat: null,
    pile: null,
    discard: null,
    set(patch) {
      Object.assign(ui, patch);
      redraw();
    },
  };
  return ui;
}

/**
 * A new table version: the bar starts over, keeping what lasts across entries.
 * @param {Ui} ui
 * @param {MagellanTable} table
 */
function resetUi(ui, table) {
  Object.assign(ui, { version: table.version, bid: null, bidTyped: "", picked: [], pile: null, discard: null, slideHere: false });
  // Keep the chosen seat for several-at-once entries (hands, income) only while that seat still acts.
  if (!(table.legal_actions.actors || []).some((a) => a.seat === ui.seat)) ui.seat = null;
  // Hands typed at the end (MG-10) wait for their one sheet across other phones' entries.
  if (table.legal_actions.step !== "final_hand") Object.assign(ui, { hands: {}, kept: [] });
}

/**
 * Digital chance: a preview must not reveal the server's cards. Ask for the preview ourselves and
 * fall back to plain words when the server refuses (or when the event draws by definition).
 * @param {Controller} ctl
 * @param {Schemas["MagellanEvent"]} event
 * @param {MagellanProposeOptions} [opts]
 * @returns {Promise<void>}
 */
async function propose(ctl, event, opts = {}) {
  // (A player's own link alone may record that player's own entries: the controller decides.)
  const table = /** @type {MagellanTable} */ (ctl.table); // a Magellan screen is only shown Magellan tables
  const digital = table.state.options.chance === "digital";
  const { reveals, ...rest } = opts;
  if ((!digital && !reveals) || !confirmFirst(event)) {
    ctl.propose(event, rest);
    return;
  }
  let text = describeEvent(table, event);
  if (!reveals) {
    try {
      const res = await api.preview(ctl.id, table.version, event);
      text = describe(table, /** @type {MagellanTable} */ (res.table), event);
    } catch (err) {
      if (!(err instanceof api.ApiError && err.code === "preview-would-reveal-chance") && !(err instanceof api.OfflineError)) {
        toastError(err, t("error.generic"));
        return;
      }
    }
  }
  ctl.propose(event, { ...rest, preview: false, text });
}

/**
 * MG-2: type in the sheet's numbers, save them (PUT our own sheet / POST a new one), attach them.
 * One form at a time.
 * @param {Controller} ctl
 * @returns {{open: (needNow?: string[]) => void, close: () => void}}
 */
function tableSheetForm(ctl) {
  /** @type {{close: () => void} | null} */
  let form = null;
  /** @type {(name: string, data: Schemas["BoardSheet"], linked: string | null) => Promise<boolean>} */
  const save = async (name, data, linked) => {
    try {
      const saved = await sheets.saveSheet(linked, name, data);
      sheets.linkTable(ctl.id, saved.id);
    } catch (err) {
      // The table can still use the numbers; the stored sheet is only for reuse.
      toastError(err, err instanceof api.OfflineError ? t("offline.not_sent") : t("error.generic"));
      if (err instanceof api.OfflineError) return false;
    }
    const before = ctl.table.version;
    await ctl.commitNow({ type: "set_board_sheet", sheet: data });
    if (ctl.table.version === before) return false;
    toast(t("magellan.sheet.attached"));
    return true;
  };
  return {
    open(needNow = []) {
      if (ctl.readOnly || form) return;
      const table = /** @type {MagellanTable} */ (ctl.table);
      const linked = sheets.linkedSheet(ctl.id);
      const entry = linked ? sheets.knownSheets().find((s) => s.id === linked) : null;
      const own = !!(entry && entry.token);
      form = openSheetForm({
        title: t("magellan.sheet.title_table"),
        sides: table.state.options.sides,
        data: table.state.board_sheet,
        name: entry ? (own ? entry.name : t("magellan.sheet.copy_of", { name: entry.name })) : t("magellan.sheet.default_name"),
        needNow,
        saveLabel: t("magellan.sheet.save_table"),
        onClose: () => {
          form = null;
        },
        onSave: ({ name, data }) => save(name, data, own ? linked : null),
      });
    },
    close() {
      if (form) form.close();
    },
  };
}

/**
 * What the bar's bodies record through (see controls.js Env).
 * @param {Controller} ctl
 * @param {() => MagellanTable | null} current the table last shown
 * @param {Ui} ui
 * @param {(needNow?: string[]) => void} openForm
 * @returns {Env & {closeHands: () => void}}
 */
function makeEnv(ctl, current, ui, openForm) {
  /** @type {ReturnType<typeof openHandsSheet>} */
  let handsSheet = null; // the one sheet that confirms every hand at the end
  return {
    /** My seat (from a player's own link), or null. */
    get seat() {
      return ctl.seat ?? null;
    },
    /** My cards for a pad when `seat` is me at a ledger table, else null (see mine.js). */
    handOf: (seat) => {
      const table = current();
      return table ? handFor(table, ctl, seat) : null;
    },
    /** My bid limit (MG-6) when `seat` is me, from my own view of this very version; else null. */
    bidMaxOf: (seat) => {
      const mine = ctl.mine;
      const table = current();
      if (!table || !mine || mine.seat !== seat || mine.status !== "fresh" || mine.version !== table.version) return null;
      const max = /** @type {Schemas["MagellanPrivateView"] | null} */ (mine.view)?.actions?.bid_max;
      return Number.isInteger(max) ? /** @type {number} */ (max) : null;
    },
    /** The player's own link when this phone holds it (made here), else null. */
    seatLinkOf: (seat) => ctl.seatLinks?.().find((link) => link.seat === seat) || null,
    propose: (event, opts) => propose(ctl, event, opts),
    quickEntry: () => {
      openQuickEntry(ctl);
    },
    /** MG-10: the hands typed so far, all in one confirm sheet. */
    confirmHands: () => {
      if (ctl.readOnly || (handsSheet && !handsSheet.closed)) return;
      handsSheet = openHandsSheet(ctl, ui);
    },
    openSheetForm: openForm,
    closeHands: () => {
      if (handsSheet) handsSheet.close();
    },
  };
}

/**
 * The panels above the bar, top to bottom.
 * @param {MagellanTable} table
 * @param {Controller} ctl
 * @param {{render: (table: MagellanTable) => HTMLElement}} library
 * @param {(details: HTMLDetailsElement | null) => HTMLDetailsElement | null} keepOpen
 * @param {(needNow?: string[]) => void} openForm
 * @returns {HTMLElement[]}
 */
function infoPanels(table, ctl, library, keepOpen, openForm) {
  const finished = table.finished || table.state.stage === "finished";
  return [
    notes(table, "table"),
    standingsPanel(table),
    finished || table.state.stage === "scoring" ? null : cardPanel(table),
    boardPanel(table),
    playersPanel(table),
    phaseEndPanel(table),
    keepOpen(historyPanel(table)),
    library.render(table),
    sheetPanel(table, { readOnly: ctl.readOnly, onOpen: () => openForm(table.state.board_sheet_needed_now || []) }),
  ].filter((el) => el !== null);
}

/**
 * @param {HTMLElement} container
 * @param {Controller} ctl
 * @returns {import("../registry.js").Screen}
 */
export function createScreen(container, ctl) {
  const resultHost = h("div", { class: "result-host" });
  const mineHost = h("div", { class: "mine-host" });
  const infoHost = h("div", { class: "info-host mg-info" });
  const bar = createBarHost();
  container.classList.add("magellan");
  container.append(resultHost, mineHost, infoHost, bar.el);

  /** @type {MagellanTable | null} */
  let current = null;
  let historyOpen = false;
  const ui = newUi(() => {
    if (current) renderBar(current);
  });
  const form = tableSheetForm(ctl);
  const env = makeEnv(ctl, () => current, ui, form.open);

  /**
   * The cards-so-far list stays open across updates once opened.
   * @param {HTMLDetailsElement | null} details
   * @returns {HTMLDetailsElement | null}
   */
  function keepOpen(details) {
    if (!details) return null;
    details.open = historyOpen;
    details.addEventListener("toggle", () => {
      historyOpen = details.open;
    });
    return details;
  }

  /** @param {MagellanTable} table */
  function renderBar(table) {
    bar.el.replaceChildren(renderControls(table, ctl, ui, env));
  }

  /** @param {MagellanTable} table */
  function renderMine(table) {
    const mine = minePanel(table, ctl);
    mineHost.replaceChildren(...(mine ? [mine] : []));
  }

  const redrawOnPowers = () => current && screen.update(current);
  window.addEventListener(POWERS_CHANGED, redrawOnPowers);

  const library = makeLibraryPanel(ctl);

  const screen = {
    /** @param {MagellanTable} table */
    update(table) {
      current = table;
      if (table.version !== ui.version) resetUi(ui, table);
      const finished = table.finished || table.state.stage === "finished";
      const result = finished ? resultPanel(table, ctl.id) : null;
      resultHost.replaceChildren(...(result ? [result] : []));
      renderMine(table);
      infoHost.replaceChildren(...infoPanels(table, ctl, library, keepOpen, form.open));
      renderBar(table);
    },
    /** My seat's private view changed (fetched, or the link was refused). */
    updateMine() {
      if (!current) return;
      renderMine(current);
      renderBar(current);
    },
    destroy() {
      window.removeEventListener(POWERS_CHANGED, redrawOnPowers);
      bar.destroy();
      form.close();
      env.closeHands();
    },
  };
  return screen;
}
