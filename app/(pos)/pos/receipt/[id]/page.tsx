// A printable receipt for one payment (docs/using-counter.md#reports-and-receipts): the lines include their tax and add up to
// the total; times in the store's zone; layouts for 58 mm and 80 mm thermal paper (?paper=58|80,
// default 80), each with its own @page size; an email form once the payment is paid.
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getLocale, getTranslations } from 'next-intl/server';
import { INTL_TAG, isLocale } from '@/lib/i18n';
import { requirePageUser } from '@/app/_lib/session';
import { appContext } from '@/lib/app-context';
import { seesOnlyOwnSales } from '@/lib/auth';
import { loadReceipt } from '@/lib/receipts';
import { PrintButton } from './print-button';
import { EmailReceipt } from '../email-receipt';
import { ReceiptArticle } from '../receipt-article';
import pos from '../../pos.module.css';
import s from '../receipt.module.css';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Receipt — Counter' };

const PAPER = { '58': { width: 58, side: 5 }, '80': { width: 80, side: 4 } } as const;

export default async function ReceiptPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ paper?: string }>;
}) {
  const { id } = await params;
  const { paper: paperParam } = await searchParams;
  const user = await requirePageUser('cashier', `/pos/receipt/${encodeURIComponent(id)}`);
  const locale = await getLocale();
  const [t, tc] = await Promise.all([getTranslations('receipt'), getTranslations('common')]);
  const r = /^[A-Za-z0-9_-]{1,64}$/.test(id)
    ? await loadReceipt(
        (await appContext()).db,
        user.storeId,
        id,
        new Date(),
        locale === 'en' || !isLocale(locale) ? undefined : INTL_TAG[locale],
      )
    : null;
  // A cashier prints only its own sales; another's is "not found" (docs/api.md#authentication-and-scopes).
  // On a registered till, a PIN session also sees that till's sales (docs/counter.md): the next
  // cashier prints the receipt of a sale left waiting at a lock.
  const sameTill = !!user.tillOnly?.terminalId && user.tillOnly.terminalId === r?.terminalId;
  if (!r || (seesOnlyOwnSales(user.role) && r.createdBy !== user.id && !sameTill)) notFound();
  const paper = paperParam === '58' ? '58' : '80';
  const { width, side } = PAPER[paper];
  const paid = r.status === 'accepted' || r.status === 'confirmed';
  return (
    <main className={s.page}>
      {/* @page has no selector for a class: the chosen paper's rule is written here. The first size is
          a fallback for engines that refuse "auto" as the page length. */}
      <style>{`@page { size: ${width}mm 297mm; size: ${width}mm auto; margin: 3mm ${side}mm; }`}</style>
      <div className={s.sheet}>
        <ReceiptArticle r={r} locale={locale} paper={paper} />
      </div>
      <div className={`${s.actions} ${s.noPrint}`}>
        <nav className={s.paperSel} aria-label={t('paperWidth')}>
          <a href={`?paper=58`} aria-current={paper === '58'}>
            58 mm
          </a>
          <a href={`?paper=80`} aria-current={paper === '80'}>
            80 mm
          </a>
        </nav>
        <PrintButton />
        <Link className={pos.secondary} href="/pos">
          {tc('backToTill')}
        </Link>
      </div>
      {paid ? (
        <div className={s.noPrint}>
          <EmailReceipt paymentId={r.id} />
        </div>
      ) : null}
    </main>
  );
}
