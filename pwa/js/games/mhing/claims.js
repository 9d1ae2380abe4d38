// Claim helper (MH-4): several players want the last discard — who gets it, and who is skipped?
// Asks POST /api/mhing/claims; the answer is told with the players' names.
import { h } from "../../dom.js";
import { t, list } from "../../i18n.js";
import { OfflineError } from "../../api.js";
import { openSheet } from "../../ui/sheet.js";
import { resolveClaims } from "./api.js";
import { whyLink, playerName } from "./rules.js";

const KINDS = ["none", "out", "triplet", "sequence"];

/** @param {import("kibitz-api").components["schemas"]["MhingTable"]} table */
export function openClaims(table) {
  const state = table.state;
  const seats = state.players.map((p) => p.seat);
  const form = { discarder: state.dealer, claims: {} };
  const result = h("div", { class: "mh-claim-result", testid: "claim-result", "aria-live": "polite" });
  let seq = 0;

  function kindName(kind) {
    return t(`mhing.claim.${kind}`);
  }

  function rows() {
    const discarderRow = h(
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
    const claimRows = seats
      .filter((s) => s !== form.discarder)
      .map((s) =>
        h(
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
        ),
      );
    return [discarderRow, h("p", { class: "mh-claim-label" }, t("mhing.claim.who_claims")), ...claimRows, result, h("p", { class: "muted small" }, t("mhing.claim.rule"), " ", whyLink("MH-4", "why-claims"))];
  }

  function explain(answer) {
    const name = (s) => playerName(state, s);
    const parts = [];
    if (!answer.taker) {
      parts.push(t("mhing.claim.nobody", { name: name(answer.next_seat) }));
    } else {
      parts.push(t("mhing.claim.takes", { name: name(answer.taker.seat), discarder: name(form.discarder), kind: kindName(answer.taker.kind) }));
      const rivals = answer.ranked.filter((c) => c.seat !== answer.taker.seat);
      if (rivals.some((c) => c.kind === answer.taker.kind)) parts.push(t("mhing.claim.nearest"));
      else if (rivals.length) parts.push(t("mhing.claim.beats", { kind: kindName(answer.taker.kind), other: list([...new Set(rivals.map((c) => kindName(c.kind)))]) }));
      parts.push(answer.skipped.length ? t("mhing.claim.skipped", { names: list(answer.skipped.map(name)) }) : t("mhing.claim.no_skip"));
    }
    return parts.join(" ");
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
      result.replaceChildren(h("p", { class: "mh-claim-answer" }, h("strong", {}, explain(answer))));
    } catch (err) {
      if (mine !== seq) return;
      result.replaceChildren(h("p", { class: "mh-reason is-error" }, err instanceof OfflineError ? t("mhing.offline_short") : err.problem?.detail || t("error.generic")));
    }
  }

  let sheet = null;
  function refresh() {
    sheet.setBody(rows());
    ask();
  }
  sheet = openSheet({ title: t("mhing.claims_title"), confirm: false, testid: "claims-sheet" });
  refresh();
  return sheet;
}
