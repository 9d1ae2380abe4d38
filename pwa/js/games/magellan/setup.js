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

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */
/** @typedef {Schemas["BoardSheet"]} BoardSheet */
/** @typedef {Schemas["MagellanOptionsRequest"]} Options */
/** @typedef {import("./common.js").Explorer} Explorer */
/**
 * What the form holds. sheetId: an own sheet picked ("" for none); publication: a published sheet
 * picked from the library (MG-2) instead; lastSheet: the numbers the group's last table played with.
 * @typedef {object} SetupState
 * @property {string[]} players
 * @property {Record<Explorer, "A" | "B">} sides
 * @property {"outcomes" | "ledger"} depth
 * @property {"physical" | "digital"} chance
 * @property {string} sheetId
 * @property {Schemas["Publication"] | null} publication
 * @property {BoardSheet | null} lastSheet
 */

/**
 * A group's last Magellan table starts the form where it left off: sides, depth, chance, and its
 * board sheet's numbers unless another sheet is picked (issue 33).
 * @param {import("../registry.js").SetupContext["initial"]} initial
 * @param {string} sheetId the sheet picked first (the newest this phone knows)
 * @returns {SetupState}
 */
function initialState(initial, sheetId) {
  /** @type {Options} */
  const before = initial?.options || {};
  return {
    players: ["", "", ""],
    sides: /** @type {Record<Explorer, "A" | "B">} */ (Object.fromEntries(EXPLORERS.map((e) => [e, before.sides?.[e] === "B" ? "B" : "A"]))),
    depth: before.depth === "ledger" ? "ledger" : "outcomes",
    chance: before.chance === "digital" ? "digital" : "physical",
    sheetId,
    publication: null,
    lastSheet: before.board_sheet || null,
  };
}

/**
 * A side (A or B) per explorer, with what the side does.
 * @param {SetupState} form
 * @param {() => void} onChange
 * @returns {HTMLElement}
 */
function sidesPicker(form, onChange) {
  return h(
    "div",
    { class: "mg-sides" },
    ...EXPLORERS.map((explorer) => {
      const hint = h("span", { class: "muted small block mg-side-hint", testid: `mg-side-hint-${explorer}` }, t(`magellan.side_hint.${explorer}.${form.sides[explorer]}`));
      return h(
        "div",
        { class: "mg-side-row", testid: `mg-side-row-${explorer}` },
        h("div", { class: "mg-side-name" }, h("strong", {}, explorerName(explorer)), hint),
        segmented({
          values: /** @type {const} */ (["A", "B"]),
          value: form.sides[explorer],
          onPick: (side) => {
            form.sides[explorer] = side;
            hint.textContent = t(`magellan.side_hint.${explorer}.${side}`);
            onChange();
          },
          testPrefix: `mg-side-${explorer}`,
          labels: (v) => v,
          label: explorerName(explorer),
        }),
      );
    }),
  );
}

/**
 * Two choices stored in form[key], labelled by magellan.setup.<key>_<value>(_hint).
 * @template {"depth" | "chance"} K
 * @param {SetupState} form
 * @param {K} key
 * @param {readonly SetupState[K][]} values
 * @param {string} testPrefix
 * @param {string} label
 * @returns {HTMLElement}
 */
function choice(form, key, values, testPrefix, label) {
  return segmented({
    values,
    value: form[key],
    onPick: (v) => (form[key] = v),
    testPrefix,
    labels: (v) => t(`magellan.setup.${key}_${v}`),
    hints: (v) => t(`magellan.setup.${key}_${v}_hint`),
    label,
  });
}

/**
 * What the sheet line says: the picked sheet's missing numbers for these sides (asked for when the
 * game needs them), or how many a game needs when no sheet is picked.
 * @param {SetupState} form
 * @param {BoardSheet | undefined} data the own sheet's numbers as last read (undefined: not yet)
 * @returns {{text: (string | Node)[], missing: number | null} | null} null while loading
 */
