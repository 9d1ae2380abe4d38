// "why?" links into a game's rules page (rules/<game>.<lang>.html), opened beside the app.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { rulesUrl } from "./header.js";

/** Anchor for a rule: its referee Decision where the rules page has one (decisions: a Set), else the rule. */
/**
 * @param {Set<string>} decisions
 * @param {string} rule
 * @returns {string}
 */
export function decisionAnchor(decisions, rule) {
  return decisions.has(rule) ? `decision-${rule}` : rule;
}

/**
 * <a class="why"> to the anchor on the game's rules page; text defaults to "why?".
 * @param {string} game
 * @param {string} anchor
 * @param {string} [testid]
 * @param {{text?: import("../dom.js").Child, extraClass?: string}} [options]
 * @returns {HTMLAnchorElement}
 */
export function rulesLink(game, anchor, testid, { text = t("common.why"), extraClass } = {}) {
  return h("a", { class: ["why", extraClass], href: rulesUrl(game, anchor), target: "_blank", rel: "noopener", testid }, text);
}
