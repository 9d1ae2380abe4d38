// Magellan's action bar (fixed at the bottom, under the thumb): who acts and why, the eligible
// bidders in order, referee notes with "why?" links, and the big buttons for whatever
// legal_actions allows now — reveal, bid/pass (a number pad from the minimum), quick "winner and price",
// Columbus veto, payment, Vasco part, draws, Magellan slide, Cook pull, Marco Polo swaps, the
// board-sheet block, final hands and the Pizarro draw.
import { h, present } from "../../dom.js";
import { t, noteText } from "../../i18n.js";
import { barHead, bigButton, notesList, prompt, viewOnlyHint } from "../../ui/action-bar.js";
import { panel } from "../../ui/panel.js";
import { shareSeatLink } from "../../ui/share.js";
import { EXPLORERS, ROMAN, TITLE, crownsOf, explorerName, neededSlots, playerName, seatDot, sideOf, slotLabel, slotText, sum, whyLink } from "./common.js";
import { moneyPad, numberPad, pickedCards, seatChips } from "./inputs.js";
import { finalHandBody, pizarroBody } from "./scoring.js";

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */
/** @typedef {Schemas["MagellanTable"]} MagellanTable */
/** @typedef {Schemas["MagellanView"]} MagellanView */
/** Each legal action by its type, with the seat of the actor who may take it. */
/** @typedef {{[K in Schemas["MagellanAction"] as K["type"]]?: (K & {seat: number})[]}} ActionsByType */
/** My own money cards for a pad (mine.js): the cards, or null where they are not known. */
/** @typedef {ReturnType<typeof import("./mine.js").handFor>} Hand */
/**
 * What the bar's bodies record through (screen.js): propose(event, opts), my seat and what only my
 * own phone knows, the quick entry, the one sheet for the hands and the board-sheet form.
 * @typedef {object} Env
 * @property {(event: Schemas["MagellanEvent"], opts?: import("../registry.js").ProposeOptions & {reveals?: boolean}) => unknown} propose
 * @property {number | null} seat my seat (from a player's own link), or null
 * @property {(seat: number) => Hand} handOf my cards when `seat` is me at a ledger table, else null
 * @property {(seat: number) => number | null} bidMaxOf my bid limit (MG-6) when `seat` is me, else null
 * @property {(seat: number) => {seat: number, name: string, url: string} | null} seatLinkOf
 * @property {() => void} quickEntry
 * @property {() => void} confirmHands
 * @property {(needNow?: string[]) => void} openSheetForm
 */
/**
 * The bar's local state for one table version (screen.js resets it when the version changes), and
 * set(patch), which changes it and redraws the bar.
 * @typedef {object} Ui
 * @property {number | null} version
 * @property {number | null} bid
 * @property {string} bidTyped
 * @property {Record<number, number[]>} hands end of game (MG-10): money cards typed per seat, not yet recorded
 * @property {number[]} kept the seats whose typed hand is done (listed in the one confirm sheet)
 * @property {number[]} picked
 * @property {number | null} seat
 * @property {number | null} pile
 * @property {number | null} discard
 * @property {boolean} [slideHere]
 * @property {(patch: Partial<Omit<Ui, "set">>) => void} set
 */
/** A body of the bar for one step of legal_actions. */
/** @typedef {(table: MagellanTable, ui: Ui, env: Env) => HTMLElement[]} StepBody */

/**
 * The one action of `type` that the step offers (by the rules there is one: the step is that action's).
 * @template T
 * @param {T[] | undefined} actions
 * @param {string} type
 * @returns {T}
 */
function only(actions, type) {
  return present(actions?.[0], `the ${type} action`);
}

/**
 * The card up for auction or just won (present in every step that names it).
 * @param {MagellanView} state
 * @returns {Schemas["MagellanCard"]}
 */
function cardUp(state) {
  return present(state.card, "the card up");
}

/**
 * @param {MagellanTable} table
 * @returns {ActionsByType}
 */
