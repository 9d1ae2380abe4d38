// Entering the winner's hand: the hand so far (laid-out groups, hidden cards, flowers — tap a card
// to take it out), the live referee breakdown, and the card picker in the bar at the bottom.
// The picker is built once and updated in place, so a late answer from the server never swaps a
// button away under a finger.
import { h, present } from "../../dom.js";
import { t, codeText } from "../../i18n.js";
import { SUITS, WINDS, DRAGONS, JOKER, HAND_SIZE, tile, tileFace, cardName, groupKind } from "./cards.js";
import * as D from "./draft.js";
import { premiumsAndPoints, scoreView, waitsView, reasonText } from "./breakdown.js";
import { whyLink } from "./rules.js";
import { whoText } from "./controls.js";

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */
/** @typedef {import("./draft.js").Draft} Draft */
/** @typedef {import("./draft.js").DraftCard} DraftCard */
/** @typedef {import("./draft.js").DraftGroup} DraftGroup */
/** @typedef {import("./state.js").Live} Live */
/**
 * The entry screen's top part, redrawn piece by piece.
 * @typedef {object} HandView
 * @property {HTMLElement} el
 * @property {(table: Schemas["MhingTable"], d: Draft) => void} renderHead
 * @property {(d: Draft) => void} renderHand
 * @property {(d: Draft, s: Live) => void} renderLive
 */
/**
 * The card picker: built once, brought in line with the draft, the tab and the live answer.
 * @typedef {{el: HTMLElement, update: (d: Draft, ui: {tab: string, live: Live}) => void}} Picker
 */
/**
 * The picker's fixed parts.
 * @typedef {object} PickerParts
 * @property {HTMLElement} el
 * @property {HTMLElement} caption
 * @property {HTMLButtonElement[]} tabButtons
 * @property {HTMLButtonElement} backspace
 * @property {HTMLElement} grid
 * @property {HTMLButtonElement} groupButton
 * @property {HTMLButtonElement} flowerButton
 * @property {HTMLElement} recordSub
 * @property {HTMLButtonElement} recordButton
 */
/**
 * Taps on the hand being entered.
 * @typedef {object} HandActions
 * @property {() => void} changeWinner
 * @property {() => void} cancel
 * @property {(id: number) => void} remove
 * @property {(index: number) => void} selectGroup
 * @property {() => void} clear
 * @property {(card: string) => void} add
 */
/**
 * Taps on the card picker.
 * @typedef {object} PickActions
 * @property {(card: string) => void} add
 * @property {() => void} undoLast
 * @property {() => void} toggleGroup
 * @property {() => void} record
 * @property {(tab: string) => void} setTab
 */

/**
 * A card of the hand: tap it to take it out.
 * @param {DraftCard} e
 * @param {HandActions} act
 * @param {string} name the card's name as the label says it
 * @returns {HTMLButtonElement | HTMLSpanElement}
 */
function removableTile(e, act, name) {
  return tile(e.card, {
    joker: e.joker,
    testid: "hand-tile",
    extraClass: "mh-hand-tile",
    label: t("mhing.remove_card", { card: name }),
    onclick: () => act.remove(e.id),
  });
}

/**
 * One laid-out group: its number (tap to fill it), its cards and empty slots, and what it is so far.
 * @param {DraftGroup} g
 * @param {number} index
 * @param {Draft} d
 * @param {HandActions} act
 * @returns {HTMLDivElement}
 */
