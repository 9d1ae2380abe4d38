// What the app knows of Mhing without loading its client (pwa/js/games/registry.js).

/** @type {import("../registry.js").GameManifest} */
export default {
  name: "mhing",
  title: "Mhing",
  min: 2,
  max: 6,
  load: () => import("./index.js"),
  statsColumns: [["hands_won", "group.hands_won"], ["hand_points", "group.hand_points"], ["biggest_hand", "group.biggest_hand"]],
  // The premiums the group scored most (MH-7), all players together.
  statsCharts: (players, { t, chart }) => {
    /** @type {Map<string, number>} */
    const counts = new Map();
    players.forEach((p) => p.by_game.mhing.premiums.forEach((/** @type {{code: string, count: number}} */ { code, count }) => counts.set(code, (counts.get(code) || 0) + count)));
    const top = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8);
    return top.length ? [chart({ title: t("group.premiums_chart"), kind: "bars", labels: top.map(([code]) => t(`mhing.premium.${code}`, {}, code)), xLabel: t("group.premium"), series: [{ label: t("group.times"), values: top.map(([, n]) => n) }], testid: "chart-mhing-premiums" })] : [];
  },
  progressAxis: "group.round",
  needsSeatLinks: () => false,
};
