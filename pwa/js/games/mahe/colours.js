// Mahé's seven turtle colours (MA-1) and helpers to name them and their owners.
import { t } from "../../i18n.js";

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */
/** @typedef {Schemas["MaheView"]} MaheView */
/** A turtle's colour as the players' lists name it (a turn's `turtle` is any string). */
/** @typedef {Schemas["MahePlayer"]["colours"][number]} Colour */

/** @type {Colour[]} */
export const PALETTE = ["red", "yellow", "green", "lightblue", "darkblue", "purple", "black"];

/** @type {Record<string, string>} */
export const HEX = {
  red: "#d7263d",
  yellow: "#f7c80c",
  green: "#2a9d3f",
  lightblue: "#62c6f0",
  darkblue: "#1d3f9a",
  purple: "#7b2cbf",
  black: "#232323",
};

/** @param {string} colour */
export function colourName(colour) {
  return t(`colour.${colour}`, {}, colour);
}

/**
 * @param {MaheView} state
 * @param {string} colour
 */
export function ownerSeat(state, colour) {
  const p = state.players.find((pl) => pl.colours.includes(/** @type {Colour} */ (colour)));
  return p ? p.seat : null;
}

/**
 * @param {MaheView} state
 * @param {number} seat
 */
export function playerName(state, seat) {
  const p = state.players.find((pl) => pl.seat === seat) || state.players[seat];
  return p ? p.name : "?";
}
