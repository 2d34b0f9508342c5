'use client';
// The operator's list of stores, read through SWR (re-read after each change), with Suspend or
// Resume on each row. A suspended store takes no new payments; its open ones run to their end.
import { useState } from 'react';
import { useLocale, useTranslations } from 'next-intl';
import { usePoll } from '@/app/_lib/swr';
import { useAdminCall } from '../admin/_components/api';
import { NewStore } from './new-store';
import { ActionButton } from '@/app/_lib/action-button';

interface StoreRow {
  id: number;
  name: string;
  created_at: string;
  suspended: boolean;
  payments: number;
}

export function OperatorStores({ initial }: { initial: { stores: StoreRow[] } }) {
  const t = useTranslations('operator');
  const locale = useLocale();
  const call = useAdminCall();
  const { data, error: readError, mutate } = usePoll<{ stores: StoreRow[] }>('/api/operator/stores', initial, { refreshInterval: 0 });
  const [error, setError] = useState('');
  const [busy, setBusy] = useState<number | null>(null);

  async function setSuspended(s: StoreRow, suspended: boolean) {
    setBusy(s.id);
    setError('');
    const r = await call<StoreRow>('PATCH', `/api/operator/stores/${s.id}`, { suspended });
    setBusy(null);
    if (!r.ok) setError(r.message);
    await mutate();
  }

  const stores = data?.stores ?? [];
  return (
    <>
      <NewStore onCreated={() => void mutate()} />
      {error || readError ? (
        <p role="alert" className="form-error">
          {error || t('loadFailed')}
        </p>
      ) : null}
      <section className="bo-card bo-table-wrap">
        {stores.length === 0 ? (
          <p className="muted">{t('none')}</p>
        ) : (
          <table className="bo-table">
            <thead>
              <tr>
                <th>{t('store')}</th>
                <th className="bo-hide-sm">{t('created')}</th>
                <th className="num">{t('payments')}</th>
                <th>{t('status')}</th>
                <th></th>
              </tr>
            </thead>
            <tbody>
              {stores.map((s) => (
                <tr key={s.id} data-store-id={s.id}>
                  <td>
                    <b>{s.name}</b>
                  </td>
                  <td className="bo-hide-sm">{new Date(s.created_at).toLocaleDateString(locale)}</td>
                  <td className="num">{s.payments.toLocaleString(locale)}</td>
                  <td>
                    <span className={`bo-badge ${s.suspended ? 'bo-badge-declined' : 'bo-badge-confirmed'}`}>
                      {s.suspended ? t('suspended') : t('active')}
                    </span>
                  </td>
                  <td className="num">
                    <ActionButton
                      className="btn bo-btn-sm"
                      disabled={busy === s.id}
                      aria-label={`${s.suspended ? t('resume') : t('suspend')} ${s.name}`}
                      onClick={() => void setSuspended(s, !s.suspended)}
                    >
                      {s.suspended ? t('resume') : t('suspend')}
                    </ActionButton>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
