// "Winner and price": record a whole auction in one confirm — the winner's bid and everyone else's
// pass (MG-4) go in as ONE `auction` entry (issue 33): the referee checks every step before it takes
// any, so a refused bid never leaves the card's auction half-recorded, and one undo takes it back.
// The plan is simulated here for the confirm text and is the entry's steps.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { openSheet } from "../../ui/sheet.js";
import { explorerName, playerName } from "./common.js";
import { numberPad, seatChips } from "./inputs.js";

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */
/** @typedef {Schemas["MagellanTable"]} MagellanTable */
/** @typedef {Schemas["MagellanView"]} MagellanView */
/** @typedef {Schemas["MagellanAuctionStep"]} AuctionEvent */
/** @typedef {Schemas["MagellanCard"]} Card */
/**
 * What is tapped in: the winner (undefined: not yet; null: nobody), the price, the digits typed.
 * @typedef {{winner: number | null | undefined, price: number, typed: string}} QuickChoice
 */
/** The prices the winner may bid: above the high bid (MG-4), at most what the hand pays (MG-6; null: no cap known). */
/** @typedef {{min: number, max: number | null}} PriceRange */

/**
 * The bids and passes that make `winner` (null: nobody) win `card` for `price` (MG-4 turn order).
 * @param {Schemas["MagellanCard"]} card
 * @param {number | null} winner
 * @param {number} price
 * @returns {AuctionEvent[]}
 */
export function plan(card, winner, price) {
  const order = card.order;
  const passed = new Set(card.passed);
  let high = card.high_bid;
  let highBidder = card.high_bidder;
  let turn = card.turn;
  /** @type {AuctionEvent[]} */
  const events = [];
  for (let guard = 0; guard < 20 && turn !== null && turn !== undefined; guard++) {
    const active = order.filter((s) => !passed.has(s));
    if (!active.length || (highBidder !== null && active.length === 1 && active[0] === highBidder)) break;
    if (turn === winner && high < price) {
      events.push({ type: "bid", seat: turn, amount: price });
      high = price;
      highBidder = turn;
    } else {
      events.push({ type: "pass", seat: turn });
      passed.add(turn);
    }
    const still = order.filter((s) => !passed.has(s));
    if (!still.length) break;
    const from = order.indexOf(events[events.length - 1].seat);
    turn = null;
    for (let step = 1; step <= order.length; step++) {
      const seat = order[(from + step) % order.length];
      if (!passed.has(seat)) {
        turn = seat;
        break;
      }
    }
  }
  return events;
}

/**
 * @param {MagellanView} state
 * @param {AuctionEvent[]} events
 * @returns {string}
 */
function planText(state, events) {
  return events
    .map((e) => (e.type === "bid" ? t("magellan.sum.bid", { name: playerName(state, e.seat), amount: e.amount }) : t("magellan.sum.pass", { name: playerName(state, e.seat) })))
    .join(" ");
}

/**
 * @param {Card} card
 * @param {number | null | undefined} winner
 * @param {Schemas["MagellanBidAction"] | undefined} bidAction the bid the seat on turn may make
 * @returns {PriceRange}
 */
function priceRange(card, winner, bidAction) {
  return {
    min: winner === card.high_bidder ? card.high_bid : card.high_bid + 1,
    max: winner === card.turn ? bidAction?.max ?? null : null,
  };
}

/**
 * Is the price a bid the winner may make (MG-4: above the high bid; MG-6: what the hand pays)?
 * @param {Card} card
 * @param {QuickChoice} choice
 * @param {PriceRange} range
 * @returns {boolean}
 */
function priceOk(card, choice, range) {
  if (choice.winner === null || choice.winner === card.high_bidder) return true;
  return choice.price >= range.min && (range.max === null || choice.price <= range.max);
}

/**
 * The winner chips, and "nobody" while nobody has bid.
 * @param {MagellanView} state
 * @param {Card} card
 * @param {QuickChoice} choice
 * @param {(winner: number | null) => void} onPick
 * @returns {HTMLElement[]}
 */
function winnerChoice(state, card, choice, onPick) {
  const active = card.order.filter((s) => !card.passed.includes(s));
  /** @type {HTMLElement[]} */
  const parts = [
    h("p", { class: "small" }, t("magellan.quick.prompt", { explorer: explorerName(card.explorer) })),
    seatChips(state, active, choice.winner ?? null, onPick, { testPrefix: "mg-quick-winner" }),
  ];
  if (card.high_bidder === null) {
    parts.push(
      h(
        "button",
        {
          type: "button",
          class: ["choice", "mg-chip", "mg-chip-nobody", choice.winner === null && "is-selected"],
          testid: "mg-quick-nobody",
          "aria-pressed": String(choice.winner === null),
          onclick: () => onPick(null),
        },
        t("magellan.quick.nobody"),
      ),
    );
  }
  return parts;
}

/**
 * The price: fixed for the high bidder, else a pad starting at the minimum ("8, OK" records 8).
 * @param {Card} card
 * @param {QuickChoice} choice
 * @param {PriceRange} range
 * @param {() => void} onChange
 * @param {() => void} onOk
 * @returns {HTMLElement[]}
 */
