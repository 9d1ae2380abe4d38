// Short messages at the top of the screen (errors from the API, confirmations).
import { h } from "./dom.js";

/** toast(text, {kind: "info"|"error", timeout, onClick}) — onClick makes the toast an action. */
export function toast(message, { kind = "info", timeout = 4000, onClick } = {}) {
  const host = document.getElementById("toasts");
  if (!host || !message) return;
  const el = h("div", { class: ["toast", `toast-${kind}`], testid: "toast", role: kind === "error" ? "alert" : "status" }, message);
  const close = () => {
    el.classList.add("toast-out");
    setTimeout(() => el.remove(), 250);
  };
  el.addEventListener("click", () => {
    close();
    if (onClick) onClick();
  });
  host.append(el);
  while (host.children.length > 3) host.firstElementChild.remove();
  setTimeout(close, timeout);
}

/** Show an API error: the problem's `detail` (or title), falling back to a generic text. */
export function toastError(err, fallbackText) {
  const detail = err?.problem?.detail || err?.problem?.title;
  toast(detail || fallbackText, { kind: "error", timeout: 6000 });
}