function sheetInfoText(form, data) {
  /**
   * @param {BoardSheet} sheet
   * @param {...string} lead
   * @returns {{text: (string | Node)[], missing: number}}
   */
  const counted = (sheet, ...lead) => {
    const missing = missingSlots(sheet, form.sides).length;
    const text = missing ? t("magellan.setup.sheet_missing", { count: missing }) : t("magellan.setup.sheet_complete");
    return { text: [...lead, text, " ", whyLink("MG-2", "why-sheet")], missing };
  };
  if (!form.sheetId && form.publication) return counted(form.publication.data);
  if (!form.sheetId && form.lastSheet) return counted(form.lastSheet, t("evening.last_sheet"), " ");
  if (!form.sheetId) return { text: [t("magellan.setup.sheet_none_hint", { count: neededSlots(form.sides).length }), " ", whyLink("MG-2", "why-sheet")], missing: null };
  return data ? counted(data) : null;
}

/**
 * The board sheet panel's controls.
 * @returns {{select: HTMLSelectElement, info: HTMLElement, newButton: HTMLButtonElement, editButton: HTMLButtonElement, addIdInput: HTMLInputElement, addIdButton: HTMLButtonElement}}
 */
function sheetControls() {
  return {
    select: h("select", { id: "mg-sheet-select", class: "input", testid: "mg-sheet-select" }),
    info: h("p", { class: "small mg-sheet-info", testid: "mg-sheet-info" }),
    newButton: h("button", { type: "button", class: "btn btn-secondary", testid: "mg-sheet-new" }, t("magellan.setup.sheet_new")),
    editButton: h("button", { type: "button", class: "btn btn-secondary", testid: "mg-sheet-edit" }, t("magellan.setup.sheet_edit")),
    addIdInput: h("input", {
      type: "text",
      class: "input",
      testid: "mg-sheet-id",
      autocomplete: "off",
      autocapitalize: "off",
      spellcheck: "false",
      placeholder: t("magellan.setup.sheet_id_placeholder"),
      "aria-label": t("magellan.setup.sheet_id_placeholder"),
    }),
    addIdButton: h("button", { type: "button", class: "btn btn-secondary", testid: "mg-sheet-add" }, t("magellan.setup.sheet_add")),
  };
}

/**
 * A sheet asked for could not be read: forgotten when the server has none by that id, else said.
 * @param {unknown} err
 * @param {string} id
 * @returns {boolean} whether the sheet is gone
 */
function sheetFailed(err, id) {
  if (err instanceof ApiError && err.status === 404) {
    sheets.forgetSheet(id);
    toast(t("magellan.setup.sheet_gone"), { kind: "error" });
    return true;
  }
  if (!(err instanceof OfflineError)) toastError(err, t("error.generic"));
  return false;
}

/**
 * The board sheet panel: own sheets this phone knows, the library's published ones, one added by id,
 * or a new one typed in.
 * @param {SetupState} form
 * @returns {{el: HTMLElement, renderSelect: () => void, renderInfo: () => void, loadSheet: (id: string) => Promise<Schemas["Sheet"] | null>, sheetData: Map<string, BoardSheet>, load: () => Promise<void>}}
 */
