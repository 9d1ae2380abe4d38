// Entering the winner's hand: the hand so far (laid-out groups, hidden cards, flowers — tap a card
// to take it out), the live referee breakdown, and the card picker in the bar at the bottom.
// The picker is built once and updated in place, so a late answer from the server never swaps a
// button away under a finger.
import { h } from "../../dom.js";
import { t, codeText } from "../../i18n.js";
import { SUITS, WINDS, DRAGONS, JOKER, HAND_SIZE, tile, tileFace, cardName, groupKind } from "./cards.js";
import * as D from "./draft.js";
import { premiumsAndPoints, scoreView, waitsView, reasonText } from "./breakdown.js";
import { whyLink } from "./rules.js";
import { whoText } from "./controls.js";

/** The top part of the entry screen: who went out, the hand, the live breakdown. */
export function createHandView(act) {
  const head = h("div", { class: "mh-entry-head" });
  const hand = h("div", { class: "mh-hand", testid: "hand" });
  const live = h("section", { class: "panel mh-live", testid: "breakdown", "aria-live": "polite" });
  const el = h("div", { class: "mh-entry" }, h("section", { class: "panel mh-entry-panel" }, head, hand), live);

  /** @param {import("kibitz-api").components["schemas"]["MhingTable"]} table */
  function renderHead(table, d) {
    head.replaceChildren(
      h(
        "p",
        { class: "mh-who" },
        h("span", { testid: "hand-who" }, whoText(table.state, d)),
        " ",
        h("button", { type: "button", class: "btn-link mh-inline-link", testid: "change-winner", onclick: act.changeWinner }, t("mhing.change")),
      ),
      h(
        "button",
        { type: "button", class: "icon-button", testid: "cancel-hand", "aria-label": t("mhing.to_standings"), title: t("mhing.to_standings"), onclick: act.cancel },
        "×",
      ),
    );
  }

  function groupRow(g, index, d) {
    const isTarget = d.target === index;
    const kind = g.cards.length === 3 ? groupKind(g.cards.map((e) => e.card)) : null;
    let status;
    if (g.cards.length < 3) status = isTarget && d.jokerPending ? t("mhing.joker_declare") : t("mhing.group_progress", { have: g.cards.length });
    else status = kind ? t(`mhing.kind.${kind}`) : t("mhing.not_a_group");
    const tiles = g.cards.map((e) =>
      tile(e.card, {
        joker: e.joker,
        testid: "hand-tile",
        extraClass: "mh-hand-tile",
        label: t("mhing.remove_card", { card: e.joker ? t("mhing.card.joker_as", { card: cardName(e.card) }) : cardName(e.card) }),
        onclick: () => act.remove(e.id),
      }),
    );
    for (let i = g.cards.length; i < 3; i++) {
      tiles.push(h("span", { class: ["mh-slot", isTarget && i === g.cards.length && "is-next", isTarget && d.jokerPending && i === g.cards.length && "is-joker"], "aria-hidden": "true" }, isTarget && d.jokerPending && i === g.cards.length ? "★" : ""));
    }
    return h(
      "div",
      {
        class: ["mh-group-edit", isTarget && "is-target", g.cards.length === 3 && !kind && "is-bad"],
        testid: `group-${index}`,
        "data-notation": D.groupNotation(g),
        "data-kind": kind || "",
      },
      h(
        "button",
        {
          type: "button",
          class: "mh-group-label",
          disabled: g.cards.length >= 3 || isTarget,
          onclick: () => act.selectGroup(index),
          "aria-label": t("mhing.group_n", { n: index + 1 }),
        },
        h("span", { class: "mh-group-no" }, String(index + 1)),
      ),
      h("span", { class: "mh-group-tiles" }, ...tiles),
      h("span", { class: "mh-group-status small" }, status),
    );
  }

  function renderHand(d) {
    const count = D.cardCount(d);
    const rows = [];
    if (d.groups.length) {
      rows.push(
        h(
          "div",
          { class: "mh-hand-row", testid: "groups" },
          h("p", { class: "mh-hand-label" }, t("mhing.laid_out"), " ", whyLink("MH-5", "why-laid-out")),
          ...d.groups.map((g, i) => groupRow(g, i, d)),
        ),
      );
    }
    rows.push(
      h(
        "div",
        { class: ["mh-hand-row", d.target === "hidden" && "is-target"], testid: "hidden-cards", "data-cards": d.hidden.map((e) => e.card).join(" ") },
        h("p", { class: "mh-hand-label" }, t("mhing.hidden_cards", { count: d.hidden.length })),
        d.hidden.length
          ? h(
              "div",
              { class: "mh-tiles" },
              ...D.hiddenSorted(d).map((e) =>
                tile(e.card, { testid: "hand-tile",
        extraClass: "mh-hand-tile", label: t("mhing.remove_card", { card: cardName(e.card) }), onclick: () => act.remove(e.id) }),
              ),
            )
          : h("p", { class: "muted small" }, t("mhing.hidden_empty")),
      ),
    );
    if (d.flowers.length) {
      rows.push(
        h(
          "div",
          { class: "mh-hand-row mh-hand-row-inline", testid: "flowers", "data-cards": d.flowers.map((e) => e.card).join(" ") },
          h("p", { class: "mh-hand-label" }, t("mhing.flowers", { count: d.flowers.length })),
          h(
            "div",
            { class: "mh-tiles" },
            ...d.flowers.map((e) => tile(e.card, { testid: "hand-tile",
        extraClass: "mh-hand-tile", label: t("mhing.remove_card", { card: cardName(e.card) }), onclick: () => act.remove(e.id) })),
          ),
        ),
      );
    }
    rows.push(
      h(
        "div",
        { class: "mh-count-row" },
        h("p", { class: ["mh-count", count === HAND_SIZE && "is-full"], testid: "card-count", "data-count": count }, t("mhing.count_short", { count, total: HAND_SIZE })),
        D.isEmpty(d) ? null : h("button", { type: "button", class: "btn btn-link", testid: "clear-hand", onclick: act.clear }, t("mhing.clear")),
      ),
    );
    hand.replaceChildren(...rows);
  }

  /** live: {status: idle|local|loading|done|error|offline, score, waits, problems, problem} */
  function renderLive(d, liveState) {
    const s = liveState;
    if (s.status !== "loading" && s.status !== "done") live.dataset.wins = "false";
    live.classList.toggle("is-stale", s.status === "loading");
    live.setAttribute("aria-busy", String(s.status === "loading"));
    const title = (text, cls) => h("h2", { class: ["section-title", cls] }, text);
    if (s.status === "idle") {
      live.replaceChildren(title(t("mhing.breakdown")), h("p", { class: "muted small", testid: "breakdown-hint" }, t("mhing.entry_hint"), " ", whyLink("MH-5", "why-hint")));
      live.dataset.state = "idle";
      return;
    }
    if (s.status === "local") {
      const p = s.problems[0];
      const text = p.code === "group-incomplete" ? t("mhing.finish_group", { n: p.index + 1, have: p.have }) : t("mhing.group_invalid", { n: p.index + 1 });
      live.replaceChildren(title(t("mhing.breakdown")), h("p", { class: "mh-reason", testid: "breakdown-reason" }, text));
      live.dataset.state = "local";
      return;
    }
    if (s.status === "offline") {
      live.replaceChildren(title(t("mhing.breakdown")), h("p", { class: "mh-reason", testid: "breakdown-reason" }, t("mhing.offline_breakdown")));
      live.dataset.state = "offline";
      return;
    }
    if (s.status === "error") {
      const pr = s.problem || {};
      live.replaceChildren(
        title(t("mhing.breakdown")),
        h(
          "p",
          { class: "mh-reason is-error", testid: "breakdown-reason", "data-code": pr.code || "" },
          codeText(`mhing.problem.${pr.code}`, {}, pr.detail || pr.title || t("error.generic")),
          pr.rule ? [" ", whyLink(pr.rule, "why-problem")] : null,
        ),
      );
      live.dataset.state = "error";
      return;
    }
    const score = s.score;
    if (!score) {
      live.replaceChildren(title(t("mhing.breakdown")), h("p", { class: "muted small" }, t("mhing.checking")));
      live.dataset.state = "loading";
      return;
    }
    const parts = [];
    const newlyOut = score.wins && s.status === "done" && live.dataset.wins !== "true";
    if (s.status === "done") live.dataset.wins = String(!!score.wins);
    if (newlyOut) requestAnimationFrame(() => live.scrollIntoView({ block: "start" }));
    if (score.wins) {
      parts.push(title(t("mhing.goes_out"), "mh-goes-out"));
      parts.push(scoreView(score));
    } else {
      parts.push(title(t("mhing.breakdown")));
      const rule = { "no-reading": "MH-5", "nothing-fits-on-discard": "MH-3" }[score.reason_code];
      const why = rule ? [" ", whyLink(rule, "why-reason")] : null;
      parts.push(h("p", { class: "mh-reason", testid: "breakdown-reason", "data-code": score.reason_code || "" }, reasonText(score), why));
      if (s.waits) parts.push(waitsView(s.waits, (card) => act.add(card)));
    }
    live.replaceChildren(...parts);
    live.dataset.state = s.status === "loading" ? "loading" : "done";
  }

  return { el, renderHead, renderHand, renderLive };
}

