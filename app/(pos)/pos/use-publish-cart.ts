'use client';
// Publishes the till's cart (or the payment it charges) for its customer displays
// (docs/counter.md#the-customers-display): PUT /api/pos/display/cart on every change, a moment
// later so that a burst of taps is one request, one at a time, always ending on the latest
// state. A browser that is not a registered till is answered 403 once and publishes nothing more.
import { useEffect, useRef } from 'react';
import { csrfFetch } from '@/app/_lib/csrf-fetch';
import { cartTotals, type CartExtras, type CartLine } from '@/lib/pos/client';
import type { DisplayCart } from '@/lib/display';

/** Taps closer together than this are sent as one update (well inside the display's second). */
const DEBOUNCE_MS = 80;

/** A line's name on the display, with its options (docs/catalog.md#options): "Latte · Oat, Extra shot". */
function shownName(l: CartLine): string {
  const name = l.name.trim() || '—';
  return (l.options?.length ? `${name} · ${l.options.join(', ')}` : name).slice(0, 200);
}

export function displayCartBody(lines: readonly CartLine[], extras: CartExtras, currency: string, paymentId: string | null): DisplayCart {
  const t = cartTotals(lines, extras);
  const adjustments: DisplayCart['adjustments'] = [];
  for (const [kind, v] of [
    ['tax', t.tax],
    ['fee', t.fee],
    ['shipping', t.shipping],
    ['discount', -t.discount],
    ['tip', t.tip],
  ] as const) {
    if (v !== 0n) adjustments.push({ kind, amount: v.toString() });
  }
  return {
    currency,
    lines: lines.slice(0, 200).map((l) => ({ name: shownName(l), count: l.count, total: (BigInt(l.count) * l.unit).toString() })),
    adjustments,
    total: t.total.toString(),
    payment_id: paymentId,
  };
}

export function usePublishCart(lines: readonly CartLine[], extras: CartExtras, currency: string, paymentId: string | null): void {
  const latest = useRef('');
  const sent = useRef('');
  const busy = useRef(false);
  const off = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    latest.current = JSON.stringify(displayCartBody(lines, extras, currency, paymentId));
    const flush = async (): Promise<void> => {
      if (off.current || busy.current || latest.current === sent.current) return;
      busy.current = true;
      const body = latest.current;
      let retryMs = 0;
      try {
        const r = await csrfFetch('/api/pos/display/cart', { method: 'PUT', body });
        // Only the status matters: release the answer's body, or the browser keeps the request
        // (and its connection) open until the page goes.
        await r.body?.cancel().catch(() => undefined);
        if (r.status === 401 || r.status === 403)
          off.current = true; // not a registered till (or signed out)
        else if (r.status === 429) retryMs = 1000 * (Number(r.headers.get('Retry-After')) || 1);
        else sent.current = body; // 204, or 400 (nothing to gain by sending the same again)
      } catch {
        retryMs = 2000; // offline: try again with whatever is latest then
      } finally {
        busy.current = false;
      }
      timer.current = setTimeout(() => void flush(), retryMs);
    };
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void flush(), DEBOUNCE_MS);
  }, [lines, extras, currency, paymentId]);

  useEffect(() => () => clearTimeout(timer.current), []);
}
