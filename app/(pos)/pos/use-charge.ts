'use client';
// Charging: the cart becomes a payment through the vendor API, and the payment on screen (a new
// one, one charged again after it expired, or one reopened from today's sales). This hook is the
// one owner of the current payment: the sale screen shows it, and anything that follows the sale
// observes `payment`. Another tender (cash) starts its payment through `start`.
import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { useTranslations } from 'next-intl';
import { csrfFetch } from '@/app/_lib/csrf-fetch';
import { paymentBody, type CartExtras, type CartLine } from '@/lib/pos/client';
import type { PosStore } from '@/lib/pos';
import type { CreatedPayment } from './created-payment';

export const orderRef = () => 'POS-' + Date.now().toString(36).toUpperCase().slice(-6);

/** A per-charge Idempotency-Key. getRandomValues, unlike randomUUID, also works on plain-http LAN tills. */
export function chargeKey(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  return 'pos-' + Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

export interface ChargeDeps {
  lines: CartLine[];
  extras: CartExtras;
  store: Pick<PosStore, 'fiatRate' | 'fiatCurrency'>;
  /** The pricing currency (DOGE or the store's fiat). */
  currency: string;
  /** Charging is refused while not ready or offline (the screen says why). */
  canCharge: boolean;
  /** The server refused with 503 not_ready: its body, for the readiness notice. */
  onNotReady: (body: unknown) => void;
  /** A payment was created or charged again (today's sales re-read). */
  onStarted: () => void;
  setError: (message: string) => void;
  /** The open ticket the cart came from (docs/counter.md#open-tickets): charged with its id, it closes once paid. */
  ticketId?: string | null;
}

/**
 * POSTs one charge (key + exact body); a retry of the same charge replays the same request.
 * `url`: POST /api/v1/payments, or the charge-again route of an expired sale. True when a payment is on screen.
 */
function useStartCharge(
  depsRef: RefObject<ChargeDeps>,
  setPayment: (p: CreatedPayment) => void,
  setBusy: (b: boolean) => void,
): (key: string, body: string, url?: string) => Promise<boolean> {
  const t = useTranslations('till');
  return useCallback(
    async (key: string, body: string, url = '/api/v1/payments'): Promise<boolean> => {
      const { setError, onNotReady, onStarted, currency } = depsRef.current;
      setBusy(true);
      try {
        const r = await csrfFetch(url, { method: 'POST', headers: { 'Idempotency-Key': key }, body });
        const b = await r.json().catch(() => ({}));
        if (r.status === 503 && b.error === 'not_ready') {
          onNotReady(b);
          return false;
        }
        if (r.status === 503 && b.error === 'rate_unavailable') {
          setError(t('rateUnavailable', { currency }));
          return false;
        }
        if (r.status !== 201 && r.status !== 200) {
          setError(b.message ?? t('startFailed', { status: r.status }));
          return false;
        }
        setPayment(b as CreatedPayment);
        onStarted();
        return true;
      } catch {
        setError(t('networkCharge'));
        return false;
      } finally {
        setBusy(false);
      }
    },
    [t, depsRef, setPayment, setBusy],
  );
}

export function useCharge(d: ChargeDeps) {
  const t = useTranslations('till');
  const [payment, setPayment] = useState<CreatedPayment | null>(null);
  const [busy, setBusy] = useState(false);
  // One charge = one key and one exact body, kept for as long as the cart is the same: a retry
  // after a lost answer replays the same request, so the server returns the payment it already
  // created instead of a second one; a changed cart is a new charge.
  const pending = useRef<{ lines: CartLine[]; extras: CartExtras; ticketId: string | null; key: string; body: string } | null>(null);
  const depsRef = useRef(d);
  // The latest inputs, set after each render (not during it) and before any click can reach them.
  useLayoutEffect(() => {
    depsRef.current = d;
  });

  const start = useStartCharge(depsRef, setPayment, setBusy);

  /** `tip`: the customer's answer on the display, in place of the cart's tip (lib/display/tip.ts). */
  const charge = useCallback(
    async (tip?: bigint) => {
      const { lines, store, currency, canCharge, setError } = depsRef.current;
      const cartExtras = depsRef.current.extras;
      const extras = tip === undefined || tip === cartExtras.tip ? cartExtras : { ...cartExtras, tip };
      const ticketId = depsRef.current.ticketId ?? null;
      setError('');
      if (!canCharge) return;
      const kept = pending.current;
      if (!kept || kept.lines !== lines || kept.extras !== extras || kept.ticketId !== ticketId) {
        try {
          const body = paymentBody(
            lines,
            extras,
            { rate: store.fiatRate, currency: store.fiatCurrency },
            { orderReference: orderRef(), currency },
          );
          const withTicket = ticketId ? { ...body, ticket_id: ticketId } : body;
          pending.current = { lines, extras, ticketId, key: chargeKey(), body: JSON.stringify(withTicket) };
        } catch (e) {
          setError((e as Error).message);
          return;
        }
      }
      await start(pending.current!.key, pending.current!.body);
    },
    [start],
  );

  /**
   * An expired sale: the same lines as a new payment (its cart may be gone: it was reopened). The
   * server builds it from the stored lines (lib/pos/charge-again.ts): a sale priced in fiat is
   * priced again from its fiat lines at the rate in force now; no fresh rate is rate_unavailable.
   */
  const chargeAgain = useCallback(async () => {
    if (!payment) return;
    const old = payment;
    depsRef.current.setError('');
    setPayment(null);
    const url = `/api/pos/sales/${encodeURIComponent(old.id)}/charge-again`;
    if (!(await start(chargeKey(), JSON.stringify({ order_reference: orderRef() }), url))) setPayment(old);
  }, [payment, start]);

  /** A sale still waiting, from today's sales: its payment screen (its QR code) again. */
  const reopen = useCallback(
    async (id: string) => {
      const { setError } = depsRef.current;
      setError('');
      try {
        const r = await fetch(`/api/v1/payments/${encodeURIComponent(id)}`, { cache: 'no-store' });
        const b = await r.json().catch(() => ({}));
        if (!r.ok) return setError(b.message ?? t('reopenFailed', { status: r.status }));
        setPayment(b as CreatedPayment);
      } catch {
        setError(t('networkReopen'));
      }
    },
    [t],
  );

  /** Leaves the payment screen (New sale); the next charge is a new one. */
  const close = useCallback(() => {
    setPayment(null);
    pending.current = null;
  }, []);

  return { payment, busy, start, charge, chargeAgain, reopen, close };
}
