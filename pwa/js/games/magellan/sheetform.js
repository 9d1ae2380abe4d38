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

const FIXED_RULE = { magellan: "MG-10", vasco_left: "MG-8", pizarro_draw: "MG-11" };

function parseNumber(text) {
  const value = text.trim();
  if (value === "") return { ok: true, value: null };
  if (!/^\d{1,2}$/.test(value)) return { ok: false, value: null };
  return { ok: true, value: Number(value) };
}

/**
 * openSheetForm({title, sides, data, name, needNow: [labels], saveLabel, onSave({name, data}) → Promise<bool>})
 * A full-screen form above the current view; resolves nothing — it closes itself after a successful save.
 * With `needNow` (what the table waits for: the bags of an income, the crowns of the scoring) the
 * form shows only those boxes — the rest of the sheet stays as it is, one tap away ("show all").
 * @param {object} options
 * @param {string} options.title
 * @param {Record<string, string>} options.sides  explorer → "A" | "B"
 * @param {import("kibitz-api").components["schemas"]["BoardSheet"] | null} options.data
 * @param {string} [options.name]
 * @param {string[]} [options.needNow]
 * @param {string} options.saveLabel
 * @param {(sheet: {name: string, data: import("kibitz-api").components["schemas"]["BoardSheet"]}) => Promise<boolean>} options.onSave
 * @param {() => void} [options.onClose]
 */
