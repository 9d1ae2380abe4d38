// The action bar at the bottom (under the thumb): round and dealer (MH-2), undo, referee notes, and
// the ways a round ends — someone went out (hand or typed-in points), a drawn round, end of game —
// with the "who went out?" and "where did the last card come from?" steps.
import { h, present } from "../../dom.js";
import { t, noteText } from "../../i18n.js";
import { barHead, bigButton, notesList, promptRow, viewOnlyHint } from "../../ui/action-bar.js";
import { whyLink, playerName } from "./rules.js";
import { premiumsAndPoints } from "./breakdown.js";

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */
/** @typedef {Schemas["MhingTable"]} MhingTable */
/** @typedef {import("./state.js").Ui} Ui */
/** @typedef {Schemas["MhingEvent"] & {winner?: number, hand?: Schemas["Hand"]}} Proposal */
/**
 * The bar's taps (screen.js): start a flow, step back, pick the winner and where the last card came
 * from, record, open the claim helper, points or premiums.
 * @typedef {object} BarActions
 * @property {(flow: import("./state.js").Flow) => void} start
 * @property {() => void} back
 * @property {(seat: number) => void} pickWinner
 * @property {(seat: number | null) => void} pickDiscarder
 * @property {(event: Proposal, opts?: import("../registry.js").ProposeOptions) => void} propose
 * @property {() => void} claims
 * @property {(mode: "points" | "premiums") => void} setPointsMode
 * @property {(n: number) => void} setPremiums
 */

const POINT_VALUES = [0, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];
const MAX_PREMIUMS = 82; // api/rules/mhing/events.py: MH-8 points up to 2^30

/**
 * @param {MhingTable} table
 * @returns {HTMLElement}
 */
function roundInfo(table) {
  const { state } = table;
  if (state.finished || table.finished) {
    return h("div", { class: "turn-info", testid: "round-info" }, h("strong", {}, t("mhing.game_over")));
  }
  const legal = table.legal_actions || /** @type {Schemas["MhingLegalActions"]} */ ({});
  const dealer = legal.dealer || { seat: state.dealer, name: playerName(state, state.dealer) };
  return h(
    "div",
    { class: "turn-info", testid: "round-info", "data-round": state.round, "data-dealer": dealer.seat },
    h("strong", {}, t("mhing.round_n", { n: state.round })),
    " · ",
    h("span", { testid: "dealer-info" }, t("mhing.deals", { name: dealer.name })),
    " ",
    whyLink("MH-2", "why-dealer"),
  );
}

// Notes the bar or the standings already say in their own words.
const SHOWN_ELSEWHERE = new Set(["deal-passes", "game-over", "discarder-pays-double", "first-to-500"]);

/**
 * @param {MhingTable} table
 * @returns {HTMLElement | null}
 */
function notes(table) {
  const items = (table.legal_actions?.notes || []).filter((n) => !SHOWN_ELSEWHERE.has(n.code));
  return notesList(items, {
    text: (n) => noteText(n),
    why: (n) => whyLink(present(n.rule, "a note's rule"), `why-note-${n.code}`),
  });
}

/**
 * @param {MhingTable} table
 * @param {number[]} seats
 * @param {(seat: number) => void} onPick
 * @param {string} testPrefix
 * @param {{kind?: string}} [options]
 * @returns {HTMLElement}
 */
function seatGrid(table, seats, onPick, testPrefix, { kind = "secondary" } = {}) {
  return h(
    "div",
    { class: "mh-seats" },
    ...seats.map((seat) =>
      bigButton({ testid: `${testPrefix}-${seat}`, label: playerName(table.state, seat), kind, onclick: () => onPick(seat), extraClass: "mh-seat" }),
    ),
  );
}

/**
 * "Eva went out · Ann discarded (pays double)" / "… · from the stack".
 * @param {Schemas["MhingView"]} state
 * @param {{winner: number | null, discarder?: number | null}} draft
 * @returns {string}
 */
export function whoText(state, draft) {
  const name = playerName(state, draft.winner);
  if (draft.discarder === null) return t("mhing.who_stack", { name });
  if (draft.discarder === undefined) return t("mhing.who", { name });
  const double = state.settlement === 2;
  return t(double ? "mhing.who_discard_double" : "mhing.who_discard", { name, discarder: playerName(state, draft.discarder) });
}

/**
 * The points step: points typed in, or premiums counted up (MH-8).
 * @param {MhingTable} table
 * @param {Ui} ui
 * @param {BarActions} act
 * @returns {HTMLElement[]}
 */
