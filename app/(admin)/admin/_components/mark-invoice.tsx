'use client';
import { useState } from 'react';
import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useAdminCall } from './api';
import { ActionButton } from '@/app/_lib/action-button';

// The merchant's decision on an unpaid or accepted invoice (docs/api.md#payments-from-any-wallet): Mark settled /
// Mark invalid, with a note, after a confirm step. Goes through POST /api/v1/payments/<id>/mark.
export function MarkInvoice({ id }: { id: string }) {
  const router = useRouter();
  const t = useTranslations('adminInvoice');
  const adminCall = useAdminCall();
  const [note, setNote] = useState('');
  const [pending, setPending] = useState<'settled' | 'invalid' | null>(null);
  const [err, setErr] = useState('');
  const submit = async (as: 'settled' | 'invalid') => {
    const r = await adminCall('POST', `/api/v1/payments/${encodeURIComponent(id)}/mark`, { as, note });
    setPending(null);
    if (!r.ok) return setErr(r.message);
    router.refresh();
  };
  return (
    <div className="bo-mark" data-testid="mark-invoice">
      <label>
        {t('markNote')}{' '}
        <input type="text" value={note} maxLength={1000} onChange={(e) => setNote(e.target.value)} placeholder={t('markNotePlaceholder')} />
      </label>
      {pending ? (
        <span className="bo-inline">
          <span>{pending === 'settled' ? t('markSettledQ') : t('markInvalidQ')}</span>
          <ActionButton className="btn" onClick={() => submit(pending)}>
            {t('yesMark', { as: pending })}
          </ActionButton>
          <ActionButton className="btn" onClick={() => setPending(null)}>
            {t('no')}
          </ActionButton>
        </span>
      ) : (
        <span className="bo-inline">
          <ActionButton
            className="btn"
            onClick={() => {
              setErr('');
              setPending('settled');
            }}
          >
            {t('markSettled')}
          </ActionButton>
          <ActionButton
            className="btn"
            onClick={() => {
              setErr('');
              setPending('invalid');
            }}
          >
            {t('markInvalid')}
          </ActionButton>
        </span>
      )}
      {err ? (
        <span role="alert" className="form-error">
          {err}
        </span>
      ) : null}
    </div>
  );
}