function sheetChooser(form) {
  const c = sheetControls();
  /** @type {Map<string, BoardSheet>} id → data as last read */
  const sheetData = new Map();

  function renderSelect() {
    const list = sheets.knownSheets();
    c.select.replaceChildren(h("option", { value: "" }, t("magellan.setup.sheet_none")), ...list.map((s) => h("option", { value: s.id }, `${s.name} · ${s.id}`)));
    if (!list.some((s) => s.id === form.sheetId)) form.sheetId = "";
    c.select.value = form.sheetId;
    c.editButton.hidden = !form.sheetId;
  }

  function renderInfo() {
    c.editButton.hidden = !form.sheetId;
    const info = sheetInfoText(form, sheetData.get(form.sheetId));
    if (!info) {
      c.info.textContent = t("common.loading");
      return;
    }
    if (info.missing !== null) c.info.dataset.missing = String(info.missing);
    c.info.replaceChildren(...info.text);
  }

  /**
   * Reads an own sheet (forgotten when the server has none by that id).
   * @param {string} id
   * @returns {Promise<Schemas["Sheet"] | null>}
   */
  async function loadSheet(id) {
    if (!id) return null;
    try {
      const sheet = await sheets.getSheet(id);
      sheetData.set(id, sheet.data);
      sheets.rememberSheet({ id, name: sheet.name });
      return sheet;
    } catch (err) {
      if (sheetFailed(err, id)) {
        form.sheetId = "";
        renderSelect();
      }
      return null;
    } finally {
      renderInfo();
    }
  }

  const picker = libraryPicker({
    onPick: (publication) => {
      form.publication = publication;
      if (publication) {
        form.sheetId = "";
        c.select.value = "";
      }
      renderInfo();
    },
  });
  /** A sheet saved from the form becomes the pick. */
  const saved = (/** @type {Schemas["Sheet"]} */ sheet) => {
    sheetData.set(sheet.id, sheet.data);
    form.sheetId = sheet.id;
    form.publication = null;
    picker.clear();
    renderSelect();
    renderInfo();
  };
  wireSheetControls(c, form, { sheetData, loadSheet, renderSelect, renderInfo, saved, clearPick: () => picker.clear() });

  const el = panel(
    { title: t("magellan.setup.sheet"), labelFor: "mg-sheet-select", testid: "mg-sheet-panel" },
    c.select,
    picker.el,
    c.info,
    h("div", { class: "mg-button-row" }, c.newButton, c.editButton),
    h("div", { class: "join-row mg-sheet-add" }, c.addIdInput, c.addIdButton),
  );
  return { el, renderSelect, renderInfo, loadSheet, sheetData, load: picker.load };
}

/**
 * The sheet controls' taps: pick an own sheet, new, edit, add by id.
 * @param {ReturnType<typeof sheetControls>} c
 * @param {SetupState} form
 * @param {{sheetData: Map<string, BoardSheet>, loadSheet: (id: string) => Promise<Schemas["Sheet"] | null>, renderSelect: () => void, renderInfo: () => void, saved: (sheet: Schemas["Sheet"]) => void, clearPick: () => void}} chooser
 */
function wireSheetControls(c, form, { sheetData, loadSheet, renderSelect, renderInfo, saved, clearPick }) {
  c.select.addEventListener("change", () => {
    form.sheetId = c.select.value;
    if (form.sheetId) {
      form.publication = null;
      clearPick();
    }
    renderInfo();
    loadSheet(form.sheetId);
  });
  c.newButton.addEventListener("click", () => openSheetEditor(form, null, null, saved));
  c.editButton.addEventListener("click", async () => {
    if (!sheetData.has(form.sheetId)) await loadSheet(form.sheetId);
    if (sheetData.has(form.sheetId)) openSheetEditor(form, form.sheetId, sheetData.get(form.sheetId) ?? null, saved);
  });
  c.addIdButton.addEventListener("click", async () => {
    const id = c.addIdInput.value.trim().replace(/^.*\/sheets\//, "");
    if (!/^[\w-]{3,}$/.test(id)) {
      toast(t("magellan.setup.sheet_id_invalid"), { kind: "error" });
      return;
    }
    form.sheetId = id;
    const sheet = await loadSheet(id);
    if (sheet) {
      c.addIdInput.value = "";
      renderSelect();
      renderInfo();
    }
  });
}

/**
 * The board-sheet form for a new sheet or an own one (another's is saved as a copy).
 * @param {SetupState} form
 * @param {string | null} existingId
 * @param {BoardSheet | null} existing its numbers
 * @param {(sheet: Schemas["Sheet"]) => void} onSaved
 */
function openSheetEditor(form, existingId, existing, onSaved) {
  const entry = sheets.knownSheets().find((s) => s.id === existingId);
  const own = !!(entry && entry.token);
  openSheetForm({
    title: existingId ? t("magellan.sheet.title_edit") : t("magellan.sheet.title_new"),
    sides: { ...form.sides },
    // A new sheet starts from the picked shared numbers: only what they lack is left to type.
    data: existingId ? existing : form.publication ? form.publication.data : { explorers: {} },
    name: entry ? (own ? entry.name : t("magellan.sheet.copy_of", { name: entry.name })) : t("magellan.sheet.default_name"),
    saveLabel: t("magellan.sheet.save"),
    onSave: async ({ name, data }) => {
      try {
        const saved = await sheets.saveSheet(own ? existingId : null, name, data);
        onSaved(saved);
        toast(t("magellan.sheet.saved", { name: saved.name }));
        return true;
      } catch (err) {
        toastError(err, err instanceof OfflineError ? t("offline.not_sent") : t("error.generic"));
        return false;
      }
    },
  });
}

/**
 * Posts the table with the chosen sheet's numbers (the newest, or the ones read before when offline;
 * a published sheet's; the group's last table's), and remembers which sheet the table started from.
 * @param {SetupState} form
 * @param {ReturnType<typeof sheetChooser>} chooser
 * @param {string[]} names
 * @param {import("../registry.js").SetupContext["create"]} create
 * @param {Options} options
 * @returns {Promise<void>}
 */
async function createTable(form, chooser, names, create, options) {
  const sheetId = form.sheetId;
  const publication = sheetId ? null : form.publication;
  if (sheetId) {
    const fresh = await chooser.loadSheet(sheetId);
    const data = fresh?.data || chooser.sheetData.get(sheetId);
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

/**
 * One tap: the standard game — every explorer on side A, outcomes, real cards, the first player
 * auctions, the chosen sheet.
 * @param {(options: Options) => Promise<void>} createWith
 * @returns {HTMLButtonElement}
 */
function standardButton(createWith) {
  const standardSides = Object.fromEntries(EXPLORERS.map((e) => [e, "A"]));
  const button = h(
    "button",
    { type: "button", class: "btn btn-primary btn-big mg-standard", testid: "mg-standard-setup" },
    h("span", { class: "btn-label" }, t("magellan.setup.standard")),
    h("span", { class: "btn-sub" }, t("magellan.setup.standard_hint")),
  );
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await createWith({ sides: { ...standardSides }, depth: "outcomes", chance: "physical", auctioneer: 0 });
    } finally {
      button.disabled = false;
    }
  });
  return button;
}