function actionsOf(table) {
  /** @type {Record<string, (Schemas["MagellanAction"] & {seat: number})[]>} */
  const map = {};
  for (const actor of table.legal_actions.actors || []) {
    for (const a of actor.actions) (map[a.type] ||= []).push({ ...a, seat: actor.seat });
  }
  return /** @type {ActionsByType} */ (map);
}

/**
 * MG-4: who opens the bidding and why (Decision: first eligible player clockwise).
 * @param {MagellanView} state
 * @returns {string}
 */
export function openerReason(state) {
  const card = cardUp(state);
  const starter = state.last_winner ?? state.options.auctioneer;
  const why = state.last_winner === null || state.last_winner === undefined ? t("magellan.opener.auctioneer") : t("magellan.opener.last_winner");
  if (card.order[0] === starter) return t("magellan.opener.plain", { name: playerName(state, starter), why });
  return t("magellan.opener.clockwise", { name: playerName(state, card.order[0]), starter: playerName(state, starter), why });
}

/**
 * The bidders in turn order: who passed, whose turn, the high bidder.
 * @param {MagellanView} state
 * @returns {HTMLElement}
 */
function bidders(state) {
  const card = cardUp(state);
  return h(
    "div",
    { class: "mg-bidders", testid: "mg-bidders" },
    h("span", { class: "mg-bidders-label muted small" }, t("magellan.bidders")),
    ...card.order.map((seat) => {
      const mine = card.bids.filter((b) => b.seat === seat);
      const last = mine[mine.length - 1];
      const passed = card.passed.includes(seat);
      const status = passed ? "passed" : card.turn === seat ? "turn" : card.high_bidder === seat ? "high" : "waiting";
      return h(
        "span",
        { class: ["mg-bidder", `is-${status}`], testid: `mg-bidder-${seat}`, "data-status": status, title: t(`magellan.bidder_status.${status}`) },
        seatDot(state, seat),
        h("span", { class: "mg-bidder-name" }, playerName(state, seat)),
        passed ? h("span", { class: "mg-bidder-bid" }, t("magellan.passed_short")) : last?.amount ? h("span", { class: "mg-bidder-bid" }, String(last.amount)) : null,
      );
    }),
  );
}

// ---------- notes ----------

const SHOWN_ELSEWHERE = new Set(["game-over"]);
// Notes about the decision in the bar; the rest are reminders of what happens at the table now.
const DECISION_NOTES = new Set(["who-may-bid", "cannot-afford", "stack-empty"]);

/**
 * Referee notes with "why?" links; where: "bar" (about the decision) or "table" (reminders).
 * @param {MagellanTable} table
 * @param {"bar" | "table"} [where]
 * @returns {HTMLElement | null}
 */
export function notes(table, where = "bar") {
  const step = table.legal_actions.step;
  // The phase III income matters while hands are counted, no longer during the Pizarro draw.
  const items = (table.legal_actions.notes || []).filter(
    (n) => !SHOWN_ELSEWHERE.has(n.code) && !(n.code === "income" && step === "pizarro") && DECISION_NOTES.has(n.code) === (where === "bar"),
  );
  const ul = notesList(items, {
    testid: where === "bar" ? "notes" : "mg-reminders",
    text: (n) => noteText(n),
    why: (n) => whyLink(present(n.rule, "a note's rule"), `why-note-${n.code}`),
  });
  if (!ul || where === "bar") return ul;
  return panel({ title: t("magellan.reminders"), class: "mg-reminders-panel" }, ul);
}

// ---------- the head: what the table waits for ----------

/**
 * What the table waits for, in words.
 * @param {MagellanTable} table
 * @returns {HTMLElement}
 */
