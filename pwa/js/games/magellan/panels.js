// Information panels above the action bar: the card up and the decks, the players, the money at
// phase end (MG-9), the cards so far, and the board sheet's state (MG-2).
import { h, present } from "../../dom.js";
import { t, list } from "../../i18n.js";
import { panel } from "../../ui/panel.js";
import { powerOf } from "./powers.js";
import { EXPLORERS, ROMAN, explorerName, playerName, seatDot, sideOf, who, whyLink } from "./common.js";

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */
/** @typedef {Schemas["MagellanTable"]} MagellanTable */
/** @typedef {Schemas["MagellanView"]} MagellanView */

/** What an explorer card does on this side and field (MG-8), in a few words: the referee's powers
 * table decides whether and how much (draws, field); the catalog only words it.
 * @param {MagellanView} state
 * @param {import("./common.js").Explorer} explorer
 * @param {number} field
 * @returns {string}
 */
export function actionText(state, explorer, field) {
  const side = sideOf(state, explorer);
  const power = powerOf(explorer, side, field);
  if (!power) return t(`magellan.side_hint.${explorer}.${side}`); // never online yet: the side's hint
  if (!power.acts) return t("magellan.action.none");
  return t(`magellan.action.${explorer}.${side}`, { field: ROMAN[field], count: power.draws || power.draws_left });
}

/**
 * The card up (or what comes next) and the decks.
 * @param {MagellanTable} table
 * @returns {HTMLElement}
 */
export function cardPanel(table) {
  const state = table.state;
  const card = state.card;
  const deck = state.decks[state.phase - 1];
  /** @type {Record<number, number>} cards in each phase's deck (MG-1) */
  const cards = { 1: 18, 2: 12, 3: 6 };
  const total = present(cards[state.phase], "the phase's deck size");
  /** @type {HTMLElement[]} */
  const children = [];
  if (card && state.stage !== "finished") {
    const field = card.field;
    const move = state.phase === 1 ? t("magellan.card.place", { field: ROMAN[field] }) : t("magellan.card.move", { from: ROMAN[field - 1], to: ROMAN[field] });
    children.push(
      h(
        "div",
        { class: "mg-card-head" },
        h("span", { class: ["mg-card-face", `mg-explorer-${card.explorer}`] }, explorerName(card.explorer).charAt(0)),
        h(
          "div",
          { class: "mg-card-text" },
          h("strong", { class: "mg-card-name", testid: "mg-card-name" }, explorerName(card.explorer), " ", h("span", { class: "mg-side-badge" }, sideOf(state, card.explorer))),
          h("span", { class: "small" }, move),
          h("span", { class: "small muted" }, actionText(state, card.explorer, field)),
        ),
      ),
    );
    if (card.winner !== null && card.winner !== undefined) {
      children.push(h("p", { class: "mg-card-sold", testid: "mg-card-sold" }, who(state, card.winner), " ", t("magellan.card.won_for", { price: card.price })));
    }
  } else if (state.stage === "reveal") {
    children.push(h("p", { class: "mg-card-next" }, t("magellan.card.next", { phase: ROMAN[state.phase] })));
  } else if (state.stage === "phase_end") {
    children.push(h("p", { class: "mg-card-next" }, t("magellan.card.phase_end", { phase: ROMAN[state.phase] })));
  }
  const decks = h(
    "p",
    { class: "mg-decks small" },
    h("span", { class: "muted" }, t("magellan.decks")),
    ...state.decks.map((d) =>
      h(
        "span",
        { class: ["mg-deck", d.phase === state.phase && state.stage !== "finished" && "is-current"], testid: `mg-deck-${d.phase}`, "data-remaining": d.remaining, title: t("magellan.deck", { phase: ROMAN[d.phase], count: d.remaining }) },
        `${ROMAN[d.phase]}: ${d.remaining}`,
      ),
    ),
  );
  const comp = deck && deck.remaining > 0 && state.stage !== "finished" && state.stage !== "scoring"
    ? h(
        "p",
        { class: "mg-composition small muted", testid: "mg-composition" },
        t("magellan.left_in_deck", { phase: ROMAN[state.phase] }),
        " ",
        EXPLORERS.filter((e) => deck.composition[e]).map((e) => `${explorerName(e)} ${deck.composition[e]}`).join(" · ") || "–",
        deck.under_deck.length ? ` · ${t("magellan.under_deck", { cards: list(deck.under_deck.map(explorerName)) })}` : "",
      )
    : null;
  const played = total - (deck?.remaining ?? 0);
  const progress = state.stage !== "finished" && state.stage !== "scoring" ? h("span", { class: "muted small" }, ` · ${t("magellan.card_n_of", { n: Math.min(played, total), total })}`) : null;
  return panel(
    { title: [t("magellan.phase_title", { phase: ROMAN[state.phase] }), progress], class: "mg-card-panel", testid: "mg-card", "data-explorer": card?.explorer || "", "data-stage": state.stage },
    ...children,
    decks,
    comp,
  );
}

