// Words for the confirm sheet: what an event does, read from the preview table (or, where a
// preview would reveal the server's cards, from the event alone).
import { present } from "../../dom.js";
import { t, list } from "../../i18n.js";
import { ROMAN, crownsOf, explorerName, playerName, sum } from "./common.js";

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */
/** @typedef {Schemas["MagellanTable"]} MagellanTable */
/** @typedef {Schemas["MagellanView"]} MagellanView */

/**
 * @param {MagellanTable} before
 * @param {string} type
 * @returns {number | null}
 */
function actorOf(before, type) {
  for (const a of before.legal_actions.actors || []) if (a.actions.some((x) => x.type === type)) return a.seat;
  return null;
}

/**
 * The event itself in words (no outcome).
 * @param {MagellanTable} before
 * @param {Schemas["MagellanEvent"] | Schemas["UndoEvent"]} event
 * @returns {string}
 */
export function describeEvent(before, event) {
  const b = before.state;
  const seat = event.seat ?? actorOf(before, event.type);
  const name = seat === null || seat === undefined ? "" : playerName(b, seat);
  const card = b.card;
  switch (event.type) {
    case "reveal":
      return t("magellan.sum.reveal", { explorer: explorerName(event.explorer), phase: ROMAN[b.phase] });
    case "bid":
      return t("magellan.sum.bid", { name, amount: event.amount });
    case "pass":
      return t("magellan.sum.pass", { name });
    case "veto":
      return t("magellan.sum.veto", { name, explorer: explorerName(card?.explorer ?? "columbus") });
    case "pay":
      return t("magellan.sum.pay", { name, cards: event.cards.join(" + "), total: sum(event.cards) });
    case "vasco_part":
      return t(`magellan.sum.vasco_${event.part}`, { name });
    case "draw":
      return t("magellan.sum.draw", { name, cards: present(event.cards, "the cards drawn").join(", ") });
    case "slide":
      return t("magellan.sum.slide", { name, value: event.value });
    case "cook_pull": {
      const from = card?.winner ?? null;
      return event.value === undefined
        ? t("magellan.sum.cook_pull_digital", { name, from: playerName(b, from) })
        : t("magellan.sum.cook_pull", { name, from: playerName(b, from), value: event.value });
    }
    case "swap":
      return event.draw === undefined ? t("magellan.sum.swap_digital", { name, discard: event.discard }) : t("magellan.sum.swap", { name, discard: event.discard, draw: event.draw });
    case "end_swaps":
      return t("magellan.sum.end_swaps", { name });
    case "final_hand":
      return event.cards.length
        ? t("magellan.sum.final_hand", { name, cards: event.cards.join(", "), count: crownsOf(event.cards) })
        : t("magellan.sum.final_hand_empty", { name });
    case "final_hands":
      // Every hand at once (issue 33): each in the words of its own entry.
      return Object.entries(event.hands || {})
        .map(([s, cards]) => describeEvent(before, /** @type {any} */ ({ type: "final_hand", seat: Number(s), cards })))
        .join(" ");
    case "auction":
      // A whole auction at once (issue 33): each bid and pass in the words of its own entry.
      return (event.steps || []).map((step) => describeEvent(before, /** @type {any} */ (step))).join(" ");
    case "pizarro_draw":
      return event.value === undefined ? t("magellan.sum.pizarro_draw_digital", { name }) : t("magellan.sum.pizarro_draw", { name, value: event.value });
    case "pizarro_stop":
      return t("magellan.sum.pizarro_stop", { name, points: sum((seat === null ? undefined : b.players[seat])?.pizarro || []) });
    case "set_board_sheet":
      return t("magellan.sum.sheet");
    case "undo":
      return t("magellan.sum.undo");
    default:
      return "";
  }
}

/**
 * @param {MagellanView} state
 * @param {Schemas["MagellanSale"]} entry
 * @returns {string}
 */
function outcome(state, entry) {
  const explorer = explorerName(entry.explorer);
  if (entry.outcome === "sold") return t("magellan.sum.wins", { name: playerName(state, entry.seat), explorer, price: entry.price });
  if (entry.outcome === "vetoed") return t("magellan.sum.vetoed", { explorer });
  if (entry.outcome === "nobody-eligible") return t("magellan.sum.nobody_eligible", { explorer });
  return t("magellan.sum.no_bids", { explorer });
}

/**
 * @param {MagellanTable} before
 * @param {MagellanTable} after
 * @param {Schemas["MagellanEvent"] | Schemas["UndoEvent"]} event
 * @returns {string}
 */
export function describe(before, after, event) {
  const b = before.state;
  const a = after.state;
  const parts = [describeEvent(before, event)];
  for (const entry of a.history.slice(b.history.length)) parts.push(outcome(a, entry));
  if (event.type === "pizarro_draw") {
    const seat = event.seat ?? actorOf(before, event.type);
    const drawn = (seat === null ? undefined : a.players[seat])?.pizarro || [];
    const total = sum(drawn);
    parts.push(total > 20 ? t("magellan.sum.pizarro_bust", { total }) : t("magellan.sum.pizarro_total", { total }));
  }
  if (event.type === "slide") {
    const seat = event.seat ?? actorOf(before, event.type);
    const piles = (seat === null ? undefined : a.players[seat])?.magellan_piles || [];
    const pile = event.pile ?? (b.phase === 1 ? piles.length - 1 : piles.findIndex((p) => p.cards === b.phase));
    if (piles[pile]) parts.push(t("magellan.sum.pile_now", { n: pile + 1, count: piles[pile].cards }));
  }
  if (a.phase > b.phase) {
    const income = a.incomes?.[b.phase - 1]?.cards;
    parts.push(t("magellan.sum.phase_begins", { phase: ROMAN[a.phase] }));
    if (income) parts.push(t("magellan.sum.income", { list: income.map((n, s) => `${playerName(a, s)} ${n === null ? "?" : n}`).join(", ") }));
  }
  if (a.stage === "scoring" && b.stage !== "scoring") parts.push(t("magellan.sum.scoring"));
  if (after.finished && !before.finished) {
    const result = after.result || a.result;
    if (result) {
      const names = result.winners.map((s) => playerName(a, s));
      parts.push(names.length > 1 ? t("magellan.sum.shared", { names: list(names) }) : t("magellan.sum.winner", { name: names[0], count: result.ranking[0].score }));
    }
  } else if (after.legal_actions?.next && event.type !== "undo") {
    const next = after.legal_actions.next;
    const step = after.legal_actions.step;
    parts.push(t(`magellan.next.${step}`, { name: next.name }, t("magellan.next.other", { name: next.name })));
  }
  return parts.filter(Boolean).join(" ");
}
