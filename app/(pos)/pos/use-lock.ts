'use client';
// Locking the till (docs/security.md, "Lock while offline"). The till shows the lock screen
// only once the server has ended the session: until then the next person would sell as the
// cashier who pressed Lock. So Lock at once seals this page (csrfFetch refuses every mutation
// from now on, its token is dropped), forgets the offline copy (the service worker's kept
// till and its marker cookie, so a reload shows no till), blocks the till behind a modal, and
// retries the sign-out until the server answers; then, and only then, the lock screen.
import { useCallback, useRef, useState } from 'react';
import { sealCsrf } from '@/app/_lib/csrf-fetch';

export type LockState = 'open' | 'locking' | 'offline';

const TILL_COOKIE = 'counter_till'; // lib/auth/till-marker.ts
const MAX_RETRY_MS = 5000;

function forgetOfflineCopy(): void {
  document.cookie = `${TILL_COOKIE}=; Path=/; SameSite=Lax; Max-Age=0`;
  try {
    void caches.keys().then((ks) => ks.filter((k) => /-shell$/.test(k)).forEach((k) => void caches.delete(k)));
  } catch {
    /* no Cache API: nothing kept */
  }
  try {
    navigator.serviceWorker?.controller?.postMessage({ type: 'forget' });
  } catch {
    /* no service worker */
  }
}

/** One sign-out attempt: 'done' once the server holds no session for this browser. */
async function signOutOnce(csrf: string | null): Promise<{ done: boolean; csrf: string | null }> {
  try {
    if (!csrf) {
      const me = await fetch('/api/auth/me', { cache: 'no-store' });
      if (me.status === 401) return { done: true, csrf: null }; // already signed out
      if (!me.ok) return { done: false, csrf: null };
      csrf = ((await me.json()) as { csrf_token: string }).csrf_token;
    }
    const r = await fetch('/api/auth/logout', {
      method: 'POST',
      cache: 'no-store',
      body: '{}',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf },
    });
    if (r.ok) return { done: true, csrf };
    return { done: false, csrf: r.status === 403 ? null : csrf }; // a stale token: ask again
  } catch {
    return { done: false, csrf }; // the network: try again
  }
}

/** Waits `ms`, or less if the browser comes back online. */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      window.clearTimeout(timer);
      window.removeEventListener('online', done);
      resolve();
    };
    const timer = window.setTimeout(done, ms);
    window.addEventListener('online', done);
  });
}

/** The till's lock: `lock()` seals the page and keeps signing out until the server confirms. */
export function useLock(): { state: LockState; lock: () => Promise<void> } {
  const [state, setState] = useState<LockState>('open');
  const started = useRef(false);
  const lock = useCallback(async () => {
    if (started.current) return;
    started.current = true;
    const kept = sealCsrf();
    forgetOfflineCopy();
    setState('locking');
    let csrf = kept ? await kept.catch(() => null) : null;
    for (let wait = 500; ; wait = Math.min(wait * 2, MAX_RETRY_MS)) {
      const r = await signOutOnce(csrf);
      if (r.done) break;
      csrf = r.csrf;
      setState('offline');
      await pause(wait);
    }
    window.location.assign('/pos/lock');
  }, []);
  return { state, lock };
}
