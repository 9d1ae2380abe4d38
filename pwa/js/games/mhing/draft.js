// The hand being tapped in: laid-out groups (jokers declared), hidden cards, flowers. Pure data and
// rules of thumb for the picker (MH-1 copies, MH-5 groups); the referee on the server has the last word.
import {
  KINDS,
  JOKER,
  FLOWERS,
  HAND_SIZE,
  MAX_GROUPS,
  COPIES,
  FLOWER_COPIES,
  FLOWER_TOTAL,
  JOKERS,
  isFlower,
  groupKind,
} from "./cards.js";

/** A card in the hand being entered: `joker` when a joker stands for `card` in a laid-out group. */
/** @typedef {{id: number, card: string, joker?: boolean}} DraftCard */
/** @typedef {{id: number, cards: DraftCard[]}} DraftGroup */
/**
 * The hand being tapped in. discarder: undefined = not asked yet, null = the last card came from the stack.
 * target: "hidden" or the index of the group being laid out; history: card ids in the order added.
 * @typedef {{winner: number | null, discarder: number | null | undefined, groups: DraftGroup[], hidden: DraftCard[],
 *   flowers: DraftCard[], target: "hidden" | number, jokerPending: boolean, history: number[]}} Draft
 */
/** A group that is not (yet) a triplet or sequence. */
/** @typedef {{index: number, code: "group-incomplete" | "not-a-group", have: number}} GroupProblem */

let nextId = 1;

// Every group a laid-out group can be (MH-5): 34 triplets and 21 sequences.
const BLOCKS = [
  ...KINDS.map((k) => [k, k, k]),
  ...["b", "c", "k"].flatMap((s) => [1, 2, 3, 4, 5, 6, 7].map((r) => [`${s}${r}`, `${s}${r + 1}`, `${s}${r + 2}`])),
];

/**
 * @param {string[]} block
 * @param {string[]} cards
 * @returns {boolean}
 */
function contains(block, cards) {
  const rest = [...block];
  for (const c of cards) {
    const i = rest.indexOf(c);
    if (i < 0) return false;
    rest.splice(i, 1);
  }
  return true;
}

/** @returns {Draft} */
export function newDraft() {
  return {
    winner: null,
    discarder: undefined, // undefined: not asked yet; null: the last card came from the stack
    groups: [], // [{id, cards: [{id, card, joker}]}]
    hidden: [], // [{id, card}] — jokers as "jk", never declared (MH-5)
    flowers: [], // [{id, card}]
    target: "hidden", // "hidden" or the index of the group being laid out
    jokerPending: false, // a joker was tapped for a group: the next card is what it stands for
    history: [], // ids in the order they were added (⌫ takes back the last)
  };
}

/** @param {Draft} d */
export function clearCards(d) {
  d.groups = [];
  d.hidden = [];
  d.flowers = [];
  d.target = "hidden";
  d.jokerPending = false;
  d.history = [];
}

/**
 * @param {Draft} d
 * @returns {boolean}
 */
export function isEmpty(d) {
  return !d.groups.length && !d.hidden.length && !d.flowers.length;
}

/**
 * Cards that count for going out (flowers aside): laid-out group cards + hidden cards.
 * @param {Draft} d
 * @returns {number}
 */
export function cardCount(d) {
  return d.groups.reduce((n, g) => n + g.cards.length, 0) + d.hidden.length;
}

/**
 * Physical copies in the hand (MH-1): a declared joker counts as a joker, not as its card.
 * @param {Draft} d
 * @returns {Record<string, number>}
 */
export function copies(d) {
  /** @type {Record<string, number>} */
  const count = {};
  /** @param {string} c */
  const add = (c) => (count[c] = (count[c] || 0) + 1);
  for (const g of d.groups) for (const e of g.cards) add(e.joker ? JOKER : e.card);
  for (const e of d.hidden) add(e.card);
  for (const e of d.flowers) add(e.card);
  return count;
}

/**
 * @param {Record<string, number>} count
 * @returns {number}
 */
function flowerTotal(count) {
  return FLOWERS.reduce((n, f) => n + (count[f] || 0), 0);
}

/**
 * @param {Draft} d
 * @returns {DraftGroup | null}
 */
export function activeGroup(d) {
  return typeof d.target === "number" ? d.groups[d.target] ?? null : null;
}

/**
 * Can `card` be tapped now? (Flowers go aside whatever the target is.)
 * @param {Draft} d
 * @param {string} card
 * @returns {boolean}
 */
export function canAdd(d, card) {
  const count = copies(d);
  if (isFlower(card) || card === "flower") return flowerTotal(count) < FLOWER_TOTAL;
  if (cardCount(d) >= HAND_SIZE) return false;
  const group = activeGroup(d);
  if (card === JOKER) {
    if ((count[JOKER] || 0) >= JOKERS) return false;
    return true;
  }
  if (group) {
    const kinds = group.cards.map((e) => e.card);
    if (!BLOCKS.some((b) => contains(b, [...kinds, card]))) return false;
    if (d.jokerPending) return true; // a joker may stand for any card, even a fifth copy (MH-5)
  }
  return (count[card] || 0) < COPIES;
}

/**
 * @param {DraftCard[]} list
 * @param {DraftCard} entry
 * @param {Draft} d
 */
function push(list, entry, d) {
  list.push(entry);
  d.history.push(entry.id);
}

