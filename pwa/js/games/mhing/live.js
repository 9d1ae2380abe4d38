// The referee's live answer for the hand being entered (POST /api/mhing/score and /waits, debounced):
// each tap reschedules it, and an answer for a hand that has changed since is dropped.
import { ApiError, OfflineError } from "../../api.js";
import * as D from "./draft.js";
import { scoreHand, waitsFor } from "./api.js";

const DEBOUNCE_MS = 250;

/**
 * The problem an error is shown as (the server's problem+json, else the error's message).
 * @param {unknown} err
 * @returns {import("./state.js").ShownProblem}
 */
function problemOf(err) {
  if (err instanceof ApiError && err.problem) return err.problem;
  return { detail: String((err instanceof Error && err.message) || err) };
}

/**
 * @param {import("./state.js").Ui} ui the live answer is kept in ui.live
 * @param {() => void} onAnswer called when an answer (or a failure) arrived for the current hand
 * @returns {{schedule: () => void, stop: () => void}}
 */
export function createLiveScore(ui, onAnswer) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  let seq = 0;

  function schedule() {
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
    timer = setTimeout(run, DEBOUNCE_MS);
  }

  async function run() {
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
      ui.live = err instanceof OfflineError ? { status: "offline" } : { status: "error", problem: problemOf(err) };
    }
    onAnswer();
  }

  function stop() {
    clearTimeout(timer);
    seq++;
  }

  return { schedule, stop };
}
