// The Mhing screen's state: the mode, the hand being entered, the referee's live answer for it, and
// the action sent and waiting to be seen recorded (then the screen goes back to the standings).
import * as D from "./draft.js";

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */
/** @typedef {Schemas["MhingTable"]} MhingTable */
/** @typedef {"home" | "winner" | "discarder" | "hand" | "points"} Mode */
/** @typedef {"hand" | "points"} Flow */
/** A problem answer as the screen shows it (the server's problem+json, or an error's message). */
/** @typedef {{code?: string, detail?: string, title?: string, rule?: string}} ShownProblem */
/**
 * The referee's live answer for the hand being entered. `loading` keeps the last score (shown stale).
 * @typedef {object} Live
 * @property {"idle" | "local" | "loading" | "done" | "error" | "offline"} status
 * @property {Schemas["ScoreResult"] | null} [score]
 * @property {Schemas["WaitsResult"] | null} [waits]
 * @property {string} [key] the draft's D.handKey the answer is for
 * @property {D.GroupProblem[]} [problems] `local`: groups that are not (yet) a group
 * @property {ShownProblem} [problem] `error`: the refusal
 */
/** What we sent for confirmation: {version, round, type, winner, hidden}. */
/** @typedef {{version: number, round: number, type: Schemas["MhingEvent"]["type"], winner: number | undefined, hidden: Schemas["Hand"]["hidden"] | null}} Awaiting */
/**
 * @typedef {object} Ui
 * @property {Mode} mode
 * @property {Flow | null} flow what follows the winner and discarder steps
 * @property {D.Draft} draft
 * @property {string} tab the picker's tab: a suit or "h" (honours)
 * @property {"points" | "premiums"} pointsMode
 * @property {number} premiums
 * @property {Live} live
 * @property {Awaiting | null} awaiting
 */

/** @returns {Ui} */
export function newUi() {
  return {
    mode: "home",
    flow: null,
    draft: D.newDraft(),
    tab: "b",
    pointsMode: "points",
    premiums: 1,
    live: { status: "idle" },
    awaiting: null,
  };
}

/**
 * What to remember of an event sent for confirmation, to know it when it comes back recorded.
 * @param {MhingTable} table
 * @param {Schemas["MhingEvent"] & {winner?: number, hand?: Schemas["Hand"]}} event
 * @returns {Awaiting}
 */
export function awaitingOf(table, event) {
  return {
    version: table.version,
    round: table.state.round,
    type: event.type,
    winner: event.winner,
    hidden: event.hand ? event.hand.hidden : null,
  };
}

/**
 * Is `next`'s last round the one we sent?
 * @param {Awaiting} a
 * @param {MhingTable} next
 * @returns {boolean}
 */
function isOurs(a, next) {
  const r = next.state.last_round;
  return (
    !!r &&
    r.number === a.round &&
    ((a.type === "round_won" && r.outcome === "won" && r.winner === a.winner && r.score?.hand?.hidden === a.hidden) ||
      (a.type === "round_points" && r.outcome === "points" && r.winner === a.winner) ||
      (a.type === "round_drawn" && r.outcome === "drawn"))
  );
}

/**
 * After our own action was recorded: back to the standings, the entered hand done with.
 * @param {Ui} ui
 * @param {MhingTable} next
 * @returns {boolean} whether it was ours (the screen scrolls back to the top)
 */
export function settleAwaiting(ui, next) {
  const a = ui.awaiting;
  if (!a || next.version <= a.version) return false;
  ui.awaiting = null;
  if (!isOurs(a, next)) return false;
  if (a.type === "round_won") {
    ui.draft = D.newDraft();
    ui.live = { status: "idle" };
    ui.tab = "b";
  }
  ui.mode = "home";
  ui.flow = null;
  return true;
}
