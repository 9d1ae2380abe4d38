// Kibitz service worker.
// - Everything the app needs to run offline is precached on install and served cache-first: the app
//   shell (HTML, CSS, JS modules, translations, icons, rules pages), Pyodide, its standard library
//   and the rules package the phone referees with. The build fills in PRECACHE
//   (api/phone/static_build.py): pairs [the URL a page asks for, the content-hashed URL the file is
//   kept under]. A file whose hashed URL is already kept is never fetched again, so a release that
//   changes one module costs one module (and index.html, whose import map names it).
// - /api/ GET requests go network-first. A 200 answer is remembered; when the network fails the
//   remembered copy is returned marked "X-Kibitz-Offline: 1" (the app then shows its offline
//   banner and never treats it as fresh). Writes (POST), exports and a player's own view
//   (…/seats/<n>, the secret hand) are never touched: nothing private is kept in the cache.
// - While it precaches, every open page is told how far it got ({type: "precache", done, total} in
//   bytes of the files' contents, sizes from the build), so a first-time phone shows a progress bar
//   and then "ready offline" (js/ui/offline-ready.js).

const PRECACHE = self.__PRECACHE__;
/** The hashed URL → its size in bytes (the build's). */
const SIZES = self.__PRECACHE_SIZES__;
const PARALLEL = 6; // fetches at once, as many as a browser opens to one host over HTTP/1.1
const PRECACHE_CACHE = "kibitz-precache";
const API_CACHE = "kibitz-api";
/** @param {string} url @returns {string} */
const absolute = (url) => new URL(url, self.location.href).href;
// Asked-for URL (plain or hashed) → the hashed URL it is kept under.
const ROUTES = new Map();
for (const [asked, kept] of PRECACHE) {
  ROUTES.set(absolute(asked), absolute(kept));
  ROUTES.set(absolute(kept), absolute(kept));
}
ROUTES.set(absolute("./index.html"), ROUTES.get(absolute("./")));
const KEPT = new Set(ROUTES.values());

/** @param {string} url @returns {number} */
const sizeOf = (url) => SIZES[new URL(url).pathname] || 0;

/**
 * Tells every page of this origin (controlled or not yet) how far the precache got.
 * @param {number} done bytes
 * @param {number} total bytes
 * @returns {void}
 */
function progress(done, total) {
  self.clients
    .matchAll({ includeUncontrolled: true, type: "window" })
    .then((pages) => pages.forEach((page) => page.postMessage({ type: "precache", done, total })))
    .catch(() => undefined);
}

/**
 * One file into the cache (the response as it came), counting its bytes as they arrive.
 * @param {Cache} cache
 * @param {string} url
 * @param {(bytes: number) => void} arrived
 * @returns {Promise<void>}
 */
async function keep(cache, url, arrived) {
  const response = await fetch(url, { cache: "default" });
  if (!response.ok) throw new Error(`precache ${url}: HTTP ${response.status}`);
  const counted = response.clone();
  const putting = cache.put(url, response);
  if (!counted.body) throw new Error(`precache ${url}: no body`); // an ok answer has one
  const reader = counted.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    arrived(value.byteLength);
  }
  await putting;
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(PRECACHE_CACHE);
      const have = new Set((await cache.keys()).map((request) => request.url));
      // Hashed URLs are immutable: the browser's HTTP cache may answer (the page just loaded them).
      const missing = [...KEPT].filter((url) => !have.has(url));
      const total = [...KEPT].reduce((sum, url) => sum + sizeOf(url), 0);
      let done = total - missing.reduce((sum, url) => sum + sizeOf(url), 0);
      let told = 0;
      const arrived = (/** @type {number} */ bytes) => {
        done += bytes;
        const now = Date.now();
        if (now - told > 200) {
          told = now;
          progress(Math.min(done, total), total);
        }
      };
      const queue = [...missing];
      const work = async () => {
        for (let url = queue.shift(); url !== undefined; url = queue.shift()) await keep(cache, url, arrived);
      };
      await Promise.all(Array.from({ length: PARALLEL }, work));
      progress(total, total);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(PRECACHE_CACHE);
      for (const request of await cache.keys()) if (!KEPT.has(request.url)) await cache.delete(request);
      for (const name of await caches.keys()) {
        if (name.startsWith("kibitz-") && name !== PRECACHE_CACHE && name !== API_CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

/** @returns {Response} a 503 problem marked offline */
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

/**
 * The network's answer (a 200 remembered), else the remembered one marked offline.
 * @param {Request} request
 * @returns {Promise<Response>}
 */
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

/**
 * The kept file for a URL the build knows (an app page offline: the app shell), else the network.
 * @param {Request} request
 * @returns {Promise<Response>}
 */
async function precached(request) {
  const url = new URL(request.url);
  const kept = ROUTES.get(url.origin + url.pathname);
  if (kept && (!url.search || request.mode === "navigate")) {
    const cached = await caches.match(kept, { cacheName: PRECACHE_CACHE });
    if (cached) return cached;
  }
  try {
    return await fetch(request);
  } catch (err) {
    if (request.mode === "navigate") {
      const shellUrl = ROUTES.get(absolute("./"));
      const shell = shellUrl && (await caches.match(shellUrl, { cacheName: PRECACHE_CACHE }));
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
  event.respondWith(precached(request));
});
