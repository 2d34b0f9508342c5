'use client';
import { useState } from 'react';
import { useRouter } from 'next/navigation';
import { adminCall } from './api';

// The merchant's decision on an unpaid or accepted invoice (DESIGN.md §12): Mark settled /
// Mark invalid, with a note, after a confirm step. Goes through POST /api/v1/payments/<id>/mark.
export function MarkInvoice({ id }: { id: string }) {
  const router = useRouter();
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
      <label>Note <input type="text" value={note} maxLength={1000} onChange={(e) => setNote(e.target.value)} placeholder="why (kept on the invoice)" /></label>
      {pending ? (
        <span className="bo-inline">
          <span>{pending === 'settled' ? 'Mark this invoice settled (confirmed)?' : 'Mark this invoice invalid (declined)? This is final.'}</span>
          <button type="button" className="btn" onClick={() => submit(pending)}>Yes, mark {pending}</button>
          <button type="button" className="btn" onClick={() => setPending(null)}>No</button>
        </span>
      ) : (
        <span className="bo-inline">
          <button type="button" className="btn" onClick={() => { setErr(''); setPending('settled'); }}>Mark settled</button>
          <button type="button" className="btn" onClick={() => { setErr(''); setPending('invalid'); }}>Mark invalid</button>
        </span>
      )}
      {err ? <span role="alert" className="form-error">{err}</span> : null}
    </div>
  );
}
