// The board-sheet form (MG-2): big number inputs for the money bags and crowns printed on the
// players' own board — only the entries the chosen sides need, missing ones marked. Nothing is
// ever pre-filled with invented numbers; an empty box stays null.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import {
  EXPLORERS,
  ROMAN,
  crownsFixed,
  deepCopy,
  explorerName,
  getSlot,
  neededSlots,
  partsOf,
  setSlot,
  slotKey,
  slotLabel,
  whyLink,
} from "./common.js";

/** @typedef {import("kibitz-api").components["schemas"]["BoardSheet"]} BoardSheet */
/** @typedef {import("./common.js").Slot} Slot */
/** @typedef {import("./common.js").Explorer} Explorer */
/**
 * The form's state: the sheet being typed in, its boxes, the ones the table waits for (`needed`,
 * by their API labels), whether only those are shown (`focused`), and a save under way (`busy`).
 * @typedef {object} SheetFormState
 * @property {BoardSheet} sheet
 * @property {Set<string>} needed
 * @property {Map<string, {slot: Slot, input: HTMLInputElement}>} inputs slotKey → its box
 * @property {boolean} focused
 * @property {boolean} busy
 */

/** @type {Record<string, string>} */
const FIXED_RULE = { magellan: "MG-10", vasco_left: "MG-8", pizarro_draw: "MG-11" };

/**
 * A box's text as a number: empty is null (not entered), anything but one or two digits is not ok.
 * @param {string} text
 * @returns {{ok: boolean, value: number | null}}
 */
function parseNumber(text) {
  const value = text.trim();
  if (value === "") return { ok: true, value: null };
  if (!/^\d{1,2}$/.test(value)) return { ok: false, value: null };
  return { ok: true, value: Number(value) };
}

/**
 * Reads the shown boxes into the sheet and marks the empty and invalid ones.
 * @param {SheetFormState} state
 * @returns {{missing: number, invalid: number, shown: number}}
 */
function readBoxes(state) {
  let missing = 0;
  let invalid = 0;
  let shown = 0;
  for (const { slot, input } of state.inputs.values()) {
    if (state.focused && !state.needed.has(slotLabel(slot))) {
      const parsed = parseNumber(input.value);
      if (!parsed.ok) invalid += 1;
      continue;
    }
    shown += 1;
    const parsed = parseNumber(input.value);
    const empty = parsed.ok && parsed.value === null;
    input.classList.toggle("is-missing", empty);
    input.classList.toggle("is-invalid", !parsed.ok);
    input.setAttribute("aria-invalid", parsed.ok ? "false" : "true");
    if (parsed.ok) setSlot(state.sheet, slot, parsed.value);
    if (empty) missing += 1;
    if (!parsed.ok) invalid += 1;
  }
  return { missing, invalid, shown };
}

/**
 * Enter moves to the next visible box (the last one closes the keyboard).
 * @param {SheetFormState} state
 * @param {HTMLInputElement} input
 */
function focusNext(state, input) {
  const all = [...state.inputs.values()].map((x) => x.input).filter((el) => el.offsetParent !== null && getComputedStyle(el).visibility !== "hidden");
  const next = all[all.indexOf(input) + 1];
  if (next) next.focus();
  else input.blur();
}

/**
 * One number box (bags or crowns of a field), registered in state.inputs.
 * @param {SheetFormState} state
 * @param {Slot} slot
 * @param {() => void} onInput
 * @returns {HTMLInputElement}
 */
function numberInput(state, slot, onInput) {
  const value = getSlot(state.sheet, slot);
  const key = slotKey(slot);
  const input = h("input", {
    type: "text",
    inputmode: "numeric",
    pattern: "[0-9]*",
    maxlength: 2,
    autocomplete: "off",
    enterkeyhint: "next",
    class: ["input", "mg-num", state.needed.has(slotLabel(slot)) && "is-needed"],
    testid: `mg-sheet-${key}`,
    value: value === null ? "" : String(value),
    placeholder: "–",
    "aria-label": `${explorerName(slot.explorer)} ${slot.side}, ${t("magellan.field_n", { field: ROMAN[slot.field] })}${slot.part ? ` ${t(`magellan.part.${slot.part}`)}` : ""}: ${t(`magellan.sheet.${slot.what}`)}`,
  });
  input.addEventListener("input", onInput);
  input.addEventListener("keydown", (e) => {
    if (e.key !== "Enter") return;
    e.preventDefault();
    focusNext(state, input);
  });
  state.inputs.set(key, { slot, input });
  return input;
}

