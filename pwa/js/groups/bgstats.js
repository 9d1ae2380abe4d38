// A BG Stats export (BGStatsExport.json) read on the phone and cut down to what the group can use
// before it is sent (issue 33, item 9): a whole export can be megabytes, the server takes 256 KiB.
// The server decides what counts (it matches the games by name again and checks every play); the
// phone only leaves out the plays of other games and the parts the import does not read.
import { GAMES } from "../games/registry.js";

/**
 * One name whatever its case, accents and spacing ("Ab é" and " AB E" are one).
 * @param {unknown} name
 * @returns {string}
 */
export function folded(name) {
  return String(name).normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().split(/\s+/).filter(Boolean).join(" ");
}

/**
 * The parts of a BG Stats export read here. It is someone else's file: every field may be missing or
 * of another type, so each is `unknown` until checked (the server checks them all again); the
 * entries are typed as objects, and the code below still skips a null one.
 * @typedef {{id?: unknown, name?: unknown}} BgGame
 * @typedef {{id?: unknown, name?: unknown}} BgPlayer
 * @typedef {{playerRefId?: unknown, score?: unknown, winner?: unknown}} BgScore
 * @typedef {{uuid?: unknown, gameRefId?: unknown, playDate?: unknown, durationMin?: unknown, sourcePlayId?: unknown, ignored?: unknown, playerScores?: BgScore[] | null}} BgPlay
 * @typedef {{games: BgGame[], players: BgPlayer[], plays: BgPlay[]}} BgExport
 */

// Our games by name and by title, folded (the server matches them again: api.groups.imports).
const OURS = new Set(GAMES.flatMap((g) => [g.name, folded(g.title)]));

/**
 * The export with only the plays of our games, their games and their players;
 * null when the text is not a BG Stats export.
 * @param {string} text
 * @returns {{games: any[], players: any[], plays: any[]} | null}
 */
export function ourPlays(text) {
  /** @type {{games?: unknown, players?: unknown, plays?: unknown} | null} */
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (!parsed || !Array.isArray(parsed.games) || !Array.isArray(parsed.players) || !Array.isArray(parsed.plays)) return null;
  const data = /** @type {BgExport} */ (parsed);
  const games = data.games.filter((g) => g && typeof g.name === "string" && OURS.has(folded(g.name)));
  const gameIds = new Set(games.map((g) => g.id));
  const plays = data.plays.filter((p) => p && gameIds.has(p.gameRefId) && !p.ignored);
  const used = new Set(plays.flatMap((p) => (Array.isArray(p.playerScores) ? p.playerScores.map((s) => s && s.playerRefId) : [])));
  const players = data.players.filter((p) => p && used.has(p.id)).map((p) => ({ id: p.id, name: p.name }));
  return {
    games: games.map((g) => ({ id: g.id, name: g.name })),
    players,
    plays: plays.map((p) => ({
      uuid: p.uuid ?? null,
      gameRefId: p.gameRefId,
      playDate: p.playDate,
      durationMin: p.durationMin ?? 0,
      sourcePlayId: p.sourcePlayId ?? null,
      playerScores: (p.playerScores || []).map((s) => ({ playerRefId: s.playerRefId, score: s.score ?? null, winner: s.winner ?? false })),
    })),
  };
}
