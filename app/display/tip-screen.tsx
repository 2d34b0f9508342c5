'use client';
// The customer's tip, on the screen that faces them (docs/counter.md#tips-on-the-customers-display):
// while the till waits, "No tip", the store's three percentages of the sale (taxes included) with
// their amounts in the pricing currency, and "Custom" (an amount typed in that currency). The
// display's only buttons: each answers POST /api/display/tip once, and the till then charges.
import { useState } from 'react';
import { useLocale, useTranslations } from 'next-intl';
import { moneyText } from '@/lib/pos/client';
import type { TipScreen as Tip } from '@/lib/display';
import s from './display.module.css';
import k from './tip-screen.module.css';

export function TipScreen({ tip }: { tip: Tip }) {
  const t = useTranslations('display');
  const locale = useLocale();
  const [custom, setCustom] = useState(false);
  const [amount, setAmount] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const money = (v: string) => moneyText(BigInt(v), tip.currency, locale);

  async function answer(body: { percent: number } | { amount: string }) {
    setError('');
    setBusy(true);
    try {
      const r = await fetch('/api/display/tip', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (r.status === 400) setError(t('tipRefused'));
      else if (!r.ok && r.status !== 409) setError(t('tipFailed'));
    } catch {
      setError(t('tipFailed'));
    } finally {
      setBusy(false);
    }
  }

  if (tip.answered) {
    return (
      <main className={s.welcome}>
        <p className={s.welcomeText} role="status" data-testid="display-tip-thanks">
          {t('tipThanks')}
        </p>
      </main>
    );
  }
  return (
    <main className={k.main} aria-labelledby="display-tip-heading">
      <h2 id="display-tip-heading" className={k.heading}>
        {t('addTip')}
      </h2>
      <p className={k.sale} data-testid="display-tip-sale">
        {t('tipSale', { amount: money(tip.base) })}
      </p>
      <div className={k.choices}>
        <button type="button" className={k.choice} disabled={busy} onClick={() => void answer({ percent: 0 })}>
          {t('noTip')}
        </button>
        {tip.options.map((o) => (
          <button key={o.percent} type="button" className={k.choice} disabled={busy} onClick={() => void answer({ percent: o.percent })}>
            <strong>{o.percent}%</strong> <span>{money(o.amount)}</span>
          </button>
        ))}
        <button type="button" className={k.choice} disabled={busy} aria-expanded={custom} onClick={() => setCustom((c) => !c)}>
          {t('customTip')}
        </button>
      </div>
      {custom ? (
        <form
          className={k.custom}
          onSubmit={(e) => {
            e.preventDefault();
            if (amount.trim()) void answer({ amount: amount.trim().replace(',', '.') });
          }}
        >
          <label>
            {t('tipAmount', { currency: tip.currency })}
            <input value={amount} onChange={(e) => setAmount(e.target.value)} inputMode="decimal" autoComplete="off" autoFocus />
          </label>
          <button type="submit" className={k.choice} disabled={busy || !amount.trim()}>
            {t('giveTip')}
          </button>
        </form>
      ) : null}
      {error ? (
        <p className={k.error} role="alert">
          {error}
        </p>
      ) : null}
    </main>
  );
}
