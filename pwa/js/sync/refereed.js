// Which tables this phone's own referee holds (session.js says so as it takes a table over or gives
// it back): the live stream of such a table asks the server for the new log entries alone
// (`?view=log`), since the referee works out the state, the legal actions and the result itself.

/** @type {Set<string>} */
const held = new Set();
/** @type {Map<string, Set<(holds: boolean) => void>>} */
const listeners = new Map();

/**
 * The referee holds table `tableId` now (true), or no longer (false).
 * @param {string} tableId
 * @param {boolean} holds
 */
export function refereeHolds(tableId, holds) {
  if (held.has(tableId) === holds) return;
  if (holds) held.add(tableId);
  else held.delete(tableId);
  for (const listener of listeners.get(tableId) || []) listener(holds);
}

/** @param {string} tableId */
export function refereeHas(tableId) {
  return held.has(tableId);
}

/**
 * Be told when the referee takes table `tableId` over or gives it back; returns the way to stop.
 * @param {string} tableId
 * @param {(holds: boolean) => void} listener
 */
export function onRefereeHolds(tableId, listener) {
  const own = listeners.get(tableId) || new Set();
  listeners.set(tableId, own.add(listener));
  return () => {
    own.delete(listener);
    if (!own.size && listeners.get(tableId) === own) listeners.delete(tableId);
  };
}
