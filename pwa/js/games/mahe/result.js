// The end screen: winner(s), why (MA-10 tie-breaks), ranking and export buttons.
import { h } from "../../dom.js";
import { t, list, serverText } from "../../i18n.js";
import { explanationLine, gameResultPanel, seatNames } from "../../ui/result-panel.js";
import { whyLink } from "./status.js";

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */

/**
 * MA-10's verdict in words, built from the ranking (the API's own sentence is English).
 * @param {Schemas["MaheResult"]} result
 */
function explanation(result) {
  const r = result.ranking;
  const best = r[0];
  const byName = (/** @type {number[]} */ seats) => list(seatNames(result, seats));
  // Each count in its own plural form: the sentence's (count) and "3 eggs", "2 cards" as phrases.
  /** @type {Record<string, string | number>} */
  const params = { winner: best.name, eggs: t("result.eggs", { count: best.eggs }), cards: t("result.cards", { count: best.cards }) };
  if (result.decided_by === "eggs") {
    Object.assign(params, { count: best.eggs, runner: r[1]?.name ?? "", runner_eggs: r[1]?.eggs ?? 0 });
  } else if (result.decided_by === "cards") {
    const tied = r.filter((x) => x.eggs === best.eggs);
    Object.assign(params, { count: best.cards, names: byName(tied.map((x) => x.seat)), second: Math.max(...tied.slice(1).map((x) => x.cards)) });
  } else {
    params.names = byName(result.winners);
  }
  return serverText(`result.explain.${result.decided_by}`, params, result.explanation);
}

/**
 * @param {Schemas["MaheTable"]} table
 * @param {string} tableId
 */
export function resultPanel(table, tableId) {
  const result = table.result || table.state.result;
  if (!result) return null;
  return gameResultPanel({
    result,
    tableId,
    fallbackName: (seat) => table.state.players[seat]?.name,
    score: (r) => `${t("result.eggs", { count: r.eggs })} · ${t("result.cards", { count: r.cards })}`,
    intro: [
      h("p", { class: "result-why" }, t(`result.decided_by.${result.decided_by}`, {}, ""), " ", whyLink("decision-MA-10", "why-result")),
      explanationLine(explanation(result)),
    ],
  });
}