function headline(table) {
  const state = table.state;
  const legal = table.legal_actions;
  const card = state.card;
  const next = legal.next;
  const name = next ? next.name : "";
  const parts = [];
  switch (legal.step) {
    case "reveal":
      parts.push(h("strong", {}, t("magellan.bar.reveal_title", { phase: ROMAN[state.phase] })));
      break;
    case "bid":
      parts.push(h("strong", {}, `${explorerName(cardUp(state).explorer)} · `, t("magellan.bar.to_bid", { name })));
      if (!cardUp(state).bids.length) parts.push(h("span", { class: "mg-reason", testid: "mg-opener" }, openerReason(state), " ", whyLink("MG-4", "why-opener")));
      break;
    case "pay":
    case "vasco_part":
    case "draw":
    case "slide":
    case "cook_pull":
      if (card?.winner !== null && card?.winner !== undefined) {
        parts.push(h("strong", {}, t("magellan.bar.won", { name: playerName(state, card.winner), explorer: explorerName(card.explorer), price: card.price })));
      }
      break;
    case "board_sheet":
      parts.push(h("strong", {}, t("magellan.bar.blocked_title")));
      break;
    case "income":
    case "swap":
      parts.push(h("strong", {}, t("magellan.bar.phase_end", { phase: ROMAN[state.phase] })));
      break;
    case "final_hand":
    case "pizarro":
      parts.push(h("strong", {}, t("magellan.bar.scoring")));
      break;
    default:
      parts.push(h("strong", {}, t("magellan.bar.game_over")));
  }
  return h("div", { class: "turn-info", testid: "mg-status", "data-step": legal.step, "data-seat": next ? next.seat : "" }, ...parts);
}

// ---------- bodies per step ----------

/**
 * @param {MagellanTable} table
 * @param {Env} env
 * @returns {HTMLElement[]}
 */
function revealBody(table, env) {
  const state = table.state;
  const a = only(actionsOf(table).reveal, "reveal");
  const deck = state.decks[state.phase - 1];
  return [
    prompt(t("magellan.bar.reveal", { name: playerName(state, a.seat), phase: ROMAN[state.phase] })),
    h(
      "div",
      { class: "mg-explorer-pad", testid: "mg-reveal-pad" },
      ...EXPLORERS.map((e) =>
        bigButton({
          testid: `mg-reveal-${e}`,
          label: explorerName(e),
          sub: t("magellan.in_deck", { count: deck.composition[e] || 0 }),
          kind: "die",
          disabled: !a.explorers.includes(e),
          onclick: () => env.propose({ type: "reveal", explorer: e }),
        }),
      ),
    ),
  ];
}

/**
 * @param {MagellanTable} table
 * @param {Ui} ui
 * @param {Env} env
 * @returns {HTMLElement[]}
 */
