// "#/new/<game>" (?group=<id>): the one setup of a table, from Home and from a group alike. The game's
// client renders its form with every option of the game; above it, when this phone may file games
// in a group, the group's players (one tap each, in seat order; last time's seats, colours and
// options already in place) and the group the table is filed in. Creating the table files it in
// the chosen group (offline too: it is filed once the table reaches the server) and hands the
// group's last table over to it, so the phones that sat there follow (groups/evening.js).
import { h } from "../dom.js";
import { t } from "../i18n.js";
import * as api from "../api.js";
import * as store from "../store.js";
import { navigate } from "../router.js";
import { loadGame } from "../games/registry.js";
import { setRulesGame } from "../ui/header.js";
import { panel } from "../ui/panel.js";
import { toast, toastError } from "../toast.js";
import { createOffline, LOCAL_PREFIX } from "../sync/session.js";
import { fileSoon, lastSeating, tablePlayers } from "../groups/filing.js";
import { adoptNext, handOver, handOverLater, lastTableOf, tableGroup } from "../groups/evening.js";

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */

/**
 * What the setup screen knows: the game, its rules as data, and the group the table goes to.
 * @typedef {object} SetupState
 * @property {HTMLElement} container
 * @property {string} gameName
 * @property {import("../games/registry.js").SetupContext["meta"]} meta
 * @property {import("../store.js").KnownGroup[]} groups the groups this phone may file games in
 * @property {string} groupId the chosen group ("" for none)
 * @property {Schemas["Group"] | null} group the chosen group as read
 * @property {Schemas["LastSeating"] | null} last this game's last seating in that group
 * @property {string | null} idempotencyKey the creation's key: the same while the form says the same
 * @property {string} lastBody the form as last sent (JSON)
 */

/**
 * The groups this phone may file games in (it holds their edit token; created on the server).
 * @returns {import("../store.js").KnownGroup[]}
 */
function fileableGroups() {
  return store.knownGroups().filter((g) => g.token && !g.id.startsWith(LOCAL_PREFIX));
}

/**
 * The group player in each seat, by the names at the table (as the group spells them); null when a
 * seat holds someone who is not one of the group's players (then the table cannot be filed).
 * @param {Schemas["Group"]} group
 * @param {{name: string}[]} players
 * @returns {string[] | null}
 */
export function seatsOf(group, players) {
  const ids = players.map((p) => group.players.find((g) => g.name.trim().toLocaleLowerCase() === p.name.trim().toLocaleLowerCase())?.id);
  return ids.every(Boolean) && new Set(ids).size === ids.length ? /** @type {string[]} */ (ids) : null;
}

/**
 * @param {HTMLElement} container
 * @param {import("../router.js").RouteContext} route
 * @returns {Promise<void>}
 */
export async function mountSetup(container, { params, query }) {
  const game = await loadGame(params.game);
  if (!game) {
    container.append(h("p", { class: "muted" }, t("error.unknown_game")), h("a", { href: "#/", class: "btn btn-secondary" }, t("common.back")));
    return;
  }
  const gameName = game.name;
  setRulesGame(game.name);
  /** @type {import("../games/registry.js").SetupContext["meta"]} */
  let meta = { name: game.name, title: game.title, min_players: 2, max_players: 7 };
  try {
    meta = (await api.listGames()).find((g) => g.name === game.name) || meta;
  } catch {
    /* offline: use the client's defaults; creating will report the problem */
  }

  // The group: the one the door named, read (offline from the service worker's copy) for its players.
  const groups = fileableGroups();
  const asked = query.get("group");
  let groupId = asked && groups.some((g) => g.id === asked) ? asked : "";
  const group = await readGroup(groupId);
  if (!group) groupId = "";
  const last = group ? lastSeating(group, gameName) : null;
  /** @type {SetupState} */
  const st = { container, gameName, meta, groups, groupId, group, last, idempotencyKey: null, lastBody: "" };

  const form = /** @type {import("../games/registry.js").SetupHandle | undefined} */ (
    await game.mountSetup(container, { meta, create: (body) => create(st, body), initial: last ? { options: last.options } : undefined })
  );
  if (form?.setPlayers && groups.length) {
    const title = container.querySelector(".setup-form .page-title");
    title?.after(groupPanel(st, form));
  }
}

/**
 * A group as the server (offline: the service worker's copy) has it, or null.
 * @param {string} id
 * @returns {Promise<Schemas["Group"] | null>}
 */
async function readGroup(id) {
  if (!id) return null;
  try {
    return (await api.readGroup(id)).data;
  } catch {
    return null;
  }
}

/**
 * Called by the game's form with the POST /api/tables body.
 * @param {SetupState} st
 * @param {Schemas["CreateTable"]} body
 * @returns {Promise<boolean>} created (here or on the server)
 */
