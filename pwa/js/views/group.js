// "#/g/new" starts a group; "#/g/<id>" (?k=<edit token>) shows it: start a game with the group's
// players (the one setup of views/setup.js: one tap each, last seats and options remembered), the history, the statistics with their charts,
// the players, and the links to share. Everything read is also there offline (the service worker
// keeps the last answers); a game started offline is filed in the group once it reaches the server.
import { h, present } from "../dom.js";
import { t, list, number, percent, locale } from "../i18n.js";
import * as api from "../api.js";
import * as store from "../store.js";
import { navigate, replacePath } from "../router.js";
import { setRulesGame } from "../ui/header.js";
import { segmented } from "../ui/players-form.js";
import { toast, toastError } from "../toast.js";
import { GAMES, gameTitle, manifestOf } from "../games/registry.js";
import { chart } from "../groups/charts.js";
import { qrSwitch } from "../ui/share.js";
import { createGroupSoon, flushPending, flushPendingGroups } from "../groups/filing.js";
import { LOCAL_PREFIX } from "../sync/session.js";
import { dateQuery } from "../groups/dates.js";
import { ourPlays } from "../groups/bgstats.js";

// What the group's pages read, as openapi.yaml describes it (tests/contract/test_pwa_types.py).
/** @typedef {import("kibitz-api").components["schemas"]} Schemas */
/** @typedef {Schemas["HistoryEntry"]} HistoryEntry */
/** @typedef {Schemas["PlayerStats"]} PlayerStats */

/** The colours a group player may have: those a game seats players with (Mahé's turtles). */
const PALETTE = [...new Set(GAMES.flatMap((g) => g.colours || []))];

