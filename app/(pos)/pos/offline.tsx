'use client';
// The till as an installable app (docs/using-counter.md#installing-the-till-as-an-app-and-when-the-network-drops):
// it registers the service worker (public/sw.js, production builds only), which keeps the till's
// page and files for a flaky network; and when the till cannot reach Counter it says so plainly
// and refuses to charge.
import { useEffect } from 'react';
import s from './pos.module.css';

export const OFFLINE_ID = 'till-offline';

/** Shown instead of Charge's usual help while the till cannot reach Counter. */
export function OfflineNotice() {
  return (
    <p id={OFFLINE_ID} className={s.notReady} role="alert" data-testid="till-offline">
      Offline: this till cannot reach Counter, so it cannot take a payment. Charge works again when the connection is back.
    </p>
  );
}

/** Registers /sw.js for the till (scope /pos) and hands it the files this page loaded. */
export function RegisterServiceWorker() {
  useEffect(() => {
    if (process.env.NODE_ENV !== 'production' || !('serviceWorker' in navigator) || !window.isSecureContext) return;
    let stop = false;
    const keep = () => {
      const urls = performance.getEntriesByType('resource').map((e) => e.name);
      navigator.serviceWorker.ready
        .then((reg) => reg.active?.postMessage({ type: 'keep', urls: [location.href, ...urls] }))
        .catch(() => null);
    };
    navigator.serviceWorker
      .register('/sw.js', { scope: '/pos' })
      .then(() => {
        if (!stop) keep();
      })
      .catch(() => null); // no service worker: the till still works online
    const later = setTimeout(keep, 15_000); // files loaded after the page (lazy chunks)
    return () => {
      stop = true;
      clearTimeout(later);
    };
  }, []);
  return null;
}
