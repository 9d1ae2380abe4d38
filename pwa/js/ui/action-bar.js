// The action bar every game fixes at the bottom of the table screen, under the thumb: its host
// (the page keeps room for it), the head with the status and Undo, referee notes, prompts and
// the big buttons.
import { h } from "../dom.js";
import { t } from "../i18n.js";

/**
 * The fixed host of the bar → {el, destroy()}. The page's bottom padding (--bar-h) follows the
 * bar's height, so nothing hides behind it.
 * @returns {{ el: HTMLDivElement; destroy(): void; }}
 */
export function createBarHost() {
  const el = h("div", { class: "actionbar-host" });
  const resize = new ResizeObserver(() => {
    document.documentElement.style.setProperty("--bar-h", `${el.offsetHeight}px`);
  });
  resize.observe(el);
  return {
    el,
    destroy() {
      resize.disconnect();
      document.documentElement.style.removeProperty("--bar-h");
    },
  };
}

/** @typedef {import("../dom.js").Child} Child */

/**
 * A big button: a label and an optional second line (odds, outcome). kind: primary, secondary, warning, die …
 * @param {{testid?: string, label: Child, sub?: Child, onclick?: (e: MouseEvent) => unknown, kind?: string, disabled?: boolean, extraClass?: string | false}} options
 * @returns {HTMLButtonElement}
 */
export function bigButton({ testid, label, sub, onclick, kind = "primary", disabled = false, extraClass }) {
  return h(
    "button",
    { type: "button", class: ["btn", `btn-${kind}`, "btn-big", extraClass], testid, onclick, disabled },
    h("span", { class: "btn-label" }, label),
    sub ? h("span", { class: "btn-sub" }, sub) : null,
  );
}

/**
 * The bar's head: what is going on (status nodes) and, for a phone that may write, Undo (the last
 * event, after a confirm). undoLabel: the game's word for it.
 * @param {{legal_actions?: {undo?: {possible?: boolean}} | null}} table
 * @param {import("../games/registry.js").Controller} ctl
 * @param {string} undoLabel
 * @param {...import("../dom.js").Child} status
 * @returns {HTMLDivElement}
 */
export function barHead(table, ctl, undoLabel, ...status) {
  const undo = ctl.readOnly
    ? null
    : h(
        "button",
        {
          type: "button",
          class: "btn btn-secondary btn-undo",
          testid: "undo",
          disabled: !table.legal_actions?.undo?.possible,
          onclick: () => ctl.propose({ type: "undo" }, { preview: false, text: t("confirm.undo_text"), confirmLabel: t("confirm.undo") }),
        },
        undoLabel,
      );
  return h("div", { class: "bar-head" }, h("div", { class: "bar-status" }, ...status), undo);
}

/** In place of the buttons on a view-only link. @returns {HTMLParagraphElement} */
export function viewOnlyHint() {
  return h("p", { class: "muted view-only-hint" }, t("table.view_only_hint"));
}

/**
 * What the table waits for, in one line.
 * @param {...Child} content
 * @returns {HTMLParagraphElement}
 */
export function prompt(...content) {
  return h("p", { class: "prompt", testid: "prompt" }, ...content);
}

/**
 * A prompt with a "Back" button beside it (back: its click handler; none: the prompt alone in the row).
 * @param {Child} text
 * @param {(() => unknown) | null} [back]
 * @param {string} [backTestid]
 * @returns {HTMLDivElement}
 */
export function promptRow(text, back, backTestid = "flow-back") {
  return h(
    "div",
    { class: "prompt-row" },
    prompt(text),
    back ? h("button", { type: "button", class: "btn btn-link", testid: backTestid, onclick: back }, t("common.back")) : null,
  );
}

/**
 * Referee notes as a list (null when there are none): each note's text(n, i) and, where the
 * note names a rule, its "why?" link why(n).
 * @template {{code: string, rule?: string | null}} N
 * @param {N[]} items
 * @param {{text: (n: N, i: number) => Child, why?: (n: N) => Node, testid?: string}} options
 * @returns {HTMLUListElement | null}
 */
export function notesList(items, { text, why, testid = "notes" }) {
  if (!items.length) return null;
  return h(
    "ul",
    { class: "notes", testid },
    ...items.map((n, i) => h("li", { class: "note", testid: `note-${n.code}`, "data-rule": n.rule || "" }, text(n, i), n.rule && why ? [" ", why(n)] : null)),
  );
}
