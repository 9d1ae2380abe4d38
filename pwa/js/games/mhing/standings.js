// Standings (MH-9 variant 1: scores toward 500; variant 2: balances from 500 with the last round's
// payments), the dealer (MH-2), the rounds so far and the end screen.
import { h, present } from "../../dom.js";
import { t, list, serverText } from "../../i18n.js";
import { explanationLine, gameResultPanel, winnerNames } from "../../ui/result-panel.js";
import { panel } from "../../ui/panel.js";
import { premiumsAndPoints, scoreView } from "./breakdown.js";
import { whyLink, playerName, signed } from "./rules.js";

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */
/** @typedef {Schemas["MhingTable"]} MhingTable */

/**
 * @param {number} seat
 * @returns {HTMLSpanElement}
 */
function dealerBadge(seat) {
  return h("span", { class: "mh-dealer", testid: `dealer-${seat}`, title: t("mhing.dealer_title") }, t("mhing.dealer_badge"));
}

/**
 * @param {number} score
 * @param {number} target
 * @returns {HTMLSpanElement}
 */
function progress(score, target) {
  const bar = h("span", { class: "mh-progress-bar" });
  bar.style.width = `${Math.max(0, Math.min(100, (score / target) * 100)).toFixed(1)}%`;
  return h("span", { class: "mh-progress", "aria-hidden": "true" }, bar);
}

/** Who paid what in the last round (variant 2): double for the discarder, never below 0. */
/**
 * @param {Schemas["MhingView"]} state
 * @returns {HTMLDivElement | null}
 */
function payments(state) {
  const last = state.last_round;
  if (!last || !last.payments?.length) return null;
  const winner = playerName(state, last.winner);
  return h(
    "div",
    { class: "mh-payments", testid: "payments" },
    h("p", { class: "mh-payments-title small" }, t("mhing.payments_title", { n: last.number, name: winner, count: last.points })),
    h(
      "ul",
      {},
      ...last.payments.map((p) => {
        const name = playerName(state, p.seat);
        const notes = [];
        if (p.seat === last.discarder) notes.push(t("mhing.paid_double"));
        if (p.paid < p.owed) notes.push(t("mhing.paid_floor", { owed: p.owed }));
        return h(
          "li",
          { testid: `payment-${p.seat}`, "data-owed": p.owed, "data-paid": p.paid, class: [p.seat === last.discarder && "is-double", p.paid < p.owed && "is-floored"] },
          h("span", {}, t("mhing.paid", { name, paid: p.paid })),
          notes.length ? h("span", { class: "muted small" }, ` — ${notes.join("; ")}`) : null,
        );
      }),
    ),
  );
}

/**
 * @param {MhingTable} table
 * @returns {HTMLElement}
 */
export function standings(table) {
  const { state } = table;
  const v1 = state.settlement === 1;
  const last = state.last_round;
  const winners = new Set(table.result?.winners || []);
  const rows = state.players.map((p) => {
    const change = last?.changes?.[p.seat];
    return h(
      "tr",
      {
        class: [p.dealer && !state.finished && "is-dealer", winners.has(p.seat) && "is-winner", last && last.winner === p.seat && "is-last-winner"],
        testid: `standing-${p.seat}`,
      },
      h(
        "th",
        { scope: "row" },
        h("span", { class: "mh-name" }, p.name),
        p.dealer && !state.finished ? [" ", dealerBadge(p.seat)] : null,
        v1 ? progress(p.score, state.target || 500) : null,
      ),
      h("td", { class: "num mh-score-cell", testid: `score-${p.seat}` }, String(p.score)),
      h(
        "td",
        { class: ["num", "mh-change", (change ?? 0) > 0 && "is-up", (change ?? 0) < 0 && "is-down"], testid: `change-${p.seat}` },
        last ? signed(change ?? 0) : "",
      ),
    );
  });
  const caption = v1
    ? t("mhing.standings_v1", { target: state.target || 500 })
    : t("mhing.standings_v2", { total: state.total_points ?? 500 * state.players.length });
  return panel(
    { title: [t("mhing.standings"), " ", h("span", { class: "muted small" }, t(v1 ? "mhing.variant1_short" : "mhing.variant2_short"))], class: "mh-standings", testid: "standings-panel", "data-settlement": state.settlement },
    h(
      "table",
      { class: "scoreboard mh-table", testid: "standings" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col" }, t("mhing.player")),
          h("th", { scope: "col", class: "num" }, t(v1 ? "mhing.score" : "mhing.balance")),
          h("th", { scope: "col", class: "num" }, last ? t("mhing.last_round_short", { n: last.number }) : ""),
        ),
      ),
      h("tbody", {}, ...rows),
    ),
    v1 ? null : payments(state),
    h("p", { class: "muted small mh-caption" }, caption, " ", whyLink("MH-9", "why-standings")),
  );
}

