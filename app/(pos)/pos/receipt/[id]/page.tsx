// A printable receipt for one payment (DESIGN.md §15): the lines include their tax and add up to
// the total; times in the store's zone; layouts for 58 mm and 80 mm thermal paper (?paper=58|80,
// default 80), each with its own @page size; an email form once the payment is paid.
import { notFound } from 'next/navigation';
import { getLocale, getTranslations } from 'next-intl/server';
import { INTL_TAG, isLocale } from '@/lib/i18n/locales';
import { requirePageUser } from '@/app/_lib/session';
import { appContext } from '@/lib/app-context';
import { seesOnlyOwnSales } from '@/lib/auth';
import { loadReceipt } from '@/lib/receipts/receipt';
import { receiptAmount } from '@/lib/receipts/model';
import { PrintButton } from './print-button';
import { EmailReceipt } from '../email-receipt';
import pos from '../../pos.module.css';
import s from '../receipt.module.css';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Receipt — Counter' };

const PAPER = { '58': { width: 58, side: 5 }, '80': { width: 80, side: 4 } } as const;

export default async function ReceiptPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ paper?: string }> }) {
  const { id } = await params;
  const { paper: paperParam } = await searchParams;
  const user = await requirePageUser('cashier', `/pos/receipt/${encodeURIComponent(id)}`);
  const locale = await getLocale();
  const [t, ts, tc, tf] = await Promise.all([getTranslations('receipt'), getTranslations('sales'), getTranslations('common'), getTranslations('receiptFiat')]);
  const r = /^[A-Za-z0-9_-]{1,64}$/.test(id)
    ? await loadReceipt((await appContext()).db, id, new Date(), locale === 'en' || !isLocale(locale) ? undefined : INTL_TAG[locale])
    : null;
  // A cashier prints only its own sales; another's is "not found" (DESIGN.md §3).
  if (!r || (seesOnlyOwnSales(user.role) && r.createdBy !== user.id)) notFound();
  const paper = paperParam === '58' ? '58' : '80';
  const { width, side } = PAPER[paper];
  const ref = r.orderReference || r.id.slice(0, 10);
  const paid = r.status === 'accepted' || r.status === 'confirmed';
  // Amounts in the receipt's currency: DOGE, or the fiat currency a fiat-priced sale was priced in (Intl).
  const amt = (v: string) => receiptAmount(v, r.currency, locale);
  const fiatPriced = r.currency !== 'DOGE' && r.rate !== null;
  return (
    <main className={s.page}>
      {/* @page has no selector for a class: the chosen paper's rule is written here. The first size is
          a fallback for engines that refuse "auto" as the page length. */}
      <style>{`@page { size: ${width}mm 297mm; size: ${width}mm auto; margin: 3mm ${side}mm; }`}</style>
      <div className={s.sheet}>
        <article className={`${s.receipt} ${paper === '58' ? s.p58 : s.p80}`} aria-label={t('label')} data-testid="receipt" data-paper={paper} data-currency={r.currency}>
          <header>
            <h1>{r.storeName}</h1>
            {r.storeAddress ? <p>{r.storeAddress}</p> : null}
            {r.storeUrl ? <p>{r.storeUrl}</p> : null}
          </header>
          <p className={s.meta}>
            <span data-testid="receipt-time"><time dateTime={r.createdAt}>{r.createdAtText}</time></span>
            <span>{ref}</span>
          </p>
          <ul className={s.lines} aria-label={t('lines')}>
            {r.lines.map((l, i) => (
              <li key={i} className={s.line} data-testid="receipt-line" data-total={l.total}>
                <span className={s.name}>{l.name}</span>
                <span className={s.amounts}>
                  <span className={s.detail}>
                    {l.count !== null && l.unit ? `${l.count} × ${amt(l.unit)}` : ''}
                    {l.tax ? <>{l.count !== null && l.unit ? ' · ' : ''}{t('lineTax', { amount: amt(l.tax) })}</> : null}
                  </span>
                  <span className={s.lineTotal}>{amt(l.total)}</span>
                </span>
              </li>
            ))}
          </ul>
          <div className={s.totals}>
            <div className={`${s.row} ${s.grand}`}><span>{t('total')}</span><span data-testid="receipt-total">{amt(r.total)}</span></div>
            {r.taxes ? <div className={s.row}><span>{t('inclTax')}</span><span>{amt(r.taxes)}</span></div> : null}
            {fiatPriced && r.rate ? (
              <>
                <div className={s.row}><span>{tf('paid')}</span><span data-testid="receipt-doge-total">{receiptAmount(r.dogeTotal, 'DOGE', locale)}</span></div>
                <p className={s.small} data-testid="receipt-rate">
                  {tf('rate', { rate: `1 DOGE = ${r.rate.value} ${r.currency}`, source: r.rate.source, at: r.rate.atText })}
                </p>
              </>
            ) : r.fiatTotal ? <div className={s.row}><span>≈ {r.fiatCurrency}</span><span>{r.fiatTotal}{r.fiatTax ? ` ${t('fiatTax', { amount: r.fiatTax })}` : ''}</span></div> : null}
          </div>
          <p className={s.status} data-testid="receipt-status">
            {['unpaid', 'accepted', 'confirmed', 'declined', 'cancelled', 'expired'].includes(r.state) ? ts(`state_${r.state}` as 'state_unpaid') : r.state}
            {r.state === 'accepted' ? ` · ${t('confirmations', { n: r.confirmations, m: r.required })}` : ''}
            {r.confirmedAtText ? ` · ${r.confirmedAtText}` : ''}
          </p>
          {r.txid ? <p className={s.small}>{t('transaction')}<br /><code>{r.txid}</code></p> : null}
          <p className={s.small}>{t('paidTo')} <code>{r.address}</code></p>
          <p className={s.thanks}>{t('thanks')}</p>
        </article>
      </div>
      <div className={`${s.actions} ${s.noPrint}`}>
        <nav className={s.paperSel} aria-label={t('paperWidth')}>
          <a href={`?paper=58`} aria-current={paper === '58'}>58 mm</a>
          <a href={`?paper=80`} aria-current={paper === '80'}>80 mm</a>
        </nav>
        <PrintButton />
        <a className={pos.secondary} href="/pos">{tc('backToTill')}</a>
      </div>
      {paid ? <div className={s.noPrint}><EmailReceipt paymentId={r.id} /></div> : null}
    </main>
  );
}
