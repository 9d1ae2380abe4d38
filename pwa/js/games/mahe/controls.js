// Mahé's action bar: the big buttons for whatever legal_actions allows right now, with the API's
// odds (bust chance, where each die value would take the turtle, who would get the egg card).
import { h, present } from "../../dom.js";
import { t, percent } from "../../i18n.js";
import { barHead, bigButton, prompt, viewOnlyHint } from "../../ui/action-bar.js";
import { colourName, playerName, HEX } from "./colours.js";
import { turnInfo, deciderInfo, notes, swatch } from "./status.js";

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */
/** @typedef {Schemas["MaheTable"]} MaheTable */
/** @typedef {Schemas["MaheView"]} MaheView */
/** A die's or an egg card's outcome: where the turtle would go, who would take the egg card. */
/** @typedef {{to: number, bust?: boolean, card_to?: number | null}} Outcome */

/** @param {MaheView} state */
function cardPrize(state) {
  if (state.face_up !== null && state.face_up !== undefined) return `+${state.face_up}`;
  return state.beach_exposed ? "+7" : "";
}

/**
 * "→ 15 · Eva +5", "bust", "→ raft".
 * @param {MaheView} state
 * @param {Outcome | undefined} o
 */
export function outcomeText(state, o) {
  if (!o) return "";
  if (o.bust) return t("mahe.bust");
  const dest = o.to === 0 ? t("mahe.raft") : `→ ${o.to}`;
  if (o.card_to !== null && o.card_to !== undefined) return `${dest} · ${playerName(state, o.card_to)} ${cardPrize(state)}`;
  return dest;
}

/**
 * @param {MaheView} state
 * @param {Schemas["MaheDieAction"]} action
 * @param {(value: number) => void} onValue
 */
function diePad(state, action, onValue) {
  const outcomes = new Map((action.outcomes || []).map((o) => [o.value, o]));
  const values = action.values || [1, 2, 3, 4, 5, 6];
  return h(
    "div",
    { class: "pad pad-dice", testid: "die-pad" },
    ...values.map((v) => {
      const o = outcomes.get(v);
      return bigButton({
        testid: `die-${v}`,
        label: String(v),
        sub: outcomeText(state, o),
        kind: o?.bust ? "danger-soft" : "die",
        onclick: () => onValue(v),
      });
    }),
  );
}

/** @typedef {import("../registry.js").ByType<Schemas["MaheAction"]>} Acts */
/** @typedef {import("../registry.js").Controller} Controller */

/**
 * Build the action bar for what legal_actions allows now.
 * @param {MaheTable} table
 * @param {Controller} ctl
 * @returns {HTMLElement}
 */
export function renderControls(table, ctl) {
  const { state } = table;
  /** @type {Partial<Schemas["MaheLegalActions"]>} */
  const legal = table.legal_actions || { actions: [] };
  /** @type {Acts} */
  const acts = Object.fromEntries((legal.actions || []).map((a) => [a.type, a]));
  const head = barHead(table, ctl, t("mahe.undo"), turnInfo(table), deciderInfo(table));
  const body = h("div", { class: "bar-body" });
  const noteList = notes(table);

  if (ctl.readOnly) {
    body.append(viewOnlyHint());
  } else if (table.finished || state.phase === "finished") {
    /* the result panel says it all */
  } else if (acts.reveal_card) {
    body.append(...revealStep(acts.reveal_card, ctl));
  } else if (acts.choose_turtle) {
    body.append(...chooseStep(state, acts.choose_turtle, ctl));
  } else if (legal.phase === "roll" && acts.die) {
    body.append(...rollStep(table, legal, acts.die, ctl));
  } else {
    body.append(...decideStep(table, legal, acts, ctl));
    if (!body.childNodes.length) body.append(prompt(t("mahe.waiting")));
  }
  return h("div", { class: "actionbar", testid: "actionbar" }, head, noteList, body.childNodes.length ? body : null);
}

/** @param {MaheTable} table @returns {boolean} the server rolls (MA-12) */
function isDigital(table) {
  return (table.state.options?.chance || table.options?.chance) === "digital";
}

/**
 * An egg card to turn up: its value, one tap.
 * @param {NonNullable<Acts["reveal_card"]>} reveal
 * @param {Controller} ctl
 * @returns {HTMLElement[]}
 */
function revealStep(reveal, ctl) {
  return [
    prompt(t("mahe.reveal_prompt")),
    h(
      "div",
      { class: "pad" },
      ...present(reveal.values, "the cards to reveal").map((v) =>
        bigButton({ testid: `card-${v}`, label: String(v), kind: "die", onclick: () => ctl.propose({ type: "reveal_card", value: v }) }),
      ),
    ),
  ];
}