function bidBody(table, ui, env) {
  const state = table.state;
  const card = cardUp(state);
  const acts = actionsOf(table);
  const bid = acts.bid?.[0];
  const pass = acts.pass?.[0];
  const seat = pass ? pass.seat : present(card.turn, "the bidder on turn");
  /** @type {HTMLElement[]} */
  const body = [];
  const vetoes = acts.veto || [];
  if (vetoes.length) {
    // Columbus (MG-8): before the first bid any holder of an unused veto may send the card under the deck.
    body.push(
      h("p", { class: "small mg-veto-label" }, t("magellan.veto_prompt", { explorer: explorerName(card.explorer) }), " ", whyLink("MG-8", "why-veto")),
      h(
        "div",
        { class: "row mg-veto-row" },
        ...vetoes.map((veto) =>
          bigButton({
            testid: `mg-veto-${veto.seat}`,
            label: t("magellan.veto", { name: playerName(state, veto.seat) }),
            kind: "card",
            onclick: () => env.propose({ type: "veto", seat: veto.seat }),
          }),
        ),
      ),
    );
  }
  // Ledger: what a hand can pay is its owner's secret (MG-6); my own phone knows my limit.
  const ownMax = env.bidMaxOf ? env.bidMaxOf(seat) : null;
  const canBid = !!bid && !(ownMax !== null && ownMax < bid.min);
  body.push(prompt(canBid ? t("magellan.bar.bid_prompt", { name: playerName(state, seat), min: bid.min }) : t("magellan.bar.pass_only", { name: playerName(state, seat) })));
  if (bid && !canBid) {
    body.push(h("p", { class: "small muted", testid: "mg-cannot-afford" }, t("magellan.note.cannot_afford", { name: playerName(state, seat), min: bid.min, explorer: explorerName(card.explorer) }), " ", whyLink("MG-6", "why-cannot-afford")));
  }
  if (canBid) {
    // MG-4: higher than the high bid (at least 1); MG-6: my own phone knows what my hand can pay.
    // The pad starts at the minimum (OK bids it at once); a price of 8 is two taps: 8, OK.
    const max = bid.max ?? ownMax;
    body.push(
      numberPad({
        min: bid.min,
        max,
        typed: ui.bidTyped,
        onChange: (v, typed) => {
          ui.bid = v; // the pad draws itself: the bar stays as it is (and keeps the keyboard's focus)
          ui.bidTyped = typed;
        },
        onOk: (amount) => env.propose({ type: "bid", seat, amount }),
        testPrefix: "mg-bid",
        label: t("magellan.bid_amount"),
        okTestid: "mg-bid",
        okLabel: (v) => t("magellan.bid", { amount: v }),
        okSub: () => playerName(state, seat),
        compact: true,
      }),
    );
  }
  body.push(
    h(
      "div",
      { class: "row" },
      bigButton({ testid: "mg-pass", label: t("magellan.pass"), sub: playerName(state, seat), kind: "secondary", onclick: () => env.propose({ type: "pass", seat }) }),
      bigButton({ testid: "mg-quick", label: t("magellan.quick.button"), sub: t("magellan.quick.button_sub"), kind: "secondary", onclick: () => env.quickEntry() }),
    ),
  );
  return body;
}

/**
 * @param {MagellanTable} table
 * @param {Ui} ui
 * @param {Env} env
 * @returns {HTMLElement[]}
 */
function payBody(table, ui, env) {
  const state = table.state;
  const a = only(actionsOf(table).pay, "pay");
  const picked = ui.picked;
  const total = sum(picked);
  const name = playerName(state, a.seat);
  const open = state.players[a.seat].open_hand;
  const hand = env.handOf(a.seat); // my own cards, when I pay
  // A card that must stay in hand (MG-8): no more picks once only that many are left.
  const full = !!(hand?.cards && a.must_keep && picked.length >= hand.cards.length - a.must_keep);
  return [
    prompt(t("magellan.bar.pay", { name, price: a.at_least }), a.must_keep ? h("span", { class: "muted small" }, ` ${t("magellan.bar.must_keep")}`) : null, " ", whyLink("MG-6", "why-pay")),
    pickedCards(picked, (i) => ui.set({ picked: picked.filter((_, j) => j !== i) })),
    moneyPad({ onPick: (v) => ui.set({ picked: [...picked, v] }), values: (!hand && open) || undefined, hand, used: picked, locked: full }),
    bigButton({
      testid: "mg-pay",
      label: t("magellan.pay", { total }),
      sub: total < a.at_least ? t("magellan.pay_short", { missing: a.at_least - total }) : total > a.at_least ? t("magellan.overpay", { extra: total - a.at_least }) : null,
      disabled: total < a.at_least,
      onclick: () => env.propose({ type: "pay", seat: a.seat, cards: [...picked].sort((x, y) => x - y) }),
    }),
  ];
}

/**
 * @param {MagellanTable} table
 * @param {Env} env
 * @returns {HTMLElement[]}
 */
