// "#/g/<group>/p/<player>" (?from=YYYY-MM-DD&to=YYYY-MM-DD): one player of a group — games and wins
// per game, win rate, best and average score, when last played, win streaks and a record per game
// with the table it was set at (issue 33, item 9). The numbers are the server's
// (GET /api/groups/{id}/players/{player}); the group's date filter comes along in the query.
import { h } from "../dom.js";
import { t, number, percent, locale } from "../i18n.js";
import * as api from "../api.js";
import { setRulesGame } from "../ui/header.js";
import { dateQuery } from "../groups/dates.js";
import { GAMES, gameTitle } from "../games/registry.js";

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */
/** @typedef {Schemas["PlayerPage"]} PlayerPage */

/** @param {string} iso @returns {string} */
function day(iso) {
  return new Intl.DateTimeFormat(locale(), { dateStyle: "medium" }).format(new Date(iso));
}

/**
 * A list of label → value pairs, two columns that wrap at 360 px.
 * @param {[string, string][]} pairs
 * @param {string} testid
 * @returns {HTMLElement}
 */
function figures(pairs, testid) {
  return h("dl", { class: "player-figures", testid }, pairs.map(([label, value]) => h("div", { class: "player-figure" }, h("dt", {}, label), h("dd", {}, value))));
}

/**
 * @param {HTMLElement} container
 * @param {{params: Record<string, string>, query: URLSearchParams}} route
 * @returns {Promise<void>}
 */
export async function mountPlayer(container, { params, query }) {
  setRulesGame(null);
  const groupId = params.id;
  const playerId = params.player;
  const from = query.get("from") || "";
  const to = query.get("to") || "";
  const filter = dateQuery(from, to);
  const back = `#/g/${encodeURIComponent(groupId)}${from || to ? `?${new URLSearchParams(Object.entries({ from, to }).filter(([, v]) => v))}` : ""}`;
  container.classList.add("group", "player-page");
  const backLink = h("a", { class: "btn btn-secondary", href: back, testid: "player-back" }, t("player.back"));
  /** @type {PlayerPage} */
  let page;
  let stale = false;
  try {
    const answer = await api.readGroup(groupId, `/players/${encodeURIComponent(playerId)}${filter.size ? `?${filter}` : ""}`);
    page = answer.data;
    stale = answer.stale;
  } catch (err) {
    container.append(h("p", { class: "muted", testid: "player-missing" }, err instanceof api.OfflineError ? t("group.offline_unseen") : t("player.not_found")), backLink);
    return;
  }
  /** @type {(HTMLElement | null)[]} */
  const parts = [
    h("h1", { class: "page-title", testid: "player-title" }, page.emoji ? `${page.emoji} ` : "", page.name),
    from || to ? h("p", { class: "muted small", testid: "player-window" }, t("player.window", { from: from ? day(from) : "…", to: to ? day(to) : "…" })) : null,
    stale ? h("p", { class: "muted small" }, t("group.offline_copy")) : null,
  ];
  if (!page.games) {
    container.append(.../** @type {HTMLElement[]} */ (parts.filter(Boolean)), h("p", { class: "muted", testid: "player-empty" }, t("player.no_games")), backLink);
    return;
  }
  parts.push(
    figures(
      [
        [t("group.games"), number(page.games)],
        [t("group.wins"), number(page.wins)],
        [t("group.win_rate"), percent(page.win_rate)],
        [t("player.last_played"), page.last_played_at ? day(page.last_played_at) : "–"],
        [t("player.streak_current"), number(page.streaks.current)],
        [t("player.streak_longest"), number(page.streaks.longest)],
      ],
      "player-summary",
    ),
  );
  const lastOf = new Map(page.last_played.map((l) => [/** @type {string} */ (l.game), l.at]));
  for (const { name: game } of GAMES) parts.push(gameSection(page, game, lastOf.get(game)));
  if (page.records.length) parts.push(recordsSection(page));
  parts.push(backLink);
  container.append(.../** @type {HTMLElement[]} */ (parts.filter(Boolean)));
}

/**
 * The player's figures in one game (null when they never played it).
 * @param {PlayerPage} page
 * @param {string} game
 * @param {string | undefined} at when they last played it
 * @returns {HTMLElement | null}
 */
function gameSection(page, game, at) {
  /** Each game's figures by its name (the figures every game has are read here). */
  const byGame = /** @type {Record<string, PlayerPage["by_game"][keyof PlayerPage["by_game"]]>} */ (page.by_game);
  const s = byGame[game];
  if (!s) return null;
  return h(
    "section",
    { class: "player-game", testid: `player-game-${game}` },
    h("h2", { class: "section-title" }, gameTitle(game)),
    figures(
      [
        [t("group.games"), number(s.games)],
        [t("group.wins"), number(s.wins)],
        [t("group.win_rate"), percent(s.win_rate)],
        [t("group.best"), s.best_score === null ? "–" : number(s.best_score)],
        [t("group.average"), number(s.average_score)],
        [t("player.last_played"), at ? day(at) : "–"],
      ],
      `player-figures-${game}`,
    ),
  );
}

/**
 * The player's records, each with the table it was set at.
 * @param {PlayerPage} page
 * @returns {HTMLElement}
 */
function recordsSection(page) {
  return h(
    "section",
    { class: "player-records" },
    h("h2", { class: "section-title" }, t("player.records")),
    h(
      "ul",
      { class: "player-record-list", testid: "player-records" },
      page.records.map((r) =>
        h(
          "li",
          { testid: `player-record-${r.game}`, "data-table": r.table_id },
          h("strong", {}, t(`player.record.${r.kind}`)),
          " · ",
          gameTitle(r.game),
          ": ",
          h("span", { class: "player-record-value" }, number(r.value)),
          h("br"),
          h("span", { class: "muted small" }, day(r.at)),
          " ",
          h("a", { class: "btn-link", href: `#/t/${encodeURIComponent(r.table_id)}`, testid: `player-record-table-${r.game}` }, t("group.open_table")),
        ),
      ),
    ),
  );
}