/**
 * Tap on a card in the picker. Returns false when nothing happened.
 * @param {Draft} d
 * @param {string} card
 * @returns {boolean}
 */
export function add(d, card) {
  if (card === "flower") {
    const count = copies(d);
    const free = FLOWERS.find((f) => (count[f] || 0) < FLOWER_COPIES);
    if (!free || !canAdd(d, free)) return false;
    push(d.flowers, { id: nextId++, card: free }, d);
    return true;
  }
  if (!canAdd(d, card)) return false;
  const group = activeGroup(d);
  if (!group) {
    push(d.hidden, { id: nextId++, card }, d);
    return true;
  }
  if (card === JOKER) {
    d.jokerPending = !d.jokerPending;
    return true;
  }
  push(group.cards, { id: nextId++, card, joker: d.jokerPending }, d);
  d.jokerPending = false;
  if (group.cards.length === 3) d.target = "hidden";
  return true;
}

/**
 * Can a new group be laid out (at most four, MH-5)?
 * @param {Draft} d
 * @returns {boolean}
 */
export function canStartGroup(d) {
  return d.groups.length < MAX_GROUPS && cardCount(d) + 3 <= HAND_SIZE;
}

/**
 * Start laying out a new group and make it the target.
 * @param {Draft} d
 * @returns {boolean}
 */
export function startGroup(d) {
  if (!canStartGroup(d)) return false;
  d.groups.push({ id: nextId++, cards: [] });
  d.target = d.groups.length - 1;
  d.jokerPending = false;
  return true;
}

/**
 * Back to the hidden cards; an empty group is dropped.
 * @param {Draft} d
 */
export function toHidden(d) {
  const group = activeGroup(d);
  if (group && !group.cards.length) d.groups.splice(d.groups.indexOf(group), 1);
  d.target = "hidden";
  d.jokerPending = false;
}

/**
 * @param {Draft} d
 * @param {number} index
 */
export function selectGroup(d, index) {
  const group = d.groups[index];
  if (!group || group.cards.length >= 3) return;
  toHidden(d);
  d.target = d.groups.indexOf(group);
}

/**
 * Take one card out (by id), wherever it is.
 * @param {Draft} d
 * @param {number} id
 */
export function remove(d, id) {
  d.history = d.history.filter((x) => x !== id);
  d.hidden = d.hidden.filter((e) => e.id !== id);
  d.flowers = d.flowers.filter((e) => e.id !== id);
  const targetGroup = activeGroup(d);
  for (const g of d.groups) g.cards = g.cards.filter((e) => e.id !== id);
  const before = d.groups.length;
  d.groups = d.groups.filter((g) => g.cards.length || g === targetGroup);
  if (d.groups.length !== before) d.target = targetGroup ? d.groups.indexOf(targetGroup) : "hidden";
  if (typeof d.target === "number" && d.target < 0) d.target = "hidden";
  d.jokerPending = false;
}

/**
 * ⌫: a pending joker first, else the card added last.
 * @param {Draft} d
 * @returns {boolean}
 */
export function undoLast(d) {
  if (d.jokerPending) {
    d.jokerPending = false;
    return true;
  }
  const id = d.history[d.history.length - 1];
  if (id === undefined) {
    if (activeGroup(d)) toHidden(d);
    return false;
  }
  const inGroup = d.groups.findIndex((g) => g.cards.some((e) => e.id === id));
  remove(d, id);
  if (inGroup >= 0 && d.groups[inGroup]) d.target = inGroup; // keep building that group
  return true;
}

/**
 * @param {DraftGroup} g
 * @returns {string}
 */
export function groupNotation(g) {
  return g.cards.map((e) => (e.joker ? `jk=${e.card}` : e.card)).join(" ");
}

/**
 * Groups that are not (yet) a triplet or sequence.
 * @param {Draft} d
 * @returns {GroupProblem[]}
 */
export function groupProblems(d) {
  /** @type {GroupProblem[]} */
  const out = [];
  d.groups.forEach((g, index) => {
    if (g.cards.length < 3) out.push({ index, code: "group-incomplete", have: g.cards.length });
    else if (!groupKind(g.cards.map((e) => e.card))) out.push({ index, code: "not-a-group", have: 3 });
  });
  return out;
}

/**
 * The hand for POST /api/mhing/score and the round_won event (complete groups only).
 * @param {Draft} d
 * @returns {{groups: string[], hidden: string, flowers: string}} a Hand as the API reads it
 */
export function toHand(d) {
  return {
    groups: d.groups.filter((g) => g.cards.length === 3).map(groupNotation),
    hidden: d.hidden.map((e) => e.card).join(" "),
    flowers: d.flowers.map((e) => e.card).join(" "),
  };
}

/**
 * A stable key of the hand (to drop answers for a hand that has changed since).
 * @param {Draft} d
 * @returns {string}
 */
export function handKey(d) {
  const hand = toHand(d);
  return JSON.stringify([hand.groups, [...d.hidden.map((e) => e.card)].sort(), hand.flowers.split(" ").sort(), d.discarder ?? null]);
}

/**
 * Hidden cards in display order (suits, honours, jokers) with their ids.
 * @param {Draft} d
 * @returns {DraftCard[]}
 */
export function hiddenSorted(d) {
  /** @param {string} c */
  const order = (c) => (c === JOKER ? 999 : KINDS.indexOf(c));
  return [...d.hidden].sort((a, b) => order(a.card) - order(b.card) || a.id - b.id);
}
