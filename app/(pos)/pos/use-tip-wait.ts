'use client';
// Asking the customer for a tip on the paired display (docs/counter.md#tips-on-the-customers-display):
// with tips on, Charge first opens the till's wait (POST /api/pos/display/tip with the sale's
// total before the tip), then reads the customer's answer until it comes (GET), and ends the wait
// (DELETE) before charging with it. No paired display (or not a registered till): the charge goes
// on at once with the till's own tip. Skip tip ends the wait and charges without the customer's.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslations } from 'next-intl';
import { csrfFetch } from '@/app/_lib/csrf-fetch';

/** How often the till reads the customer's answer while it waits. */
const POLL_MS = 500;

/** The customer's tip in minor units, 'skip' (Skip tip), or 'none' (no display asked). */
export type TipOutcome = bigint | 'skip' | 'none';

export function useTipWait(setError: (message: string) => void) {
  const t = useTranslations('till');
  const [waiting, setWaiting] = useState(false);
  const settle = useRef<((o: TipOutcome) => void) | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const finish = useCallback((o: TipOutcome) => {
    clearTimeout(timer.current);
    setWaiting(false);
    const done = settle.current;
    settle.current = null;
    // The wait ends on the server too, whatever the outcome; a lost DELETE is ended by the next wait.
    void csrfFetch('/api/pos/display/tip', { method: 'DELETE' }).catch(() => undefined);
    done?.(o);
  }, []);

  /** Reads the customer's answer every POLL_MS until it comes or the wait ends. */
  const poll = useCallback(() => {
    const waitingNow = () => settle.current !== null;
    const once = async () => {
      if (!waitingNow()) return;
      try {
        const r = await fetch('/api/pos/display/tip', { cache: 'no-store' });
        const b = (await r.json().catch(() => ({}))) as { answer?: string | null };
        if (r.ok && typeof b.answer === 'string' && /^\d+$/.test(b.answer)) return finish(BigInt(b.answer));
      } catch {
        /* offline for a moment: read again */
      }
      if (waitingNow()) timer.current = setTimeout(() => void once(), POLL_MS); // Skip tip may have ended it meanwhile
    };
    timer.current = setTimeout(() => void once(), POLL_MS);
  }, [finish]);

  /** Asks the display for a tip on `base` (minor units of `currency`). */
  const ask = useCallback(
    async (base: bigint, currency: string): Promise<TipOutcome> => {
      try {
        const r = await csrfFetch('/api/pos/display/tip', { method: 'POST', body: JSON.stringify({ total: base.toString(), currency }) });
        const b = (await r.json().catch(() => ({}))) as { waiting?: boolean; message?: string };
        if (r.status === 401 || r.status === 403 || (r.ok && b.waiting === false)) return 'none';
        if (r.status !== 201) {
          setError(b.message ?? t('tipWaitFailed', { status: r.status }));
          return 'none';
        }
      } catch {
        return 'none';
      }
      setWaiting(true);
      return new Promise<TipOutcome>((resolve) => {
        settle.current = resolve;
        poll();
      });
    },
    [poll, setError, t],
  );

  // Leaving the till while it waits ends the wait (the display returns to the cart).
  useEffect(
    () => () => {
      if (settle.current) finish('skip');
    },
    [finish],
  );

  return { waiting, ask, skip: () => finish('skip') };
}
