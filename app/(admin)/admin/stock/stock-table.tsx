'use client';
// The stock page's table and its adjust form (docs/catalog.md#stock): an adjustment is posted to
// POST /api/admin/products/<id>/stock, which answers the product's stock and movements (shown
// under the form).
import { Fragment, useState } from 'react';
import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useAdminCall } from '../_components/api';
import type { StockView, TrackedProduct } from '@/lib/stock';
import { ActionButton, HydratedFields, SubmitButton } from '@/app/_lib/action-button';

const REASONS = ['received', 'count', 'damaged', 'returned', 'other'] as const;

export function StockTable({ products }: { products: TrackedProduct[] }) {
  const t = useTranslations('adminStock');
  const [open, setOpen] = useState<string | null>(null);
  if (!products.length) return <p className="muted bo-empty">{t('none')}</p>;
  return (
    <section className="bo-card bo-table-wrap">
      <table className="bo-table" aria-label={t('title')}>
        <thead>
          <tr>
            <th>{t('product')}</th>
            <th>{t('sku')}</th>
            <th>{t('stock')}</th>
            <th>{t('lowAt')}</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {products.map((p) => (
            <Fragment key={p.id}>
              <tr data-testid={`stock-row-${p.sku}`}>
                <td>
                  {p.name}{' '}
                  {p.stock <= 0 ? (
                    <span className="bo-badge bo-badge-declined">{t('out')}</span>
                  ) : p.low ? (
                    <span className="bo-badge bo-badge-exception">{t('low')}</span>
                  ) : null}
                </td>
                <td className="bo-mono">{p.sku}</td>
                <td className="bo-amount" data-testid="stock-level">
                  {p.stock}
                </td>
                <td>{p.low_stock}</td>
                <td>
                  <ActionButton
                    className="btn bo-btn-sm"
                    aria-expanded={open === p.id}
                    aria-label={t('adjustFor', { name: p.name })}
                    onClick={() => setOpen(open === p.id ? null : p.id)}
                  >
                    {t('adjust')}
                  </ActionButton>
                </td>
              </tr>
              {open === p.id ? (
                <tr>
                  <td colSpan={5}>
                    <AdjustForm product={p} />
                  </td>
                </tr>
              ) : null}
            </Fragment>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function AdjustForm({ product }: { product: TrackedProduct }) {
  const t = useTranslations('adminStock');
  const router = useRouter();
  const adminCall = useAdminCall();
  const [kind, setKind] = useState<'delta' | 'count'>('delta');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState<(typeof REASONS)[number]>('received');
  const [note, setNote] = useState('');
  const [err, setErr] = useState('');
  const [busy, setBusy] = useState(false);
  const [view, setView] = useState<StockView | null>(null);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setErr('');
    const n = Number(amount.trim());
    setBusy(true);
    const r = await adminCall<StockView>('POST', `/api/admin/products/${encodeURIComponent(product.id)}/stock`, {
      [kind]: amount.trim() === '' ? NaN : n,
      reason,
      ...(note.trim() ? { note: note.trim() } : {}),
    });
    setBusy(false);
    if (!r.ok) return setErr(r.message);
    setView(r.data);
    setAmount('');
    setNote('');
    router.refresh();
  };
  return (
    <form className="bo-form-grid" onSubmit={submit} aria-label={t('adjustFor', { name: product.name })}>
      <HydratedFields>
        <label>
          {t('kind')}{' '}
          <select
            value={kind}
            onChange={(e) => {
              setKind(e.target.value as 'delta' | 'count');
              if (e.target.value === 'count') setReason('count');
            }}
          >
            <option value="delta">{t('kindDelta')}</option>
            <option value="count">{t('kindCount')}</option>
          </select>
        </label>
        <label>
          {t('amount')} <input type="number" step={1} required value={amount} onChange={(e) => setAmount(e.target.value)} />
        </label>
        <label>
          {t('reason')}{' '}
          <select value={reason} onChange={(e) => setReason(e.target.value as (typeof REASONS)[number])}>
            {REASONS.map((r) => (
              <option key={r} value={r}>
                {t(`reason_${r}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('note')} <input type="text" maxLength={500} value={note} onChange={(e) => setNote(e.target.value)} />
        </label>
        <span className="bo-inline">
          <SubmitButton className="btn" disabled={busy}>
            {t('apply')}
          </SubmitButton>
        </span>
        {err ? (
          <span role="alert" className="form-error">
            {err}
          </span>
        ) : null}
        {view ? <Movements view={view} /> : null}
      </HydratedFields>
    </form>
  );
}

function Movements({ view }: { view: StockView }) {
  const t = useTranslations('adminStock');
  if (!view.movements.length) return <p className="muted">{t('noMovements')}</p>;
  const known = ['received', 'count', 'damaged', 'returned', 'other', 'sale', 'declined'] as const;
  const label = (r: string) => (known.includes(r as (typeof known)[number]) ? t(`reason_${r as (typeof known)[number]}`) : r);
  return (
    <table className="bo-table bo-span" aria-label={t('movements')}>
      <thead>
        <tr>
          <th>{t('when')}</th>
          <th>{t('change')}</th>
          <th>{t('reason')}</th>
          <th>{t('note')}</th>
          <th>{t('who')}</th>
          <th>{t('payment')}</th>
        </tr>
      </thead>
      <tbody>
        {view.movements.slice(0, 20).map((m, i) => (
          <tr key={i}>
            <td>
              <time dateTime={m.at}>{m.at.replace('T', ' ').slice(0, 19)}</time>
            </td>
            <td className="bo-amount">{m.delta > 0 ? `+${m.delta}` : m.delta}</td>
            <td>{label(m.reason)}</td>
            <td>{m.note}</td>
            <td>{m.user ?? ''}</td>
            <td className="bo-mono">
              {m.payment_id ? <a href={`/admin/invoices/${encodeURIComponent(m.payment_id)}`}>{m.payment_id.slice(0, 10)}</a> : ''}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
