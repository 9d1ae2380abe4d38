// A bottom sheet for "Confirm / Cancel" (and other short dialogs), reachable with one thumb.
import { h } from "../dom.js";
import { t } from "../i18n.js";

/**
 * openSheet({title, body, confirmLabel, onConfirm, onCancel, confirm: false}) → {close, setBody, setBusy}
 * setBusy(true) disables Confirm; setBusy(true, {lock: true}) also keeps the sheet from being dismissed.
 * With confirm: false only a close button is shown.
 */
/**
 * @typedef {object} SheetOptions
 * @property {string} [title]
 * @property {import("../dom.js").Child} [body]
 * @property {string} [confirmLabel]
 * @property {string} [cancelLabel]
 * @property {() => unknown} [onConfirm]
 * @property {() => unknown} [onCancel]
 * @property {boolean} [confirm]
 * @property {string} [testid]
 */
/**
 * An open sheet: close it, change its body, turn Confirm off (and keep it from being dismissed).
 * @typedef {{close: () => void, setBody: (content: import("../dom.js").Child) => void, setBusy: (value: boolean, options?: {lock?: boolean}) => void, readonly closed: boolean}} Sheet
 */
/**
 * @param {SheetOptions} options
 * @returns {Sheet}
 */
export function openSheet({ title, body, confirmLabel, cancelLabel, onConfirm, onCancel, confirm = true, testid = "sheet" }) {
  const bodyEl = h("div", { class: "sheet-body", testid: "sheet-body" });
  const confirmBtn = confirm
    ? h("button", { type: "button", class: "btn btn-primary btn-big", testid: "confirm" }, confirmLabel || t("confirm.confirm"))
    : null;
  const cancelBtn = h(
    "button",
    { type: "button", class: "btn btn-secondary btn-big", testid: confirm ? "cancel" : "close" },
    cancelLabel || (confirm ? t("confirm.cancel") : t("common.close")),
  );
  const titleId = `sheet-title-${Math.random().toString(36).slice(2)}`;
  const panel = h(
    "div",
    { class: "sheet", role: "dialog", "aria-modal": "true", "aria-labelledby": titleId, testid },
    h("h2", { class: "sheet-title", id: titleId }, title || ""),
    bodyEl,
    h("div", { class: "sheet-actions" }, cancelBtn, confirmBtn),
  );
  const backdrop = h("div", { class: "sheet-backdrop" }, panel);
  let closed = false;
  let busy = false;
  let locked = false; // while a write is in flight the sheet cannot be dismissed

  /** @returns {void} */
  function close() {
    if (closed) return;
    closed = true;
    document.removeEventListener("keydown", onKey);
    backdrop.remove();
  }
  /** @returns {void} */
  function cancel() {
    if (locked) return;
    close();
    if (onCancel) onCancel();
  }
  /** @param {KeyboardEvent} e @returns {void} */
  function onKey(e) {
    if (e.key === "Escape") cancel();
  }
  /** @param {import("../dom.js").Child | import("../dom.js").Child[]} content @returns {void} */
  function setBody(content) {
    bodyEl.replaceChildren(...(Array.isArray(content) ? content : [content]).map((c) => (c instanceof Node ? c : h("p", {}, c))));
  }
  /**
   * @param {boolean} value
   * @param {{lock?: boolean}} [options]
   * @returns {void}
   */
  function setBusy(value, { lock = false } = {}) {
    busy = value;
    locked = value && lock;
    panel.classList.toggle("is-busy", value);
    if (confirmBtn) confirmBtn.disabled = value;
    cancelBtn.disabled = locked;
  }

  backdrop.addEventListener("click", (e) => {
    if (e.target === backdrop) cancel();
  });
  cancelBtn.addEventListener("click", cancel);
  if (confirmBtn) confirmBtn.addEventListener("click", () => !busy && onConfirm && onConfirm());
  document.addEventListener("keydown", onKey);
  if (body !== undefined) setBody(body);
  document.body.append(backdrop);
  (confirmBtn || cancelBtn).focus({ preventScroll: true });
  return { close, setBody, setBusy, get closed() { return closed; } };
}
