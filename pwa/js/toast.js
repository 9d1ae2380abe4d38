// Short messages (errors from the API, confirmations), one at a time: a newer message replaces the
// one showing, so two never stack. At a table they go into the table's own news line, in the flow of
// the page under the table's bar (issue 33): there a message never lies over the score, the last
// move or the winner. Elsewhere they float just above the bottom edge.
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** The table's news line when a table is on screen, else the floating host. @returns {HTMLElement | null} */
function host() {
  return document.getElementById("table-news") || document.getElementById("toasts");
}

/** Take every message off the screen now (e.g. the game just ended: the result is the news). @returns {void} */
export function clearToasts() {
  for (const id of ["table-news", "toasts"]) document.getElementById(id)?.replaceChildren();
}

/**
 * toast(text, {kind: "info"|"error", timeout, onClick}) — onClick makes the toast an action.
 * @param {string} message
 * @param {{kind?: "info" | "error", timeout?: number, onClick?: () => unknown}} [options]
 * @returns {void}
 */
export function toast(message, { kind = "info", timeout = 4000, onClick } = {}) {
  const into = host();
  if (!into || !message) return;
  const el = h("div", { class: ["toast", `toast-${kind}`], testid: "toast", role: kind === "error" ? "alert" : "status" }, message);
  const close = () => {
    el.classList.add("toast-out");
    setTimeout(() => el.remove(), 250);
  };
  el.addEventListener("click", () => {
    close();
    if (onClick) onClick();
  });
  into.replaceChildren(el);
  setTimeout(close, timeout);
}

/**
 * Show an API error: the problem's `detail` (or title), falling back to a generic text.
 * @param {unknown} err anything thrown; an ApiError carries the problem
 * @param {string} fallbackText
 * @returns {void}
 */
export function toastError(err, fallbackText) {
  const problem = /** @type {{problem?: {detail?: string, title?: string}} | null | undefined} */ (err)?.problem;
  const detail = problem?.detail || problem?.title;
  toast(detail || fallbackText, { kind: "error", timeout: 6000 });
}

/**
 * After an entry: what it did, with an Undo button ("Red to 12 — Undo"). One at a time: a newer
 * entry's toast replaces the older one.
 * @param {string} message
 * @param {(() => unknown) | null | undefined} onUndo
 * @param {{timeout?: number}} [options]
 * @returns {void}
 */
export function undoToast(message, onUndo, { timeout = 6000 } = {}) {
  const into = host();
  if (!into || !message) return;
  // Without onUndo (GEN-1: a die or card the server drew stands) the same toast, minus its button.
  const button = onUndo ? h("button", { type: "button", class: "toast-action", testid: "toast-undo" }, t("confirm.undo")) : null;
  const el = h("div", { class: ["toast", "toast-info", "toast-undo"], testid: "undo-toast", role: "status" }, h("span", { class: "toast-text" }, message), ...(button ? [button] : []));
  const close = () => {
    el.classList.add("toast-out");
    setTimeout(() => el.remove(), 250);
  };
  button?.addEventListener("click", () => {
    close();
    onUndo?.();
  });
  into.replaceChildren(el);
  setTimeout(close, timeout);
}
