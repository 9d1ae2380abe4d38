// Magellan (Tom Lehmann): explorers, fields, seat colours, rule links and the board-sheet slots
// (MG-1, MG-2) shared by the setup form, the table screen and the board-sheet form.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { decisionAnchor, rulesLink } from "../../ui/why.js";

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */
/** @typedef {Schemas["MagellanView"]} MagellanView */
/** @typedef {Schemas["MagellanRevealAction"]["explorers"][number]} Explorer */
/** One number of a board sheet: an explorer's field (and part, Vasco B), its bags or its crowns. */
/** @typedef {{explorer: Explorer, side: "A" | "B", field: number, part: "left" | "right" | null, what: "bags" | "crowns"}} Slot */

export const GAME = "magellan";
export const TITLE = "Magellan"; // the box title, in every language (the explorer is translated)
/** @type {Explorer[]} */
export const EXPLORERS = ["columbus", "pizarro", "magellan", "marco_polo", "vasco", "cook"];
/** @type {Record<number, "I" | "II" | "III">} */
export const ROMAN = { 1: "I", 2: "II", 3: "III" };
/** @type {("I" | "II" | "III")[]} */
export const FIELD_KEYS = ["I", "II", "III"];
export const MONEY_VALUES = [1, 2, 3, 4, 5, 6, 7, 8, 9];
/** @type {Record<number, number>} */
export const CARDS_PER_EXPLORER = { 1: 3, 2: 2, 3: 1 }; // MG-1
export const SHIPS = 6;
export const PIZARRO_LIMIT = 20; // MG-11

// Rules that carry a referee **Decision** on the rules page (see pwa/rules/index.json).
export const DECISIONS = new Set(["MG-1", "MG-2", "MG-4", "MG-5", "MG-7", "MG-8", "MG-12"]);

/**
 * Anchor for a rule: its Decision where it has one, else the rule itself.
 * @param {string} rule
 * @returns {string}
 */
export function ruleAnchor(rule) {
  return decisionAnchor(DECISIONS, rule);
}

/**
 * "why?" → rules/magellan.<lang>.html#decision-MG-5 (or #MG-8 where there is no Decision).
 * @param {string} rule
 * @param {string} [testid]
 * @returns {HTMLAnchorElement}
 */
export function whyLink(rule, testid) {
  return rulesLink(GAME, ruleAnchor(rule), testid || `why-${rule}`);
}

/**
 * @param {string | null | undefined} explorer
 * @returns {string}
 */
export function explorerName(explorer) {
  return t(`magellan.explorer.${explorer}`, {}, explorer ?? undefined);
}

/**
 * @param {MagellanView} state
 * @param {Explorer} explorer
 * @returns {"A" | "B"}
 */
export function sideOf(state, explorer) {
  return state?.options?.sides?.[explorer] || "A";
}

/**
 * @param {MagellanView} state
 * @param {number | null | undefined} seat
 * @returns {string}
 */
export function playerName(state, seat) {
  return (seat === null || seat === undefined ? undefined : state?.players?.[seat])?.name ?? "?";
}

/**
 * MG-1 Decision: crowns on a money card — 3 for 1–3, 2 for 4–6, 1 for 7–9.
 * @param {number[]} cards
 * @returns {number}
 */
export function crownsOf(cards) {
  return cards.reduce((sum, v) => sum + (v <= 3 ? 3 : v <= 6 ? 2 : 1), 0);
}

/**
 * @param {number[]} values
 * @returns {number}
 */
export function sum(values) {
  return values.reduce((a, b) => a + b, 0);
}

/**
 * A seat's colour dot with the name's initial (so colours are never the only cue).
 * @param {MagellanView} state
 * @param {number} seat
 * @param {{big?: boolean}} [options]
 * @returns {HTMLSpanElement}
 */
export function seatDot(state, seat, { big = false } = {}) {
  const name = playerName(state, seat);
  return h(
    "span",
    { class: ["mg-dot", `mg-seat-${seat}`, big && "mg-dot-big"], "aria-hidden": "true", "data-seat": seat },
    name.trim().charAt(0).toLocaleUpperCase() || String(seat + 1),
  );
}

/**
 * Name with its colour dot.
 * @param {MagellanView} state
 * @param {number} seat
 * @returns {HTMLSpanElement}
 */
export function who(state, seat) {
  return h("span", { class: "mg-who" }, seatDot(state, seat), h("span", {}, playerName(state, seat)));
}

// ---------- board sheet slots (MG-2) ----------

/** A URL through the page's import map (its content-hashed name, api/phone/static_build.py).
 * @param {string} url
 * @returns {string}
 */
const asset = (url) => (typeof import.meta.resolve === "function" ? import.meta.resolve(url) : new URL(url, import.meta.url).href);

/**
 * @typedef {{field: number, part: "left" | "right" | null, what: "bags" | "crowns", label: string, fixed: string | null}} FormEntry
 */

/**
 * The board sheet's entries as the rules write them (api/rules/magellan/sheet.py form_json, built
 * into /referee/magellan.json and precached): the phone keeps no copy of MG-2.
 * @type {Record<string, Record<string, FormEntry[]>>}
 */
const FORM = await fetch(asset("/referee/magellan.json")).then((answer) => {
  if (!answer.ok) throw new Error(`magellan rules: HTTP ${answer.status}`);
  return answer.json().then((tables) => tables.sheet);
});
/**
 * The rules' kind of crowns where a rule fixes them → the name the phone's texts use.
 * @type {Record<string, "magellan" | "vasco_left" | "pizarro_draw">}
 */
const FIXED_TEXT = { "slid-cards": "magellan", "right-part": "vasco_left", "pizarro-draw": "pizarro_draw" };

