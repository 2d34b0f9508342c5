// The receipt itself (docs/using-counter.md#reports-and-receipts), as the till prints it: the store, the lines with their tax
// adding up to the total, the fiat amounts of a fiat-priced sale, the status and the
// transaction. Shared by the till's receipt page and the customer's checkout page, so both
// print the same thing. A server component: it shows nothing of who sold it.
import { getTranslations } from 'next-intl/server';
import { type Receipt, receiptAmount } from '@/lib/receipts';
import s from './receipt.module.css';

export async function ReceiptArticle({ r, locale, paper = '80' }: { r: Receipt; locale: string; paper?: '58' | '80' }) {
  const [t, ts, tf, tc] = await Promise.all([
    getTranslations('receipt'),
    getTranslations('sales'),
    getTranslations('receiptFiat'),
    getTranslations('cash'),
  ]);
  const ref = r.orderReference || r.id.slice(0, 10);
  // Amounts in the receipt's currency: DOGE, or the fiat currency a fiat-priced sale was priced in (Intl).
  const amt = (v: string) => receiptAmount(v, r.currency, locale);
  const fiatPriced = r.currency !== 'DOGE' && r.rate !== null;
  // A cash sale (docs/counter.md#cash): says Cash, with the cash received and the change; no
  // DOGE paid, transaction or address (it has none).
  const cash = r.tender === 'cash';
  return (
    <article
      className={`${s.receipt} ${paper === '58' ? s.p58 : s.p80}`}
      aria-label={t('label')}
      data-testid="receipt"
      data-paper={paper}
      data-currency={r.currency}
    >
      <header>
        <h1>{r.storeName}</h1>
        {r.storeAddress ? <p>{r.storeAddress}</p> : null}
        {r.storeUrl ? <p>{r.storeUrl}</p> : null}
      </header>
      <p className={s.meta}>
        <span data-testid="receipt-time">
          <time dateTime={r.createdAt}>{r.createdAtText}</time>
        </span>
        <span>{ref}</span>
      </p>
      <ul className={s.lines} aria-label={t('lines')}>
        {r.lines.map((l, i) => (
          <li key={i} className={s.line} data-testid="receipt-line" data-total={l.total}>
            <span className={s.name}>
              {l.name}
              {l.desc ? (
                <small className={s.desc} data-testid="receipt-line-options">
                  {l.desc}
                </small>
              ) : null}
            </span>
            <span className={s.amounts}>
              <span className={s.detail}>
                {l.count !== null && l.unit ? `${l.count} × ${amt(l.unit)}` : ''}
                {l.tax ? (
                  <>
                    {l.count !== null && l.unit ? ' · ' : ''}
                    {t('lineTax', { amount: amt(l.tax) })}
                  </>
                ) : null}
              </span>
              <span className={s.lineTotal}>{amt(l.total)}</span>
            </span>
          </li>
        ))}
      </ul>
      <div className={s.totals}>
        <div className={`${s.row} ${s.grand}`}>
          <span>{t('total')}</span>
          <span data-testid="receipt-total">{amt(r.total)}</span>
        </div>
        {r.taxes ? (
          <div className={s.row}>
            <span>{t('inclTax')}</span>
            <span>{amt(r.taxes)}</span>
          </div>
        ) : null}
        {cash ? (
          <>
            <div className={s.row} data-testid="receipt-tender">
              <span>{tc('tender')}</span>
              <span>{tc('cash')}</span>
            </div>
            <div className={s.row}>
              <span>{tc('received')}</span>
              <span data-testid="receipt-cash-received">{amt(r.cashReceived)}</span>
            </div>
            <div className={s.row}>
              <span>{tc('change')}</span>
              <span data-testid="receipt-change">{amt(r.change)}</span>
            </div>
          </>
        ) : fiatPriced && r.rate ? (
          <>
            <div className={s.row}>
              <span>{tf('paid')}</span>
              <span data-testid="receipt-doge-total">{receiptAmount(r.dogeTotal, 'DOGE', locale)}</span>
            </div>
            <p className={s.small} data-testid="receipt-rate">
              {tf('rate', { rate: `1 DOGE = ${r.rate.value} ${r.currency}`, source: r.rate.source, at: r.rate.atText })}
            </p>
          </>
        ) : r.fiatTotal ? (
          <div className={s.row}>
            <span>≈ {r.fiatCurrency}</span>
            <span>
              {r.fiatTotal}
              {r.fiatTax ? ` ${t('fiatTax', { amount: r.fiatTax })}` : ''}
            </span>
          </div>
        ) : null}
      </div>
      <p className={s.status} data-testid="receipt-status">
        {['unpaid', 'accepted', 'confirmed', 'declined', 'cancelled', 'expired'].includes(r.state)
          ? ts(`state_${r.state}` as 'state_unpaid')
          : r.state}
        {r.state === 'accepted' ? ` · ${t('confirmations', { n: r.confirmations, m: r.required })}` : ''}
        {r.confirmedAtText ? ` · ${r.confirmedAtText}` : ''}
      </p>
      {r.txid ? (
        <p className={s.small}>
          {t('transaction')}
          <br />
          <code>{r.txid}</code>
        </p>
      ) : null}
      {cash ? null : (
        <p className={s.small}>
          {t('paidTo')} <code>{r.address}</code>
        </p>
      )}
      <p className={s.thanks}>{t('thanks')}</p>
    </article>
  );
}
