'use client';
import { useEffect, useState } from 'react';
import { useRouter } from 'next/navigation';
import { adminCall } from './api';

// The Refund button on a paid invoice (DESIGN.md §13): a small form (DOGE or fiat amount, rate
// then/now, address, reason) posted to POST /api/v1/payments/<id>/refunds. The new refund then
// shows in the invoice's Refunds list with its QR code for the merchant's wallet.
export function RefundInvoice({ id, refundable, currency, customerAddress }: { id: string; refundable: string; currency: string; customerAddress: string }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [unit, setUnit] = useState<'doge' | 'fiat'>('doge');
  const [amount, setAmount] = useState('');
  const [rate, setRate] = useState<'then' | 'now'>('then');
  const [address, setAddress] = useState('');
  const [reason, setReason] = useState('');
  const [err, setErr] = useState('');
  const [busy, setBusy] = useState(false);
  if (!open) return <button type="button" className="btn" data-testid="refund-open" onClick={() => setOpen(true)}>Refund</button>;
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setErr('');
    setBusy(true);
    const a = amount.trim();
    const body: Record<string, unknown> = { reason, address: address.trim() || null };
    if (a && unit === 'doge') body.amount = a;
    if (a && unit === 'fiat') Object.assign(body, { fiat_amount: a, rate });
    const r = await adminCall('POST', `/api/v1/payments/${encodeURIComponent(id)}/refunds`, body);
    setBusy(false);
    if (!r.ok) return setErr(r.message);
    setOpen(false);
    setAmount('');
    router.refresh();
  };
  return (
    <form className="bo-refund-form" data-testid="refund-form" onSubmit={submit}>
      <p className="muted">Up to {refundable} DOGE can be refunded. Leave the amount empty to refund all of it.</p>
      <label>Amount <input type="text" inputMode="decimal" value={amount} maxLength={40} onChange={(e) => setAmount(e.target.value)} placeholder={refundable} /></label>
      <label>In <select value={unit} onChange={(e) => setUnit(e.target.value as 'doge' | 'fiat')}>
        <option value="doge">DOGE</option>
        <option value="fiat">{currency}</option>
      </select></label>
      {unit === 'fiat' ? (
        <label>Rate <select value={rate} onChange={(e) => setRate(e.target.value as 'then' | 'now')}>
          <option value="then">the payment&apos;s rate</option>
          <option value="now">today&apos;s rate</option>
        </select></label>
      ) : null}
      <label>Address <input type="text" value={address} maxLength={100} onChange={(e) => setAddress(e.target.value)} placeholder={customerAddress || 'the customer\u2019s address'} /></label>
      <label>Reason <input type="text" value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} placeholder="why (kept with the refund)" /></label>
      <span className="bo-inline">
        <button type="submit" className="btn" disabled={busy}>Create refund</button>
        <button type="button" className="btn" onClick={() => setOpen(false)}>Cancel</button>
      </span>
      {err ? <span role="alert" className="form-error">{err}</span> : null}
    </form>
  );
}

/** A refund's live status: polls /relay/status (the refund id is its capability) until confirmed or declined. */
export function RefundStatus({ id, status }: { id: string; status: string }) {
  const router = useRouter();
  const [now, setNow] = useState(status);
  useEffect(() => {
    if (now === 'confirmed' || now === 'declined') return;
    const t = setInterval(async () => {
      try {
        const r = await fetch('/relay/status', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ id }) });
        const s = (await r.json()) as { status?: string };
        if (s.status && s.status !== now) {
          setNow(s.status);
          router.refresh();
        }
      } catch {
        /* next round */
      }
    }, 3000);
    return () => clearInterval(t);
  }, [id, now, router]);
  return <span className={`bo-badge bo-badge-${now}`} data-testid="refund-status">{now}</span>;
}

/** Cancels an unpaid refund created by mistake (POST /api/v1/payments/<rf_id>/cancel): its amount may be refunded again. */
export function CancelRefundButton({ id }: { id: string }) {
  const router = useRouter();
  const [err, setErr] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <span className="bo-inline">
      <button type="button" className="btn" data-testid="refund-cancel" disabled={busy} onClick={async () => {
        if (!confirm('Cancel this refund? Its QR code stops working, and the amount can be refunded again.')) return;
        setBusy(true);
        const r = await adminCall('POST', `/api/v1/payments/${encodeURIComponent(id)}/cancel`);
        setBusy(false);
        if (!r.ok) return setErr(r.message);
        router.refresh();
      }}>Cancel refund</button>
      {err ? <span role="alert" className="form-error">{err}</span> : null}
    </span>
  );
}