function pointsBody(table, ui, act) {
  const { state } = table;
  const d = ui.draft;
  const base = { type: /** @type {const} */ ("round_points"), winner: present(d.winner, "the winner"), discarder: d.discarder ?? null };
  /**
   * @param {"points" | "premiums"} mode
   * @param {string} label
   */
  const seg = (mode, label) =>
    h(
      "button",
      {
        type: "button",
        class: "segment mh-segment-small",
        testid: `${mode}-mode`,
        "aria-pressed": String(ui.pointsMode === mode),
        onclick: () => act.setPointsMode(mode),
      },
      h("span", { class: "segment-label" }, label),
    );
  /** @type {HTMLElement[]} */
  const body = [
    promptRow(whoText(state, d), act.back),
    h("div", { class: "segmented mh-points-modes" }, seg("points", t("mhing.enter_points")), seg("premiums", t("mhing.enter_premiums"))),
  ];
  if (ui.pointsMode === "points") {
    body.push(
      h(
        "div",
        { class: "mh-points-grid", testid: "points-pad" },
        ...POINT_VALUES.map((v) =>
          h(
            "button",
            { type: "button", class: "btn btn-die mh-points-button", testid: `points-${v}`, onclick: () => act.propose({ ...base, points: v }) },
            String(v),
          ),
        ),
      ),
    );
  } else {
    const n = ui.premiums;
    const pts = pointsFor(n);
    body.push(
      h(
        "div",
        { class: "mh-stepper" },
        h("button", { type: "button", class: "btn btn-secondary mh-step", testid: "premiums-minus", disabled: n <= 0, onclick: () => act.setPremiums(n - 1), "aria-label": "−1" }, "−"),
        h(
          "span",
          { class: "mh-step-value", testid: "premiums-value", "data-premiums": n, "data-points": pts },
          h("strong", {}, t("mhing.total_premiums", { count: n })),
          h("span", { class: "small" }, `= ${t("mhing.points_n", { count: pts })}`),
        ),
        h("button", { type: "button", class: "btn btn-secondary mh-step", testid: "premiums-plus", disabled: n >= MAX_PREMIUMS, onclick: () => act.setPremiums(n + 1), "aria-label": "+1" }, "+"),
      ),
      bigButton({
        testid: "record-premiums",
        label: t("mhing.record"),
        sub: t("mhing.record_sub", premiumsAndPoints(n, pts)),
        onclick: () => act.propose({ ...base, premiums: n }),
      }),
    );
  }
  body.push(h("p", { class: "muted small mh-bar-hint" }, t("mhing.points_hint"), " ", whyLink("MH-8", "why-points")));
  return body;
}

/**
 * MH-8: 0 → 0; 1–5 → 2…32; then every third premium doubles.
 * @param {number} n
 * @returns {number}
 */
export function pointsFor(n) {
  if (n <= 0) return 0;
  const doublings = n <= 5 ? n : 5 + Math.floor((n - 5) / 3);
  return 2 ** doublings;
}

/**
 * The bar for every mode but the hand entry (which has the card picker).
 * @param {MhingTable} table
 * @param {import("../registry.js").Controller} ctl
 * @param {Ui} ui
 * @param {BarActions} act
 * @returns {HTMLElement}
 */
export function renderBar(table, ctl, ui, act) {
  const { state } = table;
  const legal = table.legal_actions || /** @type {Schemas["MhingLegalActions"]} */ (/** @type {unknown} */ ({ actions: [] }));
  /** @type {import("../registry.js").ByType<Schemas["MhingAction"]>} */
  const acts = Object.fromEntries((legal.actions || []).map((a) => [a.type, a]));
  const head = barHead(table, ctl, t("mhing.undo"), roundInfo(table));
  const body = h("div", { class: "bar-body" });
  const finished = state.finished || table.finished;
  let showNotes = true;

  if (ctl.readOnly) {
    body.append(viewOnlyHint());
  } else if (finished) {
    /* the result panel says it all */
  } else if (ui.mode === "winner") {
    showNotes = false;
    body.append(promptRow(t(ui.flow === "points" ? "mhing.who_won_points" : "mhing.who_won"), act.back), seatGrid(table, acts.round_won?.winners || state.players.map((p) => p.seat), act.pickWinner, "winner"));
  } else if (ui.mode === "discarder") {
    showNotes = false;
    const others = (acts.round_won?.discarders || state.players.map((p) => p.seat)).filter((s) => s !== ui.draft.winner);
    body.append(
      promptRow(t("mhing.last_card_from", { name: playerName(state, ui.draft.winner) }), act.back),
      bigButton({ testid: "from-stack", label: t("mhing.from_stack"), sub: t("mhing.from_stack_sub"), onclick: () => act.pickDiscarder(null) }),
      h("p", { class: "muted small mh-or" }, state.settlement === 2 ? t("mhing.discarded_by_double") : t("mhing.discarded_by")),
      seatGrid(table, others, act.pickDiscarder, "discarder"),
    );
  } else if (ui.mode === "points") {
    showNotes = false;
    body.append(...pointsBody(table, ui, act));
  } else {
    if (acts.round_won) {
      body.append(bigButton({ testid: "went-out", label: t("mhing.went_out"), sub: t("mhing.went_out_sub"), onclick: () => act.start("hand") }));
    }
    const row = h("div", { class: "mh-row2" });
    if (acts.round_points) row.append(bigButton({ testid: "points-only", label: t("mhing.points_only"), kind: "secondary", onclick: () => act.start("points") }));
    if (acts.round_drawn) {
      row.append(
        bigButton({
          testid: "drawn",
          label: t("mhing.drawn"),
          kind: "secondary",
          onclick: () => act.propose({ type: "round_drawn" }, { title: t("mhing.drawn") }),
        }),
      );
    }
    const row2 = h("div", { class: "mh-row2" });
    row2.append(bigButton({ testid: "claims", label: t("mhing.claims"), kind: "secondary", onclick: act.claims }));
    if (acts.end_game) {
      row2.append(
        bigButton({ testid: "end-game", label: t("mhing.end_game"), kind: "secondary", onclick: () => act.propose({ type: "end_game" }, { title: t("mhing.end_game") }) }),
      );
    }
    body.append(row, row2);
  }
  return h(
    "div",
    { class: "actionbar mh-bar", testid: "actionbar", "data-mode": ui.mode },
    head,
    showNotes ? notes(table) : null,
    body.childNodes.length ? body : null,
  );
}
