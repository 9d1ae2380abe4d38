// MG-8 as the referee's one table (GET /api/games → magellan.powers): what winning an explorer card
// does on each side and field. The app reads it instead of restating the rules; the last copy is
// kept on the phone, so the table screen says it offline too.
import * as api from "../../api.js";

const KEY = "kibitz.magellan.powers";
/** Sent on window when the table arrives or changes, so a screen showing it can redraw. */
export const POWERS_CHANGED = "kibitz:magellan-powers";
/** @typedef {import("kibitz-api").components["schemas"]["Power"]} Power */

/** @type {Power[] | null} */
let rows = stored();

/** @returns {Power[] | null} */
function stored() {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? "null") || null;
  } catch {
    return null;
  }
}

/**
 * Keep the powers from a GET /api/games answer; true when they changed.
 * @param {import("kibitz-api").components["schemas"]["GameInfo"][] | null | undefined} games
 * @returns {boolean}
 */
export function rememberPowers(games) {
  const magellan = (games || []).find((g) => g.name === "magellan");
  if (!magellan?.powers) return false;
  const text = JSON.stringify(magellan.powers);
  if (text === JSON.stringify(rows)) return false;
  rows = magellan.powers;
  try {
    localStorage.setItem(KEY, text);
  } catch {
    /* private mode: kept for this visit only */
  }
  window.dispatchEvent(new Event(POWERS_CHANGED));
  return true;
}

/** @returns {boolean} */
export function hasPowers() {
  return rows !== null;
}

/**
 * Fetch the current table (after a release it may have changed); true when it did.
 * @returns {Promise<boolean>}
 */
export async function refreshPowers() {
  try {
    return rememberPowers(await api.listGames());
  } catch {
    return false; // offline: the kept copy stays
  }
}

/**
 * The row of (explorer, side, field), or null before the app has ever seen the table.
 * @param {string} explorer
 * @param {string} side
 * @param {number} field
 * @returns {Power | null}
 */
export function powerOf(explorer, side, field) {
  return (rows || []).find((r) => r.explorer === explorer && r.side === side && r.field === field) || null;
}
