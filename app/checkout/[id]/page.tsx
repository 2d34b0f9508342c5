// GET /checkout/<id>: the customer's own page for one payment (docs/using-counter.md, "The
// customer's checkout page"). No sign-in: the unguessable id is the capability, as for
// /dc/<id>. It shows the store's name and icon, the order, the payment panel (checkout-live.tsx)
// and, once paid, the receipt as the till prints it. Everything is rendered on the server, so the
// order, the QR code and the wallet link work without JavaScript. Cache-Control: no-store and
// X-Robots-Tag: noindex come from next.config.js (every /checkout/ answer, the 404 included).
import type { Metadata } from 'next';
import { cache } from 'react';
import { notFound } from 'next/navigation';
import { getLocale, getTranslations } from 'next-intl/server';
import { appContext } from '@/lib/app-context';
import { INTL_TAG, isLocale } from '@/lib/i18n';
import { loadCheckout, asksForMoney, checkoutShown, qrImage } from '@/lib/checkout';
import { loadReceipt, receiptAmount } from '@/lib/receipts';
import { LanguageSelect } from '@/app/_lib/language-select';
import { currentUser } from '@/app/_lib/session';
import { ReceiptArticle } from '@/app/(pos)/pos/receipt/receipt-article';
import { CheckoutLive } from './checkout-live';
import { PrintButton } from './print-button';
import s from './checkout.module.css';
import rs from '@/app/(pos)/pos/receipt/receipt.module.css';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ id: string }> };

/** One read per request, shared by the metadata and the page. */
const load = cache(async (id: string) => {
  const ctx = await appContext();
  const now = new Date();
  return { ctx, now, c: await loadCheckout(ctx.db, id, ctx.cfg.publicUrl, now) };
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { c } = await load((await params).id);
  const t = await getTranslations('checkout');
  return {
    title: c ? t('title', { store: c.store.name }) : t('notFound'),
    robots: { index: false, follow: false },
    referrer: 'no-referrer',
  };
}

/** A fiat amount for the reader, or the stored text when it is not in the currency's minor units. */
function fiatText(v: string, currency: string, locale: string): string {
  try {
    return receiptAmount(v, currency, locale);
  } catch {
    return `${v} ${currency}`;
  }
}

export default async function CheckoutPage({ params }: Props) {
  const { ctx, now, c } = await load((await params).id);
  if (!c) notFound();
  const [locale, t, signedIn] = await Promise.all([
    getLocale(),
    getTranslations('checkout'),
    currentUser().then(
      (u) => u !== null,
      () => false,
    ),
  ]);
  const { state, rest } = checkoutShown(c.live, c.total, c.uri, Date.parse(c.expiresAt), now.getTime());
  const qrUri = c.form === 'dogeconnect' ? c.connectUri : c.uri;
  const firstUri = rest ? rest.restUri : qrUri;
  const receipt =
    state === 'paid'
      ? await loadReceipt(ctx.db, 'by-id', c.id, now, locale === 'en' || !isLocale(locale) ? undefined : INTL_TAG[locale])
      : null;
  const amt = (v: string) => receiptAmount(v, c.order.currency, locale);
  const fiat = c.fiatTotal && c.fiatCurrency ? fiatText(c.fiatTotal, c.fiatCurrency, locale) : '';
  const fiatPriced = c.order.currency !== 'DOGE';
  return (
    <div className={s.page}>
      <header className={`${s.top} ${s.noPrint}`}>
        <div className={s.store}>
          {c.store.icon ? (
            // eslint-disable-next-line @next/next/no-img-element -- the store's own icon (a data: URL or another origin's), at its fixed size: next/image would fetch it through this server
            <img className={s.storeIcon} src={c.store.icon} alt="" width={40} height={40} referrerPolicy="no-referrer" />
          ) : (
            <span className={s.storeMark} aria-hidden="true">
              {(c.store.name.trim()[0] ?? 'Ð').toUpperCase()}
            </span>
          )}
          <h1 data-testid="checkout-store">{c.store.name}</h1>
        </div>
        <LanguageSelect signedIn={signedIn} className={s.lang} />
      </header>
      <main className={s.main}>
        <div className={`${s.grid} ${receipt ? s.noPrint : ''}`}>
          <CheckoutLive
            id={c.id}
            total={c.total}
            fiatText={fiat}
            uri={c.uri}
            qrUri={qrUri}
            needsConnect={c.form === 'dogeconnect'}
            expiresAt={c.expiresAt}
            serverNow={now.getTime()}
            initial={c.live}
            shopUrl={c.vendorOrderUrl}
            initialQr={asksForMoney(state) ? { uri: firstUri, image: qrImage(firstUri) } : null}
          />
          <section className={s.order} aria-labelledby="checkout-order-heading" data-testid="checkout-order">
            <h2 id="checkout-order-heading">{t('order')}</h2>
            {c.orderReference ? <p className={s.ref}>{t('orderRef', { ref: c.orderReference })}</p> : null}
            <ul className={s.lines} aria-label={t('lines')}>
              {c.order.lines.map((l, i) => (
                <li key={i} className={s.line} data-testid="checkout-line" data-kind={l.kind} data-total={l.total}>
                  <span className={s.lineName}>
                    {l.name}
                    {l.desc ? <small data-testid="checkout-line-options">{l.desc}</small> : null}
                    {l.count !== null && l.unit ? <small>{`${l.count} × ${amt(l.unit)}`}</small> : null}
                    {l.tax ? <small>{t('lineTax', { amount: amt(l.tax) })}</small> : null}
                  </span>
                  <span className={s.lineTotal}>{amt(l.total)}</span>
                </li>
              ))}
            </ul>
            <div className={s.totals}>
              <div className={`${s.row} ${s.grand}`}>
                <span>{t('total')}</span>
                <span data-testid="checkout-order-total">{amt(c.order.total)}</span>
              </div>
              {c.order.taxes ? (
                <div className={s.row}>
                  <span>{t('inclTax')}</span>
                  <span>{amt(c.order.taxes)}</span>
                </div>
              ) : null}
              {fiatPriced ? (
                <div className={s.row}>
                  <span>{t('toPay')}</span>
                  <span>{receiptAmount(c.total, 'DOGE', locale)}</span>
                </div>
              ) : fiat ? (
                <div className={s.row}>
                  <span />
                  <span>{t('fiatApprox', { amount: fiat })}</span>
                </div>
              ) : null}
            </div>
          </section>
        </div>
        {receipt ? (
          <section className={s.receiptBox} aria-labelledby="checkout-receipt-heading" data-testid="checkout-receipt">
            <h2 id="checkout-receipt-heading" className={s.noPrint}>
              {t('receipt')}
            </h2>
            <div className={rs.sheet}>
              <ReceiptArticle r={receipt} locale={locale} />
            </div>
            <div className={`${s.actions} ${s.noPrint}`}>
              <PrintButton />
            </div>
          </section>
        ) : null}
      </main>
    </div>
  );
}
