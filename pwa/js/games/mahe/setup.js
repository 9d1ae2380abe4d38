// "#/new/mahe": players (2–7) with turtle colours (two each with 2–3 players, one with 4–7: MA-2),
// chance mode (MA-12), the egg-cards-as-dice variant (MA-11) and who starts.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { rulesUrl } from "../../ui/header.js";
import { toast } from "../../toast.js";
import { PALETTE, HEX, colourName } from "./colours.js";

export function turtlesPerPlayer(n) {
  return n <= 3 ? 2 : 1;
}

/** Trim or top up everyone's colours to what the player count requires, keeping choices. */
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

function why(anchor) {
  return h("a", { class: "why", href: rulesUrl("mahe", anchor), target: "_blank", rel: "noopener" }, t("common.why"));
}

export function mountSetup(container, { meta, create }) {
  const min = meta.min_players || 2;
  const max = meta.max_players || 7;
  const form = {
    players: normalizeColours([{ name: "", colours: [] }, { name: "", colours: [] }]),
    chance: "physical",
    variant: false,
    first: "0",
  };
  let submitting = false;

  const playersHost = h("div", { class: "players", testid: "players" });
  const firstSelect = h("select", { id: "first-seat", class: "input", testid: "first-seat" });
  const addButton = h("button", { type: "button", class: "btn btn-secondary", testid: "add-player" }, t("setup.add_player"));
  const turtleHint = h("p", { class: "muted small", testid: "turtle-hint" });

  function displayName(i) {
    return form.players[i].name.trim() || t("setup.player_n", { n: i + 1 });
  }

  function renderFirst() {
    const keep = form.first;
    firstSelect.replaceChildren(
      ...form.players.map((p, i) => h("option", { value: String(i) }, displayName(i))),
      h("option", { value: "random" }, t("setup.random")),
    );
    form.first = keep === "random" || Number(keep) < form.players.length ? keep : "0";
    firstSelect.value = form.first;
  }

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

  function playerRow(p, i) {
    const taken = new Map();
    form.players.forEach((q, j) => j !== i && q.colours.forEach((c) => taken.set(c, j)));
    const nameInput = h("input", {
      type: "text",
      class: "input",
      id: `player-name-${i}`,
      testid: `player-name-${i}`,
      value: p.name,
      maxlength: 40,
      autocomplete: "off",
      placeholder: t("setup.player_n", { n: i + 1 }),
      "aria-label": t("setup.player_name", { n: i + 1 }),
    });
    nameInput.addEventListener("input", () => {
      p.name = nameInput.value;
      renderFirst();
    });
    const swatches = h(
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
            "aria-label": colourName(c),
            title: owner === undefined ? colourName(c) : t("setup.colour_taken", { colour: colourName(c), name: displayName(owner) }),
            disabled: owner !== undefined,
            onclick: () => toggleColour(i, c),
          },
          owner !== undefined ? h("span", { class: "swatch-owner" }, String(owner + 1)) : null,
        );
        b.style.backgroundColor = HEX[c];
        return b;
      }),
    );
    return h(
      "div",
      { class: "player-card", testid: `player-${i}` },
      h(
        "div",
        { class: "player-head" },
        h("span", { class: "seat-no" }, String(i + 1)),
        nameInput,
        form.players.length > min
          ? h(
              "button",
              {
                type: "button",
                class: "icon-button",
                testid: `remove-player-${i}`,
                "aria-label": t("setup.remove_player", { n: i + 1 }),
                onclick: () => {
                  form.players.splice(i, 1);
                  normalizeColours(form.players);
                  renderPlayers();
                },
              },
              "×",
            )
          : null,
      ),
      swatches,
    );
  }

  function renderPlayers() {
    const need = turtlesPerPlayer(form.players.length);
    playersHost.replaceChildren(...form.players.map(playerRow));
    addButton.hidden = form.players.length >= max;
    turtleHint.replaceChildren(t(need === 2 ? "setup.two_turtles" : "setup.one_turtle"), " ", why("MA-2"));
    renderFirst();
  }

  addButton.addEventListener("click", () => {
    form.players.push({ name: "", colours: [] });
    normalizeColours(form.players);
    renderPlayers();
    const last = document.getElementById(`player-name-${form.players.length - 1}`);
    if (last) last.focus();
  });
  firstSelect.addEventListener("change", () => {
    form.first = firstSelect.value;
  });

  function chanceButton(value) {
    const b = h(
      "button",
      { type: "button", class: "segment", testid: `chance-${value}`, "aria-pressed": String(form.chance === value) },
      h("span", { class: "segment-label" }, t(`setup.chance_${value}`)),
      h("span", { class: "segment-sub" }, t(`setup.chance_${value}_hint`)),
    );
    b.addEventListener("click", () => {
      form.chance = value;
      chanceGroup.querySelectorAll(".segment").forEach((el) => el.setAttribute("aria-pressed", String(el === b)));
    });
    return b;
  }
  const chanceGroup = h("div", { class: "segmented", role: "group" }, chanceButton("physical"), chanceButton("digital"));

  const variantBox = h("input", { type: "checkbox", id: "egg-variant", testid: "egg-variant", checked: form.variant });
  variantBox.addEventListener("change", () => {
    form.variant = variantBox.checked;
  });

  const createButton = h("button", { type: "submit", class: "btn btn-primary btn-big", testid: "create-table" }, t("setup.create"));

  const formEl = h(
    "form",
    { class: "setup-form", novalidate: true },
    h("h1", { class: "page-title" }, t("setup.title", { game: meta.title })),
    h("section", { class: "panel" }, h("h2", { class: "section-title" }, t("setup.players", { min, max })), turtleHint, playersHost, addButton),
    h("section", { class: "panel" }, h("h2", { class: "section-title" }, t("setup.chance"), " ", why("MA-12")), chanceGroup),
    h(
      "section",
      { class: "panel" },
      h(
        "label",
        { class: "toggle", for: "egg-variant" },
        variantBox,
        h("span", {}, h("strong", {}, t("setup.variant")), h("span", { class: "muted small block" }, t("setup.variant_hint"))),
      ),
      why("MA-11"),
    ),
    h("section", { class: "panel" }, h("label", { class: "section-title", for: "first-seat" }, t("setup.first")), firstSelect),
    h("div", { class: "sticky-submit" }, createButton),
  );

  formEl.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (submitting) return;
    const need = turtlesPerPlayer(form.players.length);
    const incomplete = form.players.findIndex((p) => p.colours.length !== need);
    if (incomplete >= 0) {
      toast(t(need === 2 ? "setup.need_two" : "setup.need_one", { name: displayName(incomplete) }), { kind: "error" });
      return;
    }
    const names = form.players.map((p, i) => displayName(i));
    const first = form.first === "random" ? Math.floor(Math.random() * names.length) : Number(form.first);
    const body = {
      game: "mahe",
      players: form.players.map((p, i) => ({ name: names[i], colours: [...p.colours] })),
      options: { chance: form.chance, egg_dice_variant: form.variant, first_seat: first },
    };
    submitting = true;
    createButton.disabled = true;
    try {
      await create(body);
    } finally {
      submitting = false;
      createButton.disabled = false;
    }
  });

  container.classList.add("setup");
  container.append(formEl);
  renderPlayers();
}
