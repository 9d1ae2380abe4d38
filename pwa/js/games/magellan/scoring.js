// The end (MG-10 … MG-12): money left in hand (outcomes depth: every hand typed in, then one sheet
// for all), the Pizarro helper (bust chance, chance to beat the leader, advice), the standings, and the end screen with every player's
// breakdown — fields, money crowns, each Magellan pile with its multiplier, Pizarro.
import { h } from "../../dom.js";
import { ApiError, OfflineError } from "../../api.js";
import { t, list, percent } from "../../i18n.js";
import { bigButton, prompt } from "../../ui/action-bar.js";
import { panel } from "../../ui/panel.js";
import { explanationLine, gameResultPanel, winnerNames } from "../../ui/result-panel.js";
import { openSheet } from "../../ui/sheet.js";
import { PIZARRO_LIMIT, ROMAN, crownsOf, explorerName, playerName, seatDot, sum, whyLink } from "./common.js";
import { describeEvent } from "./describe.js";
import { moneyPad, pickedCards, seatChips } from "./inputs.js";

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */
/** @typedef {Schemas["MagellanTable"]} MagellanTable */
/** @typedef {Schemas["MagellanView"]} MagellanView */
/** @typedef {import("./controls.js").Env} Env */
/** @typedef {import("./controls.js").Ui} Ui */

/**
 * Outcomes depth: every player's money cards left in hand (MG-10 counts their crowns, MG-1). Each
 * hand is typed in and kept on the phone ("done"), the pad moves on to the next player, and once
 * every hand is typed ONE sheet lists them all for a single confirmation (issue 26: no sheet per
 * hand). ui.hands: seat → cards typed; ui.kept: the seats whose hand is done.
 * @param {MagellanTable} table
 * @param {Ui} ui
 * @param {Env} env
 * @returns {HTMLElement[]}
 */
export function finalHandBody(table, ui, env) {
  const state = table.state;
  const waiting = (table.legal_actions.actors || []).map((a) => a.seat);
  const seats = state.players.map((p) => p.seat);
  // Hands recorded meanwhile (another phone, or the sheet) are no longer typed here.
  ui.kept = ui.kept.filter((s) => waiting.includes(s));
  for (const s of Object.keys(ui.hands)) if (!waiting.includes(Number(s))) delete ui.hands[Number(s)];
  const open = waiting.filter((s) => !ui.kept.includes(s));
  if (ui.seat === null || ui.seat === undefined || !seats.includes(ui.seat)) ui.seat = open[0] ?? waiting[0] ?? 0;
  const seat = ui.seat;
  /** @type {Record<number, "done" | "kept" | "waiting">} */
  const marks = Object.fromEntries(
    state.players.map((p) => [p.seat, p.final_hand_entered ? "done" : ui.kept.includes(p.seat) ? "kept" : "waiting"]),
  );
  /** @type {number[]} */
  const picked = ui.hands[seat] || [];
  const crowns = crownsOf(picked);
  const setHand = (/** @type {number[]} */ cards) => ui.set({ hands: { ...ui.hands, [seat]: cards } });
  const name = playerName(state, seat);
  /** @type {HTMLElement[]} */
  const body = [
    seatChips(state, seats, seat, (s) => ui.set({ seat: s }), { testPrefix: "mg-hand-seat", marks }),
    prompt(t("magellan.hand.prompt", { name }), " ", whyLink("MG-1", "why-money-crowns")),
  ];
  if (!waiting.includes(seat)) {
    body.push(h("p", { class: "small muted", testid: "mg-hand-recorded" }, t("magellan.hand.recorded", { name })));
  } else {
    body.push(
      pickedCards(picked, (i) => setHand(picked.filter((_, j) => j !== i)), { emptyText: t("magellan.hand.empty") }),
      moneyPad({ onPick: (v) => setHand([...picked, v]) }),
      bigButton({
        testid: "mg-hand-save",
        label: picked.length ? t("magellan.hand.save", { name }) : t("magellan.hand.save_empty", { name }),
        sub: picked.length ? t("magellan.hand.summary", { count: picked.length, crowns: t("magellan.crowns_short", { count: crowns }) }) : null,
        onclick: () => {
          // Done with this hand: on to the next player still to type; after the last, the one sheet.
          const kept = ui.kept.includes(seat) ? ui.kept : [...ui.kept, seat];
          const hands = { ...ui.hands, [seat]: picked };
          const after = [...waiting.filter((s) => s > seat), ...waiting.filter((s) => s < seat)];
          const next = after.find((s) => !kept.includes(s));
          ui.set({ kept, hands, seat: next ?? seat });
          if (next === undefined) env.confirmHands();
        },
      }),
    );
  }
  if (ui.kept.length) {
    const all = ui.kept.length === waiting.length;
    body.push(
      bigButton({
        testid: "mg-hands-confirm",
        label: t("magellan.hands.check", { count: ui.kept.length }),
        sub: all ? null : t("magellan.hands.still_open", { count: waiting.length - ui.kept.length }),
        kind: all ? "primary" : "secondary",
        extraClass: "mg-hands-confirm",
        onclick: () => env.confirmHands(),
      }),
    );
  }
  return body;
}

