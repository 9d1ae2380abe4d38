// Kibitz service worker.
// - Everything the app needs to run offline is precached on install and served cache-first: the app
//   shell (HTML, CSS, JS modules, translations, icons, rules pages), Pyodide and the rules package
//   the phone referees with. The server fills in PRECACHE when it serves this file (api/http/bundle.py):
//   groups of URLs, each with a version that is the hash of its files' contents, so a changed file
//   always reaches phones and an unchanged ~10 MB referee is never downloaded again.
// - /api/ GET requests go network-first. A 200 answer is remembered; when the network fails the
//   remembered copy is returned marked "X-Kibitz-Offline: 1" (the app then shows its offline
//   banner and never treats it as fresh). Writes (POST), exports and a player's own view
//   (…/seats/<n>, the secret hand) are never touched: nothing private is kept in the cache.

const PRECACHE = self.__PRECACHE__;
const cacheName = (group) => `kibitz-${group.name}-${group.version}`;
const SHELL_CACHE = cacheName(PRECACHE.find((group) => group.name === "shell"));
const API_CACHE = "kibitz-api";

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      for (const group of PRECACHE) {
        const cache = await caches.open(cacheName(group));
        const missing = [];
        for (const url of group.urls) if (!(await cache.match(url))) missing.push(url);
        await cache.addAll(missing.map((url) => new Request(url, { cache: "reload" })));
      }
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const keep = new Set([...PRECACHE.map(cacheName), API_CACHE]);
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
  const cached = await caches.match(request, { ignoreSearch: request.mode === "navigate" });
  if (cached) return cached;
  const cache = await caches.open(SHELL_CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && response.type === "basic") cache.put(request, response.clone()).catch(() => undefined);
    return response;
  } catch (err) {
    if (request.mode === "navigate") {
      const shell = await caches.match("./");
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
