// "#/new/mahe": players (2–7) with turtle colours (two each with 2–3 players, one with 4–7: MA-2),
// chance mode (MA-12), the egg-cards-as-dice variant (MA-11) and who starts.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { toast } from "../../toast.js";
import { panel } from "../../ui/panel.js";
import { playersList, seatSelect, segmented, setupForm } from "../../ui/players-form.js";
import { PALETTE, HEX, colourName } from "./colours.js";
import { whyLink } from "./status.js";

/** @typedef {import("./colours.js").Colour} Colour */

/**
 * @param {number} n
 */
export function turtlesPerPlayer(n) {
  return n <= 3 ? 2 : 1;
}

/**
 * Trim or top up everyone's colours to what the player count requires, keeping choices.
 * @template {{ colours: Colour[] }} P
 * @param {P[]} players
 * @returns {P[]}
 */
export function normalizeColours(players) {
  const need = turtlesPerPlayer(players.length);
  for (const p of players) p.colours = p.colours.slice(0, need);
  for (const p of players) {
    while (p.colours.length < need) {
      const used = new Set(players.flatMap((q) => q.colours));
      const free = PALETTE.find((c) => !used.has(c));
      if (!free) break;
      p.colours.push(free);
    }
  }
  return players;
}

/** @typedef {{name: string, colours: Colour[]}} SeatEntry */

/**
 * The setup screen's state: the form's values and the controls that show them.
 * @typedef {object} MaheSetup
 * @property {{players: SeatEntry[], chance: "physical" | "digital", variant: boolean}} form
 * @property {HTMLElement} turtleHint
 * @property {ReturnType<typeof playersList>} players
 * @property {ReturnType<typeof seatSelect>} firstSeat
 */

/**
 * @param {HTMLElement} container
 * @param {import("../registry.js").SetupContext} ctx
 * @returns {import("../registry.js").SetupHandle}
 */
export function mountSetup(container, { meta, create, initial }) {
  const min = meta.min_players || 2;
  const max = meta.max_players || 7;
  const st = newSetup(initial, min, max);
  const formEl = setupForm({
    game: meta.title,
    sections: [
      panel({ title: t("setup.players", { min, max }) }, st.turtleHint, st.players.host, st.players.addButton),
      ...optionPanels(st.form),
      panel({ title: t("setup.first"), labelFor: "first-seat" }, st.firstSeat.el),
    ],
    submit: () => submit(st, create),
  });
  container.classList.add("setup");
  container.append(formEl);
  renderPlayers(st);
  return {
    setPlayers(entries) {
      const chosen = entries.slice(0, max).map((p) => ({ name: p.name, colours: /** @type {Colour[]} */ ((p.colours || []).filter((c) => PALETTE.includes(/** @type {Colour} */ (c)))) }));
      while (chosen.length < min) chosen.push({ name: "", colours: [] });
      st.form.players.splice(0, st.form.players.length, ...chosen);
      normalizeColours(st.form.players);
      renderPlayers(st);
    },
  };
}

/**
 * The form's first values (a group's last Mahé table starts it where it left off, issue 33) and
 * the players' list with its colour swatches.
 * @param {import("../registry.js").SetupContext["initial"]} initial
 * @param {number} min
 * @param {number} max
 * @returns {MaheSetup}
 */
function newSetup(initial, min, max) {
  const form = {
    players: normalizeColours([{ name: "", colours: /** @type {Colour[]} */ ([]) }, { name: "", colours: /** @type {Colour[]} */ ([]) }]),
    chance: /** @type {"physical" | "digital"} */ (initial?.options?.chance === "digital" ? "digital" : "physical"),
    variant: !!initial?.options?.egg_dice_variant,
  };
  const players = playersList({
    players: form.players,
    min,
    max,
    nameOf: (p) => p.name,
    setName: (i, name) => {
      form.players[i].name = name;
    },
    blank: () => ({ name: "", colours: [] }),
    onChange: () => {
      normalizeColours(form.players);
      renderPlayers(st);
    },
    onName: () => st.firstSeat.render(),
    card: (head, p, i) => h("div", { class: "player-card", testid: `player-${i}` }, head, swatches(st, p, i)),
  });
  const firstSeat = seatSelect({ id: "first-seat", testid: "first-seat", names: players.names, random: true });
  /** @type {MaheSetup} */
  const st = { form, turtleHint: h("p", { class: "muted small", testid: "turtle-hint" }), players, firstSeat };
  return st;
}

