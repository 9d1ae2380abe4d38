// Words for the confirm sheet: what an event would do, read from the preview table.
import { present } from "../../dom.js";
import { t, list } from "../../i18n.js";
import { playerName, signed } from "./rules.js";
import { roundSummary } from "./standings.js";

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */

/**
 * @param {Schemas["MhingTable"]} before
 * @param {Schemas["MhingTable"]} after
 * @param {Schemas["MhingRound"]} r
 * @returns {string[]}
 */
function settlementText(before, after, r) {
  const a = after.state;
  const parts = [];
  const seat = present(r.winner, "the round's winner"); // a round won or scored has one
  if (a.settlement === 1) {
    const from = before.state.players[seat]?.score ?? 0;
    parts.push(t("mhing.sum.v1_score", { name: playerName(a, seat), from, to: a.players[seat].score }));
  } else {
    const paid = (r.payments || []).map((p) => {
      const name = playerName(a, p.seat);
      let text = t("mhing.sum.pays", { name, paid: p.paid });
      if (p.seat === r.discarder) text += ` ${t("mhing.sum.double")}`;
      if (p.paid < p.owed) text += ` ${t("mhing.sum.floor", { owed: p.owed })}`;
      return text;
    });
    if (paid.length) parts.push(`${list(paid)}.`);
    parts.push(t("mhing.sum.v2_total", { name: playerName(a, seat), change: signed(r.changes?.[seat] ?? 0), to: a.players[seat].score }));
  }
  return parts;
}

/**
 * @param {Schemas["MhingTable"]} after
 * @returns {string}
 */
function nextText(after) {
  const a = after.state;
  if (a.finished) {
    const res = after.result;
    const names = (res?.winners || []).map((s) => playerName(a, s));
    if (a.ended_by === "target") return t("mhing.sum.reaches_target", { name: names[0], target: a.target || 500 });
    if (a.ended_by === "all-points") return t("mhing.sum.holds_all", { name: names[0] });
    return t("mhing.sum.game_over");
  }
  return t("mhing.sum.next_dealer", { name: playerName(a, a.dealer), n: a.round });
}

/**
 * @param {Schemas["MhingTable"]} before
 * @param {Schemas["MhingTable"]} after
 * @param {Schemas["MhingEvent"] | Schemas["UndoEvent"]} event
 * @returns {string}
 */
export function describe(before, after, event) {
  const a = after.state;
  const r = a.last_round;
  const parts = [];
  switch (event.type) {
    case "round_won":
    case "round_points":
      if (r) {
        parts.push(`${roundSummary(a, r)}.`);
        parts.push(...settlementText(before, after, r));
      }
      parts.push(nextText(after));
      break;
    case "round_drawn":
      parts.push(t("mhing.sum.drawn", { n: before.state.round }));
      parts.push(nextText(after));
      break;
    case "end_game": {
      const res = after.result;
      const names = (res?.winners || []).map((s) => playerName(a, s));
      parts.push(t("mhing.sum.end_game"));
      if (names.length > 1) parts.push(t("mhing.sum.end_shared", { names: list(names) }));
      else if (names.length) parts.push(t("mhing.sum.end_leader", { name: names[0], count: a.players[present(res, "the result").winners[0]].score }));
      break;
    }
    case "undo":
      parts.push(t("mhing.sum.undo"));
      break;
    default:
      break;
  }
  return parts.filter(Boolean).join(" ");
}