/** One round in words (history and confirm texts). */
/**
 * @param {Schemas["MhingView"]} state
 * @param {Schemas["MhingRound"]} r
 * @returns {string}
 */
export function roundSummary(state, r) {
  const winner = playerName(state, r.winner);
  if (r.outcome === "drawn") return t("mhing.round_drawn_text");
  const how = r.discarder === null || r.discarder === undefined ? t("mhing.from_stack_short") : t("mhing.discard_by", { name: playerName(state, r.discarder) });
  if (r.outcome === "points" && (r.premiums === null || r.premiums === undefined)) {
    return t("mhing.round_points_text", { name: winner, how, count: r.points });
  }
  return t("mhing.round_won_text", { name: winner, how, ...premiumsAndPoints(present(r.premiums, "a won round's premiums"), r.points) });
}

/**
 * @param {Schemas["MhingView"]} state
 * @param {Schemas["MhingRound"]} r
 * @returns {string}
 */
function changesLine(state, r) {
  const parts = state.players
    .map((p) => ({ name: p.name, change: r.changes?.[p.seat] ?? 0 }))
    .filter((x) => x.change !== 0)
    .map((x) => `${x.name} ${signed(x.change)}`);
  return parts.length ? parts.join(" · ") : t("mhing.no_changes");
}

/**
 * @param {MhingTable} table
 * @returns {HTMLElement | null}
 */
export function history(table) {
  const { state } = table;
  const rounds = [...(state.rounds || [])].reverse();
  if (!rounds.length) return null;
  return panel(
    { title: t("mhing.history"), class: "mh-history" },
    h(
      "ol",
      { class: "mh-rounds", testid: "history" },
      ...rounds.map((r) => {
        const head = [
          h("span", { class: "mh-round-no" }, `${r.number}.`),
          h(
            "span",
            { class: "mh-round-text" },
            h("span", { class: "mh-round-what" }, roundSummary(state, r)),
            h("span", { class: "mh-round-meta muted small" }, t("mhing.dealt_by", { name: playerName(state, r.dealer) }), " · ", changesLine(state, r)),
          ),
        ];
        const attrs = { class: ["mh-round", `mh-round-${r.outcome}`], testid: `history-round-${r.number}`, "data-outcome": r.outcome };
        if (r.score?.wins) {
          return h(
            "li",
            attrs,
            h(
              "details",
              {},
              h("summary", {}, ...head),
              scoreView(r.score, { testPrefix: `h${r.number}-premium`, totalTestid: `history-total-${r.number}` }),
            ),
          );
        }
        return h("li", attrs, h("div", { class: "mh-round-head" }, ...head));
      }),
    ),
    // The table shows the latest rounds; every round is in the exported record.
    (state.rounds_played ?? 0) > rounds.length
      ? h("p", { class: "muted small", testid: "history-earlier" }, t("mhing.earlier_rounds", { count: state.rounds_played - rounds.length }))
      : null,
  );
}

/**
 * @param {Schemas["MhingResult"]} result
 * @returns {string}
 */
function explanation(result) {
  const r = result.ranking;
  const names = winnerNames(result);
  const score = r[0]?.score ?? 0;
  if (result.decided_by === "agreement" && names.length > 1) {
    return serverText("mhing.result.explain.agreement_shared", { names: list(names), count: score }, result.explanation);
  }
  return serverText(`mhing.result.explain.${result.decided_by}`, { name: names[0], score, count: score, target: 500 }, result.explanation);
}

/**
 * @param {MhingTable} table
 * @param {string} tableId
 * @returns {HTMLElement | null}
 */
export function resultPanel(table, tableId) {
  const result = table.result;
  if (!result) return null;
  return gameResultPanel({
    result,
    tableId,
    extraClass: "mh-result",
    fallbackName: (seat) => playerName(table.state, seat),
    score: (r) => t("mhing.points_n", { count: r.score }),
    intro: [explanationLine(explanation(result), " ", whyLink("MH-9", "why-result"))],
    extra: [h("p", { class: "muted small", testid: "rounds-played" }, t("mhing.rounds_played", { count: table.state.rounds_played ?? table.state.rounds.length }))],
  });
}
