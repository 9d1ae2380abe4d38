// The table the screens draw while the phone referees: one function of the record (the server's
// log, the waiting entries, the conflict: record.js `merged`) and the referee's answer for the
// log it shows. Pure.

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */
/** @typedef {import("./record.js").SyncRecord} SyncRecord */
/** @typedef {import("./held.js").Rules} Rules */
/**
 * A table as the screens draw it; `local` when this phone's referee made it (`waiting`: entries not
 * on the server yet, `since`: when the oldest of them was tapped).
 * @typedef {Schemas["Table"] & {local?: {waiting: number, since: string | null}}} SyncedTable
 */

/**
 * The table view after `version` entries of the shown log, from the referee's `rules` of them.
 * @param {SyncRecord} record
 * @param {Rules} rules
 * @param {number} version
 * @param {{created_at?: string, updated_at?: string} | null} server the server's last view (its times)
 * @returns {SyncedTable}
 */
export function tableView(record, rules, version, server) {
  const view = {
    id: record.id,
    game: record.game,
    version,
    finished: rules.finished,
    players: record.players,
    options: record.options,
    state: rules.state,
    legal_actions: rules.legal_actions,
    result: rules.result,
    seed: null,
    created_at: server?.created_at || record.createdAt,
    updated_at: server?.updated_at || record.createdAt,
    local: { waiting: record.queue.length, since: record.queue[0]?.at ?? null },
  };
  return /** @type {SyncedTable} */ (/** @type {unknown} */ (view)); // the referee's state is the game's own
}
