'use client';
// Export and Import of the catalog as CSV (docs/catalog.md#csv-export-and-import). A chosen file
// is first sent with ?dry_run=1: the plan (to create, to update, unchanged, and each error with
// its line and column) is shown, and only then can it be applied. The server applies the same
// file all or nothing, so a preview with errors has no Apply.
import { useRef, useState } from 'react';
import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { csrfFetch } from '@/app/_lib/csrf-fetch';
import { useHydrated } from '@/app/_lib/use-hydrated';
import type { ImportPlan } from '@/lib/backoffice';
import { ActionButton } from '@/app/_lib/action-button';

/** The import's own limit (1 MiB): a larger file is refused here before it is sent. */
const MAX_BYTES = 1024 * 1024;
/** Errors listed on the page; the count says how many more there are. */
const SHOWN_ERRORS = 50;

type State =
  | { kind: 'idle' }
  | { kind: 'busy'; what: 'checking' | 'applying' }
  | { kind: 'preview'; plan: ImportPlan }
  | { kind: 'done'; plan: ImportPlan }
  | { kind: 'error'; message: string };

// The file's bytes as they are: the server judges the encoding (a non-UTF-8 file is refused, not
// imported with U+FFFD where the browser's decoding lost its letters).
async function send(bytes: ArrayBuffer, dryRun: boolean): Promise<{ status: number; plan: ImportPlan | null; message: string }> {
  const r = await csrfFetch(`/api/admin/products/import${dryRun ? '?dry_run=1' : ''}`, {
    method: 'POST',
    body: bytes,
    headers: { 'Content-Type': 'text/csv' },
  });
  const body = await r.json().catch(() => null);
  const plan = body && typeof body.create === 'number' ? (body as ImportPlan) : null;
  return { status: r.status, plan, message: body?.message ?? '' };
}

export function CatalogImport() {
  // A file chosen before hydration would be dropped (no onChange yet): the picker waits for it.
  const hydrated = useHydrated();
  const t = useTranslations('adminCatalog');
  const ta = useTranslations('admin');
  const tc = useTranslations('common');
  const router = useRouter();
  const fileRef = useRef<HTMLInputElement>(null);
  const [bytes, setBytes] = useState<ArrayBuffer | null>(null);
  const [state, setState] = useState<State>({ kind: 'idle' });

  const fail = (status: number, message: string) => setState({ kind: 'error', message: message || tc('requestFailed', { status }) });

  async function choose(file: File | undefined) {
    setBytes(null);
    if (!file) return setState({ kind: 'idle' });
    if (file.size > MAX_BYTES) return setState({ kind: 'error', message: t('importTooLarge') });
    const csv = await file.arrayBuffer();
    setBytes(csv);
    setState({ kind: 'busy', what: 'checking' });
    try {
      const r = await send(csv, true);
      if (r.plan) setState({ kind: 'preview', plan: r.plan });
      else fail(r.status, r.message);
    } catch {
      setState({ kind: 'error', message: tc('networkRetry') });
    }
  }

  async function apply() {
    if (!bytes) return;
    setState({ kind: 'busy', what: 'applying' });
    try {
      const r = await send(bytes, false);
      if (r.status === 200 && r.plan) {
        setState({ kind: 'done', plan: r.plan });
        setBytes(null);
        if (fileRef.current) fileRef.current.value = '';
        router.refresh(); // the product list and the categories, as the server now has them
      } else if (r.plan)
        setState({ kind: 'preview', plan: r.plan }); // the catalog changed since the preview
      else fail(r.status, r.message);
    } catch {
      setState({ kind: 'error', message: tc('networkRetry') });
    }
  }

  const plan = state.kind === 'preview' || state.kind === 'done' ? state.plan : null;
  const canApply = state.kind === 'preview' && plan !== null && plan.errors.length === 0 && plan.create + plan.update > 0;
  return (
    <section className="bo-card" aria-labelledby="catalog-import-h">
      <div className="bo-card-head">
        <h2 id="catalog-import-h">{t('importHeading')}</h2>
        <a className="btn" href="/api/admin/products/export" download>
          {ta('exportCsv')}
        </a>
      </div>
      <p className="muted">{t('importHelp')}</p>
      <label className="field">
        <span>{t('importFile')}</span>
        <input
          ref={fileRef}
          type="file"
          accept=".csv,text/csv"
          onChange={(e) => void choose(e.target.files?.[0])}
          disabled={!hydrated || state.kind === 'busy'}
        />
      </label>
      <div aria-live="polite">
        {state.kind === 'busy' ? <p className="muted">{state.what === 'checking' ? t('importChecking') : t('importApplying')}</p> : null}
        {state.kind === 'error' ? (
          <p role="alert" className="form-error">
            {state.message}
          </p>
        ) : null}
        {state.kind === 'done' && plan ? (
          <p role="status" className="bo-ok" data-testid="import-done">
            {t('imported', { create: plan.create, update: plan.update, unchanged: plan.unchanged })}
          </p>
        ) : null}
        {state.kind === 'preview' && plan ? <Preview plan={plan} /> : null}
      </div>
      {state.kind === 'preview' ? (
        <div className="bo-form-actions">
          <ActionButton
            className="btn"
            onClick={() => {
              setState({ kind: 'idle' });
              setBytes(null);
              if (fileRef.current) fileRef.current.value = '';
            }}
          >
            {ta('cancel')}
          </ActionButton>
          <ActionButton className="btn btn-primary" onClick={() => void apply()} disabled={!canApply}>
            {t('importApply')}
          </ActionButton>
        </div>
      ) : null}
    </section>
  );
}

function Preview({ plan }: { plan: ImportPlan }) {
  const t = useTranslations('adminCatalog');
  const errors = plan.errors;
  return (
    <div data-testid="import-preview">
      <ul className="bo-stats bo-plain" aria-label={t('importPlan')}>
        <li className="bo-stat">
          <span>{t('planCreate')}</span>
          <b data-testid="plan-create">{plan.create}</b>
        </li>
        <li className="bo-stat">
          <span>{t('planUpdate')}</span>
          <b data-testid="plan-update">{plan.update}</b>
        </li>
        <li className="bo-stat">
          <span>{t('planUnchanged')}</span>
          <b data-testid="plan-unchanged">{plan.unchanged}</b>
        </li>
      </ul>
      {errors.length ? (
        <>
          <p role="alert" className="form-error">
            {t('planErrors', { n: errors.length })}
          </p>
          <div className="bo-table-wrap">
            <table className="bo-table" data-testid="import-errors">
              <thead>
                <tr>
                  <th className="num">{t('errLine')}</th>
                  <th>{t('errColumn')}</th>
                  <th>{t('errMessage')}</th>
                </tr>
              </thead>
              <tbody>
                {errors.slice(0, SHOWN_ERRORS).map((e, i) => (
                  <tr key={i}>
                    <td className="num">{e.line}</td>
                    <td className="bo-mono">{e.column}</td>
                    <td>{e.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {errors.length > SHOWN_ERRORS ? <p className="muted">{t('moreErrors', { n: errors.length - SHOWN_ERRORS })}</p> : null}
        </>
      ) : plan.create + plan.update === 0 ? (
        <p className="muted">{t('planNothing')}</p>
      ) : (
        <p>{t('planReady')}</p>
      )}
    </div>
  );
}
