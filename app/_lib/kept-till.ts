'use client';
// Forgets the till the service worker keeps for a flaky network (docs/security.md, "The kept
// till"): the copy of /pos in Cache Storage, which names the signed-in user and lists their
// sales. Called by every sign-out button (the service worker, scoped to /pos, never sees a
// sign-out made from the back office) and by the till when the server says its session is gone
// (expired, or the user disabled). The page may empty the origin's Cache Storage itself; the
// worker is told too. The marker cookie (lib/auth/till-marker.ts, named here because that module
// is server-only) is dropped as well, so a copy that survives anyway is never shown.

const TILL_COOKIE = 'counter_till';

export async function forgetKeptTill(): Promise<void> {
  document.cookie = `${TILL_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;
  try {
    for (const k of await caches.keys()) if (k.endsWith('-shell')) await caches.delete(k);
  } catch {
    /* no Cache Storage (not a secure context): nothing is kept */
  }
  try {
    for (const r of (await navigator.serviceWorker?.getRegistrations()) ?? []) r.active?.postMessage({ type: 'forget' });
  } catch {
    /* no service worker */
  }
}
