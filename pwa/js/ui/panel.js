// A card on the page (setup sections, standings, history …): <section class="panel"> with a title.
import { h } from "../dom.js";

/**
 * panel({title, labelFor, class, ...attributes}, ...children). The title is an <h2>, or a <label>
 * for the control with the id labelFor; without a title the panel has no heading.
 * @param {{title?: import("../dom.js").Child, labelFor?: string, class?: string | (string | false | null | undefined)[], [attribute: string]: unknown}} [options]
 * @param {...import("../dom.js").Child} children
 * @returns {HTMLElement}
 */
export function panel({ title, labelFor, class: extraClass, ...attrs } = {}, ...children) {
  let heading = null;
  if (title !== undefined) {
    heading = labelFor
      ? h("label", { class: "section-title", for: labelFor }, title)
      : h("h2", { class: "section-title" }, title);
  }
  return h("section", { class: ["panel", extraClass].flat(), ...attrs }, heading, ...children);
}