/**
 * The one confirm sheet for the end of the game: every hand typed so far, each with its cards and
 * crowns (MG-1, MG-10), recorded on a single Confirm as ONE entry (`final_hands`, issue 33): the
 * phone's referee checks all of them first, and a refused hand ("more than seven 3s") records none
 * and says which hand to fix — never half the hands. Returns the sheet.
 * @param {import("../registry.js").Controller} ctl
 * @param {Ui} ui
 * @returns {ReturnType<typeof openSheet> | null} null when no hand is typed yet
 */
export function openHandsSheet(ctl, ui) {
  const table = /** @type {MagellanTable} */ (ctl.table); // opened from the Magellan bar
  const state = table.state;
  const waiting = (table.legal_actions.actors || []).map((a) => a.seat);
  const seats = waiting.filter((s) => ui.kept.includes(s));
  if (!seats.length) return null;
  /** @type {(Schemas["MagellanFinalHandEvent"] & {seat: number})[]} */
  const events = seats.map((seat) => ({ type: "final_hand", seat, cards: [...(ui.hands[seat] || [])].sort((a, b) => a - b) }));
  const missing = waiting.filter((s) => !seats.includes(s));
  const problem = h("p", { class: "small mg-warning", role: "alert", testid: "mg-hands-refused", hidden: true });
  let running = false;
  const sheet = openSheet({
    title: t("magellan.hands.title"),
    confirmLabel: t("magellan.hands.record", { count: events.length }),
    testid: "mg-hands-sheet",
    onConfirm: async () => {
      if (running) return;
      running = true;
      sheet.setBusy(true, { lock: true });
      // Hands recorded meanwhile on another phone are left out; the rest go in together.
      const open = new Set((/** @type {MagellanTable} */ (ctl.table).legal_actions.actors || []).map((a) => a.seat));
      const hands = Object.fromEntries(events.filter((e) => open.has(e.seat)).map((e) => [String(e.seat), e.cards]));
      if (!Object.keys(hands).length) {
        running = false;
        sheet.close();
        return;
      }
      /** @type {any} */
      const all = { type: "final_hands", hands };
      try {
        await ctl.check(all); // every hand, before any is recorded
      } catch (err) {
        // Offline without the phone's referee: the server checks the one entry when it arrives.
        if (!(err instanceof OfflineError)) {
          running = false;
          problem.textContent = t("magellan.hands.refused", { why: (err instanceof ApiError && err.problem?.detail) || t("error.generic") });
          problem.hidden = false;
          sheet.setBusy(false);
          return;
        }
      }
      await ctl.commitNow(all); // one entry, one Idempotency-Key: all the hands or none
      running = false;
      sheet.close();
    },
  });
  sheet.setBody([
    h("p", { class: "small" }, t("magellan.hands.intro"), " ", whyLink("MG-10", "why-hands")),
    h(
      "ul",
      { class: "mg-hands-list", testid: "mg-hands-list" },
      ...events.map((e) =>
        h(
          "li",
          { class: "mg-hands-row", testid: `mg-hands-row-${e.seat}`, "data-cards": e.cards.join(",") },
          seatDot(state, e.seat),
          h("span", {}, describeEvent(table, e)),
        ),
      ),
    ),
    problem,
    missing.length ? h("p", { class: "small mg-warning", testid: "mg-hands-missing" }, t("magellan.hands.missing", { names: list(missing.map((s) => playerName(state, s))) })) : null,
  ]);
  return sheet;
}