/** @param {string} iso @returns {string} the day and time, the phone's way */
function when(iso) {
  return new Intl.DateTimeFormat(locale(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
}

/** @param {string} iso @returns {string} */
function shortDay(iso) {
  return new Intl.DateTimeFormat(locale(), { dateStyle: "medium" }).format(new Date(iso));
}

/** @param {number} seconds @returns {string} "12 min" (at least 1) */
function minutes(seconds) {
  return t("group.minutes", { count: Math.max(1, Math.round(seconds / 60)) });
}

// ---------- a new group ----------

/**
 * @param {HTMLElement} container
 * @returns {void}
 */
export function mountNewGroup(container) {
  setRulesGame(null);
  const players = [{ name: "" }, { name: "" }];
  const key = api.newIdempotencyKey(); // one group, however often the form is sent
  const nameInput = h("input", { type: "text", class: "input", id: "group-name", testid: "group-name", maxlength: 80, autocomplete: "organization", placeholder: t("group.name_placeholder") });
  const rows = h("div", { class: "players", testid: "group-players" });
  /** @returns {void} */
  function render() {
    rows.replaceChildren(
      ...players.map((p, i) => {
        const input = h("input", { type: "text", class: "input", testid: `group-player-${i}`, maxlength: 40, autocomplete: "name", value: p.name, "aria-label": t("setup.player_name", { n: i + 1 }), placeholder: t("setup.player_n", { n: i + 1 }) });
        input.addEventListener("input", () => {
          p.name = input.value;
        });
        return h("div", { class: "player-head" }, h("span", { class: "seat-no" }, String(i + 1)), input);
      }),
    );
  }
  const add = h("button", { type: "button", class: "btn btn-secondary", testid: "group-add-player", onclick: () => { players.push({ name: "" }); render(); } }, t("setup.add_player"));
  const submit = h("button", { type: "submit", class: "btn btn-primary btn-big", testid: "create-group" }, t("group.create"));
  const form = h(
    "form",
    {
      class: "setup-form",
      novalidate: true,
      onsubmit: async (/** @type {SubmitEvent} */ e) => {
        e.preventDefault();
        const body = { name: nameInput.value.trim(), players: players.filter((p) => p.name.trim()).map((p) => ({ name: p.name.trim() })) };
        if (!body.name) {
          toast(t("group.name_needed"), { kind: "error" });
          return;
        }
        submit.disabled = true;
        try {
          const groupId = await createGroupSoon(body, key);
          if (groupId.startsWith(LOCAL_PREFIX)) toast(t("group.created_offline"));
          navigate(`/g/${encodeURIComponent(groupId)}`);
        } catch (err) {
          toastError(err, t("error.generic"));
        } finally {
          submit.disabled = false;
        }
      },
    },
    h("h1", { class: "page-title" }, t("group.new_title")),
    h("label", { for: "group-name", class: "section-title" }, t("group.name")),
    nameInput,
    h("h2", { class: "section-title" }, t("group.players")),
    rows,
    add,
    h("div", { class: "sticky-submit" }, submit),
  );
  render();
  container.append(form);
}

// ---------- a group ----------

/** @typedef {"play" | "history" | "stats" | "players" | "share"} Tab */
/**
 * One group's page: the group as read, this phone's edit token (a member's phone), the date window
 * of history and statistics, the tab on show.
 * @typedef {object} GroupPage
 * @property {string} id
 * @property {Schemas["Group"]} group
 * @property {string | null} token
 * @property {{from: string, to: string}} dates the phone's days ("" for open)
 * @property {HTMLElement} body the tab's content
 * @property {Tab} tab
 */
/** What a tab shows (nothing where null). @typedef {HTMLElement | null | (HTMLElement | null)[]} Shown */

/**
 * @param {HTMLElement} container
 * @param {import("../router.js").RouteContext} route
 * @returns {Promise<(() => void) | undefined>} the page's cleanup (a group still waiting to be created)
 */
export async function mountGroup(container, { params, query }) {
  setRulesGame(null);
  let id = params.id;
  if (id.startsWith(LOCAL_PREFIX)) {
    if (!store.renamedTo(id) && api.isOnline()) await flushPendingGroups().catch(() => undefined);
    const created = store.renamedTo(id);
    if (!created) return mountWaitingGroup(container, id);
    replacePath(`/g/${encodeURIComponent(created)}`);
    id = created;
  }
  const given = query.get("k");
  if (given) replacePath(`/g/${encodeURIComponent(id)}`); // the token stays on the phone, not in the URL
  /** @type {Schemas["Group"]} */
  let group;
  try {
    group = (await api.readGroup(id)).data;
  } catch (err) {
    container.append(h("p", { class: "muted", testid: "group-missing" }, err instanceof api.OfflineError ? t("group.offline_unknown") : t("group.not_found")), h("a", { class: "btn btn-secondary", href: "#/" }, t("common.back")));
    return;
  }
  store.rememberGroup(group, given);
  const token = store.groupToken(id);
  flushPending().catch(() => undefined);

  // The date filter of history and statistics (and of the player pages they open): the phone's days.
  const dates = { from: query.get("from") || "", to: query.get("to") || "" };
  /** @type {Tab[]} */
  const tabs = token ? ["play", "history", "stats", "players", "share"] : ["history", "stats", "players", "share"];
  /** @type {GroupPage} */
  const pg = { id, group, token, dates, body: h("div", { class: "group-body" }), tab: tabs[0] };
  container.classList.add("group");
  container.append(
    ...[
      h("h1", { class: "page-title", testid: "group-title" }, group.name),
      token ? null : h("p", { class: "badge badge-view", testid: "group-read-only" }, t("group.read_only")),
    ].filter((node) => node !== null),
    segmented({ values: tabs, value: pg.tab, onPick: (name) => open(pg, name), testPrefix: "group-tab", labels: (v) => t(`group.tab.${v}`), label: group.name, extraClass: "group-tabs" }),
    pg.body,
  );
  await open(pg, pg.tab);
  return undefined;
}

/**
 * A player's page, in the same date window.
 * @param {GroupPage} pg
 * @param {string} playerId
 * @returns {string}
 */
function playerHref(pg, playerId) {
  const q = new URLSearchParams(Object.entries(pg.dates).filter(([, v]) => v));
  return `#/g/${encodeURIComponent(pg.id)}/p/${encodeURIComponent(playerId)}${q.size ? `?${q}` : ""}`;
}

/**
 * The window's query parameters, with `&` in front when there are any.
 * @param {GroupPage} pg
 * @returns {string}
 */
function windowQuery(pg) {
  const q = dateQuery(pg.dates.from, pg.dates.to);
  return q.size ? `&${q}` : "";
}

/**
 * The from/to control; a change shows the tab again for the new window.
 * @param {GroupPage} pg
 * @returns {HTMLElement}
 */
function dateFilter(pg) {
  const dates = pg.dates;
  /** @param {"from" | "to"} which */
  const input = (which) => {
    const el = h("input", { type: "date", class: "input", id: `group-date-${which}`, testid: `date-${which}`, value: dates[which] });
    el.addEventListener("change", () => {
      dates[which] = el.value;
      open(pg, pg.tab);
    });
    return h("label", { class: "date-field", for: `group-date-${which}` }, h("span", { class: "date-label" }, t(`group.date_${which}`)), el);
  };
  const clear = h("button", { type: "button", class: "btn-link", testid: "date-clear", hidden: !dates.from && !dates.to, onclick: () => { dates.from = ""; dates.to = ""; open(pg, pg.tab); } }, t("group.dates_clear"));
  return h("fieldset", { class: "date-filter", testid: "date-filter" }, h("legend", { class: "section-title" }, t("group.dates")), h("div", { class: "date-fields" }, input("from"), input("to")), clear);
}

/** @type {Record<Tab, (pg: GroupPage) => Shown | Promise<Shown>>} */
const SHOW = { play: renderPlay, history: (pg) => renderHistory(pg), stats: renderStats, players: renderPlayers, share: renderShare };

/**
 * Show a tab (the newest tab asked for wins).
 * @param {GroupPage} pg
 * @param {Tab} name
 * @returns {Promise<void>}
 */
async function open(pg, name) {
  const body = pg.body;
  pg.tab = name;
  body.replaceChildren(h("p", { class: "muted" }, t("common.loading")));
  try {
    const content = await SHOW[name](pg);
    if (pg.tab === name) body.replaceChildren(...[content].flat().filter((node) => node !== null));
  } catch (err) {
    body.replaceChildren(h("p", { class: "muted" }, err instanceof api.OfflineError ? t("group.offline_unseen") : t("error.generic")));
  }
}

// ---------- play: a game's setup (views/setup.js) with the group's players, one tap each ----------
/** @param {GroupPage} pg @returns {HTMLElement} */
function renderPlay(pg) {
  const plays = new Map((pg.group.plays || []).map((p) => [/** @type {string} */ (p.game), p]));
  /** @param {string} name */
  const played = (name) => {
    const p = plays.get(name);
    return p ? h("span", { class: "game-meta", testid: `plays-${name}` }, t("group.plays_line", { count: p.games, date: shortDay(p.last_played_at) })) : null;
  };
  return h(
    "section",
    { class: "group-play" },
    h("p", { class: "muted" }, t("group.play_hint")),
    h(
      "div",
      { class: "game-list" },
      GAMES.map((g) => h("button", { type: "button", class: "btn btn-primary btn-big game-button", testid: `group-new-${g.name}`, onclick: () => navigate(`/new/${g.name}?group=${encodeURIComponent(pg.id)}`) }, h("span", { class: "game-title" }, gameTitle(g.name)), h("span", { class: "game-meta" }, t("home.players_range", { min: g.min, max: g.max })), played(g.name))),
    ),
  );
}

// ---------- history ----------
/**
 * @param {GroupPage} pg
 * @param {{game: string, player: string}} [filters]
 * @returns {Promise<HTMLElement>}
 */
async function renderHistory(pg, filters = { game: "", player: "" }) {
  const { id, group, dates, body } = pg;
  const q = new URLSearchParams(Object.entries(filters).filter(([, v]) => v));
  dateQuery(dates.from, dates.to).forEach((v, k) => q.set(k, v));
  const { data, stale } = await api.readGroup(id, `/history${q.size ? `?${q}` : ""}`);
  const names = new Map(group.players.map((p) => [p.id, p.name]));
  const gameSelect = h("select", { class: "input", testid: "history-game", "aria-label": t("group.filter_game") }, h("option", { value: "" }, t("group.all_games")), GAMES.map((g) => h("option", { value: g.name, selected: filters.game === g.name }, gameTitle(g.name))));
  const playerSelect = h("select", { class: "input", testid: "history-player", "aria-label": t("group.filter_player") }, h("option", { value: "" }, t("group.all_players")), group.players.map((p) => h("option", { value: p.id, selected: filters.player === p.id }, p.name)));
  const refilter = async () => body.replaceChildren(await renderHistory(pg, { game: gameSelect.value, player: playerSelect.value }));
  gameSelect.addEventListener("change", refilter);
  playerSelect.addEventListener("change", refilter);
  const items = data.entries.map((entry) => historyItem(pg, entry, names));
  const list = h("ul", { class: "history-list", testid: "history-list" }, items);
  // History comes a page at a time (newest first); older pages on request, one tap each.
  let nextBefore = data.next_before;
  const more = h("button", { type: "button", class: "btn", testid: "history-more", hidden: nextBefore === null }, t("group.history_more"));
  more.addEventListener("click", async () => {
    if (nextBefore === null) return;
    q.set("before", String(nextBefore));
    const { data: page } = await api.readGroup(id, `/history?${q}`);
    list.append(...page.entries.map((entry) => historyItem(pg, entry, names)));
    nextBefore = page.next_before;
    more.hidden = nextBefore === null;
  });
  return h(
    "section",
    { class: "group-history" },
    stale ? h("p", { class: "muted small" }, t("group.offline_copy")) : null,
    h("div", { class: "filters" }, gameSelect, playerSelect),
    dateFilter(pg),
    items.length ? list : h("p", { class: "muted", testid: "history-empty" }, t(dates.from || dates.to ? "group.none_in_window" : "group.no_history")),
    more,
    h("button", { type: "button", class: "btn btn-secondary", testid: "export-csv", onclick: () => downloadCsv(pg) }, t("group.csv")),
  );
}

/**
 * One game of the history: its players by place, links to it, its chart, abandon/resume.
 * @param {GroupPage} pg
 * @param {HistoryEntry} entry
 * @param {Map<string, string>} names
 * @returns {HTMLLIElement}
 */
function historyItem(pg, entry, names) {
  // By place, not by seat (issue 33: "4. 🏆 Dirk · 51"): the winners first, then the best score;
  // equal scores share a place.
  const ranked = [...entry.players].sort((a, b) => Number(b.winner) - Number(a.winner) || (b.score ?? -Infinity) - (a.score ?? -Infinity) || a.seat - b.seat);
  const places = ranked.map((p, i) => (i > 0 && p.winner === ranked[i - 1].winner && p.score === ranked[i - 1].score ? null : i + 1));
  for (let i = 1; i < places.length; i++) if (places[i] === null) places[i] = places[i - 1];
  const players = ranked.map((p, i) =>
    h(
      "li",
      { class: p.winner ? "winner" : null, testid: `history-${entry.table_id}-seat-${p.seat}`, "data-place": places[i] },
      h("span", { class: "history-place" }, `${number(present(places[i], "a place"))}.`),
      " ",
      p.winner ? "🏆 " : "",
      h("a", { class: "player-link", href: playerHref(pg, p.player_id), testid: `history-player-${entry.table_id}-${p.seat}` }, names.get(p.player_id) || p.name),
      p.score === null ? "" : ` · ${number(p.score)}`,
    ),
  );
  const detail = h("div", { class: "history-detail" });
  const actions = h(
    "div",
    { class: "history-actions" },
    entry.imported ? null : h("a", { class: "btn-link", href: `#/t/${encodeURIComponent(entry.table_id)}` }, t("group.open_table")),
    entry.record_path ? h("a", { class: "btn-link", href: entry.record_path, download: "" }, t("group.record")) : null,
    entry.status === "finished" && manifestOf(entry.game)?.progressAxis && !entry.imported
      ? h("button", { type: "button", class: "btn-link", testid: `progress-${entry.table_id}`, onclick: () => progressChart(pg, entry, detail) }, t("group.score_over_game"))
      : null,
    pg.token && entry.status !== "finished"
      ? h("button", { type: "button", class: "btn-link", testid: `abandon-${entry.table_id}`, onclick: () => abandon(pg, entry) }, entry.status === "abandoned" ? t("group.resume") : t("group.abandon"))
      : null,
  );
  return h(
    "li",
    { class: "history-item", testid: `history-${entry.table_id}`, "data-status": entry.status },
    h("p", { class: "history-head" }, h("strong", {}, gameTitle(entry.game)), " · ", when(entry.started_at), " · ", minutes(entry.duration_seconds), " ", h("span", { class: "badge" }, t(`group.status.${entry.status}`)), entry.imported ? [" ", h("span", { class: "badge badge-view", testid: `imported-${entry.table_id}` }, t("group.imported"))] : null),
    h("ul", { class: "history-players" }, players),
    actions,
    detail,
  );
}

/**
 * @param {GroupPage} pg
 * @param {HistoryEntry} entry
 * @param {HTMLElement} host
 * @returns {Promise<void>}
 */
async function progressChart(pg, entry, host) {
  try {
    const { data } = await api.readGroup(pg.id, `/tables/${encodeURIComponent(entry.table_id)}/progress`);
    const steps = data.lines[0].map((_, i) => i + 1);
    host.replaceChildren(
      chart({
        title: t("group.score_over_game"),
        kind: "lines",
        labels: steps,
        xLabel: t(manifestOf(entry.game)?.progressAxis || "group.move"),
        series: entry.players.map((p) => ({ label: p.name, values: data.lines[p.seat] })),
        testid: `chart-progress-${entry.table_id}`,
      }),
    );
  } catch (err) {
    toastError(err, t("error.generic"));
  }
}

/**
 * Abandon a game that is not finished (or take it up again); only offered with the edit token.
 * @param {GroupPage} pg
 * @param {HistoryEntry} entry
 * @returns {Promise<void>}
 */
async function abandon(pg, entry) {
  try {
    await api.abandonGroupTable(pg.id, present(pg.token, "the group's edit token"), entry.table_id, entry.status !== "abandoned");
    await open(pg, "history");
  } catch (err) {
    toastError(err, t("error.generic"));
  }
}

/**
 * The group's CSV export (every page of it, one file): downloaded by the phone.
 * @param {GroupPage} pg
 * @returns {Promise<void>}
 */
async function downloadCsv(pg) {
  const id = pg.id;
  try {
    const text = await api.groupCsv(id);
    const url = URL.createObjectURL(new Blob([text], { type: "text/csv" }));
    const link = h("a", { href: url, download: `kibitz-group-${id}.csv`, hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  } catch (err) {
    toastError(err, t(err instanceof api.OfflineError ? "group.csv_offline" : "error.generic"));
  }
}

// ---------- statistics ----------
/**
 * Every history entry, newest first, following the pages (200 tables a request): the wins over
 * time count from the group's first game.
 * @param {GroupPage} pg
 * @returns {Promise<{entries: HistoryEntry[]}>}
 */
async function wholeHistory(pg) {
  /** @type {HistoryEntry[]} */
  const entries = [];
  /** @type {number | null} */
  let before = null;
  do {
    /** @type {Schemas["History"]} */
    const data = (await api.readGroup(pg.id, `/history?limit=200${before === null ? "" : `&before=${before}`}${windowQuery(pg)}`)).data;
    entries.push(...data.entries);
    before = data.next_before;
  } while (before !== null);
  return { entries };
}

/**
 * The statistics tab: who played how often and won, the charts, each game's figures, head to head.
 * @param {GroupPage} pg
 * @returns {Promise<(HTMLElement | null)[]>}
 */
async function renderStats(pg) {
  const { id, dates } = pg;
  const filter = dateQuery(dates.from, dates.to);
  const [{ data: stats, stale }, hist] = await Promise.all([api.readGroup(id, `/stats${filter.size ? `?${filter}` : ""}`), wholeHistory(pg)]);
  const players = stats.players.filter((p) => p.games > 0);
  const overview = h(
    "table",
    { class: "stats-table", testid: "stats-table" },
    h("caption", {}, t("group.stats_title")),
    h("thead", {}, h("tr", {}, ["group.player", "group.games", "group.wins", "group.win_rate"].map((k) => h("th", { scope: "col" }, t(k))))),
    h("tbody", {}, players.map((p) => h("tr", { testid: `stats-${p.player_id}` }, h("th", { scope: "row" }, h("a", { class: "player-link", href: playerHref(pg, p.player_id), testid: `stats-player-${p.player_id}` }, p.name)), h("td", {}, number(p.games)), h("td", {}, number(p.wins)), h("td", {}, percent(p.win_rate))))),
  );
  /** @type {(HTMLElement | null)[]} */
  const parts = [stale ? h("p", { class: "muted small" }, t("group.offline_copy")) : null, dateFilter(pg), playsTable(pg), ...scrollable(overview), h("p", { class: "muted small" }, t("group.tap_a_player"))];
  if (!players.length) return [dateFilter(pg), playsTable(pg), h("p", { class: "muted", testid: "stats-empty" }, t(dates.from || dates.to ? "group.none_in_window" : "group.no_stats"))];
  parts.push(chart({ title: t("group.wins_chart"), kind: "bars", labels: players.map((p) => p.name), xLabel: t("group.player"), series: [{ label: t("group.wins"), values: players.map((p) => p.wins) }], testid: "chart-wins" }));
  parts.push(winsOverTime(players, hist.entries));
  for (const g of GAMES) {
    const of = players.filter((p) => /** @type {Record<string, unknown>} */ (p.by_game)[g.name]);
    if (of.length) parts.push(gameStats(g.name, of));
  }
  parts.push(headToHead(pg, players));
  return parts;
}

/**
 * Wins over time: each player's wins counted up game by game, oldest first (with two games or more).
 * @param {PlayerStats[]} players
 * @param {HistoryEntry[]} entries newest first
 * @returns {HTMLElement | null}
 */
function winsOverTime(players, entries) {
  const finished = entries.filter((e) => e.status === "finished").reverse();
  if (finished.length <= 1) return null;
  const running = new Map(players.map((p) => [p.player_id, 0]));
  /** @type {import("../groups/charts.js").Series[]} */
  const series = players.map((p) => ({ label: p.name, values: [] }));
  finished.forEach((entry) => {
    entry.winners.forEach((w) => running.set(w, (running.get(w) || 0) + 1));
    players.forEach((p, i) => series[i].values.push(present(running.get(p.player_id), "a player's wins")));
  });
  return chart({ title: t("group.wins_over_time"), kind: "lines", labels: finished.map((e) => new Intl.DateTimeFormat(locale(), { day: "numeric", month: "short" }).format(new Date(e.started_at))), xLabel: t("group.date"), series, testid: "chart-wins-over-time" });
}

/**
 * Per game: how often the group played it and when last (all dates: the group's own figures).
 * @param {GroupPage} pg
 * @returns {HTMLTableElement | null}
 */
function playsTable(pg) {
  const plays = pg.group.plays || [];
  if (!plays.length) return null;
  return h(
    "table",
    { class: "stats-table", testid: "plays-table" },
    h("caption", {}, t("group.plays")),
    h("thead", {}, h("tr", {}, ["group.filter_game", "group.games", "player.last_played"].map((k) => h("th", { scope: "col" }, t(k))))),
    h("tbody", {}, plays.map((p) => h("tr", { testid: `plays-row-${p.game}` }, h("th", { scope: "row" }, gameTitle(p.game)), h("td", {}, number(p.games)), h("td", {}, shortDay(p.last_played_at))))),
  );
}

/**
 * One of a game's figures of a player ("–" where there is none yet).
 * @param {object} figures the player's figures for the game
 * @param {string} field
 * @returns {string}
 */
function figure(figures, field) {
  const value = /** @type {Record<string, number | null>} */ (figures)[field];
  return value === null ? "–" : number(value);
}

/**
 * @param {string} game
 * @param {PlayerStats[]} players the players who played it
 * @returns {HTMLElement}
 */
function gameStats(game, players) {
  /** @param {PlayerStats} p */
  const figures = (p) => present(/** @type {Record<string, {games: number, wins: number} | undefined>} */ (p.by_game)[game], `${p.name}'s figures`);
  const manifest = manifestOf(game);
  const columns = manifest?.statsColumns || [];
  const table = h(
    "table",
    { class: "stats-table", testid: `stats-${game}` },
    h("caption", {}, gameTitle(game)),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("group.player")), h("th", { scope: "col" }, t("group.games")), h("th", { scope: "col" }, t("group.wins")), columns.map(([, key]) => h("th", { scope: "col" }, t(key))))),
    h("tbody", {}, players.map((p) => {
      const s = figures(p);
      return h("tr", {}, h("th", { scope: "row" }, p.name), h("td", {}, number(s.games)), h("td", {}, number(s.wins)), columns.map(([field]) => h("td", { "data-field": field }, figure(s, field))));
    })),
  );
  /** @type {HTMLElement[]} */
  const section = [...scrollable(table)];
  if (manifest?.statsCharts) section.push(...manifest.statsCharts(players, { t, chart }));
  return h("section", { class: "group-game-stats", "aria-label": gameTitle(game) }, section);
}

/**
 * Two players picked: their games together and who won more, who ended ahead more.
 * @param {GroupPage} pg
 * @param {PlayerStats[]} players
 * @returns {HTMLElement}
 */
function headToHead(pg, players) {
  /** @param {string} testid @param {number} index the one picked at first */
  const pick = (testid, index) => h("select", { class: "input", testid, "aria-label": t("group.player") }, players.map((p, i) => h("option", { value: p.player_id, selected: i === index }, p.name)));
  const a = pick("h2h-a", 0);
  const b = pick("h2h-b", Math.min(1, players.length - 1));
  const out = h("p", { testid: "h2h-result", "aria-live": "polite" });
  /** @returns {Promise<void>} */
  async function update() {
    if (a.value === b.value) {
      out.textContent = "";
      return;
    }
    const { data } = await api.readGroup(pg.id, `/head-to-head?a=${encodeURIComponent(a.value)}&b=${encodeURIComponent(b.value)}`);
    out.textContent = t("group.h2h_result", { count: data.games, a: data.a_name, b: data.b_name, a_wins: data.a_wins, b_wins: data.b_wins, a_ahead: data.a_ahead, b_ahead: data.b_ahead });
  }
  a.addEventListener("change", update);
  b.addEventListener("change", update);
  update().catch(() => undefined);
  return h("section", { class: "group-h2h" }, h("h2", { class: "section-title" }, t("group.h2h")), h("div", { class: "filters" }, a, b), out);
}

// ---------- players ----------
/**
 * The players tab: the names (a member's phone edits them, their colours and emoji, and adds
 * players) and the BG Stats import.
 * @param {GroupPage} pg
 * @returns {Shown}
 */
function renderPlayers(pg) {
  const token = pg.token;
  /** @type {Schemas["GroupPlayer"][]} */
  const rows = pg.group.players.map((p) => ({ ...p }));
  const listEl = h("ul", { class: "group-player-list", testid: "group-player-list" });
  const render = () => listEl.replaceChildren(...rows.map((p, i) => (token ? playerEditor(p, i) : h("li", {}, p.emoji ? `${p.emoji} ` : "", p.name))));
  render();
  if (!token) return h("section", {}, listEl);
  const add = h("button", { type: "button", class: "btn btn-secondary", testid: "edit-add-player", onclick: () => { rows.push({ name: "", colour: null, emoji: null }); render(); } }, t("setup.add_player"));
  const save = h("button", {
    type: "button",
    class: "btn btn-primary",
    testid: "save-players",
    onclick: async () => {
      try {
        const group = pg.group;
        const kept = rows.filter((p) => p.name.trim()).map((p) => ({ ...(p.id ? { id: p.id } : {}), name: p.name.trim(), colour: p.colour || null, emoji: p.emoji || null }));
        pg.group = await api.updateGroup(pg.id, token, { name: group.name, players: kept, expected_version: group.version });
        store.rememberGroup(pg.group);
        toast(t("group.saved"));
        await open(pg, "players");
      } catch (err) {
        toastError(err, t("error.generic"));
      }
    },
  }, t("group.save"));
  return [h("section", {}, listEl, h("div", { class: "row" }, add, save)), importSection(pg, token)];
}

/**
 * One player's name, colour and emoji, edited in place in `p`.
 * @param {Schemas["GroupPlayer"]} p
 * @param {number} i
 * @returns {HTMLLIElement}
 */
function playerEditor(p, i) {
  const name = h("input", { type: "text", class: "input", testid: `edit-player-${i}`, maxlength: 40, value: p.name, "aria-label": t("setup.player_name", { n: i + 1 }) });
  name.addEventListener("input", () => {
    p.name = name.value;
  });
  const emoji = h("input", { type: "text", class: "input input-short", testid: `edit-emoji-${i}`, maxlength: 16, value: p.emoji || "", "aria-label": t("group.emoji"), placeholder: "🙂" });
  emoji.addEventListener("input", () => {
    p.emoji = emoji.value || null;
  });
  const colour = h("select", { class: "input input-short", testid: `edit-colour-${i}`, "aria-label": t("group.colour") }, h("option", { value: "" }, "–"), PALETTE.map((c) => h("option", { value: c, selected: p.colour === c }, t(`colour.${c}`, {}, c))));
  colour.addEventListener("change", () => {
    p.colour = colour.value || null;
  });
  return h("li", { class: "player-head" }, name, colour, emoji);
}

// ---------- importing plays from BG Stats (the group's settings) ----------
/**
 * @param {GroupPage} pg
 * @param {string} token the group's edit token
 * @returns {HTMLElement}
 */
function importSection(pg, token) {
  const result = h("p", { class: "muted", testid: "import-result", "aria-live": "polite" });
  const picker = h("input", { type: "file", class: "input", id: "bgstats-file", testid: "import-file", accept: ".json,application/json" });
  picker.addEventListener("change", async () => {
    const file = picker.files?.[0];
    if (!file || !token) return;
    const body = ourPlays(await file.text());
    picker.value = "";
    if (!body) {
      result.textContent = t("group.import_bad_file");
      return;
    }
    if (!body.plays.length) {
      result.textContent = t("group.import_none");
      return;
    }
    result.textContent = t("common.loading");
    try {
      const answer = await api.importBgStats(pg.id, token, /** @type {Schemas["BgStatsExport"]} */ (body));
      pg.group = answer.group;
      store.rememberGroup(pg.group);
      const lines = [answer.imported ? t("group.import_done", { count: answer.imported }) : t("group.import_nothing")];
      if (answer.new_players.length) lines.push(t("group.import_new_players", { names: list(answer.new_players) }));
      result.textContent = lines.join(" ");
    } catch (err) {
      result.textContent = err instanceof api.OfflineError ? t("group.csv_offline") : err instanceof api.ApiError ? err.message : t("error.generic");
    }
  });
  return h(
    "section",
    { class: "group-import", testid: "group-import" },
    h("h2", { class: "section-title" }, t("group.import_title")),
    h("p", { class: "muted small" }, t("group.import_hint")),
    h("label", { for: "bgstats-file", class: "date-label" }, t("group.import_pick")),
    picker,
    result,
  );
}

// ---------- share ----------
/**
 * One QR code at a time (issue 33: with two, a camera may take the read-only one): the members'
 * code first for the group's owner, a switch to the read-only code; the links below to copy.
 * @param {GroupPage} pg
 * @returns {HTMLElement}
 */
function renderShare(pg) {
  const { id, token } = pg;
  const base = `${location.origin}${location.pathname}`;
  const readUrl = `${base}#/g/${id}`;
  const joinUrl = token ? `${base}#/g/${id}?k=${token}` : null;
  const links = [["group.read_link", readUrl, "share-read"]];
  if (joinUrl) links.unshift(["group.join_link", joinUrl, "share-join"]);
  return h(
    "section",
    { class: "group-share" },
    qrSwitch(joinUrl ?? readUrl, joinUrl ? readUrl : null, { join: t("group.qr_join"), view: t("group.qr_view"), label: t("group.tab.share"), testPrefix: "group-qr" }),
    links.map(([label, url, testid]) =>
      h("div", { class: "share-row" }, h("p", { class: "section-title" }, t(label)), h("input", { type: "text", class: "input", readonly: true, value: url, testid, "aria-label": t(label) }), h("button", { type: "button", class: "btn btn-secondary", onclick: () => navigator.clipboard?.writeText(url).then(() => toast(t("group.copied"))) }, t("group.copy"))),
    ),
    h("p", { class: "muted small" }, t("group.share_hint", { names: list(pg.group.players.map((p) => p.name)) })),
  );
}

/**
 * A group started offline, not on the server yet: its name and players, and a note that it is
 * created when the phone is back — then the page becomes the group's own.
 * @param {HTMLElement} container
 * @param {string} localId
 * @returns {(() => void) | undefined} the page's cleanup
 */
function mountWaitingGroup(container, localId) {
  const pending = store.pendingGroups().find((g) => g.id === localId);
  if (!pending) {
    container.append(h("p", { class: "muted", testid: "group-missing" }, t("group.not_found")), h("a", { class: "btn btn-secondary", href: "#/" }, t("common.back")));
    return undefined;
  }
  container.classList.add("group");
  container.append(
    h("h1", { class: "page-title", testid: "group-title" }, pending.body.name),
    h("p", { class: "badge badge-view", testid: "group-waiting" }, t("group.waiting_badge")),
    h("p", { class: "muted" }, t("group.waiting")),
    h("h2", { class: "section-title" }, t("group.players")),
    h("ul", { class: "group-player-list", testid: "group-player-list" }, present(pending.body.players, "the group's players").map((p) => h("li", {}, p.name))),
  );
  let done = false;
  const tryNow = async () => {
    await flushPendingGroups().catch(() => undefined);
    const created = store.renamedTo(localId);
    if (created && !done) {
      done = true;
      navigate(`/g/${encodeURIComponent(created)}`);
    }
  };
  const offConnectivity = api.onConnectivity((online) => online && tryNow());
  window.addEventListener("online", tryNow);
  const timer = setInterval(tryNow, 5000);
  return () => {
    done = true;
    offConnectivity?.();
    window.removeEventListener("online", tryNow);
    clearInterval(timer);
  };
}

/**
 * A table that may be wider than the phone (issue 33: "Best" hidden with no hint): it scrolls
 * sideways in its own box (which takes the focus, so keys scroll it too), shadows mark the hidden
 * side, and a line says so while anything is hidden. → [box, hint]
 * @param {HTMLElement} table
 * @returns {HTMLElement[]}
 */
function scrollable(table) {
  const box = h("div", { class: "table-scroll", tabindex: "0", "data-scrolls": "x" }, table);
  const hint = h("p", { class: "scroll-hint", testid: "scroll-hint", hidden: true }, t("group.scroll_hint"));
  const check = () => {
    hint.hidden = box.scrollWidth <= box.clientWidth + 1;
  };
  new ResizeObserver(check).observe(box);
  return [box, hint];
}

/**
 * The home screen's list of groups: [<li>] for every group this phone knows.
 * @returns {HTMLLIElement[]}
 */
export function groupItems() {
  return store.knownGroups().map((g) => h("li", { class: "table-item", testid: `known-group-${g.id}` }, h("a", { class: "table-link", href: `#/g/${encodeURIComponent(g.id)}` }, h("span", { class: "table-title" }, g.name), h("span", { class: ["badge", g.token ? "badge-live" : "badge-view"] }, g.id.startsWith(LOCAL_PREFIX) ? t("group.waiting_badge") : g.token ? t("group.member") : t("group.read_only")))));
}
