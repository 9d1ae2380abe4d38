// The end screen: winner(s), why (MA-10 tie-breaks), ranking and export buttons.
import { h } from "../../dom.js";
import { t, list } from "../../i18n.js";
import { exportButtons } from "../../views/exports.js";
import { whyLink, serverText } from "./status.js";

/** MA-10's verdict in words, built from the ranking (the API's own sentence is English). */
function explanation(result) {
  const r = result.ranking;
  const best = r[0];
  const byName = (seats) => list(seats.map((seat) => r.find((x) => x.seat === seat)?.name ?? "?"));
  const params = { winner: best.name, eggs: best.eggs, cards: best.cards };
  if (result.decided_by === "eggs") {
    Object.assign(params, { runner: r[1]?.name ?? "", runner_eggs: r[1]?.eggs ?? 0 });
  } else if (result.decided_by === "cards") {
    const tied = r.filter((x) => x.eggs === best.eggs);
    Object.assign(params, { names: byName(tied.map((x) => x.seat)), second: Math.max(...tied.slice(1).map((x) => x.cards)) });
  } else {
    params.names = byName(result.winners);
  }
  return serverText(`result.explain.${result.decided_by}`, params, result.explanation);
}

export function resultPanel(table, tableId) {
  const result = table.result || table.state.result;
  if (!result) return null;
  const names = result.winners.map((seat) => result.ranking.find((r) => r.seat === seat)?.name ?? table.state.players[seat]?.name);
  const title = names.length > 1 ? t("result.shared_win", { names: list(names) }) : t("result.winner", { name: names[0] });
  return h(
    "section",
    { class: "panel result", testid: "result" },
    h("h2", { class: "result-title", testid: "winner" }, title),
    h("p", { class: "result-why" }, t(`result.decided_by.${result.decided_by}`, {}, ""), " ", whyLink("decision-MA-10", "why-result")),
    h("p", { class: "result-explanation", testid: "result-explanation" }, explanation(result)),
    h(
      "ol",
      { class: "ranking", testid: "ranking" },
      ...result.ranking.map((r) =>
        h(
          "li",
          { class: result.winners.includes(r.seat) && "is-winner" },
          h("span", { class: "place" }, `${r.place}.`),
          h("span", { class: "rank-name" }, r.name),
          h("span", { class: "rank-score" }, `${t("result.eggs", { count: r.eggs })} · ${t("result.cards", { count: r.cards })}`),
        ),
      ),
    ),
    exportButtons(tableId),
  );
}
