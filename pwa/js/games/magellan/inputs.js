// Thumb-sized inputs: the money pad (values 1–9), the list of cards typed so far, a bid stepper
// and a row of seat chips.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { MONEY_VALUES, playerName, seatDot } from "./common.js";
import { countCards } from "./mine.js";

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */

/**
 * Nine money values; onPick(value). `values` limits the choice (e.g. a Magellan B payment).
 * hand ({cards, ready} from mine.js handFor): offer exactly these cards instead, each value once
 * with how many are left after `used` (the cards already picked); `locked` disables every key
 * (e.g. one card must stay in hand). Before the hand is known the nine keys wait, disabled.
 * @param {object} [options]
 * @param {(value: number) => unknown} [options.onPick]  (always given; optional only for the `= {}` default)
 * @param {number[]} [options.values]
 * @param {string} [options.testPrefix]
 * @param {(value: number) => string} [options.sub]  a second line under each key
 * @param {import("./mine.js").Hand | null} [options.hand]
 * @param {number[]} [options.used]
 * @param {boolean} [options.locked]
 */
export function moneyPad({ onPick, values = MONEY_VALUES, testPrefix = "mg-money", sub, hand = null, used = [], locked = false } = {}) {
  const allowed = new Set(values);
  const left = hand?.cards ? countCards(hand.cards) : null;
  if (left) for (const v of used) left.set(v, (left.get(v) || 0) - 1);
  const keys = left ? [...left.keys()].sort((a, b) => a - b) : MONEY_VALUES;
  const mine = !!hand;
  if (left && !keys.length) return h("p", { class: "muted small mg-pad-empty", testid: `${testPrefix}-pad` }, t("magellan.mine.empty"));
  return h(
    "div",
    { class: ["mg-pad", mine && "mg-pad-mine"], testid: `${testPrefix}-pad`, "data-mine": mine ? "true" : null, "data-ready": mine ? String(!!hand.ready) : null },
    ...keys.map((v) => {
      const count = left ? Math.max(0, left.get(v) || 0) : null;
      const disabled = !allowed.has(v) || (mine && (!hand.ready || locked || !count));
      return h(
        "button",
        {
          type: "button",
          class: "btn btn-die mg-pad-key",
          testid: `${testPrefix}-${v}`,
          "data-count": count === null ? null : count,
          "aria-label": count === null ? null : t("magellan.mine.card", { count, value: v }),
          disabled,
          onclick: () => onPick(v),
        },
        h("span", { class: "btn-label" }, String(v)),
        sub ? h("span", { class: "btn-sub" }, sub(v)) : null,
        count === null ? null : h("span", { class: "mg-pad-count", "aria-hidden": "true" }, `×${count}`),
      );
    }),
  );
}

/**
 * The cards typed so far as chips; tapping one takes it out again.
 * @param {number[]} picked
 * @param {(index: number) => void} onRemove
 * @param {{emptyText?: string}} [options]
 */
export function pickedCards(picked, onRemove, { emptyText } = {}) {
  return h(
    "div",
    { class: "mg-picked", testid: "mg-picked", "data-cards": picked.join(",") },
    picked.length
      ? picked.map((v, i) =>
          h(
            "button",
            { type: "button", class: "choice mg-chip mg-chip-card", testid: `mg-picked-${i}`, "aria-label": t("magellan.remove_card", { value: v }), onclick: () => onRemove(i) },
            String(v),
            h("span", { class: "mg-chip-x", "aria-hidden": "true" }, "×"),
          ),
        )
      : h("span", { class: "muted small" }, emptyText || t("magellan.no_cards_yet")),
  );
}

/**
 * [−] value [+]; onChange(next).
 * @param {{value: number, min: number, max: number | null, onChange: (next: number) => void, testPrefix: string, label?: string}} options
 */
export function stepper({ value, min, max, onChange, testPrefix, label }) {
  const minus = h("button", { type: "button", class: "btn btn-secondary mg-step", testid: `${testPrefix}-minus`, "aria-label": t("magellan.less"), disabled: value <= min, onclick: () => onChange(Math.max(min, value - 1)) }, "−");
  const plus = h("button", { type: "button", class: "btn btn-secondary mg-step", testid: `${testPrefix}-plus`, "aria-label": t("magellan.more"), disabled: max !== null && value >= max, onclick: () => onChange(max === null ? value + 1 : Math.min(max, value + 1)) }, "+");
  return h(
    "div",
    { class: "mg-stepper", role: "group", "aria-label": label || "" },
    minus,
    h("output", { class: "mg-step-value", testid: `${testPrefix}-amount`, "aria-live": "polite" }, String(value)),
    plus,
  );
}

/**
 * One chip per seat (pick whose entry this is); marks: seat → "done" | "waiting".
 * @param {Schemas["MagellanView"]} state
 * @param {number[]} seats
 * @param {number | null} selected
 * @param {(seat: number) => void} onPick
 * @param {{testPrefix?: string, marks?: Record<number, "done" | "waiting">}} [options]
 */
export function seatChips(state, seats, selected, onPick, { testPrefix = "mg-seat", marks = {} } = {}) {
  return h(
    "div",
    { class: "mg-chips", role: "group" },
    ...seats.map((seat) =>
      h(
        "button",
        {
          type: "button",
          class: ["choice", "mg-chip", "mg-chip-seat", seat === selected && "is-selected", marks[seat] && `is-${marks[seat]}`],
          testid: `${testPrefix}-${seat}`,
          "aria-pressed": String(seat === selected),
          onclick: () => onPick(seat),
        },
        seatDot(state, seat),
        h("span", {}, playerName(state, seat)),
        marks[seat] === "done" ? h("span", { class: "mg-check", "aria-label": t("magellan.entered") }, "✓") : null,
      ),
    ),
  );
}
