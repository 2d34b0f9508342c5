// GET /wallet-check (docs/wallet-check.md): a wallet developer starts a run, scans each case's QR
// code with the wallet under test and reads the live report. 404 where the check does not run
// (mainnet without WALLET_CHECK=on).
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { staticContext } from '@/lib/app-context';
import { walletCheckEnabled } from '@/lib/wallet-check';
import { WalletCheck } from './wallet-check';
import s from './wallet-check.module.css';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('walletCheck');
  return { title: t('title'), robots: { index: false, follow: false } };
}

export default async function WalletCheckPage({ searchParams }: { searchParams: Promise<{ run?: string | string[] }> }) {
  const { cfg } = staticContext();
  if (!walletCheckEnabled(cfg.network, cfg.walletCheck)) notFound();
  const { run } = await searchParams;
  const t = await getTranslations('walletCheck');
  const runId = typeof run === 'string' && /^wcr_[A-Za-z0-9_-]{1,40}$/.test(run) ? run : null;
  return (
    <main className={s.page}>
      <h1>{t('title')}</h1>
      <p className={s.intro}>{t('intro')}</p>
      <WalletCheck initialRun={runId} />
    </main>
  );
}
