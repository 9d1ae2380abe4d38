// Words for the confirm sheet: what an event would do, read from the preview table.
import { t, list } from "../../i18n.js";
import { colourName, playerName } from "./colours.js";
import { lastMoveText, sentence } from "./status.js";


/** @typedef {import("kibitz-api").components["schemas"]} Schemas */

/**
 * @param {unknown} a
 * @param {unknown} b
 */
function same(a, b) {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/**
 * @param {Schemas["MaheTable"]} before
 * @param {Schemas["MaheTable"]} after
 * @param {Schemas["MaheEvent"] | Schemas["UndoEvent"]} event
 */
export function describe(before, after, event) {
  const b = before.state;
  const a = after.state;
  const parts = [];
  switch (event.type) {
    case "reveal_card":
      parts.push(t("sum.reveal", { count: event.value }));
      break;
    case "choose_turtle":
      parts.push(t("sum.choose", { turtle: colourName(event.turtle) }));
      break;
    case "play_card":
      parts.push(t("sum.play_card", { name: playerName(b, before.legal_actions.decider?.seat ?? b.turn?.seat), value: event.value }));
      break;
    case "die":
      if (event.value !== undefined) parts.push(t("sum.die", { value: event.value }));
      break;
    case "stop":
      parts.push(t("sum.stop"));
      break;
    case "undo":
      parts.push(t("sum.undo"));
      break;
    default:
      break;
  }
  const moved = a.last_move && !same(a.last_move, b.last_move);
  if (moved) {
    parts.push(lastMoveText(a));
    if (a.last_move?.game_over || a.phase === "finished") parts.push(t("sum.game_over"));
    else if (a.turn?.seat !== b.turn?.seat) parts.push(t("sum.next_turn", { name: playerName(a, a.turn.seat) }));
  } else if (a.turn?.dice?.length && (event.type === "die" || event.type === "play_card")) {
    const dice = a.turn.dice.map((d) => d.value);
    const sum = dice.reduce((x, y) => x + y, 0);
    parts.push(dice.length === 1
      ? t("sum.so_far_one", { count: sum })
      : t("sum.dice_so_far", { dice: dice.join(" + "), sum, n: dice.length, count: sum * dice.length }));
    const stop = (after.legal_actions.actions || []).find((x) => x.type === "stop");
    if (stop) {
      parts.push(stop.to === 0 ? "" : t("sum.if_stop", { to: stop.to }));
      if (stop.card_to !== null && stop.card_to !== undefined) parts.push(t("sum.if_stop_card", { name: playerName(a, stop.card_to) }));
    }
    if (after.legal_actions.decider) parts.push(t("sum.then_decides", { name: after.legal_actions.decider.name }));
  } else if (event.type === "reveal_card" || event.type === "choose_turtle") {
    const turtles = a.turn?.turtle ? [colourName(a.turn.turtle)] : [];
    if (turtles.length && event.type !== "choose_turtle") parts.push(t("sum.next_mover", { turtle: list(turtles) }));
  }
  return parts.filter(Boolean).map(sentence).join(" ");
}