/**
 * @param {string} explorer
 * @param {string} side
 * @returns {FormEntry[]}
 */
const entries = (explorer, side) => FORM[explorer]?.[side] || [];

/**
 * The parts of a field on this side (["left", "right"] or [null]).
 * @param {string} explorer
 * @param {string} side
 * @returns {("left" | "right" | null)[]}
 */
export function partsOf(explorer, side) {
  return [...new Set(entries(explorer, side).map((entry) => entry.part))];
}

/**
 * Why a field's crowns are fixed by a rule (then never asked for), or null.
 * @param {string} explorer
 * @param {string} side
 * @param {number} field
 * @param {"left" | "right" | null | undefined} part
 * @returns {"magellan" | "vasco_left" | "pizarro_draw" | null}
 */
export function crownsFixed(explorer, side, field, part) {
  const entry = entries(explorer, side).find((e) => e.field === field && e.part === (part ?? null) && e.what === "crowns");
  if (!entry?.fixed) return null;
  const text = FIXED_TEXT[entry.fixed];
  if (!text) throw new Error(`magellan rules: unknown fixed crowns ${entry.fixed}`);
  return text;
}

/**
 * Every entry a game with these sides needs: all bags, and the crowns no rule fixes.
 * @param {Partial<Record<string, string>>} sides
 * @returns {Slot[]}
 */
export function neededSlots(sides) {
  return EXPLORERS.flatMap((explorer) => {
    const side = /** @type {"A" | "B"} */ (sides[explorer] || "A");
    return entries(explorer, side)
      .filter((entry) => !entry.fixed)
      .map(({ field, part, what }) => ({ explorer, side, field, part, what }));
  });
}

/**
 * The API's English label of a slot ("Vasco da Gama side B field II left part: bags").
 * @param {Slot} slot
 * @returns {string}
 */
export function slotLabel({ explorer, side, field, part, what }) {
  const entry = entries(explorer, side).find((e) => e.field === field && e.part === (part ?? null) && e.what === what);
  return entry?.label ?? `${explorer} ${side} ${field} ${part ?? ""} ${what}`;
}

/**
 * @param {Slot} slot
 * @returns {string}
 */
export function slotKey({ explorer, field, part, what }) {
  return [explorer, ROMAN[field], part, what].filter(Boolean).join("-");
}

/**
 * Translated label: "Vasco da Gama B · II left: bags".
 * @param {Slot} slot
 * @returns {string}
 */
export function slotText({ explorer, side, field, part, what }) {
  const where = `${explorerName(explorer)} ${side} · ${ROMAN[field]}${part ? ` ${t(`magellan.part.${part}`)}` : ""}`;
  return `${where}: ${t(`magellan.sheet.${what}`)}`;
}

/**
 * The object holding a slot's numbers in a sheet (made on the way when `create`).
 * @param {Record<string, any>} data a BoardSheet, walked by key
 * @param {Omit<Slot, "what"> | Slot} slot
 * @param {boolean} create
 * @returns {Record<string, any>}
 */
function leaf(data, { explorer, side, field, part }, create) {
  const root = data.explorers || (create ? (data.explorers = {}) : {});
  const e = root[explorer] || (create ? (root[explorer] = {}) : {});
  const s = e[side] || (create ? (e[side] = {}) : {});
  let f = s[ROMAN[field]] || (create ? (s[ROMAN[field]] = {}) : {});
  if (part) f = f[part] || (create ? (f[part] = {}) : {});
  return f;
}

/**
 * @param {Schemas["BoardSheet"] | null | undefined} data
 * @param {Slot} slot
 * @returns {number | null}
 */
export function getSlot(data, slot) {
  const value = leaf(data || {}, slot, false)[slot.what];
  return value === undefined ? null : value;
}

/**
 * @param {Schemas["BoardSheet"]} data
 * @param {Slot} slot
 * @param {number | null} value
 */
export function setSlot(data, slot, value) {
  leaf(data, slot, true)[slot.what] = value;
}

/**
 * @param {Schemas["BoardSheet"] | null | undefined} data
 * @param {Partial<Record<string, string>>} sides
 * @returns {Slot[]}
 */
export function missingSlots(data, sides) {
  return neededSlots(sides).filter((slot) => getSlot(data, slot) === null);
}

/**
 * Bags and crowns of one field (for the board), null where not entered.
 * @param {MagellanView} state
 * @param {Explorer} explorer
 * @param {number} field
 * @param {"left" | "right" | null} [part]
 * @returns {{bags: number | null, crowns: number | null, fixed: string | null}}
 */
export function fieldNumbers(state, explorer, field, part) {
  const side = sideOf(state, explorer);
  const slot = { explorer, side, field, part: part ?? null };
  const fixed = crownsFixed(explorer, side, field, part);
  return {
    bags: getSlot(state.board_sheet, { ...slot, what: "bags" }),
    crowns: fixed ? null : getSlot(state.board_sheet, { ...slot, what: "crowns" }),
    fixed,
  };
}

/**
 * @template T
 * @param {T} value
 * @returns {T}
 */
export function deepCopy(value) {
  return JSON.parse(JSON.stringify(value ?? null));
}

// Confirmed first: a secret card (a slide under Magellan A, cards drawn or swapped, a payment from
// the hand) and the end scoring (hands, the Pizarro draw); every other entry is one tap.
const CONFIRM_FIRST = new Set(["slide", "pay", "draw", "swap", "final_hand", "final_hands", "pizarro_draw", "pizarro_stop"]);

/**
 * @param {{type: string}} event
 * @returns {boolean}
 */
export function confirmFirst(event) {
  return CONFIRM_FIRST.has(event.type);
}
