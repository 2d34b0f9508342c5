'use client';
import { useState } from 'react';
import { adminCall } from './api';

export function RedeliverButton({ seq }: { seq: string }) {
  const [msg, setMsg] = useState('');
  return (
    <span className="bo-inline">
      <button type="button" className="btn bo-btn-sm" onClick={async () => {
        const r = await adminCall('POST', `/api/admin/events/${seq}/redeliver`);
        setMsg(r.ok ? 'Queued for delivery' : r.message);
      }}>Redeliver</button>
      {msg ? <span role="status" className="muted">{msg}</span> : null}
    </span>
  );
}
