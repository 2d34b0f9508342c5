'use client';
// One case at a time: its QR code (drawn as the checkout page draws it, so wallets and zbar read
// it), what the wallet should do, and Previous / Next.
import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { qrImage } from '@/lib/checkout/client';
import type { ReportCase } from './report-table';
import s from './wallet-check.module.css';

export function CaseStepper({ cases }: { cases: ReportCase[] }) {
  const t = useTranslations('walletCheck');
  const [i, setI] = useState(0);
  const c = cases[i];
  if (!c) return null;
  const qr = qrImage(c.uri);
  return (
    <section className={s.panel} aria-labelledby="wc-case">
      <h2 id="wc-case">
        {t('caseOf', { n: i + 1, total: cases.length })}: {t(`cases.${c.name}`)}
      </h2>
      <p>{c.expect === 'pay' ? t('expectPay') : t('expectRefuse')}</p>
      {/* eslint-disable-next-line @next/next/no-img-element -- the QR code is a generated data: URL, which next/image cannot optimise */}
      <img className={s.qr} src={qr.src} width={qr.px} height={qr.px} alt={t('qrAlt', { name: c.name })} data-uri={c.uri} />
      <a className={s.uri} href={c.uri}>
        {c.uri}
      </a>
      <div className={s.row}>
        <button type="button" className={s.button} onClick={() => setI(i - 1)} disabled={i === 0}>
          {t('previous')}
        </button>
        <button type="button" className={`${s.button} ${s.primary}`} onClick={() => setI(i + 1)} disabled={i === cases.length - 1}>
          {t('next')}
        </button>
      </div>
    </section>
  );
}
