// "#/new/mhing": players (2–6), settlement variant (MH-9; variant 2 only for 2–4 players) and the
// first dealer (MH-2).
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { panel } from "../../ui/panel.js";
import { playersList, seatSelect, segmented, setupForm } from "../../ui/players-form.js";
import { whyLink } from "./rules.js";

const VARIANT_2_MAX = 4;

/**
 * @param {HTMLElement} container
 * @param {import("../registry.js").SetupContext} ctx
 * @returns {import("../registry.js").SetupHandle}
 */
export function mountSetup(container, { meta, create, initial }) {
  const min = Math.max(2, meta.min_players || 2);
  const max = Math.min(6, meta.max_players || 6);
  /** @type {{players: string[], settlement: 1 | 2}} */
  const form = { players: Array.from({ length: Math.min(max, Math.max(min, 4)) }, () => ""), settlement: initial?.options?.settlement === 2 ? 2 : 1 };

  const players = playersList({
    players: form.players,
    min,
    max,
    onChange: render,
    onName: () => firstDealer.render(),
    rowClass: "mh-player-row",
    removeClass: "mh-remove",
  });
  const firstDealer = seatSelect({ id: "first-dealer", testid: "first-dealer", names: players.names, random: true });
  const variantHint = h("p", { class: "muted small", testid: "settlement-hint" });
  const variantGroup = segmented({
    values: /** @type {(1 | 2)[]} */ ([1, 2]),
    value: form.settlement,
    onPick: (v) => {
      form.settlement = v;
      render();
    },
    testPrefix: "settlement",
    labels: (v) => t(`mhing.setup.variant${v}`),
    hints: (v) => t(`mhing.setup.variant${v}_hint`),
    label: t("mhing.setup.settlement"),
  });

  function render() {
    const tooMany = form.players.length > VARIANT_2_MAX;
    if (tooMany && form.settlement === 2) form.settlement = 1;
    players.render();
    for (const v of [1, 2]) {
      const button = /** @type {HTMLButtonElement} */ (variantGroup.querySelector(`[data-testid="settlement-${v}"]`));
      button.setAttribute("aria-pressed", String(form.settlement === v));
      button.disabled = v === 2 && tooMany;
    }
    variantHint.textContent = tooMany ? t("mhing.setup.variant2_only", { max: VARIANT_2_MAX }) : "";
    variantHint.hidden = !tooMany;
    firstDealer.render();
  }

  const formEl = setupForm({
    game: meta.title || "Mhing",
    extraClass: "mhing-setup",
    sections: [
      panel({ title: t("setup.players", { min, max }) }, players.host, players.addButton),
      panel({ title: [t("mhing.setup.settlement"), " ", whyLink("MH-9", "why-settlement")] }, variantGroup, variantHint),
      panel({ title: [t("mhing.setup.first_dealer"), " ", whyLink("MH-2", "why-dealer-setup")], labelFor: "first-dealer" }, firstDealer.el),
    ],
    submit: () =>
      create({
        game: "mhing",
        players: players.names().map((name) => ({ name })),
        options: { settlement: form.settlement, first_seat: firstDealer.seat() },
      }),
  });

  container.classList.add("setup", "mhing");
  container.append(formEl);
  render();
  /** @type {import("../registry.js").SetupHandle} */
  const handle = {
    setPlayers(entries) {
      const names = entries.slice(0, max).map((p) => p.name);
      while (names.length < min) names.push("");
      form.players.splice(0, form.players.length, ...names);
      render();
    },
  };
  return handle;
}
