'use client';
// The run's report, live: each case's result and detail, the user agents seen, and copies of the
// report as JSON and as text for a bug report.
import { useState } from 'react';
import { useTranslations } from 'next-intl';
import type { CaseName } from '@/lib/wallet-check';
import s from './wallet-check.module.css';

export interface ReportCase {
  id: string;
  name: CaseName;
  title: string;
  expect: 'pay' | 'refuse';
  uri: string;
  result: 'pending' | 'pass' | 'fail';
  detail: string;
}
export interface Report {
  id: string;
  created_at: string;
  finished_at: string | null;
  user_agents: string[];
  cases: ReportCase[];
}

function asText(r: Report): string {
  const lines = [`Counter wallet check ${r.id} (${r.created_at})`, `User agents: ${r.user_agents.join(', ') || '-'}`, ''];
  for (const c of r.cases) lines.push(`[${c.result.toUpperCase()}] ${c.name} (${c.expect}): ${c.title}${c.detail ? ` - ${c.detail}` : ''}`);
  return lines.join('\n') + '\n';
}

export function ReportTable({ report }: { report: Report }) {
  const t = useTranslations('walletCheck');
  const [copied, setCopied] = useState('');
  const copy = async (what: 'json' | 'text') => {
    await navigator.clipboard?.writeText(what === 'json' ? JSON.stringify(report, null, 2) : asText(report)).catch(() => undefined);
    setCopied(what === 'json' ? t('copiedJson') : t('copiedText'));
  };
  const passed = report.cases.filter((c) => c.result === 'pass').length;
  return (
    <section className={s.panel} aria-labelledby="wc-report">
      <h2 id="wc-report">{t('report')}</h2>
      <p aria-live="polite">
        {t('summary', { passed, total: report.cases.length })}
        {report.finished_at ? ` ${t('finished')}` : ''}
      </p>
      <p>
        {t('userAgents')}: {report.user_agents.length ? report.user_agents.join(', ') : t('noneYet')}
      </p>
      <table className={s.table}>
        <thead>
          <tr>
            <th scope="col">{t('case')}</th>
            <th scope="col">{t('expect')}</th>
            <th scope="col">{t('result')}</th>
            <th scope="col">{t('detail')}</th>
          </tr>
        </thead>
        <tbody>
          {report.cases.map((c) => (
            <tr key={c.id} data-case={c.name}>
              <td>{t(`cases.${c.name}`)}</td>
              <td>{c.expect === 'pay' ? t('pay') : t('refuse')}</td>
              <td className={s[c.result]}>{t(`results.${c.result}`)}</td>
              <td>{c.detail}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className={s.row}>
        <button type="button" className={s.button} onClick={() => copy('json')}>
          {t('copyJson')}
        </button>
        <button type="button" className={s.button} onClick={() => copy('text')}>
          {t('copyText')}
        </button>
      </div>
      {copied && <p role="status">{copied}</p>}
    </section>
  );
}
