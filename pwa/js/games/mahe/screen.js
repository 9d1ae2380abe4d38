// The Mahé table screen: end result (when over), board, last move, scoreboard; action bar fixed
// at the bottom of the screen so the big buttons sit under the thumb.
import { h } from "../../dom.js";
import { createBarHost } from "../../ui/action-bar.js";
import { createBoard } from "./board.js";
import { renderControls } from "./controls.js";
import { lastMove } from "./status.js";
import { scoreboard } from "./scoreboard.js";
import { resultPanel } from "./result.js";

/** @typedef {import("kibitz-api").components["schemas"]["MaheTable"]} MaheTable */

/**
 * @param {HTMLElement} container
 * @param {import("../registry.js").Controller} ctl
 * @returns {import("../registry.js").Screen}
 */
export function createScreen(container, ctl) {
  const resultHost = h("div", { class: "result-host" });
  const board = createBoard();
  const infoHost = h("div", { class: "info-host" });
  const bar = createBarHost();
  container.classList.add("mahe");
  container.append(resultHost, h("div", { class: "board-wrap" }, board.el), infoHost, bar.el);

  /** @type {MaheTable | null} */
  let current = null;

  /** @param {MaheTable} table */
  function renderInfo(table) {
    infoHost.replaceChildren(...[lastMove(table.state), scoreboard(table, ctl.mine)].filter((node) => node !== null));
  }

  /** @param {MaheTable} table */
  function renderBar(table) {
    bar.el.replaceChildren(renderControls(table, ctl));
  }

  return {
    /** @param {MaheTable} table */
    update(table) {
      current = table;
      board.update(table);
      resultHost.replaceChildren(...[table.finished ? resultPanel(table, ctl.id) : null].filter((node) => node !== null));
      renderInfo(table);
      renderBar(table);
    },
    /** My seat's own view changed (fetched, or the link was refused): my face-down cards (MA-7). */
    updateMine() {
      if (current) renderInfo(current);
    },
    destroy() {
      bar.destroy();
    },
  };
}
