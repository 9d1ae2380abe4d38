// Eggs and cards per player (MA-10 counts eggs; cards break ties; the beach counts as a card).
// MA-7 Decision: won cards lie face down — the shared view gives how many; a phone opened with a
// player's own link shows that player's values and eggs (their own view); the end shows them all.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { panel } from "../../ui/panel.js";
import { swatch } from "./status.js";

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */
/** @typedef {Schemas["MaheTable"]} MaheTable */
/** @typedef {import("../registry.js").Mine} Mine */

/**
 * The own view of `seat` on this phone, when it is current ({cards, eggs}), else null.
 * @param {MaheTable} table
 * @param {Mine | null} mine
 * @param {number} seat
 * @returns {Schemas["MahePrivateView"] | null}
 */
function ownCards(table, mine, seat) {
  if (!mine || mine.seat !== seat || mine.status !== "fresh" || mine.version !== table.version) return null;
  const view = /** @type {Schemas["MahePrivateView"] | null} */ (mine.view); // a Mahé seat's own view
  return view && Array.isArray(view.cards) ? view : null;
}

/**
 * @param {Schemas["MahePlayer"]} p
 * @param {Schemas["MahePrivateView"] | null} own
 */
function cardList(p, own) {
  const cards = p.cards ?? own?.cards ?? null;
  const shown = cards
    ? cards.map((v) => h("span", { class: ["mini-card", !p.cards && "mini-own"], title: p.cards ? null : t("mahe.own_card") }, String(v)))
    : Array.from({ length: p.card_count - (p.beach ? 1 : 0) }, () => h("span", { class: "mini-card mini-face-down", title: t("mahe.face_down") }, "?"));
  return h("div", { class: "card-list", testid: `card-list-${p.seat}`, "data-own": own && !p.cards ? "true" : null }, ...shown, p.beach ? h("span", { class: "mini-card mini-beach", title: t("mahe.beach") }, "7") : null);
}

/**
 * mine: this phone's seat and its own view ({seat, view, version, status}), or null.
 * @param {MaheTable} table
 * @param {Mine | null} [mine]
 */
export function scoreboard(table, mine = null) {
  const { state } = table;
  const winners = new Set(table.result?.winners || state.result?.winners || []);
  const current = state.phase === "finished" ? null : state.turn?.seat;
  const rows = state.players.map((p) => {
    const own = ownCards(table, mine, p.seat);
    const eggs = p.eggs ?? own?.eggs ?? null;
    return h(
      "tr",
      { class: [p.seat === current && "is-turn", winners.has(p.seat) && "is-winner"], testid: `score-seat-${p.seat}` },
      h("th", { scope: "row" }, h("span", { class: "swatches" }, ...p.colours.map(swatch)), " ", p.name),
      h("td", { class: "num", testid: `eggs-${p.seat}` }, eggs === null ? "–" : String(eggs)),
      h("td", { class: "num", testid: `cards-${p.seat}` }, String(p.card_count ?? (p.cards?.length ?? 0) + (p.beach ? 1 : 0))),
      h("td", { class: "card-cell" }, cardList(p, own)),
    );
  });
  return panel(
    { title: t("mahe.scoreboard") },
    h(
      "table",
      { class: "scoreboard", testid: "scoreboard" },
      h(
        "thead",
        {},
        h("tr", {}, h("th", { scope: "col" }, t("mahe.player")), h("th", { scope: "col", class: "num" }, t("mahe.eggs")), h("th", { scope: "col", class: "num" }, t("mahe.cards")), h("th", { scope: "col" }, "")),
      ),
      h("tbody", {}, ...rows),
    ),
    h(
      "p",
      { class: "muted small" },
      t("mahe.pile_info", { pile: state.pile_count, aside: state.set_aside_count ?? 4 }),
      state.options?.egg_dice_variant ? ` · ${t("mahe.variant_on")}` : "",
    ),
  );
}
