'use client';
// Today's sales of this cashier, live: a light poll of the vendor API (no stream: those are
// capped per user). A failed poll, or the browser going offline, says the till cannot reach
// Counter; a 401 says the session is gone, and the kept till must not outlive it
// (app/_lib/kept-till.ts).
import { useCallback, useEffect, useState } from 'react';
import { forgetKeptTill } from '@/app/_lib/kept-till';
import { isSealed } from '@/app/_lib/csrf-fetch';
import type { RecentSale } from '@/lib/pos/catalog';
import { saleFromView, type VendorPaymentView } from '@/lib/pos/sales';
import { startOfLocalDay } from '@/lib/time/zone';

/** Today's sales are re-read this often; a failed read says the till is offline. */
const SALES_POLL_MS = 4_000;

export function useSales(initial: RecentSale[], timeZone: string) {
  const [sales, setSales] = useState<RecentSale[]>(initial);
  const [reachable, setReachable] = useState(true);

  const refresh = useCallback(async () => {
    // While the till is locking, the lock owns the page: its sign-out's 401 must not send the
    // page to the password form before the lock screen (use-lock.ts).
    if (isSealed()) return;
    const midnight = startOfLocalDay(new Date(), timeZone); // today in the store's zone
    try {
      const r = await fetch(`/api/v1/payments?limit=20&from=${encodeURIComponent(midnight.toISOString())}`, { cache: 'no-store' });
      if (r.status === 401) {
        if (isSealed()) return;
        await forgetKeptTill();
        window.location.assign('/login?next=%2Fpos');
        return;
      }
      if (!r.ok) throw new Error(String(r.status));
      const b = (await r.json()) as { payments: VendorPaymentView[] };
      setSales(b.payments.map((v) => saleFromView(v, timeZone)));
      setReachable(true);
    } catch {
      setReachable(false);
    }
  }, [timeZone]);

  useEffect(() => {
    const timer = setInterval(refresh, SALES_POLL_MS);
    const offline = () => setReachable(false);
    const online = () => void refresh();
    window.addEventListener('offline', offline);
    window.addEventListener('online', online);
    if (!navigator.onLine) setReachable(false);
    return () => {
      clearInterval(timer);
      window.removeEventListener('offline', offline);
      window.removeEventListener('online', online);
    };
  }, [refresh]);

  /** `reachable`: false while Counter does not answer (the till refuses to charge, docs/using-counter.md#the-till-pos). */
  return { sales, reachable, refresh };
}
