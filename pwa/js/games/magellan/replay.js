// The table at one step of the log's replay (js/ui/log.js), read-only: standings while scoring,
// the card up, the board and the players — no buttons, no hand.
import { boardPanel } from "./board.js";
import { cardPanel, playersPanel } from "./panels.js";
import { standingsPanel } from "./scoring.js";

/**
 * @param {import("kibitz-api").components["schemas"]["MagellanTable"]} table
 * @returns {(HTMLElement | null)[]}
 */
export function replayState(table) {
  const over = table.finished || table.state.stage === "finished" || table.state.stage === "scoring";
  return [standingsPanel(table), over ? null : cardPanel(table), boardPanel(table), playersPanel(table)];
}