function groupRow(g, index, d, act) {
  const isTarget = d.target === index;
  const kind = g.cards.length === 3 ? groupKind(g.cards.map((e) => e.card)) : null;
  let status;
  if (g.cards.length < 3) status = isTarget && d.jokerPending ? t("mhing.joker_declare") : t("mhing.group_progress", { have: g.cards.length });
  else status = kind ? t(`mhing.kind.${kind}`) : t("mhing.not_a_group");
  /** @type {HTMLElement[]} */
  const tiles = g.cards.map((e) => removableTile(e, act, e.joker ? t("mhing.card.joker_as", { card: cardName(e.card) }) : cardName(e.card)));
  for (let i = g.cards.length; i < 3; i++) {
    tiles.push(h("span", { class: ["mh-slot", isTarget && i === g.cards.length && "is-next", isTarget && d.jokerPending && i === g.cards.length && "is-joker"], "aria-hidden": "true" }, isTarget && d.jokerPending && i === g.cards.length ? "★" : ""));
  }
  return h(
    "div",
    {
      class: ["mh-group-edit", isTarget && "is-target", g.cards.length === 3 && !kind && "is-bad"],
      testid: `group-${index}`,
      "data-notation": D.groupNotation(g),
      "data-kind": kind || "",
    },
    h(
      "button",
      {
        type: "button",
        class: "mh-group-label",
        disabled: g.cards.length >= 3 || isTarget,
        onclick: () => act.selectGroup(index),
        "aria-label": t("mhing.group_n", { n: index + 1 }),
      },
      h("span", { class: "mh-group-no" }, String(index + 1)),
    ),
    h("span", { class: "mh-group-tiles" }, ...tiles),
    h("span", { class: "mh-group-status small" }, status),
  );
}

/**
 * The hidden cards (tap one to take it out), or a hint while there are none.
 * @param {Draft} d
 * @param {HandActions} act
 * @returns {HTMLDivElement}
 */
function hiddenRow(d, act) {
  return h(
    "div",
    { class: ["mh-hand-row", d.target === "hidden" && "is-target"], testid: "hidden-cards", "data-cards": d.hidden.map((e) => e.card).join(" ") },
    h("p", { class: "mh-hand-label" }, t("mhing.hidden_cards", { count: d.hidden.length })),
    d.hidden.length
      ? h("div", { class: "mh-tiles" }, ...D.hiddenSorted(d).map((e) => removableTile(e, act, cardName(e.card))))
      : h("p", { class: "muted small" }, t("mhing.hidden_empty")),
  );
}

/**
 * The hand so far, row by row: laid-out groups, hidden cards, flowers, the count.
 * @param {Draft} d
 * @param {HandActions} act
 * @returns {HTMLElement[]}
 */
function handRows(d, act) {
  const count = D.cardCount(d);
  const rows = [];
  if (d.groups.length) {
    rows.push(
      h(
        "div",
        { class: "mh-hand-row", testid: "groups" },
        h("p", { class: "mh-hand-label" }, t("mhing.laid_out"), " ", whyLink("MH-5", "why-laid-out")),
        ...d.groups.map((g, i) => groupRow(g, i, d, act)),
      ),
    );
  }
  rows.push(hiddenRow(d, act));
  if (d.flowers.length) {
    rows.push(
      h(
        "div",
        { class: "mh-hand-row mh-hand-row-inline", testid: "flowers", "data-cards": d.flowers.map((e) => e.card).join(" ") },
        h("p", { class: "mh-hand-label" }, t("mhing.flowers", { count: d.flowers.length })),
        h("div", { class: "mh-tiles" }, ...d.flowers.map((e) => removableTile(e, act, cardName(e.card)))),
      ),
    );
  }
  rows.push(
    h(
      "div",
      { class: "mh-count-row" },
      h("p", { class: ["mh-count", count === HAND_SIZE && "is-full"], testid: "card-count", "data-count": count }, t("mhing.count_short", { count, total: HAND_SIZE })),
      D.isEmpty(d) ? null : h("button", { type: "button", class: "btn btn-link", testid: "clear-hand", onclick: act.clear }, t("mhing.clear")),
    ),
  );
  return rows;
}

/**
 * @param {string} text
 * @param {string} [cls]
 * @returns {HTMLHeadingElement}
 */
function title(text, cls) {
  return h("h2", { class: ["section-title", cls] }, text);
}

/**
 * The breakdown while there is no score to show: nothing entered, groups to finish, offline, a
 * refusal, or still checking — with the state it is in; null once there is a score.
 * @param {Live} s
 * @returns {[HTMLElement[], string] | null}
 */
