// Claim helper (MH-4): several players want the last discard — who gets it, and who is skipped?
// Asks POST /api/mhing/claims; the answer is told with the players' names.
import { h } from "../../dom.js";
import { t, list } from "../../i18n.js";
import { ApiError, OfflineError } from "../../api.js";
import { openSheet } from "../../ui/sheet.js";
import { resolveClaims } from "./api.js";
import { whyLink, playerName } from "./rules.js";

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */
/** @typedef {Schemas["MhingView"]} MhingView */
/** @typedef {Schemas["Claim"]["kind"]} ClaimKind */
/** What is tapped in: who discarded, and each other seat's claim (a seat without one is left out). */
/** @typedef {{discarder: number, claims: Record<number, ClaimKind>}} ClaimsForm */

/** @type {("none" | ClaimKind)[]} */
const KINDS = ["none", "out", "triplet", "sequence"];

/**
 * @param {"none" | ClaimKind} kind
 * @returns {string}
 */
function kindName(kind) {
  return t(`mhing.claim.${kind}`);
}

/**
 * Who discarded: one chip per seat.
 * @param {MhingView} state
 * @param {number[]} seats
 * @param {ClaimsForm} form
 * @param {() => void} refresh
 * @returns {HTMLElement}
 */
function discarderRow(state, seats, form, refresh) {
  return h(
    "div",
    { class: "mh-claim-discarder" },
    h("p", { class: "mh-claim-label" }, t("mhing.claim.who_discarded")),
    h(
      "div",
      { class: "mh-chips" },
      ...seats.map((s) =>
        h(
          "button",
          {
            type: "button",
            class: "choice mh-chip",
            testid: `claim-discarder-${s}`,
            "aria-pressed": String(form.discarder === s),
            onclick: () => {
              form.discarder = s;
              delete form.claims[s];
              refresh();
            },
          },
          playerName(state, s),
        ),
      ),
    ),
  );
}

/**
 * What a seat claims: none, out, triplet or sequence.
 * @param {MhingView} state
 * @param {number} s
 * @param {ClaimsForm} form
 * @param {() => void} refresh
 * @returns {HTMLElement}
 */
function claimRow(state, s, form, refresh) {
  return h(
    "div",
    { class: "mh-claim-row", testid: `claim-row-${s}` },
    h("span", { class: "mh-claim-name" }, playerName(state, s)),
    h(
      "div",
      { class: "mh-claim-kinds", role: "group", "aria-label": playerName(state, s) },
      ...KINDS.map((k) =>
        h(
          "button",
          {
            type: "button",
            class: "choice mh-chip mh-chip-small",
            testid: `claim-${s}-${k}`,
            "aria-pressed": String((form.claims[s] || "none") === k),
            onclick: () => {
              if (k === "none") delete form.claims[s];
              else form.claims[s] = k;
              refresh();
            },
          },
          kindName(k),
        ),
      ),
    ),
  );
}

/**
 * The referee's answer in words: who takes the discard, why, and who is skipped.
 * @param {MhingView} state
 * @param {ClaimsForm} form
 * @param {Schemas["ClaimsResult"]} answer
 * @returns {string}
 */
function explain(state, form, answer) {
  const name = (/** @type {number} */ s) => playerName(state, s);
  const parts = [];
  const taker = answer.taker;
  if (!taker) {
    parts.push(t("mhing.claim.nobody", { name: name(answer.next_seat) }));
  } else {
    parts.push(t("mhing.claim.takes", { name: name(taker.seat), discarder: name(form.discarder), kind: kindName(taker.kind) }));
    const rivals = answer.ranked.filter((c) => c.seat !== taker.seat);
    if (rivals.some((c) => c.kind === taker.kind)) parts.push(t("mhing.claim.nearest"));
    else if (rivals.length) parts.push(t("mhing.claim.beats", { kind: kindName(taker.kind), other: list([...new Set(rivals.map((c) => kindName(c.kind)))]) }));
    parts.push(answer.skipped.length ? t("mhing.claim.skipped", { names: list(answer.skipped.map(name)) }) : t("mhing.claim.no_skip"));
  }
  return parts.join(" ");
}

/**
 * @param {unknown} err
 * @returns {string}
 */
function failure(err) {
  if (err instanceof OfflineError) return t("mhing.offline_short");
  return (err instanceof ApiError && err.problem?.detail) || t("error.generic");
}

/**
 * The claim helper's sheet: tap who discarded and who claims; the answer follows each tap.
 * @param {Schemas["MhingTable"]} table
 * @returns {ReturnType<typeof openSheet>}
 */
export function openClaims(table) {
  const state = table.state;
  const seats = state.players.map((p) => p.seat);
  /** @type {ClaimsForm} */
  const form = { discarder: state.dealer, claims: {} };
  const result = h("div", { class: "mh-claim-result", testid: "claim-result", "aria-live": "polite" });
  let seq = 0;

  /** @returns {HTMLElement[]} */
  function rows() {
    const claimRows = seats.filter((s) => s !== form.discarder).map((s) => claimRow(state, s, form, refresh));
    return [discarderRow(state, seats, form, refresh), h("p", { class: "mh-claim-label" }, t("mhing.claim.who_claims")), ...claimRows, result, h("p", { class: "muted small" }, t("mhing.claim.rule"), " ", whyLink("MH-4", "why-claims"))];
  }

  async function ask() {
    const mine = ++seq;
    const claims = Object.entries(form.claims).map(([seat, kind]) => ({ seat: Number(seat), kind }));
    result.replaceChildren(h("p", { class: "muted small" }, t("mhing.checking")));
    try {
      const answer = await resolveClaims(form.discarder, seats.length, claims);
      if (mine !== seq) return;
      result.dataset.taker = answer.taker ? String(answer.taker.seat) : "";
      result.dataset.next = String(answer.next_seat);
      result.replaceChildren(h("p", { class: "mh-claim-answer" }, h("strong", {}, explain(state, form, answer))));
    } catch (err) {
      if (mine !== seq) return;
      result.replaceChildren(h("p", { class: "mh-reason is-error" }, failure(err)));
    }
  }

  const sheet = openSheet({ title: t("mhing.claims_title"), confirm: false, testid: "claims-sheet" });
  function refresh() {
    sheet.setBody(rows());
    ask();
  }
  refresh();
  return sheet;
}
