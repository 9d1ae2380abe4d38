// Thumb-sized inputs: the money pad (values 1–9), the list of cards typed so far, the number pad
// for prices (digits, erase, OK) and a row of seat chips.
import { h, present } from "../../dom.js";
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
 * @returns {HTMLDivElement}
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
          onclick: () => present(onPick, "onPick")(v),
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
 * @returns {HTMLDivElement}
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

// ---------- the number pad (issue 26: a price of 8 is "8, OK", never seven taps on +) ----------

const DIGITS_MAX = 3; // no price or amount in Magellan reaches 1000

/** A pad's root, with the key handler the keyboard routing calls (true: the pad took the key). */
/** @typedef {HTMLDivElement & {padKey?: (key: string, target: EventTarget | null) => boolean}} PadElement */

/**
 * The pad the keyboard types into: with a sheet open only one in that sheet, else the bar's.
 * @returns {PadElement | null}
 */
function activePad() {
  const sheets = document.querySelectorAll(".sheet");
  const top = sheets[sheets.length - 1];
  return /** @type {PadElement | null} */ (top ? top.querySelector(".num-pad") : document.querySelector(".num-pad"));
}

let keyboardRouted = false;
/** Digits, Backspace and Enter from a keyboard reach the pad on screen (unless an input has focus). */
function routeKeyboard() {
  if (keyboardRouted) return;
  keyboardRouted = true;
  document.addEventListener("keydown", (e) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const target = e.target;
    if (target instanceof Element && target.closest("input, textarea, select, [contenteditable]")) return;
    const pad = activePad();
    if (pad && pad.padKey && pad.padKey(e.key, target)) e.preventDefault();
  });
}

/**
 * A number pad: digits 0–9, erase and OK, sized for one thumb and usable by keyboard (digits,
 * Backspace, Enter). Until a digit is typed the value is `start` (the minimum: OK at once bids it).
 * typed: the digits typed so far (kept across redraws by the caller through onChange(value, typed)).
 * onOk(value) runs on OK (disabled below min or above max). okTestid/okLabel(value)/okSub(value)
 * make OK a big labelled button (e.g. "Bid 8"); without okLabel it reads "OK". compact: no row of
 * its own for the value (the OK label shows it, e.g. "Bid 8"; a limit shows under it): the bar's
 * pad, under the thumb, stays low. okButton false: a sheet's own Confirm is the OK (Enter still
 * runs onOk), so a sheet shows no second confirm button.
 * @param {object} options
 * @param {number} options.min
 * @param {number | null} [options.max]
 * @param {number} [options.start]
 * @param {string} [options.typed]
 * @param {(value: number, typed: string) => void} [options.onChange]
 * @param {(value: number) => unknown} options.onOk
 * @param {string} options.testPrefix
 * @param {string} [options.label]
 * @param {string} [options.okTestid]
 * @param {(value: number) => string} [options.okLabel]
 * @param {(value: number) => string} [options.okSub]
 * @param {string} [options.okKind]
 * @param {boolean} [options.compact]
 * @param {boolean} [options.okButton]
 * @returns {PadElement}
 */
export function numberPad({ min, max = null, start = min, typed = "", onChange, onOk, testPrefix, label, okTestid, okLabel, okSub, okKind = "primary", compact = false, okButton = true }) {
  let digits = String(typed || "").replace(/\D/g, "").slice(0, DIGITS_MAX);
  const valueOf = () => (digits === "" ? start : Number(digits));
  const fits = (/** @type {number} */ v) => v >= min && (max === null || max === undefined || v <= max);
  const display = h("output", { class: "num-pad-value", testid: `${testPrefix}-amount`, "aria-live": "polite" });
  const hint = h("span", { class: "num-pad-hint small", testid: `${testPrefix}-hint` });
  const okText = h("span", { class: "btn-label" });
  const okSubText = h("span", { class: "btn-sub" });
  const ok = h(
    "button",
    { type: "button", class: ["btn", `btn-${okKind}`, "btn-big", "num-pad-ok"], testid: okTestid || `${testPrefix}-ok`, onclick: () => fits(valueOf()) && onOk(valueOf()) },
    okText,
    okSubText,
  );
  const erase = h("button", { type: "button", class: "btn btn-secondary num-pad-key num-pad-erase", testid: `${testPrefix}-erase`, "aria-label": t("magellan.pad.erase"), onclick: () => press("erase") }, "⌫");
  const key = (/** @type {number} */ d) => h("button", { type: "button", class: "btn btn-die num-pad-key", testid: `${testPrefix}-key-${d}`, onclick: () => press(String(d)) }, String(d));

  function show() {
    const v = valueOf();
    display.textContent = String(v);
    display.classList.toggle("is-typed", digits !== "");
    display.classList.toggle("is-out", !fits(v));
    ok.disabled = !fits(v);
    erase.disabled = digits === "";
    okText.textContent = okLabel ? okLabel(v) : t("magellan.pad.ok");
    hint.textContent = v < min ? t("magellan.pad.at_least", { min }) : max !== null && max !== undefined && v > max ? t("magellan.pad.at_most", { max }) : "";
    const sub = compact && hint.textContent ? hint.textContent : okSub ? okSub(v) : null;
    okSubText.textContent = sub || "";
    okSubText.hidden = !sub;
  }
  /** @param {string} what a digit or "erase" */
  function press(what) {
    if (what === "erase") digits = digits.slice(0, -1);
    else if (digits.length < DIGITS_MAX) digits = digits === "0" ? what : digits + what;
    show();
    if (onChange) onChange(valueOf(), digits);
  }
  const keys = [1, 2, 3, 4, 5, 6, 7, 8, 9, 0].map(key);
  /** @type {PadElement} */
  const root = h(
    "div",
    { class: "num-pad", role: "group", "aria-label": label || "", testid: `${testPrefix}-pad` },
    h("div", { class: ["num-pad-top", compact && "num-pad-sr"] }, display, hint),
    h("div", { class: "num-pad-keys" }, ...keys.slice(0, 5), erase, ...keys.slice(5)),
    okButton ? ok : null,
  );
  /** A key from the keyboard: true when the pad took it. */
  root.padKey = (k, target) => {
    if (/^[0-9]$/.test(k)) press(k);
    else if (k === "Backspace" || k === "Delete") press("erase");
    else if (k === "Enter") {
      if (target instanceof HTMLButtonElement || target instanceof HTMLAnchorElement) return false; // that button's own Enter
      if (fits(valueOf())) onOk(valueOf());
    } else return false;
    return true;
  };
  routeKeyboard();
  show();
  return root;
}

/**
 * One chip per seat (pick whose entry this is); marks: seat → "done" | "kept" (typed, not yet recorded) | "waiting".
 * @param {Schemas["MagellanView"]} state
 * @param {number[]} seats
 * @param {number | null} selected
 * @param {(seat: number) => void} onPick
 * @param {{testPrefix?: string, marks?: Record<number, "done" | "kept" | "waiting">}} [options]
 * @returns {HTMLDivElement}
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
        marks[seat] === "kept" ? h("span", { class: "mg-check mg-check-kept", "aria-label": t("magellan.hand.kept_mark") }, "✓") : null,
      ),
    ),
  );
}
