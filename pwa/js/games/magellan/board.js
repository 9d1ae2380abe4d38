// The Magellan board: six explorers × fields I/II/III (Vasco da Gama side B split into a left and a
// right part), the ships on them in seat colours, and the sheet's bags and crowns per field (MG-2).
import { h, s } from "../../dom.js";
import { t } from "../../i18n.js";
import { panel } from "../../ui/panel.js";
import { EXPLORERS, FIELD_KEYS, ROMAN, explorerName, fieldNumbers, playerName, seatDot, sideOf } from "./common.js";

/** @returns {SVGSVGElement} */
export function bagIcon() {
  return s(
    "svg",
    { class: "mg-icon", viewBox: "0 0 12 12", "aria-hidden": "true" },
    s("path", { d: "M4 1.5h4l-1 2h-2z", class: "mg-icon-fill" }),
    s("path", { d: "M4.5 3.5C2 5 1.5 8 2 10c.3 1 1.3 1.5 4 1.5s3.7-.5 4-1.5c.5-2 0-5-2.5-6.5z", class: "mg-icon-fill" }),
  );
}

/** @returns {SVGSVGElement} */
export function crownIcon() {
  return s(
    "svg",
    { class: "mg-icon mg-icon-crown", viewBox: "0 0 12 12", "aria-hidden": "true" },
    s("path", { d: "M1 3.5l2.6 2.3L6 2l2.4 3.8L11 3.5 10 10H2z", class: "mg-icon-fill" }),
  );
}

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */
/** @typedef {Schemas["MagellanTable"]} MagellanTable */
/** @typedef {Schemas["MagellanView"]} MagellanView */

/**
 * @param {MagellanView} state
 * @param {import("./common.js").Explorer} explorer
 * @param {number} field
 * @param {"left" | "right" | null} [part]
 * @returns {HTMLSpanElement}
 */
function numbers(state, explorer, field, part) {
  const n = fieldNumbers(state, explorer, field, part);
  const bags = n.bags === null ? "?" : String(n.bags);
  const crowns = n.fixed ? "–" : n.crowns === null ? "?" : String(n.crowns);
  return h(
    "span",
    { class: ["mg-field-numbers", part && "mg-field-numbers-split"], title: `${t("magellan.sheet.bags")}: ${bags} · ${t("magellan.sheet.crowns")}: ${crowns}` },
    h("span", {}, bagIcon(), bags),
    h("span", {}, crownIcon(), crowns),
  );
}

/**
 * @param {MagellanView} state
 * @param {Schemas["MagellanBoardShip"][]} list
 * @param {string} testidBase
 * @returns {HTMLSpanElement}
 */
function ships(state, list, testidBase) {
  return h(
    "span",
    { class: "mg-ships" },
    ...list.map((ship) => {
      const dot = seatDot(state, ship.seat);
      dot.setAttribute("data-testid", "mg-ship");
      dot.setAttribute("title", playerName(state, ship.seat));
      dot.removeAttribute("aria-hidden");
      dot.setAttribute("role", "img");
      dot.setAttribute("aria-label", playerName(state, ship.seat));
      return dot;
    }),
    list.length ? null : h("span", { class: "mg-empty", "data-testid": `${testidBase}-empty` }, ""),
  );
}

/**
 * @param {MagellanView} state
 * @param {import("./common.js").Explorer} explorer
 * @param {"I" | "II" | "III"} fieldKey
 * @param {{up: boolean, target: number, source: number | null}} where
 * @returns {HTMLDivElement}
 */
function cell(state, explorer, fieldKey, { up, target, source }) {
  const field = FIELD_KEYS.indexOf(fieldKey) + 1;
  const list = state.board?.[explorer]?.[fieldKey] || [];
  const base = `mg-field-${explorer}-${fieldKey}`;
  const cls = ["mg-cell", up && field === target && "is-target", up && field === source && "is-source"];
  if (explorer === "vasco" && sideOf(state, "vasco") === "B") {
    return h(
      "div",
      { class: [...cls, "mg-cell-split"], role: "cell", testid: base, "data-count": list.length },
      .../** @type {("left" | "right")[]} */ (["left", "right"]).map((part) => {
        const mine = list.filter((x) => x.part === part);
        return h(
          "div",
          { class: ["mg-part", `mg-part-${part}`], testid: `${base}-${part}`, "data-count": mine.length, "aria-label": t(`magellan.part.${part}`) },
          h("span", { class: "mg-part-label" }, t(`magellan.part_short.${part}`)),
          ships(state, mine, `${base}-${part}`),
          numbers(state, explorer, field, part),
        );
      }),
    );
  }
  return h("div", { class: cls, role: "cell", testid: base, "data-count": list.length }, ships(state, list, base), numbers(state, explorer, field, null));
}

/**
 * @param {MagellanTable} table
 * @returns {HTMLElement}
 */
export function boardPanel(table) {
  const state = table.state;
  const card = state.card;
  const up = card && (state.stage === "auction" || state.stage === "sale") ? card.explorer : null;
  const rows = EXPLORERS.map((explorer) => {
    const isUp = explorer === up;
    const marks = { up: isUp, target: state.phase, source: state.phase > 1 ? state.phase - 1 : null };
    return h(
      "div",
      { class: ["mg-row", isUp && "is-up"], role: "row", testid: `mg-row-${explorer}` },
      h(
        "div",
        { class: "mg-row-head", role: "rowheader" },
        h("span", { class: "mg-row-name" }, explorerName(explorer)),
        h("span", { class: "mg-side-badge", title: t("magellan.side_n", { side: sideOf(state, explorer) }) }, sideOf(state, explorer)),
      ),
      ...FIELD_KEYS.map((f) => cell(state, explorer, f, marks)),
    );
  });
  return panel(
    { title: t("magellan.board"), class: "mg-board-panel" },
    h(
      "div",
      { class: "mg-board", role: "table", testid: "mg-board", "aria-label": t("magellan.board_label") },
      h(
        "div",
        { class: "mg-row mg-row-header", role: "row" },
        h("span", { role: "columnheader" }),
        ...[1, 2, 3].map((f) => h("span", { class: ["mg-col-head", f === state.phase && state.stage !== "finished" && "is-phase"], role: "columnheader" }, ROMAN[f])),
      ),
      ...rows,
    ),
    h(
      "p",
      { class: "mg-legend muted small" },
      ...state.players.map((p) => h("span", { class: "mg-legend-item" }, seatDot(state, p.seat), p.name)),
      h("span", { class: "mg-legend-item" }, bagIcon(), t("magellan.sheet.bags")),
      h("span", { class: "mg-legend-item" }, crownIcon(), t("magellan.sheet.crowns")),
    ),
  );
}
