'use client';
// The wallet check, live (docs/wallet-check.md): start a run, step through its cases' QR codes,
// and read the report, polled every 2 s (the same body as GET /api/wallet-check/runs/<id>).
import { useState } from 'react';
import useSWR from 'swr';
import { useTranslations } from 'next-intl';
import { useHydrated } from '@/app/_lib/use-hydrated';
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
  // Start is on the server's HTML: a tap before hydration would start nothing (app/_lib/use-hydrated.ts).
  const hydrated = useHydrated();
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
        <button type="button" className={`${s.button} ${s.primary}`} onClick={start} disabled={busy || !hydrated}>
          {runId ? t('startAgain') : t('start')}
        </button>
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