function noScoreParts(s) {
  const reason = (/** @type {string} */ text) => h("p", { class: "mh-reason", testid: "breakdown-reason" }, text);
  if (s.status === "idle") {
    return [[title(t("mhing.breakdown")), h("p", { class: "muted small", testid: "breakdown-hint" }, t("mhing.entry_hint"), " ", whyLink("MH-5", "why-hint"))], "idle"];
  }
  if (s.status === "local") {
    const p = present(s.problems?.[0], "a group's problem");
    const text = p.code === "group-incomplete" ? t("mhing.finish_group", { n: p.index + 1, have: p.have }) : t("mhing.group_invalid", { n: p.index + 1 });
    return [[title(t("mhing.breakdown")), reason(text)], "local"];
  }
  if (s.status === "offline") return [[title(t("mhing.breakdown")), reason(t("mhing.offline_breakdown"))], "offline"];
  if (s.status === "error") {
    const pr = s.problem || {};
    const text = h(
      "p",
      { class: "mh-reason is-error", testid: "breakdown-reason", "data-code": pr.code || "" },
      codeText(`mhing.problem.${pr.code}`, {}, pr.detail || pr.title || t("error.generic")),
      pr.rule ? [" ", whyLink(pr.rule, "why-problem")] : null,
    );
    return [[title(t("mhing.breakdown")), text], "error"];
  }
  if (!s.score) return [[title(t("mhing.breakdown")), h("p", { class: "muted small" }, t("mhing.checking"))], "loading"];
  return null;
}

/** The rule a reason for not going out points to. */
/** @type {Record<string, string>} */
const REASON_RULES = { "no-reading": "MH-5", "nothing-fits-on-discard": "MH-3" };

/**
 * The referee's score: goes out (reading, premiums, total), or why not and — one card short — the waits.
 * @param {Schemas["ScoreResult"]} score
 * @param {Schemas["WaitsResult"] | null | undefined} waits
 * @param {HandActions} act
 * @returns {HTMLElement[]}
 */
function scoreParts(score, waits, act) {
  if (score.wins) return [title(t("mhing.goes_out"), "mh-goes-out"), present(scoreView(score), "a winning hand's breakdown")];
  const rule = score.reason_code ? REASON_RULES[score.reason_code] : undefined;
  const why = rule ? [" ", whyLink(rule, "why-reason")] : null;
  const parts = [title(t("mhing.breakdown")), h("p", { class: "mh-reason", testid: "breakdown-reason", "data-code": score.reason_code || "" }, reasonText(score), why)];
  const waitList = waits ? waitsView(waits, (card) => act.add(card)) : null;
  if (waitList) parts.push(waitList);
  return parts;
}

/**
 * The top part of the entry screen: who went out, the hand, the live breakdown.
 * @param {HandActions} act
 * @returns {HandView}
 */
export function createHandView(act) {
  const head = h("div", { class: "mh-entry-head" });
  const hand = h("div", { class: "mh-hand", testid: "hand" });
  const live = h("section", { class: "panel mh-live", testid: "breakdown", "aria-live": "polite" });
  const el = h("div", { class: "mh-entry" }, h("section", { class: "panel mh-entry-panel" }, head, hand), live);

  /**
   * @param {Schemas["MhingTable"]} table
   * @param {Draft} d
   */
  function renderHead(table, d) {
    head.replaceChildren(
      h(
        "p",
        { class: "mh-who" },
        h("span", { testid: "hand-who" }, whoText(table.state, d)),
        " ",
        h("button", { type: "button", class: "btn-link mh-inline-link", testid: "change-winner", onclick: act.changeWinner }, t("mhing.change")),
      ),
      h(
        "button",
        { type: "button", class: "icon-button", testid: "cancel-hand", "aria-label": t("mhing.to_standings"), title: t("mhing.to_standings"), onclick: act.cancel },
        "×",
      ),
    );
  }

  /** @param {Draft} d */
  function renderHand(d) {
    hand.replaceChildren(...handRows(d, act));
  }

  /**
   * @param {Draft} d
   * @param {Live} s
   */
  function renderLive(d, s) {
    if (s.status !== "loading" && s.status !== "done") live.dataset.wins = "false";
    live.classList.toggle("is-stale", s.status === "loading");
    live.setAttribute("aria-busy", String(s.status === "loading"));
    const waiting = noScoreParts(s);
    if (waiting) {
      live.replaceChildren(...waiting[0]);
      live.dataset.state = waiting[1];
      return;
    }
    const score = present(s.score, "the score");
    const newlyOut = score.wins && s.status === "done" && live.dataset.wins !== "true";
    if (s.status === "done") live.dataset.wins = String(!!score.wins);
    if (newlyOut) requestAnimationFrame(() => live.scrollIntoView({ block: "start" }));
    live.replaceChildren(...scoreParts(score, s.waits, act));
    live.dataset.state = s.status === "loading" ? "loading" : "done";
  }

  return { el, renderHead, renderHand, renderLive };
}

