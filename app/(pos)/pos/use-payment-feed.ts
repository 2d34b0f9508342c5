'use client';
// The payment on the till's payment screen, live from its event stream
// (/api/v1/payments/<id>/events, app/_lib/payment-events.ts). Whenever the stream (re)opens the
// payment is fetched once, for whatever happened while it was away; a stream refused for good
// (429, 5xx) is tried afresh after a while, and at once when the browser is back online. Each
// change it reports also refreshes today's sales (use-sales.ts), so the list needs no poll to show it.
import { useEffect, useState } from 'react';
import { useSWRConfig } from 'swr';
import { isSalesKey } from './use-sales';
import { followPaymentEvents } from '@/app/_lib/payment-events';
import type { PosPaymentView } from '@/lib/pos';

export type PaymentView = PosPaymentView & { txid?: string | null };

const RETRY_REFUSED_MS = 3000;

/** `sse`: whether the stream is up (false: the screen says "Status unknown" for a sale not final). */
export function usePaymentFeed(payment: PaymentView & { id: string }) {
  const [view, setView] = useState<PaymentView>(payment);
  const [sse, setSse] = useState(true);
  const [attempt, setAttempt] = useState(0);
  const { mutate } = useSWRConfig();

  useEffect(() => {
    let closed = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const id = encodeURIComponent(payment.id);
    const resync = () =>
      fetch(`/api/v1/payments/${id}`, { cache: 'no-store' })
        .then((r) => (r.ok ? r.json() : null))
        .then((b) => {
          if (b && !closed) setView(b);
        })
        .catch(() => null);
    const close = followPaymentEvents<PaymentView>(`/api/v1/payments/${id}/events`, {
      payment: (v) => {
        setSse(true);
        setView(v);
        void mutate(isSalesKey);
      },
      open: () => {
        setSse(true);
        void resync();
      },
      down: (refused) => {
        setSse(false);
        if (refused) retry = setTimeout(() => setAttempt((a) => a + 1), RETRY_REFUSED_MS);
      },
    });
    const online = () => setAttempt((a) => a + 1);
    window.addEventListener('online', online);
    return () => {
      closed = true;
      clearTimeout(retry);
      window.removeEventListener('online', online);
      close();
    };
  }, [payment.id, attempt, mutate]);

  return { view, setView, sse };
}