/**
 * A colour tapped on player i's row: taken, given back, or swapped for their oldest (MA-2).
 * @param {MaheSetup} st
 * @param {number} i
 * @param {Colour} colour
 * @returns {void}
 */
function toggleColour(st, i, colour) {
  const p = st.form.players[i];
  const need = turtlesPerPlayer(st.form.players.length);
  if (p.colours.includes(colour)) {
    if (need > 1) p.colours = p.colours.filter((c) => c !== colour);
  } else if (p.colours.length < need) {
    p.colours.push(colour);
  } else {
    p.colours = [...p.colours.slice(1), colour];
  }
  renderPlayers(st);
}

/**
 * Player i's colour swatches; a colour another player took shows their number.
 * @param {MaheSetup} st
 * @param {{ colours: Colour[] }} p
 * @param {number} i
 * @returns {HTMLElement}
 */
function swatches(st, p, i) {
  /** @type {Map<Colour, number>} */
  const taken = new Map();
  st.form.players.forEach((q, j) => j !== i && q.colours.forEach((c) => taken.set(c, j)));
  return h(
    "div",
    { class: "swatches-row", role: "group", "aria-label": t("setup.colours_of", { n: i + 1 }) },
    ...PALETTE.map((c) => {
      const owner = taken.get(c);
      const selected = p.colours.includes(c);
      const takenText = owner === undefined ? null : t("setup.colour_taken", { colour: colourName(c), name: st.players.displayName(owner) });
      const b = h(
        "button",
        {
          type: "button",
          class: ["swatch", selected && "is-selected"],
          testid: `colour-${i}-${c}`,
          "aria-pressed": selected ? "true" : "false",
          // A taken colour shows its player's number: the name says it too (label-content match).
          "aria-label": owner === undefined ? colourName(c) : `${owner + 1} ${takenText}`,
          title: takenText ?? colourName(c),
          disabled: owner !== undefined,
          onclick: () => toggleColour(st, i, c),
        },
        owner !== undefined ? h("span", { class: "swatch-owner" }, String(owner + 1)) : null,
      );
      b.style.backgroundColor = HEX[c];
      return b;
    }),
  );
}

/** @param {MaheSetup} st @returns {void} */
function renderPlayers(st) {
  const need = turtlesPerPlayer(st.form.players.length);
  st.players.render();
  st.turtleHint.replaceChildren(t(need === 2 ? "setup.two_turtles" : "setup.one_turtle"), " ", whyLink("MA-2"));
  st.firstSeat.render();
}

/**
 * Chance (MA-12) and the egg-cards-as-dice variant (MA-11).
 * @param {MaheSetup["form"]} form
 * @returns {HTMLElement[]}
 */
function optionPanels(form) {
  const chanceGroup = segmented({
    values: /** @type {("physical" | "digital")[]} */ (["physical", "digital"]),
    value: form.chance,
    onPick: (v) => (form.chance = v),
    testPrefix: "chance",
    labels: (v) => t(`setup.chance_${v}`),
    hints: (v) => t(`setup.chance_${v}_hint`),
  });
  const variantBox = h("input", { type: "checkbox", id: "egg-variant", testid: "egg-variant", checked: form.variant });
  variantBox.addEventListener("change", () => {
    form.variant = variantBox.checked;
  });
  return [
    panel({ title: [t("setup.chance"), " ", whyLink("MA-12")] }, chanceGroup),
    panel(
      {},
      h(
        "label",
        { class: "toggle", for: "egg-variant" },
        variantBox,
        h("span", {}, h("strong", {}, t("setup.variant")), h("span", { class: "muted small block" }, t("setup.variant_hint"))),
      ),
      whyLink("MA-11"),
    ),
  ];
}

/**
 * The table's creation, once every player has the turtles the player count asks for (MA-2).
 * @param {MaheSetup} st
 * @param {import("../registry.js").SetupContext["create"]} create
 * @returns {Promise<void>}
 */
async function submit(st, create) {
  const { form, players, firstSeat } = st;
  const need = turtlesPerPlayer(form.players.length);
  const incomplete = form.players.findIndex((p) => p.colours.length !== need);
  if (incomplete >= 0) {
    toast(t(need === 2 ? "setup.need_two" : "setup.need_one", { name: players.displayName(incomplete) }), { kind: "error" });
    return;
  }
  const names = players.names();
  await create({
    game: "mahe",
    players: form.players.map((p, i) => ({ name: names[i], colours: [...p.colours] })),
    options: { chance: form.chance, egg_dice_variant: form.variant, first_seat: firstSeat.seat() },
  });
}
