// Links into the Mhing rules page, and the API's English texts in the user's language.
import { h } from "../../dom.js";
import { t, lang, has } from "../../i18n.js";
import { rulesUrl } from "../../ui/header.js";

// Rules that carry a referee **Decision** on the rules page (see pwa/rules/index.json).
export const DECISIONS = new Set(["MH-1", "MH-5", "MH-6", "MH-7"]);

/** Anchor for a rule: its Decision where it has one, else the rule itself. */
export function ruleAnchor(rule) {
  return DECISIONS.has(rule) ? `decision-${rule}` : rule;
}

/** "why?" → the rule's Decision (or the rule). */
export function whyLink(rule, testid) {
  return h("a", { class: "why", href: rulesUrl("mhing", ruleAnchor(rule)), target: "_blank", rel: "noopener", testid }, t("common.why"));
}

/** "MH-6 why?" as one link (to the Decision where there is one). */
export function ruleLink(rule, testid) {
  const text = DECISIONS.has(rule) ? `${rule} · ${t("common.why")}` : rule;
  return h("a", { class: "why mh-rule", href: rulesUrl("mhing", ruleAnchor(rule)), target: "_blank", rel: "noopener", testid }, text);
}

/** English users see the API's sentence verbatim; others get the client's template for the code. */
export function serverText(key, params, apiText) {
  if (lang() === "en" && apiText) return apiText;
  return t(key, params, apiText || "");
}

/** The client's template for an API code when it has one, else the API's text. */
export function codeText(key, params, apiText) {
  return has(key) ? t(key, params) : apiText || "";
}

export function playerName(state, seat) {
  const p = state.players.find((pl) => pl.seat === seat) || state.players[seat];
  return p ? p.name : "?";
}

/** "+64", "−128", "±0" */
export function signed(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `−${Math.abs(n)}`;
  return "±0";
}
