// The referee's answer for a hand, line by line: the reading (four groups and a pair, or "nothing
// fits"), every premium with its rule (MH-6, MH-7), the total and the points (MH-8); or why the hand
// does not go out yet, and — one card short — the waits.
import { h } from "../../dom.js";
import { t, list, codeText } from "../../i18n.js";
import { tile, tilesFromNotation, cardName } from "./cards.js";
import { ruleLink, whyLink } from "./rules.js";

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */

/**
 * @param {Schemas["ShownGroup"]} group
 * @param {number} index
 * @returns {HTMLDivElement}
 */
function groupChip(group, index) {
  return h(
    "div",
    { class: ["mh-group", group.laid_out && "mh-laid-out"], testid: `reading-group-${index}`, "data-kind": group.kind },
    h("span", { class: "mh-group-no" }, String(index + 1)),
    h("span", { class: "mh-group-tiles" }, ...tilesFromNotation(group.notation, { small: true })),
    group.laid_out ? h("span", { class: "mh-group-tag" }, t("mhing.laid_out_short")) : null,
  );
}

/**
 * @param {Schemas["Reading"] | null} reading
 * @returns {HTMLDivElement | null}
 */
export function readingView(reading) {
  if (!reading) return null;
  if (reading.kind === "nothing-fits") {
    return h(
      "div",
      { class: "mh-reading", testid: "reading", "data-kind": reading.kind },
      h("p", { class: "mh-reading-title" }, t("mhing.reading_nothing_fits"), " ", whyLink("MH-7", "why-reading")),
      h("div", { class: "mh-group mh-group-wide" }, h("span", { class: "mh-group-tiles" }, ...tilesFromNotation(reading.notation, { small: true }))),
    );
  }
  return h(
    "div",
    { class: "mh-reading", testid: "reading", "data-kind": reading.kind, "data-notation": reading.notation },
    h("div", { class: "mh-groups" }, ...reading.groups.map(groupChip), reading.pair
      ? h(
          "div",
          { class: "mh-group mh-pair", testid: "reading-pair" },
          h("span", { class: "mh-group-no" }, t("mhing.pair_short")),
          h("span", { class: "mh-group-tiles" }, ...tilesFromNotation(reading.pair.notation, { small: true })),
        )
      : null),
    reading.jokers_as?.length
      ? h(
          "p",
          { class: "mh-jokers-as small", testid: "jokers-as" },
          t("mhing.jokers_as", { count: reading.jokers_as.length }),
          " ",
          h("span", { class: "mh-inline-tiles" }, ...reading.jokers_as.map((c) => tile(c, { joker: true, small: true }))),
          " ",
          whyLink("MH-5", "why-jokers"),
        )
      : null,
  );
}

/**
 * A premium's details: how often, which flowers or groups, with the pair.
 * @param {Schemas["Premium"]} p
 * @returns {string}
 */
function premiumMeta(p) {
  const parts = [];
  if (p.count > 1) parts.push(t("mhing.times", { count: p.count, value: p.value }));
  if (p.code === "flower" && p.cards?.length) parts.push(p.cards.map((c) => `f${c.slice(1)}`).join(" "));
  else if (p.groups?.length && p.groups.length < 4) {
    parts.push(t("mhing.groups_ref", { count: p.groups.length, groups: list(p.groups.map((g) => String(g + 1))) }));
  } else if (p.groups?.length === 4) parts.push(t("mhing.whole_hand"));
  if (p.pair && p.groups?.length !== 4) parts.push(t("mhing.with_pair"));
  return parts.join(" · ");
}

/**
 * @param {Schemas["Premium"][]} premiums
 * @param {string} [testPrefix]
 * @returns {HTMLElement}
 */
