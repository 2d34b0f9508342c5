'use client';
import { useState } from 'react';
import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useAdminCall } from './api';
import { ActionButton } from '@/app/_lib/action-button';

// Declines an unpaid invoice through the vendor API (reason "cancelled by vendor").
export function CancelInvoiceButton({ id }: { id: string }) {
  const router = useRouter();
  const t = useTranslations('adminInvoice');
  const adminCall = useAdminCall();
  const [err, setErr] = useState('');
  return (
    <span className="bo-inline">
      <ActionButton
        className="btn"
        onClick={async () => {
          if (!confirm(t('cancelConfirm'))) return;
          const r = await adminCall('POST', `/api/v1/payments/${encodeURIComponent(id)}/cancel`);
          if (!r.ok) return setErr(r.message);
          router.refresh();
        }}
      >
        {t('cancelInvoice')}
      </ActionButton>
      {err ? (
        <span role="alert" className="form-error">
          {err}
        </span>
      ) : null}
    </span>
  );
}
