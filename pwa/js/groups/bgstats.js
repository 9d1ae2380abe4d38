// A BG Stats export (BGStatsExport.json) read on the phone and cut down to what the group can use
// before it is sent (issue 33, item 9): a whole export can be megabytes, the server takes 256 KiB.
// The server decides what counts (it matches the games by name again and checks every play); the
// phone only leaves out the plays of other games and the parts the import does not read.

/** "Mahé", "MAHE" and " mahe " are one name (case, accents and spacing left aside). */
export function folded(name) {
  return String(name).normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().split(/\s+/).filter(Boolean).join(" ");
}

const OURS = new Set(["mahe", "magellan", "mhing"]);

/**
 * The export with only the plays of Mahé, Magellan and Mhing, their games and their players;
 * null when the text is not a BG Stats export.
 * @param {string} text
 * @returns {{games: any[], players: any[], plays: any[]} | null}
 */
export function ourPlays(text) {
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (!data || !Array.isArray(data.games) || !Array.isArray(data.players) || !Array.isArray(data.plays)) return null;
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