function vascoBody(table, env) {
  const state = table.state;
  const a = only(actionsOf(table).vasco_part, "vasco_part");
  const origins = new Set(a.options.map((o) => o.from_part));
  return [
    prompt(t("magellan.bar.vasco", { name: playerName(state, a.seat) }), " ", whyLink("MG-8", "why-vasco")),
    h(
      "div",
      { class: ["row", a.options.length > 2 && "mg-row-wrap"] },
      ...a.options.map((o) =>
        bigButton({
          testid: origins.size > 1 ? `mg-vasco-${o.part}-from-${o.from_part}` : `mg-vasco-${o.part}`,
          label: t(`magellan.vasco.${o.part}`),
          sub: [o.part === "left" ? t("magellan.vasco.draws", { count: o.draws || state.phase }) : t("magellan.vasco.crowns"), origins.size > 1 ? t("magellan.vasco.from", { part: t(`magellan.part.${o.from_part}`) }) : ""].filter(Boolean).join(" · "),
          kind: o.part === "left" ? "warning" : "primary",
          onclick: () => env.propose({ type: "vasco_part", seat: a.seat, part: o.part, ...(o.from_part ? { from_part: o.from_part } : {}) }),
        }),
      ),
    ),
  ];
}

/**
 * @param {MagellanTable} table
 * @param {any} ui
 * @param {Env} env
 * @param {{income: boolean}} options
 * @returns {HTMLElement[]}
 */
function drawBody(table, ui, env, { income }) {
  const state = table.state;
  const draws = actionsOf(table).draw || [];
  const seats = draws.map((d) => d.seat);
  if (ui.seat === null || !seats.includes(ui.seat)) ui.seat = seats[0];
  const a = present(draws.find((d) => d.seat === ui.seat), "the draw action");
  /** @type {number[]} */
  const picked = ui.picked;
  const name = playerName(state, a.seat);
  /** @type {HTMLElement[]} */
  const body = [];
  if (income && seats.length > 1) body.push(seatChips(state, seats, a.seat, (s) => ui.set({ seat: s, picked: [] }), { testPrefix: "mg-draw-seat" }));
  body.push(
    prompt(income ? t("magellan.bar.income", { name, count: a.count }) : t("magellan.bar.draw", { name, count: a.count }), " ", whyLink(income ? "MG-9" : "MG-8", "why-draw")),
    pickedCards(picked, (i) => ui.set({ picked: picked.filter((_, j) => j !== i) })),
    moneyPad({ onPick: (v) => picked.length < a.count && ui.set({ picked: [...picked, v] }) }),
    bigButton({
      testid: "mg-draw-save",
      label: t("magellan.draw_save", { count: picked.length, name }),
      sub: picked.length < a.count ? t("magellan.draw_left", { count: a.count - picked.length }) : null,
      disabled: !picked.length,
      onclick: () => env.propose({ type: "draw", seat: a.seat, cards: [...picked] }),
    }),
  );
  return body;
}

/**
 * MG-8, Magellan A: the card slid from the hand is secret. Where the hands are not kept (outcomes
 * depth) it is typed on the slider's own phone (their seat link), not on the shared one.
 */
/**
 * @param {MagellanTable} table
 * @param {Schemas["MagellanSlideAction"] & {seat: number}} a
 * @param {Env} env
 * @returns {boolean}
 */
function secretSlideElsewhere(table, a, env) {
  return table.state.options.depth !== "ledger" && !a.values && env.seat !== a.seat;
}

/**
 * @param {string} name
 * @param {number} seat
 * @param {Ui} ui
 * @param {Env} env
 * @returns {HTMLElement[]}
 */
function slideOnOwnPhone(name, seat, ui, env) {
  const link = env.seatLinkOf(seat);
  return [
    h("p", { class: "small", testid: "mg-slide-elsewhere" }, t("magellan.slide.own_phone", { name })),
    link
      ? bigButton({ testid: "mg-slide-send-link", label: t("magellan.slide.send_link", { name }), kind: "secondary", onclick: () => shareSeatLink({ name, url: link.url, gameTitle: TITLE }) })
      : null,
    h(
      "button",
      { type: "button", class: "btn btn-secondary", testid: "mg-slide-here", onclick: () => ui.set({ slideHere: true }) },
      t("magellan.slide.here", { name }),
    ),
  ].filter((el) => el !== null);
}

/**
 * @param {MagellanTable} table
 * @param {Ui} ui
 * @param {Env} env
 * @returns {HTMLElement[]}
 */
