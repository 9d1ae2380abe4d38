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
 */
function planText(state, events) {
  return events
    .map((e) => (e.type === "bid" ? t("magellan.sum.bid", { name: playerName(state, e.seat), amount: e.amount }) : t("magellan.sum.pass", { name: playerName(state, e.seat) })))
    .join(" ");
}

/** @param {import("../registry.js").Controller} ctl */
export function openQuickEntry(ctl) {
  const table = /** @type {MagellanTable} */ (ctl.table); // opened from the Magellan bar
  const state = table.state;
  const card = state.card;
  if (!card || state.stage !== "auction") return;
  const startVersion = table.version;
  const historyLength = state.history.length;
  const active = card.order.filter((s) => !card.passed.includes(s));
  const bidAction = (table.legal_actions.actors || []).flatMap((a) => a.actions).find((a) => a.type === "bid");
  const choice = { winner: undefined, price: card.high_bid + 1, typed: "" };
  let running = false;

  function minPrice() {
    return choice.winner === card.high_bidder ? card.high_bid : card.high_bid + 1;
  }

  function maxPrice() {
    return choice.winner === card.turn ? bidAction?.max ?? null : null;
  }

  /** Is the price a bid the winner may make (MG-4: above the high bid; MG-6: what the hand pays)? */
  function priceOk() {
    if (choice.winner === null || choice.winner === card.high_bidder) return true;
    const max = maxPrice();
    return choice.price >= minPrice() && (max === null || choice.price <= max);
  }

  // What the entry will say and be recorded as; redrawn alone while a price is typed.
  const summary = { text: h("p", { class: "preview-text", testid: "mg-quick-summary" }), steps: h("p", { class: "small muted", testid: "mg-quick-steps" }) };
  function showSummary() {
    if (choice.winner === undefined) return;
    const events = plan(card, choice.winner, choice.price);
    summary.text.textContent = choice.winner === null
      ? t("magellan.quick.result_nobody", { explorer: explorerName(card.explorer) })
      : t("magellan.quick.result", { name: playerName(state, choice.winner), explorer: explorerName(card.explorer), price: choice.price });
    summary.steps.textContent = priceOk() ? t("magellan.quick.recorded_as", { steps: planText(state, events) }) : "";
    if (confirmButton) confirmButton.disabled = running || !priceOk();
  }

  function body() {
    const nobodyAllowed = card.high_bidder === null;
    /** @type {HTMLElement[]} */
    const parts = [
      h("p", { class: "small" }, t("magellan.quick.prompt", { explorer: explorerName(card.explorer) })),
      seatChips(state, active, choice.winner, (seat) => {
        choice.winner = seat;
        // A price typed for someone else stays when it is still a bid for this one (MG-4).
        if (seat === card.high_bidder || Number(choice.typed) < minPrice()) choice.typed = "";
        choice.price = choice.typed ? Number(choice.typed) : minPrice();
        render();
      }, { testPrefix: "mg-quick-winner" }),
    ];
    if (nobodyAllowed) {
      parts.push(
        h(
          "button",
          {
            type: "button",
            class: ["choice", "mg-chip", "mg-chip-nobody", choice.winner === null && "is-selected"],
            testid: "mg-quick-nobody",
            "aria-pressed": String(choice.winner === null),
            onclick: () => {
              choice.winner = null;
              render();
            },
          },
          t("magellan.quick.nobody"),
        ),
      );
    }
    if (choice.winner !== undefined && choice.winner !== null) {
      const fixed = choice.winner === card.high_bidder;
      parts.push(
        h("p", { class: "small mg-quick-price-label" }, t("magellan.quick.price")),
        fixed
          ? h("p", { class: "mg-step-value", testid: "mg-quick-amount" }, String(card.high_bid))
          : numberPad({
              // MG-4: above the high bid; the pad starts at the minimum, "8, OK" records a price of 8.
              min: minPrice(),
              max: maxPrice(),
              typed: choice.typed,
              onChange: (v, typed) => {
                choice.price = v;
                choice.typed = typed;
                showSummary();
              },
              onOk: () => run(), // Enter; the sheet's Record is the pad's OK
              testPrefix: "mg-quick",
              label: t("magellan.quick.price"),
              okButton: false,
            }),
      );
    }
    if (choice.winner !== undefined) parts.push(summary.text, summary.steps);
    return parts;
  }

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
    if (running || choice.winner === undefined || !priceOk()) return;
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