export function openSheetForm({ title, sides, data, name = "", needNow = [], saveLabel, onSave, onClose }) {
  const sheet = deepCopy(data) || { explorers: {} };
  if (!sheet.explorers) sheet.explorers = {};
  const slots = neededSlots(sides);
  const needed = new Set(needNow);
  const inputs = new Map(); // slotKey → {slot, input}
  let busy = false;
  let focused = needed.size > 0; // only the boxes the table waits for

  const nameInput = h("input", {
    type: "text",
    class: "input",
    id: "mg-sheet-name",
    testid: "mg-sheet-name",
    maxlength: 80,
    value: name,
    autocomplete: "off",
    placeholder: t("magellan.sheet.name_placeholder"),
  });
  const missingText = h("p", { class: "mg-sheet-missing", testid: "mg-sheet-missing", role: "status" });
  const saveButton = h("button", { type: "submit", class: "btn btn-primary btn-big", testid: "mg-sheet-save" }, saveLabel || t("magellan.sheet.save"));
  const closeButton = h("button", { type: "button", class: "icon-button mg-overlay-close", testid: "mg-sheet-close", "aria-label": t("common.close") }, "×");

  const showAllButton = h("button", { type: "button", class: "btn btn-secondary mg-sheet-show-all", testid: "mg-sheet-show-all" }, t("magellan.sheet.show_all"));
  showAllButton.hidden = !focused;
  showAllButton.addEventListener("click", () => {
    focused = false;
    overlay.classList.remove("is-focused");
    showAllButton.hidden = true;
    refresh();
  });

  function refresh() {
    let missing = 0;
    let invalid = 0;
    let shown = 0;
    for (const { slot, input } of inputs.values()) {
      if (focused && !needed.has(slotLabel(slot))) {
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
      if (parsed.ok) setSlot(sheet, slot, parsed.value);
      if (empty) missing += 1;
      if (!parsed.ok) invalid += 1;
    }
    missingText.classList.toggle("is-complete", missing === 0 && invalid === 0);
    missingText.dataset.missing = String(missing);
    missingText.textContent = invalid
      ? t("magellan.sheet.invalid", { count: invalid })
      : missing
        ? t("magellan.sheet.missing_count", { count: missing, total: focused ? shown : slots.length })
        : t("magellan.sheet.complete");
    saveButton.disabled = busy || invalid > 0;
  }

  function numberInput(slot) {
    const value = getSlot(sheet, slot);
    const key = slotKey(slot);
    const input = h("input", {
      type: "text",
      inputmode: "numeric",
      pattern: "[0-9]*",
      maxlength: 2,
      autocomplete: "off",
      enterkeyhint: "next",
      class: ["input", "mg-num", needed.has(slotLabel(slot)) && "is-needed"],
      testid: `mg-sheet-${key}`,
      value: value === null ? "" : String(value),
      placeholder: "–",
      "aria-label": `${explorerName(slot.explorer)} ${slot.side}, ${t("magellan.field_n", { field: ROMAN[slot.field] })}${slot.part ? ` ${t(`magellan.part.${slot.part}`)}` : ""}: ${t(`magellan.sheet.${slot.what}`)}`,
    });
    input.addEventListener("input", refresh);
    input.addEventListener("keydown", (e) => {
      if (e.key !== "Enter") return;
      e.preventDefault();
      const all = [...inputs.values()].map((x) => x.input).filter((el) => el.offsetParent !== null && getComputedStyle(el).visibility !== "hidden");
      const next = all[all.indexOf(input) + 1];
      if (next) next.focus();
      else input.blur();
    });
    inputs.set(key, { slot, input });
    return input;
  }

  function explorerSection(explorer) {
    const side = sides[explorer] || "A";
    const rows = [];
    const fixedReasons = new Set();
    let wanted = false; // a box the table waits for is in this section
    for (const field of [1, 2, 3]) {
      for (const part of partsOf(explorer, side)) {
        const base = { explorer, side, field, part };
        const fixed = crownsFixed(explorer, side, field, part);
        if (fixed) fixedReasons.add(fixed);
        const cells = [
          h("span", { class: "mg-sheet-field" }, ROMAN[field], part ? h("span", { class: "mg-sheet-part" }, t(`magellan.part.${part}`)) : null),
          numberInput({ ...base, what: "bags" }),
          fixed ? h("span", { class: "mg-sheet-fixed", title: t(`magellan.sheet.fixed.${fixed}`) }, "—") : numberInput({ ...base, what: "crowns" }),
        ];
        // Focused on what the table waits for: rows without such a box drop out, other boxes of a
        // shown row stay in place but quiet (the CSS under .is-focused).
        const rowWanted = [{ ...base, what: "bags" }, { ...base, what: "crowns" }].some((slot) => needed.has(slotLabel(slot)));
        wanted ||= rowWanted;
        for (const cell of cells) {
          if (!rowWanted) cell.classList.add("mg-sheet-quiet-row");
          else if (cell.tagName === "INPUT" && !cell.classList.contains("is-needed")) cell.classList.add("mg-sheet-quiet");
        }
        rows.push(...cells);
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

  const form = h(
    "form",
    { class: "mg-overlay-inner", novalidate: true },
    h(
      "div",
      { class: "mg-overlay-head" },
      h("h2", { class: "mg-overlay-title" }, title || t("magellan.sheet.title")),
      closeButton,
    ),
    h(
      "section",
      { class: "panel" },
      h("p", { class: "small" }, t("magellan.sheet.intro"), " ", whyLink("MG-2", "why-sheet-form")),
      h("label", { class: "section-title", for: "mg-sheet-name" }, t("magellan.sheet.name")),
      nameInput,
      missingText,
      showAllButton,
    ),
    ...EXPLORERS.map(explorerSection),
    h("div", { class: "sticky-submit" }, saveButton),
  );
  const overlay = h("div", { class: ["mg-overlay", focused && "is-focused"], role: "dialog", "aria-modal": "true", testid: "mg-sheet-form" }, form);

  function close() {
    overlay.remove();
    document.body.classList.remove("mg-overlay-open");
    document.removeEventListener("keydown", onKey);
    if (onClose) onClose();
  }
  function onKey(e) {
    if (e.key === "Escape" && !busy) close();
  }
  closeButton.addEventListener("click", () => !busy && close());
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (busy) return;
    refresh();
    busy = true;
    saveButton.disabled = true;
    overlay.classList.add("is-busy");
    let ok = false;
    try {
      ok = await onSave({ name: nameInput.value.trim() || t("magellan.sheet.default_name"), data: deepCopy(sheet) });
    } finally {
      busy = false;
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
  const first = [...inputs.values()].find((x) => x.input.classList.contains("is-needed")) || [...inputs.values()].find((x) => x.input.value === "");
  if (first && needed.size) first.input.scrollIntoView({ block: "center" });
  return { close, el: overlay };
}