/**
 * The player on turn picks which of their turtles moves.
 * @param {MaheTable["state"]} state
 * @param {NonNullable<Acts["choose_turtle"]>} choose
 * @param {Controller} ctl
 * @returns {HTMLElement[]}
 */
function chooseStep(state, choose, ctl) {
  return [
    prompt(t("mahe.choose_prompt", { name: playerName(state, state.turn?.seat ?? 0) })),
    h(
      "div",
      { class: "row" },
      ...choose.turtles.map((c) => {
        const b = bigButton({
          testid: `choose-turtle-${c}`,
          label: colourName(c),
          kind: "turtle",
          onclick: () => ctl.propose({ type: "choose_turtle", turtle: c }),
        });
        b.prepend(swatch(c));
        b.style.borderColor = HEX[c];
        return b;
      }),
    ),
  ];
}

/**
 * The first die of a turn: the server rolls it (digital) or the die's value is tapped.
 * @param {MaheTable} table
 * @param {Partial<Schemas["MaheLegalActions"]>} legal
 * @param {NonNullable<Acts["die"]>} die
 * @param {Controller} ctl
 * @returns {HTMLElement[]}
 */
function rollStep(table, legal, die, ctl) {
  const { state } = table;
  const who = playerName(state, legal.mover ?? state.turn?.seat ?? 0);
  const turtle = colourName(present(legal.turtle || state.turn?.turtle, "the moving turtle"));
  if (isDigital(table)) {
    return [
      prompt(t("mahe.roll_prompt_digital", { name: who, turtle })),
      bigButton({ testid: "roll", label: t("mahe.roll"), onclick: () => ctl.commitNow({ type: "die" }) }),
    ];
  }
  return [prompt(t("mahe.roll_prompt", { name: who, turtle })), diePad(state, die, (v) => ctl.propose({ type: "die", value: v }))];
}

/**
 * Decide: stop, the next die's value, or (variant MA-11) play an egg card as the die.
 * @param {MaheTable} table
 * @param {Partial<Schemas["MaheLegalActions"]>} legal
 * @param {Acts} acts
 * @param {Controller} ctl
 * @returns {HTMLElement[]}
 */
function decideStep(table, legal, acts, ctl) {
  const { state } = table;
  const digital = isDigital(table);
  /** @type {HTMLElement[]} */
  const shown = [];
  const row = h("div", { class: "row" });
  if (acts.stop) {
    row.append(
      bigButton({
        testid: "stop",
        label: t("mahe.stop"),
        sub: `${t("mahe.fields", { count: acts.stop.distance })} ${outcomeText(state, acts.stop)}`,
        kind: "primary",
        onclick: () => ctl.propose({ type: "stop" }),
      }),
    );
  }
  const bust = percent(acts.die?.bust_chance ?? 0);
  if (acts.die && digital) {
    row.append(
      bigButton({
        testid: "another-die",
        label: t("mahe.another_die"),
        sub: t("mahe.bust_chance", { p: bust }),
        kind: "warning",
        onclick: () => ctl.propose({ type: "die" }, { preview: false, text: t("mahe.confirm_another_digital", { p: bust }) }),
      }),
    );
  }
  if (acts.stop || acts.die) {
    shown.push(prompt(legal.decider ? t("mahe.decide_prompt", { name: legal.decider.name }) : t("mahe.decide_prompt_plain")), row);
  }
  // Physical dice: tapping what the next die shows says "another die" too (the decider's choice is
  // visible in the die having been rolled), so there is no separate "Another die" tap.
  if (acts.die && !digital) {
    shown.push(
      h("p", { class: "prompt-sub", testid: "another-die-hint" }, t("mahe.another_prompt", { p: bust })),
      diePad(state, acts.die, (v) => ctl.propose({ type: "die", value: v })),
    );
  }
  if (acts.play_card?.cards?.length) shown.push(playCards(state, acts.play_card, ctl));
  return shown;
}

/**
 * Variant MA-11: an egg card played as the die, each with what it would do.
 * @param {MaheTable["state"]} state
 * @param {NonNullable<Acts["play_card"]>} play
 * @param {Controller} ctl
 * @returns {HTMLElement}
 */
function playCards(state, play, ctl) {
  const outcomes = new Map((play.outcomes || []).map((o) => [o.value, o]));
  return h(
    "div",
    { class: "row row-cards", testid: "play-cards" },
    ...play.cards.map((v) =>
      bigButton({
        testid: `play-card-${v}`,
        label: t("mahe.play_card", { value: v }),
        sub: outcomeText(state, outcomes.get(v)),
        kind: "card",
        onclick: () => ctl.propose({ type: "play_card", value: v }),
      }),
    ),
  );
}
