// The end screen's panel, the same frame for every game: who won, the game's own lines on why,
// the ranking with each game's score, the game's extras, and the export buttons. The panel keeps
// the winner line and the ranking for the share card (`shareCard`, see ui/share-card.js).
/** @typedef {import("kibitz-api").components["schemas"]} Schemas */
/** @typedef {NonNullable<Schemas["Table"]["result"]>} GameResult */
import { h } from "../dom.js";
import { t, list } from "../i18n.js";
import { exportButtons } from "../views/exports.js";

/**
 * Names of seats from the result's ranking; fallbackName(seat) where the ranking has none.
 * @param {GameResult} result
 * @param {number[]} seats
 * @param {(seat: number) => string} [fallbackName]
 * @returns {string[]}
 */
export function seatNames(result, seats, fallbackName = () => "?") {
  return seats.map((seat) => result.ranking.find((r) => r.seat === seat)?.name ?? fallbackName(seat));
}

/**
 * @param {GameResult} result
 * @param {(seat: number) => string} [fallbackName]
 * @returns {string[]}
 */
export function winnerNames(result, fallbackName) {
  return seatNames(result, result.winners, fallbackName);
}

/**
 * The line that says how the game was decided.
 * @param {...import("../dom.js").Child} content
 * @returns {HTMLParagraphElement}
 */
export function explanationLine(...content) {
  return h("p", { class: "result-explanation", testid: "result-explanation" }, ...content);
}

/**
 * gameResultPanel({result, tableId, extraClass, fallbackName(seat), score(r), intro: nodes, extra: nodes})
 * intro stands between the title and the ranking, extra between the ranking and the exports.
 * @template {GameResult} R
 * @param {object} options
 * @param {R} options.result
 * @param {string} options.tableId
 * @param {string} [options.extraClass]
 * @param {(seat: number) => string} [options.fallbackName]
 * @param {(r: R["ranking"][number]) => import("../dom.js").Child} options.score
 * @param {import("../dom.js").Child[]} [options.intro]
 * @param {import("../dom.js").Child[]} [options.extra]
 * @returns {HTMLElement}
 */
export function gameResultPanel({ result, tableId, extraClass, fallbackName, score, intro = [], extra = [] }) {
  const names = winnerNames(result, fallbackName);
  const title = names.length > 1 ? t("result.shared_win", { names: list(names) }) : t("result.winner", { name: names[0] });
  const section = h(
    "section",
    { class: ["panel", "result", extraClass], testid: "result" },
    h("h2", { class: "result-title", testid: "winner" }, title),
    ...intro,
    h(
      "ol",
      { class: "ranking", testid: "ranking" },
      ...result.ranking.map((r) =>
        h(
          "li",
          { class: result.winners.includes(r.seat) && "is-winner", testid: `rank-${r.seat}` },
          h("span", { class: "place" }, `${r.place}.`),
          h("span", { class: "rank-name" }, r.name),
          h("span", { class: "rank-score" }, score(r)),
        ),
      ),
    ),
    ...extra,
    exportButtons(tableId),
  );
  // What the share card shows (ui/share-card.js): the winner line and the ranking as shown here.
  /** @type {import("./share-card.js").ResultSection} */ (section).shareCard = {
    headline: title,
    rows: result.ranking.map((r) => ({ place: r.place, name: r.name, score: score(r), winner: result.winners.includes(r.seat) })),
  };
  return section;
}
