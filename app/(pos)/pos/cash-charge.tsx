'use client';
// Cash on the till (docs/counter.md#cash): a **Cash** button beside the Dogecoin charge opens a
// **Cash received** field; the change shows as the cashier types ("Change" and its amount, exact
// in the currency's minor units through lib/cash), and **Complete cash sale** records the sale,
// paid, through POST /api/v1/payments { "tender": "cash", "cash_received" } with a per-sale
// Idempotency-Key (a retry after a lost answer records one sale, not two). Then the receipt.
import { useState } from 'react';
import { useLocale, useTranslations } from 'next-intl';
import { moneyText, paymentBody, DOGE_CURRENCY, type CartExtras, type CartLine } from '@/lib/pos/client';
import type { PosStore } from '@/lib/pos';
import { orderRef } from './use-charge';
import { typedChange, useCashSale } from './use-cash-sale';
import { formatFiatMinor } from '@/lib/money';
import { localizeDecimalString } from '@/lib/i18n';
import s from './pos.module.css';
import c from './cash.module.css';

/** Cash beside the Dogecoin charge, when the store prices in fiat and has not turned cash off. */
export function CashTender({
  store,
  currency,
  cart,
  disabled,
  ticketId = null,
}: {
  store: PosStore;
  currency: string;
  cart: { lines: CartLine[]; extras: CartExtras; totals: { total: bigint } };
  disabled: boolean;
  /** The open ticket the cart came from: the sale closes it (docs/counter.md#open-tickets). */
  ticketId?: string | null;
}) {
  if (!store.cashEnabled || currency === DOGE_CURRENCY) return null;
  return (
    <CashCharge
      currency={currency}
      totalMinor={cart.totals.total}
      disabled={disabled}
      // The same lines the Dogecoin charge would send (lib/pos/cart paymentBody), priced in fiat.
      body={() => ({
        ...paymentBody(
          cart.lines,
          cart.extras,
          { rate: store.fiatRate, currency: store.fiatCurrency },
          { orderReference: orderRef(), currency },
        ),
        ...(ticketId ? { ticket_id: ticketId } : {}),
      })}
      onDone={(id) => window.location.assign(`/pos/receipt/${encodeURIComponent(id)}`)}
    />
  );
}

function CashCharge({
  currency,
  totalMinor,
  disabled,
  body,
  onDone,
}: {
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
  const { busy, error, setError, complete: record } = useCashSale({ currency, totalMinor, body, onDone });
  const complete = () => record(received);

  if (!open) {
    return (
      <button
        type="button"
        className={`${s.secondary} ${c.cashButton}`}
        disabled={disabled}
        onClick={() => {
          setOpen(true);
          setError('');
        }}
      >
        {t('cash')}
      </button>
    );
  }
  const { change, short } = typedChange(totalMinor, received, currency);

  return (
    <div className={c.panel} role="group" aria-label={t('cash')}>
      <label className={c.field}>
        <span>{t('received')}</span>
        <input
          inputMode="decimal"
          autoComplete="off"
          autoFocus
          value={received}
          onChange={(e) => setReceived(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              void complete();
            }
          }}
          aria-describedby="cash-change"
          placeholder={localizeDecimalString(formatFiatMinor(totalMinor, currency), locale)}
        />
      </label>
      <p className={c.change} id="cash-change" aria-live="polite">
        <span>{t('change')}</span>
        <span data-testid="cash-change">{change !== null ? moneyText(change, currency, locale) : short ? t('short') : '—'}</span>
      </p>
      {error ? (
        <p className={s.error} role="alert">
          {error}
        </p>
      ) : null}
      <div className={c.actions}>
        <button type="button" className={s.primary} disabled={busy || disabled || change === null} onClick={complete}>
          {busy ? t('recording') : t('complete')}
        </button>
        <button
          type="button"
          className={s.secondary}
          disabled={busy}
          onClick={() => {
            setOpen(false);
            setReceived('');
            setError('');
          }}
        >
          {t('back')}
        </button>
      </div>
    </div>
  );
}
