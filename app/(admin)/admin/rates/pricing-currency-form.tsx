'use client';
import { useState } from 'react';
import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useAdminCall } from '../_components/api';
import { HydratedFields, SubmitButton } from '@/app/_lib/action-button';

// The store's pricing currency (docs/using-counter.md#pricing-in-dollars-euros-fiat-pricing), owner only: DOGE, or the ISO 4217 code that
// catalog prices and the till's keypad use, converted at the rate in force.
export function PricingCurrencyForm({ initial }: { initial: string }) {
  const router = useRouter();
  const t = useTranslations('adminRates');
  const ta = useTranslations('admin');
  const adminCall = useAdminCall();
  const [value, setValue] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [msg, setMsg] = useState<{ error: boolean; text: string } | null>(null);
  async function save(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setMsg(null);
    const r = await adminCall<{ pricing_currency: string }>('PATCH', '/api/admin/settings', {
      pricing_currency: value.trim().toUpperCase(),
    });
    setBusy(false);
    if (!r.ok) return setMsg({ error: true, text: r.message });
    setValue(r.data.pricing_currency);
    setMsg({ error: false, text: t('nowIn', { currency: r.data.pricing_currency }) });
    router.refresh();
  }
  return (
    <form onSubmit={save} className="bo-row" aria-label={t('pricing')}>
      <HydratedFields>
        <label className="field">
          <span>{t('formLabel')}</span>
          <input
            name="pricing_currency"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            maxLength={4}
            required
            pattern="[A-Za-z]{3,4}"
            autoComplete="off"
            spellCheck={false}
          />
        </label>
        <SubmitButton className="btn" disabled={busy}>
          {busy ? ta('saving') : ta('save')}
        </SubmitButton>
        {msg ? (
          <span role={msg.error ? 'alert' : 'status'} className={msg.error ? 'form-error' : 'bo-ok'}>
            {msg.text}
          </span>
        ) : null}
      </HydratedFields>
    </form>
  );
}
