// "#/new/magellan": players (3–6, clockwise), board side per explorer (MG-1, MG-8), depth (outcomes
// or the full money ledger), chance mode, auctioneer (MG-3) and the board sheet (MG-2): chosen from
// the sheets this phone knows, added by id, or typed in new.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { ApiError, OfflineError } from "../../api.js";
import { toast, toastError } from "../../toast.js";
import { panel } from "../../ui/panel.js";
import { playersList, seatSelect, segmented, setupForm } from "../../ui/players-form.js";
import { EXPLORERS, explorerName, missingSlots, neededSlots, whyLink } from "./common.js";
import { libraryPicker } from "./library.js";
import { openSheetForm } from "./sheetform.js";
import * as sheets from "./sheets.js";

/**
 * @param {HTMLElement} container
 * @param {import("../registry.js").SetupContext} ctx
 */
export function mountSetup(container, { meta, create, initial }) {
  const min = meta.min_players || 3;
  const max = meta.max_players || 6;
  const known = sheets.knownSheets();
  // A group's last Magellan table starts the form where it left off: sides, depth, chance, and its
  // board sheet's numbers unless another sheet is picked (issue 33).
  const before = initial?.options || {};
  const form = {
    players: ["", "", ""],
    sides: Object.fromEntries(EXPLORERS.map((e) => [e, before.sides?.[e] === "B" ? "B" : "A"])),
    depth: before.depth === "ledger" ? "ledger" : "outcomes",
    chance: before.chance === "digital" ? "digital" : "physical",
    sheetId: known[0]?.id || "",
    publication: null, // a published sheet picked from the library (MG-2), instead of an own one
    lastSheet: before.board_sheet || null, // the numbers the group's last table played with
  };
  const sheetData = new Map(); // id → data as last read

  // ---------- players ----------
  const players = playersList({
    players: form.players,
    min,
    max,
    onChange: renderPlayers,
    onName: () => auctioneer.render(),
    rowClass: "mg-player-row",
    seatClass: (i) => `mg-seat-${i}`,
  });
  const auctioneer = seatSelect({ id: "mg-auctioneer", testid: "mg-auctioneer", names: players.names });

  function renderPlayers() {
    players.render();
    auctioneer.render();
  }

  // ---------- sides ----------
  const sidesHost = h(
    "div",
    { class: "mg-sides" },
    ...EXPLORERS.map((explorer) => {
      const hint = h("span", { class: "muted small block mg-side-hint", testid: `mg-side-hint-${explorer}` }, t(`magellan.side_hint.${explorer}.${form.sides[explorer]}`));
      return h(
        "div",
        { class: "mg-side-row", testid: `mg-side-row-${explorer}` },
        h("div", { class: "mg-side-name" }, h("strong", {}, explorerName(explorer)), hint),
        segmented({
          values: ["A", "B"],
          value: form.sides[explorer],
          onPick: (side) => {
            form.sides[explorer] = side;
            hint.textContent = t(`magellan.side_hint.${explorer}.${side}`);
            renderSheetInfo();
          },
          testPrefix: `mg-side-${explorer}`,
          labels: (v) => v,
          label: explorerName(explorer),
        }),
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
    if (!id && form.publication) {
      // Only what the picked sheet lacks for these sides, asked for when the game needs it.
      const missing = missingSlots(form.publication.data, form.sides).length;
      sheetInfo.dataset.missing = String(missing);
      sheetInfo.replaceChildren(
        missing ? t("magellan.setup.sheet_missing", { count: missing }) : t("magellan.setup.sheet_complete"),
        " ",
        whyLink("MG-2", "why-sheet"),
      );
      return;
    }
    if (!id && form.lastSheet) {
      const missing = missingSlots(form.lastSheet, form.sides).length;
      sheetInfo.dataset.missing = String(missing);
      sheetInfo.replaceChildren(
        t("evening.last_sheet"),
        " ",
        missing ? t("magellan.setup.sheet_missing", { count: missing }) : t("magellan.setup.sheet_complete"),
        " ",
        whyLink("MG-2", "why-sheet"),
      );
      return;
    }
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

  const picker = libraryPicker({
    onPick: (publication) => {
      form.publication = publication;
      if (publication) {
        form.sheetId = "";
        sheetSelect.value = "";
      }
      renderSheetInfo();
    },
  });

  sheetSelect.addEventListener("change", () => {
    form.sheetId = sheetSelect.value;
    if (form.sheetId) {
      form.publication = null;
      picker.clear();
    }
    renderSheetInfo();
    loadSheet(form.sheetId);
  });

  function openForm(existingId) {
    const entry = sheets.knownSheets().find((s) => s.id === existingId);
    const own = !!(entry && entry.token);
    openSheetForm({
      title: existingId ? t("magellan.sheet.title_edit") : t("magellan.sheet.title_new"),
      sides: { ...form.sides },
      // A new sheet starts from the picked shared numbers: only what they lack is left to type.
      data: existingId ? sheetData.get(existingId) : form.publication ? form.publication.data : { explorers: {} },
      name: entry ? (own ? entry.name : t("magellan.sheet.copy_of", { name: entry.name })) : t("magellan.sheet.default_name"),
      saveLabel: t("magellan.sheet.save"),
      onSave: async ({ name, data }) => {
        try {
          const saved = await sheets.saveSheet(own ? existingId : null, name, data);
          sheetData.set(saved.id, saved.data);
          form.sheetId = saved.id;
          form.publication = null;
          picker.clear();
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
  /** Two choices stored in form[key], labelled by magellan.setup.<key>_<value>(_hint). */
  const choice = (key, values, testPrefix, label) =>
    segmented({
      values,
      value: form[key],
      onPick: (v) => (form[key] = v),
      testPrefix,
      labels: (v) => t(`magellan.setup.${key}_${v}`),
      hints: (v) => t(`magellan.setup.${key}_${v}_hint`),
      label,
    });
  // ---------- one tap: the standard game ----------
  /** Every explorer on side A, outcomes, real cards, the first player auctions, the chosen sheet. */
  async function createTable(options) {
    const names = players.names();
    const sheetId = form.sheetId;
    const publication = sheetId ? null : form.publication;
    if (sheetId) {
      const fresh = await loadSheet(sheetId); // the newest numbers, or the ones read before when offline
      const data = fresh?.data || sheetData.get(sheetId);
      if (data) options.board_sheet = data;
    } else if (publication) {
      options.board_sheet = publication.data; // the published numbers as typed in by players (MG-2)
    } else if (form.lastSheet) {
      options.board_sheet = form.lastSheet; // the group's last table's numbers (MG-2)
    }
    const ok = await create({ game: "magellan", players: names.map((name) => ({ name })), options });
    const id = ok ? /^#\/t\/([^/?]+)/.exec(location.hash)?.[1] : null;
    if (id && sheetId && options.board_sheet) sheets.linkTable(decodeURIComponent(id), sheetId);
    if (id && publication) sheets.linkPublication(decodeURIComponent(id), { id: publication.id, edition: publication.edition, confirmed: false });
  }
  const standardSides = Object.fromEntries(EXPLORERS.map((e) => [e, "A"]));
  const standardButton = h(
    "button",
    { type: "button", class: "btn btn-primary btn-big mg-standard", testid: "mg-standard-setup" },
    h("span", { class: "btn-label" }, t("magellan.setup.standard")),
    h("span", { class: "btn-sub" }, t("magellan.setup.standard_hint")),
  );
  standardButton.addEventListener("click", async () => {
    standardButton.disabled = true;
    try {
      await createTable({ sides: { ...standardSides }, depth: "outcomes", chance: "physical", auctioneer: 0 });
    } finally {
      standardButton.disabled = false;
    }
  });

  const depthGroup = choice("depth", ["outcomes", "ledger"], "mg-depth", t("magellan.setup.depth"));
  const chanceGroup = choice("chance", ["physical", "digital"], "chance", t("setup.chance"));

  const formEl = setupForm({
    game: meta.title,
    extraClass: "mg-setup",
    sections: [
      panel(
        { title: t("magellan.setup.players", { min, max }) },
        h("p", { class: "muted small" }, t("magellan.setup.clockwise")),
        players.host,
        players.addButton,
        standardButton,
        h("p", { class: "muted small" }, t("magellan.setup.or_choose")),
      ),
      panel({ title: [t("magellan.setup.auctioneer"), " ", whyLink("MG-4", "why-auctioneer")], labelFor: "mg-auctioneer" }, auctioneer.el),
      panel({ title: [t("magellan.setup.sides"), " ", whyLink("MG-8", "why-sides")] }, sidesHost),
      panel({ title: t("magellan.setup.depth") }, depthGroup),
      panel({ title: t("magellan.setup.chance") }, chanceGroup),
      panel(
        { title: t("magellan.setup.sheet"), labelFor: "mg-sheet-select", testid: "mg-sheet-panel" },
        sheetSelect,
        picker.el,
        sheetInfo,
        h("div", { class: "mg-button-row" }, newSheetButton, editSheetButton),
        h("div", { class: "join-row mg-sheet-add" }, addIdInput, addIdButton),
      ),
    ],
    submit: () => createTable({ sides: { ...form.sides }, depth: form.depth, chance: form.chance, auctioneer: auctioneer.seat() }),
  });

  container.classList.add("setup");
  container.append(formEl);
  renderPlayers();
  renderSheetSelect();
  renderSheetInfo();
  if (form.sheetId) loadSheet(form.sheetId);
  picker.load();
  /** @type {import("../registry.js").SetupHandle} */
  const handle = {
    setPlayers(entries) {
      const names = entries.slice(0, max).map((p) => p.name);
      while (names.length < min) names.push("");
      form.players.splice(0, form.players.length, ...names);
      renderPlayers();
    },
  };
  return handle;
}