/**
 * Magellan piles as "[3, 5] [?, ?]" (a pile's cards are secret until slid open).
 * @param {Schemas["MagellanPile"][]} piles
 * @returns {string}
 */
function pilesText(piles) {
  return piles.map((p) => (p.slid ? `[${p.slid.join(", ")}]` : `[${"?".repeat(p.cards).split("").join(", ")}]`)).join(" ");
}

/**
 * @param {MagellanTable} table
 * @returns {HTMLElement}
 */
export function playersPanel(table) {
  const state = table.state;
  const ledger = state.options.depth === "ledger";
  return panel(
    { title: t("magellan.players") },
    h(
      "ul",
      { class: "mg-players", testid: "mg-players" },
      ...state.players.map((p) => {
        const meta = [t("magellan.ships_left", { count: p.ships_left }), t("magellan.won_cards", { count: p.won.length })];
        if (p.vetoes) meta.push(t("magellan.vetoes", { count: p.vetoes }));
        if (ledger && p.hand_size !== null) meta.push(t("magellan.hand_size", { count: p.hand_size }));
        if (p.magellan_piles.length) meta.push(`${explorerName("magellan")} ${pilesText(p.magellan_piles)}`);
        return h(
          "li",
          { class: ["mg-player", state.last_winner === p.seat && "is-last-winner"], testid: `mg-player-${p.seat}` },
          seatDot(state, p.seat, { big: true }),
          h(
            "div",
            { class: "mg-player-text" },
            h(
              "strong",
              {},
              p.name,
              state.options.auctioneer === p.seat ? h("span", { class: "muted small" }, ` · ${t("magellan.auctioneer")}`) : null,
              state.last_winner === p.seat ? h("span", { class: "muted small" }, ` · ${t("magellan.last_winner")}`) : null,
            ),
            h("span", { class: "small muted" }, meta.join(" · ")),
            p.open_hand && state.stage !== "scoring" && state.stage !== "finished"
              ? h("span", { class: "small" }, t("magellan.open_hand", { cards: p.open_hand.join(", ") || "–" }))
              : null,
          ),
        );
      }),
    ),
  );
}

/** MG-9: money cards per player at the end of each phase (2 + the bags of the ships there), swaps. */
/**
 * @param {MagellanTable} table
 * @returns {HTMLElement | null}
 */
