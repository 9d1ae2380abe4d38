// The table at one step of the log's replay (js/ui/log.js), read-only: the standings and the
// rounds so far.
import { standings, history } from "./standings.js";

/**
 * @param {import("kibitz-api").components["schemas"]["MhingTable"]} table
 * @returns {(HTMLElement | null)[]}
 */
export function replayState(table) {
  return [standings(table), history(table)];
}