/**
 * One field (or part) of an explorer: its name, the bags box and the crowns box (a dash where a rule
 * fixes the crowns). Focused on what the table waits for: rows without such a box drop out, other
 * boxes of a shown row stay in place but quiet (the CSS under .is-focused).
 * @param {SheetFormState} state
 * @param {{explorer: Explorer, side: "A" | "B", field: number, part: "left" | "right" | null}} base
 * @param {string | null} fixed why the crowns are fixed, or null
 * @param {() => void} onInput
 * @returns {{cells: HTMLElement[], wanted: boolean}}
 */
function fieldRow(state, base, fixed, onInput) {
  const cells = [
    h("span", { class: "mg-sheet-field" }, ROMAN[base.field], base.part ? h("span", { class: "mg-sheet-part" }, t(`magellan.part.${base.part}`)) : null),
    numberInput(state, { ...base, what: "bags" }, onInput),
    fixed ? h("span", { class: "mg-sheet-fixed", title: t(`magellan.sheet.fixed.${fixed}`) }, "—") : numberInput(state, { ...base, what: "crowns" }, onInput),
  ];
  /** @type {Slot[]} */
  const both = [{ ...base, what: "bags" }, { ...base, what: "crowns" }];
  const wanted = both.some((slot) => state.needed.has(slotLabel(slot)));
  for (const cell of cells) {
    if (!wanted) cell.classList.add("mg-sheet-quiet-row");
    else if (cell.tagName === "INPUT" && !cell.classList.contains("is-needed")) cell.classList.add("mg-sheet-quiet");
  }
  return { cells, wanted };
}

/**
 * An explorer's boxes on its side, with why some crowns are not asked for.
 * @param {SheetFormState} state
 * @param {Record<string, string>} sides
 * @param {Explorer} explorer
 * @param {() => void} onInput
 * @returns {HTMLElement}
 */
function explorerSection(state, sides, explorer, onInput) {
  const side = sides[explorer] === "B" ? "B" : "A";
  /** @type {HTMLElement[]} */
  const rows = [];
  /** @type {Set<string>} */
  const fixedReasons = new Set();
  let wanted = false; // a box the table waits for is in this section
  for (const field of [1, 2, 3]) {
    for (const part of partsOf(explorer, side)) {
      const fixed = crownsFixed(explorer, side, field, part);
      if (fixed) fixedReasons.add(fixed);
      const row = fieldRow(state, { explorer, side, field, part }, fixed, onInput);
      wanted ||= row.wanted;
      rows.push(...row.cells);
    }
  }
  return h(
    "section",
    { class: ["panel", "mg-sheet-explorer", !wanted && "mg-sheet-quiet-section"], testid: `mg-sheet-explorer-${explorer}` },
    h("h3", { class: "mg-sheet-title" }, explorerName(explorer), " ", h("span", { class: "mg-side-badge" }, t("magellan.side_n", { side }))),
    h(
      "div",
      { class: "mg-sheet-grid" },
      h("span", {}),
      h("span", { class: "mg-sheet-head" }, t("magellan.sheet.bags")),
      h("span", { class: "mg-sheet-head" }, t("magellan.sheet.crowns")),
      ...rows,
    ),
    ...[...fixedReasons].map((reason) =>
      h("p", { class: "muted small mg-sheet-note" }, t(`magellan.sheet.fixed.${reason}`), " ", whyLink(FIXED_RULE[reason], `why-fixed-${reason}`)),
    ),
  );
}

/**
 * The form's fixed controls: the sheet's name, what is missing, "show all", save and close.
 * @param {string} name
 * @param {string} saveLabel
 * @returns {{nameInput: HTMLInputElement, missingText: HTMLElement, saveButton: HTMLButtonElement, closeButton: HTMLButtonElement, showAllButton: HTMLButtonElement}}
 */
function formControls(name, saveLabel) {
  return {
    nameInput: h("input", {
      type: "text",
      class: "input",
      id: "mg-sheet-name",
      testid: "mg-sheet-name",
      maxlength: 80,
      value: name,
      autocomplete: "off",
      placeholder: t("magellan.sheet.name_placeholder"),
    }),
    missingText: h("p", { class: "mg-sheet-missing", testid: "mg-sheet-missing", role: "status" }),
    saveButton: h("button", { type: "submit", class: "btn btn-primary btn-big", testid: "mg-sheet-save" }, saveLabel || t("magellan.sheet.save")),
    closeButton: h("button", { type: "button", class: "icon-button mg-overlay-close", testid: "mg-sheet-close", "aria-label": t("common.close") }, "×"),
    showAllButton: h("button", { type: "button", class: "btn btn-secondary mg-sheet-show-all", testid: "mg-sheet-show-all" }, t("magellan.sheet.show_all")),
  };
}

