'use client';
// The back office's current store (docs/architecture.md#data): its name always, and a Store select
// for a member of several. Switching makes the session act for the chosen store (the same
// session and CSRF token), then reloads the page so every read is that store's.
import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { csrfFetch } from '@/app/_lib/csrf-fetch';
import { useHydrated } from '@/app/_lib/use-hydrated';

export function StoreSelect({ stores, current }: { stores: { id: number; name: string }[]; current: { id: number; name: string } }) {
  const t = useTranslations('adminStore');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(false);
  // A choice made on the server's HTML, before hydration, would be reset by React without a
  // change event (as ActionButton's comment says of clicks): the select waits for hydration.
  const hydrated = useHydrated();
  if (stores.length < 2)
    return (
      <span className="bo-store-name" data-testid="current-store">
        {current.name}
      </span>
    );

  async function change(id: number) {
    setBusy(true);
    setError(false);
    const r = await csrfFetch('/api/auth/store', { method: 'POST', body: JSON.stringify({ store_id: id }) }).catch(() => null);
    if (r && r.status === 204) return window.location.reload();
    setBusy(false);
    setError(true);
  }

  return (
    <label className="bo-store-select">
      <span>{t('store')}</span>
      <select
        className="btn bo-btn-sm"
        value={current.id}
        disabled={busy || !hydrated}
        data-testid="store-select"
        onChange={(e) => void change(Number(e.target.value))}
      >
        {stores.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name}
          </option>
        ))}
      </select>
      {error ? (
        <span role="alert" className="form-error">
          {t('switchFailed')}
        </span>
      ) : null}
    </label>
  );
}
