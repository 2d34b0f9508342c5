'use client';
// Close shift on My shift (docs/counter.md#close-shift): the cashier types the **Cash counted** in
// the drawer; POST /api/pos/shift/close records counted, expected and the difference in the
// audit log and starts the next shift. The result is shown; the page's figures then start afresh.
import { useState } from 'react';
import { useLocale, useTranslations } from 'next-intl';
import { csrfFetch } from '@/app/_lib/csrf-fetch';
import { moneyText } from '@/lib/pos/client';
import { parseFiatMinor } from '@/lib/money';
import s from '../pos.module.css';
import c from '../cash.module.css';

interface Closed {
  expected: string;
  counted: string;
  difference: string;
  currency: string;
}

export function CloseShift({ currency }: { currency: string }) {
  const t = useTranslations('cash');
  const locale = useLocale();
  const [counted, setCounted] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [closed, setClosed] = useState<Closed | null>(null);
  const show = (v: string) => moneyText(parseFiatMinor(v, currency, { allowNegative: true }), currency, locale);

  if (closed) {
    return (
      <div className={c.panel} role="status" data-testid="shift-closed">
        <p className={c.change}>
          <span>{t('shiftClosed')}</span>
        </p>
        <p className={c.change}>
          <span>{t('expected')}</span>
          <span>{show(closed.expected)}</span>
        </p>
        <p className={c.change}>
          <span>{t('counted')}</span>
          <span>{show(closed.counted)}</span>
        </p>
        <p className={c.change}>
          <span>{t('difference')}</span>
          <span data-testid="shift-difference">{show(closed.difference)}</span>
        </p>
      </div>
    );
  }
  return (
    <form
      className={c.panel}
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        setError('');
        try {
          const r = await csrfFetch('/api/pos/shift/close', {
            method: 'POST',
            body: JSON.stringify({ cash_counted: counted.trim().replace(',', '.') }),
          });
          const data = await r.json().catch(() => ({}));
          if (!r.ok) return setError(data.message ?? t('failed', { status: r.status }));
          setClosed(data as Closed);
        } catch {
          setError(t('network'));
        } finally {
          setBusy(false);
        }
      }}
    >
      <label className={c.field}>
        <span>{t('cashCounted')}</span>
        <input inputMode="decimal" autoComplete="off" required value={counted} onChange={(e) => setCounted(e.target.value)} />
      </label>
      {error ? (
        <p className={s.error} role="alert">
          {error}
        </p>
      ) : null}
      <div className={c.actions}>
        <button type="submit" className={s.primary} disabled={busy}>
          {t('closeShift')}
        </button>
      </div>
    </form>
  );
}
