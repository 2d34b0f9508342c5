'use client';
// Today's sales of this cashier, live: a light poll of the vendor API through SWR (no stream:
// those are capped per user), revalidated at once when a sale's own stream reports a change
// (use-payment-feed.ts). A failed poll, or the browser going offline, says the till cannot reach
// Counter; a 401 says the session is gone, and the kept till must not outlive it
// (app/_lib/kept-till.ts).
import { useSyncExternalStore } from 'react';
import useSWR from 'swr';
import { forgetKeptTill } from '@/app/_lib/kept-till';
import { isSealed } from '@/app/_lib/csrf-fetch';
import { POLL_DEFAULTS, ReadError, readJson } from '@/app/_lib/swr';
import type { RecentSale } from '@/lib/pos';
import { saleFromView, type VendorPaymentView } from '@/lib/pos/client';
import { startOfLocalDay } from '@/lib/time';

/** Today's sales are re-read this often; a failed read says the till is offline. */
const SALES_POLL_MS = 4_000;

/** The SWR key of today's sales: the first element names it, for revalidating it from elsewhere. */
export const SALES_KEY = 'pos-sales';
export const isSalesKey = (key: unknown) => Array.isArray(key) && key[0] === SALES_KEY;

async function readTodaysSales([, timeZone]: [string, string]): Promise<RecentSale[]> {
  const midnight = startOfLocalDay(new Date(), timeZone); // today in the store's zone, as of this read
  const b = await readJson<{ payments: VendorPaymentView[] }>(
    `/api/v1/payments?limit=20&from=${encodeURIComponent(midnight.toISOString())}`,
  );
  return b.payments.map((v) => saleFromView(v, timeZone));
}

/** The browser's online and offline events: navigator.onLine is read again on each. */
function followOnline(changed: () => void) {
  window.addEventListener('offline', changed);
  window.addEventListener('online', changed);
  return () => {
    window.removeEventListener('offline', changed);
    window.removeEventListener('online', changed);
  };
}

export function useSales(initial: RecentSale[], timeZone: string) {
  const online = useSyncExternalStore(
    followOnline,
    () => navigator.onLine,
    () => true,
  );
  const { data, error, mutate } = useSWR([SALES_KEY, timeZone] as [string, string], readTodaysSales, {
    ...POLL_DEFAULTS,
    fallbackData: initial,
    refreshInterval: SALES_POLL_MS,
    // While the till is locking, the lock owns the page: its sign-out's 401 must not send the
    // page to the password form before the lock screen (use-lock.ts).
    isPaused: isSealed,
    onError: (e) => {
      if (!(e instanceof ReadError) || e.status !== 401 || isSealed()) return;
      void forgetKeptTill().then(() => window.location.assign('/login?next=%2Fpos'));
    },
  });

  /** `reachable`: false while Counter does not answer (the till refuses to charge, docs/using-counter.md#the-till-pos). */
  return { sales: data ?? initial, reachable: online && !error, refresh: () => mutate() };
}