function slideBody(table, ui, env) {
  const state = table.state;
  const a = only(actionsOf(table).slide, "slide");
  const player = state.players[a.seat];
  const name = playerName(state, a.seat);
  const side = sideOf(state, "magellan");
  /** @type {HTMLElement[]} */
  const body = [prompt(t(side === "B" ? "magellan.bar.slide_b" : "magellan.bar.slide", { name }), " ", whyLink("MG-8", "why-slide"))];
  if (!a.new_pile && a.piles.length > 1) {
    if (ui.pile === null || !a.piles.includes(ui.pile)) ui.pile = a.piles[0];
    body.push(
      h(
        "div",
        { class: "mg-chips", role: "group" },
        ...a.piles.map((i) => {
          const pile = player.magellan_piles[i];
          return h(
            "button",
            { type: "button", class: ["choice", "mg-chip", ui.pile === i && "is-selected"], testid: `mg-pile-${i}`, "aria-pressed": String(ui.pile === i), onclick: () => ui.set({ pile: i }) },
            t("magellan.pile_choice", { n: i + 1, cards: pile?.slid ? pile.slid.join(", ") : String(pile?.cards ?? "") }),
          );
        }),
      ),
    );
  }
  if (secretSlideElsewhere(table, a, env) && !ui.slideHere) {
    body.push(...slideOnOwnPhone(name, a.seat, ui, env));
    return body;
  }
  const pile = a.new_pile ? undefined : a.piles.length > 1 ? ui.pile : a.piles[0];
  body.push(
    moneyPad({
      testPrefix: "mg-slide",
      values: a.values || undefined,
      hand: a.values ? null : env.handOf(a.seat), // from my hand (side A); side B slides from the payment
      sub: (v) => t("magellan.crowns_short", { count: crownsOf([v]) }),
      onPick: (value) => env.propose({ type: "slide", seat: a.seat, value, ...(pile !== undefined ? { pile } : {}) }),
    }),
  );
  return body;
}

/**
 * @param {MagellanTable} table
 * @param {Env} env
 * @returns {HTMLElement[]}
 */
function cookBody(table, env) {
  const state = table.state;
  const a = only(actionsOf(table).cook_pull, "cook_pull");
  const name = playerName(state, a.seat);
  const from = playerName(state, a.from_seat);
  if (!a.value_required) {
    return [
      prompt(t("magellan.bar.cook_digital", { name, from })),
      bigButton({ testid: "mg-cook-pull", label: t("magellan.cook_pull"), onclick: () => env.propose({ type: "cook_pull", seat: a.seat }, { reveals: true }) }),
    ];
  }
  return [
    prompt(t("magellan.bar.cook", { name, from }), " ", whyLink("MG-8", "why-cook")),
    moneyPad({ testPrefix: "mg-cook", onPick: (value) => env.propose({ type: "cook_pull", seat: a.seat, value }) }),
  ];
}

/**
 * @param {MagellanTable} table
 * @param {Ui} ui
 * @param {Env} env
 * @returns {HTMLElement[]}
 */
function swapBody(table, ui, env) {
  const state = table.state;
  const swaps = actionsOf(table).swap || [];
  const seats = swaps.map((s) => s.seat);
  if (ui.seat === null || !seats.includes(ui.seat)) ui.seat = env.seat !== null && seats.includes(env.seat) ? env.seat : seats[0];
  const a = present(swaps.find((s) => s.seat === ui.seat), "the swap action");
  const name = playerName(state, a.seat);
  /** @type {HTMLElement[]} */
  const body = [];
  if (seats.length > 1) body.push(seatChips(state, seats, a.seat, (s) => ui.set({ seat: s, discard: null }), { testPrefix: "mg-swap-seat" }));
  if (ui.discard === null || ui.discard === undefined) {
    body.push(
      prompt(t("magellan.bar.swap", { name, count: a.left }), " ", whyLink("MG-8", "why-swap")),
      moneyPad({
        testPrefix: "mg-swap-out",
        hand: env.handOf(a.seat),
        onPick: (v) => (a.draw_required ? ui.set({ discard: v }) : env.propose({ type: "swap", seat: a.seat, discard: v }, { reveals: true })),
      }),
    );
  } else {
    const discard = ui.discard;
    body.push(
      h(
        "div",
        { class: "prompt-row" },
        prompt(t("magellan.bar.swap_in", { name, discard })),
        h("button", { type: "button", class: "btn btn-link", testid: "mg-swap-back", onclick: () => ui.set({ discard: null }) }, t("common.back")),
      ),
      moneyPad({ testPrefix: "mg-swap-in", onPick: (v) => env.propose({ type: "swap", seat: a.seat, discard, draw: v }) }),
    );
  }
  body.push(bigButton({ testid: "mg-end-swaps", label: t("magellan.end_swaps", { name }), kind: "secondary", onclick: () => env.propose({ type: "end_swaps", seat: a.seat }) }));
  return body;
}