const TABS = [...SUITS, "h"];

/**
 * The picker's fixed buttons (built once; update() sets what they say and whether they are on).
 * @param {PickActions} act
 * @returns {PickerParts}
 */
function pickerParts(act) {
  const caption = h("p", { class: "mh-picker-caption", testid: "picker-caption" });
  const tabButtons = TABS.map((tab) =>
    h("button", { type: "button", class: "choice mh-tab", role: "tab", testid: `tab-${tab}`, onclick: () => act.setTab(tab) }, t(tab === "h" ? "mhing.honours" : `mhing.suit.${tab}`)),
  );
  const backspace = h("button", { type: "button", class: "btn btn-secondary mh-action mh-backspace", testid: "backspace", "aria-label": t("mhing.backspace"), title: t("mhing.backspace"), onclick: act.undoLast }, "⌫");
  const grid = h("div", { class: "mh-grid", testid: "pick-grid" });
  const groupButton = h("button", { type: "button", class: "btn btn-secondary mh-action", testid: "add-group", onclick: act.toggleGroup });
  const flowerButton = h(
    "button",
    { type: "button", class: "btn btn-secondary mh-action mh-flower-button", testid: "add-flower", onclick: () => act.add("flower"), "aria-label": t("mhing.add_flower") },
    h("span", { class: "btn-label mh-big-glyph mh-flower-glyph", "aria-hidden": "true" }, "✿"),
    h("span", { class: "btn-sub", "aria-hidden": "true" }, t("mhing.card.flower")),
  );
  const recordSub = h("span", { class: "btn-sub", testid: "entry-summary" });
  const recordButton = h("button", { type: "button", class: "btn btn-primary mh-record", testid: "record-hand", onclick: act.record }, h("span", { class: "btn-label" }, t("mhing.record")), recordSub);
  const el = h(
    "div",
    { class: "actionbar mh-bar mh-picker", testid: "picker", "data-mode": "hand" },
    caption,
    h("div", { class: "mh-tabs", role: "tablist" }, ...tabButtons),
    grid,
    h("div", { class: "mh-picker-actions" }, groupButton, flowerButton, backspace, recordButton),
  );
  return { el, caption, tabButtons, backspace, grid, groupButton, flowerButton, recordSub, recordButton };
}

/**
 * A card key: its face, its name, and how many copies are in the hand already.
 * @param {HTMLButtonElement} b
 * @param {string} card
 * @param {number} n copies in the hand
 */
function labelKey(b, card, n) {
  present(b.querySelector(".mh-pick-count"), "a key's count").textContent = n ? String(n) : "";
  // The name begins with the key's face and count ("1 Bam 2"), as voice control reads it.
  const add = t("mhing.add_card", { card: cardName(card) });
  b.setAttribute("aria-label", n ? `${tileFace(card).join(" ")} ${n}: ${add} (${t("mhing.in_hand", { count: n })})` : `${tileFace(card).join(" ")}: ${add}`);
}

/**
 * Where the next card goes: the hidden cards, or group n (a joker waiting for what it stands for).
 * @param {HTMLElement} caption
 * @param {Draft} d
 * @param {DraftGroup | null} group
 * @param {number} count cards in the hand
 */
function captionText(caption, d, group, count) {
  if (group) {
    const n = Number(d.target) + 1;
    caption.textContent = d.jokerPending ? t("mhing.caption_joker", { n }) : t("mhing.caption_group", { n, have: group.cards.length });
    caption.classList.add("is-group");
  } else {
    caption.textContent = count >= HAND_SIZE ? t("mhing.caption_full", { count, total: HAND_SIZE }) : t("mhing.caption_hidden", { count, total: HAND_SIZE });
    caption.classList.remove("is-group");
  }
  caption.classList.toggle("is-joker", !!(group && d.jokerPending));
}

