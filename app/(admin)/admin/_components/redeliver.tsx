'use client';
import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { useAdminCall } from './api';
import { ActionButton } from '@/app/_lib/action-button';

export function RedeliverButton({ seq }: { seq: string }) {
  const t = useTranslations('admin');
  const adminCall = useAdminCall();
  const [msg, setMsg] = useState('');
  return (
    <span className="bo-inline">
      <ActionButton
        className="btn bo-btn-sm"
        onClick={async () => {
          const r = await adminCall('POST', `/api/admin/events/${seq}/redeliver`);
          setMsg(r.ok ? t('queued') : r.message);
        }}
      >
        {t('redeliver')}
      </ActionButton>
      {msg ? (
        <span role="status" className="muted">
          {msg}
        </span>
      ) : null}
    </span>
  );
}
