// My own cards at a ledger table (MG-3), for the phone opened with a player's own link: the
// "My cards" panel, and the hand the pay / slide / swap pads offer when I am the one acting.
// The hand comes from the seat's private view (GET …/seats/<seat>), which the table view keeps
// fresh with the table's version (ctl.mine).
import { h, present } from "../../dom.js";
import { t } from "../../i18n.js";
import { panel } from "../../ui/panel.js";
import { sum } from "./common.js";

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */
/** @typedef {Schemas["MagellanTable"]} MagellanTable */
/** The cards a pad offers: my hand (null before the first answer), and whether it is this version's. */
/** @typedef {{cards: number[] | null, ready: boolean}} Hand */

/**
 * @param {MagellanTable} table
 * @returns {boolean}
 */
function isLedger(table) {
  return table.state.options.depth === "ledger";
}

/**
 * value → how many cards of it, for the values present.
 * @param {number[]} cards
 * @returns {Map<number, number>}
 */
export function countCards(cards) {
  const counts = new Map();
  for (const v of cards) counts.set(v, (counts.get(v) || 0) + 1);
  return counts;
}

/**
 * The cards a pad offers when `seat` acts: my hand, when I am that seat at a ledger table.
 * → null (not me, seat unknown, or the hand could not be fetched: the usual pad), or
 * {cards, ready}: cards is my hand (null before the first answer); ready is false while the hand
 * for this table version is still on its way (the keys wait, disabled).
 * @param {MagellanTable} table
 * @param {import("../registry.js").Controller} ctl
 * @param {number} seat
 * @returns {Hand | null}
 */
export function handFor(table, ctl, seat) {
  const mine = ctl.mine;
  if (!mine || mine.seat !== seat || !isLedger(table) || mine.status === "failed") return null;
  const view = /** @type {Schemas["MagellanPrivateView"] | null} */ (mine.view); // a Magellan seat's own view
  const cards = Array.isArray(view?.hand) ? view.hand : null;
  if (!cards && mine.status === "fresh") return null; // this seat has no hand to show
  return { cards, ready: !!cards && mine.status === "fresh" && mine.version === table.version };
}

/**
 * One money card: its value big, how many I hold in the corner.
 * @param {number} value
 * @param {number} count
 * @returns {HTMLSpanElement}
 */
function moneyCard(value, count) {
  return h(
    "span",
    { class: "mg-money-card", testid: `my-card-${value}`, "data-count": count, role: "listitem", "aria-label": t("magellan.mine.card", { count, value }) },
    h("span", { class: "mg-money-value", "aria-hidden": "true" }, String(value)),
    h("span", { class: "mg-money-count", "aria-hidden": "true" }, `×${count}`),
  );
}

/**
 * "My cards": my hand as big money cards, the total, my Magellan piles (null when not my table's business).
 * @param {MagellanTable} table
 * @param {import("../registry.js").Controller} ctl
 * @returns {HTMLElement | null}
 */
export function minePanel(table, ctl) {
  const mine = ctl.mine;
  if (!mine || !isLedger(table)) return null;
  const view = /** @type {Schemas["MagellanPrivateView"] | null} */ (mine.view);
  const hand = Array.isArray(view?.hand) ? [...view.hand].sort((a, b) => a - b) : null;
  const attrs = { class: "mg-mine", testid: "my-hand", "data-cards": hand ? hand.join(",") : "", "data-status": mine.status };
  const title = t("magellan.mine.title");
  if (!hand) {
    return panel({ title, ...attrs }, h("p", { class: "small muted" }, mine.status === "failed" ? t("magellan.mine.unavailable") : t("common.loading")));
  }
  const counts = countCards(hand);
  const held = present(view, "my hand's view"); // a hand was read from it just above
  const piles = held.magellan_piles || [];
  return panel(
    { title: [title, h("span", { class: "muted small mg-mine-sum", testid: "my-hand-summary" }, ` · ${t("magellan.mine.summary", { count: hand.length, total: sum(hand) })}`)], ...attrs },
    hand.length
      ? h("div", { class: "mg-money-cards", role: "list" }, ...[...counts].map(([value, count]) => moneyCard(value, count)))
      : h("p", { class: "small muted" }, t("magellan.mine.empty")),
    piles.length
      ? h("p", { class: "small mg-mine-piles", testid: "my-piles" }, t("magellan.mine.piles", { piles: piles.map((p) => `[${p.join(", ")}]`).join(" ") }))
      : null,
    held.hand_open ? h("p", { class: "small muted" }, t("magellan.mine.open")) : null,
    mine.status === "failed" ? h("p", { class: "small muted" }, t("magellan.mine.maybe_old")) : null,
  );
}
