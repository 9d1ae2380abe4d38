// Hash router: "#/t/abc?k=token" → {path: "/t/abc", params: {id: "abc"}, query: URLSearchParams}.

const routes = [];
let cleanup = null;
let generation = 0;
let host = null;

/** pattern: a RegExp with named groups matched against the path. mount(container, ctx) → cleanup? */
export function addRoute(pattern, mount) {
  routes.push({ pattern, mount });
}

export function parseHash(hash = location.hash) {
  const raw = hash.replace(/^#/, "") || "/";
  const q = raw.indexOf("?");
  const path = (q < 0 ? raw : raw.slice(0, q)) || "/";
  const query = new URLSearchParams(q < 0 ? "" : raw.slice(q + 1));
  return { path, query };
}

export function navigate(path) {
  if (location.hash === `#${path}`) render();
  else location.hash = path;
}

/** Change the visible URL without re-rendering (e.g. to drop a token from it). */
export function replacePath(path) {
  history.replaceState(history.state, "", `#${path}`);
}

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
  host.replaceChildren(container);
  window.scrollTo(0, 0);
  for (const { pattern, mount } of routes) {
    const match = pattern.exec(path);
    if (!match) continue;
    const params = Object.fromEntries(Object.entries(match.groups || {}).map(([k, v]) => [k, decodeURIComponent(v)]));
    const result = await mount(container, { path, params, query });
    if (mine !== generation) {
      if (typeof result === "function") result(); // navigated away while mounting
    } else {
      cleanup = typeof result === "function" ? result : null;
    }
    return;
  }
  navigate("/");
}

export function startRouter(element) {
  host = element;
  window.addEventListener("hashchange", render);
  return render();
}
