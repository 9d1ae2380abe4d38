// Tiny DOM builders. Everything is created through DOM APIs (no HTML strings), so a strict
// Content-Security-Policy holds: no inline handlers, no style attributes.

const SVG_NS = "http://www.w3.org/2000/svg";

/** What h() and s() take as children: nodes, text, numbers; null/undefined/false are left out; arrays are flattened. */
/** @typedef {Node | string | number | boolean | null | undefined} Leaf */
/** @typedef {Leaf | Leaf[] | Leaf[][] | Leaf[][][]} Child */
/** Attributes, `class` (a string or a list), `text`, `dataset`, `testid`, `style`, `on<event>` handlers. */
/** @typedef {Record<string, any>} Props */

/**
 * @param {HTMLElement | SVGElement} el
 * @param {Props | null | undefined} props
 * @param {boolean} isSvg
 * @returns {void}
 */
function applyProps(el, props, isSvg) {
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : value);
    else if (key === "text") el.textContent = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "testid") el.setAttribute("data-testid", value);
    else if (key === "style") Object.assign(el.style, value); // CSSOM, allowed under CSP
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (!isSvg && (key === "value" || key === "checked" || key === "disabled" || key === "hidden" || key === "selected")) {
      // An HTML element's own property of that name (a boolean or the value string).
      /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (el))[key] = value;
    }
    else el.setAttribute(key, value === true ? "" : String(value));
  }
}

/**
 * @param {Element} el
 * @param {Child[]} children
 * @returns {void}
 */
function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/**
 * h("button", {class: "btn", onclick: fn, testid: "stop"}, "Stop")
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Props | null} [props]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  applyProps(el, props, false);
  append(el, children);
  return el;
}

/**
 * s("circle", {cx: 1, cy: 2, r: 3}) — SVG element.
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag
 * @param {Props | null} [props]
 * @param {...Child} children
 * @returns {SVGElementTagNameMap[K]}
 */
export function s(tag, props, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  applyProps(el, props, true);
  append(el, children);
  return el;
}

/**
 * The value, or a thrown Error where null is impossible by the rules (strict types, no silent default).
 * @template T
 * @param {T | null | undefined} value
 * @param {string} what
 * @returns {T}
 */
export function present(value, what) {
  if (value === null || value === undefined) throw new Error(`${what} is missing`);
  return value;
}

/**
 * @template {Node} E
 * @param {E} el
 * @returns {E}
 */
export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}