/**
 * @param {HTMLElement} container
 * @param {import("../registry.js").SetupContext} ctx
 * @returns {import("../registry.js").SetupHandle}
 */
export function mountSetup(container, { meta, create, initial }) {
  const min = meta.min_players || 3;
  const max = meta.max_players || 6;
  const form = initialState(initial, sheets.knownSheets()[0]?.id || "");
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
  const chooser = sheetChooser(form);
  const createWith = (/** @type {Options} */ options) => createTable(form, chooser, players.names(), create, options);

  const formEl = setupForm({
    game: meta.title,
    extraClass: "mg-setup",
    sections: [
      panel(
        { title: t("magellan.setup.players", { min, max }) },
        h("p", { class: "muted small" }, t("magellan.setup.clockwise")),
        players.host,
        players.addButton,
        standardButton(createWith),
        h("p", { class: "muted small" }, t("magellan.setup.or_choose")),
      ),
      panel({ title: [t("magellan.setup.auctioneer"), " ", whyLink("MG-4", "why-auctioneer")], labelFor: "mg-auctioneer" }, auctioneer.el),
      panel({ title: [t("magellan.setup.sides"), " ", whyLink("MG-8", "why-sides")] }, sidesPicker(form, chooser.renderInfo)),
      panel({ title: t("magellan.setup.depth") }, choice(form, "depth", ["outcomes", "ledger"], "mg-depth", t("magellan.setup.depth"))),
      panel({ title: t("magellan.setup.chance") }, choice(form, "chance", ["physical", "digital"], "chance", t("setup.chance"))),
      chooser.el,
    ],
    submit: () => createWith({ sides: { ...form.sides }, depth: form.depth, chance: form.chance, auctioneer: auctioneer.seat() }),
  });

  container.classList.add("setup");
  container.append(formEl);
  renderPlayers();
  chooser.renderSelect();
  chooser.renderInfo();
  if (form.sheetId) chooser.loadSheet(form.sheetId);
  chooser.load();
  return {
    setPlayers(entries) {
      const names = entries.slice(0, max).map((p) => p.name);
      while (names.length < min) names.push("");
      form.players.splice(0, form.players.length, ...names);
      renderPlayers();
    },
  };
}
