// Runs as soon as it arrives, beside app.js (index.html): when the address opens a game's screen
// (a new table of that game, or a table this phone knows), the browser is told at once of every
// module that game's screens import, so they arrive together instead of one import level per
// round trip. The build lists them per game in index.html (#route-modules,
// api/phone/static_build.py). Without the list nothing happens: the app loads them as it goes.

/**
 * The game whose screen the address opens, if the phone can tell without asking the server.
 * @returns {string | null}
 */
function routeGame() {
  const newTable = /^#\/new\/([\w-]+)/.exec(location.hash);
  if (newTable) return newTable[1];
  const table = /^#\/t\/([^/?]+)/.exec(location.hash);
  if (!table) return null;
  try {
    const id = decodeURIComponent(table[1]);
    const known = JSON.parse(localStorage.getItem("kibitz.tables") || "[]");
    return known.find((/** @type {{id?: string, game?: string} | null} */ entry) => entry && entry.id === id)?.game ?? null;
  } catch {
    return null;
  }
}

/** @returns {void} */
function preload() {
  const list = document.getElementById("route-modules");
  const game = routeGame();
  if (!list || !game) return;
  /** @type {Record<string, string[]>} */
  const routes = JSON.parse(list.textContent || "{}");
  for (const href of routes[game] || []) {
    const link = document.createElement("link");
    link.rel = "modulepreload";
    link.href = href;
    document.head.append(link);
  }
}

preload();
