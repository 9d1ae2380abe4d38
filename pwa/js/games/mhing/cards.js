// Mhing's 150 cards (MH-1) in MH-10 notation, their names in the user's language, card tiles, and
// the client-side checks the card picker needs (copies left, is three cards a group).
import { h } from "../../dom.js";
import { t } from "../../i18n.js";

export const SUITS = ["b", "c", "k"];
export const WINDS = ["we", "ws", "ww", "wn"];
export const DRAGONS = ["dr", "dg", "dw"];
export const HONOURS = [...WINDS, ...DRAGONS];
export const KINDS = [...SUITS.flatMap((s) => [1, 2, 3, 4, 5, 6, 7, 8, 9].map((r) => `${s}${r}`)), ...HONOURS];
export const FLOWERS = ["f1", "f2", "f3", "f4"];
export const JOKER = "jk";

export const HAND_SIZE = 14; // MH-5: flowers aside
export const MAX_GROUPS = 4;
export const COPIES = 4; // MH-1: four of each suit and honour card
export const FLOWER_COPIES = 2; // MH-1 Decision: four kinds of flower, two of each
export const FLOWER_TOTAL = 8;
export const JOKERS = 6;

const ORDER = [...KINDS, ...FLOWERS, JOKER];

/** @typedef {{joker?: boolean, testid?: string, onclick?: (e: MouseEvent) => unknown, label?: string, extraClass?: string, small?: boolean}} TileOptions */

/**
 * @param {string} card
 * @returns {boolean}
 */
export function isSuit(card) {
  return /^[bck][1-9]$/.test(card);
}
/**
 * @param {string} card
 * @returns {boolean}
 */
export function isWind(card) {
  return WINDS.includes(card);
}
/**
 * @param {string} card
 * @returns {boolean}
 */
export function isDragon(card) {
  return DRAGONS.includes(card);
}
/**
 * @param {string} card
 * @returns {boolean}
 */
export function isFlower(card) {
  return FLOWERS.includes(card);
}
/**
 * @param {string} card
 * @returns {string}
 */
export function suitOf(card) {
  return card[0];
}
/**
 * @param {string} card
 * @returns {number}
 */
export function rankOf(card) {
  return Number(card[1]);
}
/**
 * @param {string} card
 * @returns {number}
 */
export function sortKey(card) {
  return ORDER.indexOf(card);
}
/**
 * @param {string[]} cards
 * @returns {string[]}
 */
export function sortCards(cards) {
  return [...cards].sort((a, b) => sortKey(a) - sortKey(b));
}

/**
 * "Bamboo 3", "East wind", "Red dragon", "Flower", "Joker" — in the user's language.
 * @param {string} card
 * @returns {string}
 */
export function cardName(card) {
  if (card === JOKER) return t("mhing.card.joker");
  if (isFlower(card)) return t("mhing.card.flower_n", { n: card[1] });
  if (isSuit(card)) return t("mhing.card.suit_rank", { suit: t(`mhing.suit.${suitOf(card)}`), rank: rankOf(card) });
  return t(`mhing.card.${card}`);
}

/** Big and small text on a tile: ["3", "Bam"], ["E", "Wind"], ["R", "Dragon"], ["✿", "Flower"]. */
/**
 * What a tile shows: [big, small] ("1", "Bam").
 * @param {string} card
 * @returns {[string, string]}
 */
export function tileFace(card) {
  if (card === JOKER) return ["★", t("mhing.card.joker")];
  if (isFlower(card)) return ["✿", t("mhing.card.flower")];
  if (isSuit(card)) return [String(rankOf(card)), t(`mhing.suit_short.${suitOf(card)}`)];
  if (isWind(card)) return [t(`mhing.letter.${card}`), t("mhing.honour.wind")];
  return [card === "dw" ? "○" : "●", t(`mhing.dragon_short.${card}`)];
}

/**
 * @param {string} card
 * @returns {string}
 */
function tileClass(card) {
  if (card === JOKER) return "mh-joker";
  if (isFlower(card)) return "mh-flower";
  if (isSuit(card)) return `mh-suit-${suitOf(card)}`;
  return isWind(card) ? "mh-wind" : `mh-dragon mh-${card}`;
}

/**
 * A card tile. joker: the card is a joker standing for `card` (shown as that card, marked joker).
 * With onclick it is a button (e.g. tap to remove), else a span.
 * @param {string} card
 * @param {TileOptions} [options]
 * @returns {HTMLButtonElement | HTMLSpanElement}
 */
export function tile(card, { joker = false, testid, onclick, label, extraClass, small = false } = {}) {
  const [main, sub] = tileFace(card);
  const name = joker ? t("mhing.card.joker_as", { card: cardName(card) }) : cardName(card);
  const props = {
    class: ["mh-tile", tileClass(card), joker && card !== JOKER && "mh-as-joker", small && "mh-tile-small", extraClass],
    testid,
    title: name,
    "data-card": joker && card !== JOKER ? `jk=${card}` : card,
    "aria-label": label || name,
  };
  // A long caption ("BLANCO", "VIENTO") is set smaller so it fits a small tile whole (mhing.css).
  const long = sub.length >= 6 ? "mh-sub-6" : sub.length === 5 ? "mh-sub-5" : null;
  const children = [h("span", { class: "mh-tile-main", "aria-hidden": "true" }, main), " ", h("span", { class: ["mh-tile-sub", long], "aria-hidden": "true" }, sub)];
  // A button's name starts with what it shows ("1 Bam"), so voice control finds it by its face.
  if (onclick) return h("button", { type: "button", ...props, "aria-label": `${main} ${sub}: ${label || name}`, onclick }, ...children);
  return h("span", { ...props, role: "img" }, ...children);
}

/**
 * Tiles for MH-10 text: "b3 jk=b4 b5" → three tiles (the joker shown as b4, marked).
 * @param {string | null | undefined} notation
 * @param {TileOptions} [opts]
 * @returns {(HTMLButtonElement | HTMLSpanElement)[]}
 */
export function tilesFromNotation(notation, opts = {}) {
  return String(notation || "")
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((token) => (token.startsWith("jk=") ? tile(token.slice(3), { ...opts, joker: true }) : tile(token, opts)));
}

/**
 * Three cards (kinds) form a triplet or a sequence (MH-5)?
 * @param {string[]} cards
 * @returns {"triplet" | "sequence" | null}
 */
export function groupKind(cards) {
  if (cards.length !== 3) return null;
  if (cards.every((c) => c === cards[0])) return "triplet";
  if (!cards.every(isSuit)) return null;
  const suit = suitOf(cards[0]);
  if (!cards.every((c) => suitOf(c) === suit)) return null;
  const ranks = cards.map(rankOf).sort((a, b) => a - b);
  return ranks[1] === ranks[0] + 1 && ranks[2] === ranks[1] + 1 ? "sequence" : null;
}
