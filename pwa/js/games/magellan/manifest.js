// What the app knows of Magellan without loading its client (pwa/js/games/registry.js).
import { hasPowers, refreshPowers } from "./powers.js";

const SOURCES = ["fields", "money", "magellan", "pizarro"];

/** @type {import("../registry.js").GameManifest} */
export default {
  name: "magellan",
  title: "Magellan",
  min: 3,
  max: 6,
  load: () => import("./index.js"),
  statsColumns: [["average_score", "group.average"], ["best_score", "group.best"]],
  // Where the group's points came from (MG-10), all players together.
  statsCharts: (players, { t, chart }) => [
    chart({ title: t("group.points_by_source"), kind: "bars", labels: SOURCES.map((k) => t(`group.source.${k}`)), xLabel: t("group.source"), series: [{ label: t("group.points"), values: SOURCES.map((k) => players.reduce((sum, p) => sum + p.by_game.magellan.points_by_source[k], 0)) }], testid: "chart-magellan-sources" }),
  ],
  progressAxis: null, // scored once at the end (MG-10): no score over the game
  // Secret hands (ledger), or the card slid from the hand under Magellan A (MG-8, typed on the
  // slider's own phone).
  needsSeatLinks: (table) => table.options?.depth === "ledger" || (table.options?.sides?.magellan ?? "A") === "A",
  // The MG-8 powers table, before the first screen on a phone that never saw it (api.js).
  start: { ready: hasPowers, refresh: refreshPowers },
};
