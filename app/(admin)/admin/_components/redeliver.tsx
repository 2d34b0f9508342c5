'use client';
import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { useAdminCall } from './api';

export function RedeliverButton({ seq }: { seq: string }) {
  const t = useTranslations('admin');
  const adminCall = useAdminCall();
  const [msg, setMsg] = useState('');
  return (
    <span className="bo-inline">
      <button
        type="button"
        className="btn bo-btn-sm"
        onClick={async () => {
          const r = await adminCall('POST', `/api/admin/events/${seq}/redeliver`);
          setMsg(r.ok ? t('queued') : r.message);
        }}
      >
        {t('redeliver')}
      </button>
      {msg ? (
        <span role="status" className="muted">
          {msg}
        </span>
      ) : null}
    </span>
  );
}
