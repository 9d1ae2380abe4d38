// "#/new/magellan": players (3–6, clockwise), board side per explorer (MG-1, MG-8), depth (outcomes
// or the full money ledger), chance mode, auctioneer (MG-3) and the board sheet (MG-2): chosen from
// the sheets this phone knows, added by id, or typed in new.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { ApiError, OfflineError } from "../../api.js";
import { toast, toastError } from "../../toast.js";
import { EXPLORERS, explorerName, missingSlots, neededSlots, whyLink } from "./common.js";
import { openSheetForm } from "./sheetform.js";
import * as sheets from "./sheets.js";

function segmented(name, values, current, onPick, { testPrefix, labels, hints }) {
  const group = h("div", { class: ["segmented", values.length > 2 && "mg-seg-3"], role: "group", "aria-label": name });
  for (const value of values) {
    const b = h(
      "button",
      { type: "button", class: "segment", testid: `${testPrefix}-${value}`, "aria-pressed": String(current === value) },
      h("span", { class: "segment-label" }, labels(value)),
      hints ? h("span", { class: "segment-sub" }, hints(value)) : null,
    );
    b.addEventListener("click", () => {
      group.querySelectorAll(".segment").forEach((el) => el.setAttribute("aria-pressed", String(el === b)));
      onPick(value);
    });
    group.append(b);
  }
  return group;
}