/**
 * What the line under the name says: invalid boxes, missing ones (of those shown), or complete.
 * @param {{missing: number, invalid: number, shown: number}} counts
 * @param {number} total boxes the sheet needs
 * @param {boolean} focused
 * @returns {string}
 */
function missingLine({ missing, invalid, shown }, total, focused) {
  if (invalid) return t("magellan.sheet.invalid", { count: invalid });
  if (missing) return t("magellan.sheet.missing_count", { count: missing, total: focused ? shown : total });
  return t("magellan.sheet.complete");
}

/**
 * openSheetForm({title, sides, data, name, needNow: [labels], saveLabel, onSave({name, data}) → Promise<bool>})
 * A full-screen form above the current view; resolves nothing — it closes itself after a successful save.
 * With `needNow` (what the table waits for: the bags of an income, the crowns of the scoring) the
 * form shows only those boxes — the rest of the sheet stays as it is, one tap away ("show all").
 * @param {object} options
 * @param {string} options.title
 * @param {Record<string, string>} options.sides  explorer → "A" | "B"
 * @param {BoardSheet | null} options.data
 * @param {string} [options.name]
 * @param {string[]} [options.needNow]
 * @param {string} options.saveLabel
 * @param {(sheet: {name: string, data: BoardSheet}) => Promise<boolean>} options.onSave
 * @param {() => void} [options.onClose]
 * @returns {{close: () => void, el: HTMLElement}}
 */
export function openSheetForm({ title, sides, data, name = "", needNow = [], saveLabel, onSave, onClose }) {
  /** @type {BoardSheet} */
  const sheet = deepCopy(data) || { explorers: {} };
  if (!sheet.explorers) sheet.explorers = {};
  const total = neededSlots(sides).length;
  const needed = new Set(needNow);
  /** @type {SheetFormState} */
  const state = { sheet, needed, inputs: new Map(), focused: needed.size > 0, busy: false };
  const c = formControls(name, saveLabel);
  c.showAllButton.hidden = !state.focused;
  c.showAllButton.addEventListener("click", () => {
    state.focused = false;
    overlay.classList.remove("is-focused");
    c.showAllButton.hidden = true;
    refresh();
  });

  function refresh() {
    const counts = readBoxes(state);
    c.missingText.classList.toggle("is-complete", counts.missing === 0 && counts.invalid === 0);
    c.missingText.dataset.missing = String(counts.missing);
    c.missingText.textContent = missingLine(counts, total, state.focused);
    c.saveButton.disabled = state.busy || counts.invalid > 0;
  }

  const form = h(
    "form",
    { class: "mg-overlay-inner", novalidate: true },
    h("div", { class: "mg-overlay-head" }, h("h2", { class: "mg-overlay-title" }, title || t("magellan.sheet.title")), c.closeButton),
    h(
      "section",
      { class: "panel" },
      h("p", { class: "small" }, t("magellan.sheet.intro"), " ", whyLink("MG-2", "why-sheet-form")),
      h("label", { class: "section-title", for: "mg-sheet-name" }, t("magellan.sheet.name")),
      c.nameInput,
      c.missingText,
      c.showAllButton,
    ),
    ...EXPLORERS.map((explorer) => explorerSection(state, sides, explorer, refresh)),
    h("div", { class: "sticky-submit" }, c.saveButton),
  );
  const overlay = h("div", { class: ["mg-overlay", state.focused && "is-focused"], role: "dialog", "aria-modal": "true", testid: "mg-sheet-form" }, form);

  function close() {
    overlay.remove();
    document.body.classList.remove("mg-overlay-open");
    document.removeEventListener("keydown", onKey);
    if (onClose) onClose();
  }
  /** @param {KeyboardEvent} e */
  function onKey(e) {
    if (e.key === "Escape" && !state.busy) close();
  }
  c.closeButton.addEventListener("click", () => !state.busy && close());
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (state.busy) return;
    refresh();
    state.busy = true;
    c.saveButton.disabled = true;
    overlay.classList.add("is-busy");
    let ok = false;
    try {
      ok = await onSave({ name: c.nameInput.value.trim() || t("magellan.sheet.default_name"), data: deepCopy(sheet) });
    } finally {
      state.busy = false;
      overlay.classList.remove("is-busy");
      refresh();
    }
    if (ok) close();
  });
  document.addEventListener("keydown", onKey);
  document.body.classList.add("mg-overlay-open");
  document.body.append(overlay);
  refresh();
  // Start where the table is waiting, else at the first empty box.
  const first = [...state.inputs.values()].find((x) => x.input.classList.contains("is-needed")) || [...state.inputs.values()].find((x) => x.input.value === "");
  if (first && needed.size) first.input.scrollIntoView({ block: "center" });
  return { close, el: overlay };
}