/**
 * The leader among the others and how much Pizarro must bring to pass them.
 * @param {MagellanView} state
 * @param {number} seat
 * @returns {{mine: Schemas["MagellanScore"], leader: Schemas["MagellanScore"]} | null}
 */
function race(state, seat) {
  const scores = state.scoring?.scores || [];
  const mine = scores.find((s) => s.seat === seat);
  const others = scores.filter((s) => s.seat !== seat);
  if (!mine || !others.length) return null;
  const leader = others.reduce((a, b) => (b.total > a.total ? b : a));
  return { mine, leader };
}

/**
 * @param {Schemas["MagellanPizarroDrawAction"] | undefined} draw
 * @param {number} total
 * @returns {"draw" | "stop"}
 */
function pointsAdvice(draw, total) {
  return draw && draw.expected_points > total + 1e-9 ? "draw" : "stop";
}

/**
 * @param {Schemas["MagellanPizarroDrawAction"] | undefined} draw
 * @param {number} total
 * @returns {"draw" | "stop" | null}
 */
function beatAdvice(draw, total) {
  if (!draw || draw.to_beat === null || draw.to_beat === undefined) return null;
  if (total > draw.to_beat) return "stop";
  return (draw.beat_chance ?? 0) > 0 ? "draw" : "stop";
}

/**
 * MG-11: the Pizarro helper — odds from legal_actions, draw (type the card in) or stop.
 * @param {MagellanTable} table
 * @param {Env} env
 * @returns {HTMLElement[]}
 */
export function pizarroBody(table, env) {
  const state = table.state;
  const actor = table.legal_actions.actors?.[0];
  if (!actor) return [];
  const seat = actor.seat;
  const draw = actor.actions.find((a) => a.type === "pizarro_draw");
  const stop = actor.actions.find((a) => a.type === "pizarro_stop");
  const drawn = state.players[seat].pizarro || [];
  const total = sum(drawn);
  const name = playerName(state, seat);
  const r = race(state, seat);
  const adviceP = pointsAdvice(draw, total);
  const adviceB = beatAdvice(draw, total);
  const advice = adviceB === null || adviceB === adviceP
    ? t(`magellan.pizarro.advice_${adviceB ?? adviceP}`)
    : t("magellan.pizarro.advice_split", { points: t(`magellan.pizarro.word_${adviceP}`), beat: t(`magellan.pizarro.word_${adviceB}`) });
  const info = h(
    "div",
    { class: "mg-pizarro", testid: "mg-pizarro" },
    h(
      "p",
      { class: "mg-pizarro-total", testid: "mg-pizarro-total", "data-total": total },
      h("strong", {}, drawn.length ? t("magellan.pizarro.total", { cards: drawn.join(" + "), total }) : t("magellan.pizarro.none_yet")),
      h("span", { class: "muted small" }, ` · ${t("magellan.pizarro.limit", { limit: PIZARRO_LIMIT })}`),
    ),
    r ? h("p", { class: "small", testid: "mg-pizarro-race" }, t("magellan.pizarro.race", { name, before: r.mine.before_pizarro, leader: r.leader.name, leader_total: r.leader.total })) : null,
    draw
      ? h(
          "div",
          { class: "mg-odds" },
          h("span", { class: "mg-odd", testid: "mg-pizarro-bust", "data-value": draw.bust_chance }, h("span", { class: "mg-odd-value" }, percent(draw.bust_chance ?? 0)), h("span", { class: "mg-odd-label" }, t("magellan.pizarro.bust"))),
          draw.to_beat !== null && draw.to_beat !== undefined
            ? h(
                "span",
                { class: "mg-odd", testid: "mg-pizarro-beat", "data-value": draw.beat_chance },
                h("span", { class: "mg-odd-value" }, percent(draw.beat_chance ?? 0)),
                h("span", { class: "mg-odd-label" }, total > draw.to_beat ? t("magellan.pizarro.ahead", { leader: r?.leader.name ?? "" }) : t("magellan.pizarro.beat", { need: draw.to_beat + 1, leader: r?.leader.name ?? "" })),
              )
            : null,
          h("span", { class: "mg-odd", testid: "mg-pizarro-expected" }, h("span", { class: "mg-odd-value" }, (Math.round(draw.expected_points * 10) / 10).toLocaleString()), h("span", { class: "mg-odd-label" }, t("magellan.pizarro.expected"))),
        )
      : h("p", { class: "small" }, t("magellan.pizarro.stack_empty")),
    h("p", { class: "mg-advice", testid: "mg-pizarro-advice", "data-advice": adviceB ?? adviceP }, advice, " ", whyLink("MG-11", "why-pizarro")),
  );
  /** @type {HTMLElement[]} */
  const body = [prompt(t("magellan.pizarro.prompt", { name })), info];
  const stopButton = bigButton({
    testid: "mg-pizarro-stop",
    label: t("magellan.pizarro.stop", { count: stop?.points ?? total }),
    kind: adviceP === "stop" ? "primary" : "secondary",
    onclick: () => env.propose({ type: "pizarro_stop", seat }),
  });
  if (draw && draw.value_required) {
    body.push(
      h("p", { class: "small mg-pad-label" }, t("magellan.pizarro.type_card")),
      moneyPad({
        testPrefix: "mg-pizarro-card",
        onPick: (value) => env.propose({ type: "pizarro_draw", seat, value }),
        sub: (v) => (total + v > PIZARRO_LIMIT ? t("magellan.pizarro.bust_short") : `= ${total + v}`),
      }),
      stopButton,
    );
  } else if (draw) {
    body.push(
      h(
        "div",
        { class: "row" },
        bigButton({ testid: "mg-pizarro-draw", label: t("magellan.pizarro.draw"), kind: adviceP === "draw" ? "warning" : "secondary", onclick: () => env.propose({ type: "pizarro_draw", seat }, { reveals: true }) }),
        stopButton,
      ),
    );
  } else {
    body.push(stopButton);
  }
  return body;
}