export function mountSetup(container, { meta, create }) {
  const min = meta.min_players || 3;
  const max = meta.max_players || 6;
  const known = sheets.knownSheets();
  const form = {
    players: ["", "", ""],
    sides: Object.fromEntries(EXPLORERS.map((e) => [e, "A"])),
    depth: "outcomes",
    chance: "physical",
    auctioneer: "0",
    sheetId: known[0]?.id || "",
  };
  const sheetData = new Map(); // id → data as last read
  let submitting = false;

  // ---------- players ----------
  const playersHost = h("div", { class: "players", testid: "players" });
  const addButton = h("button", { type: "button", class: "btn btn-secondary", testid: "add-player" }, t("setup.add_player"));
  const auctioneerSelect = h("select", { id: "mg-auctioneer", class: "input", testid: "mg-auctioneer" });

  function displayName(i) {
    return form.players[i].trim() || t("setup.player_n", { n: i + 1 });
  }

  function renderAuctioneer() {
    const keep = Number(form.auctioneer) < form.players.length ? form.auctioneer : "0";
    auctioneerSelect.replaceChildren(...form.players.map((p, i) => h("option", { value: String(i) }, displayName(i))));
    form.auctioneer = keep;
    auctioneerSelect.value = keep;
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
      renderAuctioneer();
    });
    return h(
      "div",
      { class: "player-head mg-player-row", testid: `player-${i}` },
      h("span", { class: ["seat-no", `mg-seat-${i}`] }, String(i + 1)),
      input,
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
                renderPlayers();
              },
            },
            "×",
          )
        : null,
    );
  }

  function renderPlayers() {
    playersHost.replaceChildren(...form.players.map(playerRow));
    addButton.hidden = form.players.length >= max;
    renderAuctioneer();
  }
  addButton.addEventListener("click", () => {
    form.players.push("");
    renderPlayers();
    document.getElementById(`player-name-${form.players.length - 1}`)?.focus();
  });
  auctioneerSelect.addEventListener("change", () => {
    form.auctioneer = auctioneerSelect.value;
  });

  // ---------- sides ----------
  const sidesHost = h(
    "div",
    { class: "mg-sides" },
    ...EXPLORERS.map((explorer) => {
      const hint = h("span", { class: "muted small block mg-side-hint", testid: `mg-side-hint-${explorer}` }, t(`magellan.side_hint.${explorer}.A`));
      return h(
        "div",
        { class: "mg-side-row", testid: `mg-side-row-${explorer}` },
        h("div", { class: "mg-side-name" }, h("strong", {}, explorerName(explorer)), hint),
        segmented(explorerName(explorer), ["A", "B"], "A", (side) => {
          form.sides[explorer] = side;
          hint.textContent = t(`magellan.side_hint.${explorer}.${side}`);
          renderSheetInfo();
        }, { testPrefix: `mg-side-${explorer}`, labels: (v) => v }),
      );
    }),
  );

  // ---------- board sheet ----------
  const sheetSelect = h("select", { id: "mg-sheet-select", class: "input", testid: "mg-sheet-select" });
  const sheetInfo = h("p", { class: "small mg-sheet-info", testid: "mg-sheet-info" });
  const newSheetButton = h("button", { type: "button", class: "btn btn-secondary", testid: "mg-sheet-new" }, t("magellan.setup.sheet_new"));
  const editSheetButton = h("button", { type: "button", class: "btn btn-secondary", testid: "mg-sheet-edit" }, t("magellan.setup.sheet_edit"));
  const addIdInput = h("input", {
    type: "text",
    class: "input",
    testid: "mg-sheet-id",
    autocomplete: "off",
    autocapitalize: "off",
    spellcheck: "false",
    placeholder: t("magellan.setup.sheet_id_placeholder"),
    "aria-label": t("magellan.setup.sheet_id_placeholder"),
  });
  const addIdButton = h("button", { type: "button", class: "btn btn-secondary", testid: "mg-sheet-add" }, t("magellan.setup.sheet_add"));

  function renderSheetSelect() {
    const list = sheets.knownSheets();
    sheetSelect.replaceChildren(
      h("option", { value: "" }, t("magellan.setup.sheet_none")),
      ...list.map((s) => h("option", { value: s.id }, `${s.name} · ${s.id}`)),
    );
    if (!list.some((s) => s.id === form.sheetId)) form.sheetId = "";
    sheetSelect.value = form.sheetId;
    editSheetButton.hidden = !form.sheetId;
  }

  function renderSheetInfo() {
    const id = form.sheetId;
    editSheetButton.hidden = !id;
    if (!id) {
      sheetInfo.replaceChildren(t("magellan.setup.sheet_none_hint", { count: neededSlots(form.sides).length }), " ", whyLink("MG-2", "why-sheet"));
      return;
    }
    const data = sheetData.get(id);
    if (!data) {
      sheetInfo.textContent = t("common.loading");
      return;
    }
    const missing = missingSlots(data, form.sides).length;
    sheetInfo.dataset.missing = String(missing);
    sheetInfo.replaceChildren(
      missing ? t("magellan.setup.sheet_missing", { count: missing }) : t("magellan.setup.sheet_complete"),
      " ",
      whyLink("MG-2", "why-sheet"),
    );
  }

  async function loadSheet(id) {
    if (!id) return null;
    try {
      const sheet = await sheets.getSheet(id);
      sheetData.set(id, sheet.data);
      sheets.rememberSheet({ id, name: sheet.name });
      return sheet;
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) {
        sheets.forgetSheet(id);
        toast(t("magellan.setup.sheet_gone"), { kind: "error" });
        form.sheetId = "";
        renderSheetSelect();
      } else if (!(err instanceof OfflineError)) {
        toastError(err, t("error.generic"));
      }
      return null;
    } finally {
      renderSheetInfo();
    }
  }

  sheetSelect.addEventListener("change", () => {
    form.sheetId = sheetSelect.value;
    renderSheetInfo();
    loadSheet(form.sheetId);
  });

  function openForm(existingId) {
    const entry = sheets.knownSheets().find((s) => s.id === existingId);
    const own = !!(entry && entry.token);
    openSheetForm({
      title: existingId ? t("magellan.sheet.title_edit") : t("magellan.sheet.title_new"),
      sides: { ...form.sides },
      data: existingId ? sheetData.get(existingId) : { explorers: {} },
      name: entry ? (own ? entry.name : t("magellan.sheet.copy_of", { name: entry.name })) : t("magellan.sheet.default_name"),
      saveLabel: t("magellan.sheet.save"),
      onSave: async ({ name, data }) => {
        try {
          const saved = await sheets.saveSheet(own ? existingId : null, name, data);
          sheetData.set(saved.id, saved.data);
          form.sheetId = saved.id;
          renderSheetSelect();
          renderSheetInfo();
          toast(t("magellan.sheet.saved", { name: saved.name }));
          return true;
        } catch (err) {
          toastError(err, err instanceof OfflineError ? t("offline.not_sent") : t("error.generic"));
          return false;
        }
      },
    });
  }
  newSheetButton.addEventListener("click", () => openForm(null));
  editSheetButton.addEventListener("click", async () => {
    if (!sheetData.has(form.sheetId)) await loadSheet(form.sheetId);
    if (sheetData.has(form.sheetId)) openForm(form.sheetId);
  });
  addIdButton.addEventListener("click", async () => {
    const id = addIdInput.value.trim().replace(/^.*\/sheets\//, "");
    if (!/^[\w-]{3,}$/.test(id)) {
      toast(t("magellan.setup.sheet_id_invalid"), { kind: "error" });
      return;
    }
    form.sheetId = id;
    const sheet = await loadSheet(id);
    if (sheet) {
      addIdInput.value = "";
      renderSheetSelect();
      renderSheetInfo();
    }
  });

  // ---------- depth, chance ----------
  const depthGroup = segmented(t("magellan.setup.depth"), ["outcomes", "ledger"], form.depth, (v) => (form.depth = v), {
    testPrefix: "mg-depth",
    labels: (v) => t(`magellan.setup.depth_${v}`),
    hints: (v) => t(`magellan.setup.depth_${v}_hint`),
  });
  const chanceGroup = segmented(t("setup.chance"), ["physical", "digital"], form.chance, (v) => (form.chance = v), {
    testPrefix: "chance",
    labels: (v) => t(`magellan.setup.chance_${v}`),
    hints: (v) => t(`magellan.setup.chance_${v}_hint`),
  });

  const createButton = h("button", { type: "submit", class: "btn btn-primary btn-big", testid: "create-table" }, t("setup.create"));
  const formEl = h(
    "form",
    { class: "setup-form mg-setup", novalidate: true },
    h("h1", { class: "page-title" }, t("setup.title", { game: meta.title })),
    h(
      "section",
      { class: "panel" },
      h("h2", { class: "section-title" }, t("magellan.setup.players", { min, max })),
      h("p", { class: "muted small" }, t("magellan.setup.clockwise")),
      playersHost,
      addButton,
    ),
    h("section", { class: "panel" }, h("label", { class: "section-title", for: "mg-auctioneer" }, t("magellan.setup.auctioneer"), " ", whyLink("MG-4", "why-auctioneer")), auctioneerSelect),
    h("section", { class: "panel" }, h("h2", { class: "section-title" }, t("magellan.setup.sides"), " ", whyLink("MG-8", "why-sides")), sidesHost),
    h("section", { class: "panel" }, h("h2", { class: "section-title" }, t("magellan.setup.depth")), depthGroup),
    h("section", { class: "panel" }, h("h2", { class: "section-title" }, t("magellan.setup.chance")), chanceGroup),
    h(
      "section",
      { class: "panel", testid: "mg-sheet-panel" },
      h("label", { class: "section-title", for: "mg-sheet-select" }, t("magellan.setup.sheet")),
      sheetSelect,
      sheetInfo,
      h("div", { class: "mg-button-row" }, newSheetButton, editSheetButton),
      h("div", { class: "join-row mg-sheet-add" }, addIdInput, addIdButton),
    ),
    h("div", { class: "sticky-submit" }, createButton),
  );

  formEl.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (submitting) return;
    const names = form.players.map((p, i) => displayName(i));
    const options = { sides: { ...form.sides }, depth: form.depth, chance: form.chance, auctioneer: Number(form.auctioneer) };
    submitting = true;
    createButton.disabled = true;
    try {
      const sheetId = form.sheetId;
      if (sheetId) {
        const fresh = await loadSheet(sheetId); // the newest numbers, or the ones read before when offline
        const data = fresh?.data || sheetData.get(sheetId);
        if (data) options.board_sheet = data;
      }
      const ok = await create({ game: "magellan", players: names.map((name) => ({ name })), options });
      const id = ok ? /^#\/t\/([^/?]+)/.exec(location.hash)?.[1] : null;
      if (id && sheetId && options.board_sheet) sheets.linkTable(decodeURIComponent(id), sheetId);
    } finally {
      submitting = false;
      createButton.disabled = false;
    }
  });

  container.classList.add("setup");
  container.append(formEl);
  renderPlayers();
  renderSheetSelect();
  renderSheetInfo();
  if (form.sheetId) loadSheet(form.sheetId);
}
