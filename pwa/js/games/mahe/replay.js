// The table at one step of the log's replay (js/ui/log.js), read-only: the board with the turtles,
// the last move and the scoreboard (eggs and cards) — no buttons, no private cards.
import { h } from "../../dom.js";
import { createBoard } from "./board.js";
import { lastMove } from "./status.js";
import { scoreboard } from "./scoreboard.js";

/** @param {import("kibitz-api").components["schemas"]["MaheTable"]} table */
export function replayState(table) {
  const board = createBoard();
  board.update(table);
  return [h("div", { class: "board-wrap" }, board.el), lastMove(table.state), scoreboard(table, null)];
}
