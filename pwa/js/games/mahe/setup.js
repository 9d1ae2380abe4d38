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

/**
 * @param {HTMLElement} container
 * @param {import("../registry.js").SetupContext} ctx
 */
export function mountSetup(container, { meta, create, initial }) {
  const min = meta.min_players || 2;
  const max = meta.max_players || 7;
  /** @type {{players: {name: string, colours: import("./colours.js").Colour[]}[], chance: "physical" | "digital", variant: boolean}} */
  const form = {
    players: normalizeColours([{ name: "", colours: [] }, { name: "", colours: [] }]),
    // A group's last Mahé table starts the form where it left off (issue 33).
    chance: initial?.options?.chance === "digital" ? "digital" : "physical",
    variant: !!initial?.options?.egg_dice_variant,
  };

  const turtleHint = h("p", { class: "muted small", testid: "turtle-hint" });
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
      renderPlayers();
    },
    onName: () => firstSeat.render(),
    card: (head, p, i) => h("div", { class: "player-card", testid: `player-${i}` }, head, swatches(p, i)),
  });
  const firstSeat = seatSelect({ id: "first-seat", testid: "first-seat", names: players.names, random: true });

  /**
   * @param {number} i
   * @param {Colour} colour
   */
  function toggleColour(i, colour) {
    const p = form.players[i];
    const need = turtlesPerPlayer(form.players.length);
    if (p.colours.includes(colour)) {
      if (need > 1) p.colours = p.colours.filter((c) => c !== colour);
    } else if (p.colours.length < need) {
      p.colours.push(colour);
    } else {
      p.colours = [...p.colours.slice(1), colour];
    }
    renderPlayers();
  }

  /**
   * @param {{ colours: Colour[] }} p
   * @param {number} i
   */
  function swatches(p, i) {
    const taken = new Map();
    form.players.forEach((q, j) => j !== i && q.colours.forEach((c) => taken.set(c, j)));
    return h(
      "div",
      { class: "swatches-row", role: "group", "aria-label": t("setup.colours_of", { n: i + 1 }) },
      ...PALETTE.map((c) => {
        const owner = taken.get(c);
        const selected = p.colours.includes(c);
        const b = h(
          "button",
          {
            type: "button",
            class: ["swatch", selected && "is-selected"],
            testid: `colour-${i}-${c}`,
            "aria-pressed": selected ? "true" : "false",
            // A taken colour shows its player's number: the name says it too (label-content match).
            "aria-label": owner === undefined ? colourName(c) : `${owner + 1} ${t("setup.colour_taken", { colour: colourName(c), name: players.displayName(owner) })}`,
            title: owner === undefined ? colourName(c) : t("setup.colour_taken", { colour: colourName(c), name: players.displayName(owner) }),
            disabled: owner !== undefined,
            onclick: () => toggleColour(i, c),
          },
          owner !== undefined ? h("span", { class: "swatch-owner" }, String(owner + 1)) : null,
        );
        b.style.backgroundColor = HEX[c];
        return b;
      }),
    );
  }

  function renderPlayers() {
    const need = turtlesPerPlayer(form.players.length);
    players.render();
    turtleHint.replaceChildren(t(need === 2 ? "setup.two_turtles" : "setup.one_turtle"), " ", whyLink("MA-2"));
    firstSeat.render();
  }

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

  const formEl = setupForm({
    game: meta.title,
    sections: [
      panel({ title: t("setup.players", { min, max }) }, turtleHint, players.host, players.addButton),
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
      panel({ title: t("setup.first"), labelFor: "first-seat" }, firstSeat.el),
    ],
    submit: async () => {
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
    },
  });

  container.classList.add("setup");
  container.append(formEl);
  renderPlayers();
  /** @type {import("../registry.js").SetupHandle} */
  const handle = {
    setPlayers(entries) {
      const chosen = entries.slice(0, max).map((p) => ({ name: p.name, colours: /** @type {import("./colours.js").Colour[]} */ ((p.colours || []).filter((c) => PALETTE.includes(/** @type {import("./colours.js").Colour} */ (c)))) }));
      while (chosen.length < min) chosen.push({ name: "", colours: [] });
      form.players.splice(0, form.players.length, ...chosen);
      normalizeColours(form.players);
      renderPlayers();
    },
  };
  return handle;
}