const TABS = [...SUITS, "h"];

/** The card picker (bar). act: {add, undoLast, toggleGroup, record, setTab} */
export function createPicker(act) {
  const caption = h("p", { class: "mh-picker-caption", testid: "picker-caption" });
  const tabButtons = TABS.map((tab) =>
    h("button", { type: "button", class: "choice mh-tab", role: "tab", testid: `tab-${tab}`, onclick: () => act.setTab(tab) }, t(tab === "h" ? "mhing.honours" : `mhing.suit.${tab}`)),
  );
  const backspace = h("button", { type: "button", class: "btn btn-secondary mh-action mh-backspace", testid: "backspace", "aria-label": t("mhing.backspace"), title: t("mhing.backspace"), onclick: act.undoLast }, "⌫");
  const tabs = h("div", { class: "mh-tabs", role: "tablist" }, ...tabButtons);
  const grid = h("div", { class: "mh-grid", testid: "pick-grid" });
  const groupButton = h("button", { type: "button", class: "btn btn-secondary mh-action", testid: "add-group", onclick: act.toggleGroup });
  const flowerButton = h(
    "button",
    { type: "button", class: "btn btn-secondary mh-action mh-flower-button", testid: "add-flower", onclick: () => act.add("flower"), "aria-label": t("mhing.add_flower") },
    h("span", { class: "btn-label mh-big-glyph mh-flower-glyph", "aria-hidden": "true" }, "✿"),
    h("span", { class: "btn-sub", "aria-hidden": "true" }, t("mhing.card.flower")),
  );
  const recordLabel = h("span", { class: "btn-label" }, t("mhing.record"));
  const recordSub = h("span", { class: "btn-sub", testid: "entry-summary" });
  const recordButton = h("button", { type: "button", class: "btn btn-primary mh-record", testid: "record-hand", onclick: act.record }, recordLabel, recordSub);
  const el = h(
    "div",
    { class: "actionbar mh-bar mh-picker", testid: "picker", "data-mode": "hand" },
    caption,
    tabs,
    grid,
    h("div", { class: "mh-picker-actions" }, groupButton, flowerButton, backspace, recordButton),
  );
  let shownTab = null;
  const pickButtons = new Map();

  function pick(card, extraClass) {
    const b = tile(card, { testid: `pick-${card}`, onclick: () => act.add(card), extraClass: ["mh-pick", extraClass].filter(Boolean).join(" "), label: t("mhing.add_card", { card: cardName(card) }) });
    b.append(" ", h("span", { class: "mh-pick-count", "aria-hidden": "true" }));
    pickButtons.set(card, b);
    return b;
  }

  function buildGrid(tab) {
    pickButtons.clear();
    let cells;
    if (tab === "h") cells = [...WINDS.map((c) => pick(c, "mh-cell-wind")), ...DRAGONS.map((c) => pick(c, "mh-cell-dragon"))];
    else cells = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((r) => pick(`${tab}${r}`));
    cells.push(pick(JOKER, "mh-cell-joker"));
    grid.replaceChildren(...cells);
    grid.dataset.tab = tab;
    shownTab = tab;
  }

  /** Bring everything in line with the draft, the tab and the live answer. */
  function update(d, ui) {
    if (ui.tab !== shownTab) buildGrid(ui.tab);
    tabButtons.forEach((b, i) => b.setAttribute("aria-selected", String(TABS[i] === ui.tab)));
    const count = D.cardCount(d);
    const group = D.activeGroup(d);
    const copies = D.copies(d);
    // A full hand takes no more cards: the keys go off, but the keyboard stays where it is.
    el.classList.toggle("is-full", count >= HAND_SIZE && !group);
    for (const [card, b] of pickButtons) {
      b.disabled = !D.canAdd(d, card);
      const n = card === JOKER ? copies[JOKER] || 0 : copies[card] || 0;
      b.querySelector(".mh-pick-count").textContent = n ? String(n) : "";
      // The name begins with the key's face and count ("1 Bam 2"), as voice control reads it.
      const add = t("mhing.add_card", { card: cardName(card) });
      b.setAttribute("aria-label", n ? `${tileFace(card).join(" ")} ${n}: ${add} (${t("mhing.in_hand", { count: n })})` : `${tileFace(card).join(" ")}: ${add}`);
      if (card === JOKER) b.setAttribute("aria-pressed", String(!!(group && d.jokerPending)));
    }
    flowerButton.disabled = !D.canAdd(d, "flower");
    backspace.disabled = !d.history.length && !d.jokerPending && !group;
    // Caption: where the next card goes.
    if (group) {
      const n = d.target + 1;
      caption.textContent = d.jokerPending ? t("mhing.caption_joker", { n }) : t("mhing.caption_group", { n, have: group.cards.length });
      caption.classList.add("is-group");
    } else {
      caption.textContent = count >= HAND_SIZE ? t("mhing.caption_full", { count, total: HAND_SIZE }) : t("mhing.caption_hidden", { count, total: HAND_SIZE });
      caption.classList.remove("is-group");
    }
    caption.classList.toggle("is-joker", !!(group && d.jokerPending));
    groupButton.replaceChildren(
      h("span", { class: "btn-label mh-big-glyph", "aria-hidden": "true" }, group ? "✓" : "+"),
      h("span", { class: "btn-sub", "aria-hidden": "true" }, group ? t("mhing.done_short") : t("mhing.group_short")),
    );
    groupButton.setAttribute("aria-label", group ? t("mhing.group_done") : t("mhing.add_group"));
    groupButton.disabled = !group && !D.canStartGroup(d);
    groupButton.setAttribute("aria-pressed", String(!!group));
    // Record: only a hand the referee says goes out.
    const s = ui.live;
    let sub;
    let ready = false;
    if (count !== HAND_SIZE) sub = t("mhing.count_short", { count, total: HAND_SIZE });
    else if (s.status === "local") sub = t("mhing.fix_groups");
    else if (s.status === "offline") sub = t("mhing.offline_short");
    else if (s.status === "error") sub = t("mhing.not_out");
    else if (!s.score || s.status === "loading") sub = t("mhing.checking");
    else if (s.score.wins) {
      sub = t("mhing.record_sub", premiumsAndPoints(s.score.total_premiums, s.score.points));
      ready = true;
    } else sub = t("mhing.not_out");
    recordSub.textContent = sub;
    recordButton.disabled = !ready;
    recordButton.dataset.ready = String(ready);
  }

  return { el, update };
}
