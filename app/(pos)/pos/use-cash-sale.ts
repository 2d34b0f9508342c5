'use client';
// Recording a cash sale (docs/counter.md#cash): POST /api/v1/payments { "tender": "cash",
// "cash_received" } with a per-sale Idempotency-Key, so a retry after a lost answer records one
// sale, not two. Used by the till's cash panel (cash-charge.tsx).
import { useRef, useState } from 'react';
import { useTranslations } from 'next-intl';
import { csrfFetch } from '@/app/_lib/csrf-fetch';
import { cashChange, CashAmountError } from '@/lib/cash/client';

function saleKey(): string {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  return 'cash-' + Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

/** The typed amount as the API takes it: a decimal comma becomes a point, spaces go. */
export const normalise = (v: string) => v.trim().replace(/\s/g, '').replace(',', '.');

/** The change for the cash typed so far: its amount, or `short` when less than the total. */
export function typedChange(totalMinor: bigint, received: string, currency: string): { change: bigint | null; short: boolean } {
  if (!received.trim()) return { change: null, short: false };
  try {
    return { change: cashChange(totalMinor, normalise(received), currency).changeMinor, short: false };
  } catch (e) {
    return { change: null, short: e instanceof CashAmountError && /less than the total/.test(e.message) };
  }
}

export function useCashSale({
  currency,
  totalMinor,
  body,
  onDone,
}: {
  currency: string;
  totalMinor: bigint;
  body: () => Record<string, unknown>;
  onDone: (paymentId: string) => void;
}) {
  const t = useTranslations('cash');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const pending = useRef<{ key: string; same: string; body: string } | null>(null);

  async function complete(received: string) {
    setError('');
    const text = normalise(received);
    try {
      cashChange(totalMinor, text, currency);
    } catch {
      setError(t('notEnough'));
      return;
    }
    // One sale = one key and one exact body, kept while the total and the cash typed stay the
    // same: a retry after a lost answer replays it instead of recording the sale twice.
    const same = `${totalMinor}:${text}`;
    if (!pending.current || pending.current.same !== same) {
      try {
        pending.current = { key: saleKey(), same, body: JSON.stringify({ ...body(), tender: 'cash', cash_received: text }) };
      } catch (e) {
        setError((e as Error).message);
        return;
      }
    }
    setBusy(true);
    try {
      const r = await csrfFetch('/api/v1/payments', {
        method: 'POST',
        headers: { 'Idempotency-Key': pending.current.key },
        body: pending.current.body,
      });
      const data = await r.json().catch(() => ({}));
      if (r.status === 503 && data.error === 'rate_unavailable') return setError(t('rateUnavailable', { currency }));
      if (r.status !== 201 && r.status !== 200) return setError(data.message ?? t('failed', { status: r.status }));
      pending.current = null;
      onDone(String(data.id));
    } catch {
      setError(t('network'));
    } finally {
      setBusy(false);
    }
  }

  return { busy, error, setError, complete };
}
