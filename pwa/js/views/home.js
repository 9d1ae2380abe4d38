// Home: known tables, join a table, start a new table (game list from GET /api/games).
import { h } from "../dom.js";
import { t, list, locale } from "../i18n.js";
import * as api from "../api.js";
import * as store from "../store.js";
import { navigate } from "../router.js";
import { hasClient } from "../games/registry.js";
import { setRulesGame } from "../ui/header.js";
import { toast } from "../toast.js";
import { groupItems } from "./group.js";

/**
 * A table this phone remembers (store.rememberTable writes it).
 * @typedef {{id: string, game: string, title: string, players: string[], finished: boolean, updated_at: string | null, created_at: string | null, seen_at: string}} KnownTable
 */

/**
 * Accepts a full join link, a "#/t/<id>?k=..." fragment or a bare table id; returns a route path.
 * @param {string | null | undefined} text
 * @returns {string | null}
 */
export function parseJoin(text) {
  const value = (text || "").trim();
  if (!value) return null;
  const hashAt = value.indexOf("#/t/");
  if (hashAt >= 0) {
    const rest = value.slice(hashAt + 1);
    const [path, qs = ""] = rest.split("?");
    const id = path.split("/")[2];
    if (!id) return null;
    const k = new URLSearchParams(qs).get("k");
    return `/t/${encodeURIComponent(id)}${k ? `?k=${encodeURIComponent(k)}` : ""}`;
  }
  if (/^[\w-]{3,}$/.test(value)) return `/t/${encodeURIComponent(value)}`;
  return null;
}

/**
 * The day and time a remembered table started (else was last seen), the phone's way.
 * @param {KnownTable} entry
 * @returns {string}
 */
function whenText(entry) {
  const at = entry.created_at || entry.updated_at || entry.seen_at;
  if (!at) return "";
  return new Intl.DateTimeFormat(locale(), { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" }).format(new Date(at));
}

/** Tables listed before "show all": the groups stay in sight on a phone (issue 33). */
const FIRST_TABLES = 3;

/**
 * @param {KnownTable} entry
 * @param {(entry: KnownTable) => void} onForget
 * @returns {HTMLLIElement}
 */
function tableItem(entry, onForget) {
  const hasToken = !!store.getToken(entry.id);
  const status = entry.finished ? t("home.finished") : hasToken ? t("home.playing") : t("table.view_only");
  return h(
    "li",
    { class: "table-item", testid: `known-${entry.id}` },
    h(
      "a",
      { class: "table-link", href: `#/t/${encodeURIComponent(entry.id)}` },
      h("span", { class: "table-title" }, store.tableName(entry.id) || entry.title),
      h("span", { class: "table-players" }, list(entry.players || [])),
      // When: two tables of the same players are told apart (issue 33).
      h("span", { class: "table-when", testid: "known-when" }, whenText(entry)),
      h("span", { class: ["badge", entry.finished ? "badge-done" : hasToken ? "badge-live" : "badge-view"] }, status),
    ),
    h("button", {
      type: "button",
      class: "icon-button",
      "aria-label": t("home.forget"),
      title: t("home.forget"),
      onclick: () => onForget(entry),
      text: "×",
    }),
  );
}

/**
 * @param {HTMLElement} container
 * @returns {Promise<void>}
 */
export async function mountHome(container) {
  setRulesGame(null);
  const tables = knownTablesList();
  const gameButtons = h("div", { class: "game-list", testid: "game-list" }, h("p", { class: "muted" }, t("common.loading")));
  container.classList.add("home");
  container.append(
    h(
      "section",
      { class: "home-top" },
      h("h1", { class: "home-title" }, t("home.title")),
      h("p", { class: "tagline" }, t("home.tagline")),
      h("h2", { class: "section-title" }, t("home.your_tables")),
      tables.empty,
      tables.list,
      tables.more,
    ),
    h(
      "section",
      { class: "home-groups" },
      h("h2", { class: "section-title" }, t("group.your_groups")),
      h("ul", { class: "table-list", testid: "known-groups" }, groupItems()),
      h("a", { class: "btn btn-secondary", href: "#/g/new", testid: "new-group" }, t("group.new")),
    ),
    h("section", { class: "home-bottom" }, joinForm(), h("h2", { class: "section-title" }, t("home.new_table")), gameButtons),
  );
  tables.render();
  await showGames(gameButtons);
}

/**
 * The tables this phone knows: the first few, "all" on a tap; each can be forgotten.
 * @returns {{list: HTMLElement, empty: HTMLElement, more: HTMLButtonElement, render: () => void}}
 */
function knownTablesList() {
  const tablesList = h("ul", { class: "table-list", testid: "known-tables" });
  const empty = h("p", { class: "muted" }, t("home.no_tables"));
  let showAll = false;
  const more = h("button", { type: "button", class: "btn btn-link", testid: "known-more", onclick: () => { showAll = !showAll; renderTables(); } });
  /** @returns {void} */
  function renderTables() {
    const entries = store.knownTables();
    const shown = showAll ? entries : entries.slice(0, FIRST_TABLES);
    tablesList.replaceChildren(...shown.map((/** @type {KnownTable} */ e) => tableItem(e, forget)));
    empty.hidden = entries.length > 0;
    more.hidden = entries.length <= FIRST_TABLES;
    more.textContent = showAll ? t("home.tables_fewer") : t("home.tables_all", { count: entries.length });
  }
  /** @param {KnownTable} entry @returns {void} */
  function forget(entry) {
    store.forgetTable(entry.id);
    renderTables();
  }
  return { list: tablesList, empty, more, render: renderTables };
}

/**
 * "Join a table": a link (or its code) typed or pasted.
 * @returns {HTMLFormElement}
 */
function joinForm() {
  const joinInput = h("input", {
    type: "text",
    id: "join-input",
    class: "input",
    inputmode: "url",
    autocomplete: "off",
    autocapitalize: "off",
    spellcheck: "false",
    placeholder: t("home.join_placeholder"),
    testid: "join-input",
  });
  return h(
    "form",
    {
      class: "join-form",
      onsubmit: (/** @type {SubmitEvent} */ e) => {
        e.preventDefault();
        const path = parseJoin(joinInput.value);
        if (path) navigate(path);
        else toast(t("home.join_invalid"), { kind: "error" });
      },
    },
    h("label", { for: "join-input", class: "section-title" }, t("home.join")),
    h("div", { class: "join-row" }, joinInput, h("button", { type: "submit", class: "btn btn-secondary", testid: "join" }, t("home.join_button"))),
  );
}

/**
 * A button per game to start a table (the server's list; offline: a note).
 * @param {HTMLElement} gameButtons
 * @returns {Promise<void>}
 */
async function showGames(gameButtons) {
  try {
    const games = await api.listGames();
    gameButtons.replaceChildren(
      ...games.map((g) => {
        const ready = hasClient(g.name);
        return h(
          "button",
          {
            type: "button",
            class: "btn btn-primary btn-big game-button",
            testid: `new-table-${g.name}`,
            disabled: !ready,
            onclick: () => navigate(`/new/${g.name}`),
          },
          h("span", { class: "game-title" }, g.title),
          h(
            "span",
            { class: "game-meta" },
            ready ? t("home.players_range", { min: g.min_players, max: g.max_players }) : t("home.coming_soon"),
          ),
        );
      }),
    );
  } catch (err) {
    gameButtons.replaceChildren(
      h("p", { class: "muted" }, err instanceof api.OfflineError ? t("offline.no_games") : t("error.generic")),
    );
  }
}