/**
 * During the scoring, once hands and crowns are known: the standings before the Pizarro draw —
 * without it, also once some Pizarro cards are up (MG-11 counts last; the helper shows the draw).
 */
/**
 * @param {MagellanTable} table
 * @returns {HTMLElement | null}
 */
export function standingsPanel(table) {
  const state = table.state;
  const scores = state.scoring?.scores;
  if (!scores || state.stage !== "scoring") return null;
  const sorted = [...scores].sort((a, b) => b.before_pizarro - a.before_pizarro);
  return panel(
    { title: t("magellan.standings"), testid: "mg-standings" },
    h(
      "ol",
      { class: "ranking" },
      ...sorted.map((s) => h("li", {}, h("span", { class: "place" }, seatDot(state, s.seat)), h("span", { class: "rank-name" }, s.name), h("span", { class: "rank-score", testid: `mg-standing-${s.seat}` }, t("magellan.points", { count: s.before_pizarro })))),
    ),
  );
}

/**
 * @param {Schemas["MagellanFieldScore"]} f
 * @returns {string}
 */
function fieldText(f) {
  const where = `${explorerName(f.explorer)} ${ROMAN[f.field]}${f.part ? ` ${t(`magellan.part_short.${f.part}`)}` : ""}`;
  if (f.explorer === "magellan") return `${where}: ${t("magellan.result.via_piles")}`;
  if (f.explorer === "pizarro" && f.note) return `${where}: ${t("magellan.result.via_draw")}`;
  return `${where}: ${f.crowns}`;
}

/**
 * A card's money value is not its crowns (MG-1): "3 + 2 = 5" (each card's crowns, then the total).
 * @param {number[]} cards
 * @param {number} total
 * @returns {string}
 */
function crownsEach(cards, total) {
  const each = cards.map((v) => crownsOf([v]));
  return each.length > 1 ? `${each.join(" + ")} = ${total}` : String(total);
}

/**
 * @param {MagellanView} state
 * @param {Schemas["MagellanScore"]} score
 * @param {number} place
 * @param {number[]} winners
 * @returns {HTMLElement}
 */
