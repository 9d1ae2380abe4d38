// Links into the Mhing rules page; player names and signed numbers.
import { t } from "../../i18n.js";
import { decisionAnchor, rulesLink } from "../../ui/why.js";

// Rules that carry a referee **Decision** on the rules page (see pwa/rules/index.json).
export const DECISIONS = new Set(["MH-1", "MH-3", "MH-4", "MH-5", "MH-6", "MH-7"]);

/** Anchor for a rule: its Decision where it has one, else the rule itself. */
/**
 * @param {string} rule
 * @returns {string}
 */
export function ruleAnchor(rule) {
  return decisionAnchor(DECISIONS, rule);
}

/** "why?" → the rule's Decision (or the rule). */
/**
 * @param {string} rule
 * @param {string} [testid]
 * @returns {HTMLAnchorElement}
 */
export function whyLink(rule, testid) {
  return rulesLink("mhing", ruleAnchor(rule), testid);
}

/** "MH-6 why?" as one link (to the Decision where there is one). */
/**
 * @param {string} rule
 * @param {string} [testid]
 * @returns {HTMLAnchorElement}
 */
export function ruleLink(rule, testid) {
  const text = DECISIONS.has(rule) ? `${rule} · ${t("common.why")}` : rule;
  return rulesLink("mhing", ruleAnchor(rule), testid, { text, extraClass: "mh-rule" });
}

/**
 * @param {import("kibitz-api").components["schemas"]["MhingView"]} state
 * @param {number | null | undefined} seat
 * @returns {string}
 */
export function playerName(state, seat) {
  const p = state.players.find((pl) => pl.seat === seat) || (seat === null || seat === undefined ? undefined : state.players[seat]);
  return p ? p.name : "?";
}

/**
 * "+64", "−128", "±0"
 * @param {number} n
 * @returns {string}
 */
export function signed(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `−${Math.abs(n)}`;
  return "±0";
}