async function create(st, body) {
  const { group, meta } = st;
  const json = JSON.stringify(body);
  if (json !== st.lastBody || !st.idempotencyKey) {
    st.idempotencyKey = api.newIdempotencyKey(); // same form contents → same key on retry
    st.lastBody = json;
  }
  const idempotencyKey = st.idempotencyKey;
  const filing = group ? seatsOf(group, body.players) : null;
  if (group && !filing) toast(t("evening.not_filed", { group: group.name }), { kind: "error", timeout: 6000 });
  try {
    const created = await api.createTable(body, idempotencyKey);
    store.setToken(created.id, created.write_token);
    if (created.seats?.length) store.setSeatLinks(created.id, created.seats); // the players' own links
    store.rememberTable(created.table, meta.title);
    if (group && filing) {
      const before = lastTableOf(group.id);
      await fileSoon(group.id, created.id, created.write_token, filing).catch((err) => toastError(err, t("error.generic")));
      // The phones of the group's last table follow to this one (unless another phone was faster).
      const sat = tableGroup(before || "")?.seats || [];
      const next = await handOver(before, created, (seat) => (sat[seat] ? filing.indexOf(sat[seat]) : -1));
      if (next && next.table_id !== created.id) {
        navigate(adoptNext(next));
        return true;
      }
    }
    navigate(`/t/${encodeURIComponent(created.id)}`);
    return true;
  } catch (err) {
    if (err instanceof api.OfflineError) return startOffline(st, body, filing, idempotencyKey);
    toastError(err, t("error.generic"));
    return false;
  }
}

/**
 * No network: the phone's referee checks the setup and the table starts here (created later, and
 * filed in the group then).
 * @param {SetupState} st
 * @param {Schemas["CreateTable"]} body
 * @param {string[] | null} filing
 * @param {string} idempotencyKey
 * @returns {Promise<boolean>}
 */
async function startOffline(st, body, filing, idempotencyKey) {
  const group = st.group;
  try {
    const id = await createOffline(body, idempotencyKey);
    store.rememberTable({ id, game: body.game, players: body.players, finished: false }, st.meta.title);
    if (group && filing) {
      const before = lastTableOf(group.id);
      const sat = tableGroup(before || "")?.seats || [];
      await fileSoon(group.id, id, null, filing);
      handOverLater(id, before, sat.map((player) => filing.indexOf(player)));
    }
    toast(t("sync.created_offline"));
    navigate(`/t/${encodeURIComponent(id)}`);
    return true;
  } catch (err) {
    toastError(err, t("offline.not_sent"));
    return false;
  }
}

/**
 * Who sits where at first: this game's last seats in the group, else the players of the group's
 * table this phone just left (a new game of another kind for the same people), as many as fit.
 * @param {Schemas["Group"] | null} of
 * @param {{seats: string[]} | null} before
 * @param {number} min
 * @param {number} max
 * @returns {string[]}
 */
function firstSeats(of, before, min, max) {
  if (!of) return [];
  const known = new Set(of.players.map((p) => p.id));
  const previous = tableGroup(lastTableOf(of.id) || "");
  const chosen = (before?.seats || (previous?.group === of.id ? previous.seats : [])).filter((s) => known.has(s));
  return chosen.length >= min ? chosen.slice(0, max) : before ? chosen : [];
}

/**
 * The group's players as chips (one tap each, in seat order) and the group the table goes to.
 * @param {SetupState} st
 * @param {import("../games/registry.js").SetupHandle} form
 * @returns {HTMLElement}
 */
function groupPanel(st, form) {
  const { meta, groups, gameName } = st;
  const min = meta.min_players || 2;
  const max = meta.max_players || 7;
  const select = h(
    "select",
    { id: "setup-group", class: "input", testid: "setup-group" },
    h("option", { value: "" }, t("evening.no_group")),
    groups.map((g) => h("option", { value: g.id, selected: g.id === st.groupId }, g.name)),
  );
  const chips = h("div", { class: "group-chips", role: "group", "aria-label": t("group.who_plays") });
  const order = h("ol", { class: "group-seats", testid: "group-seats" });
  const hint = h("p", { class: "muted small", testid: "seating-hint" });
  const body = h("div", { testid: "group-seating" });
  /** @type {string[]} */
  let seats = firstSeats(st.group, st.last, min, max);
  let remembered = seats.length > 0;

  /** The game's form gets the chosen players, seat by seat. @returns {void} */
  function fill() {
    if (!st.group) return;
    form.setPlayers(tablePlayers(st.group, gameName, seats));
  }
  /** @returns {void} */
  function render() {
    const group = st.group;
    body.hidden = !group;
    if (!group) return;
    chips.replaceChildren(
      ...group.players.map((p, i) => {
        const seat = seats.indexOf(p.id);
        return h(
          "button",
          {
            type: "button",
            class: "chip",
            testid: `pick-player-${i}`,
            "aria-pressed": String(seat >= 0),
            onclick: () => {
              seats = seat >= 0 ? seats.filter((s) => s !== p.id) : [...seats, p.id];
              remembered = false;
              fill();
              render();
            },
          },
          p.emoji ? h("span", { class: "chip-emoji", "aria-hidden": "true" }, p.emoji) : null,
          p.name,
          seat >= 0 ? h("span", { class: "chip-seat" }, ` ${seat + 1}`) : null,
        );
      }),
    );
    order.replaceChildren(...seats.map((s) => h("li", {}, group.players.find((p) => p.id === s)?.name || "")));
    const fits = seats.length >= min && seats.length <= max;
    hint.textContent = fits ? (remembered ? t("group.seats_remembered") : "") : t("home.players_range", { min, max });
  }
  select.addEventListener("change", async () => {
    st.groupId = select.value;
    st.group = await readGroup(st.groupId);
    seats = firstSeats(st.group, st.group ? lastSeating(st.group, gameName) : null, min, max);
    remembered = seats.length > 0;
    if (seats.length) fill();
    render();
  });
  body.append(h("p", { class: "muted small" }, t("group.tap_in_order")), chips, order, hint);
  if (seats.length) fill();
  render();
  return panel({ title: t("evening.group"), labelFor: "setup-group", testid: "setup-group-panel" }, select, body);
}