function priceChoice(card, choice, range, onChange, onOk) {
  const fixed = choice.winner === card.high_bidder;
  return [
    h("p", { class: "small mg-quick-price-label" }, t("magellan.quick.price")),
    fixed
      ? h("p", { class: "mg-step-value", testid: "mg-quick-amount" }, String(card.high_bid))
      : numberPad({
          min: range.min,
          max: range.max,
          typed: choice.typed,
          onChange: (v, typed) => {
            choice.price = v;
            choice.typed = typed;
            onChange();
          },
          onOk, // Enter; the sheet's Record is the pad's OK
          testPrefix: "mg-quick",
          label: t("magellan.quick.price"),
          okButton: false,
        }),
  ];
}

/**
 * "Ann wins Columbus for 8" and the steps it is recorded as (none while the price is no bid).
 * @param {MagellanView} state
 * @param {Card} card
 * @param {QuickChoice} choice
 * @param {boolean} ok the price is a bid the winner may make
 * @returns {[string, string]}
 */
function summaryTexts(state, card, choice, ok) {
  const text = choice.winner === null || choice.winner === undefined
    ? t("magellan.quick.result_nobody", { explorer: explorerName(card.explorer) })
    : t("magellan.quick.result", { name: playerName(state, choice.winner), explorer: explorerName(card.explorer), price: choice.price });
  const steps = ok ? t("magellan.quick.recorded_as", { steps: planText(state, plan(card, choice.winner ?? null, choice.price)) }) : "";
  return [text, steps];
}

/**
 * @param {import("../registry.js").Controller} ctl
 * @returns {ReturnType<typeof openSheet> | undefined} the sheet (none outside an auction)
 */
export function openQuickEntry(ctl) {
  const table = /** @type {MagellanTable} */ (ctl.table); // opened from the Magellan bar
  const state = table.state;
  const card = state.card;
  if (!card || state.stage !== "auction") return;
  const startVersion = table.version;
  const historyLength = state.history.length;
  const bidAction = (table.legal_actions.actors || []).flatMap((a) => a.actions).find((a) => a.type === "bid");
  /** @type {QuickChoice} */
  const choice = { winner: undefined, price: card.high_bid + 1, typed: "" };
  let running = false;
  const range = () => priceRange(card, choice.winner, bidAction);
  const ok = () => priceOk(card, choice, range());

  // What the entry will say and be recorded as; redrawn alone while a price is typed.
  const summary = { text: h("p", { class: "preview-text", testid: "mg-quick-summary" }), steps: h("p", { class: "small muted", testid: "mg-quick-steps" }) };
  const showSummary = () => {
    if (choice.winner === undefined) return;
    [summary.text.textContent, summary.steps.textContent] = summaryTexts(state, card, choice, ok());
    if (confirmButton) confirmButton.disabled = running || !ok();
  };
  /** @param {number | null} seat */
  const pickWinner = (seat) => {
    choice.winner = seat;
    // A price typed for someone else stays when it is still a bid for this one (MG-4).
    if (seat !== null && (seat === card.high_bidder || Number(choice.typed) < range().min)) choice.typed = "";
    if (seat !== null) choice.price = choice.typed ? Number(choice.typed) : range().min;
    render();
  };
  const body = () => [
    ...winnerChoice(state, card, choice, pickWinner),
    ...(choice.winner !== undefined && choice.winner !== null ? priceChoice(card, choice, range(), showSummary, () => run()) : []),
    ...(choice.winner !== undefined ? [summary.text, summary.steps] : []),
  ];

  const sheet = openSheet({
    title: t("magellan.quick.title"),
    confirmLabel: t("magellan.quick.confirm"),
    testid: "mg-quick-sheet",
    onConfirm: run,
  });
  const confirmButton = /** @type {HTMLButtonElement | null} */ (document.querySelector('[data-testid="mg-quick-sheet"] [data-testid="confirm"]'));

  function render() {
    sheet.setBody(body());
    if (confirmButton) confirmButton.disabled = running || choice.winner === undefined;
    showSummary();
  }

  async function run() {
    if (running || choice.winner === undefined || !ok()) return;
    const current = /** @type {MagellanTable} */ (ctl.table);
    const c = current.state.card;
    // Another phone recorded meanwhile (a bid, a pass, the sale): this sheet's plan is not the table's.
    if (current.version !== startVersion || !c || current.state.stage !== "auction" || current.state.history.length !== historyLength) {
      sheet.close();
      return;
    }
    const steps = plan(c, choice.winner, choice.price);
    if (!steps.length) {
      sheet.close();
      return;
    }
    running = true;
    sheet.setBusy(true, { lock: true });
    // One entry, one Idempotency-Key: the whole auction or none of it (errors: the table view).
    await ctl.commitNow(/** @type {any} */ ({ type: "auction", steps }));
    running = false;
    sheet.close();
  }

  render();
  return sheet;
}