/**
 * Record's line under its label, and whether it may be tapped: only a hand the referee says goes out.
 * @param {Live} s
 * @param {number} count cards in the hand
 * @returns {[string, boolean]}
 */
function recordState(s, count) {
  if (count !== HAND_SIZE) return [t("mhing.count_short", { count, total: HAND_SIZE }), false];
  if (s.status === "local") return [t("mhing.fix_groups"), false];
  if (s.status === "offline") return [t("mhing.offline_short"), false];
  if (s.status === "error") return [t("mhing.not_out"), false];
  if (!s.score || s.status === "loading") return [t("mhing.checking"), false];
  if (s.score.wins) return [t("mhing.record_sub", premiumsAndPoints(s.score.total_premiums, s.score.points)), true];
  return [t("mhing.not_out"), false];
}

/**
 * The card picker (bar).
 * @param {PickActions} act
 * @returns {Picker}
 */
export function createPicker(act) {
  const parts = pickerParts(act);
  const { el, caption, grid, groupButton } = parts;
  /** @type {string | null} */
  let shownTab = null;
  /** @type {Map<string, HTMLButtonElement>} */
  const pickButtons = new Map();

  /**
   * @param {string} card
   * @param {string} [extraClass]
   * @returns {HTMLButtonElement}
   */
  function pick(card, extraClass) {
    const b = /** @type {HTMLButtonElement} */ (tile(card, { testid: `pick-${card}`, onclick: () => act.add(card), extraClass: ["mh-pick", extraClass].filter(Boolean).join(" "), label: t("mhing.add_card", { card: cardName(card) }) }));
    b.append(" ", h("span", { class: "mh-pick-count", "aria-hidden": "true" }));
    pickButtons.set(card, b);
    return b;
  }

  /** @param {string} tab */
  function buildGrid(tab) {
    pickButtons.clear();
    let cells;
    if (tab === "h") cells = [...WINDS.map((c) => pick(c, "mh-cell-wind")), ...DRAGONS.map((c) => pick(c, "mh-cell-dragon"))];
    else cells = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((r) => pick(`${tab}${r}`));
    cells.push(pick(JOKER, "mh-cell-joker"));
    grid.replaceChildren(...cells);
    grid.dataset.tab = tab;
    shownTab = tab;
  }

  /**
   * Bring everything in line with the draft, the tab and the live answer.
   * @param {Draft} d
   * @param {{tab: string, live: Live}} ui
   */
  function update(d, ui) {
    if (ui.tab !== shownTab) buildGrid(ui.tab);
    parts.tabButtons.forEach((b, i) => b.setAttribute("aria-selected", String(TABS[i] === ui.tab)));
    const count = D.cardCount(d);
    const group = D.activeGroup(d);
    const copies = D.copies(d);
    // A full hand takes no more cards: the keys go off, but the keyboard stays where it is.
    el.classList.toggle("is-full", count >= HAND_SIZE && !group);
    for (const [card, b] of pickButtons) {
      b.disabled = !D.canAdd(d, card);
      labelKey(b, card, card === JOKER ? copies[JOKER] || 0 : copies[card] || 0);
      if (card === JOKER) b.setAttribute("aria-pressed", String(!!(group && d.jokerPending)));
    }
    parts.flowerButton.disabled = !D.canAdd(d, "flower");
    parts.backspace.disabled = !d.history.length && !d.jokerPending && !group;
    captionText(caption, d, group, count);
    groupButton.replaceChildren(
      h("span", { class: "btn-label mh-big-glyph", "aria-hidden": "true" }, group ? "✓" : "+"),
      h("span", { class: "btn-sub", "aria-hidden": "true" }, group ? t("mhing.done_short") : t("mhing.group_short")),
    );
    groupButton.setAttribute("aria-label", group ? t("mhing.group_done") : t("mhing.add_group"));
    groupButton.disabled = !group && !D.canStartGroup(d);
    groupButton.setAttribute("aria-pressed", String(!!group));
    const [sub, ready] = recordState(ui.live, count);
    parts.recordSub.textContent = sub;
    parts.recordButton.disabled = !ready;
    parts.recordButton.dataset.ready = String(ready);
  }

  return { el, update };
}