export function premiumList(premiums, testPrefix = "premium") {
  return h(
    "ul",
    { class: "mh-premiums", testid: `${testPrefix}s` },
    ...premiums.map((p) =>
      h(
        "li",
        { class: "mh-premium", testid: `${testPrefix}-${p.code}`, "data-count": p.count, "data-premiums": p.premiums, "data-rule": p.rule },
        h(
          "span",
          { class: "mh-premium-text" },
          h("span", { class: "mh-premium-name" }, codeText(`mhing.premium.${p.code}`, {}, p.name)),
          h("span", { class: "mh-premium-meta small" }, premiumMeta(p), premiumMeta(p) ? " · " : "", ruleLink(p.rule, `${testPrefix}-rule-${p.code}`)),
        ),
        h("span", { class: "mh-premium-value", testid: `${testPrefix}-value-${p.code}` }, `+${p.premiums}`),
      ),
    ),
  );
}

/**
 * "1 premium", "8 points": each count in its own plural form, for a sentence naming both.
 * @param {number} premiums
 * @param {number} points
 * @returns {{premiums: string, points: string}}
 */
export function premiumsAndPoints(premiums, points) {
  return { premiums: t("mhing.total_premiums", { count: premiums }), points: t("mhing.points_n", { count: points }) };
}

/**
 * @param {number} total premiums
 * @param {number} points
 * @param {string} [testid]
 * @returns {HTMLElement}
 */
export function totalLine(total, points, testid = "breakdown-total") {
  return h(
    "p",
    { class: "mh-total", testid, "data-premiums": total, "data-points": points },
    h("span", {}, t("mhing.total_premiums", { count: total })),
    h("strong", { class: "mh-total-points" }, t("mhing.points_n", { count: points })),
    ruleLink("MH-8", "rule-MH-8"),
  );
}

/**
 * Why the hand does not go out (the API's reason code in the user's words).
 * @param {Schemas["ScoreResult"]} score
 * @returns {string}
 */
export function reasonText(score) {
  if (score.reason_code === "wrong-card-count") {
    const missing = 14 - score.cards;
    return missing > 0 ? t("mhing.reason.missing", { cards: t("mhing.cards_n", { count: score.cards }), count: missing }) : t("mhing.reason.too_many", { cards: score.cards });
  }
  return codeText(`mhing.reason.${score.reason_code}`, {}, score.reason);
}

/**
 * A won hand's full breakdown (reading, premiums, total): live, in history and on the end screen.
 * @param {Schemas["ScoreResult"] | null | undefined} score
 * @param {{testPrefix?: string, totalTestid?: string}} [options]
 * @returns {HTMLDivElement | null}
 */
export function scoreView(score, { testPrefix = "premium", totalTestid = "breakdown-total" } = {}) {
  if (!score?.wins) return null;
  return h(
    "div",
    { class: "mh-score" },
    readingView(score.reading),
    score.premiums.length ? premiumList(score.premiums, testPrefix) : h("p", { class: "muted small" }, t("mhing.no_premiums")),
    totalLine(score.total_premiums, score.points, totalTestid),
  );
}

/**
 * @param {Schemas["WaitsResult"] | null} waits
 * @param {(card: string) => void} onPick
 * @returns {HTMLDivElement | null}
 */
export function waitsView(waits, onPick) {
  if (!waits) return null;
  if (!waits.ready) return h("p", { class: "mh-waits-none muted", testid: "waits" }, t("mhing.no_waits"));
  return h(
    "div",
    { class: "mh-waits", testid: "waits" },
    h("p", { class: "mh-waits-title" }, t("mhing.waits_title")),
    h(
      "ul",
      { class: "mh-wait-list" },
      ...waits.waits.map((w) =>
        h(
          "li",
          {},
          h(
            "button",
            {
              type: "button",
              class: "choice mh-wait",
              testid: `wait-${w.card}`,
              "data-points": w.points,
              "data-premiums": w.total_premiums,
              disabled: !onPick,
              onclick: onPick ? () => onPick(w.card) : undefined,
              "aria-label": t("mhing.wait_label", { card: cardName(w.card), count: w.points, left: t("mhing.copies_left", { count: w.copies_left }) }),
            },
            tile(w.card, { small: true }),
            h("span", { class: "mh-wait-points" }, t("mhing.points_short", { count: w.points })),
            h("span", { class: "mh-wait-left small" }, t("mhing.copies_left", { count: w.copies_left })),
          ),
        ),
      ),
    ),
  );
}
