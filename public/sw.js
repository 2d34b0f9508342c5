/* Counter's service worker (issue 16, DESIGN.md §9): the till keeps working on a flaky shop
 * network. Registered by the till (/pos) in production builds, with scope /pos.
 *
 * It keeps exactly two kinds of thing, on an allowlist:
 *  - the till's page, /pos (the app shell, with the catalog the server renders into it):
 *    network first, the last good copy when the network fails;
 *  - the files that page needs: /_next/static/* (content-hashed, so cache first), and the
 *    manifest, icons and product icons (network first).
 * Everything else goes to the network untouched and is never stored: the vendor API
 * (/api/v1/payments*, its SSE event streams), the relay (/relay/*, /dc/*), receipts, the back
 * office, the demo. So a sale's state always comes from the server: a sale is never shown as
 * paid (or unpaid) from a cache. The till itself says when it is offline and refuses to charge.
 *
 * The kept till names the signed-in user and lists their sales, so it never outlives the session
 * (docs/security.md, "The kept till"): only a page that carries its session's identity marker is
 * kept (the page's own guard shows nothing unless the browser still holds that marker); the
 * copy is dropped when /pos answers with a redirect (to sign-in) or 401/403 (signed out,
 * expired, user disabled), on a sign-out seen here, and when a page asks ("forget").
 * v2: copies kept by v1 had no marker, and are dropped on activation.
 */
const VERSION = 'counter-v2';
const SHELL = `${VERSION}-shell`;
const STATIC = `${VERSION}-static`;
const TILL = '/pos';
const KEEP = ['/manifest.webmanifest', '/favicon.ico', '/icons/icon-192.png', '/icons/icon-512.png'];
const MAX_STATIC = 400;

const isStatic = (p) => p.startsWith('/_next/static/');
const isKept = (p) => KEEP.includes(p) || p.startsWith('/icons/') || p.startsWith('/pos-icons/');
/** A good copy of a same-origin GET: a 200, not a redirect (e.g. to /login when signed out). */
const storable = (r) => r && r.ok && r.status === 200 && !r.redirected && r.type === 'basic';

/** The till page's identity marker (app/(pos)/pos/kept-till-guard.tsx), or '' without one. */
const markerOf = (html) => (/<script id="kept-till-guard" data-till-marker="([A-Za-z0-9_-]{16,64})"/.exec(html) || [])[1] || '';
/** The server says nobody (or not this user) is signed in any more. */
const signedOut = (r) => r.type === 'opaqueredirect' || r.redirected || r.status === 401 || r.status === 403;
const forgetTill = () => caches.delete(SHELL);

/** The /_next/static files a page names (scripts, styles, fonts). */
function assetsOf(html) {
  const out = new Set();
  for (const m of html.matchAll(/\/_next\/static\/[^"'\s)\\]+/g)) out.add(m[0]);
  return [...out];
}

async function cacheAll(cacheName, urls) {
  const cache = await caches.open(cacheName);
  await Promise.all(urls.map(async (u) => {
    try {
      if (await cache.match(u)) return;
      const r = await fetch(u, { credentials: 'same-origin' });
      if (storable(r)) await cache.put(u, r);
    } catch { /* one missing file must not stop the rest */ }
  }));
}

/**
 * Fetches /pos from the network; a good copy with a marker replaces the kept one, with its
 * files. Any answer that says the session is over, or a page without a marker, drops it.
 */
async function refreshTill(request) {
  const r = await fetch(request ?? new Request(TILL, { credentials: 'same-origin', cache: 'no-store' }));
  if (signedOut(r)) {
    await forgetTill();
  } else if (storable(r) && (r.headers.get('content-type') || '').includes('text/html')) {
    const copy = r.clone();
    const html = await copy.clone().text();
    if (!markerOf(html)) {
      await forgetTill();
      return r;
    }
    await (await caches.open(SHELL)).put(TILL, copy);
    const statics = await caches.open(STATIC);
    if ((await statics.keys()).length > MAX_STATIC) await caches.delete(STATIC); // old builds' files
    await cacheAll(STATIC, assetsOf(html));
  }
  return r;
}

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    try {
      await refreshTill();
    } catch { /* offline while installing: the next visit fills the cache */ }
    await cacheAll(STATIC, KEEP);
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const k of await caches.keys()) if (!k.startsWith(VERSION + '-')) await caches.delete(k);
    await self.clients.claim();
  })());
});

/** The till reports the files it loaded (including ones loaded after the page), to keep them too. */
self.addEventListener('message', (event) => {
  const d = event.data;
  if (d && d.type === 'forget') {
    event.waitUntil(forgetTill());
    return;
  }
  if (!d || d.type !== 'keep' || !Array.isArray(d.urls)) return;
  const paths = [];
  for (const u of d.urls.slice(0, 500)) {
    try {
      const url = new URL(String(u), self.location.origin);
      if (url.origin === self.location.origin && (isStatic(url.pathname) || isKept(url.pathname))) paths.push(url.pathname + url.search);
    } catch { /* not a URL */ }
  }
  event.waitUntil(cacheAll(STATIC, paths));
});

const OFFLINE_PAGE = `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Offline — Counter</title><main style="font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:1rem">
<h1>Counter is offline</h1><p role="alert">This device cannot reach Counter, and no copy of the till is kept here yet, so it cannot take a payment. Check the connection and reload.</p></main></html>`;

self.addEventListener('fetch', (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (req.method === 'POST' && url.pathname === '/api/auth/logout') {
    // signing out forgets the kept till (it names the user and the store)
    event.waitUntil(forgetTill());
    return;
  }
  if (req.method !== 'GET') return;

  // The till's page: network first; offline, the last good copy.
  if (req.mode === 'navigate' && url.pathname === TILL) {
    event.respondWith((async () => {
      try {
        return await refreshTill(req);
      } catch {
        const kept = await (await caches.open(SHELL)).match(TILL);
        return kept ?? new Response(OFFLINE_PAGE, { status: 503, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' } });
      }
    })());
    return;
  }

  // Content-hashed build files: cache first.
  if (isStatic(url.pathname)) {
    event.respondWith((async () => {
      const cache = await caches.open(STATIC);
      const hit = await cache.match(req, { ignoreVary: true });
      if (hit) return hit;
      const r = await fetch(req);
      if (storable(r)) event.waitUntil(cache.put(req, r.clone()));
      return r;
    })());
    return;
  }

  // Manifest and icons: network first, the kept copy offline.
  if (isKept(url.pathname)) {
    event.respondWith((async () => {
      const cache = await caches.open(STATIC);
      try {
        const r = await fetch(req);
        if (storable(r)) event.waitUntil(cache.put(req, r.clone()));
        return r;
      } catch (e) {
        const hit = await cache.match(req, { ignoreVary: true });
        if (hit) return hit;
        throw e;
      }
    })());
  }
  // Anything else (payments, events, relay, receipts, back office): the network, never stored.
});
