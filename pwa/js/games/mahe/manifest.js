// What the app knows of Mahé without loading its client (pwa/js/games/registry.js).
import { PALETTE } from "./colours.js";

/**
 * The players of a new table from a group's players: turtle colours (MA-2: two each with 2–3
 * players, one with more) — the ones each player had last time where they still fit, else the
 * player's own colour, else the first free colours of the palette.
 * @param {import("kibitz-api").components["schemas"]["Group"]} group
 * @param {string[]} seatIds
 * @param {{seats: string[], players: {colours?: string[]}[]} | null} last the group's last seating at Mahé
 */
function seatPlayers(group, seatIds, last) {
  const byId = new Map(group.players.map((p) => [p.id, p]));
  const each = seatIds.length <= 3 ? 2 : 1;
  const before = new Map((last?.seats || []).map((id, seat) => [id, last?.players[seat]?.colours || []]));
  const taken = new Set();
  const chosen = seatIds.map((id) => {
    // Colours the palette knows (a group player's colour and a last seating's are any strings).
    const wanted = /** @type {import("./colours.js").Colour[]} */ ([...(before.get(id) || []), byId.get(id)?.colour].filter((c) => PALETTE.includes(/** @type {import("./colours.js").Colour} */ (c))));
    /** @type {string[]} */
    const mine = [];
    for (const colour of wanted) {
      if (mine.length < each && !taken.has(colour) && !mine.includes(colour)) mine.push(colour);
    }
    mine.forEach((c) => taken.add(c));
    return mine;
  });
  return seatIds.map((id, seat) => {
    const colours = chosen[seat];
    for (const colour of PALETTE) {
      if (colours.length >= each) break;
      if (!taken.has(colour)) {
        colours.push(colour);
        taken.add(colour);
      }
    }
    return { name: byId.get(id)?.name || "", colours };
  });
}

/** @type {import("../registry.js").GameManifest} */
export default {
  name: "mahe",
  title: "Mahé",
  min: 2,
  max: 7,
  load: () => import("./index.js"),
  statsColumns: [["eggs_per_game", "group.eggs_per_game"], ["busts", "group.busts"], ["beaches", "group.beaches"], ["best_score", "group.best"]],
  progressAxis: "group.move",
  // Mahé's face-down egg cards (MA-7) are each player's own.
  needsSeatLinks: () => true,
  colours: PALETTE,
  seatPlayers,
};