export function phaseEndPanel(table) {
  const state = table.state;
  const incomes = state.incomes || [];
  const pe = state.phase_end;
  if (!incomes.length && !pe) return null;
  const head = h("tr", {}, h("th", { scope: "col" }, t("magellan.player")), ...incomes.map((i) => h("th", { scope: "col", class: "num" }, ROMAN[i.phase])));
  const rows = state.players.map((p) =>
    h(
      "tr",
      {},
      h("th", { scope: "row" }, seatDot(state, p.seat), " ", p.name),
      ...incomes.map((i) => h("td", { class: "num", testid: `mg-income-${i.phase}-${p.seat}` }, i.cards[p.seat] === null ? "?" : `+${i.cards[p.seat]}`)),
    ),
  );
  const extra = [];
  if (pe && pe.income && pe.due.some(Boolean)) {
    extra.push(h("p", { class: "small" }, t("magellan.phase_end.due", { list: state.players.filter((p) => pe.due[p.seat]).map((p) => `${p.name} ${pe.due[p.seat]}`).join(", ") })));
  }
  if (pe && pe.swaps.some(Boolean)) {
    extra.push(h("p", { class: "small", testid: "mg-swaps-left" }, t("magellan.phase_end.swaps", { list: state.players.filter((p) => pe.swaps[p.seat]).map((p) => `${p.name} ${pe.swaps[p.seat]}`).join(", ") }), " ", whyLink("MG-8", "why-swaps")));
  }
  if (incomes.some((i) => i.cards.some((c) => c === null))) extra.push(h("p", { class: "small muted" }, t("magellan.phase_end.unknown")));
  return panel(
    { title: [t("magellan.phase_end.title"), " ", whyLink("MG-9", "why-income")], testid: "mg-phase-end" },
    h("p", { class: "small muted" }, t("magellan.phase_end.hint")),
    incomes.length ? h("table", { class: "scoreboard mg-income" }, h("thead", {}, head), h("tbody", {}, ...rows)) : null,
    ...extra,
  );
}

/**
 * @param {MagellanView} state
 * @param {Schemas["MagellanSale"]} entry
 * @returns {string}
 */
function historyText(state, entry) {
  const name = explorerName(entry.explorer);
  if (entry.outcome === "sold") return t("magellan.history.sold", { explorer: name, name: playerName(state, entry.seat), price: entry.price });
  if (entry.outcome === "vetoed") return t("magellan.history.vetoed", { explorer: name, name: playerName(state, entry.seat) });
  if (entry.outcome === "nobody-eligible") return t("magellan.history.nobody_eligible", { explorer: name });
  return t("magellan.history.no_bids", { explorer: name });
}

/**
 * @param {MagellanTable} table
 * @returns {HTMLDetailsElement | null}
 */
export function historyPanel(table) {
  const state = table.state;
  if (!state.history.length) return null;
  return h(
    "details",
    { class: "panel mg-history", testid: "mg-history" },
    h("summary", { class: "section-title" }, t("magellan.history.title", { count: state.history.length })),
    h(
      "ol",
      { class: "mg-history-list", reversed: true },
      ...[...state.history].reverse().map((e) => h("li", {}, h("span", { class: "mg-history-phase" }, ROMAN[e.phase]), " ", historyText(state, e))),
    ),
  );
}

/** MG-2: is the board sheet complete for these sides? Button to type numbers in. */
/**
 * @param {MagellanTable} table
 * @param {{readOnly: boolean, onOpen: () => void}} options
 * @returns {HTMLElement}
 */
export function sheetPanel(table, { readOnly, onOpen }) {
  const state = table.state;
  const missing = state.board_sheet_missing || [];
  const now = state.board_sheet_needed_now || [];
  return panel(
    { title: [t("magellan.sheet.status_title"), " ", whyLink("MG-2", "why-sheet-status")], class: ["mg-sheet-status", now.length > 0 && "is-needed"], testid: "mg-sheet-status", "data-missing": missing.length },
    h("p", { class: "small" }, missing.length ? t("magellan.sheet.status_missing", { count: missing.length }) : t("magellan.sheet.status_complete")),
    now.length ? h("p", { class: "small mg-warning" }, t("magellan.sheet.status_now", { count: now.length })) : null,
    !readOnly && state.stage !== "finished"
      ? h("button", { type: "button", class: "btn btn-secondary", testid: "mg-sheet-open", onclick: onOpen }, missing.length ? t("magellan.sheet.enter") : t("magellan.sheet.edit"))
      : null,
  );
}
