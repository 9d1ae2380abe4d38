// Whose turn, who decides and why, referee notes with "why?" links, the last move in words.
import { h, present } from "../../dom.js";
import { t, list, codeText, noteText } from "../../i18n.js";
import { notesList } from "../../ui/action-bar.js";
import { decisionAnchor, rulesLink } from "../../ui/why.js";
import { colourName, ownerSeat, playerName, HEX } from "./colours.js";

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */
/** @typedef {Schemas["MaheTable"]} MaheTable */

/** @param {string} colour */
export function swatch(colour) {
  const el = h("span", { class: "swatch-dot", "aria-hidden": "true" });
  el.style.backgroundColor = HEX[colour] || "#888";
  return el;
}

// Rules that carry a referee **Decision** on the rules page (see pwa/rules/index.json).
export const DECISIONS = new Set(["MA-1", "MA-3", "MA-7", "MA-9", "MA-10", "MA-11"]);

/** Anchor for a rule: its Decision where it has one, else the rule itself. */
/** @param {string} rule */
export function ruleAnchor(rule) {
  return decisionAnchor(DECISIONS, rule);
}

/** "why?" → rules/mahe.<lang>.html#anchor (the anchor as given: a rule or its Decision). */
/**
 * @param {string} anchor
 * @param {string} [testid]
 */
export function whyLink(anchor, testid) {
  return rulesLink("mahe", anchor, testid);
}

/**
 * The decider's reason (MA-4; MA-9 while choosing the turtle).
 * @param {MaheTable} table
 */
export function deciderReason(table) {
  const { state, legal_actions: legal } = table;
  const d = legal.decider;
  if (!d) return "";
  if (legal.phase === "choose_turtle") return codeText("mahe.decider_choose", {}, d.reason);
  const turtle = legal.turtle || state.turn?.turtle;
  const field = turtle ? (state.track || []).find((f) => f.includes(/** @type {import("./colours.js").Colour} */ (turtle))) : null;
  const top = field ? field[field.length - 1] : turtle;
  if (turtle && top && top !== turtle && ownerSeat(state, top) === d.seat) {
    return codeText("mahe.decider_top", { top: colourName(top), turtle: colourName(turtle) }, d.reason);
  }
  if (turtle && ownerSeat(state, turtle) === d.seat) {
    return codeText("mahe.decider_own", { turtle: colourName(turtle) }, d.reason);
  }
  return d.reason || "";
}

/** @param {MaheTable} table */
export function turnInfo(table) {
  const { state } = table;
  if (state.phase === "finished" || table.finished) {
    return h("div", { class: "turn-info", testid: "turn-info" }, h("strong", {}, t("mahe.game_over")));
  }
  const seat = state.turn?.seat ?? 0;
  const player = state.players[seat];
  const turtle = table.legal_actions.turtle || state.turn?.turtle;
  /** @type {import("../../dom.js").Child[]} */
  const parts = [h("strong", {}, t("mahe.turn_of", { name: player.name }))];
  if (turtle) parts.push(" ", swatch(turtle), colourName(turtle));
  if (player.colours.length > 1) {
    parts.push(h("span", { class: "muted" }, ` · ${t("mahe.move_n_of", { n: Math.min((state.turn?.moves_done ?? 0) + 1, player.colours.length), total: player.colours.length })}`));
  }
  return h("div", { class: "turn-info", testid: "turn-info", "data-seat": seat }, ...parts);
}

/** @param {MaheTable} table */
export function deciderInfo(table) {
  const legal = table.legal_actions;
  const d = legal.decider;
  if (!d) return null;
  // Before the first die (always rolled, MA-3) the decider only matters when it is someone else.
  if (legal.phase === "roll" && d.seat === (legal.mover ?? table.state.turn?.seat)) return null;
  return h(
    "div",
    { class: "decider", testid: "decider", "data-seat": d.seat },
    h("strong", {}, t("mahe.decides", { name: d.name })),
    " ",
    h("span", { class: "decider-reason" }, deciderReason(table)),
    " ",
    whyLink(table.legal_actions.phase === "choose_turtle" ? "MA-9" : "MA-4", "why-decider"),
  );
}

// Notes the screen already says in its own words (prompt, decider line, end screen).
const SHOWN_ELSEWHERE = new Set(["reveal-card", "first-die-always", "decider-on-top", "game-over"]);

/**
 * Referee notes (e.g. sum-seven-must-stop) with a "why?" link to the rule's Decision.
 * @param {MaheTable} table
 */
export function notes(table) {
  const items = (table.legal_actions.notes || []).filter((n) => !SHOWN_ELSEWHERE.has(n.code));
  return notesList(items, {
    text: (n) => noteText(n),
    why: (n) => whyLink(ruleAnchor(present(n.rule, "a note's rule")), `why-${n.rule}`),
  });
}

/**
 * Capitalise a sentence that starts with a colour name ("red moves …" → "Red moves …").
 * @param {string} text
 */
export function sentence(text) {
  return text ? text.charAt(0).toLocaleUpperCase() + text.slice(1) : text;
}

/**
 * The last completed move (or a previewed one) in words.
 * @param {Schemas["MaheView"]} state
 * @param {Schemas["MaheMove"] | null} [lm]
 */
export function lastMoveText(state, lm = state.last_move) {
  if (!lm) return "";
  const turtle = colourName(lm.turtle);
  const carried = lm.carried?.length ? t("mahe.carrying", { turtles: list(lm.carried.map(colourName)) }) : "";
  const dice = lm.dice?.map((d) => d.value).join(" + ") || "";
  let text;
  if (lm.bust) {
    text = t("mahe.moved_bust", { turtle, dice, carried });
  } else {
    const from = lm.from === 0 ? t("mahe.from_raft") : t("mahe.from_field", { n: lm.from });
    text = t("mahe.moved", { turtle, from, to: t("mahe.to_field", { n: lm.to }), count: lm.distance, dice, carried });
  }
  text = sentence(text);
  if (lm.card) {
    text += " " + (lm.card.beach
      ? t("mahe.took_beach", { name: playerName(state, lm.card.seat) })
      : t("mahe.took_card", { name: playerName(state, lm.card.seat), value: lm.card.value }));
  }
  return text.replace(/\s+/g, " ").trim();
}

/** @param {Schemas["MaheView"]} state */
export function lastMove(state) {
  if (!state.last_move) return null;
  return h("p", { class: "last-move", testid: "last-move" }, h("span", { class: "muted" }, `${t("mahe.last_move")}: `), lastMoveText(state));
}