/**
 * @param {MagellanTable} table
 * @param {Env} env
 * @returns {HTMLElement[]}
 */
function blockedBody(table, env) {
  const state = table.state;
  const blocked = present(table.legal_actions.blocked, "what blocks the table");
  const byLabel = new Map(neededSlots(state.options.sides).map((slot) => [slotLabel(slot), slot]));
  const missing = blocked.missing || [];
  const shown = missing.slice(0, 4).map((label) => {
    const slot = byLabel.get(label);
    return slot ? slotText(slot) : label;
  });
  return [
    h(
      "div",
      { class: "mg-blocked", testid: "mg-blocked", "data-missing": missing.length },
      h("p", { class: "prompt" }, t(state.stage === "scoring" ? "magellan.blocked.scoring" : "magellan.blocked.income", { count: missing.length }), " ", whyLink(blocked.rule || "MG-2", "why-blocked")),
      h("ul", { class: "mg-missing-list small" }, ...shown.map((text) => h("li", {}, text)), missing.length > 4 ? h("li", { class: "muted" }, t("magellan.blocked.more", { count: missing.length - 4 })) : null),
    ),
    bigButton({ testid: "mg-sheet-fix", label: t("magellan.blocked.fix"), onclick: () => env.openSheetForm(missing) }),
  ];
}

// What the bar offers at each step of legal_actions: (table, ui, env) → nodes.
/** @type {Record<string, StepBody>} */
const STEP_BODIES = {
  reveal: (table, ui, env) => revealBody(table, env),
  bid: bidBody,
  pay: payBody,
  vasco_part: (table, ui, env) => vascoBody(table, env),
  draw: (table, ui, env) => drawBody(table, ui, env, { income: false }),
  income: (table, ui, env) => drawBody(table, ui, env, { income: true }),
  slide: slideBody,
  cook_pull: (table, ui, env) => cookBody(table, env),
  swap: swapBody,
  final_hand: finalHandBody,
  pizarro: (table, ui, env) => pizarroBody(table, env),
};

/**
 * The whole bar.
 * @param {MagellanTable} table
 * @param {import("../registry.js").Controller} ctl
 * @param {Ui} ui
 * @param {Env} env
 * @returns {HTMLElement}
 */
export function renderControls(table, ctl, ui, env) {
  const state = table.state;
  const legal = table.legal_actions;
  const head = barHead(table, ctl, t("magellan.undo"), headline(table));
  const extra = legal.step === "bid" ? bidders(state) : null;
  /** @type {HTMLElement[]} */
  let body = [];
  const ownSlide = legal.step === "slide" && actionsOf(table).slide?.[0]?.seat === ctl.seat;
  if (ctl.readOnly && !ownSlide) body = [viewOnlyHint()];
  else if (legal.blocked) body = blockedBody(table, env);
  else if (Object.hasOwn(STEP_BODIES, legal.step)) body = STEP_BODIES[legal.step](table, ui, env);
  return h(
    "div",
    { class: "actionbar mg-actionbar", testid: "actionbar", "data-step": legal.step },
    head,
    extra,
    notes(table),
    body.length ? h("div", { class: "bar-body" }, ...body) : null,
  );
}

