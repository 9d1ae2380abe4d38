// Eggs and cards per player (MA-10 counts eggs; cards break ties; the beach counts as a card).
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { panel } from "../../ui/panel.js";
import { swatch } from "./status.js";

export function scoreboard(table) {
  const { state } = table;
  const winners = new Set(table.result?.winners || state.result?.winners || []);
  const current = state.phase === "finished" ? null : state.turn?.seat;
  const rows = state.players.map((p) =>
    h(
      "tr",
      { class: [p.seat === current && "is-turn", winners.has(p.seat) && "is-winner"], testid: `score-seat-${p.seat}` },
      h("th", { scope: "row" }, h("span", { class: "swatches" }, ...p.colours.map(swatch)), " ", p.name),
      // MA-7 Decision: won cards lie face down; the eggs show once the game is over.
      h("td", { class: "num", testid: `eggs-${p.seat}` }, p.eggs === null || p.eggs === undefined ? "–" : String(p.eggs)),
      h("td", { class: "num", testid: `cards-${p.seat}` }, String(p.card_count ?? (p.cards?.length ?? 0) + (p.beach ? 1 : 0))),
      h(
        "td",
        { class: "card-cell" },
        h(
          "div",
          { class: "card-list" },
          ...(p.cards
            ? p.cards.map((v) => h("span", { class: "mini-card" }, String(v)))
            : Array.from({ length: p.card_count - (p.beach ? 1 : 0) }, () =>
                h("span", { class: "mini-card mini-face-down", title: t("mahe.face_down") }, "?"),
              )),
          p.beach ? h("span", { class: "mini-card mini-beach", title: t("mahe.beach") }, "7") : null,
        ),
      ),
    ),
  );
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
