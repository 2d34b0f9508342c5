'use client';
// The wallet check, live (docs/wallet-check.md): start a run, step through its cases' QR codes,
// and read the report, polled every 2 s (the same body as GET /api/wallet-check/runs/<id>).
import { useState } from 'react';
import useSWR from 'swr';
import { useTranslations } from 'next-intl';
import { ActionButton } from '@/app/_lib/action-button';
import { CaseStepper } from './case-stepper';
import { ReportTable, type Report } from './report-table';
import s from './wallet-check.module.css';

async function getReport(url: string): Promise<Report> {
  const r = await fetch(url, { cache: 'no-store' });
  if (!r.ok) throw new Error(String(r.status));
  return r.json();
}

export function WalletCheck({ initialRun }: { initialRun: string | null }) {
  const t = useTranslations('walletCheck');
  const [runId, setRunId] = useState<string | null>(initialRun);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const url = runId ? `/api/wallet-check/runs/${encodeURIComponent(runId)}` : null;
  const { data: report, mutate } = useSWR(url, getReport, { refreshInterval: (d) => (d?.finished_at ? 0 : 2000) });

  async function start() {
    setBusy(true);
    setError('');
    try {
      const r = await fetch('/api/wallet-check/runs', { method: 'POST' });
      if (r.status === 429) setError(t('throttled', { seconds: r.headers.get('Retry-After') ?? '60' }));
      else if (!r.ok) setError(t('failed'));
      else {
        const run = await r.json();
        window.history.replaceState(null, '', `/wallet-check?run=${encodeURIComponent(run.id)}`);
        setRunId(run.id);
      }
    } finally {
      setBusy(false);
    }
  }

  async function finish() {
    if (!url) return;
    setBusy(true);
    try {
      const r = await fetch(`${url}/finish`, { method: 'POST' });
      if (r.ok) await mutate(await r.json(), { revalidate: false });
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <div className={s.row}>
        {/* Start is on the server's HTML: ActionButton keeps it off until hydration, or a tap would start nothing. */}
        <ActionButton className={`${s.button} ${s.primary}`} onClick={start} disabled={busy}>
          {runId ? t('startAgain') : t('start')}
        </ActionButton>
        {report && !report.finished_at && (
          <button type="button" className={s.button} onClick={finish} disabled={busy}>
            {t('finish')}
          </button>
        )}
      </div>
      {error && (
        <p role="alert" className={s.error}>
          {error}
        </p>
      )}
      {report && (
        <div className={s.grid}>
          {!report.finished_at && <CaseStepper key={report.id} cases={report.cases} />}
          <ReportTable report={report} />
        </div>
      )}
    </>
  );
}
