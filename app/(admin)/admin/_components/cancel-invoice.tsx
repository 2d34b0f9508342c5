'use client';
import { useState } from 'react';
import { useRouter } from 'next/navigation';
import { adminCall } from './api';

// Declines an unpaid invoice through the vendor API (reason "cancelled by vendor").
export function CancelInvoiceButton({ id }: { id: string }) {
  const router = useRouter();
  const [err, setErr] = useState('');
  return (
    <span className="bo-inline">
      <button type="button" className="btn" onClick={async () => {
        if (!confirm('Cancel this invoice? A customer can no longer pay it.')) return;
        const r = await adminCall('POST', `/api/v1/payments/${encodeURIComponent(id)}/cancel`);
        if (!r.ok) return setErr(r.message);
        router.refresh();
      }}>Cancel invoice</button>
      {err ? <span role="alert" className="form-error">{err}</span> : null}
    </span>
  );
}