function breakdown(state, score, place, winners) {
  /**
   * @param {string} label
   * @param {string} detail
   * @param {number} points
   * @param {string} testid
   */
  const row = (label, detail, points, testid) =>
    h("tr", { testid }, h("th", { scope: "row" }, label), h("td", { class: "mg-bd-detail" }, detail), h("td", { class: "num" }, String(points)));
  const rows = [
    row(t("magellan.result.fields"), score.fields.length ? score.fields.map(fieldText).join(" · ") : "–", score.fields_total, `mg-bd-fields-${score.seat}`),
    row(
      t("magellan.result.money"),
      score.money.cards.length ? t("magellan.result.money_detail", { cards: score.money.cards.join(", "), each: crownsEach(score.money.cards, score.money.crowns) }) : "–",
      score.money.crowns,
      `mg-bd-money-${score.seat}`,
    ),
    ...score.magellan.piles.map((p, i) =>
      row(
        t("magellan.result.pile", { n: i + 1 }),
        t("magellan.result.pile_detail", { cards: p.slid.join(", "), each: crownsEach(p.slid, p.crowns), multiplier: p.multiplier }),
        p.points,
        `mg-bd-pile-${score.seat}-${i}`,
      ),
    ),
  ];
  if (score.pizarro) {
    const p = score.pizarro;
    rows.push(
      row(
        explorerName("pizarro"),
        p.draws.length
          ? p.bust
            ? t("magellan.result.pizarro_bust", { cards: p.draws.join(" + "), sum: p.sum, limit: PIZARRO_LIMIT })
            : t("magellan.result.pizarro_sum", { cards: p.draws.join(" + "), sum: p.sum })
          : t("magellan.result.pizarro_none"),
        p.points,
        `mg-bd-pizarro-${score.seat}`,
      ),
    );
  }
  return h(
    "section",
    { class: ["mg-breakdown", winners.includes(score.seat) && "is-winner"], testid: `mg-breakdown-${score.seat}` },
    h(
      "h3",
      { class: "mg-bd-title" },
      h("span", { class: "place" }, `${place}.`),
      seatDot(state, score.seat),
      h("span", { class: "rank-name" }, score.name),
      h("span", { class: "mg-bd-total", testid: `mg-bd-total-${score.seat}` }, t("magellan.points", { count: score.total })),
    ),
    h("table", { class: "mg-bd-table" }, h("tbody", {}, ...rows)),
  );
}

/**
 * @param {Schemas["MagellanResult"]} result
 * @returns {string}
 */
function explanation(result) {
  const r = result.ranking;
  const best = r[0];
  if (result.decided_by === "shared") {
    return t("magellan.result.explain_shared", { names: list(winnerNames(result)), count: best.score });
  }
  if (r.length > 1) return t("magellan.result.explain_points", { winner: best.name, count: best.score, runner: r[1].name, runner_points: r[1].score });
  return t("magellan.result.explain_single", { winner: best.name, count: best.score });
}

/**
 * @param {MagellanTable} table
 * @param {string} tableId
 * @returns {HTMLElement | null}
 */
export function resultPanel(table, tableId) {
  const result = table.result || table.state.result;
  if (!result) return null;
  const state = table.state;
  const places = Object.fromEntries(result.ranking.map((r) => [r.seat, r.place]));
  const bySeat = [...result.scores].sort((a, b) => result.ranking.findIndex((r) => r.seat === a.seat) - result.ranking.findIndex((r) => r.seat === b.seat));
  return gameResultPanel({
    result,
    tableId,
    extraClass: "mg-result",
    fallbackName: (seat) => playerName(state, seat),
    score: (r) => t("magellan.points", { count: r.score }),
    intro: [
      explanationLine(explanation(result), " ", whyLink("MG-12", "why-result")),
      h("p", { class: "small muted" }, t("magellan.result.order", { names: result.scoring_order.map((s) => playerName(state, s)).join(" → ") }), " ", whyLink("MG-10", "why-order")),
    ],
    extra: [h("h3", { class: "section-title" }, t("magellan.result.breakdown")), ...bySeat.map((score) => breakdown(state, score, places[score.seat], result.winners))],
  });
}
