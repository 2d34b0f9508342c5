'use client';
// Cash on the till (docs/counter.md#cash): a **Cash** button beside the Dogecoin charge opens a
// **Cash received** field; the change shows as the cashier types ("Change" and its amount, exact
// in the currency's minor units through lib/cash), and **Complete cash sale** records the sale,
// paid, through POST /api/v1/payments { "tender": "cash", "cash_received" } with a per-sale
// Idempotency-Key (a retry after a lost answer records one sale, not two). Then the receipt.
import { useRef, useState } from 'react';
import { useLocale, useTranslations } from 'next-intl';
import { csrfFetch } from '@/app/_lib/csrf-fetch';
import { cashChange, CashAmountError } from '@/lib/cash/client';
import { moneyText, paymentBody, DOGE_CURRENCY, type CartExtras, type CartLine } from '@/lib/pos/cart';
import type { PosStore } from '@/lib/pos/catalog';
import { orderRef } from './use-charge';
import { formatFiatMinor } from '@/lib/money';
import { localizeDecimalString } from '@/lib/i18n/numbers';
import s from './pos.module.css';
import c from './cash.module.css';

function saleKey(): string {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  return 'cash-' + Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

/** The typed amount as the API takes it: a decimal comma becomes a point, spaces go. */
const normalise = (v: string) => v.trim().replace(/\s/g, '').replace(',', '.');

/** Cash beside the Dogecoin charge, when the store prices in fiat and has not turned cash off. */
export function CashTender({ store, currency, cart, disabled }: {
  store: PosStore; currency: string; cart: { lines: CartLine[]; extras: CartExtras; totals: { total: bigint } }; disabled: boolean;
}) {
  if (!store.cashEnabled || currency === DOGE_CURRENCY) return null;
  return (
    <CashCharge currency={currency} totalMinor={cart.totals.total} disabled={disabled}
      // The same lines the Dogecoin charge would send (lib/pos/cart paymentBody), priced in fiat.
      body={() => ({ ...paymentBody(cart.lines, cart.extras, { rate: store.fiatRate, currency: store.fiatCurrency }, { orderReference: orderRef(), currency }) })}
      onDone={(id) => window.location.assign(`/pos/receipt/${encodeURIComponent(id)}`)} />
  );
}

function CashCharge({ currency, totalMinor, disabled, body, onDone }: {
  /** The store's fiat pricing currency. */
  currency: string;
  /** The cart's total, in that currency's minor units. */
  totalMinor: bigint;
  disabled: boolean;
  /** The sale's request body (the same lines the Dogecoin charge would send); throws when the cart cannot be charged. */
  body: () => Record<string, unknown>;
  onDone: (paymentId: string) => void;
}) {
  const t = useTranslations('cash');
  const locale = useLocale();
  const [open, setOpen] = useState(false);
  const [received, setReceived] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const pending = useRef<{ key: string; same: string; body: string } | null>(null);

  if (!open) {
    return (
      <button type="button" className={`${s.secondary} ${c.cashButton}`} disabled={disabled} onClick={() => { setOpen(true); setError(''); }}>
        {t('cash')}
      </button>
    );
  }

  let change: bigint | null = null;
  let short = false;
  if (received.trim()) {
    try {
      change = cashChange(totalMinor, normalise(received), currency).changeMinor;
    } catch (e) {
      short = e instanceof CashAmountError && /less than the total/.test(e.message);
    }
  }

  async function complete() {
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
      const r = await csrfFetch('/api/v1/payments', { method: 'POST', headers: { 'Idempotency-Key': pending.current.key }, body: pending.current.body });
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

  return (
    <div className={c.panel} role="group" aria-label={t('cash')}>
      <label className={c.field}>
        <span>{t('received')}</span>
        <input inputMode="decimal" autoComplete="off" autoFocus value={received} onChange={(e) => setReceived(e.target.value)}
          onKeyDown={(e) => { if (e.key === 'Enter') { e.preventDefault(); void complete(); } }}
          aria-describedby="cash-change" placeholder={localizeDecimalString(formatFiatMinor(totalMinor, currency), locale)} />
      </label>
      <p className={c.change} id="cash-change" aria-live="polite">
        <span>{t('change')}</span>
        <span data-testid="cash-change">{change !== null ? moneyText(change, currency, locale) : short ? t('short') : '—'}</span>
      </p>
      {error ? <p className={s.error} role="alert">{error}</p> : null}
      <div className={c.actions}>
        <button type="button" className={s.primary} disabled={busy || disabled || change === null} onClick={complete}>
          {busy ? t('recording') : t('complete')}
        </button>
        <button type="button" className={s.secondary} disabled={busy} onClick={() => { setOpen(false); setReceived(''); setError(''); }}>{t('back')}</button>
      </div>
    </div>
  );
}
