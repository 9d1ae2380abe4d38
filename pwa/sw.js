// Kibitz service worker.
// - App shell (HTML, CSS, JS modules, translations, icons, rules pages) is precached on install
//   and served cache-first, so the app opens offline. Bump CACHE_VERSION whenever a shell file
//   changes; the new worker then re-downloads everything and deletes the old cache.
// - /api/ GET requests go network-first. A 200 answer is remembered; when the network fails the
//   remembered copy is returned marked "X-Kibitz-Offline: 1" (the app then shows its offline
//   banner and never treats it as fresh). Writes (POST), exports and a player's own view
//   (…/seats/<n>, the secret hand) are never touched: nothing private is kept in the cache.

const CACHE_VERSION = "v7";
const SHELL_CACHE = `kibitz-shell-${CACHE_VERSION}`;
const API_CACHE = `kibitz-api-${CACHE_VERSION}`;

const SHELL = [
  "./",
  "index.html",
  "app.js",
  "manifest.webmanifest",
  "css/app.css",
  "css/magellan.css",
  "i18n/en.json",
  "i18n/de.json",
  "icons/icon-192.png",
  "icons/icon-512.png",
  "icons/icon-maskable-512.png",
  "js/api.js",
  "js/live.js",
  "js/dom.js",
  "js/i18n.js",
  "js/poll.js",
  "js/router.js",
  "js/store.js",
  "js/toast.js",
  "js/ui/action-bar.js",
  "js/ui/header.js",
  "js/ui/panel.js",
  "js/ui/players-form.js",
  "js/ui/result-panel.js",
  "js/ui/sheet.js",
  "js/ui/share.js",
  "js/ui/why.js",
  "js/views/exports.js",
  "js/views/home.js",
  "js/views/setup.js",
  "js/views/table.js",
  "js/games/registry.js",
  "js/games/mahe/board.js",
  "js/games/mahe/colours.js",
  "js/games/mahe/controls.js",
  "js/games/mahe/describe.js",
  "js/games/mahe/index.js",
  "js/games/mahe/result.js",
  "js/games/mahe/scoreboard.js",
  "js/games/mahe/screen.js",
  "js/games/mahe/setup.js",
  "js/games/mahe/status.js",
  "js/games/magellan/board.js",
  "js/games/magellan/common.js",
  "js/games/magellan/controls.js",
  "js/games/magellan/describe.js",
  "js/games/magellan/index.js",
  "js/games/magellan/inputs.js",
  "js/games/magellan/mine.js",
  "js/games/magellan/panels.js",
  "js/games/magellan/quick.js",
  "js/games/magellan/scoring.js",
  "js/games/magellan/screen.js",
  "js/games/magellan/setup.js",
  "js/games/magellan/sheetform.js",
  "js/games/magellan/sheets.js",
  "css/mhing.css",
  "js/games/mhing/api.js",
  "js/games/mhing/breakdown.js",
  "js/games/mhing/cards.js",
  "js/games/mhing/claims.js",
  "js/games/mhing/controls.js",
  "js/games/mhing/describe.js",
  "js/games/mhing/draft.js",
  "js/games/mhing/entry.js",
  "js/games/mhing/index.js",
  "js/games/mhing/rules.js",
  "js/games/mhing/screen.js",
  "js/games/mhing/setup.js",
  "js/games/mhing/standings.js",
];

// Rules pages come from another part of the project; a missing one must not break the install.
const RULES = [
  "rules/rules.css",
  "rules/mahe.en.html",
  "rules/mahe.de.html",
  "rules/magellan.en.html",
  "rules/magellan.de.html",
  "rules/mhing.en.html",
  "rules/mhing.de.html",
];

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL_CACHE);
      await cache.addAll(SHELL.map((url) => new Request(url, { cache: "reload" })));
      await Promise.all(RULES.map((url) => cache.add(new Request(url, { cache: "reload" })).catch(() => undefined)));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const keep = new Set([SHELL_CACHE, API_CACHE]);
      for (const name of await caches.keys()) {
        if (name.startsWith("kibitz-") && !keep.has(name)) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

function offlineProblem() {
  const body = JSON.stringify({
    type: "about:blank",
    title: "Offline",
    status: 503,
    code: "offline",
    detail: "The network is not reachable.",
  });
  return new Response(body, {
    status: 503,
    headers: { "Content-Type": "application/problem+json", "X-Kibitz-Offline": "1" },
  });
}

async function apiNetworkFirst(request) {
  const cache = await caches.open(API_CACHE);
  try {
    const response = await fetch(request);
    if (response.status === 200) {
      // Remember the body (keyed by URL only, without the conditional header).
      cache.put(request.url, response.clone()).catch(() => undefined);
    }
    return response;
  } catch {
    const cached = await cache.match(request.url, { ignoreVary: true });
    if (!cached) return offlineProblem();
    const headers = new Headers(cached.headers);
    headers.set("X-Kibitz-Offline", "1");
    headers.delete("ETag");
    return new Response(await cached.blob(), { status: 200, headers });
  }
}

async function shellCacheFirst(request) {
  const cache = await caches.open(SHELL_CACHE);
  const cached = await cache.match(request, { ignoreSearch: request.mode === "navigate" });
  if (cached) return cached;
  try {
    const response = await fetch(request);
    if (response.ok && response.type === "basic") cache.put(request, response.clone()).catch(() => undefined);
    return response;
  } catch (err) {
    if (request.mode === "navigate") {
      const shell = await cache.match("./");
      if (shell) return shell;
    }
    throw err;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return; // writes always go straight to the network
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/")) {
    if (url.pathname.includes("/export")) return; // downloads: plain network
    if (url.pathname.includes("/seats/")) return; // a player's own cards: never cached
    if (url.pathname.endsWith("/stream")) return; // live streams never end: never through the cache
    event.respondWith(apiNetworkFirst(request));
    return;
  }
  event.respondWith(shellCacheFirst(request));
});
