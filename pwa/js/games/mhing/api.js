// The stateless Mhing referee: score a hand, list its waits, resolve claims (no table needed).
// Asked of the phone's own referee once it runs (instant, offline too), else of the server.
// Same conventions as js/api.js: problem+json errors become ApiError, no network → OfflineError.
import { ApiError, OfflineError } from "../../api.js";
import { ask, refereeReady } from "../../referee/client.js";

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */

/**
 * @param {string} path
 * @param {object} body
 * @returns {Promise<any>} the operation's answer (each caller below names its type)
 */
async function post(path, body) {
  if (refereeReady()) {
    const answer = await ask({ op: `mhing.${path}`, body });
    if (!answer.ok) throw new ApiError({ title: "Refused", ...answer.error }, answer.error.status);
    delete answer.ok;
    return answer;
  }
  let res;
  try {
    res = await fetch(`/api/mhing/${path}`, {
      method: "POST",
      headers: { Accept: "application/json, application/problem+json", "Content-Type": "application/json" },
      body: JSON.stringify(body),
      cache: "no-store",
    });
  } catch {
    throw new OfflineError("offline");
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) throw new ApiError(data && typeof data === "object" ? data : { title: res.statusText, status: res.status }, res.status);
  return data;
}

/**
 * POST /api/mhing/score: best reading, premiums, points — or why the hand does not go out.
 * @param {Schemas["Hand"]} hand
 * @param {boolean} [discard]
 * @returns {Promise<Schemas["ScoreResult"]>}
 */
export function scoreHand(hand, discard) {
  return post("score", { ...hand, discard: !!discard });
}

/** POST /api/mhing/waits: for 13 cards, every card that completes the hand (as a discard: never
 * the exceptional hand, MH-3).
 * @param {Schemas["Hand"]} hand
 * @param {boolean} [discard]
 * @returns {Promise<Schemas["WaitsResult"]>}
 */
export function waitsFor(hand, discard) {
  return post("waits", { ...hand, discard: !!discard });
}

/**
 * POST /api/mhing/claims: who takes a discard (MH-4).
 * @param {number} discarder
 * @param {number} seats
 * @param {Schemas["ClaimRequest"][]} claims
 * @returns {Promise<Schemas["ClaimsResult"]>}
 */
export function resolveClaims(discarder, seats, claims) {
  return post("claims", { discarder, seats, claims });
}
