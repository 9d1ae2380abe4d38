// The players' choices when their waiting entries met another phone's: which can be made now,
// tried on a scratch table of the phone's referee. Reads a record, never changes one (the session
// applies the chosen queue with record.js `chosen`).
import * as api from "../api.js";
import { resolved } from "./merge.js";
import { onScratch } from "./held.js";

/** @typedef {import("./merge.js").Choice} Choice */
/** @typedef {import("./merge.js").Waiting} Waiting */
/** @typedef {import("./record.js").Problem} Problem */
/** @typedef {import("./record.js").SyncRecord} SyncRecord */
/** @typedef {{ok: true, queue: Waiting[]} | {ok: false, reason: string, error?: Problem}} Tried */

/**
 * Whether `choice` can be made now, and the entries that would wait after it.
 * @param {SyncRecord | null} record
 * @param {Choice} choice
 * @returns {Promise<Tried>}
 */
export async function tryChoice(record, choice) {
  const conflict = record?.conflict;
  if (!record || !conflict) return { ok: false, reason: "none" };
  if (choice === "drop") return { ok: true, queue: [] };
  if (conflict.refused) return { ok: false, reason: "refused", error: conflict.error };
  const queue = resolved(record.serverEvents, record.queue, choice, api.newIdempotencyKey);
  if (!queue) return { ok: false, reason: "cannot-take-back" };
  const events = [...record.serverEvents, ...queue.map((item) => item.event)];
  const answer = await onScratch(record, `${record.id}#choice`, events, async (opened) => opened);
  if (!answer.ok) return { ok: false, reason: "does-not-fit", error: answer.error };
  return { ok: true, queue };
}

/**
 * Whether each choice can be made now: {after, back, drop}: {ok, reason?, error?}.
 * @param {SyncRecord | null} record
 * @returns {Promise<Record<Choice, {ok: boolean, reason?: string, error?: Problem}>>}
 */
export async function conflictChoices(record) {
  const drop = { ok: true };
  const after = await tryChoice(record, "after");
  const back = await tryChoice(record, "back");
  return { drop, after, back };
}
