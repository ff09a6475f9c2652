// The service worker of pace: it lets a marshal's phone open the marshal page, and a scorer's
// the scorecard, with no signal (docs/offline.md).
//
// - Served at /sw.js (root scope) with Cache-Control: no-cache, so the browser checks for a new
//   version at every visit. The server writes VERSION from the static files it serves: a new
//   deployment is a new worker, which precaches the new assets and drops the old caches.
// - Static assets (/static/...?v=<version>): the server writes each PRECACHE entry below with
//   its version (pace/web/assets.py), so the worker keeps exactly the URLs the pages and their
//   module imports name. Cache first by the exact URL (a page of a newer release names new
//   URLs: they come from the network, and are then kept); with no network, any kept version of
//   the same file rather than nothing.
// - Marshal and scorer pages (/rounds/<round>/marshal, .../scorecard): network first, so an online visit always gets the
//   current page and refreshes the copy; the saved copy when the network fails or stalls.
// - Everything else (the API, Socket.IO, other pages) goes to the network untouched: the
//   taps themselves wait in the page's queue (static/queue.js), never in this worker.

const VERSION = "__PACE_VERSION__";
const CACHE = `pace-${VERSION}`;
const PRECACHE = [
  "/static/pace.css",
  "/static/sun.js",
  "/static/common.js",
  "/static/queue.js",
  "/static/marshal.js",
  "/static/scorecard.js",
  "/static/positions.js",
  "/static/cards.js",
  "/static/vendor/socket.io.min.js",
];
const PAGE = /^\/rounds\/[^/]+\/(marshal|scorecard)$/;
// On a weak signal a page request can hang for long: past this, the saved copy is shown.
const NETWORK_WAIT_MS = 4000;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(PRECACHE.map((url) => new Request(url, { cache: "reload" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys.filter((k) => k.startsWith("pace-") && k !== CACHE).map((k) => caches.delete(k)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

// A page asks for its own URL to be saved: its first visit was not yet under this worker.
// It is answered on the port it sent, with {ok}: whether the page and the assets are kept.
self.addEventListener("message", (event) => {
  const data = event.data || {};
  const port = event.ports && event.ports[0];
  const answer = (ok) => port && port.postMessage({ ok });
  if (data.type !== "cache-page" || typeof data.url !== "string") return;
  const url = new URL(data.url, self.location.origin);
  if (url.origin !== self.location.origin || !PAGE.test(url.pathname)) {
    answer(false);
    return;
  }
  event.waitUntil(
    keepPage(url.href)
      .then(answer)
      .catch(() => answer(false)),
  );
});

async function keepPage(href) {
  const cache = await caches.open(CACHE);
  // A page opened under this worker is saved by networkFirst on the way; the first one not.
  if (!(await cache.match(href, { ignoreVary: true }))) {
    const response = await fetch(href, { credentials: "same-origin", cache: "no-store" });
    if (!response.ok) return false;
    await cache.put(href, response);
  }
  const kept = await Promise.all(PRECACHE.map((url) => cache.match(url)));
  return kept.every(Boolean);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(cacheFirst(request));
  } else if (request.mode === "navigate" && PAGE.test(url.pathname)) {
    event.respondWith(networkFirst(request));
  }
});

async function save(key, response) {
  const cache = await caches.open(CACHE);
  await cache.put(key, response);
}

async function cacheFirst(request) {
  const cached = await caches.match(request, { ignoreVary: true });
  if (cached) return cached;
  try {
    const response = await fetch(request);
    if (response.ok) await save(request, response.clone());
    return response;
  } catch (err) {
    const older = await caches.match(request, { ignoreSearch: true, ignoreVary: true });
    if (older) return older;
    throw err;
  }
}

async function savedPage(request) {
  const cache = await caches.open(CACHE);
  return (
    (await cache.match(request.url, { ignoreVary: true })) ||
    // the same round's page saved under another ?lang=
    (await cache.match(request.url, { ignoreSearch: true, ignoreVary: true }))
  );
}

async function networkFirst(request) {
  const network = fetch(request).then(async (response) => {
    if (response.ok) await save(request.url, response.clone());
    return response;
  });
  network.catch(() => undefined); // its failure is handled below, or moot once a copy is shown
  let timer;
  const stalled = new Promise((resolve) => {
    timer = setTimeout(resolve, NETWORK_WAIT_MS, null);
  });
  try {
    const first = await Promise.race([network, stalled]);
    if (first) return first;
    // the network is slow: the saved copy if there is one, else keep waiting for it
    return (await savedPage(request)) || (await network);
  } catch (err) {
    const saved = await savedPage(request);
    if (saved) return saved;
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
