// Hash router: "#/t/abc?k=token" → {path: "/t/abc", params: {id: "abc"}, query: URLSearchParams}.
import { present } from "./dom.js";

/** @typedef {{path: string, params: Record<string, string>, query: URLSearchParams}} RouteContext */
/** @typedef {(container: HTMLElement, ctx: RouteContext) => unknown} Mount what it returns, when a function, is the screen's cleanup */

/** @type {{pattern: RegExp, mount: Mount}[]} */
const routes = [];
/** @type {(() => void) | null} */
let cleanup = null;
let generation = 0;
/** @type {HTMLElement | null} */
let host = null;

/**
 * pattern: a RegExp with named groups matched against the path. mount(container, ctx) → cleanup?
 * @param {RegExp} pattern
 * @param {Mount} mount
 * @returns {void}
 */
export function addRoute(pattern, mount) {
  routes.push({ pattern, mount });
}

/**
 * @param {string} [hash]
 * @returns {{path: string, query: URLSearchParams}}
 */
export function parseHash(hash = location.hash) {
  const raw = hash.replace(/^#/, "") || "/";
  const q = raw.indexOf("?");
  const path = (q < 0 ? raw : raw.slice(0, q)) || "/";
  const query = new URLSearchParams(q < 0 ? "" : raw.slice(q + 1));
  return { path, query };
}

/** @param {string} path @returns {void} */
export function navigate(path) {
  if (location.hash === `#${path}`) render();
  else location.hash = path;
}

/**
 * Change the visible URL without re-rendering (e.g. to drop a token from it).
 * @param {string} path
 * @returns {void}
 */
export function replacePath(path) {
  history.replaceState(history.state, "", `#${path}`);
}

/** @returns {Promise<void>} */
export async function render() {
  const mine = ++generation;
  if (cleanup) {
    try {
      cleanup();
    } catch (err) {
      console.warn(err);
    }
    cleanup = null;
  }
  const { path, query } = parseHash();
  const container = document.createElement("div");
  container.className = "screen";
  present(host, "the router's host").replaceChildren(container);
  window.scrollTo(0, 0);
  for (const { pattern, mount } of routes) {
    const match = pattern.exec(path);
    if (!match) continue;
    const params = Object.fromEntries(Object.entries(match.groups || {}).map(([k, v]) => [k, decodeURIComponent(v)]));
    const result = await mount(container, { path, params, query });
    if (mine !== generation) {
      if (typeof result === "function") result(); // navigated away while mounting
    } else {
      cleanup = typeof result === "function" ? /** @type {() => void} */ (result) : null;
    }
    return;
  }
  navigate("/");
}

/** @param {HTMLElement} element @returns {Promise<void>} */
export function startRouter(element) {
  host = element;
  window.addEventListener("hashchange", render);
  return render();
}
