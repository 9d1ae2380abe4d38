// The bar over a table: its name (players and start time unless the players renamed it on this
// phone; a tap renames it), how long the game has run (to its last entry once it is over), "you
// are <name>" and "view only", the sync badge, and the log and share buttons.
import { h } from "../dom.js";
import { t, list, locale } from "../i18n.js";
import * as store from "../store.js";
import { openSheet } from "../ui/sheet.js";
import { needsSeatLinks, seatLink, shareTable } from "../ui/share.js";

/** @typedef {import("./table.js").TableState} TableState */

/**
 * @typedef {object} TableBar
 * @property {HTMLElement} element
 * @property {() => void} showSeat redraws "you are <name>" (my seat may have been dropped)
 * @property {() => void} showClock
 * @property {() => string} name the table's name as shown
 * @property {() => void} stop stops the clock
 */

/**
 * @param {TableState} st
 * @param {{badge: HTMLElement, onLog: () => void}} parts the sync badge; what the log button does
 * @returns {TableBar}
 */
export function tableBar(st, { badge, onLog }) {
  const seatHost = h("span", { class: "my-seat-host" });
  const viewOnlyBadge = st.readOnly ? h("span", { class: "badge badge-view", testid: "view-only" }, t("table.view_only")) : null;
  /** @type {HTMLButtonElement} */
  const nameButton = h("button", { type: "button", class: "table-name", testid: "table-name", title: t("table.rename"), onclick: () => rename(st, nameButton) });
  const clock = h("span", { class: "table-clock", testid: "table-clock", title: t("table.played"), "aria-label": t("table.played") });
  const share = () => shareTable(st.id, st.token, st.game.title, { seats: shareSeats(st) });
  const element = h(
    "div",
    { class: "table-bar" },
    nameButton,
    clock,
    seatHost,
    viewOnlyBadge,
    badge,
    h("button", { type: "button", class: "btn btn-small btn-secondary", testid: "open-log", onclick: onLog }, t("log.open")),
    h("button", { type: "button", class: "btn btn-small btn-secondary", testid: "share", onclick: share }, t("table.share")),
  );
  const showClock = () => drawClock(st.table, clock);
  const clockTimer = setInterval(showClock, 30_000);
  showName(st, nameButton);
  return {
    element,
    showSeat: () => drawSeat(st, seatHost, viewOnlyBadge),
    showClock,
    name: () => nameButton.textContent ?? "",
    stop: () => clearInterval(clockTimer),
  };
}

/**
 * "You are <name>" in the bar; on a seat link alone it stands for "view only" too (the bar says so).
 * @param {TableState} st
 * @param {HTMLElement} seatHost
 * @param {HTMLElement | null} viewOnlyBadge
 * @returns {void}
 */
function drawSeat(st, seatHost, viewOnlyBadge) {
  const name = st.mySeat ? st.table.players?.[st.mySeat.seat]?.name : null;
  const label = name ? t("seat.you_are", { name }) : "";
  const title = name && st.readOnly ? `${label} · ${t("table.view_only")}` : label;
  seatHost.replaceChildren(name ? h("span", { class: "badge badge-seat", testid: "my-seat", title }, label) : "");
  if (viewOnlyBadge) viewOnlyBadge.hidden = !!name;
}

/**
 * The players' own links this phone holds (the phone the table was made on), or null where the game
 * needs none.
 * @param {TableState} st
 * @returns {{seat: number, name: string, url: string}[] | null}
 */
export function shareSeats(st) {
  const table = st.table;
  if (!needsSeatLinks(table)) return null;
  return store.getSeatLinks(st.id).map(({ seat, token: seatToken }) => ({
    seat,
    name: table.players?.[seat]?.name ?? String(seat + 1),
    url: seatLink(st.id, seat, seatToken),
  }));
}

/**
 * The game, the players and the start time.
 * @param {TableState} st
 * @returns {string}
 */
function defaultName(st) {
  const table = st.table;
  const start = table.created_at ? new Intl.DateTimeFormat(locale(), { weekday: "short", hour: "2-digit", minute: "2-digit" }).format(new Date(table.created_at)) : "";
  return [st.game.title, list((table.players || []).map((p) => p.name)), start].filter(Boolean).join(" · ");
}

/** @param {TableState} st @param {HTMLElement} nameButton @returns {void} */
function showName(st, nameButton) {
  nameButton.textContent = store.tableName(st.id) || defaultName(st);
}

/**
 * How long the game has run: to now, or to its last entry once it is over.
 * @param {import("./table.js").Table} table
 * @param {HTMLElement} clock
 * @returns {void}
 */
function drawClock(table, clock) {
  if (!table.created_at) return;
  const end = table.finished && table.updated_at ? new Date(table.updated_at) : new Date();
  const minutes = Math.max(0, Math.floor((end.getTime() - new Date(table.created_at).getTime()) / 60000));
  clock.textContent = minutes < 60 ? t("table.minutes", { count: minutes }) : t("table.hours", { h: Math.floor(minutes / 60), m: String(minutes % 60).padStart(2, "0") });
  clock.dataset.minutes = String(minutes);
}

/** @param {TableState} st @param {HTMLElement} nameButton @returns {void} */
function rename(st, nameButton) {
  const input = h("input", { type: "text", class: "input", testid: "rename-input", maxlength: 60, value: nameButton.textContent, "aria-label": t("table.rename") });
  const sheet = openSheet({
    title: t("table.rename"),
    confirmLabel: t("table.rename_save"),
    testid: "rename-sheet",
    onConfirm: () => {
      store.setTableName(st.id, input.value.trim());
      showName(st, nameButton);
      sheet.close();
    },
  });
  sheet.setBody([input]);
  input.focus();
}
