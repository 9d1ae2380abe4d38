// A group's date filter (issue 33, item 9): the phone's own days, sent as the instants they start
// and end on this phone (its midnight, not UTC's), so a game at 00:30 counts on the day it was played.

/**
 * A day ("2026-11-28") at this phone's midnight, `plus` days on, as an ISO instant.
 * @param {string} dayText
 * @param {number} plus
 * @returns {string}
 */
function midnight(dayText, plus) {
  const [y, m, d] = dayText.split("-").map(Number);
  return new Date(y, m - 1, d + plus).toISOString();
}

/**
 * The query of a date window: `from` the first day's start, `to` the last day's end (both days in).
 * @param {string} from "" for no lower bound
 * @param {string} to "" for no upper bound
 * @returns {URLSearchParams}
 */
export function dateQuery(from, to) {
  const q = new URLSearchParams();
  if (/^\d{4}-\d{2}-\d{2}$/.test(from)) q.set("from", midnight(from, 0));
  if (/^\d{4}-\d{2}-\d{2}$/.test(to)) q.set("to", midnight(to, 1));
  return q;
}
