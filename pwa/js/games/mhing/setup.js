// "#/new/mhing": players (2–6), settlement variant (MH-9; variant 2 only for 2–4 players) and the
// first dealer (MH-2).
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { whyLink } from "./rules.js";

const VARIANT_2_MAX = 4;

export function mountSetup(container, { meta, create }) {
  const min = Math.max(2, meta.min_players || 2);
  const max = Math.min(6, meta.max_players || 6);
  const form = { players: Array.from({ length: Math.min(max, Math.max(min, 4)) }, () => ""), settlement: 1, first: "0" };
  let submitting = false;

  const playersHost = h("div", { class: "players", testid: "players" });
  const addButton = h("button", { type: "button", class: "btn btn-secondary", testid: "add-player" }, t("setup.add_player"));
  const firstSelect = h("select", { id: "first-dealer", class: "input", testid: "first-dealer" });
  const variantHint = h("p", { class: "muted small", testid: "settlement-hint" });

  function displayName(i) {
    return form.players[i].trim() || t("setup.player_n", { n: i + 1 });
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

  function playerRow(name, i) {
    const input = h("input", {
      type: "text",
      class: "input",
      id: `player-name-${i}`,
      testid: `player-name-${i}`,
      value: name,
      maxlength: 40,
      autocomplete: "off",
      placeholder: t("setup.player_n", { n: i + 1 }),
      "aria-label": t("setup.player_name", { n: i + 1 }),
    });
    input.addEventListener("input", () => {
      form.players[i] = input.value;
      renderFirst();
    });
    return h(
      "div",
      { class: "player-head mh-player-row", testid: `player-${i}` },
      h("span", { class: "seat-no" }, String(i + 1)),
      input,
      form.players.length > min
        ? h(
            "button",
            {
              type: "button",
              class: "icon-button mh-remove",
              testid: `remove-player-${i}`,
              "aria-label": t("setup.remove_player", { n: i + 1 }),
              onclick: () => {
                form.players.splice(i, 1);
                render();
              },
            },
            "×",
          )
        : null,
    );
  }

  function variantButton(value) {
    const b = h(
      "button",
      { type: "button", class: "segment", testid: `settlement-${value}`, "aria-pressed": String(form.settlement === value) },
      h("span", { class: "segment-label" }, t(`mhing.setup.variant${value}`)),
      h("span", { class: "segment-sub" }, t(`mhing.setup.variant${value}_hint`)),
    );
    b.addEventListener("click", () => {
      form.settlement = value;
      render();
    });
    return b;
  }
  const variantGroup = h("div", { class: "segmented", role: "group", "aria-label": t("mhing.setup.settlement") });

  function render() {
    if (form.players.length > VARIANT_2_MAX && form.settlement === 2) form.settlement = 1;
    playersHost.replaceChildren(...form.players.map(playerRow));
    addButton.hidden = form.players.length >= max;
    variantGroup.replaceChildren(variantButton(1), variantButton(2));
    const v2 = variantGroup.querySelector('[data-testid="settlement-2"]');
    v2.disabled = form.players.length > VARIANT_2_MAX;
    variantHint.textContent = form.players.length > VARIANT_2_MAX ? t("mhing.setup.variant2_only", { max: VARIANT_2_MAX }) : "";
    variantHint.hidden = form.players.length <= VARIANT_2_MAX;
    renderFirst();
  }

  addButton.addEventListener("click", () => {
    if (form.players.length >= max) return;
    form.players.push("");
    render();
    document.getElementById(`player-name-${form.players.length - 1}`)?.focus();
  });
  firstSelect.addEventListener("change", () => {
    form.first = firstSelect.value;
  });

  const createButton = h("button", { type: "submit", class: "btn btn-primary btn-big", testid: "create-table" }, t("setup.create"));
  const formEl = h(
    "form",
    { class: "setup-form mhing-setup", novalidate: true },
    h("h1", { class: "page-title" }, t("setup.title", { game: meta.title || "Mhing" })),
    h("section", { class: "panel" }, h("h2", { class: "section-title" }, t("setup.players", { min, max })), playersHost, addButton),
    h(
      "section",
      { class: "panel" },
      h("h2", { class: "section-title" }, t("mhing.setup.settlement"), " ", whyLink("MH-9", "why-settlement")),
      variantGroup,
      variantHint,
    ),
    h(
      "section",
      { class: "panel" },
      h("label", { class: "section-title", for: "first-dealer" }, t("mhing.setup.first_dealer"), " ", whyLink("MH-2", "why-dealer-setup")),
      firstSelect,
    ),
    h("div", { class: "sticky-submit" }, createButton),
  );

  formEl.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (submitting) return;
    const names = form.players.map((p, i) => displayName(i));
    const first = form.first === "random" ? Math.floor(Math.random() * names.length) : Number(form.first);
    const body = {
      game: "mhing",
      players: names.map((name) => ({ name })),
      options: { settlement: form.settlement, first_seat: first },
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

  container.classList.add("setup", "mhing");
  container.append(formEl);
  render();
}
